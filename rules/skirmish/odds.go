package skirmish

import (
	"math"
	"slices"

	"github.com/sztab/sztab/rules/dice"
)

// ShotOdds is the exact distribution of a shot's outcome, given the dice
// rolled so far, for displays to show before the roll the shot waits for.
// Wounds[k] is the probability of k unsaved wounds in all (wounds a model
// cannot take are counted too), Killed[k] of k models killed. Probabilities
// are rounded to 1e-9 so that every platform writes the same state.
type ShotOdds struct {
	Before     string    `json:"before"`
	Wounds     []float64 `json:"wounds"`
	Killed     []float64 `json:"killed"`
	MeanWounds float64   `json:"mean_wounds"`
	MeanKilled float64   `json:"mean_killed"`
}

// chance is P(d6 ≥ t): a 1 always fails and 7 cannot succeed.
func chance(t int) float64 {
	switch {
	case t <= 2:
		return 5.0 / 6
	case t >= 7:
		return 0
	}
	return float64(7-t) / 6
}

func (s *State) shotOdds() *ShotOdds {
	sh := s.Shot
	target := s.unit(sh.Target)
	stage := sh.Stage
	fail := 1 - chance(sh.SaveOn)
	var wounds, killed dice.Dist
	if sh.Template == "" {
		if stage == StageRuling {
			stage = StageHit
		}
		wounds, killed = s.unitOdds(stage, target, fail)
	} else {
		wounds, killed = s.templateOdds(target, fail)
		if stage == StageRuling {
			stage = StageTarget
			if sh.TargetOn == 0 {
				stage = StageWound
				if sh.D6Wounds {
					stage = StageDamage
				}
			}
		}
	}
	return &ShotOdds{Before: stage, Wounds: round9s(wounds), Killed: round9s(killed),
		MeanWounds: round9(wounds.Mean()), MeanKilled: round9(killed.Mean())}
}

// unitOdds: an ordinary shot, whose wounds the allocation spreads over the
// unit. Before the hit roll of a unit at full strength it is
// rules/dice's Sequence.Exact; later stages, and units with wounded models,
// run the same allocation over what is already known.
func (s *State) unitOdds(stage string, target *Unit, fail float64) (wounds, killed dice.Dist) {
	sh := s.Shot
	lives := remainingLives(target)
	var packets []dice.Dist
	switch stage {
	case StageHit:
		seq := dice.Sequence{Attacks: sh.Attacks, Hit: sh.HitOn, DamageD6: sh.D6Wounds, Save: min(sh.SaveOn, 7)}
		if !sh.D6Wounds {
			seq.Wound = sh.WoundOn
		}
		if full, ok := uniformLives(target); ok {
			o, err := seq.Exact(&dice.Target{Models: len(lives), Lives: full, Policy: dice.Policy(s.Options.Allocation)})
			if err == nil {
				return o.Unsaved, o.Killed
			}
		}
		p, err := seq.Packet()
		if err != nil {
			return dice.Dist{1}, dice.Dist{1}
		}
		packets = repeat(p, sh.Attacks)
	case StageWound:
		q := chance(sh.WoundOn) * fail
		packets = repeat(dice.Dist{1 - q, q}, sh.Hits)
	case StageDamage:
		packets = repeat(d6Packet(fail), sh.Hits)
	case StageSave:
		for _, p := range sh.Packets {
			packets = append(packets, binom(p, fail))
		}
	}
	return convolveAll(packets), allocKilled(lives, packets, s.Options.Allocation == Focus)
}

// templateOdds: every hit lands on the model the marker covers, so models
// die independently of each other. Before the target dice, every set of
// markers that may land is weighed by its chance.
func (s *State) templateOdds(target *Unit, fail float64) (wounds, killed dice.Dist) {
	sh := s.Shot
	perHit := d6Packet(fail)
	if !sh.D6Wounds {
		q := chance(sh.WoundOn) * fail
		perHit = dice.Dist{1 - q, q}
	}
	given := func(perModel map[string][]dice.Dist) (dice.Dist, dice.Dist) {
		w, k := dice.Dist{1}, dice.Dist{1}
		for _, m := range target.Models {
			ps := perModel[m.ID]
			if m.Removed || len(ps) == 0 {
				continue
			}
			d := convolveAll(ps)
			w = convolve(w, d)
			die := d.AtLeast(m.Remaining())
			k = convolve(k, dice.Dist{1 - die, die})
		}
		return w, k
	}
	switch {
	case sh.Stage == StageSave:
		perModel := map[string][]dice.Dist{}
		for i, p := range sh.Packets {
			perModel[sh.PacketModels[i]] = append(perModel[sh.PacketModels[i]], binom(p, fail))
		}
		return given(perModel)
	case sh.Stage == StageWound || sh.Stage == StageDamage:
		perModel := map[string][]dice.Dist{}
		for _, id := range sh.HitModels {
			perModel[id] = append(perModel[id], perHit)
		}
		return given(perModel)
	}
	q := 1.0
	if sh.TargetOn > 0 {
		q = chance(sh.TargetOn)
	}
	n := len(sh.Markers)
	wounds, killed = dice.Dist{0}, dice.Dist{0}
	for mask := 0; mask < 1<<n; mask++ {
		p := 1.0
		perModel := map[string][]dice.Dist{}
		for i, mk := range sh.Markers {
			if mask&(1<<i) == 0 {
				p *= 1 - q
				continue
			}
			p *= q
			for _, id := range mk.Models {
				perModel[id] = append(perModel[id], perHit)
			}
		}
		if p == 0 {
			continue
		}
		w, k := given(perModel)
		wounds, killed = addScaled(wounds, w, p), addScaled(killed, k, p)
	}
	return wounds, killed
}

