package skirmish

import (
	"fmt"
	"strconv"

	"github.com/sztab/sztab/rules/dice"
)

// The exact odds of the shooting sequence (FAZA STRZAŁU), hit → wound →
// save and the models killed, for a display and `sztab odds`: probability
// distributions computed with rules/dice's generic maths by convolution and
// dynamic programming (no sampling), accurate to a few ulps of float64 — far
// below 1e-12 for every size the validation lets through. Attack dice are at
// most dice.MaxDice.

// MaxModels and MaxLives bound a target unit for wound allocation.
const (
	MaxModels = 1000
	MaxLives  = 100
)

// Parameter names carried by ParamError.Param. They are stable, so a CLI can
// map them to its flags.
const (
	ParamHit       = "hit"
	ParamWound     = "wound"
	ParamSave      = "save"
	ParamAttacks   = "attacks"
	ParamModels    = "models"
	ParamLives     = "lives"
	ParamPolicy    = "policy"
	ParamBaseShots = "base_shots"
	ParamRounds    = "stationary_rounds"
	ParamBonus     = "bonus_per_round"
	ParamCap       = "cap"
	ParamRuns      = "runs"
)

var paramLabels = map[string]string{
	ParamHit:       "hit threshold",
	ParamWound:     "wound threshold",
	ParamSave:      "save threshold",
	ParamAttacks:   "attacks",
	ParamModels:    "models",
	ParamLives:     "lives",
	ParamPolicy:    "allocation policy",
	ParamBaseShots: "base shots",
	ParamRounds:    "stationary rounds",
	ParamBonus:     "bonus per round",
	ParamCap:       "shot cap",
	ParamRuns:      "runs",
}

// ParamError is an invalid input to the shot odds (Sequence, Target, MGFire,
// KilledFromLives, the Monte Carlo estimate). Param is one of the Param*
// constants, so a caller can tell which flag or field was wrong:
//
//	skirmish: hit threshold 8 is outside 2–7
type ParamError struct {
	Param  string
	Value  any
	Reason string
}

func (e *ParamError) Error() string {
	label := paramLabels[e.Param]
	if label == "" {
		label = e.Param
	}
	return fmt.Sprintf("skirmish: %s %v %s", label, e.Value, e.Reason)
}

func checkThreshold(param string, t int) error {
	if t < 2 || t > 7 {
		return &ParamError{Param: param, Value: t, Reason: "is outside 2–7"}
	}
	return nil
}

func checkCount(param string, n, limit int) error {
	switch {
	case n < 0:
		return &ParamError{Param: param, Value: n, Reason: "is negative"}
	case n > limit:
		return &ParamError{Param: param, Value: n, Reason: fmt.Sprintf("is more than %d", limit)}
	}
	return nil
}

// Sequence is one shooting of the skirmish game ("Powstanie Warszawskie",
// FAZA STRZAŁU): every attack die rolls to hit; every hit rolls to wound (or,
// with DamageD6, deals d6 wounds: "Aby ranić: kostka d6 oznacza ilość
// zadanych ran"); every wound gets its own save roll against the target's
// defence. Thresholds are "at least" values in 2…7; 7 cannot succeed, so a
// Save of 7 means no save.
type Sequence struct {
	// Attacks is the number of attack dice, models × shots per model (see
	// MGFire.Attacks for the heavy machine guns).
	Attacks int `json:"attacks"`
	Hit     int `json:"hit"`
	// Wound is the wound threshold; leave it 0 when DamageD6 is set.
	Wound    int  `json:"wound,omitempty"`
	DamageD6 bool `json:"damage_d6,omitempty"`
	Save     int  `json:"save"`
}

// Validate reports the first invalid field as a *ParamError.
func (s Sequence) Validate() error {
	if err := checkCount(ParamAttacks, s.Attacks, dice.MaxDice); err != nil {
		return err
	}
	if err := checkThreshold(ParamHit, s.Hit); err != nil {
		return err
	}
	if s.DamageD6 {
		if s.Wound != 0 {
			return &ParamError{Param: ParamWound, Value: s.Wound, Reason: "cannot be combined with d6 damage"}
		}
	} else if err := checkThreshold(ParamWound, s.Wound); err != nil {
		return err
	}
	return checkThreshold(ParamSave, s.Save)
}

// Packet is the distribution of unsaved wounds caused by one attack die
// (0 for a miss, a failed wound or a saved wound; up to 6 with DamageD6).
// The wounds of one attack stay together as a packet for allocation.
func (s Sequence) Packet() (dice.Dist, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s.packet(), nil
}

func (s Sequence) packet() dice.Dist {
	ph, fail := chance(s.Hit), 1-chance(s.Save)
	if !s.DamageD6 {
		u := ph * chance(s.Wound) * fail
		return dice.Dist{1 - u, u}
	}
	return D6DamagePacket(ph, fail)
}

// D6DamagePacket is the packet of unsaved wounds (Len 7) of one attack that
// hits with chance hit and then deals d6 wounds (DamageD6), each left
// unsaved with chance unsaved, its own save rolled: a face d of the damage
// die gives dice.Binomial(d, unsaved) unsaved wounds. With hit 1 it is the
// packet of a hit already scored.
func D6DamagePacket(hit, unsaved float64) dice.Dist {
	r := make(dice.Dist, 7)
	for d := 1; d <= 6; d++ {
		for k, p := range dice.Binomial(d, unsaved) {
			r[k] += hit / 6 * p
		}
	}
	r[0] += 1 - hit
	return r
}

// Unsaved is the distribution of the total unsaved wounds.
func (s Sequence) Unsaved() (dice.Dist, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return dice.ConvolveN(s.packet(), s.Attacks), nil
}

