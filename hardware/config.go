package hardware

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/yamlsafe"
)

// Config is the hardware section of a table's configuration (the
// `hardware:` key). With only Simulated set the table runs on a script;
// with devices listed they are opened by name on the board (see Open). Both
// may be set: the script then plays beside the real devices.
//
//	hardware:
//	  board: rpi4
//	  layout: layouts/bitwa-warszawska.yaml
//	  readers:
//	    - {name: front-1, spi: SPI0.0, reset: GPIO25}
//	  keypads:
//	    - name: dice
//	      keys: {"1": GPIO5, "2": GPIO6, confirm: GPIO26}
type Config struct {
	// Simulated is a script for the simulated table (hardware/sim);
	// relative to the config file.
	Simulated string `yaml:"simulated"`
	// Board is the board profile: rpi4, rpi5, or a profile file.
	Board string `yaml:"board"`
	// Layout is a layout file (firmware-config/layouts/) whose devices
	// are added to the ones listed here; a device listed here replaces the
	// layout's device of the same name.
	Layout    string           `yaml:"layout"`
	Readers   []ReaderConfig   `yaml:"readers"`
	Expanders []ExpanderConfig `yaml:"expanders"`
	Keypads   []KeypadConfig   `yaml:"keypads"`
	LEDs      []LEDConfig      `yaml:"leds"`
	Buzzer    *BuzzerConfig    `yaml:"buzzer"`
	Displays  []DisplayConfig  `yaml:"displays"`

	// BaseDir anchors the relative paths of Board and Layout (the config
	// file's directory); empty is the working directory.
	BaseDir string `yaml:"-"`

	board *Board
}

// ReaderConfig is one MFRC522 NFC reader on SPI.
type ReaderConfig struct {
	// Name is what events call the reader ("front-1", "seat-3").
	Name string `yaml:"name"`
	// SPI is the port: SPI0.0, SPI0.1, SPI1.0 …
	SPI string `yaml:"spi"`
	// CS is a GPIO line used as this reader's chip-select, so several
	// readers can share one SPI port. Empty: the port's own chip-select.
	CS string `yaml:"cs"`
	// Reset is the line to the reader's RST pin. Empty: RST is tied high
	// and a reader that stops answering is only soft-reset.
	Reset string `yaml:"reset"`
	// IRQ is the line to the reader's IRQ pin. It is optional: the driver
	// polls the reader and only configures the line (input, pull-up).
	IRQ string `yaml:"irq"`
	// SpeedHz is the SPI clock, 1 MHz by default (long wires to a reader
	// at the edge of a table want it low); at most 10 MHz.
	SpeedHz int `yaml:"speed_hz"`
	// Poll is the time between two looks at the field; 100ms by default.
	Poll time.Duration `yaml:"poll"`
	// Debounce is how long a tag must stay out of the field before it is
	// reported removed; 300ms by default. A card lying on the reader is
	// one scan, however long it lies there.
	Debounce time.Duration `yaml:"debounce"`
	// Gain is the antenna gain, 0–7 (periph's scale); 4 by default.
	Gain *int `yaml:"gain"`
	// Data, when set, reads a block of the tag's memory on arrival (cards
	// that carry their identity in memory); it is in TagEvent.Data.
	Data *DataConfig `yaml:"data"`
	// Required makes Open fail when the reader's devices are missing;
	// otherwise the table runs without it.
	Required bool `yaml:"required"`
}

// DataConfig says what to read from a tag's memory.
type DataConfig struct {
	// Page is the first page read from an NTAG / MIFARE Ultralight tag
	// (4 pages, 16 bytes); 4 (start of user memory) by default.
	Page *int `yaml:"page"`
	// Block is the block read from a MIFARE Classic card (16 bytes); 4
	// (sector 1, block 0) by default. Sector trailers cannot be read.
	Block *int `yaml:"block"`
	// Key is the MIFARE Classic key A of that block's sector, 12 hex
	// digits; FFFFFFFFFFFF (the transport key) by default.
	Key string `yaml:"key"`
	// Length is how many of the 16 bytes to keep; 16 by default.
	Length int `yaml:"length"`
}

