package skirmish

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// defaultCat is the embedded catalogue.
func defaultCat(t testing.TB) *Catalogue {
	t.Helper()
	cat, err := DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// looseCat is the embedded catalogue with unit minimums, unit limits and
// weapon limits lifted and every weapon allowed on every card, as a table
// editing its data files may do: the shooting tests use odd units.
func looseCat(t testing.TB) *Catalogue {
	t.Helper()
	d := defaultCat(t).Data
	d.Units = append([]UnitCard(nil), d.Units...)
	for i := range d.Units {
		u := &d.Units[i]
		u.MinModels, u.MaxUnits = 1, 0
		u.Swaps = nil
		for _, w := range d.Weapons {
			if w.Name != u.Weapon {
				u.Swaps = append(u.Swaps, Swap{Weapon: w.Name})
			}
		}
	}
	d.Factions = append([]Faction(nil), d.Factions...)
	for i := range d.Factions {
		d.Factions[i].WeaponLimits = nil
	}
	cat, err := NewCatalogue(d)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

var twoPlayers = []Player{{Seat: 1, Name: "Ania", Faction: "Armia Krajowa"}, {Seat: 2, Name: "Bartek", Faction: "Wehrmacht"}}

// line places a unit's models in a row along x from x0 at y, 1.5 kroki
// centre to centre (0.5 base to base with 1-krok bases).
func line(u Unit, x0, y float64) Deploy {
	d := Deploy{Unit: u.ID}
	for i, m := range u.Models {
		d.Models = append(d.Models, Placement{Model: m.ID, X: x0 + 1.5*float64(i), Y: y})
	}
	return d
}

// battle starts a scenario 1 game of two units, AK ("ak", seat 1, south)
// 20 kroki from the grenadiers ("gren", seat 2, north), Ania first, and
// brings it to Ania's shooting phase in round 1.
func battle(t testing.TB, cat *Catalogue, ak, gren UnitSpec, opts Options) State {
	t.Helper()
	s := deployed(t, cat, []UnitSpec{ak, gren}, opts, ChooseScenario{Number: 1})
	return mustApply(t, s, EndPhase{})
}

// deployed sets up a game with units (owners in the specs), deploys seat
// 1's units along y = 4 and seat 2's along y = 25 (20 kroki apart base to
// base), and returns it at the start of play.
func deployed(t testing.TB, cat *Catalogue, units []UnitSpec, opts Options, sc ChooseScenario) State {
	t.Helper()
	start, err := cat.NewGame(Setup{
		Players: twoPlayers, Units: units, Options: opts, Scenario: &sc,
		RollOff: []SeatRoll{{Seat: 1, Roll: dice.Roll{Value: 5, Origin: dice.Fixed}}, {Seat: 2, Roll: dice.Roll{Value: 3, Origin: dice.Fixed}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := mustApply(t, State{}, start)
	for sc.Number == ScenarioHold || sc.Number == ScenarioAllOrNothing {
		if s.Phase != PhaseObjectives {
			break
		}
		n := len(s.Objectives)
		s = mustApply(t, s, PlaceObjective{Seat: s.ActiveSeat(), At: Point{X: 6 + 8*float64(n), Y: 18}})
	}
	x := map[int]float64{1: 2, 2: 2}
	for s.Phase == PhaseDeployment {
		seat := s.ActiveSeat()
		var next *Unit
		for i := range s.Units {
			if s.Units[i].Owner == seat && !s.Units[i].Deployed {
				next = &s.Units[i]
				break
			}
		}
		y := 4.0
		if seat == 2 {
			y = 25
		}
		s = mustApply(t, s, line(*next, x[seat], y))
		x[seat] += 1.5*float64(len(next.Models)) + 4
	}
	return s
}

func mustApply(t testing.TB, s State, actions ...Action) State {
	t.Helper()
	for _, a := range actions {
		var err error
		s, _, err = Apply(s, a)
		if err != nil {
			t.Fatalf("%s: %v", a.Type(), err)
		}
	}
	return s
}

func rolls(values ...int) Dice {
	d := Dice{}
	for _, v := range values {
		d.Rolls = append(d.Rolls, dice.Roll{Value: v, Origin: dice.Keypad, Device: "keypad-1"})
	}
	return d
}

func kroki(k, u float64) *Measure { return &Measure{Kroki: k, Uncertainty: u} }

func shoot(k float64, light, heavy int) DeclareShot {
	return DeclareShot{Shooter: "ak", Target: "gren", Distance: kroki(k, 0.1), InCover: InCover{Light: light, Heavy: heavy}}
}

// wantRejection applies a and checks it is refused with code, leaving the
// state byte for byte as it was.
func wantRejection(t *testing.T, s State, a Action, code string) *rules.Rejection {
	t.Helper()
	before, _ := json.Marshal(s)
	got, evs, err := Apply(s, a)
	rej, ok := rules.AsRejection(err)
	if !ok {
		t.Fatalf("%s: got error %v, want a rejection %s", a.Type(), err, code)
	}
	if rej.Code != code {
		t.Errorf("%s: got code %s (%s), want %s", a.Type(), rej.Code, rej.Reason.EN, code)
	}
	if rej.Reason.PL == "" || rej.Reason.EN == "" {
		t.Errorf("reason missing a language: %+v", rej.Reason)
	}
	if rej.Reason.PL == rej.Reason.EN {
		t.Errorf("reason not translated: %q", rej.Reason.PL)
	}
	after, _ := json.Marshal(got)
	input, _ := json.Marshal(s)
	if string(before) != string(after) || string(before) != string(input) || evs != nil {
		t.Errorf("a rejected action changed the state or produced events")
	}
	return rej
}

func lives(u Unit) []int {
	var out []int
	for _, m := range u.Models {
		out = append(out, m.Remaining())
	}
	return out
}

func eventTypes(evs []Event) string {
	s := ""
	for i, e := range evs {
		if i > 0 {
			s += " "
		}
		s += e.Type
	}
	return s
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return v
}

// unitOf is the unit with id, or a zero unit.
func unitOf(s State, id string) Unit {
	u, _ := s.Unit(id)
	return u
}
