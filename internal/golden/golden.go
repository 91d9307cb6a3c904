// Package golden writes and checks the engines' golden games: a script's
// transcript in Polish and English and its final state, compared with
// NAME.golden beside the script.
package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/sztab/sztab/rules"
)

// Transcript is a game's golden text: every step's transcript in Polish,
// then in English, then the final state as indented JSON.
func Transcript[E rules.Said](steps []rules.Step[E], final any) []byte {
	var b bytes.Buffer
	for _, lang := range []string{"pl", "en"} {
		b.WriteString("---- " + lang + "\n")
		for _, st := range steps {
			b.WriteString(st.Transcript(lang))
		}
	}
	b.WriteString("---- state\n")
	state, _ := json.MarshalIndent(final, "", "  ")
	b.Write(state)
	b.WriteString("\n")
	return b.Bytes()
}

// Check compares got with the golden file at path; with update it writes
// the file instead. A difference fails t with its first differing line.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs; run with -update if the change is meant:\n%s", path, FirstDiff(got, want))
	}
}

// FirstDiff says where got first differs from want, by line.
func FirstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			return fmt.Sprintf("line %d:\n got  %s\nwant  %s", i+1, gl, wl)
		}
	}
	return "same lines, different bytes"
}
