package companion

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The next game's players replace the names of the game's players list by
// seat, whatever characters a name has (it is YAML-quoted, never YAML);
// the rest of the config stays as written. A game without a players list
// takes none; a count that is not the seats' is refused.
func TestWithPlayersNamesTheSeats(t *testing.T) {
	data, err := os.ReadFile("../firmware-config/demo/skirmish.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// Without the simulated hardware (its script is not beside the copy).
	data = []byte(strings.Replace(string(data), "hardware:\n  simulated: skirmish-demo.jsonl\n", "", 1))
	cfg, err := ParseConfig(filepath.Join(t.TempDir(), "skirmish.yaml"), data)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		names []string
		want  []string
		err   string
	}{
		{"plain", []string{"Ola", "Piotr"}, []string{"Ola", "Piotr"}, ""},
		{"YAML in a name", []string{"Ola: {seat: 9}", "#Piotr 'x' \"y\""}, []string{"Ola: {seat: 9}", "#Piotr 'x' \"y\""}, ""},
		{"Polish letters", []string{"Łucja", "Źdźisław"}, []string{"Łucja", "Źdźisław"}, ""},
		{"too few", []string{"Ola"}, nil, "1 players named for the 2 seats"},
		{"too many", []string{"A", "B", "C"}, nil, "3 players named for the 2 seats"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, ok, err := cfg.withPlayers(tc.names)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !ok {
				t.Fatalf("ok %v, err %v", ok, err)
			}
			var section struct {
				Players []struct {
					Seat    int    `yaml:"seat"`
					Name    string `yaml:"name"`
					Faction string `yaml:"faction"`
				} `yaml:"players"`
			}
			node := out.Sections["skirmish"]
			if err := node.Decode(&section); err != nil {
				t.Fatal(err)
			}
			if len(section.Players) != 2 || section.Players[0].Name != tc.want[0] || section.Players[1].Name != tc.want[1] ||
				section.Players[0].Faction != "Armia Krajowa" || section.Players[1].Seat != 2 {
				t.Fatalf("players %+v, want %q with their factions and seats", section.Players, tc.want)
			}
			if out.Venue != cfg.Venue || out.Dice.Seed != cfg.Dice.Seed || out.Display.Referee != cfg.Display.Referee {
				t.Fatal("the rest of the config changed")
			}
		})
	}
	// The original is untouched.
	if strings.Contains(string(cfg.data), "Ola") {
		t.Fatal("withPlayers changed the config it was given")
	}
	// A game without a players list (its seats are sides).
	west, err := os.ReadFile("../firmware-config/demo/west-1920.yaml")
	if err != nil {
		t.Fatal(err)
	}
	west = []byte(strings.Replace(string(west), "hardware:\n  simulated: west-1920-demo.jsonl\n", "", 1))
	wc, err := ParseConfig(filepath.Join(t.TempDir(), "west.yaml"), west)
	if err != nil {
		t.Fatal(err)
	}
	if out, ok, err := wc.withPlayers([]string{"Ola", "Piotr"}); ok || err != nil || out != wc {
		t.Fatalf("west: ok %v, err %v", ok, err)
	}
}

// FuzzWithPlayers: names from the referee's command (at most 64 bytes of
// UTF-8 without control characters, wire.ParseCommand) always come back
// as the seats' names, never as YAML.
func FuzzWithPlayers(f *testing.F) {
	data, err := os.ReadFile("../firmware-config/demo/wot-rush.yaml")
	if err != nil {
		f.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "hardware:\n  simulated: wot-rush-demo.jsonl\n", "", 1))
	cfg, err := ParseConfig(filepath.Join(f.TempDir(), "wot-rush.yaml"), data)
	if err != nil {
		f.Fatal(err)
	}
	f.Add("Ola", "Piotr")
	f.Add("a: b", "- [c]")
	f.Add("&x", "*x")
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, s := range []string{a, b} {
			if len(s) > 64 || !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) || strings.TrimSpace(s) != s || s == "" {
				return
			}
		}
		out, ok, err := cfg.withPlayers([]string{a, b})
		if err != nil || !ok {
			t.Fatalf("%q, %q: ok %v, err %v", a, b, ok, err)
		}
		var section struct {
			Players []struct {
				Name string `yaml:"name"`
			} `yaml:"players"`
		}
		node := out.Sections["wot-rush"]
		if err := node.Decode(&section); err != nil || len(section.Players) != 2 || section.Players[0].Name != a || section.Players[1].Name != b {
			t.Fatalf("%q, %q came back as %+v (%v)", a, b, section.Players, err)
		}
	})
}