// ExpanderConfig is an I²C port expander whose pins keypads, LEDs and the
// buzzer may use when the Pi's own pins run out.
type ExpanderConfig struct {
	Name string `yaml:"name"`
	// Kind is mcp23017, mcp23008, pcf8574 or pcf8575.
	Kind string `yaml:"kind"`
	// Bus is the I²C bus: I2C1.
	Bus string `yaml:"bus"`
	// Address is the chip's address: 0x20–0x27 (PCF8574A: 0x38–0x3F).
	Address  uint16 `yaml:"address"`
	Required bool   `yaml:"required"`
}

// KeypadConfig is a dice keypad or a set of buttons.
type KeypadConfig struct {
	// Name is what events call the keypad ("dice", "seat-2").
	Name string `yaml:"name"`
	// Expander names the expander the key pins are on; empty: the Pi's
	// GPIO lines.
	Expander string `yaml:"expander"`
	// Keys maps a key ("1"–"6", confirm, undo, next, roll, cancel) to its
	// pin: GPIO5 / P1_29 on the Pi; A0–A7, B0–B7 on an MCP23017; P0–P7 on
	// a PCF8574.
	Keys map[string]string `yaml:"keys"`
	// ActiveHigh: a pressed key reads high (button to 3.3 V, pull-down).
	// By default a pressed key reads low (button to ground, pull-up).
	ActiveHigh bool `yaml:"active_high"`
	// Pull is up, down or none; by default up when active low and down
	// when active high. Expanders have pull-ups only (MCP23017) or none.
	Pull string `yaml:"pull"`
	// Debounce is how long a level must hold to count; 20ms by default.
	Debounce time.Duration `yaml:"debounce"`
	// LongPress, when set, makes a key held that long a long press
	// (KeyEvent.Long); short presses are then reported on release. Zero
	// (the default): every press is reported at once.
	LongPress time.Duration `yaml:"long_press"`
	// Poll is the time between two readings of the keys; 5ms on GPIO and
	// 10ms on an expander by default.
	Poll     time.Duration `yaml:"poll"`
	Required bool          `yaml:"required"`
}

// LEDConfig is a status LED.
type LEDConfig struct {
	Name string `yaml:"name"`
	// Role is ready (the table is ready), turn (a player's turn: the seat's
	// turn when Seat is set, anyone's otherwise) or illegal (blinks when an
	// action is refused).
	Role string `yaml:"role"`
	Seat int    `yaml:"seat"`
	// Pin is a GPIO line, or a pin of Expander.
	Pin      string `yaml:"pin"`
	Expander string `yaml:"expander"`
	// ActiveLow: the LED lights when the pin is low.
	ActiveLow bool `yaml:"active_low"`
}

// BuzzerConfig is an active buzzer (it sounds while its pin is on).
type BuzzerConfig struct {
	Pin       string `yaml:"pin"`
	Expander  string `yaml:"expander"`
	ActiveLow bool   `yaml:"active_low"`
	// Beep is how long the buzzer sounds for a refused action; 150ms by
	// default.
	Beep time.Duration `yaml:"beep"`
}

// DisplayConfig is a small local score display.
type DisplayConfig struct {
	Name string `yaml:"name"`
	// Kind is tm1637 (4-digit 7-segment, two GPIO lines) or ssd1306
	// (128×64 or 128×32 OLED on I²C).
	Kind string `yaml:"kind"`
	// CLK and DIO are the TM1637's lines.
	CLK string `yaml:"clk"`
	DIO string `yaml:"dio"`
	// Digits is the TM1637's width, 4 by default (6 for the long modules).
	Digits int `yaml:"digits"`
	// Bus and Address are the SSD1306's (I2C1, 0x3C by default).
	Bus     string `yaml:"bus"`
	Address uint16 `yaml:"address"`
	// Width and Height in pixels; 128×64 by default.
	Width  int `yaml:"width"`
	Height int `yaml:"height"`
	// Flip turns the picture by 180° (a display mounted upside down).
	Flip     bool `yaml:"flip"`
	Required bool `yaml:"required"`
}

