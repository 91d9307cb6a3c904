package companion

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/display"
)

const goodConfig = `venue: klub
table: stol-1
game: skirmish
tags: tags.yaml
mqtt:
  listen: "127.0.0.1:1883"
skirmish:
  players: []
`

func TestParseConfig(t *testing.T) {
	cfg, err := ParseConfig("/etc/sztab/table.yaml", []byte(goodConfig))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Language != "pl" || cfg.Measure.KrokMM != 25.4 || cfg.Journal != "stol-1.journal.db" {
		t.Errorf("defaults: got language %q krok %v journal %q", cfg.Language, cfg.Measure.KrokMM, cfg.Journal)
	}
	if got := cfg.Resolve(cfg.Tags); got != "/etc/sztab/tags.yaml" {
		t.Errorf("Resolve: got %s", got)
	}
	var section struct {
		Players []string `yaml:"players"`
	}
	if err := cfg.DecodeSection("skirmish", &section); err != nil {
		t.Errorf("DecodeSection: %v", err)
	}
}

func TestConfigErrorsNameFileLineAndKey(t *testing.T) {
	tests := []struct {
		name, yaml, want string
		line             int
	}{
		{"unknown top-level key", goodConfig + "colour: red\n", `unknown key "colour"`, 9},
		{"unknown nested key", strings.Replace(goodConfig, "  listen:", "  lisen:", 1), `unknown key "lisen"`, 6},
		{"bad table id", strings.Replace(goodConfig, "table: stol-1", "table: Stół 1", 1), "table:", 2},
		{"not a game id", strings.Replace(goodConfig, "game: skirmish", "game: Chess!", 1), `"Chess!" is not a game id`, 3},
		{"two game sections", strings.Replace(goodConfig, "skirmish:\n", "chess: {}\nskirmish:\n", 1), `unknown key "chess" (the only game section is the game's own, skirmish)`, 7},
		{"bad port", strings.Replace(goodConfig, "127.0.0.1:1883", "127.0.0.1:99999", 1), "port", 6},
		{"both broker and listen", strings.Replace(goodConfig, "mqtt:\n", "mqtt:\n  broker: tcp://x:1883\n", 1), "not both", 7},
		{"bad broker url", strings.Replace(goodConfig, "  listen: \"127.0.0.1:1883\"", "  broker: x:1883", 1), "broker URL", 6},
		{"a bad entry in a broker list", strings.Replace(goodConfig, "  listen: \"127.0.0.1:1883\"", "  broker: tcp://n1:1883,tcp//n2:1883,tcp://n3:1883", 1),
			`mqtt.broker: entry 2 of 3 "tcp//n2:1883"`, 6},
		{"a bad entry in a YAML broker list", strings.Replace(goodConfig, "  listen: \"127.0.0.1:1883\"", "  broker:\n    - tcp://n1:1883\n    - udp://n2:1883", 1),
			`mqtt.broker: entry 2 of 2 "udp://n2:1883": scheme "udp"`, 7},
		{"a list in a broker list", strings.Replace(goodConfig, "  listen: \"127.0.0.1:1883\"", "  broker:\n    - tcp://n1:1883\n    - [tcp://n2:1883]", 1),
			`mqtt.broker: entry 2 is not a URL`, 8},
		{"an empty broker list", strings.Replace(goodConfig, "  listen: \"127.0.0.1:1883\"", "  broker: []", 1), "mqtt.broker: empty", 6},
		{"a node listed twice", strings.Replace(goodConfig, "  listen: \"127.0.0.1:1883\"", "  broker: tcp://n1:1883, tcp://n1:1883", 1), "listed twice", 6},
		{"wrong type", strings.Replace(goodConfig, "table: stol-1\n", "table: stol-1\nmeasure:\n  krok_mm: long\n", 1), "krok_mm", 4},
		{"bad krok", strings.Replace(goodConfig, "table: stol-1\n", "table: stol-1\nmeasure:\n  krok_mm: -3\n", 1), "krok", 4},
		{"bad yaml", "venue: [\n", "", 0},
		{"empty", "", "empty", 0},
		{"missing tags", strings.Replace(goodConfig, "tags: tags.yaml\n", "", 1), "tags", 0},
		{"simulated script missing", goodConfig + "hardware:\n  simulated: nope.jsonl\n", "hardware.simulated", 10},
		{"a short display token", goodConfig + "display:\n  displays:\n    - {name: wall, token: abc}\n", "display.displays: display.displays[0] (wall): the token must be 20 to 128", 11},
		{"a display name twice", goodConfig + "display:\n  displays:\n    - {name: wall, token: 0123456789abcdef0123}\n    - {name: wall, token: 0123456789abcdef0124}\n",
			"display.displays[1]: name wall listed twice", 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig("table.yaml", []byte(tt.yaml))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a ConfigError", err)
			}
			if ce.File != "table.yaml" {
				t.Errorf("file %q", ce.File)
			}
			if tt.line > 0 && ce.Line != tt.line {
				t.Errorf("line %d, want %d (%v)", ce.Line, tt.line, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want it to mention %q", err, tt.want)
			}
		})
	}
}

