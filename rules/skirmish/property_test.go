package skirmish

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/sztab/sztab/rules/dice"
)

// Replaying a script gives the same states byte for byte, and so does
// replaying its journal: every action encoded and decoded again.
func TestReplayIsByteIdentical(t *testing.T) {
	cat := defaultCat(t)
	scripts, _ := filepath.Glob("testdata/games/*.jsonl")
	for _, path := range scripts {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, _ := os.ReadFile(path)
			lines, err := ParseScript(cat, path, data)
			if err != nil {
				t.Fatal(err)
			}
			states := func(journal bool) [][]byte {
				var s State
				var out [][]byte
				for _, l := range lines {
					a := l.Action
					if journal {
						b, err := EncodeAction(a)
						if err != nil {
							t.Fatal(err)
						}
						if a, err = DecodeAction(b); err != nil {
							t.Fatal(err)
						}
					}
					next, evs, err := Apply(s, a)
					if err == nil {
						s = next
					}
					st, _ := json.Marshal(s)
					ev, _ := json.Marshal(evs)
					out = append(out, append(st, ev...))
				}
				return out
			}
			first, again, journal := states(false), states(false), states(true)
			for i := range first {
				if !bytes.Equal(first[i], again[i]) || !bytes.Equal(first[i], journal[i]) {
					t.Fatalf("line %d: replays differ", lines[i].Line)
				}
			}
		})
	}
}

// Random action sequences, legal or not, never make lives negative, never
// bring a removed model back, never change a state they are refused on, and
// never lose or invent a model.
func TestRandomPlayKeepsInvariants(t *testing.T) {
	cat := looseCat(t)
	units := []UnitSpec{
		{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 4, Commander: true, Swaps: []ModelSwap{{Weapon: "PANZERFAUST", Models: 1}, {Weapon: "ZDOBYCZNY STIELHAND GRANATE", Models: 1}}},
		{ID: "civ", Card: "ak_civilian", Owner: 1, Models: 4},
		{ID: "gren", Card: "grenadier", Owner: 2, Models: 4, Swaps: []ModelSwap{{Weapon: "MG42", Models: 1}}},
		{ID: "fl", Card: "sturmpionier", Owner: 2, Models: 3, Swaps: []ModelSwap{{Weapon: "FLAMMENWERFER 35", Models: 1}}},
		{ID: "mortar", Card: "mortar_team", Owner: 2, Models: 2, Weapon: "MOŹDZIERZ 50MM"},
	}
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	for seed := range seeds {
		opts := Options{}
		if seed%3 == 1 {
			opts.Allocation = Focus
		}
		if seed%4 == 2 {
			opts.MoveLoss = MoveLossBoth
		}
		sc := ChooseScenario{Number: 1 + seed%4, PointsToWin: 4, OrderPointsToWin: 8}
		s := deployed(t, cat, units, opts, sc)
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		removed := map[string]bool{}
		models := countModels(s)
		for step := 0; step < 400 && s.Result == nil; step++ {
			a := randomAction(rng, s, cat)
			before, _ := json.Marshal(s)
			next, _, err := Apply(s, a)
			if err != nil {
				after, _ := json.Marshal(s)
				if !bytes.Equal(before, after) {
					t.Fatalf("seed %d step %d: refused %s changed the state", seed, step, a.Type())
				}
				continue
			}
			s = next
			for _, u := range s.Units {
				for _, m := range u.Models {
					switch {
					case m.Remaining() < 0 || m.Wounds < 0:
						t.Fatalf("seed %d step %d (%s): %s has %d lives left", seed, step, a.Type(), m.ID, m.Remaining())
					case m.Removed != (m.Remaining() == 0):
						t.Fatalf("seed %d step %d (%s): %s removed %v with %d lives", seed, step, a.Type(), m.ID, m.Removed, m.Remaining())
					case removed[m.ID] && !m.Removed:
						t.Fatalf("seed %d step %d (%s): %s came back from the dead", seed, step, a.Type(), m.ID)
					case m.Removed && m.At != nil:
						t.Fatalf("seed %d step %d (%s): %s is dead but has a position", seed, step, a.Type(), m.ID)
					}
					if m.Removed {
						removed[m.ID] = true
					}
				}
			}
			if n := countModels(s); n != models {
				t.Fatalf("seed %d step %d: %d models, had %d", seed, step, n, models)
			}
		}
	}
}

func countModels(s State) int {
	n := 0
	for _, u := range s.Units {
		n += len(u.Models)
	}
	return n
}

