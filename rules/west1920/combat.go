package west1920

import (
	"fmt"

	"github.com/sztab/sztab/rules/dice"
)

// The exact odds of the game's rolls (moved here from rules/dice, which
// keeps the generic maths: Dist, Signed).

// WhiteMinusRed is the white die minus the red die, −5…+5 (rule 4.0
// OKREŚLENIE PUNKTÓW ZASOBÓW, p. 4: "od wyniku na białej kostce odjąć wynik,
// który wypadł na kostce czerwonej").
func WhiteMinusRed() dice.Signed {
	d := make(dice.Dist, 11)
	for k := -5; k <= 5; k++ {
		d[k+5] = float64(6-absInt(k)) / 36
	}
	return dice.Signed{Min: -5, Dist: d}
}

// ResourcePoints is the resource points of a stage: the base printed on the
// stage track plus white − red (rule 4.0; the example: base 12, 6 − 3 → 15).
// Event cards that change the total are the caller's business.
func ResourcePoints(base int) dice.Signed {
	s := WhiteMinusRed()
	s.Min += base
	return s
}

// CombatStack is one side of a combat (rules 9.2–9.4).
type CombatStack struct {
	// Combat is the Zmodyfikowany Współczynnik Walki: the stack's combat
	// values with every 9.3 modifier already applied (adjacent stacks,
	// terrain, river, combined arms, earlier combats, event cards).
	Combat int `json:"combat"`
	// Units is the number of combat units on the stack before the combat;
	// it caps the losses the stack can inflict (9.4).
	Units int `json:"units"`
	// Steps is how many losses the stack can absorb: two for each
	// full-strength unit, one for each reduced one (9.4). 0 means every unit
	// is at full strength (2 × Units).
	Steps int `json:"steps,omitempty"`
}

func (s CombatStack) steps() int {
	if s.Steps == 0 {
		return 2 * s.Units
	}
	return s.Steps
}

// Limits of the odds functions' inputs.
const (
	maxCombat = 1000
	maxUnits  = 1000
)

func (s CombatStack) validate(who string) error {
	switch {
	case s.Combat < -maxCombat || s.Combat > maxCombat:
		return fmt.Errorf("west1920: %s combat value %d is outside −%d…%d", who, s.Combat, maxCombat, maxCombat)
	case s.Units < 1 || s.Units > maxUnits:
		return fmt.Errorf("west1920: %s units %d is outside 1–%d", who, s.Units, maxUnits)
	case s.Steps != 0 && (s.Steps < s.Units || s.Steps > 2*s.Units):
		return fmt.Errorf("west1920: %s steps %d is outside %d–%d for %d units", who, s.Steps, s.Units, 2*s.Units, s.Units)
	}
	return nil
}

func validateStacks(att, def CombatStack) error {
	if err := att.validate("attacker"); err != nil {
		return err
	}
	return def.validate("defender")
}

// Side is a side of a combat.
type CombatSide string

const (
	Attacker CombatSide = "attacker"
	Defender CombatSide = "defender"
)

// CombatEffect is what rule 9.5 does after the losses.
type CombatEffect string

const (
	// EffectHold, 9.5a: a difference of 2 or less; both sides stay in place.
	EffectHold CombatEffect = "hold"
	// Retreat, 9.5b: a difference of 3–6; the loser's cavalry, infantry and
	// HQs retreat two hexes along a route the loser picks, the loser's
	// artillery is eliminated, the winner may pursue.
	EffectRetreat CombatEffect = "retreat"
	// Rout, 9.5c: a difference of 7 or more; as Retreat, but the winner
	// picks the route, takes no losses, and units entering the vacated hex
	// may attack again.
	EffectRout CombatEffect = "rout"
)

