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
	w.Foreign = foreignWords(cat)
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
	for _, bad := range []rules.Text{{PL: "pl-1dpleg", EN: "1. DP Leg."}, {PL: "teren otwarty · east_prussia", EN: "clear · East Prussia"},
		{PL: "gracz polski zagrywa kartę 30 „Pociąg pancerny”", EN: "the Polish player plays card 30 “Pociąg pancerny”"},
		{PL: "gracz polski zagrywa kartę 30 „Armoured train”", EN: "the Polish player plays card 30 “Armoured train”"}} {
		if len(w.Problems("planted", bad)) == 0 {
			t.Errorf("%+v passed the walk", bad)
		}
	}
	if w.Checked < 1000 {
		t.Fatalf("only %d texts walked", w.Checked)
	}
}

// foreignWords are the words of the event cards' titles in one language
// (see tabletest.Foreign): on a page in the other language a title left
// untranslated is a fault. Words in both: the people's and places' names
// the titles keep as printed, and the cities', units' and HQs' names.
func foreignWords(cat *west1920.Catalogue) map[string][]string {
	var titles []rules.Text
	for _, c := range cat.Cards {
		titles = append(titles, c.Titles())
	}
	same := []string{"Józef Piłsudski", "Franciszek Krajowski", "Tuchaczewski", "Stalin", "Curzon", "Spa", "Mauser"}
	for _, c := range cat.Cities {
		same = append(same, c.Name)
	}
	for _, u := range cat.Data.OOB.Units {
		same = append(same, u.Name)
	}
	for _, h := range cat.Data.OOB.HQs {
		same = append(same, h.Name)
	}
	return tabletest.Foreign(titles, same...)
}

// ForeignWords is foreignWords for the browser's page checks
// (screens_test.go, package _test).
var ForeignWords = foreignWords
