package maligame

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules/mali"
)

// `sztab play --game mali-powstancy`: the README's example game plays to
// the scores; a refused line stops the run with its line and reason, or
// is reported and skipped with Continue; a club's own map replaces ours.
func TestPlay(t *testing.T) {
	readme, err := os.ReadFile("../../rules/mali/testdata/games/readme.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	bad := []byte(`{"type":"setup","variant":"basic","players":[{"seat":1,"name":"Ania","colour":"red"},{"seat":2,"name":"Bartek","colour":"green"}],"starter":1}
{"type":"draw_orders","cards":["r99"]}
{"type":"draw_orders","cards":["r04"]}
`)
	dir := t.TempDir()
	roadToNowhere := strings.Replace(string(mustDefault(t, "map.yaml")), "b: palacyk-michla, fields: [ochota, wola]", "b: palac-kultury, fields: [ochota, wola]", 1)
	if err := os.WriteFile(dir+"/map.yaml", []byte(roadToNowhere), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		data      []byte
		cont      bool
		lang      string
		files     map[string]string
		wantOut   string
		wantErr   string
		wantError bool
		fails     string
	}{
		{name: "readme", data: readme, lang: "en", wantOut: "Result: "},
		{name: "readme scores", data: readme, lang: "pl", wantOut: "miejsce 2: 1 rozkazów (8 pkt), powrót 0, cele 0 = 8"},
		{name: "refused stops", data: bad, lang: "en", wantErr: "x.jsonl:2: refused wrong_card", wantError: true},
		{name: "refused continues", data: bad, cont: true, lang: "en", wantOut: "track field 1: r04", wantErr: "x.jsonl:2: refused wrong_card"},
		{name: "a club's map with a road to nowhere", data: readme, files: map[string]string{"map": dir + "/map.yaml"},
			fails: `map.yaml:`},
		{name: "an unknown data file", data: readme, files: map[string]string{"board": "x"}, fails: "map, orders, goals and die"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			err := play(companion.Script{Name: "x.jsonl", Data: tc.data, Lang: tc.lang, Continue: tc.cont, Files: tc.files, Out: &out, Err: &errs})
			if tc.fails != "" {
				if err == nil || !strings.Contains(err.Error(), tc.fails) {
					t.Fatalf("err %v, want one naming %q", err, tc.fails)
				}
				return
			}
			var exit *companion.ScriptStopped
			if tc.wantError != errors.As(err, &exit) {
				t.Fatalf("err %v, want an exit error: %v", err, tc.wantError)
			}
			if !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("output lacks %q:\n%s", tc.wantOut, out.String())
			}
			if !strings.Contains(errs.String(), tc.wantErr) {
				t.Errorf("errors lack %q:\n%s", tc.wantErr, errs.String())
			}
		})
	}
}

func mustDefault(t *testing.T, name string) []byte {
	t.Helper()
	for _, f := range mali.DefaultFiles() {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("no default %s", name)
	return nil
}
