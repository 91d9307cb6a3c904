package wotrushgame

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
)

// `sztab play --game wot-rush`: the README's example game plays to the
// end; a refused line stops the run with its line and reason, or is
// reported and skipped with Continue.
func TestPlay(t *testing.T) {
	readme, err := os.ReadFile("../../rules/wotrush/testdata/games/readme.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	bad := []byte(`{"type":"setup","players":[{"seat":1,"name":"Ala"},{"seat":2,"name":"Bartek"}],"first":1,"seed":1}
{"type":"end_turn","seat":2}
{"type":"end_turn","seat":1}
`)
	cases := []struct {
		name      string
		data      []byte
		cont      bool
		lang      string
		wantOut   string
		wantErr   string
		wantError bool
	}{
		{"readme", readme, false, "en", "Result: Ala wins", "", false},
		{"readme pl", readme, false, "pl", "Wynik: Wygrywa Ala", "", false},
		// The story in the script's header: six rounds, Bartek without
		// bases, 19 to 5.
		{"readme end", readme, false, "en", "Round 6, turn 12\nResult: Ala wins", "", false},
		{"readme score", readme, false, "en", "Ala: 19 (medals 0, bases 9, achievements 10)", "", false},
		{"readme loser", readme, false, "en", "Bartek: 5 (medals 0, bases 0, achievements 5)", "", false},
		{"readme bases", readme, false, "en", "Bartek: bases ; hand 3", "", false},
		{"refused stops", bad, false, "en", "Round 1", "x.jsonl:2: refused not_your_turn", true},
		{"refused continues", bad, true, "en", "Turn of: Bartek", "x.jsonl:2: refused not_your_turn", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			err := play(companion.Script{Name: "x.jsonl", Data: tc.data, Lang: tc.lang, Continue: tc.cont, Out: &out, Err: &errs})
			var exit *companion.ScriptStopped
			if tc.wantError != errors.As(err, &exit) {
				t.Fatalf("err %v, want an exit error: %v", err, tc.wantError)
			}
			if !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("output lacks %q:\n%s", tc.wantOut, out.String())
			}
			if !strings.Contains(errs.String(), tc.wantErr) {
				t.Errorf("errors %q, want %q", errs.String(), tc.wantErr)
			}
		})
	}
}
