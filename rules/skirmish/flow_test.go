package skirmish

import (
	"strings"
	"testing"

	"github.com/sztab/sztab/rules/dice"
)

func fixed(seat, v int) SeatRoll {
	return SeatRoll{Seat: seat, Roll: dice.Roll{Value: v, Origin: dice.Fixed}}
}

// atDeployment is a scenario 1 game with the given units (owners set), in
// the deployment phase, Ania first.
func atDeployment(t *testing.T, cat *Catalogue, units ...UnitSpec) State {
	t.Helper()
	start, err := cat.NewGame(Setup{Players: twoPlayers, Units: units, Scenario: &ChooseScenario{Number: 1}, RollOff: []SeatRoll{fixed(1, 6), fixed(2, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	s := mustApply(t, State{}, start)
	if s.Phase != PhaseDeployment || s.ActiveSeat() != 1 {
		t.Fatalf("phase %s, seat %d to deploy; want deployment, seat 1", s.Phase, s.ActiveSeat())
	}
	return s
}

var (
	zoska = UnitSpec{ID: "zoska", Card: "ak_soldier", Owner: 1, Models: 4, Commander: true}
	gren  = UnitSpec{ID: "gren", Card: "grenadier", Owner: 2, Models: 5}
)

func TestSetupInAnyOrder(t *testing.T) {
	cat := defaultCat(t)
	start, err := cat.NewGame(Setup{Players: twoPlayers})
	if err != nil {
		t.Fatal(err)
	}
	s := mustApply(t, State{}, start)
	armyAK := SubmitArmy{Seat: 1, Army: ArmyList{Units: []UnitSpec{{ID: "zoska", Card: "ak_soldier", Models: 4}}}}
	armyW := SubmitArmy{Seat: 2, Army: ArmyList{Units: []UnitSpec{{ID: "gren", Card: "grenadier", Models: 4}}}}
	orders := [][]Action{
		{ChooseScenario{Number: 1}, armyAK, RollOffDice{Rolls: []SeatRoll{fixed(1, 2), fixed(2, 5)}}, armyW},
		{armyW, armyAK, RollOffDice{Rolls: []SeatRoll{fixed(1, 2), fixed(2, 5)}}, ChooseScenario{Number: 1}},
	}
	for _, steps := range orders {
		got := s
		for i, a := range steps {
			got = mustApply(t, got, a)
			if want := i == len(steps)-1; (got.Phase == PhaseDeployment) != want {
				t.Fatalf("after %s: phase %s", a.Type(), got.Phase)
			}
		}
		if got.FirstSeat != 2 || got.ActiveSeat() != 2 {
			t.Errorf("first seat %d, active %d; want Bartek (seat 2), who rolled 5", got.FirstSeat, got.ActiveSeat())
		}
	}
	wantRejection(t, s, Deploy{Unit: "zoska"}, "wrong_phase")
	wantRejection(t, s, EndPhase{}, "wrong_phase")
	wantRejection(t, s, ChooseScenario{Number: 5}, "bad_scenario")
}

func TestRollOffTies(t *testing.T) {
	cat := defaultCat(t)
	players := append(twoPlayers, Player{Seat: 3, Name: "Celina", Faction: "Armia Krajowa"})
	s := mustApply(t, State{}, must(cat.NewGame(Setup{Players: players})))
	tied := mustApply(t, s, RollOffDice{Rolls: []SeatRoll{fixed(1, 6), fixed(2, 6), fixed(3, 2)}})
	if tied.FirstSeat != 0 || len(tied.RollOff.Tied) != 2 {
		t.Fatalf("a tie at the top: first %d, tied %v; want nobody yet, seats 1 and 2 again", tied.FirstSeat, tied.RollOff.Tied)
	}
	wantRejection(t, tied, RollOffDice{Rolls: []SeatRoll{fixed(1, 3), fixed(2, 4), fixed(3, 6)}}, "bad_roll_off")
	wantRejection(t, tied, RollOffDice{Rolls: []SeatRoll{fixed(1, 3)}}, "bad_roll_off")
	wantRejection(t, tied, RollOffDice{Rolls: []SeatRoll{fixed(1, 3), fixed(2, 9)}}, "bad_die")
	done := mustApply(t, tied, RollOffDice{Rolls: []SeatRoll{fixed(1, 3), fixed(2, 4)}})
	if done.FirstSeat != 2 || len(done.RollOff.Rounds) != 2 {
		t.Errorf("after the re-roll: first %d, rounds %d; want seat 2 after 2 rounds", done.FirstSeat, len(done.RollOff.Rounds))
	}
	wantRejection(t, done, RollOffDice{Rolls: []SeatRoll{fixed(1, 3), fixed(2, 4)}}, "already_rolled")
	// Three players, two factions: the AK players are one side.
	if len(done.Sides) != 2 || len(done.Sides[0].Seats) != 2 {
		t.Errorf("sides %+v, want AK (seats 1, 3) and Wehrmacht (2)", done.Sides)
	}
}

func TestDeployment(t *testing.T) {
	cat := defaultCat(t)
	second := UnitSpec{ID: "parasol", Card: "ak_soldier", Owner: 1, Models: 4}
	s := atDeployment(t, cat, zoska, gren, second)
	z, _ := s.Unit("zoska")
	good := line(z, 2, 4)
	moved := func(d Deploy, i int, x, y float64) Deploy {
		d.Models = append([]Placement(nil), d.Models...)
		d.Models[i].X, d.Models[i].Y = x, y
		return d
	}
	tests := []struct {
		name   string
		action Deploy
		code   string
		en     string
	}{
		{"beyond 12 kroki of the edge", moved(good, 2, 5, 12), "deploy_zone", "zoska-3: its base reaches 12.5 kroki from the edge, at most 12 allowed"},
		{"a model far from its unit", moved(good, 4, 12, 4), "unit_coherency", "Żołnierz Armii Krajowej: zoska-5 stands more than 2 kroki from the rest of the unit"},
		{"off the table", moved(good, 0, -1, 4), "not_on_table", ""},
		{"a model left out", Deploy{Unit: "zoska", Models: good.Models[:4]}, "models_missing", ""},
		{"a model of another unit", Deploy{Unit: "zoska", Models: append(good.Models[:4:4], Placement{Model: "gren-1", X: 9, Y: 4})}, "unknown_model", ""},
		{"the other player's unit", line(unitOf(s, "gren"), 2, 30), "not_your_turn", "it is Ania's turn to deploy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rej := wantRejection(t, s, tt.action, tt.code)
			if tt.en != "" && rej.Reason.EN != tt.en {
				t.Errorf("got %q, want %q", rej.Reason.EN, tt.en)
			}
		})
	}
	// A chain, not every pair: the ends of a row of five are 5 kroki apart.
	s = mustApply(t, s, good)
	if s.ActiveSeat() != 2 {
		t.Fatalf("after Ania's unit: seat %d deploys, want Bartek", s.ActiveSeat())
	}
	wantRejection(t, s, good, "not_your_turn")
	s = mustApply(t, s, line(unitOf(s, "gren"), 2, 30))
	// Bartek has nothing left: Ania deploys again.
	p, _ := s.Unit("parasol")
	wantRejection(t, s, line(p, 2, 6.5), "too_close")
	s = mustApply(t, s, line(p, 12.5, 4))
	if s.Phase != PhaseMovement || s.Round != 1 || s.ActiveSeat() != 1 {
		t.Errorf("after deployment: %s round %d seat %d, want movement round 1 seat 1", s.Phase, s.Round, s.ActiveSeat())
	}
	wantRejection(t, s, good, "wrong_phase")
}

func TestDeploymentTooCloseToCall(t *testing.T) {
	s := atDeployment(t, defaultCat(t), zoska, gren)
	z, _ := s.Unit("zoska")
	d := line(z, 2, 4)
	d.Models[1].Y, d.Models[1].Sigma = 11.45, 0.05 // base reaches 11.95 ± 0.1
	held, evs, err := Apply(s, d)
	if err != nil {
		t.Fatal(err)
	}
	if held.Call == nil || held.Call.Key != "deploy_zone:zoska-2" || eventTypes(evs) != "too_close_to_call" {
		t.Fatalf("call %+v, events %s; want a call on zoska-2's zone", held.Call, eventTypes(evs))
	}
	if _, ok := held.Unit("zoska"); !ok || unitOf(held, "zoska").Deployed {
		t.Fatal("the unit deployed before the ruling")
	}
	wantRejection(t, held, EndPhase{}, "awaiting_ruling")
	// zoska-2 also stands 6.45 kroki from zoska-1: ruled inside the zone,
	// the deployment still fails on coherency, and nothing is deployed.
	in, evs := must2(Apply(held, Ruling{InRange: true, By: "referee"}))
	if in.Call != nil || unitOf(in, "zoska").Deployed || eventTypes(evs) != "ruled ruled_out" {
		t.Errorf("call %+v, deployed %v, events %s; want the deployment ruled out", in.Call, unitOf(in, "zoska").Deployed, eventTypes(evs))
	}
	if !strings.Contains(evs[1].Text.EN, "stands more than 2 kroki from the rest") {
		t.Errorf("ruled_out says %q", evs[1].Text.EN)
	}
	// A placement only the zone makes doubtful.
	d = line(z, 2, 11.45)
	d.Models[0].Sigma = 0.05
	held = mustApply(t, s, d)
	if held.Call == nil {
		t.Fatal("no call")
	}
	yes := mustApply(t, held, Ruling{InRange: true, By: "referee"})
	if !unitOf(yes, "zoska").Deployed || yes.Call != nil || yes.Rulings != nil || yes.ActiveSeat() != 2 {
		t.Errorf("ruled in: deployed %v, call %+v, rulings %v, seat %d", unitOf(yes, "zoska").Deployed, yes.Call, yes.Rulings, yes.ActiveSeat())
	}
	no, evs := must2(Apply(held, Ruling{InRange: false, By: "referee"}))
	if unitOf(no, "zoska").Deployed || no.Call != nil || !strings.Contains(eventTypes(evs), "ruled_out") {
		t.Errorf("ruled out: deployed %v, call %+v, events %s", unitOf(no, "zoska").Deployed, no.Call, eventTypes(evs))
	}
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

func TestMovement(t *testing.T) {
	cat := looseCat(t)
	units := []UnitSpec{
		{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 4},
		{ID: "mg", Card: "ak_soldier", Owner: 1, Models: 1, Weapon: "ZDOBYCZNY MG42"},
		{ID: "gren", Card: "grenadier", Owner: 2, Models: 4},
	}
	s := deployed(t, cat, units, Options{}, ChooseScenario{Number: 1})
	ak1 := unitOf(s, "ak").Models[0].At // (2, 4)
	mv := func(id string, dx, dy, sigma float64, jumped ...string) Move {
		u := s.unitOfModel(id)
		p := *u.model(id).At
		return Move{Models: []Placement{{Model: id, X: p.X + dx, Y: p.Y + dy, Sigma: sigma}}, Jumped: jumped}
	}
	tests := []struct {
		name string
		move Move
		code string
		en   string
	}{
		{"longer than the move", mv("ak-1", 0, 6.3, 0), "move_too_long", "ak-1: moved 6.3 kroki, 6 allowed"},
		{"a gun that cannot jump", mv("mg-1", 0, 2, 0, "mg-1"), "cannot_jump", "mg-1 carries ZDOBYCZNY MG42: it cannot jump"},
		{"the enemy's model", mv("gren-1", 0, -2, 0), "not_your_turn", ""},
		{"off the table", mv("ak-1", -3, 0, 0), "not_on_table", ""},
		{"a jump by a model that did not move", Move{Models: mv("ak-1", 0, 1, 0).Models, Jumped: []string{"ak-2"}}, "bad_move", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rej := wantRejection(t, s, tt.move, tt.code)
			if tt.en != "" && rej.Reason.EN != tt.en {
				t.Errorf("got %q, want %q", rej.Reason.EN, tt.en)
			}
		})
	}
	// Two moves in one phase are measured from where the model began.
	s2 := mustApply(t, s, mv("ak-1", 0, 4, 0))
	wantRejection(t, s2, Move{Models: []Placement{{Model: "ak-1", X: ak1.X, Y: ak1.Y + 6.5}}}, "move_too_long")
	back := mustApply(t, s2, Move{Models: []Placement{{Model: "ak-1", X: ak1.X, Y: ak1.Y + 1}}})
	if got := unitOf(back, "ak").Models[0]; got.At.Y != ak1.Y+1 || got.From.Y != ak1.Y {
		t.Errorf("ak-1 at %+v from %+v", got.At, got.From)
	}
	// Too close to call, then ruled.
	held := mustApply(t, s, mv("ak-1", 0, 5.95, 0.05))
	if held.Call == nil || held.Call.Key != "move:ak-1" {
		t.Fatalf("5.95±0.14 against 6: call %+v", held.Call)
	}
	if ruled := mustApply(t, held, Ruling{InRange: true, By: "Bartek"}); unitOf(ruled, "ak").Models[0].At.Y != ak1.Y+5.95 {
		t.Error("the move was not taken after the ruling")
	}
	// Jitter within the camera's uncertainty is not a move: the MG keeps its bonus.
	still := mustApply(t, s, mv("mg-1", 0.05, 0, 0.05), EndPhase{})
	if unitOf(still, "mg").MovedThisRound {
		t.Error("a 0.05-krok jitter with σ 0.05 counted as a move")
	}
	wantRejection(t, still, mv("ak-1", 0, 1, 0), "wrong_phase")
}

func TestJumpRules(t *testing.T) {
	cat := looseCat(t)
	units := []UnitSpec{
		{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 2}, // KARABINER 98K: skok = strata ruchu
		{ID: "smg", Card: "ak_soldier", Owner: 1, Models: 2, Weapon: "STEN"},
		{ID: "gren", Card: "grenadier", Owner: 2, Models: 4},
	}
	jumpBoth := Move{Models: []Placement{{Model: "ak-1", X: 2, Y: 7}, {Model: "ak-2", X: 3.5, Y: 7}, {Model: "smg-1", X: 7.5, Y: 7}},
		Jumped: []string{"ak-1", "ak-2", "smg-1"}}
	t.Run("no shot after a strata ruchu jump", func(t *testing.T) {
		s := deployed(t, cat, units, Options{}, ChooseScenario{Number: 1})
		s, evs := must2(Apply(s, jumpBoth))
		if !strings.Contains(eventTypes(evs), "jumped_no_shot") {
			t.Errorf("events %s, want a jumped_no_shot notice", eventTypes(evs))
		}
		s = mustApply(t, s, EndPhase{})
		rej := wantRejection(t, s, DeclareShot{Shooter: "ak", Target: "gren", Distance: kroki(17, 0)}, "jumped_cannot_fire")
		if rej.Reason.EN != "Żołnierz Armii Krajowej: KARABINER 98K cannot fire after jumping (skok = strata ruchu)" {
			t.Errorf("reason %q", rej.Reason.EN)
		}
		// STEN: "brak straty ruchu" — it fires after its jump.
		s = mustApply(t, s, DeclareShot{Shooter: "smg", Target: "gren", Distance: kroki(17, 0)})
		if s.Shot.Attacks != 8 {
			t.Errorf("STEN after a jump: %d attacks, want 8", s.Shot.Attacks)
		}
	})
	t.Run("one of two jumped", func(t *testing.T) {
		s := deployed(t, cat, units, Options{}, ChooseScenario{Number: 1})
		s = mustApply(t, s, Move{Models: jumpBoth.Models[:1], Jumped: []string{"ak-1"}}, EndPhase{},
			DeclareShot{Shooter: "ak", Target: "gren", Distance: kroki(17, 0)})
		if s.Shot.Attacks != 1 || strings.Join(s.Shot.Firing, ",") != "ak-2" {
			t.Errorf("firing %v, %d attacks; want ak-2 alone", s.Shot.Firing, s.Shot.Attacks)
		}
	})
	t.Run("half_move: the jump costs half the move, the shot stays", func(t *testing.T) {
		s := deployed(t, cat, units, Options{MoveLoss: MoveLossHalf}, ChooseScenario{Number: 1})
		long := Move{Models: []Placement{{Model: "ak-1", X: 2, Y: 7.5}}, Jumped: []string{"ak-1"}}
		rej := wantRejection(t, s, long, "move_too_long")
		if rej.Reason.EN != "ak-1: moved 3.5 kroki, 3 allowed (half its move after jumping with KARABINER 98K)" {
			t.Errorf("reason %q", rej.Reason.EN)
		}
		s = mustApply(t, s, jumpBoth, EndPhase{}, DeclareShot{Shooter: "ak", Target: "gren", Distance: kroki(17, 0)})
		if s.Shot.Attacks != 2 {
			t.Errorf("%d attacks, want 2", s.Shot.Attacks)
		}
	})
}

func TestWeaponChoice(t *testing.T) {
	cat := defaultCat(t)
	mixed := UnitSpec{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 4, Swaps: []ModelSwap{{Weapon: "PANZERFAUST", Models: 1}}}
	s := deployed(t, cat, []UnitSpec{mixed, gren}, Options{}, ChooseScenario{Number: 1})
	s = mustApply(t, s, EndPhase{})
	wantRejection(t, s, DeclareShot{Shooter: "ak", Target: "gren"}, "choose_weapon")
	wantRejection(t, s, DeclareShot{Shooter: "ak", Target: "gren", Weapon: "MG42"}, "no_such_weapon")
	pf := mustApply(t, s, DeclareShot{Shooter: "ak", Target: "gren", Weapon: "PANZERFAUST"})
	if pf.Shot.Attacks != 1 || !pf.Shot.D6Wounds {
		t.Fatalf("Panzerfaust shot: %+v", pf.Shot)
	}
	pf = mustApply(t, pf, rolls(1))
	wantRejection(t, pf, DeclareShot{Shooter: "ak", Target: "gren", Weapon: "PANZERFAUST"}, "already_shot")
	rifles := mustApply(t, pf, DeclareShot{Shooter: "ak", Target: "gren", Weapon: "KARABINER 98K"})
	if rifles.Shot.Attacks != 3 {
		t.Errorf("the rifles fire after the Panzerfaust: %d attacks, want 3", rifles.Shot.Attacks)
	}
}

func TestTemplates(t *testing.T) {
	cat := looseCat(t)
	units := []UnitSpec{
		{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 5},
		{ID: "gren", Card: "grenadier", Owner: 2, Models: 2, Weapon: "STIELHAND GRANATE"},
		{ID: "flam", Card: "grenadier", Owner: 2, Models: 1, Weapon: "FLAMMENWERFER 35"},
		{ID: "mortar", Card: "mortar_team", Owner: 2, Models: 2, Weapon: "MOŹDZIERZ 50MM"},
	}
	start := deployed(t, cat, units, Options{}, ChooseScenario{Number: 1})
	bartek := mustApply(t, start, EndPhase{}, EndPhase{}, EndPhase{}) // Bartek's shooting
	marker := func(d float64, models ...string) Marker { return Marker{Models: models, Distance: kroki(d, 0.1)} }

	t.Run("grenade: d6 wounds to each model under the area", func(t *testing.T) {
		s := mustApply(t, bartek, DeclareShot{Shooter: "gren", Target: "ak", Markers: []Marker{marker(9, "ak-2", "ak-3")}})
		if s.Shot.Stage != StageDamage || s.Shot.Need != 2 || s.Shot.Odds.Before != StageDamage {
			t.Fatalf("stage %s need %d odds %+v, want damage 2", s.Shot.Stage, s.Shot.Need, s.Shot.Odds)
		}
		// ak-2 takes 1 wound, ak-3 2; AK save on 5.
		s = mustApply(t, s, rolls(1, 2), rolls(6, 1, 1))
		got := s.LastShot
		if strings.Join(got.Killed, ",") != "ak-3" || strings.Join(got.HitModels, ",") != "ak-2,ak-3" || got.Saved != 1 {
			t.Errorf("result %+v, want ak-2 saved, ak-3 killed", got)
		}
	})
	t.Run("grenade out of range", func(t *testing.T) {
		rej := wantRejection(t, bartek, DeclareShot{Shooter: "gren", Target: "ak", Markers: []Marker{marker(13, "ak-1")}}, "out_of_range")
		if rej.Reason.EN != "STIELHAND GRANATE: marker 13±0.1 kroki away, range 12" {
			t.Errorf("reason %q", rej.Reason.EN)
		}
	})
	t.Run("more markers than throwers", func(t *testing.T) {
		wantRejection(t, bartek, DeclareShot{Shooter: "gren", Target: "ak", Markers: []Marker{marker(9, "ak-1"), marker(9, "ak-2"), marker(9, "ak-3")}}, "bad_marker")
	})
	t.Run("no marker", func(t *testing.T) {
		wantRejection(t, bartek, DeclareShot{Shooter: "gren", Target: "ak"}, "no_marker")
	})
	t.Run("a marker over a model of another unit", func(t *testing.T) {
		wantRejection(t, bartek, DeclareShot{Shooter: "gren", Target: "ak", Markers: []Marker{marker(9, "gren-1")}}, "bad_marker")
	})
	t.Run("flamethrower: the marker is the reach, wound on 2", func(t *testing.T) {
		s := mustApply(t, bartek, DeclareShot{Shooter: "flam", Target: "ak", Markers: []Marker{{Models: []string{"ak-1", "ak-2", "ak-3"}}}})
		if s.Shot.Stage != StageWound || s.Shot.WoundOn != 2 || s.Shot.Need != 3 {
			t.Fatalf("stage %s wound %d need %d", s.Shot.Stage, s.Shot.WoundOn, s.Shot.Need)
		}
		s = mustApply(t, s, rolls(1, 2, 2), rolls(5, 4))
		if strings.Join(s.LastShot.Killed, ",") != "ak-3" {
			t.Errorf("killed %v, want ak-3 (ak-2 saved on 5)", s.LastShot.Killed)
		}
	})
	t.Run("mortar: the target die keeps the marker on target", func(t *testing.T) {
		s := mustApply(t, bartek, DeclareShot{Shooter: "mortar", Target: "ak", Markers: []Marker{marker(19, "ak-1", "ak-2"), marker(19, "ak-4")}})
		if s.Shot.Stage != StageTarget || s.Shot.Need != 2 || s.Shot.TargetOn != 4 {
			t.Fatalf("stage %s need %d target on %d", s.Shot.Stage, s.Shot.Need, s.Shot.TargetOn)
		}
		if o := s.Shot.Odds; o == nil || o.Before != StageTarget {
			t.Fatalf("odds %+v", o)
		}
		s = mustApply(t, s, rolls(3, 4))
		if strings.Join(s.Shot.HitModels, ",") != "ak-4" || s.Shot.Stage != StageWound {
			t.Fatalf("hit %v at stage %s; want ak-4 (the first shell missed)", s.Shot.HitModels, s.Shot.Stage)
		}
		s = mustApply(t, s, rolls(3), rolls(2))
		if strings.Join(s.LastShot.Killed, ",") != "ak-4" {
			t.Errorf("killed %v", s.LastShot.Killed)
		}
	})
}

func TestCoherencyTooCloseToCall(t *testing.T) {
	s := atDeployment(t, defaultCat(t), zoska, gren)
	d := line(unitOf(s, "zoska"), 3.5, 4)
	d.Models[0].X, d.Models[0].Sigma = 2, 0.05 // 2.0 ± 0.14 kroki from zoska-2
	d.Models[1].Sigma = 0.05
	held := mustApply(t, s, d)
	if held.Call == nil || held.Call.Key != "coherency:zoska-1:zoska-2" {
		t.Fatalf("call %+v, want one on the zoska-1 – zoska-2 link", held.Call)
	}
	if yes := mustApply(t, held, Ruling{InRange: true, By: "sędzia"}); !unitOf(yes, "zoska").Deployed {
		t.Error("ruled within 2 kroki: not deployed")
	}
	no, evs := must2(Apply(held, Ruling{InRange: false, By: "sędzia"}))
	if unitOf(no, "zoska").Deployed || eventTypes(evs) != "ruled ruled_out" || !strings.Contains(evs[1].Text.EN, "unit_coherency") && !strings.Contains(evs[1].Text.EN, "more than 2 kroki") {
		t.Errorf("ruled apart: deployed %v, events %s %q", unitOf(no, "zoska").Deployed, eventTypes(evs), evs[len(evs)-1].Text.EN)
	}
}
