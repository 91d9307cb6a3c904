package dice

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func TestChiSquarePValue(t *testing.T) {
	// Critical values of χ² with 5 degrees of freedom from the standard
	// tables, given to 3–4 decimals, so the tolerance is that of the table.
	tests := []struct {
		x, want float64
	}{
		{11.0705, 0.05},
		{15.0863, 0.01},
		{9.2364, 0.10},
		{20.515, 0.001},
		{1.1455, 0.95},
		{0.5543, 0.99},
		{4.3515, 0.50},
	}
	for _, tt := range tests {
		if got := ChiSquarePValue(tt.x, 5); math.Abs(got-tt.want) > 2e-5 {
			t.Errorf("χ²₅ = %v: got p %v, want %v", tt.x, got, tt.want)
		}
	}
	if got := ChiSquarePValue(0, 5); got != 1 {
		t.Errorf("χ² = 0: got p %v, want 1", got)
	}
	// Closed forms: Q(1, x/2) = e^{−x/2} (2 dof); Q(1/2, x/2) = erfc(√(x/2))
	// (1 dof); Q(5/2, x/2) = erfc(√(x/2)) + √(2x/π) e^{−x/2} (1 + x/3) (5 dof).
	for _, x := range []float64{0.01, 0.3, 1, 2.5, 3.4, 4.9, 7, 11.07, 15, 30, 60, 120} {
		forms := []struct {
			df   int
			want float64
		}{
			{1, math.Erfc(math.Sqrt(x / 2))},
			{2, math.Exp(-x / 2)},
			{5, math.Erfc(math.Sqrt(x/2)) + math.Sqrt(2*x/math.Pi)*math.Exp(-x/2)*(1+x/3)},
		}
		for _, f := range forms {
			got := ChiSquarePValue(x, f.df)
			if math.Abs(got-f.want) > 1e-13+1e-11*f.want {
				t.Errorf("χ²_%d = %v: got p %v, want %v", f.df, x, got, f.want)
			}
		}
	}
}

func TestChiSquareFaces(t *testing.T) {
	tests := []struct {
		faces [6]int
		want  float64
	}{
		{[6]int{10, 10, 10, 10, 10, 10}, 0},
		{[6]int{0, 0, 0, 0, 0, 6}, 30},              // (25 + 5·1)/1
		{[6]int{40, 40, 40, 40, 40, 100}, 60},       // the loaded die's expectation at 300 rolls
		{[6]int{8, 12, 9, 11, 10, 10}, 10.0 / 10.0}, // (4+4+1+1)/10
		{[6]int{0, 0, 0, 0, 0, 0}, 0},
	}
	for _, tt := range tests {
		if got := ChiSquareFaces(tt.faces); !near(got, tt.want, 1e-12) {
			t.Errorf("%v: got %v, want %v", tt.faces, got, tt.want)
		}
	}
}

// loadedRolls is a die that shows 6 one time in three and 1–5 equally
// otherwise.
func loadedRolls(rng *rand.Rand, n int) []Roll {
	out := make([]Roll, n)
	for i := range out {
		v := 6
		if rng.IntN(3) != 0 {
			v = 1 + rng.IntN(5)
		}
		out[i] = Roll{Value: v, Origin: Camera, Device: "cam-1"}
	}
	return out
}

// TestWatchFlagsLoadedDie: at 300 rolls and significance 0.01 the loaded
// die (expected χ² ≈ 60 against a critical 15.09) is flagged and the fair
// virtual die is not.
func TestWatchFlagsLoadedDie(t *testing.T) {
	w := NewWatch(WatchConfig{Significance: 0.01})
	fair, err := NewSeeded(1944).Roll(300)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fair {
		w.Observe("stol-1/virtual", r)
	}
	for _, r := range loadedRolls(rand.New(rand.NewPCG(8, 1920)), 300) {
		w.Observe(SourceKey("stol-1", r), r)
	}
	f, ok := w.Report("stol-1/virtual")
	if !ok || f.Rolls != 300 || f.Loaded {
		t.Errorf("fair die: got %+v, want 300 rolls, not loaded", f)
	}
	l, ok := w.Report("stol-1/cam-1")
	if !ok || l.Rolls != 300 || !l.Loaded || l.PValue > 1e-6 {
		t.Errorf("loaded die: got %+v, want 300 rolls, loaded, p < 1e-6", l)
	}
	if got := w.Reports(); len(got) != 2 || got[0].Key != "stol-1/cam-1" || got[1].Key != "stol-1/virtual" {
		t.Errorf("Reports: got %+v, want both sources sorted by key", got)
	}
	if _, ok := w.Report("stol-9/keypad"); ok {
		t.Errorf("unknown source: got a report, want none")
	}
}

