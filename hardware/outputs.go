package hardware

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3/display"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/devices/v3/ssd1306/image1bit"
	"periph.io/x/devices/v3/tm1637"
)

// Status is what the steady status LEDs show.
type Status struct {
	// Ready lights the ready LEDs.
	Ready bool
	// Turn is the seat whose turn it is (1, 2 …), 0 for nobody's. A turn
	// LED with a seat lights on its seat's turn; one without, on any turn.
	Turn int
}

// Outputs are what the daemon shows on the table itself: status LEDs, the
// buzzer and the local score displays. *Panel is the real one.
type Outputs interface {
	// Status sets the steady LEDs.
	Status(Status) error
	// Illegal blinks the illegal-action LEDs and beeps; it returns at once.
	Illegal() error
	// Score shows text on the named display, or on every display when
	// display is "". A TM1637 shows up to its digits ("12", "12:07",
	// "-3"); an SSD1306 shows lines ("Ania 12\nBartek 9").
	Score(display, text string) error
	// Scoreboard shows the score on every display in the form that fits
	// it: the digits on a 7-segment display, the lines on a text one.
	Scoreboard(Scoreboard) error
}

// Scoreboard is the score as each kind of display can show it. A game says
// it once; each display takes its own part.
type Scoreboard struct {
	// Digits is for a 7-segment display: at most as many characters as it
	// has digits ("12:07", "3-1"), '.' and ':' not counted.
	Digits string
	// Lines are for a text display: a few short lines.
	Lines []string
}

// segmentDisplay is a display that shows digits, not lines.
type segmentDisplay interface{ segmentDigits() int }

// TextDisplay shows a short text.
type TextDisplay interface {
	Show(text string) error
}

// LED is a status LED on a line.
type LED struct {
	Name string
	// Role is ready, turn or illegal; Seat is a turn LED's seat (0: any).
	Role      string
	Seat      int
	Pin       gpio.PinOut
	ActiveLow bool
}

// Buzzer is an active buzzer on a line.
type Buzzer struct {
	Pin       gpio.PinOut
	ActiveLow bool
	Beep      time.Duration
}

// Panel drives the LEDs, the buzzer and the displays; it implements
// Outputs. Devices that are missing are simply not in it.
type Panel struct {
	leds     []LED
	buzzer   *Buzzer
	displays map[string]TextDisplay
	clock    Clock
	log      *slog.Logger

	mu      sync.Mutex
	status  Status
	stopped bool
	ctx     context.Context
	cancel  context.CancelFunc
	blink   context.CancelFunc
	blinkWG *sync.WaitGroup // the running pattern's goroutines
	wg      sync.WaitGroup  // all of them
}

// Blink pattern of a refused action.
const (
	illegalBlinks = 3
	illegalPeriod = 150 * time.Millisecond
)

