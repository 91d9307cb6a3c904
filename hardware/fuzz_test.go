package hardware

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/mfrc522/commands"

	"github.com/sztab/sztab/internal/fuzzseed"
	"github.com/sztab/sztab/internal/yamlsafe"
)

// The fuzz targets of what the hardware layer reads from outside: board
// profiles, the hardware section of a table config and layout files, tag
// UIDs as configs and scripts write them, and what a tag answers an NFC
// reader (its UID, cascade levels and memory).

var firmwareConfig = filepath.Join("..", "firmware-config")

// FuzzParseBoardProfile: a board profile parses or is refused. One
// accepted resolves every header pin, written either way, to its line and
// back; any pin name resolves to a line of the header or to an error.
func FuzzParseBoardProfile(f *testing.F) {
	for _, b := range fuzzseed.Files(f, filepath.Join(firmwareConfig, "boards", "*.yaml")) {
		f.Add(b, "GPIO17")
		f.Add(b, "p1_40")
	}
	for _, d := range fuzzseed.YAML("header") {
		f.Add(d, "P1_")
	}
	for _, n := range fuzzseed.Numbers {
		f.Add([]byte("name: x\nheader: {"+n+": GPIO1, 3: GPIO2}\nspi: {SPI0.0: {cs: GPIO1, pins: [GPIO2]}}\n"), "P1_"+n)
	}
	f.Fuzz(func(t *testing.T, data []byte, pin string) {
		b, err := ParseBoard("fuzz", data)
		if err != nil {
			if b != nil {
				t.Fatalf("a board and an error: %v", err)
			}
			return
		}
		for p, line := range b.Header {
			if got, err := b.Line(fmt.Sprintf("P1_%d", p)); err != nil || got != line {
				t.Fatalf("P1_%d resolves to %q, %v; want %q", p, got, err, line)
			}
			if got := b.HeaderPin(line); got != p {
				t.Fatalf("%s is on pin %d, HeaderPin says %d", line, p, got)
			}
			if got, err := b.Line(line); err == nil && got != line && strings.ToUpper(strings.TrimSpace(line)) == line {
				t.Fatalf("%s resolves to %q", line, got)
			}
		}
		if got, err := b.Line(pin); err == nil && b.HeaderPin(got) == 0 {
			t.Fatalf("%q resolves to %q, which is not on the header", pin, got)
		}
	})
}

// checkExpanded: a config Expand accepted expands again to itself, and
// its devices passed the checks the drivers rely on.
func checkExpanded(t *testing.T, c, x Config) {
	t.Helper()
	if x.BoardProfile() == nil {
		t.Fatalf("expanded without a board profile")
	}
	for _, list := range []any{c.Readers, c.Expanders, c.Keypads, c.LEDs, c.Displays} {
		seen := map[string]bool{}
		v := reflect.ValueOf(list)
		for i := 0; i < v.Len(); i++ {
			n := v.Index(i).FieldByName("Name").String()
			if seen[n] {
				t.Fatalf("two %s named %q, and Expand accepted them", v.Type().Elem().Name(), n)
			}
			seen[n] = true
		}
	}
	for _, r := range x.Readers {
		if r.Gain == nil || *r.Gain < 0 || *r.Gain > 7 || r.Poll <= 0 || r.Debounce < r.Poll {
			t.Fatalf("reader %s: %+v", r.Name, r)
		}
		if d := r.Data; d != nil {
			if k, err := hex.DecodeString(d.Key); err != nil || len(k) != 6 || d.Length < 1 || d.Length > 16 {
				t.Fatalf("reader %s: data %+v", r.Name, d)
			}
		}
	}
	for _, k := range x.Keypads {
		if k.Poll <= 0 || k.Debounce < k.Poll {
			t.Fatalf("keypad %s: poll %v, debounce %v", k.Name, k.Poll, k.Debounce)
		}
	}
	again, err := x.Expand()
	if err != nil {
		t.Fatalf("an expanded config does not expand again: %v", err)
	}
	if !reflect.DeepEqual(again, x) {
		t.Fatalf("expanding twice changes the config:\n got  %+v\n want %+v", again, x)
	}
}

// hardwareSeeds are the hardware sections and layouts in firmware-config.
func hardwareSeeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, table := range fuzzseed.Files(f, filepath.Join(firmwareConfig, "table.example.yaml"), filepath.Join(firmwareConfig, "demo", "skirmish.yaml")) {
		var doc struct {
			Hardware yaml.Node `yaml:"hardware"`
		}
		if err := yaml.Unmarshal(table, &doc); err != nil {
			f.Fatal(err)
		}
		section, err := yaml.Marshal(&doc.Hardware)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, section)
	}
	for _, l := range fuzzseed.Files(f, filepath.Join(firmwareConfig, "layouts", "*.yaml")) {
		out = append(out, l, append([]byte("board: rpi5\n"), l...))
	}
	return out
}

