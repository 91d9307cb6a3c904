package hardware

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

func parseHW(t *testing.T, text string) Config {
	t.Helper()
	var c Config
	dec := yaml.NewDecoder(strings.NewReader(text))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return c
}

func TestBoardsShipped(t *testing.T) {
	// firmware-config/boards holds copies of the built-in profiles for the
	// organisers; they must not drift.
	for _, name := range BoardNames() {
		embedded, _ := builtinBoards.ReadFile("boards/" + name + ".yaml")
		shipped, err := os.ReadFile(filepath.Join("..", "firmware-config", "boards", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(embedded, shipped) {
			t.Errorf("firmware-config/boards/%s.yaml differs from hardware/boards/%s.yaml", name, name)
		}
		b, err := LoadBoard(name, "")
		if err != nil {
			t.Fatal(err)
		}
		if got, err := b.Line("P1_11"); err != nil || got != "GPIO17" {
			t.Errorf("%s: P1_11 = %q, %v; want GPIO17", name, got, err)
		}
		if got, err := b.Line("gpio4"); err != nil || got != "GPIO4" {
			t.Errorf("%s: gpio4 = %q, %v; want GPIO4", name, got, err)
		}
		if _, err := b.Line("P1_6"); err == nil {
			t.Errorf("%s: P1_6 (ground) accepted as a GPIO line", name)
		}
	}
}

func TestLayoutsShipped(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "firmware-config", "layouts", "*.yaml"))
	if err != nil || len(files) < 5 {
		t.Fatalf("got %d layouts (%v), want one per game", len(files), err)
	}
	for _, f := range files {
		for _, board := range BoardNames() {
			t.Run(filepath.Base(f)+"/"+board, func(t *testing.T) {
				c := Config{Layout: filepath.Base(f), Board: board, BaseDir: filepath.Dir(f)}
				x, err := c.Expand()
				if err != nil {
					t.Fatal(err)
				}
				if len(x.Readers) == 0 {
					t.Errorf("no readers")
				}
			})
		}
	}
}

func TestConfigDefaultsAndMerge(t *testing.T) {
	dir := t.TempDir()
	layout := `
board: rpi5
readers:
  - {name: front-1, spi: SPI0.0, cs: GPIO22, reset: GPIO25}
  - {name: front-2, spi: SPI0.0, cs: GPIO23}
keypads:
  - {name: dice, keys: {"1": GPIO5, confirm: P1_31}}
`
	if err := os.WriteFile(filepath.Join(dir, "l.yaml"), []byte(layout), 0o644); err != nil {
		t.Fatal(err)
	}
	c := parseHW(t, `
layout: l.yaml
readers:
  - {name: front-2, spi: SPI0.0, cs: GPIO24, debounce: 500ms}
`)
	c.BaseDir = dir
	x, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	if x.BoardProfile().Name != "rpi5" {
		t.Errorf("board: got %s, want rpi5 from the layout", x.BoardProfile().Name)
	}
	if len(x.Readers) != 2 || x.Readers[1].CS != "GPIO24" || x.Readers[1].Debounce != 500*time.Millisecond {
		t.Errorf("readers: got %+v, want front-2 replaced by the table's", x.Readers)
	}
	r := x.Readers[0]
	if r.SpeedHz != 1_000_000 || r.Poll != 100*time.Millisecond || r.Debounce != 300*time.Millisecond || *r.Gain != 4 {
		t.Errorf("reader defaults: got %+v", r)
	}
	k := x.Keypads[0]
	if k.Pull != "up" || k.Debounce != 20*time.Millisecond || k.Poll != 5*time.Millisecond || k.LongPress != 0 {
		t.Errorf("keypad defaults: got %+v", k)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"no board", `readers: [{name: r1, spi: SPI0.0}]`, "board: no board profile named"},
		{"unknown board", `{board: rpi3, readers: [{name: r1, spi: SPI0.0}]}`, `board "rpi3" is not built in`},
		{"unknown port", `{board: rpi4, readers: [{name: front-1, spi: SPI3.0}]}`, `reader "front-1": spi "SPI3.0" is not a port of rpi4`},
		{"pin twice", `{board: rpi4, readers: [{name: r1, spi: SPI0.0, reset: GPIO25}], keypads: [{name: dice, keys: {"1": GPIO25}}]}`,
			`keypad "dice": key 1: GPIO25 is already used by reader "r1" reset`},
		{"button on the SPI bus", `{board: rpi4, readers: [{name: r1, spi: SPI0.0}], keypads: [{name: dice, keys: {"1": GPIO10}}]}`,
			`key 1: GPIO10 is already used by SPI0 bus`},
		{"button on I2C", `{board: rpi4, expanders: [{name: ex, kind: pcf8574, bus: I2C1, address: 0x27}], keypads: [{name: dice, keys: {"1": P1_3}}]}`,
			`GPIO2 is already used by I2C1 bus`},
		{"reserved", `{board: rpi4, leds: [{name: l, role: ready, pin: GPIO0}]}`, `GPIO0 is already used by the board (HAT EEPROM (ID_SD))`},
		{"shared port without cs", `{board: rpi4, readers: [{name: a, spi: SPI0.0, cs: GPIO22}, {name: b, spi: SPI0.0}]}`,
			`reader "b": shares SPI0.0 with 1 other readers, so it needs its own cs line`},
		{"port's own cs as cs", `{board: rpi4, readers: [{name: a, spi: SPI0.0, cs: GPIO8}]}`, `cs: GPIO8 is already used by SPI0.0 chip-select`},
		{"duplicate name", `{board: rpi4, readers: [{name: r1, spi: SPI0.0, cs: GPIO22}, {name: r1, spi: SPI0.0, cs: GPIO23}]}`,
			`reader "r1": there are two readers of that name`},
		{"bad name", `{board: rpi4, readers: [{name: Front 1, spi: SPI0.0}]}`, `reader "Front 1": the name must be`},
		{"debounce under poll", `{board: rpi4, readers: [{name: r1, spi: SPI0.0, poll: 200ms, debounce: 100ms}]}`, `debounce 100ms is shorter than poll 200ms`},
		{"gain", `{board: rpi4, readers: [{name: r1, spi: SPI0.0, gain: 9}]}`, `gain 9, want 0–7`},
		{"sector trailer", `{board: rpi4, readers: [{name: r1, spi: SPI0.0, data: {block: 7}}]}`, `data.block 7 is not a data block`},
		{"bad key", `{board: rpi4, readers: [{name: r1, spi: SPI0.0, data: {key: FFFF}}]}`, `data.key "FFFF" is not 12 hex digits`},
		{"expander pin", `{board: rpi4, expanders: [{name: ex, kind: mcp23017, bus: I2C1, address: 0x20}], keypads: [{name: dice, expander: ex, keys: {"1": C0}}]}`,
			`"C0" is not a pin of a mcp23017`},
		{"missing expander", `{board: rpi4, leds: [{name: l, role: ready, expander: ex, pin: A0}]}`, `expander "ex" is not listed`},
		{"expander address", `{board: rpi4, expanders: [{name: ex, kind: mcp23017, bus: I2C1, address: 0x50}]}`, `address 0x50`},
		{"two on one address", `{board: rpi4, expanders: [{name: ex, kind: mcp23017, bus: I2C1, address: 0x20}, {name: ey, kind: pcf8574, bus: I2C1, address: 0x20}]}`,
			`address 0x20 on I2C1 is already expander "ex"'s`},
		{"pull down on pcf", `{board: rpi4, expanders: [{name: ex, kind: pcf8574, bus: I2C1, address: 0x20}], keypads: [{name: k, expander: ex, pull: up, keys: {"1": P0}}]}`,
			`pull up is not available on a pcf8574`},
		{"long press", `{board: rpi4, keypads: [{name: k, long_press: 10ms, keys: {"1": GPIO5}}]}`, `long_press 10ms must be longer than the debounce`},
		{"led role", `{board: rpi4, leds: [{name: l, role: blink, pin: GPIO5}]}`, `role "blink"`},
		{"seat on ready", `{board: rpi4, leds: [{name: l, role: ready, seat: 2, pin: GPIO5}]}`, `only a turn LED has a seat`},
		{"display kind", `{board: rpi4, displays: [{name: d, kind: lcd}]}`, `kind "lcd", want tm1637 or ssd1306`},
		{"tm1637 lines", `{board: rpi4, displays: [{name: d, kind: tm1637, clk: GPIO5}]}`, `needs clk and dio`},
		{"ssd1306 address", `{board: rpi4, displays: [{name: d, kind: ssd1306, bus: I2C1, address: 0x3e}]}`, `address 0x3e`},
		{"bad pin", `{board: rpi4, buzzer: {pin: GPIO40}}`, `"GPIO40" is not a GPIO line on the header of rpi4`},
		{"ground pin", `{board: rpi4, buzzer: {pin: P1_6}}`, `header pin 6 of rpi4 is power or ground`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := parseHW(t, tt.yaml).Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "hardware: ") {
				t.Errorf("error %q does not start with the package", err)
			}
		})
	}
}

