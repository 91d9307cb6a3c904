package west1920game

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/west1920"
)

// TestTextsAreWords walks every text How the West was Saved gives a
// person over the rules' golden games — events, refusals, the pending
// decision, the headline and summaries and the `sztab play` summary — in
// both languages, and fails on an id (pl-1dpleg, east_prussia), a word of
// the other language or a glyph the Pi's fonts lack.
func TestTextsAreWords(t *testing.T) {
	cat, err := west1920.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	w := &tabletest.Words{}
	for _, u := range cat.Data.OOB.Units {
		w.IDs = append(w.IDs, u.ID)
		w.AllowNames(u.Name)
	}
	for _, h := range cat.Data.OOB.HQs {
		w.IDs = append(w.IDs, h.ID)
		w.AllowNames(h.Name)
	}
	for _, c := range cat.Cards {
		// The cards' titles are printed in Polish only (left for a
		// translation of the cards; see the report of issue #29).
		w.AllowNames(c.Title)
	}
	for _, c := range cat.Cities {
		w.AllowNames(c.Name)
	}
	files, _ := filepath.Glob("../../rules/west1920/testdata/games/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no golden games under rules/west1920/testdata/games")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := west1920.ParseScript(cat, f, data)
		if err != nil {
			t.Fatal(err)
		}
		g := newGame(west1920.StartGame{}, 1, 1, true)
		var s west1920.State
		for _, l := range lines {
			where := fmt.Sprintf("%s:%d", filepath.Base(f), l.Line)
			next, evs, err := west1920.Apply(s, l.Action)
			if err != nil {
				var rej *rules.Rejection
				if errors.As(err, &rej) {
					w.Check(t, where+" refusal", rej.Reason)
				}
				continue
			}
			s = next
			for _, e := range evs {
				w.Check(t, where+" event "+e.Type, e.Text)
			}
			g.SetState(s)
			w.Check(t, where+" headline", g.Headline())
			for _, x := range g.Summary(companion.Public) {
				w.Check(t, where+" summary", x)
			}
			if s.Pending != nil {
				w.Check(t, where+" pending", s.Pending.Text)
			}
			var pl, en bytes.Buffer
			v := s.View(west1920.Viewer{Referee: true})
			printState(&pl, v, "pl")
			printState(&en, v, "en")
			w.CheckLines(t, where+" sztab play", pl.String(), en.String())
		}
	}
	w.Check(t, "title", Spec.Title)
	for _, bad := range []rules.Text{{PL: "pl-1dpleg", EN: "1. DP Leg."}, {PL: "teren otwarty · east_prussia", EN: "clear · East Prussia"}} {
		if len(w.Problems("planted", bad)) == 0 {
			t.Errorf("%+v passed the walk", bad)
		}
	}
	if w.Checked < 1000 {
		t.Fatalf("only %d texts walked", w.Checked)
	}
}
