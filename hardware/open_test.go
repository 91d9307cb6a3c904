package hardware

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
	"periph.io/x/devices/v3/mfrc522/commands"
)

// fakeRegistry hands out test pins and fake buses by name; anything else
// is missing.
type fakeRegistry struct {
	pins map[string]*testPin
	spi  map[string]spi.PortCloser
	i2c  map[string]i2c.BusCloser
}

func (r *fakeRegistry) Pin(name string) gpio.PinIO {
	if p, ok := r.pins[name]; ok {
		return p
	}
	return nil
}

func (r *fakeRegistry) SPI(name string) (spi.PortCloser, error) {
	if p, ok := r.spi[name]; ok {
		return p, nil
	}
	return nil, errors.New("spireg: can't open unknown port: \"" + name + "\"")
}

func (r *fakeRegistry) I2C(name string) (i2c.BusCloser, error) {
	if b, ok := r.i2c[name]; ok {
		return b, nil
	}
	return nil, errors.New("i2creg: can't open unknown bus: \"" + name + "\"")
}

func pins(names ...string) map[string]*testPin {
	m := map[string]*testPin{}
	for _, n := range names {
		m[n] = newTestPin(n)
	}
	return m
}

type closingRecord struct{ *i2ctest.Record }

func (closingRecord) Close() error { return nil }

