package skirmish

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestAnnihilation(t *testing.T) {
	s := newGame(t, 5, "", 1, Options{})
	s, evs := must2(Apply(mustApply(t, s, shoot(20, 0, 0), rolls(6, 6, 6, 6, 6), rolls(6, 6, 6, 6, 6)), rolls(1, 1, 1, 1, 1)))
	if s.Result == nil || s.Result.Winner != "Armia Krajowa" || s.Result.Condition != WinAnnihilation || s.Phase != PhaseOver {
		t.Fatalf("result %+v phase %s; want AK by annihilation", s.Result, s.Phase)
	}
	if !strings.HasSuffix(eventTypes(evs), "shot_resolved remove_models unit_destroyed game_over") {
		t.Errorf("events %s", eventTypes(evs))
	}
	if !slices.Equal(s.Result.Seats, []int{1}) || s.Sides[0].Kills != 1 || s.Sides[0].KillPoints != 12 || s.Sides[1].Alive != 0 {
		t.Errorf("result seats %v, sides %+v", s.Result.Seats, s.Sides)
	}
	wantRejection(t, s, EndPhase{}, "game_over")
}

func TestEndGameAndMaxRounds(t *testing.T) {
	s := newGame(t, 5, "", 5, Options{MaxRounds: 1})
	ended := mustApply(t, s, EndGame{By: "sędzia", Reason: "fair play"})
	if ended.Result.Condition != WinEnded || ended.Result.Winner != "" || ended.Result.Text.EN != "game ended (sędzia): fair play" {
		t.Errorf("ended: %+v", ended.Result)
	}
	wantRejection(t, s, EndGame{By: "x", Winner: "Luftwaffe"}, "unknown_faction")
	// Round 1: Ania wounds two grenadiers and kills nobody, then Bartek
	// plays: no kill points either way.
	s = mustApply(t, s, shoot(20, 0, 0), rolls(3, 3, 3, 4, 5), rolls(3, 4, 4, 6, 6), rolls(2, 3, 6, 6, 6), EndPhase{}, EndPhase{}, EndPhase{})
	if s.Result == nil || s.Result.Condition != WinRounds || s.Result.Winner != "" {
		t.Fatalf("after the last round: %+v", s.Result)
	}
	if s.Result.Text.EN != "the last round (1) is over: Armia Krajowa 0, Wehrmacht 0 — a draw" {
		t.Errorf("text %q", s.Result.Text.EN)
	}
}

// holdGame: scenario 2 with obj-1 by the AK line and obj-2 in no man's
// land, to 2 points.
func holdGame(t *testing.T, obj1 Point) State {
	t.Helper()
	cat := defaultCat(t)
	start := must(cat.NewGame(Setup{Players: twoPlayers, Units: []UnitSpec{zoska, gren},
		Scenario: &ChooseScenario{Number: 2, PointsToWin: 2, Objectives: 2}, RollOff: []SeatRoll{fixed(1, 6), fixed(2, 1)}}))
	s := mustApply(t, State{}, start)
	if s.Phase != PhaseObjectives {
		t.Fatalf("phase %s, want objectives", s.Phase)
	}
	wantRejection(t, s, PlaceObjective{Seat: 2, At: Point{X: 18, Y: 18}}, "not_your_turn")
	wantRejection(t, s, PlaceObjective{Seat: 1, At: Point{X: 40, Y: 18}}, "not_on_table")
	s = mustApply(t, s, PlaceObjective{Seat: 1, At: obj1}, PlaceObjective{Seat: 2, At: Point{X: 18, Y: 18}})
	if s.Phase != PhaseDeployment {
		t.Fatalf("phase %s after two objectives", s.Phase)
	}
	return mustApply(t, s, line(unitOf(s, "zoska"), 2, 4), line(unitOf(s, "gren"), 2, 30))
}

func TestTakeAndHold(t *testing.T) {
	s := holdGame(t, Point{X: 3, Y: 6})
	turn := []Action{EndPhase{}, EndPhase{}}
	s, evs := must2(Apply(mustApply(t, s, EndPhase{}), EndPhase{}))
	if !strings.HasPrefix(eventTypes(evs), "objectives_held") || s.Sides[0].ObjectivePoints != 1 || s.Objectives[0].Holder != "Armia Krajowa" {
		t.Fatalf("end of Ania's turn: events %s, sides %+v", eventTypes(evs), s.Sides)
	}
	s = mustApply(t, s, turn...)
	if s.Sides[1].ObjectivePoints != 0 {
		t.Errorf("Bartek holds nothing: %+v", s.Sides[1])
	}
	s = mustApply(t, s, turn...)
	if s.Result == nil || s.Result.Winner != "Armia Krajowa" || s.Result.Condition != WinObjectives {
		t.Errorf("result %+v, want AK by objectives", s.Result)
	}
}