func TestConfigSimulatedOnly(t *testing.T) {
	c := parseHW(t, `simulated: demo.jsonl`)
	if c.Real() {
		t.Error("a simulated-only config has real devices")
	}
	if err := c.Validate(); err != nil {
		t.Errorf("got %v, want a simulated-only config valid without a board", err)
	}
}

func TestTableExampleShipped(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "firmware-config", "table.example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Hardware yaml.Node `yaml:"hardware"`
	}
	if err := yaml.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var c Config
	if err := f.Hardware.Decode(&c); err != nil {
		t.Fatal(err)
	}
	c.BaseDir = filepath.Join("..", "firmware-config")
	x, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	if x.Readers[0].Debounce != 400*time.Millisecond || len(x.Keypads) != 1 {
		t.Errorf("got %+v", x)
	}
}

func TestCheckKeysAgainstTheGamesVocabulary(t *testing.T) {
	var c Config
	if err := yaml.Unmarshal([]byte(`{board: rpi4, keypads: [{name: dice, keys: {"1": GPIO5, "discard": GPIO6}}]}`), &c); err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := c.CheckKeys([]string{"1", "discard", "next"}); err != nil {
		t.Errorf("keys of the game refused: %v", err)
	}
	err := c.CheckKeys([]string{"1", "next"})
	if err == nil || !strings.Contains(err.Error(), `keypad "dice": key "discard" is not a key of this game (1, next)`) {
		t.Errorf("got %v, want the unknown key named with the game's keys", err)
	}
}

// A layout or board profile that is not a small file (a device, a log) is
// refused, not read forever.
func TestHugeLayoutIsRefused(t *testing.T) {
	for _, c := range []Config{{Board: "rpi4", Layout: "/dev/zero"}, {Board: "/dev/zero", Buzzer: &BuzzerConfig{Pin: "GPIO18"}}} {
		_, err := c.Expand()
		if err == nil || !strings.Contains(err.Error(), "more than 1048576 bytes") {
			t.Errorf("%+v: got %v, want the size refused", c, err)
		}
	}
}
