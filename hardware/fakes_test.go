package hardware

import (
	"context"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// testPin is periph's own fake GPIO line, gpiotest.Pin, plus a record of
// the levels written, which the LED, buzzer and TM1637 tests read back, and
// a way to make writes fail.
type testPin struct {
	*gpiotest.Pin

	mu      sync.Mutex
	outs    []gpio.Level
	failOut error
}

func newTestPin(name string) *testPin { return &testPin{Pin: &gpiotest.Pin{N: name}} }

func (p *testPin) Out(l gpio.Level) error {
	p.mu.Lock()
	if p.failOut != nil {
		err := p.failOut
		p.mu.Unlock()
		return err
	}
	p.outs = append(p.outs, l)
	p.mu.Unlock()
	return p.Pin.Out(l)
}

// set sets the level an input reads (a button pressed or let go).
func (p *testPin) set(l gpio.Level) {
	p.Pin.Lock()
	p.Pin.L = l
	p.Pin.Unlock()
}

// written returns the levels written so far and forgets them.
func (p *testPin) written() []gpio.Level {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.outs
	p.outs = nil
	return w
}

var _ gpio.PinIO = &testPin{}

// fakeClock is a clock whose Sleep returns at once after moving the time
// on; onSleep, when set, runs after each Sleep.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	onSleep func(d time.Duration)
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	f := c.onSleep
	c.mu.Unlock()
	if f != nil {
		f(d)
	}
	return ctx.Err()
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
