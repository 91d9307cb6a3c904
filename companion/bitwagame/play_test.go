package bitwagame

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
)

// `sztab play --game bitwa-warszawska`: the README's example game plays
// through to its end (WP wins 9:4 in round 5); a refused line stops the run with its line and reason, or is
// reported and skipped with Continue.
func TestPlay(t *testing.T) {
	readme, err := os.ReadFile("../../rules/bitwa/testdata/games/readme.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	bad := []byte(`{"type":"setup","players":[{"seat":1,"name":"Marysia","army":"wp"},{"seat":2,"name":"Janek","army":"acz"}],"seed":1920}
{"type":"blockade","seat":2,"marker":"blockade-acz","place":"order_field","front":"S"}
{"type":"blockade","seat":1,"marker":"blockade-wp","place":"order_field","front":"S"}
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
		{"readme", readme, false, "en", "Result: Polish Army wins (VP 9:4, 2nd lines 4:0)", "", false},
		{"readme pl", readme, false, "pl", "Wynik: wygrywa Wojsko Polskie (PZ 9:4, 2LF 4:0)", "", false},
		{"readme vp", readme, false, "en", "ACZ: VP 4,", "", false},
		{"refused stops", bad, false, "en", "Round 0", "x.jsonl:2: refused not_your_decision", true},
		{"refused continues", bad, true, "en", "Waiting: Red Army: lay your blockade", "x.jsonl:2: refused not_your_decision", false},
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
