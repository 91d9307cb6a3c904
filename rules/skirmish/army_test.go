package skirmish

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// WYBÓR ARMII, "Przykład": an AK soldier with a Karabiner 98 costs 8; four
// make the smallest unit (32); a commander makes five (40); MP 40 for all
// five, +1 each, makes 45.
func TestArmyRulebookExample(t *testing.T) {
	cat := defaultCat(t)
	tests := []struct {
		name string
		spec UnitSpec
		want int
	}{
		{"minimum unit", UnitSpec{ID: "a", Card: "ak_soldier", Models: 4}, 32},
		{"with commander", UnitSpec{ID: "a", Card: "ak_soldier", Models: 4, Commander: true}, 40},
		{"MP 40 for all five", UnitSpec{ID: "a", Card: "ak_soldier", Models: 4, Commander: true, Weapon: "MP 40"}, 45},
		{"MP 40 swapped model by model", UnitSpec{ID: "a", Card: "ak_soldier", Models: 4, Commander: true, Swaps: []ModelSwap{{Weapon: "MP 40", Models: 5}}}, 45},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cat.CheckArmy(ArmyList{Faction: "Armia Krajowa", Units: []UnitSpec{tt.spec}}, 200)
			if !r.Legal() {
				t.Fatalf("violations: %+v", r.Violations)
			}
			if r.Cost != tt.want {
				t.Errorf("got %d pts, want %d", r.Cost, tt.want)
			}
		})
	}
	r := cat.CheckArmy(ArmyList{Faction: "Armia Krajowa", Units: []UnitSpec{{ID: "z", Card: "ak_soldier", Models: 4, Commander: true,
		Swaps: []ModelSwap{{Weapon: "PANZERFAUST", Models: 1}}}}}, 200)
	var got []string
	for _, m := range r.Units[0].Models {
		got = append(got, m.ID+" "+m.Weapon)
		if m.Commander {
			got[len(got)-1] += " (commander)"
		}
	}
	want := []string{"z-1 PANZERFAUST", "z-2 KARABINER 98K", "z-3 KARABINER 98K", "z-4 KARABINER 98K", "z-5 KARABINER 98K (commander)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("models:\n got %q\nwant %q", got, want)
	}
	if r.Cost != 46 {
		t.Errorf("with one Panzerfaust (+6): got %d pts, want 46", r.Cost)
	}
}