// Target is the unit being shot at: Models models of Lives lives each.
type Target struct {
	Models int `json:"models"`
	Lives  int `json:"lives"`
	// Policy is how the packets of unsaved wounds are given to the models
	// (the table's Options.Allocation); the zero value is Spread. Spread
	// gives each packet to the model with the most lives left, so unwounded
	// models are wounded first. It matches the rulebook's worked example in
	// FAZA STRZAŁU: two unsaved wounds on grenadiers with two lives each
	// leave "2 rannych wrogich grenadierów", two wounded, none killed. Focus
	// gives each packet to the living model with the fewest lives left, so
	// wounded models are finished first and models die one by one.
	Policy Allocation `json:"policy,omitempty"`
}

// Validate reports the first invalid field as a *ParamError.
func (t Target) Validate() error {
	if t.Models < 1 {
		return &ParamError{Param: ParamModels, Value: t.Models, Reason: "must be at least 1"}
	}
	if err := checkCount(ParamModels, t.Models, MaxModels); err != nil {
		return err
	}
	if t.Lives < 1 {
		return &ParamError{Param: ParamLives, Value: t.Lives, Reason: "must be at least 1"}
	}
	if err := checkCount(ParamLives, t.Lives, MaxLives); err != nil {
		return err
	}
	switch t.Policy {
	case "", Spread, Focus:
		return nil
	}
	return &ParamError{Param: ParamPolicy, Value: strconv.Quote(string(t.Policy)), Reason: `is neither "spread" nor "focus"`}
}

func (t Target) focus() bool { return t.Policy == Focus }

// Killed is the distribution of models of t killed by the sequence.
//
// Allocation, one packet at a time in the order the attacks were rolled:
// a packet of unsaved wounds goes to one model, picked by t.Policy. With
// DamageD6 all wounds of one hit go to that single model and whatever
// exceeds its remaining lives is lost; they do not spill onto the next model.
// The skirmish rulebook (SPIS BRONI, PANZERSCHRECK / PANZERFAUST /
// STIELHAND GRANATE: "Aby ranić: kostka d6 oznacza ilość zadanych ran") says
// how many wounds one hit deals but not that they may be split between
// models, and a single anti-tank or grenade hit striking one man is the
// reading we chose. Saves are rolled per wound before allocation, so only
// unsaved wounds reach the model.
func (s Sequence) Killed(t Target) (dice.Dist, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return killedDist(s.packet(), s.Attacks, t)
}

// SequenceOdds is the exact result of a Sequence against an optional Target.
type SequenceOdds struct {
	Sequence Sequence `json:"sequence"`
	Target   *Target  `json:"target,omitempty"`
	// Packet is the unsaved wounds of one attack die.
	Packet  dice.Dist `json:"packet"`
	Unsaved dice.Dist `json:"unsaved"`
	// Killed is nil without a target.
	Killed dice.Dist `json:"killed,omitempty"`
}

// Exact computes the unsaved wounds and, when t is not nil, the models
// killed.
func (s Sequence) Exact(t *Target) (SequenceOdds, error) {
	if err := s.Validate(); err != nil {
		return SequenceOdds{}, err
	}
	o := SequenceOdds{Sequence: s, Packet: s.packet()}
	o.Unsaved = dice.ConvolveN(o.Packet, s.Attacks)
	if t != nil {
		if err := t.Validate(); err != nil {
			return SequenceOdds{}, err
		}
		tc := *t
		o.Target = &tc
		k, err := killedDist(o.Packet, s.Attacks, tc)
		if err != nil {
			return SequenceOdds{}, err
		}
		o.Killed = k
	}
	return o, nil
}

// MGBonusPerRound is the heavy machine guns' extra shots per model for every
// round the unit did not move (SPIS BRONI, MG42 and ZDOBYCZNY MG42: "za każdą
// rundę gdy oddział nie wykonał ruchu +2 strzały").
const MGBonusPerRound = 2

// MGFire is the fire of a heavy machine gun unit: each model fires
// min(BaseShots + BonusPerRound × StationaryRounds, Cap) shots (MG42: 8, cap
// 12; ZDOBYCZNY MG42: 7, cap 11).
type MGFire struct {
	Models           int `json:"models"`
	BaseShots        int `json:"base_shots"`
	StationaryRounds int `json:"stationary_rounds"`
	BonusPerRound    int `json:"bonus_per_round"`
	Cap              int `json:"cap"`
}

// Attacks is the number of attack dice, Models × shots per model.
func (f MGFire) Attacks() (int, error) {
	if err := checkCount(ParamModels, f.Models, MaxModels); err != nil {
		return 0, err
	}
	if f.BaseShots < 1 {
		return 0, &ParamError{Param: ParamBaseShots, Value: f.BaseShots, Reason: "must be at least 1"}
	}
	if err := checkCount(ParamRounds, f.StationaryRounds, 1000); err != nil {
		return 0, err
	}
	if err := checkCount(ParamBonus, f.BonusPerRound, 100); err != nil {
		return 0, err
	}
	if f.Cap < f.BaseShots {
		return 0, &ParamError{Param: ParamCap, Value: f.Cap, Reason: fmt.Sprintf("is below the base shots %d", f.BaseShots)}
	}
	shots := min(f.BaseShots+f.BonusPerRound*f.StationaryRounds, f.Cap)
	n := f.Models * shots
	if n > dice.MaxDice {
		return 0, &ParamError{Param: ParamAttacks, Value: n, Reason: fmt.Sprintf("is more than %d", dice.MaxDice)}
	}
	return n, nil
}