// mqtt.broker takes one URL, several comma-separated, or a YAML list: the
// same list in the same order.
func TestBrokerList(t *testing.T) {
	want := []string{"tcp://n1:1883", "tcp://n2:1883", "ssl://n3:8883"}
	for _, b := range []string{" broker: tcp://n1:1883, tcp://n2:1883,ssl://n3:8883", " broker: [tcp://n1:1883, tcp://n2:1883, ssl://n3:8883]",
		" broker:\n    - tcp://n1:1883\n    - tcp://n2:1883\n    - ssl://n3:8883"} {
		cfg, err := ParseConfig("t.yaml", []byte(strings.Replace(goodConfig, " listen: \"127.0.0.1:1883\"", b, 1)))
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if got := cfg.MQTT.Broker.URLs(); strings.Join(got, " ") != strings.Join(want, " ") || cfg.MQTT.Listen != "" {
			t.Errorf("%s: got %q (listen %q), want %q", b, got, cfg.MQTT.Listen, want)
		}
	}
	cfg, err := ParseConfig("t.yaml", []byte(strings.Replace(goodConfig, " listen: \"127.0.0.1:1883\"", " broker: tcp://venue:1883", 1)))
	if err != nil || strings.Join(cfg.MQTT.Broker.URLs(), " ") != "tcp://venue:1883" {
		t.Errorf("one broker: %v %q", err, cfg.MQTT.Broker.URLs())
	}
}

func TestDecodeSectionStrict(t *testing.T) {
	cfg, err := ParseConfig("t.yaml", []byte(goodConfig+"  colour: red\n"))
	if err != nil {
		t.Fatal(err)
	}
	var section struct {
		Players []string `yaml:"players"`
	}
	err = cfg.DecodeSection("skirmish", &section)
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Line != 9 || !strings.Contains(err.Error(), `unknown key "colour"`) {
		t.Errorf("got %v, want t.yaml:9 unknown key colour", err)
	}
}

func TestTagRegistry(t *testing.T) {
	reg, err := ParseTags("tags.yaml", []byte(`tags:
  - {uid: "04:a1:b2:c3", kind: unit, id: ak}
  - {uid: "04112233445566", kind: unit, id: ak, label: second card}
`))
	if err != nil {
		t.Fatal(err)
	}
	if tag, ok := reg.Lookup("04A1B2C3"); !ok || tag.ID != "ak" {
		t.Errorf("Lookup: %+v %v", tag, ok)
	}
	if _, ok := reg.Lookup("DEADBEEF"); ok {
		t.Error("an unknown UID was found")
	}
	bad := map[string]string{
		"duplicate": "tags:\n  - {uid: 04A1B2C3, kind: unit, id: a}\n  - {uid: 04a1b2c3, kind: card, id: b}\n",
		"bad kind":  "tags:\n  - {uid: 04A1B2C3, kind: tank, id: a}\n",
		"no id":     "tags:\n  - {uid: 04A1B2C3, kind: unit}\n",
		"bad uid":   "tags:\n  - {uid: 04A1, kind: unit, id: a}\n",
		"extra key": "tags:\n  - {uid: 04A1B2C3, kind: unit, id: a}\nreaders: 3\n",
	}
	for name, data := range bad {
		_, err := ParseTags("tags.yaml", []byte(data))
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Line == 0 {
			t.Errorf("%s: got %v, want an error with a line", name, err)
		}
	}
}

func TestLoadConfigMissingFile(t *testing.T) {
	_, err := LoadConfig(filepath.Join(t.TempDir(), "none.yaml"))
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v", err)
	}
}

// Which games exist is the registry's to say: a config naming a game the
// binary does not play is refused with the games it does, at the game key.
func TestCheckGameAgainstTheRegistry(t *testing.T) {
	text := strings.Replace(strings.Replace(goodConfig, "game: skirmish", "game: tally", 1), "skirmish:\n  players: []\n", "", 1)
	cfg, err := ParseConfig("table.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if spec, err := cfg.CheckGame(tallyGames); err != nil || spec.ID != "tally" {
		t.Errorf("got %v, %v; want the tally spec", spec.ID, err)
	}
	_, err = cfg.CheckGame(Games{{ID: "skirmish"}, {ID: "bitwa-warszawska"}})
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Line != 3 || !strings.Contains(err.Error(), `game: "tally" is not a game this Sztab plays (skirmish, bitwa-warszawska)`) {
		t.Errorf("got %v, want the game line and the games played", err)
	}
}

