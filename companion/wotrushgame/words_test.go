package wotrushgame

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
	"github.com/sztab/sztab/rules/wotrush"
)

// TestTextsAreWords walks every text World of Tanks: Rush gives a person
// over the rules' golden games — events, refusals, the pending decision,
// the headline and summaries, the desyncs and the `sztab play` summary —
// in both languages, and fails on an id (DE-02, BASE-2-1, only_vehicles),
// a word of the other language or a glyph the Pi's fonts lack.
func TestTextsAreWords(t *testing.T) {
	cat, err := wotrush.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	w := &tabletest.Words{}
	for _, v := range cat.Vehicles {
		w.AllowNames(v.Name)
	}
	for _, n := range cat.Data.Components.Nations {
		w.AllowNames(n.Medal)
	}
	files, _ := filepath.Glob("../../rules/wotrush/testdata/games/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no golden games under rules/wotrush/testdata/games")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := wotrush.ParseScript(cat, f, data)
		if err != nil {
			t.Fatal(err)
		}
		g := newGame(wotrush.StartGame{})
		var s wotrush.State
		for _, l := range lines {
			where := fmt.Sprintf("%s:%d", filepath.Base(f), l.Line)
			next, evs, err := wotrush.Apply(s, l.Action)
			if err != nil {
				var rej *rules.Rejection
				if errors.As(err, &rej) {
					w.Check(t, where+" refusal", rej.Reason)
				}
				continue
			}
			if s.Cards == nil {
				w.IDs = nil
				for id := range next.Cards {
					w.IDs = append(w.IDs, id)
				}
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
			for _, x := range g.Desyncs() {
				w.Check(t, where+" desync", x)
			}
			if s.Pending != nil {
				w.Check(t, where+" pending", s.Pending.Text)
			}
			var pl, en bytes.Buffer
			v := s.View(wotrush.Viewer{Referee: true})
			printState(&pl, v, "pl")
			printState(&en, v, "en")
			w.CheckLines(t, where+" sztab play", pl.String(), en.String())
		}
	}
	for _, m := range []map[string]rules.Text{wotrush.AbilityNames, wotrush.ClassNames, wotrush.SelectNames} {
		for _, x := range m {
			w.Check(t, "names", x)
		}
	}
	for _, c := range commands {
		w.Check(t, "command "+c.Name, c.Label)
	}
	// What issue #29 saw: the walk must catch it.
	for _, bad := range []rules.Text{
		{PL: "Ania zagrywa Pz.Kpfw. II (DE-02)", EN: "Ania plays Pz.Kpfw. II"},
		{PL: "Baza BASE-2-1", EN: "base 1"},
		{PL: "Rekrutacja", EN: "recruitment · only_vehicles · national_goods"},
		{PL: "Ania wybiera (attack)", EN: "Ania selects for an attack"},
		{PL: "⛨ 1", EN: "armour 1"},
	} {
		if len(w.Problems("planted", bad)) == 0 {
			t.Errorf("%+v passed the walk", bad)
		}
	}
	if w.Checked < 1000 {
		t.Fatalf("only %d texts walked", w.Checked)
	}
}
