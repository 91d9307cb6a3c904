package west1920

import "testing"

// atStage2Events is a game at the start of stage 2's events phase, each
// player holding the card given (stage-1 draws, 3.1).
func atStage2Events(t *testing.T, polish, russian int) State {
	t.Helper()
	s := newGame(t)
	s.Stage = 2
	s.Phase = PhaseEvents
	s.beginStage()
	s.player(Polish).Hand = []int{polish}
	s.player(Russian).Hand = []int{russian}
	s.Deck = nil
	for _, c := range s.cat.Data.Cards.Cards {
		if c.ID != polish && c.ID != russian {
			s.Deck = append(s.Deck, c.ID)
		}
	}
	return s
}

// 3.2: the first player (Russians in stage 2) draws a single-instruction
// card: it waits for the Polish card and then overrides it. Before the fix
// this deadlocked (neither card of the Russian hand could be played).
func TestSingleCardDrawnByFirstPlayer(t *testing.T) {
	s := atStage2Events(t, 3, 1)
	s = mustApply(t, s, DrawCard{Side: Russian, Card: 13})
	if s.Turn != Polish {
		t.Fatalf("after the Russian single draw: turn %q, want polish", s.Turn)
	}
	rejectCode(t, s, PlayCard{Side: Russian, Card: 13}, "not_your_turn")
	s = mustApply(t, s, DrawCard{Side: Polish, Card: 6})
	s = mustApply(t, s, PlayCard{Side: Polish, Card: 6})
	if s.Turn != Russian {
		t.Fatalf("after the Polish card: turn %q, want russian", s.Turn)
	}
	rejectCode(t, s, PlayCard{Side: Russian, Card: 1}, "single_card")
	s, evs := mustApplyEv(t, s, PlayCard{Side: Russian, Card: 13})
	if s.Phase != PhaseResources {
		t.Fatalf("phase %s, want resources", s.Phase)
	}
	if !hasEvent(evs, "overridden") {
		t.Errorf("no override event: %v", evs)
	}
	// Card 6 (Polish RP −2) was overridden by card 13 (rain, 7.4).
	if s.Player(Polish).CardRP != 0 || s.effect("move_limit", "") == nil {
		t.Errorf("card RP %d, rain %v: want 0 and rain in force", s.Player(Polish).CardRP, s.effect("move_limit", ""))
	}
	if got := s.Player(Russian).Hand; len(got) != 1 || got[0] != 1 {
		t.Errorf("Russian hand %v, want [1]", got)
	}
}

// 3.2: both players draw single-instruction cards: the normal order.
func TestBothSingleCards(t *testing.T) {
	s := atStage2Events(t, 3, 1)
	s = mustApply(t, s, DrawCard{Side: Russian, Card: 13})
	s = mustApply(t, s, DrawCard{Side: Polish, Card: 22})
	if s.Turn != Russian {
		t.Fatalf("turn %q, want russian (normal order)", s.Turn)
	}
	s = mustApply(t, s, PlayCard{Side: Russian, Card: 13})
	s = mustApply(t, s, PlayCard{Side: Polish, Card: 22})
	if s.Phase != PhaseResources || s.effect("move_limit", "") == nil || s.Player(Russian).StratLimit != 3 || s.Player(Polish).StratLimit != 3 {
		t.Errorf("phase %s rain %v limits %d/%d: want both cards applied", s.Phase, s.effect("move_limit", ""), s.Player(Polish).StratLimit, s.Player(Russian).StratLimit)
	}
}

// 3.2: the second player draws a single card after the first has played.
func TestSingleCardDrawnBySecondPlayer(t *testing.T) {
	s := atStage2Events(t, 3, 1)
	s = mustApply(t, s, DrawCard{Side: Russian, Card: 6})
	s = mustApply(t, s, PlayCard{Side: Russian, Card: 6})
	s = mustApply(t, s, DrawCard{Side: Polish, Card: 32})
	s = mustApply(t, s, PlayCard{Side: Polish, Card: 32})
	if s.Phase != PhaseResources || s.Player(Russian).CardRP != 0 {
		t.Errorf("phase %s Russian card RP %d: want resources, card 6 overridden", s.Phase, s.Player(Russian).CardRP)
	}
}

// 7.1: the orders roll is won by a player with no chit: the opponent gives
// the first order. Before the fix the turn stuck (no order, no pass).
func TestOrdersRollWinnerWithoutChits(t *testing.T) {
	s := newGame(t)
	s.Phase, s.Turn = PhaseChits, Polish
	s.player(Polish).TotalRP, s.player(Russian).TotalRP = 10, 10
	s = mustApply(t, s, AssignChit{Side: Polish, Hex: "1613"})
	s = mustApply(t, s, Pass{Side: Russian})
	s = mustApply(t, s, Pass{Side: Polish})
	if s.Phase != PhaseOrders || s.Pending == nil || s.Pending.Kind != "first_roll" {
		t.Fatalf("phase %s pending %+v", s.Phase, s.Pending)
	}
	s = mustApply(t, s, Roll{Dice: []int{1, 6}}) // the Russians win the roll
	if s.Turn != Polish {
		t.Fatalf("turn %q, want polish (the Russians have no chit)", s.Turn)
	}
	s = mustApply(t, s, Order{Side: Polish, Hex: "1613", Facing: "N"})
	if s.Phase != PhaseHQ {
		t.Errorf("phase %s, want hq", s.Phase)
	}
}

func mustApplyEv(t testing.TB, s State, a Action) (State, []Event) {
	t.Helper()
	n, evs, err := Apply(s, a)
	if err != nil {
		t.Fatalf("%s: %v", a.Type(), err)
	}
	return n, evs
}

func rejectCode(t testing.TB, s State, a Action, code string) {
	t.Helper()
	n, _, err := Apply(s, a)
	r, ok := asRejection(err)
	if !ok || r.Code != code || r.Reason.PL == "" || r.Reason.EN == "" {
		t.Errorf("%s: got %v, want rejection %s", a.Type(), err, code)
	}
	if string(mustJSON(t, n)) != string(mustJSON(t, s)) {
		t.Errorf("%s: the state changed on a rejection", a.Type())
	}
}

func hasEvent(evs []Event, typ string) bool {
	for _, e := range evs {
		if e.Type == typ {
			return true
		}
	}
	return false
}
