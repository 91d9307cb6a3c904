package west1920_test

import (
	"fmt"

	"github.com/sztab/sztab/rules/west1920"
)

// The combat example of How the West was Saved (rule 9): Russians at 15
// attack Poles at 10.
func ExampleCombat() {
	o, err := west1920.Combat(west1920.CombatStack{Combat: 15, Units: 4}, west1920.CombatStack{Combat: 10, Units: 2})
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