// hostileHardware are devices with numbers and names at the edges.
func hostileHardware() [][]byte {
	var out [][]byte
	for _, n := range fuzzseed.Numbers {
		out = append(out, []byte("board: rpi4\nreaders:\n  - {name: r, spi: SPI0.0, speed_hz: "+n+", gain: "+n+", poll: "+n+", data: {page: "+n+", block: "+n+", length: "+n+"}}\n"))
		out = append(out, []byte("board: rpi4\nexpanders: [{name: e, kind: mcp23017, bus: I2C1, address: "+n+"}]\nkeypads:\n  - {name: k, expander: e, keys: {\"1\": A0}, debounce: "+n+"}\n"))
		out = append(out, []byte("board: rpi4\ndisplays: [{name: d, kind: tm1637, clk: GPIO5, dio: GPIO6, digits: "+n+"}]\nleds: [{name: l, role: turn, seat: "+n+", pin: P1_"+n+"}]\n"))
	}
	out = append(out,
		[]byte("board: rpi4\nreaders:\n  - {name: a, spi: SPI0.0, cs: GPIO5}\n  - {name: a, spi: SPI0.0, cs: GPIO6}\n"),
		[]byte("board: rpi4\nlayout: layouts/bitwa-warszawska.yaml\nreaders:\n  - {name: x, spi: SPI1.0}\n  - {name: x, spi: SPI1.0}\n"),
		[]byte("board: /dev/null\n"),
		[]byte("board: boards/rpi4.yaml\nlayout: layouts/../layouts/mali-powstancy.yaml\n"),
		[]byte("board: rpi4\nreaders: [{name: r, spi: SPI0.0, data: {key: \"FFFFFFFFFFF\"}}]\n"),
	)
	return out
}

// FuzzHardwareConfig: the hardware section of a table config, decoded
// strictly as the table config decodes it (through internal/yamlsafe,
// which companion.ParseConfig does not use yet), expands (layout file merged,
// board profile loaded, defaults, checks) or is refused; one accepted has
// no two devices of a kind of one name and expands again to itself.
// Relative paths are read from firmware-config.
func FuzzHardwareConfig(f *testing.F) {
	for _, d := range hardwareSeeds(f) {
		f.Add(d)
	}
	for _, d := range hostileHardware() {
		f.Add(d)
	}
	for _, d := range fuzzseed.YAML("readers") {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Config
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := yamlsafe.Decode(dec, &c); err != nil {
			return
		}
		c.BaseDir = firmwareConfig
		x, err := c.Expand()
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("Expand's error is not a ConfigError naming the device: %v", err)
			}
			return
		}
		if !c.Real() {
			return
		}
		checkExpanded(t, c, x)
	})
}

// FuzzParseLayout: a layout file parses or is refused; one parsed expands
// like a hardware section or is refused naming the device.
func FuzzParseLayout(f *testing.F) {
	for _, l := range fuzzseed.Files(f, filepath.Join(firmwareConfig, "layouts", "*.yaml")) {
		f.Add(l)
	}
	for _, d := range hostileHardware() {
		f.Add(d)
	}
	for _, d := range fuzzseed.YAML("keypads") {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLayout("fuzz.yaml", data)
		if err != nil {
			return
		}
		if l.Layout != "" || l.Simulated != "" {
			t.Fatalf("a layout naming a layout or a script was accepted: %+v", l)
		}
		if !l.Real() {
			return
		}
		if l.Board == "" {
			l.Board = "rpi4"
		}
		l.BaseDir = firmwareConfig
		x, err := l.Expand()
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("Expand's error is not a ConfigError naming the device: %v", err)
			}
			return
		}
		checkExpanded(t, l, x)
	})
}

// FuzzNormalizeUID: a UID as a config or a script writes it normalises to
// 8, 14 or 20 upper-case hex digits, or is refused; normalising is
// idempotent and keeps the bytes.
func FuzzNormalizeUID(f *testing.F) {
	for _, s := range []string{"04A1B2C3", "04:a1:b2:c3", "04-11-22-33-44-55-66", "04 10 20 30 40 50 60 70 80 90", "", "0x04A1B2C3", "04A1B2C", "zzzzzzzz", "04A1B2C3\xff", "０４A1B2C3", strings.Repeat(":", 1<<16)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := NormalizeUID(s)
		if err != nil {
			return
		}
		b, err := hex.DecodeString(u)
		if err != nil || (len(b) != 4 && len(b) != 7 && len(b) != 10) || u != strings.ToUpper(u) {
			t.Fatalf("%q → %q: not 4, 7 or 10 bytes of upper-case hex", s, u)
		}
		if again, err := NormalizeUID(u); err != nil || again != u {
			t.Fatalf("%q → %q → %q, %v", s, u, again, err)
		}
	})
}

