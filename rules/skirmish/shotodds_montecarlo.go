package skirmish

import (
	"math/rand/v2"

	"github.com/sztab/sztab/rules/dice"
)

// The Monte Carlo estimator plays the same Sequence many times with the same
// allocation rules as Sequence.Killed. It is a cross-check for the exact odds
// (tests) and the yardstick they are benchmarked against; a display should
// use Exact.

// MaxRuns bounds a Monte Carlo estimate.
const MaxRuns = 100_000_000

// Estimate is the Monte Carlo result of a Sequence.
type Estimate struct {
	Runs    int                `json:"runs"`
	Unsaved dice.EstimatedDist `json:"unsaved"`
	// Killed is empty without a target.
	Killed dice.EstimatedDist `json:"killed"`
}

// Trial is one played sequence.
type Trial struct {
	Hits    int `json:"hits"`
	Wounds  int `json:"wounds"` // wounds before saves
	Unsaved int `json:"unsaved"`
	Killed  int `json:"killed"`
	Wounded int `json:"wounded"` // living models that lost lives
	Dice    int `json:"dice"`    // dice rolled
}

// MonteCarlo plays s runs times with dice drawn from rng and allocates the
// unsaved wounds to t (nil: no allocation).
func (s Sequence) MonteCarlo(rng *rand.Rand, t *Target, runs int) (Estimate, error) {
	return s.monteCarlo(rngRoller{rng}, t, runs)
}

// MonteCarloSource is MonteCarlo with dice from a dice.Source.
func (s Sequence) MonteCarloSource(src dice.Source, t *Target, runs int) (Estimate, error) {
	return s.monteCarlo(srcRoller{src}, t, runs)
}

// Resolve plays s once with dice from src, stage by stage as at the table:
// all attack dice, then a wound (or damage) die for every hit, then a save
// die for every wound in packet order. A stage whose threshold is 7 cannot
// succeed and is not rolled. Unsaved packets are allocated to t (nil: no
// allocation) in the order the attacks were rolled.
func (s Sequence) Resolve(src dice.Source, t *Target) (Trial, error) {
	sim, err := newSimulator(s, t)
	if err != nil {
		return Trial{}, err
	}
	return sim.run(srcRoller{src})
}

func (s Sequence) monteCarlo(g roller, t *Target, runs int) (Estimate, error) {
	if runs < 1 {
		return Estimate{}, &ParamError{Param: ParamRuns, Value: runs, Reason: "must be at least 1"}
	}
	if runs > MaxRuns {
		return Estimate{}, &ParamError{Param: ParamRuns, Value: runs, Reason: "is more than 100000000"}
	}
	sim, err := newSimulator(s, t)
	if err != nil {
		return Estimate{}, err
	}
	unsaved := make([]int, 6*s.Attacks+1)
	var killed []int
	if t != nil {
		killed = make([]int, t.Models+1)
	}
	for range runs {
		tr, err := sim.run(g)
		if err != nil {
			return Estimate{}, err
		}
		unsaved[tr.Unsaved]++
		if killed != nil {
			killed[tr.Killed]++
		}
	}
	if !s.DamageD6 {
		unsaved = unsaved[:s.Attacks+1]
	}
	e := Estimate{Runs: runs, Unsaved: dice.EstimateDist(unsaved, runs)}
	if killed != nil {
		e.Killed = dice.EstimateDist(killed, runs)
	}
	return e, nil
}

// roller fills dst with d6 values.
type roller interface {
	roll(dst []int) error
}

type rngRoller struct{ r *rand.Rand }

func (g rngRoller) roll(dst []int) error {
	for i := range dst {
		dst[i] = 1 + g.r.IntN(6)
	}
	return nil
}

type srcRoller struct{ s dice.Source }

func (g srcRoller) roll(dst []int) error {
	if len(dst) == 0 {
		return nil
	}
	rolls, err := g.s.Roll(len(dst))
	if err != nil {
		return err
	}
	for i, r := range rolls {
		if r.Value < 1 || r.Value > 6 {
			return &dice.InvalidRollError{Roll: r}
		}
		dst[i] = r.Value
	}
	return nil
}

// simulator holds the buffers of one sequence so that runs do not allocate.
type simulator struct {
	s       Sequence
	t       *Target
	dice    []int // attack, wound or damage dice of one stage
	saves   []int
	packets []int
	lives   []int
}

func newSimulator(s Sequence, t *Target) (*simulator, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	sim := &simulator{
		s:       s,
		dice:    make([]int, s.Attacks),
		saves:   make([]int, 6*s.Attacks),
		packets: make([]int, 0, s.Attacks),
	}
	if t != nil {
		if err := t.Validate(); err != nil {
			return nil, err
		}
		tc := *t
		sim.t = &tc
		sim.lives = make([]int, t.Models)
	}
	return sim, nil
}

func (sim *simulator) run(g roller) (Trial, error) {
	s := sim.s
	var tr Trial
	if s.Attacks > 0 && s.Hit < 7 {
		d := sim.dice[:s.Attacks]
		if err := g.roll(d); err != nil {
			return Trial{}, err
		}
		tr.Dice += len(d)
		for _, v := range d {
			if v >= s.Hit {
				tr.Hits++
			}
		}
	}
	packets := sim.packets[:0]
	if tr.Hits > 0 && (s.DamageD6 || s.Wound < 7) {
		d := sim.dice[:tr.Hits]
		if err := g.roll(d); err != nil {
			return Trial{}, err
		}
		tr.Dice += len(d)
		for _, v := range d {
			switch {
			case s.DamageD6:
				packets = append(packets, v)
			case v >= s.Wound:
				packets = append(packets, 1)
			}
		}
	}
	for _, w := range packets {
		tr.Wounds += w
	}
	if tr.Wounds > 0 && s.Save < 7 {
		d := sim.saves[:tr.Wounds]
		if err := g.roll(d); err != nil {
			return Trial{}, err
		}
		tr.Dice += len(d)
		i := 0
		for k, w := range packets {
			u := 0
			for _, v := range d[i : i+w] {
				if v < s.Save {
					u++
				}
			}
			i += w
			packets[k] = u
		}
	}
	for _, u := range packets {
		tr.Unsaved += u
	}
	if sim.t != nil {
		tr.Killed, tr.Wounded = allocate(sim.lives, sim.t.Lives, sim.t.focus(), packets)
	}
	return tr, nil
}

// allocate gives each packet to one model (see Sequence.Killed) and returns
// the models killed and the living models wounded. lives is scratch space of
// one entry per model.
func allocate(lives []int, full int, focus bool, packets []int) (killed, wounded int) {
	for i := range lives {
		lives[i] = full
	}
	for _, u := range packets {
		if u == 0 {
			continue
		}
		pick := -1
		for i, l := range lives {
			if l == 0 {
				continue
			}
			if pick < 0 || (focus && l < lives[pick]) || (!focus && l > lives[pick]) {
				pick = i
			}
		}
		if pick < 0 {
			break // everyone is dead
		}
		lives[pick] = max(lives[pick]-u, 0)
		if lives[pick] == 0 {
			killed++
		}
	}
	for _, l := range lives {
		if l > 0 && l < full {
			wounded++
		}
	}
	return killed, wounded
}
