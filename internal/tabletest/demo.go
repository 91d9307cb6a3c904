package tabletest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
)

// DemoStep is one step of a game's demo session: a narration (Say), a card
// scanned on a reader (Reader, Card; Card UnknownCard for a card the
// registry does not know), or a key (Keypad, Key, Args). Want is the
// action type the step must end with.
type DemoStep struct {
	Say, Reader, Card, Keypad, Key string
	Args                           []string
	Want                           string
}

// UnknownCard is a card outside the game, scanned to show the refusal.
const UnknownCard = "?"

// UnknownUID is its tag.
const UnknownUID = "04998877"

func Say(s string) DemoStep { return DemoStep{Say: s} }

func On(reader, card, want string) DemoStep { return DemoStep{Reader: reader, Card: card, Want: want} }

func Key(keypad, k, want string, args ...string) DemoStep {
	return DemoStep{Keypad: keypad, Key: k, Args: args, Want: want}
}

// Session is a demo session to play through a game's binder and engine.
type Session struct {
	Steps []DemoStep
	// Press is the input of a key step (each game has its own keypads).
	Press func(keypad, key string, args ...string) companion.Input
	// UID is a card's tag in the demo's registry.
	UID func(card string) string
	// Describe says how the game stands, for a refused step (optional).
	Describe func() string
}

// Play feeds the steps to g as the daemon would and writes the simulated
// table's script for them after header; a step refused, or not ending
// with its Want action, fails t.
func (s Session) Play(t testing.TB, g companion.Game, header string) string {
	t.Helper()
	var script strings.Builder
	script.WriteString(header)
	for i, st := range s.Steps {
		var in companion.Input
		switch {
		case st.Say != "":
			fmt.Fprintf(&script, "{\"say\": %q}\n{\"wait\": \"1s\"}\n", st.Say)
			continue
		case st.Reader != "":
			uid := UnknownUID
			if st.Card != UnknownCard {
				uid = s.UID(st.Card)
			}
			fmt.Fprintf(&script, "{\"tag\": {\"reader\": %q, \"uid\": %q}}\n{\"untag\": {\"reader\": %q, \"uid\": %q}}\n", st.Reader, uid, st.Reader, uid)
			if st.Card == UnknownCard {
				continue
			}
			in = Scan(st.Reader, st.Card)
		default:
			args := ""
			if len(st.Args) > 0 {
				args = fmt.Sprintf(", \"args\": [\"%s\"]", strings.Join(st.Args, "\", \""))
			}
			fmt.Fprintf(&script, "{\"key\": {\"keypad\": %q, \"key\": %q%s}}\n", st.Keypad, st.Key, args)
			in = s.Press(st.Keypad, st.Key, st.Args...)
		}
		took, rej := Feed(t, g, in)
		what := fmt.Sprintf("step %d (%s%s %s %v)", i, st.Reader, st.Keypad, st.Card+st.Key, st.Args)
		if rej != nil {
			state := ""
			if s.Describe != nil {
				state = "; " + s.Describe()
			}
			t.Fatalf("%s: refused: %s %s%s", what, rej.Code, rej.Reason.EN, state)
		}
		if len(took) == 0 || took[len(took)-1].Type() != st.Want {
			var types []string
			for _, a := range took {
				types = append(types, a.Type())
			}
			t.Fatalf("%s: took %v, want … %s", what, types, st.Want)
		}
		script.WriteString("{\"wait\": \"700ms\"}\n")
	}
	return script.String()
}

// Tags is the demo's tag registry of cards after header.
func Tags(header string, cards []companion.Card, uid func(card string) string) string {
	var b strings.Builder
	b.WriteString(header)
	for _, c := range cards {
		fmt.Fprintf(&b, "  - {uid: %q, kind: card, id: %q, label: %q}\n", uid(c.ID), c.ID, c.Label)
	}
	return b.String()
}

// CheckDemoFiles compares the files (name → content) with those in
// firmware-config/demo, or with update writes them there; hint says how
// to rewrite them.
func CheckDemoFiles(t testing.TB, files map[string]string, update bool, hint string) {
	t.Helper()
	_, self, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(self), "..", "..", "firmware-config", "demo")
	for name, got := range files {
		path := filepath.Join(dir, name)
		if update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil || string(want) != got {
			t.Errorf("%s is not the demo's steps (%v); %s", name, err, hint)
		}
	}
}
