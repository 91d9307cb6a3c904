package west1920game

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
)

// `sztab play --game west-1920`: the README's example game stops at its
// refused line (a facing that does not exist) with the line and the
// reason, or plays to the end of stage 1 with Continue.
func TestPlay(t *testing.T) {
	readme, err := os.ReadFile("../../rules/west1920/testdata/games/readme.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		cont      bool
		lang      string
		view      companion.Viewer
		json      bool
		wantOut   []string
		wantErr   string
		wantError bool
	}{
		{"stops at the refusal", false, "en", companion.Public, false, []string{"Stage 1/14 · orders (7.1)", "the Russian player: RP 6/15, hand (1)"}, "readme.jsonl:20: refused bad_facing", true},
		{"goes on", true, "en", companion.Public, false, []string{"Stage 2/14 · events (3)"}, "readme.jsonl:20: refused bad_facing", false},
		{"in Polish", true, "pl", companion.Public, false, []string{"Etap 2/14 · zdarzenia (3)", "gracz rosyjski: PZ"}, "", false},
		{"the Polish player's own hand", true, "en", companion.Viewer{Role: companion.RolePlayer, Seat: PolishSeat}, false, []string{"the Polish player: RP", "hand [3]", "the Russian player: RP 0/0, hand (1)"}, "", false},
		{"as JSON for the referee", true, "en", companion.Viewer{Role: companion.RoleReferee}, true, []string{`"stage": 2`, `"hand": [`}, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			err := play(companion.Script{Name: "readme.jsonl", Data: readme, Lang: tc.lang, View: tc.view, JSON: tc.json, Continue: tc.cont, Out: &out, Err: &errs})
			var exit *companion.ScriptStopped
			if tc.wantError != errors.As(err, &exit) {
				t.Fatalf("err %v, want an exit error: %v", err, tc.wantError)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if !strings.Contains(errs.String(), tc.wantErr) {
				t.Errorf("errors %q, want %q", errs.String(), tc.wantErr)
			}
			if tc.json && !json.Valid(out.Bytes()) {
				t.Error("not JSON")
			}
		})
	}
	if err := play(companion.Script{Name: "x", Data: readme, Files: map[string]string{"units": "x.yaml"}, Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}); err == nil || !strings.Contains(err.Error(), "map, oob and cards") {
		t.Errorf("--data units: %v, want the data files named", err)
	}
}
