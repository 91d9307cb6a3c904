package companion

import (
	"testing"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// The state's version changes with every state made current, however it
// came: a binding's cache keyed on it is renewed after an allowed breach
// too, not only after Apply (a West overlay once stayed stale there). A
// refused or uncommitted action changes nothing.
func TestAdapterVersion(t *testing.T) {
	a := Adapter[tally, map[string]any]{ID: "t", Codec: tallyActions, Step: tallyStep,
		Allowing: func(s tally, x rules.Action, w *rules.Waiver) (tally, []map[string]any, error) {
			if err := w.Breach("too_many", "za dużo", "too many"); err != nil {
				return s, nil, err
			}
			return tallyStep(s, x)
		}}
	v := a.Version()
	die := addDice{Rolls: []dice.Roll{{Value: 3, Origin: dice.Keypad}}}
	if _, commit, err := a.Apply(die); err != nil {
		t.Fatal(err)
	} else if a.Version() != v {
		t.Fatal("the version moved before the commit")
	} else {
		commit()
	}
	if a.Version() == v {
		t.Fatal("Apply's commit kept the version")
	}
	v = a.Version()
	if _, _, err := a.Apply(addDice{Rolls: []dice.Roll{{Value: 7}}}); err == nil || a.Version() != v {
		t.Fatalf("a refused action: err %v, version %d → %d", err, v, a.Version())
	}
	if _, _, _, err := a.ApplyAllowing(die, nil); err == nil {
		t.Fatal("a breach not allowed was let stand")
	}
	_, waived, commit, err := a.ApplyAllowing(die, []string{"too_many"})
	if err != nil || len(waived) != 1 {
		t.Fatalf("allowed: %v, waived %v", err, waived)
	}
	commit()
	if a.Version() == v {
		t.Fatal("ApplyAllowing's commit kept the version")
	}
	v = a.Version()
	a.SetState(tally{})
	if a.Version() == v {
		t.Fatal("SetState kept the version")
	}
}