// randomAction picks an action that fits the state often enough to move
// the game along, and a wrong one now and then.
func randomAction(r *rand.Rand, s State, cat *Catalogue) Action {
	pick := func(xs []string) string {
		if len(xs) == 0 {
			return "nobody"
		}
		return xs[r.IntN(len(xs))]
	}
	var mine, theirs, myModels, theirModels []string
	for _, u := range s.Units {
		if u.Owner == s.ActiveSeat() {
			mine = append(mine, u.ID)
		} else {
			theirs = append(theirs, u.ID)
		}
		for _, m := range u.Models {
			if m.Removed {
				continue
			}
			if u.Owner == s.ActiveSeat() {
				myModels = append(myModels, m.ID)
			} else {
				theirModels = append(theirModels, m.ID)
			}
		}
	}
	roll := func() dice.Roll { return dice.Roll{Value: 1 + r.IntN(6), Origin: dice.Virtual} }
	switch {
	case s.Call != nil:
		return Ruling{InRange: r.IntN(2) == 0, By: "fuzz"}
	case s.Shot != nil && r.IntN(10) > 0:
		if s.Shot.Stage == StageRuling {
			return Ruling{InRange: r.IntN(2) == 0, By: "fuzz"}
		}
		n := 1 + r.IntN(s.Shot.Need-len(s.Shot.Entered)+1)
		d := Dice{}
		for range n {
			d.Rolls = append(d.Rolls, roll())
		}
		if r.IntN(20) == 0 {
			return UndoDie{}
		}
		return d
	case s.Phase == PhaseOrders && r.IntN(4) > 0:
		seat := s.ActiveSeat()
		if s.Round == 0 {
			seat = s.Players[r.IntN(len(s.Players))].Seat
		}
		var deck []string
		for _, c := range cat.Deck(s.factionOf(seat)) {
			deck = append(deck, c.ID)
		}
		switch r.IntN(4) {
		case 0:
			ps := s.seatState(seat)
			if len(ps.Hand) > 0 {
				return DiscardOrder{Seat: seat, Card: ps.Hand[r.IntN(len(ps.Hand))].ID}
			}
		case 1:
			return ClaimOrder{Seat: seat, Card: pick(deck), ConfirmedBy: []int{1, 2}}
		}
		return DrawOrders{Seat: seat, Cards: []string{pick(deck)}, Origin: dice.Virtual}
	}
	switch r.IntN(10) {
	case 0, 1:
		return EndPhase{}
	case 2, 3:
		var ps []Placement
		var jumped []string
		for range 1 + r.IntN(3) {
			id := pick(myModels)
			u := s.unitOfModel(id)
			if u == nil {
				continue
			}
			m := u.model(id)
			if m.At == nil {
				continue
			}
			p := Placement{Model: id, X: m.At.X + r.Float64()*8 - 4, Y: m.At.Y + r.Float64()*8 - 4, Sigma: r.Float64() * 0.1}
			ps = append(ps, p)
			if r.IntN(5) == 0 {
				jumped = append(jumped, id)
			}
		}
		return Move{Models: ps, Jumped: jumped}
	case 4:
		return UnitMoved{Unit: pick(mine)}
	case 5:
		return CancelShot{}
	}
	shot := DeclareShot{Shooter: pick(mine), Target: pick(theirs), InCover: InCover{Light: r.IntN(3), Heavy: r.IntN(2)}}
	if u, ok := s.Unit(shot.Shooter); ok && len(u.Weapons) > 0 {
		shot.Weapon = u.Weapons[r.IntN(len(u.Weapons))].Name
	}
	if r.IntN(3) > 0 {
		shot.Distance = kroki(r.Float64()*35, r.Float64()*0.5)
	}
	if r.IntN(4) == 0 {
		shot.NoLineOfFire = []string{pick(myModels)}
	}
	for range r.IntN(3) {
		mk := Marker{Distance: kroki(r.Float64()*25, 0.1)}
		for range 1 + r.IntN(3) {
			mk.Models = append(mk.Models, pick(theirModels))
		}
		shot.Markers = append(shot.Markers, mk)
	}
	return shot
}

func TestRandomPlayReachesResults(t *testing.T) {
	// A sanity check on the fuzzing above: it does play games to the end.
	cat := looseCat(t)
	units := []UnitSpec{{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 2}, {ID: "gren", Card: "grenadier", Owner: 2, Models: 1}}
	ended := 0
	for seed := range 10 {
		s := deployed(t, cat, units, Options{}, ChooseScenario{Number: 1})
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		for step := 0; step < 2000 && s.Result == nil; step++ {
			if next, _, err := Apply(s, randomAction(r, s, cat)); err == nil {
				s = next
			}
		}
		if s.Result != nil {
			ended++
		}
	}
	if ended < 5 {
		t.Errorf("only %d of 10 random games ended", ended)
	}
}

// clone copies everything: the copy marshals the same, and changing every
// part of the copy leaves the original as it was.
func TestCloneIsDeep(t *testing.T) {
	cat := defaultCat(t)
	data, _ := os.ReadFile("testdata/games/3-punkty-zwyciestwa.jsonl")
	lines, err := ParseScript(cat, "3", data)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := Play(lines[:len(lines)-5], true)
	s = mustApply(t, s, DeclareShot{Shooter: "zoska", Target: "gren"}, rolls(6, 6, 6), rolls(6, 6, 6))
	orig, _ := json.Marshal(s)
	c := s.clone()
	if got, _ := json.Marshal(c); !bytes.Equal(got, orig) {
		t.Fatal("the clone marshals differently")
	}
	c.Seats[0].Hand[len(c.Seats[0].Hand)-1].Baseline.ByClass["rifle"] = 99
	c.Seats[0].Tally.ByClass["rifle"] = 99
	c.Seats[0].Drawn[0] = "x"
	c.Sides[0].Seats[0] = 9
	c.Units[0].Models[0].Wounds = 9
	c.Units[1].Models[2].At.X = 99
	c.RollOff.Rounds[0][0].Value = 1
	c.Shot.Entered = append(c.Shot.Entered, dice.Roll{Value: 1})
	c.Shot.Packets[0] = 9
	c.Shot.Rolls.Hit[0].Value = 2
	c.Scenario.Number = 9
	c.LastShot.Killed[0] = "x"
	if after, _ := json.Marshal(s); !bytes.Equal(after, orig) {
		t.Error("changing the clone changed the original")
	}
}