// Every limit a list can break, each on its own, and all reported at once.
func TestArmyViolations(t *testing.T) {
	cat := defaultCat(t)
	ak := func(u ...UnitSpec) ArmyList { return ArmyList{Faction: "Armia Krajowa", Units: u} }
	soldiers := func(id string, n int) UnitSpec { return UnitSpec{ID: id, Card: "ak_soldier", Models: n} }
	tests := []struct {
		name  string
		list  ArmyList
		limit int
		codes []string
		en    string // the first violation's reason, when checked
	}{
		{"over the point limit", ak(soldiers("a", 10), soldiers("b", 10), soldiers("c", 10)), 200, []string{"over_limit"},
			"the army costs 240 pts, the limit is 200 pts"},
		{"unit under its minimum", ak(soldiers("a", 3)), 200, []string{"under_minimum"}, "a: 3 models, the minimum for Żołnierz Armii Krajowej is 4"},
		{"unit over its maximum", ak(soldiers("a", 11)), 200, []string{"over_maximum"}, ""},
		{"weapon over its limit", ak(UnitSpec{ID: "a", Card: "ak_soldier", Models: 4, Swaps: []ModelSwap{{Weapon: "PANZERFAUST", Models: 2}}}), 200,
			[]string{"weapon_limit"}, "PANZERFAUST: 2 models carry it, the limit is 1"},
		{"weapon not allowed for civilians", ak(UnitSpec{ID: "c", Card: "ak_civilian", Models: 4, Swaps: []ModelSwap{{Weapon: "BROWNING 1918", Models: 1}}}), 200,
			[]string{"civilian_weapon"}, "c: civilians cannot use Broń maszynowa ciężka weapons (BROWNING 1918)"},
		{"weapon not on the card", ak(UnitSpec{ID: "a", Card: "ak_soldier", Models: 4, Weapon: "MG42"}), 200, []string{"weapon_not_allowed"}, ""},
		{"weapon not in SPIS BRONI", ak(UnitSpec{ID: "a", Card: "ak_soldier", Models: 4, Weapon: "BAZOOKA"}), 200, []string{"weapon_not_allowed"}, ""},
		{"more swaps than models", ak(UnitSpec{ID: "a", Card: "ak_soldier", Models: 4, Swaps: []ModelSwap{{Weapon: "MP 40", Models: 5}}}), 200, []string{"too_many_swaps"}, ""},
		{"unit card over its army limit", ak(UnitSpec{ID: "k1", Card: "ak_kedyw", Models: 3}, UnitSpec{ID: "k2", Card: "ak_kedyw", Models: 3}), 200, []string{"unit_limit"}, ""},
		{"card of the other faction", ak(UnitSpec{ID: "g", Card: "grenadier", Models: 4}), 200, []string{"wrong_faction"}, ""},
		{"commander the card does not have", ak(UnitSpec{ID: "c", Card: "ak_civilian", Models: 4, Commander: true}), 200, []string{"no_commander"}, ""},
		{"unknown card", ak(UnitSpec{ID: "x", Card: "tiger", Models: 1}), 200, []string{"unknown_card"}, ""},
		{"unknown faction", ArmyList{Faction: "Luftwaffe", Units: []UnitSpec{soldiers("a", 4)}}, 200, []string{"unknown_faction"}, ""},
		{"no units", ak(), 200, []string{"no_units"}, "an army needs at least one unit"},
		{"same id twice", ak(soldiers("a", 4), soldiers("a", 4)), 200, []string{"duplicate_id"}, ""},
		{"no id", ak(soldiers("", 4)), 200, []string{"bad_id"}, ""},
		{"several at once", ak(soldiers("a", 3), UnitSpec{ID: "c", Card: "ak_civilian", Models: 13, Weapon: "ZDOBYCZNY MG42"}), 50,
			[]string{"under_minimum", "over_maximum", "civilian_weapon", "weapon_limit", "over_limit"}, ""},
		{"limit 0 means the list's own points, none if 0", ak(soldiers("a", 10), soldiers("b", 10), soldiers("c", 10)), 0, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cat.CheckArmy(tt.list, tt.limit)
			var codes []string
			for _, v := range r.Violations {
				codes = append(codes, v.Code)
				if v.Reason.PL == "" || v.Reason.EN == "" || v.Reason.PL == v.Reason.EN {
					t.Errorf("violation %s not in both languages: %+v", v.Code, v.Reason)
				}
			}
			if !slices.Equal(codes, tt.codes) {
				t.Errorf("got %v, want %v", codes, tt.codes)
			}
			if r.Legal() != (len(tt.codes) == 0) {
				t.Errorf("Legal() = %v with violations %v", r.Legal(), codes)
			}
			if tt.en != "" && (len(r.Violations) == 0 || r.Violations[0].Reason.EN != tt.en) {
				t.Errorf("reason: got %+v, want %q", r.Violations, tt.en)
			}
		})
	}
}

// A list's own points are the limit for `sztab army check`.
func TestArmyOwnLimit(t *testing.T) {
	r := defaultCat(t).CheckArmy(ArmyList{Faction: "Wehrmacht", Points: 100, Units: []UnitSpec{{ID: "g", Card: "grenadier", Models: 8, Commander: true}}}, 0)
	if r.Limit != 100 || len(r.Violations) != 1 || r.Violations[0].Code != "over_limit" {
		t.Errorf("got limit %d, violations %+v; want 100 and over_limit (110 pts)", r.Limit, r.Violations)
	}
}