// CombatOutcome is the result of one combat for a given difference.
type CombatOutcome struct {
	// Diff is Wartość Ataku − Wartość Obrony (attack value − defence value).
	Diff int `json:"diff"`
	// Winner is empty on a tie.
	Winner CombatSide   `json:"winner,omitempty"`
	Effect CombatEffect `json:"effect"`
	Rule   string       `json:"rule"` // "9.5a", "9.5b" or "9.5c"
	// Losses are steps lost (9.4): one flips a full-strength unit, two or a
	// loss on a reduced unit eliminate it.
	AttackerLosses int `json:"attacker_losses"`
	DefenderLosses int `json:"defender_losses"`
}

// CombatResult resolves one combat from its dice (9.3: each side rolls 1K6
// and adds it to its modified combat value).
func CombatResult(att, def CombatStack, attackRoll, defenceRoll int) (CombatOutcome, error) {
	if err := validateStacks(att, def); err != nil {
		return CombatOutcome{}, err
	}
	if attackRoll < 1 || attackRoll > 6 {
		return CombatOutcome{}, fmt.Errorf("west1920: attack roll %d is outside 1–6", attackRoll)
	}
	if defenceRoll < 1 || defenceRoll > 6 {
		return CombatOutcome{}, fmt.Errorf("west1920: defence roll %d is outside 1–6", defenceRoll)
	}
	return combatOutcome(att, def, att.Combat+attackRoll-def.Combat-defenceRoll), nil
}

// combatOutcome maps a difference to rules 9.3–9.5 (pp. 8–10).
//
// 9.3: the side with the higher value wins. Interpretation: the rulebook
// says nothing about equal values; a tie has no winner, and since half of 0
// is 0 losses and a difference of 0 is "2 or less", nothing happens (9.5a).
//
// 9.4: the winner inflicts at most ⌊diff/2⌋ losses (1.5: fractions round
// down), capped by the number of combat units on the winning stack before
// the combat; the loser inflicts at most ⌊losses actually inflicted/2⌋,
// capped by the units on the losing stack. "Wszystkie straty muszą być
// przydzielone, jeśli to możliwe", so the maximum is what is inflicted unless
// the other stack runs out of steps (all eliminated: the rest is ignored).
// Interpretation: "actually inflicted" is therefore the winner's losses after
// that step cap. The worked example: 17 − 14 = 3 → 1 loss to the Poles,
// ⌊1/2⌋ = 0 to the Russians, 9.5b.
//
// 9.5c: on a difference of 7 or more the winner takes no losses.
//
// The 9.5b/c retreat itself (routes, impassable hexes, stacking limits,
// artillery eliminated) depends on the map and is not modelled here.
func combatOutcome(att, def CombatStack, diff int) CombatOutcome {
	o := CombatOutcome{Diff: diff}
	d := absInt(diff)
	switch {
	case d <= 2:
		o.Effect, o.Rule = EffectHold, "9.5a"
	case d <= 6:
		o.Effect, o.Rule = EffectRetreat, "9.5b"
	default:
		o.Effect, o.Rule = EffectRout, "9.5c"
	}
	if diff == 0 {
		return o
	}
	winner, loser := att, def
	o.Winner = Attacker
	if diff < 0 {
		winner, loser = def, att
		o.Winner = Defender
	}
	inflicted := min(d/2, winner.Units, loser.steps())
	back := 0
	if o.Effect != EffectRout {
		back = min(inflicted/2, loser.Units, winner.steps())
	}
	if o.Winner == Attacker {
		o.DefenderLosses, o.AttackerLosses = inflicted, back
	} else {
		o.AttackerLosses, o.DefenderLosses = inflicted, back
	}
	return o
}

// CombatOutcomeP is an outcome with its probability.
type CombatOutcomeP struct {
	CombatOutcome
	P float64 `json:"p"`
}

