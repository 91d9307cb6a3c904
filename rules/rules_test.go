package rules_test

import (
	"testing"

	"github.com/sztab/sztab/rules"
)

func TestTextfTakesTextArguments(t *testing.T) {
	name := rules.Text{PL: "czerwony 2", EN: "red 2"}
	for _, c := range []struct {
		pl, en string
		args   []any
		want   rules.Text
	}{
		{"%s aresztowany", "%s arrested", []any{name}, rules.Text{PL: "czerwony 2 aresztowany", EN: "red 2 arrested"}},
		{"%[2]s: %[1]d pkt", "%[2]s: %[1]d points", []any{4, name}, rules.Text{PL: "czerwony 2: 4 pkt", EN: "red 2: 4 points"}},
		{"runda %d", "round %d", []any{3}, rules.Text{PL: "runda 3", EN: "round 3"}},
	} {
		if got := rules.Textf(c.pl, c.en, c.args...); got != c.want {
			t.Errorf("Textf(%q, %q, %v) = %+v, want %+v", c.pl, c.en, c.args, got, c.want)
		}
	}
	// The arguments are not changed for the caller.
	args := []any{name}
	rules.Textf("%s", "%s", args...)
	if args[0] != any(name) {
		t.Errorf("Textf changed its arguments: %v", args)
	}
}
