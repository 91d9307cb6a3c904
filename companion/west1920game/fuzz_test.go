package west1920game

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/west1920"
)

// The table's codec is the engine's, with the table's Roll: a new engine
// action must be added here too.
func TestCodecCoversTheEngine(t *testing.T) {
	if got, want := Actions.Types(), west1920.Actions.Types(); !slices.Equal(got, want) {
		t.Errorf("table codec %v, engine %v", got, want)
	}
	// A script's roll line (no origins) reads as the table's Roll.
	a, err := Actions.Decode([]byte(`{"type":"roll","dice":[6,3]}`))
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := a.(Roll); !ok || !slices.Equal(r.Dice, []int{6, 3}) {
		t.Errorf("decoded %#v", a)
	}
}

// FuzzCommand: any command name and arguments from a page (outside
// input) are refused with a reason in both languages and change nothing,
// or become actions that encode, decode to themselves and that the engine
// either takes or refuses with a typed reason.
func FuzzCommand(f *testing.F) {
	seeds := [][]string{
		{"move", "1904", "1804", "NW"}, {"move", "ru-4sd", "1804"}, {"attack", "1804", "1704", "-", "5@1804"},
		{"adjust", "ru-4sd", "weak=true", "hex=1805"}, {"retreat", "1603", "1504", "S", "eliminate", "pl-8dp"},
		{"pursue", "ru-4sd", "ru-3kk@1604"}, {"roll", "6", "3"}, {"draw", "event-05"}, {"place", "ru-4sd", "0101", "N"},
		{"losses", "pl-1dpleg", "pl-1dpleg"}, {"depot", "9999"}, {"chit", ""}, {"strategic", "ru-4sd", "2519", "SW"},
	}
	for _, s := range seeds {
		f.Add(uint8(0), strings.Join(s, "\x00"))
		f.Add(uint8(2), strings.Join(s, "\x00"))
	}
	g := testGame(f, false)
	before(f, g, "order")
	base := g.State()
	f.Fuzz(func(t *testing.T, seat uint8, cmd string) {
		parts := strings.Split(cmd, "\x00")
		if len(parts) > 9 {
			parts = parts[:9]
		}
		g.SetState(base)
		in := page(int(seat%3), parts[0], parts[1:]...)
		was, _ := json.Marshal(g.State())
		acts, notices := g.Bind(in)
		for _, n := range notices {
			if n.Type == "rejected" && (n.Text.PL == "" || n.Text.EN == "" || n.Code == "") {
				t.Fatalf("refusal without a code or a reason: %+v", n)
			}
		}
		if now, _ := json.Marshal(g.State()); string(now) != string(was) {
			t.Fatal("Bind changed the state")
		}
		for _, a := range acts {
			b, err := g.EncodeAction(a)
			if err != nil {
				t.Fatalf("%T does not encode: %v", a, err)
			}
			back, err := g.DecodeAction(b)
			if err != nil {
				t.Fatalf("%s does not decode: %v", b, err)
			}
			if b2, _ := g.EncodeAction(back); string(b2) != string(b) {
				t.Fatalf("round trip %s → %s", b, b2)
			}
			if _, _, err := g.Apply(a); err != nil {
				if _, ok := rules.AsRejection(err); !ok {
					t.Fatalf("%s: untyped error %v", b, err)
				}
			}
		}
	})
}

var _ companion.Game = (*Game)(nil)

// FuzzScan: any reader and tag id (the registry's, outside input) is
// refused with a reason or becomes a draw or a play the engine judges.
func FuzzScan(f *testing.F) {
	for _, s := range [][2]string{{"seat-1", "event-03"}, {"seat-2", "1"}, {"seat-3", "event-01"}, {"market", "x"}, {"seat-1", "event-"}, {"seat-01", "event-1000000000000000000000"}} {
		f.Add(s[0], s[1])
	}
	g := testGame(f, false)
	base := g.State()
	f.Fuzz(func(t *testing.T, reader, id string) {
		g.SetState(base)
		acts, notices := g.Bind(scan(reader, id))
		for _, n := range notices {
			if n.Type == "rejected" && (n.Text.PL == "" || n.Text.EN == "") {
				t.Fatalf("refusal without a reason: %+v", n)
			}
		}
		if len(acts) > 1 {
			t.Fatalf("%d actions for one card", len(acts))
		}
		for _, a := range acts {
			if a.Type() != "draw_card" && a.Type() != "play_card" {
				t.Fatalf("a card became %s", a.Type())
			}
			if _, _, err := g.Apply(a); err != nil {
				if _, ok := rules.AsRejection(err); !ok {
					t.Fatalf("untyped error %v", err)
				}
			}
		}
	})
}
