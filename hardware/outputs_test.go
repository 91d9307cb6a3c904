package hardware

import (
	"bytes"
	"flag"
	"image"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/devices/v3/ssd1306"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

var _ = flag.Bool // the -update flag is declared in nfc_test.go

func TestPanelStatus(t *testing.T) {
	ready, turn1, turn2, anyTurn := newTestPin("GPIO22"), newTestPin("GPIO23"), newTestPin("GPIO24"), newTestPin("GPIO27")
	p := NewPanel([]LED{
		{Name: "ready", Role: "ready", Pin: ready},
		{Name: "turn-1", Role: "turn", Seat: 1, Pin: turn1},
		{Name: "turn-2", Role: "turn", Seat: 2, Pin: turn2, ActiveLow: true},
		{Name: "busy", Role: "turn", Pin: anyTurn},
	}, nil, nil, newFakeClock(), quiet)
	tests := []struct {
		s    Status
		want [4]gpio.Level // ready, turn-1, turn-2 (active low), busy
	}{
		{Status{}, [4]gpio.Level{gpio.Low, gpio.Low, gpio.High, gpio.Low}},
		{Status{Ready: true}, [4]gpio.Level{gpio.High, gpio.Low, gpio.High, gpio.Low}},
		{Status{Ready: true, Turn: 1}, [4]gpio.Level{gpio.High, gpio.High, gpio.High, gpio.High}},
		{Status{Ready: true, Turn: 2}, [4]gpio.Level{gpio.High, gpio.Low, gpio.Low, gpio.High}},
	}
	for _, tt := range tests {
		if err := p.Status(tt.s); err != nil {
			t.Fatal(err)
		}
		got := [4]gpio.Level{ready.Read(), turn1.Read(), turn2.Read(), anyTurn.Read()}
		if got != tt.want {
			t.Errorf("Status(%+v): got %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestPanelIllegal(t *testing.T) {
	led, buzz := newTestPin("GPIO12"), newTestPin("GPIO13")
	clock := newFakeClock()
	var mu sync.Mutex
	var sleeps []time.Duration
	clock.onSleep = func(d time.Duration) { mu.Lock(); sleeps = append(sleeps, d); mu.Unlock() }
	p := NewPanel([]LED{{Name: "bad", Role: "illegal", Pin: led}}, &Buzzer{Pin: buzz, ActiveLow: true, Beep: 200 * time.Millisecond}, nil, clock, quiet)
	if err := p.Illegal(); err != nil {
		t.Fatal(err)
	}
	p.wait()
	H, L := gpio.High, gpio.Low
	if got, want := led.written(), []gpio.Level{H, L, H, L, H, L, L}; !reflect.DeepEqual(got, want) {
		t.Errorf("illegal LED: got %v, want %v (three blinks, then off)", got, want)
	}
	if got, want := buzz.written(), []gpio.Level{L, H}; !reflect.DeepEqual(got, want) {
		t.Errorf("buzzer (active low): got %v, want %v (one beep)", got, want)
	}
	mu.Lock()
	n := len(sleeps)
	mu.Unlock()
	if n != 7 {
		t.Errorf("got %d waits, want 7 (six blink half-periods, one beep)", n)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	led.written()
	if err := p.Illegal(); err != nil || len(led.written()) != 0 {
		t.Errorf("Illegal after Close: err %v or the LED moved", err)
	}
}

func TestSevenSegments(t *testing.T) {
	tests := []struct {
		text   string
		digits int
		want   []byte
		err    string
	}{
		{"12", 4, []byte{0, 0, 0x06, 0x5B}, ""},
		{"12:07", 4, []byte{0x06, 0x5B | 0x80, 0x3F, 0x07}, ""},
		{"-3", 4, []byte{0, 0, 0x40, 0x4F}, ""},
		{"Łódź", 4, nil, `'Z' cannot be shown`},
		{"PASS", 4, []byte{0x73, 0x77, 0x6D, 0x6D}, ""},
		{"12345", 4, nil, "needs 5 digits"},
		{"1.5", 6, []byte{0, 0, 0, 0, 0x06 | 0x80, 0x6D}, ""},
	}
	for _, tt := range tests {
		got, err := SevenSegments(tt.text, tt.digits)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("SevenSegments(%q): got error %v, want one with %q", tt.text, err, tt.err)
			}
			continue
		}
		if err != nil || !bytes.Equal(got, tt.want) {
			t.Errorf("SevenSegments(%q) = % X, %v; want % X", tt.text, got, err, tt.want)
		}
	}
}

// wire records the levels written to a TM1637's two lines, in order.
type wire struct {
	mu  sync.Mutex
	log []struct {
		clk bool
		l   gpio.Level
	}
}

type wirePin struct {
	*testPin
	w   *wire
	clk bool
}

func (p wirePin) Out(l gpio.Level) error {
	p.w.mu.Lock()
	p.w.log = append(p.w.log, struct {
		clk bool
		l   gpio.Level
	}{p.clk, l})
	p.w.mu.Unlock()
	return p.testPin.Out(l)
}

// frames decodes the TM1637 bus: bytes between a start (DIO falling while
// CLK is high) and a stop (DIO rising while CLK is high), LSB first, each
// followed by an ACK clock.
func (w *wire) frames() [][]byte {
	var out [][]byte
	clk, dio := true, true
	var bits []bool
	in := false
	for _, e := range w.log {
		if e.clk {
			if !clk && bool(e.l) && in {
				bits = append(bits, dio)
			}
			clk = bool(e.l)
			continue
		}
		if clk && dio && !bool(e.l) {
			in, bits = true, nil
		}
		if clk && !dio && bool(e.l) && in {
			in = false
			var f []byte
			for i := 0; i+9 <= len(bits); i += 9 {
				var b byte
				for j := 0; j < 8; j++ {
					if bits[i+j] {
						b |= 1 << j
					}
				}
				f = append(f, b)
			}
			out = append(out, f)
		}
		dio = bool(e.l)
	}
	return out
}

func TestTM1637Display(t *testing.T) {
	w := &wire{}
	clk := wirePin{newTestPin("GPIO5"), w, true}
	dio := wirePin{newTestPin("GPIO6"), w, false}
	d, err := NewTM1637Display(clk, dio, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Show("12:07"); err != nil {
		t.Fatal(err)
	}
	want := [][]byte{{0x8B}, {0x40}, {0xC0, 0x06, 0xDB, 0x3F, 0x07, 0x00, 0x00}}
	if got := w.frames(); !reflect.DeepEqual(got, want) {
		t.Errorf("TM1637 frames: got % X, want % X (brightness; auto-increment; address 0 and six digits)", got, want)
	}
}

func TestRenderText(t *testing.T) {
	img := RenderText(image.Rect(0, 0, 32, 16), "1:0")
	var b strings.Builder
	for y := 0; y < 16; y++ {
		for x := 0; x < 32; x++ {
			if img.BitAt(x, y) {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	golden := filepath.Join("testdata", "render-1-0.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestSSD1306Display(t *testing.T) {
	rec := &i2ctest.Record{}
	opts := ssd1306.DefaultOpts
	opts.H = 32
	dev, err := ssd1306.NewI2C(&addrBus{Bus: rec, addr: 0x3D}, &opts)
	if err != nil {
		t.Fatal(err)
	}
	d := SSD1306Display{Dev: dev}
	if err := d.Show("Ania 12\nBartek 9"); err != nil {
		t.Fatal(err)
	}
	if len(rec.Ops) < 2 {
		t.Fatalf("got %d I²C writes, want the init and a frame", len(rec.Ops))
	}
	for i, op := range rec.Ops {
		if op.Addr != 0x3D {
			t.Errorf("write %d went to %#x, want 0x3d", i, op.Addr)
		}
	}
	// The frame goes a page (128 columns × 8 rows) a write, each after the
	// commands that address the page.
	var frame []byte
	for _, op := range rec.Ops {
		if op.W[0] == 0x40 {
			frame = append(frame, op.W[1:]...)
		}
	}
	want := RenderText(image.Rect(0, 0, 128, 32), "Ania 12\nBartek 9")
	if !bytes.Equal(frame, want.Pix) {
		t.Errorf("the frame sent (%d bytes) is not the rendered text (%d bytes)", len(frame), len(want.Pix))
	}
	lit := 0
	for y := 0; y < 32; y++ {
		for x := 0; x < 128; x++ {
			if want.BitAt(x, y) == image1bit.On {
				lit++
			}
		}
	}
	if lit < 100 {
		t.Errorf("only %d pixels lit for two lines of text", lit)
	}
}