// NewPanel makes a panel; buzzer and displays may be nil, clock nil is the
// system clock.
func NewPanel(leds []LED, buzzer *Buzzer, displays map[string]TextDisplay, clock Clock, log *slog.Logger) *Panel {
	if clock == nil {
		clock = SystemClock()
	}
	if log == nil {
		log = slog.Default()
	}
	if displays == nil {
		displays = map[string]TextDisplay{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Panel{leds: leds, buzzer: buzzer, displays: displays, clock: clock, log: log, ctx: ctx, cancel: cancel}
}

func level(on, activeLow bool) gpio.Level { return gpio.Level(on != activeLow) }

func (p *Panel) steady(l LED, s Status) bool {
	switch l.Role {
	case "ready":
		return s.Ready
	case "turn":
		return s.Turn != 0 && (l.Seat == 0 || l.Seat == s.Turn)
	}
	return false
}

// Status implements Outputs.
func (p *Panel) Status(s Status) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status = s
	var errs []error
	for _, l := range p.leds {
		if l.Role == "illegal" {
			continue
		}
		if err := l.Pin.Out(level(p.steady(l, s), l.ActiveLow)); err != nil {
			errs = append(errs, fmt.Errorf("hardware: led %s: %w", l.Name, err))
		}
	}
	return errors.Join(errs...)
}

// Illegal implements Outputs: the illegal LEDs blink three times and the
// buzzer beeps once, in the background; a new call restarts the pattern.
func (p *Panel) Illegal() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return nil
	}
	if p.blink != nil {
		p.blink()
		p.blinkWG.Wait() // the old pattern turns its LEDs off first
	}
	ctx, cancel := context.WithCancel(p.ctx)
	p.blink = cancel
	bwg := &sync.WaitGroup{}
	p.blinkWG = bwg
	var illegal []LED
	for _, l := range p.leds {
		if l.Role == "illegal" {
			illegal = append(illegal, l)
		}
	}
	set := func(on bool) {
		for _, l := range illegal {
			if err := l.Pin.Out(level(on, l.ActiveLow)); err != nil {
				p.log.Warn("led not set", "led", l.Name, "err", err)
			}
		}
	}
	if len(illegal) > 0 {
		p.wg.Add(1)
		bwg.Add(1)
		go func() {
			defer p.wg.Done()
			defer bwg.Done()
			defer set(false)
			for i := 0; i < illegalBlinks; i++ {
				set(true)
				if p.clock.Sleep(ctx, illegalPeriod) != nil {
					return
				}
				set(false)
				if p.clock.Sleep(ctx, illegalPeriod) != nil {
					return
				}
			}
		}()
	}
	if z := p.buzzer; z != nil {
		p.wg.Add(1)
		bwg.Add(1)
		go func() {
			defer p.wg.Done()
			defer bwg.Done()
			if err := z.Pin.Out(level(true, z.ActiveLow)); err != nil {
				p.log.Warn("buzzer not set", "err", err)
				return
			}
			_ = p.clock.Sleep(ctx, z.Beep)
			if err := z.Pin.Out(level(false, z.ActiveLow)); err != nil {
				p.log.Warn("buzzer not set", "err", err)
			}
		}()
	}
	return nil
}

// Score implements Outputs.
func (p *Panel) Score(name, text string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if name != "" {
		d, ok := p.displays[name]
		if !ok {
			return fmt.Errorf("hardware: no display named %q", name)
		}
		if err := d.Show(text); err != nil {
			return fmt.Errorf("hardware: display %s: %w", name, err)
		}
		return nil
	}
	var errs []error
	for _, n := range p.DisplayNames() {
		if err := p.displays[n].Show(text); err != nil {
			errs = append(errs, fmt.Errorf("hardware: display %s: %w", n, err))
		}
	}
	return errors.Join(errs...)
}

// Scoreboard implements Outputs: each display gets the part that fits it;
// a segment display shows nothing rather than a text it cannot draw.
func (p *Panel) Scoreboard(sb Scoreboard) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for _, n := range p.DisplayNames() {
		d := p.displays[n]
		text := strings.Join(sb.Lines, "\n")
		if _, ok := d.(segmentDisplay); ok {
			text = sb.Digits
		}
		if err := d.Show(text); err != nil {
			errs = append(errs, fmt.Errorf("hardware: display %s: %w", n, err))
		}
	}
	return errors.Join(errs...)
}