// ConfigError is a bad hardware configuration: which device (or key), what.
type ConfigError struct {
	// Device is the device or key concerned: `reader "front-1"`, `board`.
	Device string
	Msg    string
}

func (e *ConfigError) Error() string { return "hardware: " + e.Device + ": " + e.Msg }

func cfgErr(device, format string, args ...any) error {
	return &ConfigError{Device: device, Msg: fmt.Sprintf(format, args...)}
}

var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// Real reports whether the config lists devices to open (or a layout).
func (c Config) Real() bool {
	return c.Layout != "" || len(c.Readers)+len(c.Keypads)+len(c.LEDs)+len(c.Displays)+len(c.Expanders) > 0 || c.Buzzer != nil
}

// Expand merges the layout file into the config, loads the board profile,
// fills in defaults and checks everything; errors name the device. A config
// without devices expands to itself.
func (c Config) Expand() (Config, error) {
	if !c.Real() {
		return c, nil
	}
	if c.Layout != "" {
		p := c.Layout
		if !filepath.IsAbs(p) && c.BaseDir != "" {
			p = filepath.Join(c.BaseDir, p)
		}
		data, err := readSmallFile(p)
		if err != nil {
			return c, cfgErr("layout", "%v", err)
		}
		l, err := ParseLayout(p, data)
		if err != nil {
			return c, err
		}
		c = merge(l, c)
	}
	b, err := LoadBoard(c.Board, c.BaseDir)
	if err != nil {
		return c, cfgErr("board", "%s", strings.TrimPrefix(err.Error(), "hardware: "))
	}
	c.board = b
	c.defaults()
	if err := c.check(); err != nil {
		return c, err
	}
	return c, nil
}

// Validate is Expand without the result.
func (c Config) Validate() error {
	_, err := c.Expand()
	return err
}

// BoardProfile is the profile of an expanded config.
func (c Config) BoardProfile() *Board { return c.board }

// ParseLayout reads a layout file: the same keys as the hardware section
// (board, readers, keypads …), at the top level.
func ParseLayout(path string, data []byte) (Config, error) {
	var l Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &l); err != nil {
		return l, cfgErr("layout "+path, "%v", err)
	}
	if l.Layout != "" || l.Simulated != "" {
		return l, cfgErr("layout "+path, "a layout lists devices; layout and simulated belong in the table config")
	}
	return l, nil
}

// merge lays c over the layout l: c's scalars win, c's devices replace the
// layout's of the same name and the rest are appended.
func merge(l, c Config) Config {
	out := c
	if out.Board == "" {
		out.Board = l.Board
	}
	if out.Buzzer == nil {
		out.Buzzer = l.Buzzer
	}
	out.Readers = mergeByName(l.Readers, c.Readers, func(r ReaderConfig) string { return r.Name })
	out.Expanders = mergeByName(l.Expanders, c.Expanders, func(r ExpanderConfig) string { return r.Name })
	out.Keypads = mergeByName(l.Keypads, c.Keypads, func(r KeypadConfig) string { return r.Name })
	out.LEDs = mergeByName(l.LEDs, c.LEDs, func(r LEDConfig) string { return r.Name })
	out.Displays = mergeByName(l.Displays, c.Displays, func(r DisplayConfig) string { return r.Name })
	return out
}

// mergeByName replaces each device of base by the first device of over
// of the same name and appends the rest of over, so that two devices of
// one name in either list stay two, for check to refuse.
func mergeByName[T any](base, over []T, name func(T) string) []T {
	out := slices.Clone(base)
	replaced := make([]bool, len(base))
	for _, o := range over {
		i := slices.IndexFunc(base, func(b T) bool { return name(b) == name(o) })
		if i >= 0 && !replaced[i] {
			out[i], replaced[i] = o, true
		} else {
			out = append(out, o)
		}
	}
	return out
}