func TestObjectiveTooCloseToCall(t *testing.T) {
	// zoska-1 at (2, 4): base edge 3.0 from (2, 7.5), measured ± 0.2.
	s := holdGame(t, Point{X: 2, Y: 7.5, Sigma: 0.1})
	s = mustApply(t, s, EndPhase{})
	held := mustApply(t, s, EndPhase{})
	if held.Call == nil || held.Call.Key != "objective:obj-1:zoska-1" || held.Phase != PhaseShooting {
		t.Fatalf("call %+v phase %s; want the end of the turn held for a ruling on zoska-1", held.Call, held.Phase)
	}
	yes := mustApply(t, held, Ruling{InRange: true, By: "Bartek"})
	if yes.Sides[0].ObjectivePoints != 1 || yes.ActiveSeat() != 2 || yes.Call != nil {
		t.Errorf("ruled within: points %d, seat %d", yes.Sides[0].ObjectivePoints, yes.ActiveSeat())
	}
	no := mustApply(t, held, Ruling{InRange: false, By: "Bartek"})
	if no.Sides[0].ObjectivePoints != 0 || no.ActiveSeat() != 2 {
		t.Errorf("ruled outside: points %d, seat %d", no.Sides[0].ObjectivePoints, no.ActiveSeat())
	}
}

func ordersGame(t *testing.T, opts Options) State {
	t.Helper()
	units := []UnitSpec{{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 5}, {ID: "gren", Card: "grenadier", Owner: 2, Models: 2}}
	s := deployed(t, looseCat(t), units, opts, ChooseScenario{Number: 3, OrderPointsToWin: 3})
	if s.Phase != PhaseOrders || s.Round != 0 {
		t.Fatalf("after deployment: %s round %d, want the first orders phase", s.Phase, s.Round)
	}
	return s
}

var (
	akHand = []string{"ak_pierwsza_krew", "ak_zasadzka", "ak_odwet", "ak_barykada", "ak_natarcie"}
	wHand  = []string{"w_eliminacja", "w_anihilacja", "w_rozbic_oddzial", "w_dwa_oddzialy", "w_granaty"}
)

func TestOrderCards(t *testing.T) {
	s := ordersGame(t, Options{})
	wantRejection(t, s, EndPhase{}, "draw_orders")
	wantRejection(t, s, DrawOrders{Seat: 1, Cards: []string{"w_granaty"}, Origin: "nfc"}, "bad_card")
	wantRejection(t, s, DrawOrders{Seat: 1, Cards: append(akHand, "ak_granat"), Origin: "nfc"}, "hand_full")
	wantRejection(t, s, DrawOrders{Seat: 1, Cards: []string{"ak_granat", "ak_granat"}, Origin: "nfc"}, "bad_card")
	wantRejection(t, s, DrawOrders{Seat: 1, Cards: []string{"ak_granat"}, Origin: "hat"}, "bad_card")
	s = mustApply(t, s, DrawOrders{Seat: 2, Cards: wHand, Origin: "virtual"}, DrawOrders{Seat: 1, Cards: akHand[:3], Origin: "nfc"})
	if s.Round != 0 {
		t.Fatal("round 1 began before every hand was full")
	}
	s, evs := must2(Apply(s, DrawOrders{Seat: 1, Cards: akHand[3:], Origin: "nfc"}))
	if s.Round != 1 || s.Phase != PhaseOrders || s.ActiveSeat() != 1 || eventTypes(evs) != "orders_drawn phase" {
		t.Fatalf("round %d %s seat %d events %s", s.Round, s.Phase, s.ActiveSeat(), eventTypes(evs))
	}
	for _, e := range evs {
		if strings.Contains(e.Text.EN, "ak_") {
			t.Errorf("an event names a hidden card: %q", e.Text.EN)
		}
	}
	// One swap per orders phase, and the hand refilled before moving on.
	s = mustApply(t, s, DiscardOrder{Seat: 1, Card: "ak_natarcie"})
	wantRejection(t, s, DiscardOrder{Seat: 1, Card: "ak_odwet"}, "already_swapped")
	wantRejection(t, s, EndPhase{}, "draw_orders")
	wantRejection(t, s, DrawOrders{Seat: 1, Cards: []string{"ak_natarcie"}, Origin: "nfc"}, "bad_card")
	s = mustApply(t, s, DrawOrders{Seat: 1, Cards: []string{"ak_granat"}, Origin: "nfc"}, EndPhase{})
	wantRejection(t, s, ClaimOrder{Seat: 1, Card: "ak_barykada"}, "not_confirmed")
	wantRejection(t, s, ClaimOrder{Seat: 1, Card: "ak_zasadzka", Referee: "x"}, "engine_checks")
	s, evs = must2(Apply(s, ClaimOrder{Seat: 1, Card: "ak_barykada", ConfirmedBy: []int{2}}))
	if s.Sides[0].OrderPoints != 1 || eventTypes(evs) != "order_completed" {
		t.Fatalf("claimed: %+v, events %s", s.Sides[0], eventTypes(evs))
	}
	// Kill both grenadiers: first blood (1), ambush (1) — the third point
	// wins before odwet (4 kills) could.
	s = mustApply(t, s, EndPhase{}, shoot(20, 0, 0), rolls(6, 6, 6, 6, 6), rolls(6, 6, 6, 6, 6))
	s, evs = must2(Apply(s, rolls(1, 1, 1, 1, 1)))
	if got := eventTypes(evs); !strings.Contains(got, "order_completed order_completed game_over") {
		t.Errorf("events %s", got)
	}
	if s.Result == nil || s.Result.Condition != WinAnnihilation && s.Result.Condition != WinOrders {
		t.Errorf("result %+v", s.Result)
	}
	ps := s.seatState(1)
	if !slices.Equal(ps.Completed, []string{"ak_barykada", "ak_pierwsza_krew", "ak_zasadzka"}) || s.Sides[0].OrderPoints != 3 {
		t.Errorf("completed %v, points %d", ps.Completed, s.Sides[0].OrderPoints)
	}
	// Orders are checked before annihilation: the order target is reached
	// in the same action, and the game ends once, by orders.
	if s.Result.Condition != WinOrders {
		t.Errorf("condition %s, want orders", s.Result.Condition)
	}
}

