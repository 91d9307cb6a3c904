package hardware

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
)

// KeyInput reads the keys of a keypad at once: bit i set is key i pressed
// (the active level already applied). An error is a bus that cannot be
// read (a port expander that stopped answering).
type KeyInput interface {
	ReadKeys() (uint64, error)
}

// GPIOKeys reads keys wired to GPIO lines.
type GPIOKeys struct {
	Pins []gpio.PinIn
	// ActiveHigh: a pressed key reads high.
	ActiveHigh bool
}

// ReadKeys implements KeyInput.
func (g GPIOKeys) ReadKeys() (uint64, error) {
	var v uint64
	for i, p := range g.Pins {
		if p.Read() == gpio.Level(g.ActiveHigh) {
			v |= 1 << i
		}
	}
	return v, nil
}

// GroupKeys reads keys on a port expander through periph pin groups (a
// group read reports bus errors, a single expander pin's Read does not).
// Each part is one group (an MCP23017 port, a PCF857x) and the keys' bits
// in its value, in key order.
type GroupKeys struct {
	Parts []GroupPart
	// ActiveHigh: a pressed key reads high.
	ActiveHigh bool
	// Lock, when set, is held around the reads (the expander's LEDs are
	// written from another goroutine).
	Lock sync.Locker
}

// GroupPart is one group of a GroupKeys and which key each of its bits is.
type GroupPart struct {
	Group gpio.Group
	// Keys[i] is the key index of the group's bit i.
	Keys []int
}

// ReadKeys implements KeyInput.
func (g GroupKeys) ReadKeys() (uint64, error) {
	if g.Lock != nil {
		g.Lock.Lock()
		defer g.Lock.Unlock()
	}
	var v uint64
	for _, p := range g.Parts {
		val, err := p.Group.Read(0)
		if err != nil {
			return 0, err
		}
		for bit, key := range p.Keys {
			if (val>>bit&1 == 1) == g.ActiveHigh {
				v |= 1 << key
			}
		}
	}
	return v, nil
}

// ButtonKeypad is a dice keypad or a set of buttons: it samples its keys
// every Poll, debounces each key (a level must hold Debounce to count)
// and reports presses; with LongPress set, a key held that long is a long
// press and a shorter press is reported on release.
type ButtonKeypad struct {
	name  string
	keys  []string
	in    KeyInput
	cfg   KeypadConfig
	clock Clock
	log   *slog.Logger

	// tick, when set (tests), runs after each sample.
	tick func()
}

// NewButtonKeypad makes a keypad of the keys (names in bit order) read
// through in. cfg gives the name and timings (zero: defaults); clock nil is
// the system clock.
func NewButtonKeypad(cfg KeypadConfig, keys []string, in KeyInput, clock Clock, log *slog.Logger) *ButtonKeypad {
	if clock == nil {
		clock = SystemClock()
	}
	if log == nil {
		log = slog.Default()
	}
	c := Config{Keypads: []KeypadConfig{cfg}}
	c.defaults()
	cfg = c.Keypads[0]
	return &ButtonKeypad{name: cfg.Name, keys: keys, in: in, cfg: cfg, clock: clock, log: log.With("keypad", cfg.Name)}
}

// Name is the keypad's name.
func (k *ButtonKeypad) Name() string { return k.name }

// Run samples the keys until ctx ends and returns ctx's error. A keypad
// that cannot be read is reported once (FaultNotAnswering), retried every
// second, and reported again when it is back (FaultRecovered); keys held
// while it was away count from scratch.
func (k *ButtonKeypad) Run(ctx context.Context, emit func(KeyEvent)) error {
	sc := newKeyScanner(k.name, k.keys, k.cfg.Debounce, k.cfg.LongPress)
	faulted := false
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		wait := k.cfg.Poll
		v, err := k.in.ReadKeys()
		if err != nil {
			if !faulted {
				faulted = true
				k.log.Warn("keypad not answering; retrying", "err", err)
				emit(KeyEvent{Keypad: k.name, Fault: &Fault{Kind: FaultNotAnswering, Detail: err.Error()}})
			}
			sc = newKeyScanner(k.name, k.keys, k.cfg.Debounce, k.cfg.LongPress)
			wait = time.Second
		} else {
			if faulted {
				faulted = false
				k.log.Info("keypad answering again")
				emit(KeyEvent{Keypad: k.name, Fault: &Fault{Kind: FaultRecovered}})
			}
			for _, e := range sc.sample(k.clock.Now(), v) {
				k.log.Debug("key", "key", e.Key, "long", e.Long)
				emit(e)
			}
		}
		if k.tick != nil {
			k.tick()
		}
		if err := k.clock.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// keyScanner debounces sampled key levels and turns them into presses.
type keyScanner struct {
	keypad    string
	names     []string
	debounce  time.Duration
	longPress time.Duration
	keys      []keyState
	started   bool
}

type keyState struct {
	raw       bool      // the last level sampled
	rawSince  time.Time // when raw last changed
	down      bool      // the debounced state
	downSince time.Time
	longSent  bool
}

func newKeyScanner(keypad string, names []string, debounce, longPress time.Duration) *keyScanner {
	return &keyScanner{keypad: keypad, names: names, debounce: debounce, longPress: longPress, keys: make([]keyState, len(names))}
}

// sample takes the levels at now (bit i: key i pressed) and returns the
// presses they complete. Keys already held at the first sample are ignored
// until released: a button stuck down at start is not a press.
func (s *keyScanner) sample(now time.Time, v uint64) []KeyEvent {
	var out []KeyEvent
	for i := range s.keys {
		k := &s.keys[i]
		raw := v>>i&1 == 1
		if !s.started {
			k.raw, k.rawSince, k.down, k.downSince, k.longSent = raw, now, raw, now, true
			continue
		}
		if raw != k.raw {
			k.raw, k.rawSince = raw, now
		}
		if k.raw != k.down && now.Sub(k.rawSince) >= s.debounce {
			k.down, k.downSince = k.raw, now
			switch {
			case k.down:
				k.longSent = false
				if s.longPress == 0 {
					out = append(out, KeyEvent{Keypad: s.keypad, Key: s.names[i]})
				}
			case s.longPress > 0 && !k.longSent:
				out = append(out, KeyEvent{Keypad: s.keypad, Key: s.names[i]})
			}
		}
		if k.down && s.longPress > 0 && !k.longSent && now.Sub(k.downSince) >= s.longPress {
			k.longSent = true
			out = append(out, KeyEvent{Keypad: s.keypad, Key: s.names[i], Long: true})
		}
	}
	s.started = true
	return out
}
