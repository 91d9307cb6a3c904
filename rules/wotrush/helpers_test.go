package wotrush

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"testing"

	"github.com/sztab/sztab/rules"
)

func defaultCat(t testing.TB) *Catalogue {
	t.Helper()
	cat, err := DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func newGame(t testing.TB, n int, seed uint64, o Options) State {
	t.Helper()
	cat := defaultCat(t)
	var ps []PlayerInfo
	names := []string{"Ala", "Bartek", "Celina", "Darek", "Ewa"}
	for i := 0; i < n; i++ {
		ps = append(ps, PlayerInfo{Seat: i + 1, Name: names[i]})
	}
	st, err := cat.NewGame(Setup{Players: ps, First: 1, Seed: seed, Options: o})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := Apply(State{}, st)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustApply(t testing.TB, s State, a Action) (State, []Event) {
	t.Helper()
	next, evs, err := Apply(s, a)
	if err != nil {
		t.Fatalf("%s %+v: %v", a.Type(), a, err)
	}
	return next, evs
}

func wantRejection(t testing.TB, s State, a Action, code string) *rules.Rejection {
	t.Helper()
	before := mustJSON(t, s)
	next, evs, err := Apply(s, a)
	rej, ok := rules.AsRejection(err)
	if !ok {
		t.Fatalf("%s %+v: got %v, want a rejection %s", a.Type(), a, err, code)
	}
	if rej.Code != code {
		t.Fatalf("%s %+v: got code %s (%s), want %s", a.Type(), a, rej.Code, rej.Reason.EN, code)
	}
	if rej.Reason.PL == "" || rej.Reason.EN == "" {
		t.Fatalf("rejection %s lacks a reason in both languages: %+v", code, rej.Reason)
	}
	if evs != nil || string(mustJSON(t, next)) != string(before) || string(mustJSON(t, s)) != string(before) {
		t.Fatalf("%s: a refused action changed the state", code)
	}
	return rej
}

// places lists every card in the game where it lies; conservation holds
// when each card of s.Cards appears exactly once.
func places(s State) map[string][]string {
	at := map[string][]string{}
	add := func(where string, ids ...string) {
		for _, id := range ids {
			at[id] = append(at[id], where)
		}
	}
	add("deck", s.Deck...)
	add("discard", s.Discard...)
	add("reserve", s.Reserve...)
	add("scrapyard", s.Scrapyard...)
	add("achievements", s.Achievements...)
	add("box", s.Box...)
	for _, m := range s.Medals {
		add("medals", m.Singles...)
		add("medals", m.Doubles...)
	}
	for _, p := range s.Players {
		add("hand", p.Hand...)
		add("garage", p.Garage...)
		add("magazine", p.Magazine...)
		add("won", p.Won...)
		for _, b := range p.Bases {
			add("base", b.Card)
			if b.Defender != "" {
				add("defender", b.Defender)
			}
		}
	}
	if s.Playing != nil && !s.Playing.Scrapped {
		add("playing", s.Playing.Card)
	}
	if s.Attack != nil {
		add("attack", s.Attack.Attackers...)
	}
	return at
}

func checkConservation(t testing.TB, s State) {
	t.Helper()
	at := places(s)
	var bad []string
	for id := range s.Cards {
		if len(at[id]) != 1 {
			bad = append(bad, id+":"+slices.Concat(at[id], []string{"?"})[0])
		}
	}
	for id := range at {
		if _, ok := s.Cards[id]; !ok {
			bad = append(bad, id+": not a card")
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Fatalf("card conservation broken: %v", bad)
	}
}

func jsonNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSpace(b.Bytes()), err
}

// take removes card id from wherever it lies (tests arrange tables with it,
// keeping every card in exactly one place).
func take(s *State, id string) {
	rm := func(l *[]string) { *l = removeOne(*l, id) }
	rm(&s.Deck)
	rm(&s.Discard)
	rm(&s.Reserve)
	rm(&s.Scrapyard)
	for i := range s.Medals {
		rm(&s.Medals[i].Singles)
		rm(&s.Medals[i].Doubles)
	}
	for i := range s.Players {
		p := &s.Players[i]
		rm(&p.Hand)
		rm(&p.Garage)
		rm(&p.Magazine)
		for j := range p.Bases {
			if p.Bases[j].Defender == id {
				p.Bases[j].Defender = ""
			}
		}
	}
}

// hand sets seat's hand to ids (the old hand goes to the Garage's bottom).
func hand(s *State, seat int, ids ...string) {
	p := s.Player(seat)
	p.Garage = append(p.Garage, p.Hand...)
	p.Hand = nil
	for _, id := range ids {
		take(s, id)
		p.Hand = append(p.Hand, id)
	}
	s.tally()
}

// reserve sets the Reserve row (index 0 next to the deck).
func reserve(s *State, ids ...string) {
	s.Deck = append(s.Deck, s.Reserve...)
	s.Reserve = nil
	for _, id := range ids {
		take(s, id)
		s.Reserve = append(s.Reserve, id)
	}
}

// defend puts vehicle id on seat's base number i (0-based).
func defendWith(s *State, seat, i int, id string) {
	take(s, id)
	s.Player(seat).Bases[i].Defender = id
}

func magazine(s State, seat int) []string { return s.Player(seat).Magazine }
