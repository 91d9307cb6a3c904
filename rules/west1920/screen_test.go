package west1920

import (
	"os"
	"slices"
	"testing"
)

func TestScreenHelpers(t *testing.T) {
	cat, err := DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := Apply(State{}, StartGame{Data: cat.Data})
	if err != nil {
		t.Fatal(err)
	}
	// The stage-1 set-up: the 58th Rifle Division's stack in 2015 holds its
	// HQ (the README's example game moves it without a roll).
	var side string
	var at Hex
	for _, u := range s.Units {
		if u.Status == OnMap && u.Hex == "2015" {
			side, at = u.Side, u.Hex
		}
	}
	if at == "" {
		t.Fatal("no stack in 2015")
	}
	if g := s.HQGap(side, at); g != 0 {
		t.Errorf("HQGap(%s, 2015) = %d, want 0 (HQ in the stack)", side, g)
	}
	if g := s.HQGap(side, "0101"); g != -1 {
		t.Errorf("HQGap with no stack = %d, want -1", g)
	}
	for gap, want := range map[int]float64{-1: 1, 0: 0, 2: 2.0 / 6, 9: 1} {
		if got := ActivationFail(gap); got != want {
			t.Errorf("ActivationFail(%d) = %v, want %v", gap, got, want)
		}
	}
	if s.Passable("0101") {
		t.Error("0101 is sea, reported passable")
	}
	if !s.Passable("0609") {
		t.Error("Warszawa reported impassable")
	}
	if (State{}).Passable("0609") {
		t.Error("a state without a game reports a passable hex")
	}
	sup := s.UnitSupply(s.ComputeSupply())
	n := 0
	for _, u := range s.Units {
		if u.Status == OnMap {
			n++
			if _, ok := sup[u.ID]; !ok {
				t.Errorf("%s missing from UnitSupply", u.ID)
			}
			if sup[u.ID] != s.Supplied(u.ID) {
				t.Errorf("%s: UnitSupply %v, Supplied %v", u.ID, sup[u.ID], s.Supplied(u.ID))
			}
		}
	}
	if n == 0 {
		t.Fatal("no unit on the map")
	}
}

// LegalTypes are the types of LegalActions, in order, along the README's
// example game.
func TestLegalTypes(t *testing.T) {
	cat, err := DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/games/readme.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines, err := ParseScript(cat, "readme.jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	s := State{}
	checked := 0
	for _, l := range lines {
		if next, _, err := Apply(s, l.Action); err == nil {
			s = next
		}
		var want []string
		for _, a := range LegalActions(s) {
			if !slices.Contains(want, a.Type()) {
				want = append(want, a.Type())
			}
		}
		if got := LegalTypes(s); !slices.Equal(got, want) {
			t.Errorf("line %d (%s): LegalTypes %v, LegalActions' types %v", l.Line, s.Phase, got, want)
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d states checked", checked)
	}
}
