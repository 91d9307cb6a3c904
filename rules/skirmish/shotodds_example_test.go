package skirmish_test

import (
	"fmt"

	"github.com/sztab/sztab/rules/skirmish"
)

// Five Karabiner 98k (hit 2+, wound 3+) at five grenadiers (save 4+, two
// lives each), the rulebook's shooting example.
func ExampleSequence_Exact() {
	s := skirmish.Sequence{Attacks: 5, Hit: 2, Wound: 3, Save: 4}
	o, err := s.Exact(&skirmish.Target{Models: 5, Lives: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("mean unsaved %.4f (5·5/6·4/6·3/6 = %.4f)\n", o.Unsaved.Mean(), 5*5.0/6*4.0/6*3.0/6)
	fmt.Printf("P(≥2 unsaved) %.4f\n", o.Unsaved.AtLeast(2))
	fmt.Printf("spread: P(a grenadier dies) %.4f\n", o.Killed.AtLeast(1))
	f, _ := s.Killed(skirmish.Target{Models: 5, Lives: 2, Policy: skirmish.Focus})
	fmt.Printf("focus: P(a grenadier dies) %.4f\n", f.AtLeast(1))
	_, err = skirmish.Sequence{Attacks: 5, Hit: 8, Wound: 3, Save: 4}.Exact(nil)
	fmt.Println(err)
	// Output:
	// mean unsaved 1.3889 (5·5/6·4/6·3/6 = 1.3889)
	// P(≥2 unsaved) 0.4256
	// spread: P(a grenadier dies) 0.0000
	// focus: P(a grenadier dies) 0.4256
	// skirmish: hit threshold 8 is outside 2–7
}