// tagPort is an MFRC522 on SPI whose tag answers what the fuzzer says:
// each exchange with a tag takes its answer from the input (see answer),
// an authentication takes one byte (even: accepted). Past the input's end
// the field is empty.
type tagPort struct {
	regs  [64]byte
	fifo  []byte
	level byte // what FIFOLevelReg reads, as the input gave it
	in    []byte
}

func (p *tagPort) String() string                                            { return "fuzz-mfrc522" }
func (p *tagPort) Close() error                                              { return nil }
func (p *tagPort) LimitSpeed(physic.Frequency) error                         { return nil }
func (p *tagPort) Connect(physic.Frequency, spi.Mode, int) (spi.Conn, error) { return p, nil }
func (p *tagPort) Duplex() conn.Duplex                                       { return conn.Full }
func (p *tagPort) TxPackets([]spi.Packet) error                              { return errors.New("fuzz: no packets") }

func (p *tagPort) next() (byte, bool) {
	if len(p.in) == 0 {
		return 0, false
	}
	b := p.in[0]
	p.in = p.in[1:]
	return b, true
}

func (p *tagPort) Tx(w, r []byte) error {
	if len(w) != 2 {
		return fmt.Errorf("fuzz: %d-byte transfer", len(w))
	}
	reg := int(w[0]>>1) & 0x3F
	if w[0]&0x80 != 0 {
		if len(r) != 2 {
			return fmt.Errorf("fuzz: read with a %d-byte buffer", len(r))
		}
		r[0], r[1] = 0, p.read(reg)
		return nil
	}
	clear(r)
	p.write(reg, w[1])
	return nil
}

func (p *tagPort) read(reg int) byte {
	switch reg {
	case commands.VersionReg:
		return 0x92
	case commands.FIFODataReg:
		if len(p.fifo) == 0 {
			return 0
		}
		b := p.fifo[0]
		p.fifo = p.fifo[1:]
		return b
	case commands.FIFOLevelReg:
		return p.level
	}
	return p.regs[reg]
}

func (p *tagPort) write(reg int, v byte) {
	switch reg {
	case commands.CommandReg:
		p.regs[reg] = v
		if v&0x0F == commands.PCD_AUTHENT {
			p.regs[commands.ErrorReg] = 0
			if b, ok := p.next(); ok && b%2 == 0 {
				p.regs[commands.Status2Reg] |= 0x08
				p.regs[commands.CommIrqReg] |= 0x10
			} else {
				p.regs[commands.CommIrqReg] |= 0x01
			}
		}
	case commands.CommIrqReg:
		if v&0x80 != 0 {
			p.regs[reg] |= v & 0x7F
		} else {
			p.regs[reg] &^= v & 0x7F
		}
	case commands.FIFODataReg:
		p.fifo = append(p.fifo, v)
	case commands.FIFOLevelReg:
		if v&0x80 != 0 {
			p.fifo, p.level = nil, 0
		}
	case commands.BitFramingReg:
		p.regs[reg] = v & 0x7F
		if v&0x80 != 0 && p.regs[commands.CommandReg]&0x0F == commands.PCD_TRANSCEIVE {
			p.answer()
		}
	default:
		p.regs[reg] = v
	}
}

// answer reads one answer from the input: a flags byte, then (unless
// silent or hung) an error register byte when flags&0x20, the FIFO level
// byte, and that many bytes (bit 7 of the level aside).
//
//	flags&0x80  silence: the chip's timer runs out
//	flags&0x40  the chip never finishes
//	flags&0x07  the valid bits of the last byte (ControlReg)
func (p *tagPort) answer() {
	p.fifo = nil
	p.regs[commands.ErrorReg] = 0
	p.regs[commands.ControlReg] = 0
	h, ok := p.next()
	switch {
	case !ok || h&0x80 != 0:
		p.regs[commands.CommIrqReg] |= 0x01
		return
	case h&0x40 != 0:
		return
	}
	if h&0x20 != 0 {
		p.regs[commands.ErrorReg], _ = p.next()
	}
	p.level, _ = p.next()
	for i := 0; i < int(p.level&0x7F) && len(p.in) > 0; i++ {
		b, _ := p.next()
		p.fifo = append(p.fifo, b)
	}
	p.regs[commands.ControlReg] = h & 0x07
	p.regs[commands.CommIrqReg] |= 0x30
}

// Encoding of a tag's answers for tagPort.
func ans(data ...byte) []byte { return append([]byte{0, byte(len(data))}, data...) }

var silent = []byte{0x80}