func (c *Config) defaults() {
	for i := range c.Readers {
		r := &c.Readers[i]
		if r.SpeedHz == 0 {
			r.SpeedHz = 1_000_000
		}
		if r.Poll == 0 {
			r.Poll = 100 * time.Millisecond
		}
		if r.Debounce == 0 {
			r.Debounce = 300 * time.Millisecond
		}
		if r.Gain == nil {
			g := 4
			r.Gain = &g
		}
		if d := r.Data; d != nil {
			if d.Page == nil {
				p := 4
				d.Page = &p
			}
			if d.Block == nil {
				b := 4
				d.Block = &b
			}
			if d.Key == "" {
				d.Key = "FFFFFFFFFFFF"
			}
			if d.Length == 0 {
				d.Length = 16
			}
		}
	}
	for i := range c.Keypads {
		k := &c.Keypads[i]
		if k.Pull == "" {
			switch {
			case k.ActiveHigh && k.Expander == "":
				k.Pull = "down"
			case k.ActiveHigh:
				k.Pull = "none"
			default:
				k.Pull = "up"
			}
			if k.Expander != "" && !k.ActiveHigh && c.expanderKind(k.Expander) != "mcp23017" && c.expanderKind(k.Expander) != "mcp23008" {
				k.Pull = "none" // PCF857x pins are weakly pulled up by the chip itself
			}
		}
		if k.Debounce == 0 {
			k.Debounce = 20 * time.Millisecond
		}
		if k.Poll == 0 {
			k.Poll = 5 * time.Millisecond
			if k.Expander != "" {
				k.Poll = 10 * time.Millisecond
			}
		}
	}
	if c.Buzzer != nil && c.Buzzer.Beep == 0 {
		c.Buzzer.Beep = 150 * time.Millisecond
	}
	for i := range c.Displays {
		d := &c.Displays[i]
		switch d.Kind {
		case "tm1637":
			if d.Digits == 0 {
				d.Digits = 4
			}
		case "ssd1306":
			if d.Address == 0 {
				d.Address = 0x3C
			}
			if d.Width == 0 {
				d.Width = 128
			}
			if d.Height == 0 {
				d.Height = 64
			}
		}
	}
}

func (c *Config) expanderKind(name string) string {
	for _, e := range c.Expanders {
		if e.Name == name {
			return e.Kind
		}
	}
	return ""
}

// expanderPins are the pin names each expander kind has.
var expanderPins = map[string][]string{
	"mcp23017": pinNames("A", 8, "B", 8),
	"mcp23008": pinNames("A", 8),
	"pcf8574":  pinNames("P", 8),
	"pcf8575":  append(pinNames("P", 8), pinNames("P1", 8)...),
}

func pinNames(groups ...any) []string {
	var out []string
	for i := 0; i+1 < len(groups); i += 2 {
		for n := 0; n < groups[i+1].(int); n++ {
			out = append(out, fmt.Sprintf("%s%d", groups[i].(string), n))
		}
	}
	return out
}

// pinOwners notes which device uses which line, to catch a line used twice.
type pinOwners map[string]string

func (o pinOwners) take(line, owner string, shared bool) error {
	if prev, ok := o[line]; ok && !(shared && prev == owner) {
		return fmt.Errorf("%s is already used by %s", line, prev)
	}
	o[line] = owner
	return nil
}

