package bitwa

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestRandomPlayProperties plays random legal games for 2, 3 and 4 players
// and checks after every action: 21 units per army across the lines, the
// Reserve and the removed; Apply left its input unchanged; every listed
// legal action is accepted; and at the end that replaying the journal
// (through the codec) gives the same state, byte for byte.
func TestRandomPlayProperties(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 3
	}
	for g := 0; g < games; g++ {
		n := 2 + g%3
		o := Options{}
		if g >= 3 {
			o = Options{StartUnits: "reserve", BonusHigh: "none", FundsTie: "nothing", SweepVP: 3, AdjacentMoves: true, StrengthWhen: "play", Removed: "out", AllyHands: "hidden", DeckOutAll: true}
		}
		s := newGame(t, n, uint64(40+g), o)
		journal := [][]byte{}
		start, _ := defaultCat(t).NewGame(Setup{Players: players(n), Options: o, Seed: uint64(40 + g)})
		b, _ := EncodeAction(start)
		journal = append(journal, b)
		r := rng(g + 11)
		for i := 0; i < 5000 && s.Phase != PhaseOver; i++ {
			acts := LegalActions(s)
			if len(acts) == 0 {
				t.Fatalf("game %d step %d: no legal action (pending %+v)", g, i, s.Pending)
			}
			a := acts[r.next(len(acts))]
			before, _ := json.Marshal(s)
			next, _, err := Apply(s, a)
			if err != nil {
				t.Fatalf("game %d: a listed action was refused: %+v: %v", g, a, err)
			}
			if after, _ := json.Marshal(s); !bytes.Equal(before, after) {
				t.Fatalf("game %d: Apply changed its input", g)
			}
			for _, ar := range Armies {
				x := next.Army(ar)
				if total := next.OnBoard(ar) + x.Reserve + x.Removed; total != 21 {
					t.Fatalf("game %d step %d: %s has %d units, want 21", g, i, ar, total)
				}
			}
			b, _ := EncodeAction(a)
			journal = append(journal, b)
			s = next
		}
		if s.Phase != PhaseOver {
			t.Fatalf("game %d did not end", g)
		}
		var r2 State
		for _, line := range journal {
			a, err := DecodeAction(line)
			if err != nil {
				t.Fatal(err)
			}
			if r2, _, err = Apply(r2, a); err != nil {
				t.Fatalf("replay: %v", err)
			}
		}
		x, _ := json.Marshal(s)
		y, _ := json.Marshal(r2)
		if !bytes.Equal(x, y) {
			t.Fatalf("game %d: the replay differs", g)
		}
	}
}

// TestViewsHideHandsAndDecks: other players' hands and the decks are
// hidden from players and the table; allies see each other by default.
func TestViewsHideHandsAndDecks(t *testing.T) {
	s := newGame(t, 4, 3, Options{})
	s.Player(1).Hand = []string{"galica"}
	s.Player(3).Hand = []string{"haller"}
	s.Player(2).Hand = []string{"jakir"}
	v := s.View(Viewer{Seat: 1})
	if len(v.Player(1).Hand) != 1 || len(v.Player(3).Hand) != 1 || len(v.Player(2).Hand) != 0 {
		t.Errorf("seat 1 view hands %v %v %v", v.Player(1).Hand, v.Player(3).Hand, v.Player(2).Hand)
	}
	if len(v.Army(WP).Deck) != 0 || v.Army(WP).DeckLen == 0 {
		t.Errorf("deck shown or its size lost")
	}
	h := s
	h.Options.AllyHands = "hidden"
	if v := h.View(Viewer{Seat: 1}); len(v.Player(3).Hand) != 0 {
		t.Error("ally hand shown with ally_hands hidden")
	}
	if v := s.View(Viewer{}); len(v.Player(1).Hand) != 0 {
		t.Error("the public view shows a hand")
	}
	if v := s.View(Viewer{Referee: true}); len(v.Army(ACz).Deck) == 0 || v.Seed != 3 {
		t.Error("the referee does not see the deck or the seed")
	}
	// The seed rebuilds every deck and hand; a pick is its player's.
	s.Selected = &Selection{Seat: 1, Card: "galica"}
	for _, v := range []Viewer{{}, {Seat: 1}, {Seat: 2}, {Seat: 3}} {
		got := s.View(v)
		if got.Seed != 0 {
			t.Errorf("viewer %+v sees the seed %d", v, got.Seed)
		}
		if sees := got.Selected != nil; sees != (v.Seat == 1 || v.Seat == 3) {
			t.Errorf("viewer %+v sees the pick: %v", v, sees)
		}
	}
	h.Selected = s.Selected
	if v := h.View(Viewer{Seat: 3}); v.Selected != nil {
		t.Error("an ally sees the pick with ally_hands hidden")
	}
}
