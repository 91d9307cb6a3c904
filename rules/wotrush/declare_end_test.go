package wotrush

import (
	"bytes"
	"slices"
	"testing"
)

// A game that can never end: every card of both squads scrapped (as
// Demontaż and Badania can do), so nobody can buy or attack, no base falls
// and no medal is taken. The rulebook prints no rule for it, so the engine
// does not end it by itself; the referee declares the end and the game is
// scored as at the normal end.
func TestRefereeDeclaresTheEnd(t *testing.T) {
	s := newGame(t, 2, 1, Options{})
	// A's captured base and a medal, so the scoring shows.
	take(&s, "BASE-2-1")
	s.Players[1].Bases = s.Players[1].Bases[1:]
	s.Player(1).BasesDestroyed = 1
	for _, p := range s.Players {
		pp := s.Player(p.Seat)
		s.Scrapyard = append(s.Scrapyard, slices.Concat(pp.Hand, pp.Garage, pp.Magazine)...)
		pp.Hand, pp.Garage, pp.Magazine = nil, nil, nil
	}
	s.Player(1).Magazine = []string{"BASE-2-1"}
	s.tally()
	checkConservation(t, s)
	// Two full rounds: only EndTurn is ever legal and nothing ends.
	for i := 0; i < 4; i++ {
		acts := LegalActions(s)
		if len(acts) != 1 || acts[0].Type() != "end_turn" {
			t.Fatalf("stuck game offers %+v", acts)
		}
		s, _ = mustApply(t, s, acts[0])
	}
	if s.Phase != PhasePlay || s.EndTriggered {
		t.Fatalf("the engine ended a game the rules do not end: %s", s.Phase)
	}
	want := s.clone()
	want.score()
	got, evs := mustApply(t, s, DeclareEnd{Reason: "no one can buy or attack"})
	if got.Phase != PhaseOver || got.Result == nil {
		t.Fatalf("not over: %s", got.Phase)
	}
	if !bytes.Equal(mustJSON(t, got.Result), mustJSON(t, want.Result)) {
		t.Errorf("declared result %s, normal scoring %s", mustJSON(t, got.Result), mustJSON(t, want.Result))
	}
	if evs[0].Type != "end_declared" || evs[len(evs)-1].Type != "game_over" {
		t.Errorf("events %+v", evs)
	}
	if !slices.Equal(got.Result.Winners, []int{1}) || got.Result.Scores[0].BasePoints != 3 {
		t.Errorf("result %+v", got.Result)
	}
	wantRejection(t, got, DeclareEnd{}, "game_over")
	// Through the codec, as a journal line.
	enc, err := EncodeAction(DeclareEnd{Reason: "x"})
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeAction(enc)
	if err != nil || back != (DeclareEnd{Reason: "x"}) {
		t.Fatalf("%s: %+v %v", enc, back, err)
	}
}

// Only between turns: never with a card half played, an attack running or
// after the active player has begun step II.
func TestDeclareEndRefusedMidTurn(t *testing.T) {
	s := newGame(t, 2, 1, Options{})
	hand(&s, 1, "ENG-1-1", "SU-07", "SU-08")
	reserve(&s, "SU-21", "DE-01", "US-01", "FR-01")
	s1, _ := mustApply(t, s, PlayCard{Seat: 1, Card: "SU-07"})
	wantRejection(t, s1, DeclareEnd{}, "awaiting_decision")
	s2, _ := mustApply(t, s, Buy{Seat: 1, Cards: []string{"SU-21"}, Pay: []string{"ENG-1-1"}})
	wantRejection(t, s2, DeclareEnd{}, "mid_turn")
	// The next turn, before its player acts: accepted. A reveal is not
	// acting.
	s3, _ := mustApply(t, s2, EndTurn{Seat: 1})
	s3, _ = mustApply(t, s3, RevealHand{Seat: 2, Cards: s3.Player(2).Hand[:1]})
	if next, _ := mustApply(t, s3, DeclareEnd{}); next.Phase != PhaseOver {
		t.Error("not over")
	}
	// Not a player's action: LegalActions never lists it.
	for _, a := range LegalActions(s3) {
		if a.Type() == "declare_end" {
			t.Error("listed as a player's action")
		}
	}
	wantRejection(t, State{}, DeclareEnd{}, "not_started")
}