// TestWatchMinRolls: 30 sixes in a row are damning, but below the minimum
// sample the flag stays down; ten more rolls later it goes up.
func TestWatchMinRolls(t *testing.T) {
	w := NewWatch(WatchConfig{})
	if c := w.Config(); c.Significance != DefaultSignificance || c.MinRolls != DefaultMinRolls {
		t.Fatalf("defaults: got %+v, want %v and %v", c, DefaultSignificance, DefaultMinRolls)
	}
	six := Roll{Value: 6, Origin: Keypad}
	for range 59 {
		w.Observe("k", six)
	}
	if r, _ := w.Report("k"); r.Loaded || r.PValue >= 1e-10 {
		t.Errorf("59 sixes: got loaded=%v p=%v, want not loaded, tiny p", r.Loaded, r.PValue)
	}
	w.Observe("k", six)
	if r, _ := w.Report("k"); !r.Loaded {
		t.Errorf("60 sixes: got %+v, want loaded", r)
	}
	w.Reset("k")
	if _, ok := w.Report("k"); ok {
		t.Errorf("after Reset: got a report, want none")
	}
}

func TestWatchRejectsInvalidReadings(t *testing.T) {
	w := NewWatch(WatchConfig{})
	for _, v := range []int{0, 7, -1, 3, 6, 42} {
		w.Observe("stol-2/cam", Roll{Value: v, Origin: Camera})
	}
	r, _ := w.Report("stol-2/cam")
	if r.Rejected != 4 || r.Rolls != 2 || r.Faces != [6]int{0, 0, 1, 0, 0, 1} {
		t.Errorf("got %+v, want 4 rejected, faces 3 and 6 once", r)
	}
	// Only rejected readings: no faces, p = 1, and the report marshals.
	w.Observe("only-bad", Roll{Value: 9})
	r, _ = w.Report("only-bad")
	if r.Rolls != 0 || r.PValue != 1 || r.Loaded {
		t.Errorf("only rejected: got %+v, want 0 rolls, p 1", r)
	}
	if _, err := json.Marshal(w.Reports()); err != nil {
		t.Errorf("marshal: %v", err)
	}
}

func TestSourceKey(t *testing.T) {
	tests := []struct {
		table string
		r     Roll
		want  string
	}{
		{"stol-3", Roll{Value: 1, Origin: Camera, Device: "cam-top"}, "stol-3/cam-top"},
		{"stol-3", Roll{Value: 1, Origin: Keypad}, "stol-3/keypad"},
	}
	for _, tt := range tests {
		if got := SourceKey(tt.table, tt.r); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestWatchFalsePositiveRate: 2,000 fair dice of 300 rolls each at
// significance 0.01 should flag about 20 (binomial sd ≈ 4.5). The bounds are
// loose (0.25%–2.5%) because χ² is an approximation of the multinomial; the
// seeds are fixed, so the count is the same on every run.
func TestWatchFalsePositiveRate(t *testing.T) {
	const dice, rolls = 2000, 300
	w := NewWatch(WatchConfig{Significance: 0.01})
	for seed := range uint64(dice) {
		src := NewSeeded(seed)
		rs, err := src.Roll(rolls)
		if err != nil {
			t.Fatal(err)
		}
		key := "die-" + strconv.FormatUint(seed, 10)
		for _, r := range rs {
			w.Observe(key, r)
		}
	}
	flagged := 0
	for _, r := range w.Reports() {
		if r.Rolls != rolls {
			t.Fatalf("%s: got %d rolls, want %d", r.Key, r.Rolls, rolls)
		}
		if r.Loaded {
			flagged++
		}
	}
	rate := float64(flagged) / dice
	t.Logf("fair dice flagged: %d of %d (%.4f)", flagged, dice, rate)
	if rate < 0.0025 || rate > 0.025 {
		t.Errorf("false positive rate: got %v, want near 0.01 (0.0025–0.025)", rate)
	}
}
