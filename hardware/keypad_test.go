package hardware

import (
	"context"
	"io"
	"log/slog"
	"reflect"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/devices/v3/mcp23xxx"
	"periph.io/x/devices/v3/pcf857x"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestKeyScanner(t *testing.T) {
	type s struct {
		ms   int
		bits uint64
	}
	k := func(key string) KeyEvent { return KeyEvent{Keypad: "dice", Key: key} }
	long := func(key string) KeyEvent { return KeyEvent{Keypad: "dice", Key: key, Long: true} }
	tests := []struct {
		name    string
		long    time.Duration
		samples []s
		want    []KeyEvent
	}{
		{"a clean press is one event", 0,
			[]s{{0, 0}, {5, 1}, {10, 1}, {15, 1}, {20, 1}, {25, 1}, {30, 1}, {200, 1}, {205, 0}, {230, 0}},
			[]KeyEvent{k("1")}},
		{"contact bounce is one press", 0,
			[]s{{0, 0}, {5, 1}, {7, 0}, {9, 1}, {12, 0}, {14, 1}, {20, 1}, {30, 1}, {34, 1}, {40, 0}, {42, 1}, {44, 0}, {80, 0}},
			[]KeyEvent{k("1")}},
		{"a glitch shorter than the debounce is nothing", 0,
			[]s{{0, 0}, {5, 1}, {10, 1}, {15, 0}, {40, 0}},
			nil},
		{"two presses", 0,
			[]s{{0, 0}, {5, 1}, {25, 1}, {30, 0}, {50, 0}, {55, 1}, {75, 1}},
			[]KeyEvent{k("1"), k("1")}},
		{"two keys", 0,
			[]s{{0, 0}, {5, 0b10}, {10, 0b110}, {25, 0b110}, {30, 0b110}},
			[]KeyEvent{k("2"), k("confirm")}},
		{"held at start is not a press", 0,
			[]s{{0, 1}, {50, 1}, {60, 0}, {90, 0}, {95, 1}, {120, 1}},
			[]KeyEvent{k("1")}},
		{"long press fires once while held", 800 * time.Millisecond,
			[]s{{0, 0}, {5, 1}, {25, 1}, {500, 1}, {824, 1}, {825, 1}, {900, 1}, {2000, 1}, {2005, 0}, {2030, 0}},
			[]KeyEvent{long("1")}},
		{"short press with long press on is reported on release", 800 * time.Millisecond,
			[]s{{0, 0}, {5, 1}, {25, 1}, {300, 1}, {305, 0}, {325, 0}, {400, 0}},
			[]KeyEvent{k("1")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := newKeyScanner("dice", []string{"1", "2", "confirm"}, 20*time.Millisecond, tt.long)
			t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
			var got []KeyEvent
			for _, smp := range tt.samples {
				got = append(got, sc.sample(t0.Add(time.Duration(smp.ms)*time.Millisecond), smp.bits)...)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// runKeypad runs kp for len(script) samples; script[i] runs before sample
// i+1 (to press and release keys).
func runKeypad(t *testing.T, kp *ButtonKeypad, script []func()) []KeyEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	kp.tick = func() {
		if n == len(script) {
			cancel()
			return
		}
		script[n]()
		n++
	}
	var got []KeyEvent
	if err := kp.Run(ctx, func(e KeyEvent) { got = append(got, e) }); err != context.Canceled {
		t.Fatalf("Run returned %v, want context.Canceled", err)
	}
	return got
}

func TestButtonKeypadGPIO(t *testing.T) {
	one, six, undo := newTestPin("GPIO5"), newTestPin("GPIO21"), newTestPin("GPIO26")
	for _, p := range []*testPin{one, six, undo} {
		if err := p.In(gpio.PullUp, gpio.NoEdge); err != nil {
			t.Fatal(err)
		}
	}
	clock := newFakeClock()
	kp := NewButtonKeypad(KeypadConfig{Name: "dice", LongPress: 600 * time.Millisecond}, []string{"1", "6", "undo"},
		GPIOKeys{Pins: []gpio.PinIn{one, six, undo}}, clock, quiet)
	hold := func(p *testPin, n int) []func() {
		out := []func(){func() { p.set(gpio.Low) }}
		for i := 1; i < n; i++ {
			out = append(out, func() {})
		}
		return append(out, func() { p.set(gpio.High) })
	}
	var script []func()
	script = append(script, func() {})
	script = append(script, hold(six, 10)...)   // 50ms: a press of "6"
	script = append(script, hold(undo, 200)...) // 1s: a long "undo"
	script = append(script, make([]func(), 10)...)
	for i := range script {
		if script[i] == nil {
			script[i] = func() {}
		}
	}
	got := runKeypad(t, kp, script)
	want := []KeyEvent{{Keypad: "dice", Key: "6"}, {Keypad: "dice", Key: "undo", Long: true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestButtonKeypadMCP23017(t *testing.T) {
	const addr = 0x20
	rd := func(reg, v byte) i2ctest.IO { return i2ctest.IO{Addr: addr, W: []byte{reg}, R: []byte{v}} }
	wr := func(reg, v byte) i2ctest.IO { return i2ctest.IO{Addr: addr, W: []byte{reg, v}} }
	ops := []i2ctest.IO{
		rd(0x00, 0xFF), rd(0x01, 0xFF), // NewI2C caches IODIRA, IODIRB
		rd(0x0C, 0x00), wr(0x0C, 0x01), // "1" on A0: pull-up
		wr(0x0C, 0x03),                 // "2" on A1
		rd(0x0D, 0x00), wr(0x0D, 0x01), // confirm on B0
	}
	// Samples every 10ms: idle, "2" down for 3 samples, confirm down for
	// 3 samples, then the bus stops answering, then answers again.
	type smp struct{ a, b byte }
	samples := []smp{{0xFF, 0xFF}, {0xFD, 0xFF}, {0xFD, 0xFF}, {0xFD, 0xFF}, {0xFF, 0xFF}, {0xFF, 0xFE}, {0xFF, 0xFE}, {0xFF, 0xFE}, {0xFF, 0xFF}}
	for _, s := range samples {
		ops = append(ops, rd(0x12, s.a), rd(0x13, s.b))
	}
	bus := &i2ctest.Playback{Ops: ops, DontPanic: true}
	dev, err := mcp23xxx.NewI2C(bus, mcp23xxx.MCP23017, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	x := &expander{cfg: ExpanderConfig{Name: "ex1", Kind: "mcp23017"}, mcp: dev}
	names := []string{"1", "2", "confirm"}
	in, err := x.keys(names, map[string]string{"1": "A0", "2": "A1", "confirm": "B0"}, gpio.PullUp)
	if err != nil {
		t.Fatal(err)
	}
	kp := NewButtonKeypad(KeypadConfig{Name: "dice", Expander: "ex1"}, names, in, newFakeClock(), quiet)
	script := make([]func(), len(samples)+1)
	for i := range script {
		script[i] = func() {}
	}
	// After the last sample the playback runs out: the expander "stops
	// answering"; then it is given one more sample.
	script[len(samples)] = func() {
		bus.Lock()
		bus.Ops = append(bus.Ops, rd(0x12, 0xFF), rd(0x13, 0xFF))
		bus.Unlock()
	}
	got := runKeypad(t, kp, script)
	if len(got) != 4 {
		t.Fatalf("got %v, want 4 events", got)
	}
	want := []KeyEvent{
		{Keypad: "dice", Key: "2"},
		{Keypad: "dice", Key: "confirm"},
		{Keypad: "dice", Fault: &Fault{Kind: FaultNotAnswering, Detail: got[2].Fault.Detail}},
		{Keypad: "dice", Fault: &Fault{Kind: FaultRecovered}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if bus.Count != len(bus.Ops) {
		t.Errorf("%d of %d I²C transfers made", bus.Count, len(bus.Ops))
	}
}

func TestButtonKeypadPCF8574(t *testing.T) {
	const addr = 0x27
	// The keys on P0 ("1") and P3 ("next").
	w := func(v byte) i2ctest.IO { return i2ctest.IO{Addr: addr, W: []byte{v}} }
	r := func(v byte) i2ctest.IO { return i2ctest.IO{Addr: addr, R: []byte{v}} }
	// In(P0), In(P3); then five samples: idle, "next" down three times,
	// idle. Once a read has seen P3 low, the driver writes the inputs
	// high again before the next read.
	ops := []i2ctest.IO{w(0x01), w(0x09), r(0xFF), r(0xF7), w(0xFF), r(0xF7), w(0xFF), r(0xF7), w(0xFF), r(0xFF)}
	bus := &i2ctest.Playback{Ops: ops}
	dev, err := pcf857x.New(bus, addr, pcf857x.PCF8574)
	if err != nil {
		t.Fatal(err)
	}
	x := &expander{cfg: ExpanderConfig{Name: "ex2", Kind: "pcf8574"}, pcf: dev}
	names := []string{"1", "next"}
	in, err := x.keys(names, map[string]string{"1": "P0", "next": "P3"}, gpio.Float)
	if err != nil {
		t.Fatal(err)
	}
	kp := NewButtonKeypad(KeypadConfig{Name: "seat-1", Expander: "ex2"}, names, in, newFakeClock(), quiet)
	script := make([]func(), 4)
	for i := range script {
		script[i] = func() {}
	}
	got := runKeypad(t, kp, script)
	if want := []KeyEvent{{Keypad: "seat-1", Key: "next"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
}
