package dice_test

import (
	"fmt"

	"github.com/sztab/sztab/rules/dice"
)

// Five Karabiner 98k (hit 2+, wound 3+) at five grenadiers (save 4+, two
// lives each), the rulebook's shooting example.
func ExampleSequence_Exact() {
	s := dice.Sequence{Attacks: 5, Hit: 2, Wound: 3, Save: 4}
	o, err := s.Exact(&dice.Target{Models: 5, Lives: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("mean unsaved %.4f (5·5/6·4/6·3/6 = %.4f)\n", o.Unsaved.Mean(), 5*5.0/6*4.0/6*3.0/6)
	fmt.Printf("P(≥2 unsaved) %.4f\n", o.Unsaved.AtLeast(2))
	fmt.Printf("spread: P(a grenadier dies) %.4f\n", o.Killed.AtLeast(1))
	f, _ := s.Killed(dice.Target{Models: 5, Lives: 2, Policy: dice.Focus})
	fmt.Printf("focus: P(a grenadier dies) %.4f\n", f.AtLeast(1))
	_, err = dice.Sequence{Attacks: 5, Hit: 8, Wound: 3, Save: 4}.Exact(nil)
	fmt.Println(err)
	// Output:
	// mean unsaved 1.3889 (5·5/6·4/6·3/6 = 1.3889)
	// P(≥2 unsaved) 0.4256
	// spread: P(a grenadier dies) 0.0000
	// focus: P(a grenadier dies) 0.4256
	// dice: hit threshold 8 is outside 2–7
}

// The combat example of How the West was Saved (rule 9): Russians at 15
// attack Poles at 10.
func ExampleCombat() {
	o, err := dice.Combat(dice.Stack{Combat: 15, Units: 4}, dice.Stack{Combat: 10, Units: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("attacker wins %.4f, tie %.4f, defender wins %.4f\n", o.AttackerWins, o.Tie, o.DefenderWins)
	fmt.Printf("9.5a %.4f, defender retreats (9.5b) %.4f, routed (9.5c) %.4f\n", o.Hold, o.DefenderRetreats, o.DefenderRouted)
	fmt.Printf("mean losses: attacker %.4f, defender %.4f\n", o.AttackerLosses.Mean(), o.DefenderLosses.Mean())
	// Output:
	// attacker wins 0.9722, tie 0.0278, defender wins 0.0000
	// 9.5a 0.1667, defender retreats (9.5b) 0.5556, routed (9.5c) 0.2778
	// mean losses: attacker 0.4444, defender 2.2222
}