func remainingLives(u *Unit) []int {
	var lives []int
	for _, m := range u.Models {
		if !m.Removed {
			lives = append(lives, m.Remaining())
		}
	}
	return lives
}

// uniformLives reports whether every living model is unwounded with the same
// lives, the case rules/dice's Target describes.
func uniformLives(u *Unit) (int, bool) {
	full := 0
	for _, m := range u.Models {
		if m.Removed {
			continue
		}
		if m.Wounds != 0 || (full != 0 && m.Lives != full) {
			return 0, false
		}
		full = m.Lives
	}
	return full, full > 0
}

func repeat(p dice.Dist, n int) []dice.Dist {
	out := make([]dice.Dist, n)
	for i := range out {
		out[i] = p
	}
	return out
}

// binom is Binomial(n, p).
func binom(n int, p float64) dice.Dist {
	d := dice.Dist{1}
	for range n {
		d = convolve(d, dice.Dist{1 - p, p})
	}
	return d
}

// d6Packet is the unsaved wounds of one hit that deals d6 wounds, each
// saved on its own.
func d6Packet(fail float64) dice.Dist {
	r := make(dice.Dist, 7)
	for d := 1; d <= 6; d++ {
		for k, p := range binom(d, fail) {
			r[k] += p / 6
		}
	}
	return r
}

func convolve(a, b dice.Dist) dice.Dist {
	if len(a) == 0 || len(b) == 0 {
		return dice.Dist{1}
	}
	out := make(dice.Dist, len(a)+len(b)-1)
	for i, x := range a {
		if x == 0 {
			continue
		}
		for j, y := range b {
			out[i+j] += x * y
		}
	}
	return out
}

func convolveAll(ds []dice.Dist) dice.Dist {
	out := dice.Dist{1}
	for _, d := range ds {
		out = convolve(out, d)
	}
	return out
}

func addScaled(acc, d dice.Dist, p float64) dice.Dist {
	for len(acc) < len(d) {
		acc = append(acc, 0)
	}
	for i, x := range d {
		acc[i] += p * x
	}
	return acc
}

// allocKilled is the distribution of models killed when packets of unsaved
// wounds (packets[i][j]: P(j wounds)) land one after the other, each on one
// model picked as finishShot picks it, from models with lives remaining.
// States are kept in first-seen order so the sums run in the same order on
// every run.
func allocKilled(lives []int, packets []dice.Dist, focus bool) dice.Dist {
	type state struct {
		lives []int // remaining lives of the living models, ascending
		p     float64
	}
	start := slices.Clone(lives)
	slices.Sort(start)
	cur := []state{{start, 1}}
	for _, pk := range packets {
		var next []state
		index := map[string]int{}
		for _, st := range cur {
			for j, pj := range pk {
				if pj == 0 {
					continue
				}
				nl := hitOne(st.lives, j, focus)
				key := livesKey(nl)
				if i, ok := index[key]; ok {
					next[i].p += st.p * pj
				} else {
					index[key] = len(next)
					next = append(next, state{nl, st.p * pj})
				}
			}
		}
		cur = next
	}
	killed := make(dice.Dist, len(lives)+1)
	for _, st := range cur {
		killed[len(lives)-len(st.lives)] += st.p
	}
	return killed
}

func hitOne(lives []int, j int, focus bool) []int {
	if j == 0 || len(lives) == 0 {
		return lives
	}
	out := slices.Clone(lives)
	i := len(out) - 1 // spread: the most lives left
	if focus {
		i = 0
	}
	out[i] -= j
	if out[i] <= 0 {
		return slices.Delete(out, i, i+1)
	}
	slices.Sort(out)
	return out
}

func livesKey(l []int) string {
	b := make([]byte, len(l))
	for i, v := range l {
		b[i] = byte(v)
	}
	return string(b)
}

func round9(x float64) float64 { return math.Round(x*1e9) / 1e9 }

func round9s(d dice.Dist) []float64 {
	out := make([]float64, len(d))
	for i, x := range d {
		out[i] = round9(x)
	}
	return out
}
