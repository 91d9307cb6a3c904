package companion

import (
	"strings"
	"testing"
)

func TestActionChange(t *testing.T) {
	long := `"` + strings.Repeat("x", 80) + `"`
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"same", `{"type":"roll","dice":[6,3]}`, `{"dice":[6,3],"type":"roll"}`, ""},
		{"one die", `{"type":"roll","dice":[6,3]}`, `{"type":"roll","dice":[5,3]}`, "dice[0]: 6 → 5"},
		{"the type alone is left to the text", `{"type":"roll","seat":1}`, `{"type":"pass","seat":1}`, ""},
		{"inside objects, paths sorted", `{"type":"roll","rolls":[{"value":6,"origin":"keypad"}],"seat":1}`, `{"type":"roll","rolls":[{"value":5,"origin":"keypad"}],"seat":2}`,
			"rolls[0].value: 6 → 5, seat: 1 → 2"},
		{"another length: the whole array", `{"add":["C","N"]}`, `{"add":["C"]}`, `add: ["C","N"] → ["C"]`},
		{"added and removed fields", `{"a":1}`, `{"b":true}`, "a: 1 → –, b: – → true"},
		{"numbers as written", `{"x":1.50}`, `{"x":1e3}`, "x: 1.50 → 1e3"},
		{"a long value cut", `{"s":"a"}`, `{"s":` + long + `}`, `s: "a" → "` + strings.Repeat("x", 58) + "…"},
		{"a kind changed", `{"v":[1]}`, `{"v":{"a":1}}`, `v: [1] → {"a":1}`},
		{"not JSON", `{"a":1}`, `{`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := actionChange([]byte(tc.old), []byte(tc.new)); got != tc.want {
				t.Errorf("actionChange(%s, %s) = %q, want %q", tc.old, tc.new, got, tc.want)
			}
		})
	}
}

func TestActionBrief(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"type":"supply","seat":1,"add":["C","N","S"]}`, `add: ["C","N","S"], seat: 1`},
		{`{"type":"pass"}`, ""},
		{`[1,2]`, ""},
		{`{`, ""},
	} {
		if got := actionBrief([]byte(tc.body)); got != tc.want {
			t.Errorf("actionBrief(%s) = %q, want %q", tc.body, got, tc.want)
		}
	}
}