func TestOpenReportsMissingDevicesByName(t *testing.T) {
	reg := &fakeRegistry{
		pins: pins("GPIO25", "GPIO5", "GPIO6", "GPIO22"),
		spi:  map[string]spi.PortCloser{"SPI0.0": &spitest.Record{Port: &emuPort{newEmuChip()}}},
	}
	c := parseHW(t, `
board: rpi4
readers:
  - {name: front-1, spi: SPI0.0, reset: GPIO25}
  - {name: front-2, spi: SPI0.1}
keypads:
  - {name: dice, keys: {"1": GPIO5, "2": GPIO6}}
leds:
  - {name: ready, role: ready, pin: GPIO22}
displays:
  - {name: round, kind: tm1637, clk: GPIO12, dio: GPIO16}
  - {name: score, kind: ssd1306, bus: I2C1}
`)
	d, err := OpenWith(c, reg, newFakeClock(), quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := len(d.Readers()); got != 1 {
		t.Errorf("got %d readers, want 1", got)
	}
	if got := len(d.Keypads()); got != 1 {
		t.Errorf("got %d keypads, want 1", got)
	}
	var got []string
	for _, m := range d.Missing() {
		got = append(got, m.String())
	}
	want := []string{
		`reader front-2: SPI port SPI0.1 not found (is SPI on? dtparam=spi=on): spireg: can't open unknown port: "SPI0.1"`,
		`display round: clk: GPIO line GPIO12 (header pin 32) not found`,
		`display score: I²C bus I2C1 not found (is it on? dtparam=i2c_arm=on): i2creg: can't open unknown bus: "I2C1"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("missing:\ngot  %q\nwant %q", got, want)
	}
	if p := reg.pins["GPIO5"]; p.P != gpio.PullUp {
		t.Errorf("key pin pull: got %v, want PullUp", p.P)
	}
	if err := d.Outputs().Status(Status{Ready: true}); err != nil || reg.pins["GPIO22"].Read() != gpio.High {
		t.Errorf("ready LED: err %v, level %v", err, reg.pins["GPIO22"].Read())
	}
	if err := d.Outputs().Score("round", "1"); err == nil || !strings.Contains(err.Error(), `no display named "round"`) {
		t.Errorf("Score on a missing display: got %v", err)
	}
}

func TestOpenFailsOnRequiredDevice(t *testing.T) {
	c := parseHW(t, `{board: rpi5, readers: [{name: front-1, spi: SPI0.0, required: true}]}`)
	_, err := OpenWith(c, &fakeRegistry{}, newFakeClock(), quiet)
	if err == nil || !strings.Contains(err.Error(), "required devices missing: reader front-1: SPI port SPI0.0 not found") {
		t.Errorf("got %v, want the required reader named", err)
	}
}

func TestOpenBadConfig(t *testing.T) {
	c := parseHW(t, `{board: rpi4, readers: [{name: r1, spi: SPI9.9}]}`)
	if _, err := OpenWith(c, &fakeRegistry{}, nil, quiet); err == nil || !strings.Contains(err.Error(), `reader "r1": spi "SPI9.9"`) {
		t.Errorf("got %v, want the config error", err)
	}
}

func TestOpenSharedPortChipSelects(t *testing.T) {
	rec := &spitest.Record{Port: &emuPort{newEmuChip()}}
	reg := &fakeRegistry{pins: pins("GPIO22", "GPIO23"), spi: map[string]spi.PortCloser{"SPI0.0": rec}}
	c := parseHW(t, `
board: rpi4
readers:
  - {name: seat-1, spi: SPI0.0, cs: GPIO22}
  - {name: seat-2, spi: SPI0.0, cs: GPIO23, speed_hz: 1000000}
`)
	d, err := OpenWith(c, reg, newFakeClock(), quiet)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Missing()) != 0 || len(d.readers) != 2 {
		t.Fatalf("missing %v, %d readers", d.Missing(), len(d.readers))
	}
	cs1, cs2 := reg.pins["GPIO22"], reg.pins["GPIO23"]
	cs1.written()
	cs2.written()
	v, err := d.readers[1].ll.DevRead(commands.VersionReg)
	if err != nil || v != 0x92 {
		t.Fatalf("version through seat-2: %#x, %v", v, err)
	}
	if got := cs2.written(); !reflect.DeepEqual(got, []gpio.Level{gpio.Low, gpio.High}) {
		t.Errorf("seat-2 chip-select: got %v, want [Low High] around the transfer", got)
	}
	if got := cs1.written(); len(got) != 0 {
		t.Errorf("seat-1 chip-select moved: %v", got)
	}
	if len(rec.Ops) != 1 {
		t.Errorf("got %d transfers on the shared port, want 1", len(rec.Ops))
	}
}

func TestOpenExpanderDevices(t *testing.T) {
	const a = 0x20
	rd := func(reg, v byte) i2ctest.IO { return i2ctest.IO{Addr: a, W: []byte{reg}, R: []byte{v}} }
	wr := func(reg, v byte) i2ctest.IO { return i2ctest.IO{Addr: a, W: []byte{reg, v}} }
	bus := &i2ctest.Playback{Ops: []i2ctest.IO{
		rd(0x00, 0xFF), rd(0x01, 0xFF), // probe: IODIR A and B
		rd(0x0C, 0x00), wr(0x0C, 0x01), // key "1" on A0, pull-up
		wr(0x01, 0x7F), rd(0x15, 0x00), // LED on B7: output, latch read (already off)
		wr(0x15, 0x80), // Status(ready): on
	}}
	reg := &fakeRegistry{i2c: map[string]i2c.BusCloser{"I2C1": bus}}
	c := parseHW(t, `
board: rpi4
expanders: [{name: panel, kind: mcp23017, bus: I2C1, address: 0x20}]
keypads: [{name: dice, expander: panel, keys: {"1": A0}}]
leds: [{name: ready, role: ready, expander: panel, pin: B7}]
`)
	d, err := OpenWith(c, reg, newFakeClock(), quiet)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Missing()) != 0 || len(d.Keypads()) != 1 {
		t.Fatalf("missing %v", d.Missing())
	}
	if err := d.Outputs().Status(Status{Ready: true}); err != nil {
		t.Fatal(err)
	}
	if bus.Count != len(bus.Ops) {
		t.Errorf("%d of %d I²C transfers made", bus.Count, len(bus.Ops))
	}
}