func TestSubmitArmy(t *testing.T) {
	cat := defaultCat(t)
	start, err := cat.NewGame(Setup{Players: twoPlayers, Options: Options{Points: 200}})
	if err != nil {
		t.Fatal(err)
	}
	s := mustApply(t, State{}, start)
	legal := ArmyList{Units: []UnitSpec{{ID: "zoska", Card: "ak_soldier", Models: 4, Commander: true, Weapon: "MP 40"}}}
	t.Run("illegal list", func(t *testing.T) {
		rej := wantRejection(t, s, SubmitArmy{Seat: 1, Army: ArmyList{Units: []UnitSpec{{ID: "a", Card: "ak_soldier", Models: 3}}}}, "illegal_army")
		if !strings.Contains(rej.Reason.EN, "the minimum for Żołnierz Armii Krajowej is 4") {
			t.Errorf("reason %q does not say why", rej.Reason.EN)
		}
	})
	t.Run("list of the wrong faction", func(t *testing.T) {
		wantRejection(t, s, SubmitArmy{Seat: 1, Army: ArmyList{Faction: "Wehrmacht", Units: []UnitSpec{{ID: "g", Card: "grenadier", Models: 4}}}}, "illegal_army")
	})
	t.Run("unknown seat", func(t *testing.T) { wantRejection(t, s, SubmitArmy{Seat: 7, Army: legal}, "unknown_seat") })
	ok := mustApply(t, s, SubmitArmy{Seat: 1, Army: legal})
	if ps := ok.seatState(1); !ps.ArmyReady || ps.ArmyPoints != 45 {
		t.Errorf("seat 1 after a legal list: %+v, want ready at 45 pts", *ps)
	}
	t.Run("unit id taken by the other player", func(t *testing.T) {
		wantRejection(t, ok, SubmitArmy{Seat: 2, Army: ArmyList{Units: []UnitSpec{{ID: "zoska", Card: "grenadier", Models: 4}}}}, "duplicate_unit")
	})
	again := mustApply(t, ok, SubmitArmy{Seat: 1, Army: ArmyList{Units: []UnitSpec{{ID: "parasol", Card: "ak_soldier", Models: 6}}}})
	if _, old := again.Unit("zoska"); old || len(again.Units) != 1 {
		t.Errorf("a second list should replace the first: units %+v", again.Units)
	}
	u, _ := again.Unit("parasol")
	if u.Move != 6 || u.Defence != 5 || len(u.Models) != 6 || u.Models[0].Lives != 1 || u.Models[0].Base != 1 {
		t.Errorf("unit stats not copied from the card: %+v", u)
	}
}

// The example lists in testdata/armies, read as `sztab army check` reads
// them.
func TestArmyFiles(t *testing.T) {
	cat := defaultCat(t)
	tests := []struct {
		file  string
		cost  int
		codes []string
	}{
		{"ak-200.yaml", 175, nil},
		{"wehrmacht-350.yaml", 264, nil},
		{"illegal.yaml", 0, []string{"under_minimum", "civilian_weapon", "unit_limit", "weapon_limit", "weapon_limit", "weapon_limit", "over_limit"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata/armies", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var list ArmyList
			dec := yaml.NewDecoder(bytes.NewReader(data))
			dec.KnownFields(true)
			if err := dec.Decode(&list); err != nil {
				t.Fatal(err)
			}
			r := cat.CheckArmy(list, 0)
			var codes []string
			for _, v := range r.Violations {
				codes = append(codes, v.Code)
			}
			if !slices.Equal(codes, tt.codes) {
				t.Errorf("violations %v, want %v", codes, tt.codes)
			}
			if tt.cost != 0 && r.Cost != tt.cost {
				t.Errorf("cost %d, want %d", r.Cost, tt.cost)
			}
		})
	}
}
