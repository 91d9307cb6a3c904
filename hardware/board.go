package hardware

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/yamlsafe"
)

// Board is a board profile: which GPIO lines the header has, which SPI and
// I²C buses exist and which lines they take. Copies of the built-in
// profiles are in firmware-config/boards/.
type Board struct {
	Name  string `yaml:"name"`
	Title string `yaml:"title"`
	// Header maps a physical header pin (1–40) to its GPIO line ("GPIO17").
	Header map[int]string `yaml:"header"`
	// SPI maps a port ("SPI0.0") to its lines.
	SPI map[string]BusLines `yaml:"spi"`
	// I2C maps a bus ("I2C1") to its lines.
	I2C map[string]BusLines `yaml:"i2c"`
	// Reserved lines must not be used, with the reason.
	Reserved map[string]string `yaml:"reserved"`

	// pins maps a line to its header pin.
	pins map[string]int
}

// BusLines are the GPIO lines a bus or port takes.
type BusLines struct {
	// CS is an SPI port's own chip-select line.
	CS string `yaml:"cs"`
	// Pins are the bus lines shared by the ports of one bus (SPI: MISO,
	// MOSI, SCLK; I²C: SDA, SCL).
	Pins []string `yaml:"pins"`
	// Enable is the /boot/firmware/config.txt line that turns the bus on.
	Enable string `yaml:"enable"`
}

//go:embed boards/*.yaml
var builtinBoards embed.FS

// BoardNames are the built-in profiles.
func BoardNames() []string {
	entries, _ := builtinBoards.ReadDir("boards")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	return names
}

// LoadBoard returns a built-in profile by name ("rpi4", "rpi5") or reads a
// profile file; a relative path is read from dir.
func LoadBoard(nameOrPath, dir string) (*Board, error) {
	if nameOrPath == "" {
		return nil, fmt.Errorf("hardware: no board profile named (%s, or a profile file)", strings.Join(BoardNames(), ", "))
	}
	var data []byte
	var err error
	if !strings.ContainsAny(nameOrPath, `/\.`) {
		data, err = builtinBoards.ReadFile("boards/" + nameOrPath + ".yaml")
		if err != nil {
			return nil, fmt.Errorf("hardware: board %q is not built in (%s); name a profile file instead", nameOrPath, strings.Join(BoardNames(), ", "))
		}
	} else {
		p := nameOrPath
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		if data, err = readSmallFile(p); err != nil {
			return nil, fmt.Errorf("hardware: board profile: %w", err)
		}
	}
	return ParseBoard(nameOrPath, data)
}

// ParseBoard reads a board profile; name labels errors.
func ParseBoard(name string, data []byte) (*Board, error) {
	var b Board
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &b); err != nil {
		return nil, fmt.Errorf("hardware: board profile %s: %w", name, err)
	}
	if b.Name == "" || len(b.Header) == 0 {
		return nil, fmt.Errorf("hardware: board profile %s: needs a name and a header pin map", name)
	}
	lines := map[string]int{}
	for pin, line := range b.Header {
		if pin < 1 || pin > 40 {
			return nil, fmt.Errorf("hardware: board profile %s: header pin %d is not 1–40", name, pin)
		}
		if prev, dup := lines[line]; dup {
			return nil, fmt.Errorf("hardware: board profile %s: %s is on header pins %d and %d", name, line, prev, pin)
		}
		lines[line] = pin
	}
	b.pins = lines
	check := func(what, line string) error {
		if _, ok := lines[line]; !ok {
			return fmt.Errorf("hardware: board profile %s: %s uses %s, which is not on the header", name, what, line)
		}
		return nil
	}
	for port, l := range b.SPI {
		if l.CS == "" {
			return nil, fmt.Errorf("hardware: board profile %s: SPI port %s has no cs line", name, port)
		}
		for _, line := range append([]string{l.CS}, l.Pins...) {
			if err := check(port, line); err != nil {
				return nil, err
			}
		}
	}
	for bus, l := range b.I2C {
		for _, line := range l.Pins {
			if err := check(bus, line); err != nil {
				return nil, err
			}
		}
	}
	return &b, nil
}

// Line resolves a pin as a config writes it — "GPIO17", "gpio17", "P1_11"
// (header position) — to its GPIO line name.
func (b *Board) Line(pin string) (string, error) {
	p := strings.ToUpper(strings.TrimSpace(pin))
	if rest, ok := strings.CutPrefix(p, "P1_"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil {
			return "", fmt.Errorf("%q is not a header position like P1_11", pin)
		}
		line, ok := b.Header[n]
		if !ok {
			return "", fmt.Errorf("header pin %d of %s is power or ground, not a GPIO line", n, b.Name)
		}
		return line, nil
	}
	if _, ok := b.pins[p]; ok {
		return p, nil
	}
	return "", fmt.Errorf("%q is not a GPIO line on the header of %s (GPIO2–GPIO27 or P1_3–P1_40)", pin, b.Name)
}

// HeaderPin is the physical pin of a GPIO line, or 0.
func (b *Board) HeaderPin(line string) int { return b.pins[line] }

func (b *Board) spiPorts() string {
	var names []string
	for n := range b.SPI {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func (b *Board) i2cBuses() string {
	var names []string
	for n := range b.I2C {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// maxConfigFile bounds a board profile or layout file: a config naming
// /dev/zero (or a log file) is refused, not read forever.
const maxConfigFile = 1 << 20

func readSmallFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfigFile {
		return nil, fmt.Errorf("%s: more than %d bytes, not a board profile or layout", path, maxConfigFile)
	}
	return data, nil
}