func (c *Config) check() error {
	b := c.board
	owners := pinOwners{}
	for line, why := range b.Reserved {
		owners[line] = "the board (" + why + ")"
	}
	names := map[string]string{}
	name := func(kind, n string) error {
		if !namePattern.MatchString(n) {
			return cfgErr(fmt.Sprintf("%s %q", kind, n), "the name must be lower-case letters, digits, - and _ (up to 32)")
		}
		if names[kind+" "+n] != "" {
			return cfgErr(fmt.Sprintf("%s %q", kind, n), "there are two %ss of that name", kind)
		}
		names[kind+" "+n] = kind
		return nil
	}
	line := func(dev, what, pin string) (string, error) {
		l, err := b.Line(pin)
		if err != nil {
			return "", cfgErr(dev, "%s: %v", what, err)
		}
		if err := owners.take(l, dev+" "+what, false); err != nil {
			return "", cfgErr(dev, "%s: %v", what, err)
		}
		return l, nil
	}
	useSPI := func(dev, port string) error {
		l, ok := b.SPI[port]
		if !ok {
			return cfgErr(dev, "spi %q is not a port of %s (%s)", port, b.Name, b.spiPorts())
		}
		bus, _, _ := strings.Cut(port, ".")
		for _, p := range l.Pins {
			if err := owners.take(p, bus+" bus", true); err != nil {
				return cfgErr(dev, "spi %s: bus line %v", port, err)
			}
		}
		if err := owners.take(l.CS, port+" chip-select", true); err != nil {
			return cfgErr(dev, "spi %s: chip-select %v", port, err)
		}
		return nil
	}
	useI2C := func(dev, bus string) error {
		l, ok := b.I2C[bus]
		if !ok {
			return cfgErr(dev, "bus %q is not an I²C bus of %s (%s)", bus, b.Name, b.i2cBuses())
		}
		for _, p := range l.Pins {
			if err := owners.take(p, bus+" bus", true); err != nil {
				return cfgErr(dev, "bus %s: line %v", bus, err)
			}
		}
		return nil
	}

	// Buses first, so a button on an SPI or I²C line is caught whichever
	// order the devices are listed in.
	for _, r := range c.Readers {
		dev := fmt.Sprintf("reader %q", r.Name)
		if r.SPI == "" {
			return cfgErr(dev, "no spi port (SPI0.0, SPI0.1 …)")
		}
		if err := useSPI(dev, r.SPI); err != nil {
			return err
		}
	}
	i2cAddr := map[string]string{}
	claimAddr := func(dev, bus string, addr uint16) error {
		k := fmt.Sprintf("%s@%#02x", bus, addr)
		if prev, dup := i2cAddr[k]; dup {
			return cfgErr(dev, "address %#02x on %s is already %s's", addr, bus, prev)
		}
		i2cAddr[k] = dev
		return nil
	}
	expanders := map[string]ExpanderConfig{}
	for _, e := range c.Expanders {
		dev := fmt.Sprintf("expander %q", e.Name)
		if err := name("expander", e.Name); err != nil {
			return err
		}
		if _, ok := expanderPins[e.Kind]; !ok {
			return cfgErr(dev, "kind %q, want mcp23017, mcp23008, pcf8574 or pcf8575", e.Kind)
		}
		if err := useI2C(dev, e.Bus); err != nil {
			return err
		}
		lo, hi := uint16(0x20), uint16(0x27)
		if strings.HasPrefix(e.Kind, "pcf") && e.Address >= 0x38 {
			lo, hi = 0x38, 0x3F // PCF8574A
		}
		if e.Address < lo || e.Address > hi {
			return cfgErr(dev, "address %#02x, want 0x20–0x27 (PCF8574A: 0x38–0x3F)", e.Address)
		}
		if err := claimAddr(dev, e.Bus, e.Address); err != nil {
			return err
		}
		expanders[e.Name] = e
	}
	pin := func(dev, what, expander, p string) error {
		if expander == "" {
			_, err := line(dev, what, p)
			return err
		}
		e, ok := expanders[expander]
		if !ok {
			return cfgErr(dev, "expander %q is not listed under expanders", expander)
		}
		up := strings.ToUpper(p)
		if !slices.Contains(expanderPins[e.Kind], up) {
			return cfgErr(dev, "%s: %q is not a pin of a %s (%s…)", what, p, e.Kind, strings.Join(expanderPins[e.Kind][:4], ", "))
		}
		if err := owners.take(expander+":"+up, dev+" "+what, false); err != nil {
			return cfgErr(dev, "%s: %v", what, err)
		}
		return nil
	}

	perPort := map[string][]ReaderConfig{}
	for _, r := range c.Readers {
		dev := fmt.Sprintf("reader %q", r.Name)
		if err := name("reader", r.Name); err != nil {
			return err
		}
		perPort[r.SPI] = append(perPort[r.SPI], r)
		for _, p := range []struct{ what, pin string }{{"cs", r.CS}, {"reset", r.Reset}, {"irq", r.IRQ}} {
			if p.pin == "" {
				continue
			}
			if _, err := line(dev, p.what, p.pin); err != nil {
				return err
			}
		}
		if r.SpeedHz < 100_000 || r.SpeedHz > 10_000_000 {
			return cfgErr(dev, "speed_hz %d, want 100000–10000000 (the MFRC522 runs up to 10 MHz)", r.SpeedHz)
		}
		if r.Poll < 10*time.Millisecond || r.Poll > 5*time.Second {
			return cfgErr(dev, "poll %v, want 10ms–5s", r.Poll)
		}
		if r.Debounce < r.Poll {
			return cfgErr(dev, "debounce %v is shorter than poll %v: a tag would be removed between two looks", r.Debounce, r.Poll)
		}
		if *r.Gain < 0 || *r.Gain > 7 {
			return cfgErr(dev, "gain %d, want 0–7", *r.Gain)
		}
		if d := r.Data; d != nil {
			if *d.Page < 0 || *d.Page > 255 {
				return cfgErr(dev, "data.page %d, want 0–255", *d.Page)
			}
			if *d.Block < 0 || *d.Block > 255 || (*d.Block < 128 && *d.Block%4 == 3) || (*d.Block >= 128 && *d.Block%16 == 15) {
				return cfgErr(dev, "data.block %d is not a data block (0–255, not a sector trailer)", *d.Block)
			}
			if k, err := hex.DecodeString(d.Key); err != nil || len(k) != 6 {
				return cfgErr(dev, "data.key %q is not 12 hex digits", d.Key)
			}
			if d.Length < 1 || d.Length > 16 {
				return cfgErr(dev, "data.length %d, want 1–16", d.Length)
			}
		}
	}
	ports := make([]string, 0, len(perPort))
	for p := range perPort {
		ports = append(ports, p)
	}
	sort.Strings(ports)
	for _, p := range ports {
		rs := perPort[p]
		if len(rs) < 2 {
			continue
		}
		for _, r := range rs {
			if r.CS == "" {
				return cfgErr(fmt.Sprintf("reader %q", r.Name), "shares %s with %d other readers, so it needs its own cs line", p, len(rs)-1)
			}
		}
		if rs[0].SpeedHz != rs[1].SpeedHz {
			for _, r := range rs[1:] {
				if r.SpeedHz != rs[0].SpeedHz {
					return cfgErr(fmt.Sprintf("reader %q", r.Name), "speed_hz %d differs from reader %q's %d on the same port %s", r.SpeedHz, rs[0].Name, rs[0].SpeedHz, p)
				}
			}
		}
	}

	for _, k := range c.Keypads {
		dev := fmt.Sprintf("keypad %q", k.Name)
		if err := name("keypad", k.Name); err != nil {
			return err
		}
		if len(k.Keys) == 0 {
			return cfgErr(dev, "no keys")
		}
		for _, key := range sortedKeys(k.Keys) {
			if err := pin(dev, "key "+key, k.Expander, k.Keys[key]); err != nil {
				return err
			}
		}
		switch k.Pull {
		case "up", "down", "none":
		default:
			return cfgErr(dev, "pull %q, want up, down or none", k.Pull)
		}
		if k.Expander != "" {
			kind := expanders[k.Expander].Kind
			if k.Pull == "down" || (k.Pull == "up" && !strings.HasPrefix(kind, "mcp")) {
				return cfgErr(dev, "pull %s is not available on a %s (MCP230xx: up or none; PCF857x: none)", k.Pull, kind)
			}
		}
		if k.Debounce < time.Millisecond || k.Debounce > time.Second {
			return cfgErr(dev, "debounce %v, want 1ms–1s", k.Debounce)
		}
		if k.Poll < time.Millisecond || k.Poll > k.Debounce {
			return cfgErr(dev, "poll %v, want 1ms up to the debounce (%v)", k.Poll, k.Debounce)
		}
		if k.LongPress < 0 || (k.LongPress > 0 && k.LongPress <= k.Debounce) {
			return cfgErr(dev, "long_press %v must be longer than the debounce %v (or 0: off)", k.LongPress, k.Debounce)
		}
	}
	for _, l := range c.LEDs {
		dev := fmt.Sprintf("led %q", l.Name)
		if err := name("led", l.Name); err != nil {
			return err
		}
		switch l.Role {
		case "ready", "turn", "illegal":
		default:
			return cfgErr(dev, "role %q, want ready, turn or illegal", l.Role)
		}
		if l.Seat < 0 || (l.Seat > 0 && l.Role != "turn") {
			return cfgErr(dev, "seat %d: only a turn LED has a seat (1, 2 …)", l.Seat)
		}
		if l.Pin == "" {
			return cfgErr(dev, "no pin")
		}
		if err := pin(dev, "pin", l.Expander, l.Pin); err != nil {
			return err
		}
	}
	if z := c.Buzzer; z != nil {
		if z.Pin == "" {
			return cfgErr("buzzer", "no pin")
		}
		if err := pin("buzzer", "pin", z.Expander, z.Pin); err != nil {
			return err
		}
		if z.Beep < 10*time.Millisecond || z.Beep > 5*time.Second {
			return cfgErr("buzzer", "beep %v, want 10ms–5s", z.Beep)
		}
	}
	for _, d := range c.Displays {
		dev := fmt.Sprintf("display %q", d.Name)
		if err := name("display", d.Name); err != nil {
			return err
		}
		switch d.Kind {
		case "tm1637":
			if d.CLK == "" || d.DIO == "" {
				return cfgErr(dev, "a tm1637 needs clk and dio lines")
			}
			if _, err := line(dev, "clk", d.CLK); err != nil {
				return err
			}
			if _, err := line(dev, "dio", d.DIO); err != nil {
				return err
			}
			if d.Digits < 1 || d.Digits > 6 {
				return cfgErr(dev, "digits %d, want 1–6", d.Digits)
			}
		case "ssd1306":
			if d.Bus == "" {
				return cfgErr(dev, "an ssd1306 needs its I²C bus (I2C1)")
			}
			if err := useI2C(dev, d.Bus); err != nil {
				return err
			}
			if d.Address != 0x3C && d.Address != 0x3D {
				return cfgErr(dev, "address %#02x, want 0x3c or 0x3d", d.Address)
			}
			if err := claimAddr(dev, d.Bus, d.Address); err != nil {
				return err
			}
			if d.Width != 128 && d.Width != 96 && d.Width != 64 {
				return cfgErr(dev, "width %d, want 128, 96 or 64", d.Width)
			}
			if d.Height != 64 && d.Height != 32 && d.Height != 16 {
				return cfgErr(dev, "height %d, want 64, 32 or 16", d.Height)
			}
		default:
			return cfgErr(dev, "kind %q, want tm1637 or ssd1306", d.Kind)
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CheckKeys checks that every keypad key, the layout's included, is a
// command of the game in play (its vocabulary's table keys).
func (c Config) CheckKeys(names []string) error {
	x, err := c.Expand()
	if err != nil {
		return err
	}
	for _, k := range x.Keypads {
		for _, key := range sortedKeys(k.Keys) {
			if !slices.Contains(names, key) {
				return cfgErr(fmt.Sprintf("keypad %q", k.Name), "key %q is not a key of this game (%s)", key, strings.Join(names, ", "))
			}
		}
	}
	return nil
}
