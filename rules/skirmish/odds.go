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

// chance is P(d6 ≥ t) by rules/dice, for any t: a 1 always fails and 7
// cannot succeed, so thresholds below 2 count as 2 and above 7 as 7.
func chance(t int) float64 {
	p, _ := dice.SuccessChance(min(max(t, 2), 7))
	return p
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
// unit. Before the hit roll of a unit at full strength it is Sequence.Exact;
// later stages, and units with wounded models, run the same allocation
// (KilledFromLives) over what is already known.
func (s *State) unitOdds(stage string, target *Unit, fail float64) (wounds, killed dice.Dist) {
	sh := s.Shot
	lives := remainingLives(target)
	var packets []dice.Dist
	switch stage {
	case StageHit:
		seq := Sequence{Attacks: sh.Attacks, Hit: sh.HitOn, DamageD6: sh.D6Wounds, Save: min(sh.SaveOn, 7)}
		if !sh.D6Wounds {
			seq.Wound = sh.WoundOn
		}
		if full, ok := uniformLives(target); ok {
			o, err := seq.Exact(&Target{Models: len(lives), Lives: full, Policy: s.Options.Allocation})
			if err == nil {
				return o.Unsaved, o.Killed
			}
		}
		p, err := seq.Packet()
		if err != nil {
			return dice.Dist{1}, dice.Dist{1}
		}
		packets = slices.Repeat([]dice.Dist{p}, sh.Attacks)
	case StageWound:
		q := chance(sh.WoundOn) * fail
		packets = slices.Repeat([]dice.Dist{{1 - q, q}}, sh.Hits)
	case StageDamage:
		packets = slices.Repeat([]dice.Dist{D6DamagePacket(1, fail)}, sh.Hits)
	case StageSave:
		for _, p := range sh.Packets {
			packets = append(packets, dice.Binomial(p, fail))
		}
	}
	wounds = dice.ConvolveAll(packets...)
	if len(lives) == 0 {
		return wounds, dice.Dist{1}
	}
	killed, err := KilledFromLives(lives, packets, s.Options.Allocation)
	if err != nil {
		return wounds, nil // beyond the exact computation's limits
	}
	return wounds, killed
}

// templateOdds: every hit lands on the model the marker covers, so models
// die independently of each other. Before the target dice, every set of
// markers that may land is weighed by its chance.
func (s *State) templateOdds(target *Unit, fail float64) (wounds, killed dice.Dist) {
	sh := s.Shot
	perHit := D6DamagePacket(1, fail)
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
			d := dice.ConvolveAll(ps...)
			w = dice.Convolve(w, d)
			die := d.AtLeast(m.Remaining())
			k = dice.Convolve(k, dice.Dist{1 - die, die})
		}
		return w, k
	}
	switch {
	case sh.Stage == StageSave:
		perModel := map[string][]dice.Dist{}
		for i, p := range sh.Packets {
			perModel[sh.PacketModels[i]] = append(perModel[sh.PacketModels[i]], dice.Binomial(p, fail))
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
	var ps []float64
	var ws, ks []dice.Dist
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
		ps, ws, ks = append(ps, p), append(ws, w), append(ks, k)
	}
	return dice.Mixture(ps, ws), dice.Mixture(ps, ks)
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
// lives, the case Target describes.
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

func round9(x float64) float64 { return math.Round(x*1e9) / 1e9 }

func round9s(d dice.Dist) []float64 {
	out := make([]float64, len(d))
	for i, x := range d {
		out[i] = round9(x)
	}
	return out
}