// DisplayNames are the displays the panel has, sorted.
func (p *Panel) DisplayNames() []string {
	names := make([]string, 0, len(p.displays))
	for n := range p.displays {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Close stops blinking, turns the LEDs and the buzzer off and waits for
// the background blinking to end.
func (p *Panel) Close() error {
	p.mu.Lock()
	p.stopped = true
	p.cancel()
	p.mu.Unlock()
	p.wg.Wait()
	var errs []error
	for _, l := range p.leds {
		if err := l.Pin.Out(level(false, l.ActiveLow)); err != nil {
			errs = append(errs, err)
		}
	}
	if z := p.buzzer; z != nil {
		if err := z.Pin.Out(level(false, z.ActiveLow)); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// wait waits for the background blinking (tests).
func (p *Panel) wait() { p.wg.Wait() }

// TM1637Display is a TM1637 7-segment display.
type TM1637Display struct {
	Dev    interface{ Write([]byte) (int, error) }
	Digits int
}

func (d TM1637Display) segmentDigits() int { return d.Digits }

// Show implements TextDisplay: the text right-aligned, '.' and ':' lighting
// the point after the digit before them.
func (d TM1637Display) Show(text string) error {
	seg, err := SevenSegments(text, d.Digits)
	if err != nil {
		return err
	}
	_, err = d.Dev.Write(seg)
	return err
}

// NewTM1637Display opens a TM1637 on its clock and data lines.
func NewTM1637Display(clk gpio.PinOut, dio gpio.PinIO, digits int) (*TM1637Display, error) {
	dev, err := tm1637.New(clk, dio)
	if err != nil {
		return nil, err
	}
	if err := dev.SetBrightness(tm1637.Brightness10); err != nil {
		return nil, err
	}
	return &TM1637Display{Dev: dev, Digits: digits}, nil
}

// segments of the characters a 7-segment digit can show (PGFEDCBA).
var segments = map[rune]byte{
	'0': 0x3F, '1': 0x06, '2': 0x5B, '3': 0x4F, '4': 0x66, '5': 0x6D, '6': 0x7D, '7': 0x07, '8': 0x7F, '9': 0x6F,
	'A': 0x77, 'B': 0x7C, 'C': 0x39, 'D': 0x5E, 'E': 0x79, 'F': 0x71, 'G': 0x3D, 'H': 0x76, 'I': 0x30, 'J': 0x1E,
	'L': 0x38, 'N': 0x54, 'O': 0x3F, 'P': 0x73, 'Q': 0x67, 'R': 0x50, 'S': 0x6D, 'T': 0x78, 'U': 0x3E, 'Y': 0x6E,
	'-': 0x40, '_': 0x08, '=': 0x48, ' ': 0x00, '\'': 0x02, '"': 0x22,
}

// SevenSegments encodes text for a digits-wide 7-segment display,
// right-aligned. '.' and ':' light the point of the digit before them (on
// the 4-digit clock modules the colon is the second digit's point).
// Letters a display cannot draw (K, M, V, W, X, Z) are an error.
func SevenSegments(text string, digits int) ([]byte, error) {
	var seg []byte
	for _, r := range fold(text) {
		if r == '.' || r == ':' {
			if len(seg) == 0 {
				seg = append(seg, 0)
			}
			seg[len(seg)-1] |= 0x80
			continue
		}
		s, ok := segments[r]
		if !ok {
			return nil, fmt.Errorf("hardware: %q cannot be shown on a 7-segment display", r)
		}
		seg = append(seg, s)
	}
	if len(seg) > digits {
		return nil, fmt.Errorf("hardware: %q needs %d digits, the display has %d", text, len(seg), digits)
	}
	return append(make([]byte, digits-len(seg)), seg...), nil
}

// SSD1306Display is an SSD1306 OLED.
type SSD1306Display struct {
	Dev display.Drawer
}

// Show implements TextDisplay: the lines of text, centred, as large as they
// fit.
func (d SSD1306Display) Show(text string) error {
	img := RenderText(d.Dev.Bounds(), text)
	return d.Dev.Draw(img.Bounds(), img, image.Point{})
}

// RenderText draws text (lines split at '\n') centred in a 1-bit image of
// bounds r, at the largest scale of the 5×7 font that fits (up to 4×).
// Characters the font lacks are drawn as '?'.
func RenderText(r image.Rectangle, text string) *image1bit.VerticalLSB {
	img := image1bit.NewVerticalLSB(r)
	lines := strings.Split(fold(strings.TrimRight(text, "\n")), "\n")
	longest := 0
	for _, l := range lines {
		longest = max(longest, len([]rune(l)))
	}
	if longest == 0 {
		return img
	}
	w, h := r.Dx(), r.Dy()
	scale := 4
	for scale > 1 && (longest*6*scale-scale > w || len(lines)*8*scale-scale > h) {
		scale--
	}
	lineH := 8 * scale
	top := r.Min.Y + (h-(len(lines)*lineH-scale))/2
	for i, l := range lines {
		rs := []rune(l)
		lw := len(rs)*6*scale - scale
		x0 := r.Min.X + (w-lw)/2
		y0 := top + i*lineH
		for j, c := range rs {
			g, ok := font5x7[c]
			if !ok {
				g = font5x7['?']
			}
			for gy, row := range g {
				for gx, px := range row {
					if px != '#' {
						continue
					}
					for dy := 0; dy < scale; dy++ {
						for dx := 0; dx < scale; dx++ {
							x, y := x0+(j*6+gx)*scale+dx, y0+gy*scale+dy
							if image.Pt(x, y).In(r) {
								img.SetBit(x, y, image1bit.On)
							}
						}
					}
				}
			}
		}
	}
	return img
}
