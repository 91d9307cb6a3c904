package skirmish

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/sztab/sztab/rules/dice"
)

// newGame is Ania's AK unit ("ak") against Bartek's grenadiers ("gren") at
// the start of Ania's shooting phase, from the loose catalogue.
func newGame(t *testing.T, akModels int, akWeapon string, grenModels int, opts Options) State {
	t.Helper()
	return battle(t, looseCat(t),
		UnitSpec{ID: "ak", Card: "ak_soldier", Owner: 1, Models: akModels, Weapon: akWeapon},
		UnitSpec{ID: "gren", Card: "grenadier", Owner: 2, Models: grenModels}, opts)
}

func TestShootingSequence(t *testing.T) {
	tests := []struct {
		name       string
		weapon     string
		grenadiers int
		opts       Options
		shot       DeclareShot
		dice       []Dice
		want       ShotResult
		wantHitOn  int
		wantSaveOn int
		wantLives  []int // remaining lives of each grenadier
	}{{
		// FAZA STRZAŁU, "Przykład": 5 AK with Karabiner 98k at 20 kroki.
		name: "rulebook worked example", grenadiers: 5, shot: shoot(20, 0, 0),
		dice:      []Dice{rolls(3, 3, 3, 4, 5), rolls(3, 4, 4, 6, 6), rolls(2, 3, 6, 6, 6)},
		want:      ShotResult{Attacks: 5, Hits: 5, Wounds: 5, Saved: 3, Unsaved: 2, Wounded: []string{"gren-1", "gren-2"}, Killed: []string{}, Cover: CoverNone},
		wantHitOn: 2, wantSaveOn: 4, wantLives: []int{1, 1, 2, 2, 2},
	}, {
		// "Modyfikator przeszkód", light cover example: save 4 becomes 3.
		name: "light cover: save improves by 1", grenadiers: 5, shot: shoot(20, 3, 0),
		dice:      []Dice{rolls(3, 3, 3, 4, 5), rolls(3, 4, 4, 6, 6), rolls(2, 3, 6, 6, 6)},
		want:      ShotResult{Attacks: 5, Hits: 5, Wounds: 5, Saved: 4, Unsaved: 1, Wounded: []string{"gren-1"}, Killed: []string{}, Cover: CoverLight},
		wantHitOn: 2, wantSaveOn: 3, wantLives: []int{1, 2, 2, 2, 2},
	}, {
		// Heavy cover example: Karabiner 98k then hits on 3, defence improves.
		name: "heavy cover: to-hit worsens, save improves", grenadiers: 5, shot: shoot(20, 0, 3),
		dice:      []Dice{rolls(2, 3, 3, 2, 5), rolls(3, 4, 4), rolls(2, 2, 6)},
		want:      ShotResult{Attacks: 5, Hits: 3, Wounds: 3, Saved: 1, Unsaved: 2, Wounded: []string{"gren-1", "gren-2"}, Killed: []string{}, Cover: CoverHeavy},
		wantHitOn: 3, wantSaveOn: 3, wantLives: []int{1, 1, 2, 2, 2},
	}, {
		name: "half the unit behind cover is not enough", grenadiers: 4, shot: shoot(20, 2, 0),
		dice:      []Dice{rolls(2, 2, 2, 2, 2), rolls(3, 3, 3, 3, 3), rolls(3, 3, 3, 3, 3)},
		want:      ShotResult{Attacks: 5, Hits: 5, Wounds: 5, Saved: 0, Unsaved: 5, Wounded: []string{"gren-2", "gren-3", "gren-4"}, Killed: []string{"gren-1"}, Cover: CoverNone},
		wantHitOn: 2, wantSaveOn: 4, wantLives: []int{0, 1, 1, 1},
	}, {
		name: "mixed cover, majority behind some: light", grenadiers: 5, shot: shoot(20, 2, 1),
		dice:      []Dice{rolls(1, 1, 1, 1, 1)},
		want:      ShotResult{Attacks: 5, Hits: 0, Wounded: []string{}, Killed: []string{}, Cover: CoverLight},
		wantHitOn: 2, wantSaveOn: 3, wantLives: []int{2, 2, 2, 2, 2},
	}, {
		name: "spread: second wounds kill only after everyone is wounded", grenadiers: 2, shot: shoot(20, 0, 0),
		dice:      []Dice{rolls(6, 6, 6, 1, 1), rolls(6, 6, 6), rolls(1, 1, 1)},
		want:      ShotResult{Attacks: 5, Hits: 3, Wounds: 3, Unsaved: 3, Wounded: []string{"gren-2"}, Killed: []string{"gren-1"}, Cover: CoverNone},
		wantHitOn: 2, wantSaveOn: 4, wantLives: []int{0, 1},
	}, {
		name: "spread: two wounds, two wounded", grenadiers: 2, shot: shoot(20, 0, 0),
		dice:      []Dice{rolls(6, 6, 1, 1, 1), rolls(6, 6), rolls(1, 1)},
		want:      ShotResult{Attacks: 5, Hits: 2, Wounds: 2, Unsaved: 2, Wounded: []string{"gren-1", "gren-2"}, Killed: []string{}, Cover: CoverNone},
		wantHitOn: 2, wantSaveOn: 4, wantLives: []int{1, 1},
	}, {
		name: "focus: wounds finish the wounded first", grenadiers: 2, opts: Options{Allocation: Focus}, shot: shoot(20, 0, 0),
		dice:      []Dice{rolls(6, 6, 1, 1, 1), rolls(6, 6), rolls(1, 1)},
		want:      ShotResult{Attacks: 5, Hits: 2, Wounds: 2, Unsaved: 2, Wounded: []string{}, Killed: []string{"gren-1"}, Cover: CoverNone},
		wantHitOn: 2, wantSaveOn: 4, wantLives: []int{0, 2},
	}, {
		name: "Panzerfaust: d6 wounds per hit go to one model, excess lost", weapon: "PANZERFAUST", grenadiers: 3,
		shot:      shoot(15, 0, 0),
		dice:      []Dice{rolls(2, 1, 1, 1, 3), rolls(5, 1), rolls(1, 1, 6, 2, 3, 1)},
		want:      ShotResult{Attacks: 5, Hits: 2, Wounds: 6, Saved: 1, Unsaved: 5, Wounded: []string{"gren-2"}, Killed: []string{"gren-1"}, Cover: CoverNone},
		wantHitOn: 2, wantSaveOn: 4, wantLives: []int{0, 1, 2},
	}, {
		name: "dice entered one at a time", grenadiers: 5, shot: shoot(20, 0, 0),
		dice: []Dice{rolls(3), rolls(3), rolls(3), rolls(4), rolls(5), rolls(3), rolls(4), rolls(4), rolls(6), rolls(6),
			rolls(2), rolls(3), rolls(6), rolls(6), rolls(6)},
		want:      ShotResult{Attacks: 5, Hits: 5, Wounds: 5, Saved: 3, Unsaved: 2, Wounded: []string{"gren-1", "gren-2"}, Killed: []string{}, Cover: CoverNone},
		wantHitOn: 2, wantSaveOn: 4, wantLives: []int{1, 1, 2, 2, 2},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newGame(t, 5, tt.weapon, tt.grenadiers, tt.opts)
			s = mustApply(t, s, tt.shot)
			if s.Shot.HitOn != tt.wantHitOn || s.Shot.SaveOn != tt.wantSaveOn {
				t.Errorf("thresholds: got hit %d+ save %d+, want hit %d+ save %d+", s.Shot.HitOn, s.Shot.SaveOn, tt.wantHitOn, tt.wantSaveOn)
			}
			for _, d := range tt.dice {
				s = mustApply(t, s, d)
			}
			if s.Shot != nil {
				t.Fatalf("shot still waiting at stage %s for %d dice", s.Shot.Stage, s.Shot.Need-len(s.Shot.Entered))
			}
			got := *s.LastShot
			got.Shooter, got.Target, got.Weapon, got.Rolls = "", "", "", nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("result\n got %+v\nwant %+v", got, tt.want)
			}
			gren, _ := s.Unit("gren")
			for _, m := range gren.Models {
				if m.Removed != (m.Remaining() == 0) {
					t.Errorf("%s: removed %v with %d lives left", m.ID, m.Removed, m.Remaining())
				}
			}
			if got := lives(gren); !reflect.DeepEqual(got, tt.wantLives) {
				t.Errorf("grenadier lives: got %v, want %v", got, tt.wantLives)
			}
		})
	}
}