func TestOrdersCountFromTheDraw(t *testing.T) {
	s := ordersGame(t, Options{})
	s = mustApply(t, s, DrawOrders{Seat: 2, Cards: wHand, Origin: "virtual"}, DrawOrders{Seat: 1, Cards: []string{"ak_barykada", "ak_natarcie", "ak_granat", "ak_rozbicie", "ak_sanitariuszka"}, Origin: "nfc"})
	s = mustApply(t, s, EndPhase{}, EndPhase{}, shoot(20, 0, 0), rolls(6, 1, 1, 1, 1), rolls(6), rolls(1))
	// One grenadier wounded, nobody killed. Ania swaps for "Pierwsza krew"
	// only now: kills before the draw do not count.
	s = mustApply(t, s, EndPhase{}, EndPhase{}, EndPhase{}, EndPhase{}, DiscardOrder{Seat: 1, Card: "ak_natarcie"}, DrawOrders{Seat: 1, Cards: []string{"ak_pierwsza_krew"}, Origin: "nfc"})
	held := s.seatState(1).Hand
	if held[len(held)-1].Baseline.Kills != 0 {
		t.Fatalf("baseline %+v", held[len(held)-1].Baseline)
	}
	s = mustApply(t, s, EndPhase{}, EndPhase{}, shoot(20, 0, 0), rolls(6, 6, 1, 1, 1), rolls(6, 6), rolls(1, 1))
	if s.Sides[0].OrderPoints != 1 || !slices.Contains(s.seatState(1).Completed, "ak_pierwsza_krew") {
		t.Errorf("after the first kill: %+v", s.Sides[0])
	}
}

func TestHiddenViews(t *testing.T) {
	s := atDeployment(t, defaultCat(t), zoska, gren)
	public := s.View(Viewer{})
	ania := s.View(Viewer{Seat: 1})
	ref := s.View(Viewer{Referee: true})
	if len(public.Units) != 0 || len(ania.Units) != 1 || ania.Units[0].ID != "zoska" || len(ref.Units) != 2 {
		t.Errorf("before deployment: public sees %d units, Ania %d, referee %d; want 0, her own 1, 2", len(public.Units), len(ania.Units), len(ref.Units))
	}
	if public.Sides[1].Alive != 0 || ania.Sides[0].Alive != 5 {
		t.Errorf("models counted in hidden armies: public %+v, Ania %+v", public.Sides, ania.Sides)
	}
	if public.Seats[0].ArmyPoints != 0 || ania.Seats[1].ArmyPoints != 0 || ania.Seats[0].ArmyPoints != 40 {
		t.Errorf("army points visible: public %+v, Ania %+v", public.Seats, ania.Seats)
	}
	s = mustApply(t, s, line(unitOf(s, "zoska"), 2, 4))
	if got := s.View(Viewer{Seat: 2}).Units; len(got) != 2 {
		t.Errorf("Bartek sees %d units after Ania deployed, want hers and his", len(got))
	}
	b, _ := json.Marshal(s.View(Viewer{}))
	if strings.Contains(string(b), `"gren"`) {
		t.Error("the public view names the undeployed grenadiers")
	}
	o := ordersGame(t, Options{})
	o = mustApply(t, o, DrawOrders{Seat: 1, Cards: akHand, Origin: "nfc"})
	pub := o.View(Viewer{})
	if pub.Seats[0].Hand != nil || pub.Seats[0].Drawn != nil || pub.Seats[0].HandSize != 5 {
		t.Errorf("public view of Ania's hand: %+v", pub.Seats[0])
	}
	if mine := o.View(Viewer{Seat: 1}); len(mine.Seats[0].Hand) != 5 {
		t.Errorf("Ania does not see her hand")
	}
	// The view is a copy: changing it does not touch the state.
	pub.Units[0].Models[0].Wounds = 9
	if o.Units[0].Models[0].Wounds != 0 {
		t.Error("the view shares memory with the state")
	}
}