func bcc(part ...byte) []byte { return append(part, part[0]^part[1]^part[2]^part[3]) }

// conversation is what a tag with uid answers one look of the reader:
// ATQA, each cascade level's UID part and SAK, the memory when read
// (classic: after the authentication byte), silence to HLTA.
func conversation(uid []byte, classic, read bool, mem []byte) []byte {
	var parts [][]byte
	switch len(uid) {
	case 4:
		parts = [][]byte{uid}
	case 7:
		parts = [][]byte{append([]byte{cascadeCT}, uid[:3]...), uid[3:]}
	case 10:
		parts = [][]byte{append([]byte{cascadeCT}, uid[:3]...), append([]byte{cascadeCT}, uid[3:6]...), uid[6:]}
	}
	out := ans(0x44, 0x00)
	for i, part := range parts {
		out = append(out, ans(bcc(append([]byte(nil), part...)...)...)...)
		sak := byte(0x00)
		if classic {
			sak = 0x08
		}
		if i < len(parts)-1 {
			sak = 0x04
		}
		out = append(out, ans(appendCRC([]byte{sak})...)...)
	}
	if read {
		if classic {
			out = append(out, 0)
		}
		out = append(out, ans(appendCRC(append([]byte(nil), mem...))...)...)
	}
	return append(out, silent...)
}

// FuzzNFCTag: whatever a tag (or a garbled field) answers, a look at the
// field neither panics nor hangs: it finds a tag with a UID of 4, 7 or 10
// bytes and, when the reader reads memory, exactly the configured length
// of it; or nothing; or a fault with its reason. The tracker turns the
// looks into events with normalised UIDs. The first input byte sets the
// reader: bit 0 reads memory, bits 1–4 the length kept.
func FuzzNFCTag(f *testing.F) {
	mem := []byte("PILSUDSKI-J\x00\x00\x00\x00\x00")
	for _, uid := range [][]byte{uid4, uid7, uid10} {
		for _, classic := range []bool{true, false} {
			f.Add(append([]byte{0}, conversation(uid, classic, false, nil)...))
			f.Add(append([]byte{1 | 15<<1}, conversation(uid, classic, true, mem)...))
			f.Add(append([]byte{1 | 3<<1}, append(conversation(uid, classic, true, mem), conversation(uid, classic, true, mem)...)...))
		}
	}
	f.Add([]byte{0, 0x20, 0x08, 2, 0x44, 0x00})                      // collision at WUPA
	f.Add([]byte{0, 0x40})                                           // the chip hangs
	f.Add([]byte{0, 0, 0xFF})                                        // FIFO level past 64
	f.Add([]byte{1, 0, 2, 0x44, 0, 0, 5, 1, 2, 3, 4, 4, 5, 3, 0x08}) // a SAK without CRC
	f.Add(append([]byte{1}, conversation(uid4, true, true, mem[:3])...))
	f.Add([]byte{1, 0x04, 1, 0x04})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		cfg := ReaderConfig{Name: "fuzz"}
		if data[0]&1 != 0 {
			cfg.Data = &DataConfig{Length: 1 + int(data[0]>>1)%16}
		}
		port := &tagPort{in: data[1:]}
		clock := newFakeClock()
		r, err := NewNFCReader(cfg, port, nil, nil, clock, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		r.maxPolls = 8
		tr := tracker{reader: "fuzz", debounce: r.cfg.Debounce}
		ctx := context.Background()
		for look := 0; look < 8 && len(port.in) > 0; look++ {
			o := r.look(ctx, tr.holds)
			switch o.kind {
			case obsAbsent:
				if o.err != nil || o.uid != "" {
					t.Fatalf("absent with %q, %v", o.uid, o.err)
				}
			case obsTag:
				if u, err := NormalizeUID(o.uid); err != nil || u != o.uid {
					t.Fatalf("tag UID %q: %v", o.uid, err)
				}
				switch {
				case cfg.Data == nil && o.data != "":
					t.Fatalf("memory %q read without a data config", o.data)
				case cfg.Data != nil && tr.holds(o.uid) && o.data != "":
					t.Fatalf("memory %q read again for a tag held", o.data)
				case cfg.Data != nil && !tr.holds(o.uid) && len(o.data) != 2*cfg.Data.Length:
					t.Fatalf("memory %q read, want %d bytes", o.data, cfg.Data.Length)
				}
			default:
				if o.err == nil {
					t.Fatalf("observation %d without a reason", o.kind)
				}
			}
			for _, e := range tr.observe(clock.Now(), o) {
				if e.Fault == nil {
					if u, err := NormalizeUID(e.UID); err != nil || u != e.UID {
						t.Fatalf("event %+v: UID %v", e, err)
					}
				}
			}
			clock.Sleep(ctx, 100*time.Millisecond)
		}
	})
}
