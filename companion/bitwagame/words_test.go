package bitwagame

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
	"github.com/sztab/sztab/rules/bitwa"
)

// TestTextsAreWords walks every text Bitwa gives a person over the rules'
// golden games — events, refusals, the pending decision, the headline and
// summary, the answers' buttons and the `sztab play` summary — in both
// languages, and fails on an id (a card id, snake_case, blockade-wp), a
// word of the other language or a glyph the Pi's fonts lack.
func TestTextsAreWords(t *testing.T) {
	cat, err := bitwa.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	w := &tabletest.Words{Foreign: foreignWords(cat)}
	for id := range cat.Cards {
		w.IDs = append(w.IDs, id)
	}
	files, _ := filepath.Glob("../../rules/bitwa/testdata/games/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no golden games under rules/bitwa/testdata/games")
	}
	viewers := []companion.Viewer{companion.Public, {Role: companion.RoleReferee}, {Role: companion.RolePlayer, Seat: 1}, {Role: companion.RolePlayer, Seat: 2}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := bitwa.ParseScript(cat, f, data)
		if err != nil {
			t.Fatal(err)
		}
		g := newGame(bitwa.StartGame{}, nil)
		var s bitwa.State
		for _, l := range lines {
			where := fmt.Sprintf("%s:%d", filepath.Base(f), l.Line)
			next, evs, err := bitwa.Apply(s, l.Action)
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
			for _, v := range viewers {
				for _, x := range g.Summary(v) {
					w.Check(t, where+" summary", x)
				}
			}
			if s.Pending != nil {
				w.Check(t, where+" pending", s.Pending.Text)
			}
			for _, a := range view(s, companion.Viewer{Role: companion.RoleReferee}).(TableView).Answers {
				w.Check(t, where+" answer", a.Label)
			}
			var pl, en bytes.Buffer
			v := s.View(bitwa.Viewer{Referee: true})
			printState(&pl, v, "pl")
			printState(&en, v, "en")
			w.CheckLines(t, where+" sztab play", pl.String(), en.String())
		}
	}
	for _, x := range Places {
		w.Check(t, "place", x)
	}
	for _, x := range stageName {
		w.Check(t, "stage", x)
	}
	for _, bad := range []rules.Text{
		{PL: "Marysia zagrywa rozkaz Armia Ochotnicza (Front Środkowy)", EN: "Marysia plays the order Armia Ochotnicza (Central Front)"},
		{PL: "Zablokuj pole Dowódcy przeciwnika na tym Froncie.", EN: "Zablokuj pole Dowódcy przeciwnika na tym Froncie."},
		{PL: "Marysia zagrywa rozkaz Volunteer Army (Front Środkowy)", EN: "Marysia plays the order Volunteer Army (Central Front)"},
	} {
		if len(w.Problems("planted", bad)) == 0 {
			t.Errorf("%+v passed the walk", bad)
		}
	}
	if w.Checked < 1000 {
		t.Fatalf("only %d texts walked", w.Checked)
	}
}

// TestWordsCatchIDs: the walk fails on what issue #29 saw on the screens.
func TestWordsCatchIDs(t *testing.T) {
	w := &tabletest.Words{IDs: []string{"7-dp"}}
	for _, bad := range []rules.Text{
		{PL: "⛔ blockade-wp: pole Dowódcy", EN: "blockade: commander field"},
		{PL: "Runda 5, battle", EN: "Round 5, battle"},
		{PL: "unit · NC", EN: "unit · NC"},
		{PL: "zagrywa 7-dp", EN: "plays 7-dp"},
		{PL: "zdobywa kartę zasobu supply", EN: "wins the supply card"},
	} {
		if len(w.Problems("planted", bad)) == 0 {
			t.Errorf("%+v passed the walk", bad)
		}
	}
}

// foreignWords are the words of Bitwa's cards in one language (their names
// and texts; see tabletest.Foreign): on a page in the other language a
// card's name or text left untranslated is a fault. Words in both: the
// units' names (as printed), the people's names of the commanders, the
// words the fronts', armies' and resources' names and the title share,
// and the few the cards spell alike in both languages.
func foreignWords(cat *bitwa.Catalogue) map[string][]string {
	var texts, both []rules.Text
	same := []string{"proletariat", "terror", "Radzymin", "Ciechanów", "Ignacy Skorupka"}
	for _, c := range cat.Cards {
		texts = append(texts, c.Names(), c.Texts())
		switch c.Kind {
		case bitwa.KindUnit:
			same = append(same, c.Name)
		case bitwa.KindCommander:
			both = append(both, c.Names())
		}
	}
	both = append(both, Spec.Title)
	comp := cat.Data.Components
	for _, a := range comp.Armies {
		both = append(both, a.Name)
	}
	for _, f := range comp.Fronts {
		both = append(both, f.Name)
	}
	for _, r := range comp.Resources {
		both = append(both, r.Name)
	}
	return tabletest.Foreign(texts, append(same, tabletest.Shared(both...)...)...)
}

// ForeignWords is foreignWords for the browser's page checks
// (screens_test.go, package _test).
var ForeignWords = foreignWords