// A game id misspelled beside its section is an unknown game, said at the
// game line with the games played, not an unknown key at the section; a
// known game beside another game's section is that section's unknown key.
func TestCheckGameNamesTheGameLine(t *testing.T) {
	played := Games{{ID: "skirmish"}, {ID: "bitwa-warszawska"}, {ID: "chess"}}
	for _, tc := range []struct {
		name, game, want string
		line             int
	}{
		{"misspelled game", "skirmsh", `companion: t.yaml:3: game: "skirmsh" is not a game this Sztab plays (skirmish, bitwa-warszawska, chess); the file's game section is "skirmish": is the game id misspelled?`, 3},
		{"another game's section", "chess", `companion: t.yaml:8: skirmish: unknown key "skirmish" (the only game section is the game's own, chess)`, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig("t.yaml", []byte(strings.Replace(goodConfig, "game: skirmish", "game: "+tc.game, 1)))
			if err != nil {
				t.Fatalf("ParseConfig: %v (which games exist is CheckGame's to say)", err)
			}
			_, err = cfg.CheckGame(played)
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Line != tc.line || err.Error() != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}

// NaN slips through range checks written with < and >: a NaN significance
// would never flag a loaded die. The fuzzer found both.
func TestConfigRefusesNaN(t *testing.T) {
	for _, tc := range []struct{ yaml, key string }{
		{"measure: {krok_mm: .nan}\n", "measure.krok_mm"},
		{"dice: {fairness: {significance: .nan}}\n", "dice.fairness.significance"},
		{"dice: {fairness: {significance: .inf}}\n", "dice.fairness.significance"},
	} {
		_, err := ParseConfig("table.yaml", []byte(goodConfig+tc.yaml))
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s: got %v, want an error at %s", strings.TrimSpace(tc.yaml), err, tc.key)
		}
	}
}

// What a journal keeps of the config is the game's part: its section and
// the krok, never a login, a password or an address.
func TestGameConfigKeepsTheGamesPartOnly(t *testing.T) {
	secret := goodConfig + "display:\n  referee: {user: sedzia, password: tajne-haslo}\n"
	for _, tc := range []struct {
		name, yaml string
		want       []string
	}{
		{"section and krok", strings.Replace(secret, "players: []", "players: [Ania, Bartek]", 1), []string{"skirmish:", "Ania", "krok_mm: 25.4"}},
		{"no section", strings.Replace(strings.Replace(secret, "skirmish:\n  players: []\n", "", 1), "game: skirmish", "game: tally", 1), []string{"krok_mm: 25.4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig("t.yaml", []byte(tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			kept, err := cfg.GameConfig()
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(kept), w) {
					t.Errorf("kept lacks %q:\n%s", w, kept)
				}
			}
			for _, no := range []string{"tajne-haslo", "sedzia", "127.0.0.1", "klub"} {
				if strings.Contains(string(kept), no) {
					t.Errorf("kept holds %q:\n%s", no, kept)
				}
			}
			back, err := ParseConfig("j.db", append([]byte("venue: v\ntable: t\ngame: "+cfg.Game+"\ntags: tags.yaml\n"), kept...))
			if err != nil || back.Measure.KrokMM != cfg.Measure.KrokMM {
				t.Errorf("kept does not read back: %v", err)
			}
		})
	}
}

// The display tokens of docs/screens.md's kiosk section, as written there,
// are a config the table takes.
func TestKioskDocsConfig(t *testing.T) {
	doc, err := os.ReadFile("../docs/screens.md")
	if err != nil {
		t.Fatal(err)
	}
	_, kiosk, ok := strings.Cut(string(doc), "\n## Kiosk\n")
	_, block, ok2 := strings.Cut(kiosk, "```yaml\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/screens.md: no yaml block under ## Kiosk")
	}
	cfg, err := ParseConfig("table.yaml", []byte(goodConfig+block))
	if err != nil {
		t.Fatalf("the kiosk example:\n%s\n%v", block, err)
	}
	if d := cfg.Display.Displays; len(d) != 2 || d[0].Name != "wall" || len(d[0].Token) < display.MinDisplayToken {
		t.Errorf("displays %+v: want the wall and the TV", d)
	}
}
