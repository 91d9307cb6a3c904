package dice

import (
	"math"
	"sort"
	"sync"
)

// The fairness watch keeps, for every physical die source, a running
// chi-square goodness-of-fit test of its six faces against a fair d6.

// DefaultSignificance is the p-value below which a source is flagged.
const DefaultSignificance = 0.01

// DefaultMinRolls is the sample a source needs before it can be flagged.
// The chi-square distribution is only a good approximation of the statistic
// when every face expects at least about five rolls (Cochran's rule); 60
// rolls expect 10 per face, which keeps the p-value honest, and a die that is
// loaded enough to matter at a game table (a 6 one time in three) is caught
// within a few hundred rolls anyway.
const DefaultMinRolls = 60

// WatchConfig configures a Watch; zero fields take the defaults.
type WatchConfig struct {
	Significance float64 `json:"significance"`
	MinRolls     int     `json:"min_rolls"`
}

// FairnessReport is the state of one source.
type FairnessReport struct {
	Key string `json:"key"`
	// Rolls counts valid readings; Faces[i] is how many showed i+1.
	Rolls int    `json:"rolls"`
	Faces [6]int `json:"faces"`
	// Rejected counts readings outside 1–6; they are never faces.
	Rejected  int     `json:"rejected"`
	ChiSquare float64 `json:"chi_square"`
	// PValue is P(χ²₅ ≥ ChiSquare); 1 with no rolls.
	PValue float64 `json:"p_value"`
	// Loaded is PValue < Significance with Rolls ≥ MinRolls. It describes the
	// current sample, is re-evaluated on every reading and is not latched.
	// Looking after every roll is many looks, so over a long session a fair
	// die crosses the line more often than Significance suggests: treat the
	// flag as "have the referee check this die", not as proof.
	Loaded       bool    `json:"loaded"`
	Significance float64 `json:"significance"`
	MinRolls     int     `json:"min_rolls"`
}

// Watch tallies readings per source. It is safe for concurrent use.
type Watch struct {
	cfg     WatchConfig
	mu      sync.Mutex
	sources map[string]*tally
}

type tally struct {
	faces    [6]int
	rejected int
}

// NewWatch returns an empty watch.
func NewWatch(cfg WatchConfig) *Watch {
	if cfg.Significance <= 0 || cfg.Significance >= 1 {
		cfg.Significance = DefaultSignificance
	}
	if cfg.MinRolls <= 0 {
		cfg.MinRolls = DefaultMinRolls
	}
	return &Watch{cfg: cfg, sources: make(map[string]*tally)}
}

// Config is the configuration in effect.
func (w *Watch) Config() WatchConfig { return w.cfg }

// SourceKey names a physical die source: the table, then the device when
// there is one, else the origin ("stol-3/camera-1", "stol-3/keypad").
func SourceKey(table string, r Roll) string {
	if r.Device != "" {
		return table + "/" + r.Device
	}
	return table + "/" + string(r.Origin)
}

// Observe records one reading of the source key. A value outside 1–6 is
// counted as rejected.
func (w *Watch) Observe(key string, r Roll) {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := w.sources[key]
	if t == nil {
		t = &tally{}
		w.sources[key] = t
	}
	if r.Value < 1 || r.Value > 6 {
		t.rejected++
		return
	}
	t.faces[r.Value-1]++
}

// Reset forgets a source (a die replaced by the referee).
func (w *Watch) Reset(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.sources, key)
}

// Report is the state of one source; false if it has no readings.
func (w *Watch) Report(key string) (FairnessReport, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	t, ok := w.sources[key]
	if !ok {
		return FairnessReport{}, false
	}
	return w.report(key, t), true
}

// Reports is every source, sorted by key.
func (w *Watch) Reports() []FairnessReport {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]FairnessReport, 0, len(w.sources))
	for k, t := range w.sources {
		out = append(out, w.report(k, t))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

func (w *Watch) report(key string, t *tally) FairnessReport {
	r := FairnessReport{
		Key: key, Faces: t.faces, Rejected: t.rejected,
		PValue: 1, Significance: w.cfg.Significance, MinRolls: w.cfg.MinRolls,
	}
	for _, c := range t.faces {
		r.Rolls += c
	}
	if r.Rolls == 0 {
		return r
	}
	r.ChiSquare = ChiSquareFaces(t.faces)
	r.PValue = ChiSquarePValue(r.ChiSquare, 5)
	r.Loaded = r.Rolls >= w.cfg.MinRolls && r.PValue < w.cfg.Significance
	return r
}

// ChiSquareFaces is Pearson's statistic Σ (observed − expected)² / expected
// of face counts against a fair die (expected = rolls/6 per face).
func ChiSquareFaces(faces [6]int) float64 {
	n := 0
	for _, c := range faces {
		n += c
	}
	if n == 0 {
		return 0
	}
	// Σ (o − n/6)² / (n/6) = (6 Σ o² − n²) / n, exact in integers.
	var sq int64
	for _, c := range faces {
		sq += int64(c) * int64(c)
	}
	return float64(6*sq-int64(n)*int64(n)) / float64(n)
}

// ChiSquarePValue is P(χ²_df ≥ x), the regularized upper incomplete gamma
// function Q(df/2, x/2).
func ChiSquarePValue(x float64, df int) float64 {
	if df < 1 || math.IsNaN(x) {
		return math.NaN()
	}
	if x <= 0 {
		return 1
	}
	return gammaQ(float64(df)/2, x/2)
}

// gammaQ is the regularized upper incomplete gamma function Q(a, x) for
// a > 0, x > 0: the power series of P(a, x) below x = a+1, Lentz's continued
// fraction for Q above it (Numerical Recipes §6.2).
func gammaQ(a, x float64) float64 {
	const (
		eps  = 1e-16
		tiny = 1e-300
	)
	lg, _ := math.Lgamma(a)
	front := math.Exp(-x + a*math.Log(x) - lg)
	if x < a+1 {
		ap, del := a, 1/a
		sum := del
		for range 1000 {
			ap++
			del *= x / ap
			sum += del
			if math.Abs(del) < math.Abs(sum)*eps {
				break
			}
		}
		return 1 - sum*front // P(a, x) = e^−x x^a / Γ(a) · Σ xⁿ / (a(a+1)…(a+n))
	}
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return front * h
}