func TestRollsLandInEventsWithOrigin(t *testing.T) {
	s := newGame(t, 5, "", 5, Options{})
	s = mustApply(t, s, shoot(20, 0, 0))
	_, evs, err := Apply(s, Dice{Rolls: []dice.Roll{{Value: 3, Origin: dice.Camera, Device: "cam0", Confidence: 0.97}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || len(evs[0].Rolls) != 1 || evs[0].Rolls[0].Origin != dice.Camera || evs[0].Rolls[0].Confidence != 0.97 {
		t.Fatalf("got events %+v, want one dice_entered carrying the camera roll", evs)
	}
}

func TestRejections(t *testing.T) {
	ready := newGame(t, 5, "", 5, Options{})
	shooting := mustApply(t, ready, shoot(20, 0, 0))
	moving := mustApply(t, ready, EndPhase{})
	tests := []struct {
		name   string
		state  State
		action Action
		code   string
		en     string
	}{
		{"out of range", ready, shoot(34, 0, 0), "out_of_range", "KARABINER 98K: target 34±0.1 kroki away, range 30"},
		{"shooting in the movement phase", moving, DeclareShot{Shooter: "gren", Target: "ak", Distance: kroki(10, 0)}, "wrong_phase",
			"shooting only in the shooting phase (now: movement phase)"},
		{"not your unit", ready, DeclareShot{Shooter: "gren", Target: "ak", Distance: kroki(10, 0)}, "not_your_turn", ""},
		{"friendly fire", ready, DeclareShot{Shooter: "ak", Target: "ak", Distance: kroki(10, 0)}, "friendly_target", ""},
		{"unknown target", ready, DeclareShot{Shooter: "ak", Target: "tiger", Distance: kroki(10, 0)}, "unknown_unit", ""},
		{"more in cover than alive", ready, shoot(20, 4, 2), "bad_measurement", ""},
		{"no line of fire", ready, DeclareShot{Shooter: "ak", Target: "gren", Distance: kroki(20, 0),
			NoLineOfFire: []string{"ak-1", "ak-2", "ak-3", "ak-4", "ak-5"}}, "no_line_of_fire", "Żołnierz Armii Krajowej: no model with KARABINER 98K has a line of fire to Grenadier"},
		{"die showing 7", shooting, rolls(3, 7), "bad_die", "a die showing 7: a d6 has faces 1–6"},
		{"die showing 0", shooting, rolls(0), "bad_die", ""},
		{"die with no origin", shooting, Dice{Rolls: []dice.Roll{{Value: 3}}}, "bad_die", ""},
		{"too many dice", shooting, rolls(1, 2, 3, 4, 5, 6), "too_many_dice", ""},
		{"second shot while one is open", shooting, shoot(20, 0, 0), "shot_in_progress", ""},
		{"end phase mid-shot", shooting, EndPhase{}, "shot_in_progress", ""},
		{"dice with no shot", ready, rolls(3), "no_shot", ""},
		{"undo with nothing entered", shooting, UndoDie{}, "nothing_to_undo", ""},
		{"ruling nobody asked for", shooting, Ruling{InRange: true}, "no_ruling_needed", ""},
		{"start twice", ready, StartGame{}, "already_started", ""},
		{"army after setup", ready, SubmitArmy{Seat: 1}, "wrong_phase", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rej := wantRejection(t, tt.state, tt.action, tt.code)
			if tt.en != "" && rej.Reason.EN != tt.en {
				t.Errorf("got reason %q, want %q", rej.Reason.EN, tt.en)
			}
		})
	}
}

func TestTooCloseToCall(t *testing.T) {
	s := newGame(t, 5, "", 5, Options{})
	near := DeclareShot{Shooter: "ak", Target: "gren", Distance: kroki(30.2, 0.4)}
	s, evs, err := Apply(s, near)
	if err != nil {
		t.Fatal(err)
	}
	if s.Shot.Stage != StageRuling || evs[len(evs)-1].Type != "too_close_to_call" {
		t.Fatalf("got stage %s and events %+v, want a ruling asked for", s.Shot.Stage, evs)
	}
	if s.Shot.Odds == nil || s.Shot.Odds.Before != StageHit {
		t.Errorf("odds while waiting for the ruling: %+v, want the odds before the hit roll", s.Shot.Odds)
	}
	if _, _, err := Apply(s, rolls(3)); err == nil {
		t.Fatal("dice accepted before the ruling")
	}
	in := mustApply(t, s, Ruling{InRange: true, By: "referee"})
	if in.Shot.Stage != StageHit || in.Shot.Need != 5 {
		t.Errorf("after ruling in range: stage %s need %d, want hit 5", in.Shot.Stage, in.Shot.Need)
	}
	out := mustApply(t, s, Ruling{InRange: false, By: "referee"})
	if out.Shot != nil {
		t.Errorf("after ruling out of range the shot is still open")
	}
	// Clearly inside or outside is decided without asking.
	clear := mustApply(t, newGame(t, 5, "", 5, Options{}), DeclareShot{Shooter: "ak", Target: "gren", Distance: kroki(29.5, 0.4)})
	if clear.Shot.Stage != StageHit {
		t.Errorf("29.5±0.4 against range 30: stage %s, want hit", clear.Shot.Stage)
	}
}

func TestDistanceFromPositions(t *testing.T) {
	s := newGame(t, 5, "", 5, Options{})
	s = mustApply(t, s, DeclareShot{Shooter: "ak", Target: "gren"})
	if s.Shot.Distance != (Measure{Kroki: 20}) {
		t.Errorf("distance from the deployed positions: got %+v, want 20 kroki", s.Shot.Distance)
	}
}

func TestUndoDie(t *testing.T) {
	s := newGame(t, 5, "", 5, Options{})
	s = mustApply(t, s, shoot(20, 0, 0), rolls(3), rolls(5), UndoDie{}, rolls(2))
	if got := dice.Values(s.Shot.Entered); !reflect.DeepEqual(got, []int{3, 2}) {
		t.Errorf("entered %v, want [3 2]", got)
	}
}

func TestMGBonusCountsStillRounds(t *testing.T) {
	cat := looseCat(t)
	units := []UnitSpec{{ID: "mg", Card: "grenadier", Owner: 2, Models: 1, Weapon: "MG42"}, {ID: "ak", Card: "ak_soldier", Owner: 1, Models: 5}}
	start := deployed(t, cat, units, Options{}, ChooseScenario{Number: 1})
	round := []Action{EndPhase{}, EndPhase{}, EndPhase{}, EndPhase{}}
	// Ania's two phases, then Bartek's movement: the MG has stood still for
	// two whole rounds by its third turn.
	s := mustApply(t, start, round...)
	s = mustApply(t, s, round...)
	s = mustApply(t, s, EndPhase{}, EndPhase{}, EndPhase{}, DeclareShot{Shooter: "mg", Target: "ak", Distance: kroki(10, 0)})
	if s.Shot.Attacks != 12 {
		t.Errorf("MG42 after 2 still rounds: %d attacks, want 12", s.Shot.Attacks)
	}
	moved := mustApply(t, start, EndPhase{}, EndPhase{}, UnitMoved{Unit: "mg"}, EndPhase{}, EndPhase{})
	moved = mustApply(t, moved, round...)
	moved = mustApply(t, moved, EndPhase{}, EndPhase{}, EndPhase{}, DeclareShot{Shooter: "mg", Target: "ak", Distance: kroki(10, 0)})
	if moved.Shot.Attacks != 10 {
		t.Errorf("MG42 that moved in round 1 and stood in round 2: %d attacks, want 10", moved.Shot.Attacks)
	}
}

func TestActionCodecRoundTrip(t *testing.T) {
	actions := []Action{
		EndPhase{}, UndoDie{}, CancelShot{}, UnitMoved{Unit: "ak"}, Ruling{InRange: true, By: "referee"},
		shoot(20, 1, 2), rolls(1, 6),
		SubmitArmy{Seat: 1, Army: ArmyList{Faction: "Armia Krajowa", Units: []UnitSpec{{ID: "a", Card: "ak_soldier", Models: 4, Commander: true, Weapon: "MP 40",
			Swaps: []ModelSwap{{Weapon: "PANZERFAUST", Models: 1}}}}}},
		ChooseScenario{Number: 2, PointsToWin: 20},
		RollOffDice{Rolls: []SeatRoll{{Seat: 1, Roll: dice.Roll{Value: 4, Origin: dice.Keypad}}}},
		PlaceObjective{Seat: 2, At: Point{X: 1.5, Y: 2, Sigma: 0.02}},
		Deploy{Unit: "ak", Models: []Placement{{Model: "ak-1", X: 1, Y: 2, Base: 0.98, Sigma: 0.02}}},
		Move{Models: []Placement{{Model: "ak-1", X: 3, Y: 2}}, Jumped: []string{"ak-1"}},
		DrawOrders{Seat: 1, Cards: []string{"ak_zasadzka"}, Origin: dice.NFC, Device: "reader-1"},
		DiscardOrder{Seat: 1, Card: "ak_zasadzka"},
		ClaimOrder{Seat: 1, Card: "ak_barykada", ConfirmedBy: []int{2}},
		DeclareShot{Shooter: "ak", Target: "gren", Weapon: "STIELHAND GRANATE", Markers: []Marker{{Models: []string{"gren-1"}, Distance: kroki(8, 0.1)}}},
		EndGame{By: "referee", Reason: "fair play"},
	}
	for _, a := range actions {
		data, err := EncodeAction(a)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeAction(data)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if !reflect.DeepEqual(back, a) {
			t.Errorf("round trip of %s: got %#v, want %#v", data, back, a)
		}
	}
	for _, bad := range []string{`{"type":"fly"}`, `{"type":"dice","rolls":[],"extra":1}`, `not json`} {
		if _, err := DecodeAction([]byte(bad)); err == nil {
			t.Errorf("DecodeAction(%s) accepted it", bad)
		}
	}
}

// The same actions give the same state, byte for byte.
func TestDeterministicReplay(t *testing.T) {
	play := func() []byte {
		s := newGame(t, 5, "", 5, Options{})
		src := dice.NewSeeded(42)
		s = mustApply(t, s, shoot(20, 1, 0))
		for s.Shot != nil {
			r, _ := src.Roll(s.Shot.Need - len(s.Shot.Entered))
			s = mustApply(t, s, Dice{Rolls: r})
		}
		b, _ := json.Marshal(s)
		return b
	}
	if a, b := play(), play(); !bytes.Equal(a, b) {
		t.Errorf("two replays differ:\n%s\n%s", a, b)
	}
}
