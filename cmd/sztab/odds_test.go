package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func runSztab(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestOddsJSON(t *testing.T) {
	out, err := runSztab(t, "odds", "--attacks", "5", "--hit", "2", "--wound", "3", "--save", "4", "--lives", "2", "--models", "1", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Wounds map[string]float64 `json:"wounds"`
		Mean   float64            `json:"mean"`
		Killed map[string]float64 `json:"killed"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	p := 5.0 / 6 * 4 / 6 * 3 / 6 // one die: hit, wound, not saved
	if want := 5 * p; math.Abs(got.Mean-want) > 1e-12 {
		t.Errorf("mean %v, want %v", got.Mean, want)
	}
	if want := math.Pow(1-p, 5); math.Abs(got.Wounds["0"]-want) > 1e-12 {
		t.Errorf("P(0 wounds) %v, want %v", got.Wounds["0"], want)
	}
	// One model of two lives dies on two or more unsaved wounds.
	if want := 1 - math.Pow(1-p, 5) - 5*p*math.Pow(1-p, 4); math.Abs(got.Killed["1"]-want) > 1e-12 {
		t.Errorf("P(1 killed) %v, want %v", got.Killed["1"], want)
	}
}

func TestOddsText(t *testing.T) {
	out, err := runSztab(t, "odds", "--attacks", "2", "--hit", "2", "--damage", "D6", "--save", "7")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 attacks, hit 2+, d6 wounds per hit, no save", "unsaved wounds", "mean "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestOddsBadInputNamesTheFlag(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--attacks", "5", "--hit", "8", "--wound", "3"}, "--hit 8 is outside 2–7"},
		{[]string{"--attacks", "5", "--hit", "1", "--wound", "3"}, "--hit 1 is outside 2–7"},
		{[]string{"--attacks", "5", "--hit", "3", "--wound", "3", "--save", "0"}, "--save 0 is outside 2–7"},
		{[]string{"--attacks", "-2", "--hit", "3", "--wound", "3"}, "--attacks -2 is negative"},
		{[]string{"--attacks", "1001", "--hit", "3", "--wound", "3"}, "--attacks 1001 is more than 1000"},
		{[]string{"--attacks", "5", "--hit", "3", "--wound", "3", "--lives", "0"}, "--lives 0"},
		{[]string{"--attacks", "5", "--hit", "3", "--wound", "3", "--damage", "D8"}, `--damage "D8"`},
		{[]string{"--attacks", "5", "--hit", "3", "--wound", "3", "--damage", "D6"}, "do not go together"},
		{[]string{"--hit", "3"}, `"attacks" not set`},
	}
	for _, tt := range tests {
		_, err := runSztab(t, append([]string{"odds"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("sztab odds %v: error %v, want it to say %q", tt.args, err, tt.want)
		}
	}
}
