package bitwa

import (
	"testing"
)

func defaultCat(t testing.TB) *Catalogue {
	t.Helper()
	cat, err := DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// players for 2, 3 (two WP allies against one ACz) and 4.
func players(n int) []PlayerInfo {
	switch n {
	case 2:
		return []PlayerInfo{{1, "Marysia", WP}, {2, "Janek", ACz}}
	case 3:
		return []PlayerInfo{{1, "Marysia", WP}, {2, "Janek", ACz}, {3, "Zuzia", WP}}
	}
	return []PlayerInfo{{1, "Marysia", WP}, {2, "Janek", ACz}, {3, "Zuzia", WP}, {4, "Staś", ACz}}
}

func newGame(t testing.TB, n int, seed uint64, o Options) State {
	t.Helper()
	cat := defaultCat(t)
	start, err := cat.NewGame(Setup{Players: players(n), Options: o, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return must(t, State{}, start)
}

func must(t testing.TB, s State, a Action) State {
	t.Helper()
	next, _, err := Apply(s, a)
	if err != nil {
		t.Fatalf("%s %+v: %v", a.Type(), a, err)
	}
	return next
}

// rng is a tiny deterministic generator for the random-play tests.
type rng uint64

func (r *rng) next(n int) int {
	*r = *r*6364136223846793005 + 1442695040888963407
	return int(uint64(*r)>>33) % n
}
