package west1920

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/rules"
)

func defaultCat(t testing.TB) *Catalogue {
	t.Helper()
	c, err := DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newGame(t testing.TB) State {
	t.Helper()
	s, _, err := Apply(State{}, StartGame{Data: defaultCat(t).Data})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A river on a hex side that does not exist is refused with file and line.
func TestRiverOnMissingSide(t *testing.T) {
	f := DefaultFiles()
	bad := strings.Replace(string(f[MapFile]), `"1009/1109"`, `"1009/1209"`, 1)
	_, err := ParseCatalogue(MapFile, []byte(bad), OOBFile, f[OOBFile], CardsFile, f[CardsFile])
	if err == nil || !strings.Contains(err.Error(), "map.yaml:") || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("got %v, want a map.yaml:LINE error saying the side does not exist", err)
	}
	line := strings.Count(bad[:strings.Index(bad, `"1009/1209"`)], "\n") + 1
	if !strings.Contains(err.Error(), "map.yaml:"+itoa(line)+":") {
		t.Errorf("got %v, want line %d", err, line)
	}
	// Typed, with the reason in Polish and English.
	var de *DataError
	if !errors.As(err, &de) || de.File != MapFile || de.Line != line || !strings.Contains(de.Reason.PL, "nie istnieje") || !strings.Contains(de.Reason.EN, "does not exist") {
		t.Fatalf("got %#v, want a *DataError for %s:%d in Polish and English", err, MapFile, line)
	}
	// Data carried by StartGame: refused (bad_setup) with the Polish reason too.
	d := defaultCat(t).Data
	d.Map.Rivers = slices.Clone(d.Map.Rivers)
	d.Map.Rivers[0].Sides = append([]string{"1009/1209"}, d.Map.Rivers[0].Sides...)
	_, _, err = Apply(State{}, StartGame{Data: d})
	r, ok := asRejection(err)
	if !ok || r.Code != "bad_setup" || !strings.Contains(r.Reason.PL, "nie istnieje") || !strings.Contains(r.Reason.EN, "does not exist") {
		t.Errorf("StartGame with the bad river: %v (%+v)", err, r)
	}
}

// Rule 4.0's example: 12 + (6 − 3) = 15; 12 + (2 − 4) = 10.
func TestResourcePointsExample(t *testing.T) {
	for _, tc := range []struct{ w, r, want int }{{6, 3, 15}, {2, 4, 10}} {
		s := newGame(t)
		s = mustApply(t, s, DrawCard{Side: Russian, Card: 1})
		s = mustApply(t, s, DrawCard{Side: Polish, Card: 3})
		if s.Phase != PhaseResources || s.Pending.Side != Russian {
			t.Fatalf("phase %s pending %+v", s.Phase, s.Pending)
		}
		s = mustApply(t, s, Roll{Dice: []int{tc.w, tc.r}})
		if got := s.Player(Russian).TotalRP; got != tc.want {
			t.Errorf("12 + %d − %d: got %d, want %d", tc.w, tc.r, got, tc.want)
		}
	}
}

func mustApply(t testing.TB, s State, a Action) State {
	t.Helper()
	n, _, err := Apply(s, a)
	if err != nil {
		t.Fatalf("%s: %v", a.Type(), err)
	}
	return n
}

// Every unit of the assumed set-up is supplied at the start.
func TestSetupSupplied(t *testing.T) {
	s := newGame(t)
	for _, u := range s.Units {
		if u.Status == OnMap && !s.Supplied(u.ID) {
			t.Errorf("%s on %s is unsupplied at the start", u.ID, u.Hex)
		}
	}
}

// Bad input: typed rejections with PL and EN, state unchanged.
func TestBadInput(t *testing.T) {
	s := newGame(t)
	for _, a := range []Action{DrawCard{Side: Polish, Card: 1}, DrawCard{Side: Russian, Card: 2}, Roll{Dice: []int{1, 1}}, PlayCard{Side: Russian, Card: 1}} {
		n, _, err := Apply(s, a)
		rej, ok := rules.AsRejection(err)
		if !ok || rej.Reason.PL == "" || rej.Reason.EN == "" {
			t.Errorf("%s: got %v, want a rejection", a.Type(), err)
		}
		if string(mustJSON(t, n)) != string(mustJSON(t, s)) {
			t.Errorf("%s: state changed", a.Type())
		}
	}
}

func BenchmarkSupply(b *testing.B) {
	s := newGame(b)
	b.ReportAllocs()
	for b.Loop() {
		s.computeSupply()
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := jsonMarshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