// CombatOdds is the exact distribution of one combat.
type CombatOdds struct {
	Attacker CombatStack `json:"attacker"`
	Defender CombatStack `json:"defender"`
	// Diff is the distribution of attack value − defence value.
	Diff         dice.Signed `json:"diff"`
	AttackerWins float64     `json:"attacker_wins"`
	DefenderWins float64     `json:"defender_wins"`
	Tie          float64     `json:"tie"`
	// Hold is 9.5a for either side (ties included).
	Hold float64 `json:"hold"`
	// DefenderRetreats and AttackerRetreats are 9.5b for the losing side.
	DefenderRetreats float64 `json:"defender_retreats"`
	AttackerRetreats float64 `json:"attacker_retreats"`
	// DefenderRouted and AttackerRouted are 9.5c for the losing side.
	DefenderRouted float64   `json:"defender_routed"`
	AttackerRouted float64   `json:"attacker_routed"`
	AttackerLosses dice.Dist `json:"attacker_losses"`
	DefenderLosses dice.Dist `json:"defender_losses"`
	// Outcomes lists every possible difference, lowest first.
	Outcomes []CombatOutcomeP `json:"outcomes"`
}

// Combat is the exact odds of one combat: attack value = att.Combat + d6,
// defence value = def.Combat + d6 (9.3), mapped through 9.4 and 9.5.
func Combat(att, def CombatStack) (CombatOdds, error) {
	if err := validateStacks(att, def); err != nil {
		return CombatOdds{}, err
	}
	diff := WhiteMinusRed() // attack die − defence die has the same law
	diff.Min += att.Combat - def.Combat
	o := CombatOdds{
		Attacker:       att,
		Defender:       def,
		Diff:           diff,
		AttackerLosses: make(dice.Dist, att.steps()+1),
		DefenderLosses: make(dice.Dist, def.steps()+1),
	}
	for i, p := range diff.Dist {
		out := combatOutcome(att, def, diff.Min+i)
		o.Outcomes = append(o.Outcomes, CombatOutcomeP{CombatOutcome: out, P: p})
		switch out.Winner {
		case Attacker:
			o.AttackerWins += p
		case Defender:
			o.DefenderWins += p
		default:
			o.Tie += p
		}
		switch {
		case out.Effect == EffectHold:
			o.Hold += p
		case out.Effect == EffectRetreat && out.Winner == Attacker:
			o.DefenderRetreats += p
		case out.Effect == EffectRetreat:
			o.AttackerRetreats += p
		case out.Winner == Attacker:
			o.DefenderRouted += p
		default:
			o.AttackerRouted += p
		}
		o.AttackerLosses[out.AttackerLosses] += p
		o.DefenderLosses[out.DefenderLosses] += p
	}
	return o, nil
}

// CoordinatedOdds is a coordinated attack (9.2): before the attack the
// attacker rolls 1K6; 5–6 the second stack supports, adding its Podstawowy
// Współczynnik Walki to the attacker's modified value; 3–4 the attacking
// stack attacks alone; 1–2 the attack is cancelled.
type CoordinatedOdds struct {
	Cancelled      float64    `json:"cancelled"`
	Unsupported    float64    `json:"unsupported"`
	Supported      float64    `json:"supported"`
	WithoutSupport CombatOdds `json:"without_support"`
	WithSupport    CombatOdds `json:"with_support"`
}

// CoordinatedCombat is the odds of a coordinated attack with a supporting
// stack of base combat value support. att.Combat already holds the +1 of 9.3
// for the supporting stack being adjacent to the defender (it applies whether
// or not the coordination succeeds). Losses never fall on the supporting
// stack and its units do not raise the 9.4 cap.
func CoordinatedCombat(att CombatStack, support int, def CombatStack) (CoordinatedOdds, error) {
	if support < 0 || support > maxCombat {
		return CoordinatedOdds{}, fmt.Errorf("west1920: support combat value %d is outside 0–%d", support, maxCombat)
	}
	alone, err := Combat(att, def)
	if err != nil {
		return CoordinatedOdds{}, err
	}
	helped := att
	helped.Combat += support
	with, err := Combat(helped, def)
	if err != nil {
		return CoordinatedOdds{}, err
	}
	return CoordinatedOdds{
		Cancelled: 1.0 / 3, Unsupported: 1.0 / 3, Supported: 1.0 / 3,
		WithoutSupport: alone, WithSupport: with,
	}, nil
}
