package hardware

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/devices/v3/mcp23xxx"
	"periph.io/x/devices/v3/pcf857x"
	"periph.io/x/devices/v3/ssd1306"
	"periph.io/x/host/v3"
)

// Registry finds devices by name. Open uses periph's registries (gpioreg,
// spireg, i2creg) after host.Init; tests pass fakes.
type Registry interface {
	// Pin returns the GPIO line of that name, or nil.
	Pin(name string) gpio.PinIO
	SPI(name string) (spi.PortCloser, error)
	I2C(name string) (i2c.BusCloser, error)
}

type periphRegistry struct{}

func (periphRegistry) Pin(name string) gpio.PinIO { return gpioreg.ByName(name) }
func (periphRegistry) SPI(name string) (spi.PortCloser, error) {
	return spireg.Open(name)
}
func (periphRegistry) I2C(name string) (i2c.BusCloser, error) {
	return i2creg.Open(name)
}

var hostInit = sync.OnceValue(func() error {
	_, err := host.Init()
	return err
})

// HostInit calls periph's host.Init once per process (Open calls it).
func HostInit() error { return hostInit() }

// PeriphRegistry is the Registry of the real devices, for OpenWith after
// HostInit (the smoke tests wrap it to record bus traffic).
func PeriphRegistry() Registry { return periphRegistry{} }

// Missing is a device the config lists that could not be opened.
type Missing struct {
	// Kind is reader, keypad, expander, led, buzzer or display.
	Kind string
	Name string
	Err  error
}

func (m Missing) String() string { return fmt.Sprintf("%s %s: %v", m.Kind, m.Name, m.Err) }

// Devices are the devices of a table that could be opened.
type Devices struct {
	readers []*NFCReader
	keypads []*ButtonKeypad
	panel   *Panel
	missing []Missing
	closers []func() error
}

// Readers are the NFC readers, in config order.
func (d *Devices) Readers() []TagReader {
	out := make([]TagReader, len(d.readers))
	for i, r := range d.readers {
		out[i] = r
	}
	return out
}

// Reader returns the reader of that name, if it could be opened.
func (d *Devices) Reader(name string) (TagReader, bool) {
	for _, r := range d.readers {
		if r.Name() == name {
			return r, true
		}
	}
	return nil, false
}

// ReaderNames are the names of the readers opened, in config order.
func (d *Devices) ReaderNames() []string {
	out := make([]string, len(d.readers))
	for i, r := range d.readers {
		out[i] = r.Name()
	}
	return out
}

// Keypads are the keypads and buttons, in config order.
func (d *Devices) Keypads() []Keypad {
	out := make([]Keypad, len(d.keypads))
	for i, k := range d.keypads {
		out[i] = k
	}
	return out
}

// Outputs are the LEDs, buzzer and displays that could be opened.
func (d *Devices) Outputs() Outputs { return d.panel }

// Panel is Outputs as its concrete type (display names).
func (d *Devices) Panel() *Panel { return d.panel }

// Missing lists the devices that could not be opened.
func (d *Devices) Missing() []Missing { return slices.Clone(d.missing) }

// Close turns the outputs off, powers the readers down and releases the
// buses. Call it after the readers' and keypads' Run have returned.
func (d *Devices) Close() error {
	var errs []error
	if d.panel != nil {
		errs = append(errs, d.panel.Close())
	}
	for _, r := range d.readers {
		errs = append(errs, r.Close())
	}
	for i := len(d.closers) - 1; i >= 0; i-- {
		errs = append(errs, d.closers[i]())
	}
	return errors.Join(errs...)
}

// Open calls periph's host.Init (once per process) and opens every device
// the config lists, by name (SPI0.0, GPIO17, I2C1). A device that is
// missing is logged, listed in Missing and left out: the table runs
// without it. Open fails on a bad config, when host.Init fails, or when a
// device marked required is missing.
func Open(cfg Config, log *slog.Logger) (*Devices, error) {
	if err := hostInit(); err != nil {
		return nil, fmt.Errorf("hardware: periph host init: %w", err)
	}
	return OpenWith(cfg, periphRegistry{}, nil, log)
}

// OpenWith is Open on a given registry and clock (nil: the system clock),
// without host.Init.
func OpenWith(cfg Config, reg Registry, clock Clock, log *slog.Logger) (*Devices, error) {
	if log == nil {
		log = slog.Default()
	}
	if clock == nil {
		clock = SystemClock()
	}
	cfg, err := cfg.Expand()
	if err != nil {
		return nil, err
	}
	o := &opener{cfg: cfg, reg: reg, clock: clock, log: log, d: &Devices{},
		spi: map[string]*sharedPort{}, i2c: map[string]i2c.Bus{}, exp: map[string]*expander{}}
	o.open()
	var req []string
	for _, m := range o.d.missing {
		log.Warn("device missing; the table runs without it", "kind", m.Kind, "name", m.Name, "err", m.Err)
		if o.required[m.Kind+" "+m.Name] {
			req = append(req, m.String())
		}
	}
	if len(req) > 0 {
		_ = o.d.Close()
		return nil, fmt.Errorf("hardware: required devices missing: %s", strings.Join(req, "; "))
	}
	return o.d, nil
}

type opener struct {
	cfg      Config
	reg      Registry
	clock    Clock
	log      *slog.Logger
	d        *Devices
	spi      map[string]*sharedPort
	spiErr   map[string]error
	i2c      map[string]i2c.Bus
	i2cErr   map[string]error
	exp      map[string]*expander
	required map[string]bool
}

func (o *opener) miss(kind, name string, required bool, err error) {
	o.d.missing = append(o.d.missing, Missing{Kind: kind, Name: name, Err: err})
	if required {
		if o.required == nil {
			o.required = map[string]bool{}
		}
		o.required[kind+" "+name] = true
	}
}

// pin opens a Pi GPIO line named as in the config.
func (o *opener) pin(p string) (gpio.PinIO, error) {
	line, err := o.cfg.board.Line(p)
	if err != nil {
		return nil, err
	}
	pin := o.reg.Pin(line)
	if pin == nil {
		return nil, fmt.Errorf("GPIO line %s (header pin %d) not found", line, o.cfg.board.HeaderPin(line))
	}
	return pin, nil
}

func (o *opener) bus(name string) (i2c.Bus, error) {
	if b, ok := o.i2c[name]; ok {
		return b, nil
	}
	if err, ok := o.i2cErr[name]; ok {
		return nil, err
	}
	b, err := o.reg.I2C(name)
	if err != nil {
		err = fmt.Errorf("I²C bus %s not found (is it on? %s): %w", name, o.cfg.board.I2C[name].Enable, err)
		if o.i2cErr == nil {
			o.i2cErr = map[string]error{}
		}
		o.i2cErr[name] = err
		return nil, err
	}
	o.i2c[name] = b
	o.d.closers = append(o.d.closers, b.Close)
	return b, nil
}

func (o *opener) open() {
	// Expanders first: keypads and LEDs use their pins.
	for _, e := range o.cfg.Expanders {
		x, err := o.openExpander(e)
		if err != nil {
			o.miss("expander", e.Name, e.Required, err)
			continue
		}
		o.exp[e.Name] = x
	}
	for _, r := range o.cfg.Readers {
		if err := o.openReader(r); err != nil {
			o.miss("reader", r.Name, r.Required, err)
		}
	}
	for _, k := range o.cfg.Keypads {
		if err := o.openKeypad(k); err != nil {
			o.miss("keypad", k.Name, k.Required, err)
		}
	}
	var leds []LED
	for _, l := range o.cfg.LEDs {
		p, err := o.outPin(l.Expander, l.Pin)
		if err == nil {
			err = p.Out(level(false, l.ActiveLow))
		}
		if err != nil {
			o.miss("led", l.Name, false, err)
			continue
		}
		leds = append(leds, LED{Name: l.Name, Role: l.Role, Seat: l.Seat, Pin: p, ActiveLow: l.ActiveLow})
	}
	var buzzer *Buzzer
	if z := o.cfg.Buzzer; z != nil {
		p, err := o.outPin(z.Expander, z.Pin)
		if err == nil {
			err = p.Out(level(false, z.ActiveLow))
		}
		if err != nil {
			o.miss("buzzer", "buzzer", false, err)
		} else {
			buzzer = &Buzzer{Pin: p, ActiveLow: z.ActiveLow, Beep: z.Beep}
		}
	}
	displays := map[string]TextDisplay{}
	for _, dc := range o.cfg.Displays {
		d, err := o.openDisplay(dc)
		if err != nil {
			o.miss("display", dc.Name, dc.Required, err)
			continue
		}
		displays[dc.Name] = d
	}
	o.d.panel = NewPanel(leds, buzzer, displays, o.clock, o.log)
}

func (o *opener) openReader(r ReaderConfig) error {
	port, ok := o.spi[r.SPI]
	if !ok {
		if err := o.spiErr[r.SPI]; err != nil {
			return err
		}
		p, err := o.reg.SPI(r.SPI)
		if err != nil {
			err = fmt.Errorf("SPI port %s not found (is SPI on? %s): %w", r.SPI, o.cfg.board.SPI[r.SPI].Enable, err)
			if o.spiErr == nil {
				o.spiErr = map[string]error{}
			}
			o.spiErr[r.SPI] = err
			return err
		}
		port = &sharedPort{PortCloser: p}
		o.spi[r.SPI] = port
		o.d.closers = append(o.d.closers, p.Close)
	}
	var reset gpio.PinOut
	var irq gpio.PinIn
	if r.Reset != "" {
		p, err := o.pin(r.Reset)
		if err != nil {
			return fmt.Errorf("reset: %w", err)
		}
		reset = p
	}
	if r.IRQ != "" {
		p, err := o.pin(r.IRQ)
		if err != nil {
			return fmt.Errorf("irq: %w", err)
		}
		irq = p
	}
	var sp spi.Port = port
	if r.CS != "" {
		cs, err := o.pin(r.CS)
		if err != nil {
			return fmt.Errorf("cs: %w", err)
		}
		if err := cs.Out(gpio.High); err != nil {
			return fmt.Errorf("cs: %w", err)
		}
		sp = &csPort{shared: port, cs: cs}
	}
	nr, err := NewNFCReader(r, sp, reset, irq, o.clock, o.log)
	if err != nil {
		return err
	}
	o.d.readers = append(o.d.readers, nr)
	return nil
}

func (o *opener) openKeypad(k KeypadConfig) error {
	names := sortedKeys(k.Keys)
	var in KeyInput
	pull := map[string]gpio.Pull{"up": gpio.PullUp, "down": gpio.PullDown, "none": gpio.Float}[k.Pull]
	if k.Expander == "" {
		pins := make([]gpio.PinIn, len(names))
		for i, key := range names {
			p, err := o.pin(k.Keys[key])
			if err != nil {
				return fmt.Errorf("key %s: %w", key, err)
			}
			if err := p.In(pull, gpio.NoEdge); err != nil {
				return fmt.Errorf("key %s: %w", key, err)
			}
			pins[i] = p
		}
		in = GPIOKeys{Pins: pins, ActiveHigh: k.ActiveHigh}
	} else {
		x, ok := o.exp[k.Expander]
		if !ok {
			return fmt.Errorf("expander %s is missing", k.Expander)
		}
		gk, err := x.keys(names, k.Keys, pull)
		if err != nil {
			return err
		}
		gk.ActiveHigh = k.ActiveHigh
		in = gk
	}
	o.d.keypads = append(o.d.keypads, NewButtonKeypad(k, names, in, o.clock, o.log))
	return nil
}

func (o *opener) outPin(exp, p string) (gpio.PinOut, error) {
	if exp == "" {
		return o.pin(p)
	}
	x, ok := o.exp[exp]
	if !ok {
		return nil, fmt.Errorf("expander %s is missing", exp)
	}
	pin, err := x.pin(p)
	if err != nil {
		return nil, err
	}
	return &lockedPin{PinIO: pin, mu: &x.mu}, nil
}

func (o *opener) openDisplay(dc DisplayConfig) (TextDisplay, error) {
	switch dc.Kind {
	case "tm1637":
		clk, err := o.pin(dc.CLK)
		if err != nil {
			return nil, fmt.Errorf("clk: %w", err)
		}
		dio, err := o.pin(dc.DIO)
		if err != nil {
			return nil, fmt.Errorf("dio: %w", err)
		}
		return NewTM1637Display(clk, dio, dc.Digits)
	case "ssd1306":
		b, err := o.bus(dc.Bus)
		if err != nil {
			return nil, err
		}
		opts := ssd1306.DefaultOpts
		opts.W, opts.H = dc.Width, dc.Height
		if dc.Flip {
			opts.MirrorVertical, opts.MirrorHorizontal = true, true
		}
		dev, err := ssd1306.NewI2C(&addrBus{Bus: b, addr: dc.Address}, &opts)
		if err != nil {
			return nil, fmt.Errorf("ssd1306 at %#02x on %s not answering: %w", dc.Address, dc.Bus, err)
		}
		o.d.closers = append(o.d.closers, dev.Halt)
		return SSD1306Display{Dev: dev}, nil
	}
	return nil, fmt.Errorf("kind %q", dc.Kind)
}

// expander is an opened port expander.
type expander struct {
	cfg ExpanderConfig
	mu  sync.Mutex
	mcp *mcp23xxx.Dev
	pcf *pcf857x.Dev
}

func (o *opener) openExpander(e ExpanderConfig) (*expander, error) {
	b, err := o.bus(e.Bus)
	if err != nil {
		return nil, err
	}
	x := &expander{cfg: e}
	switch e.Kind {
	case "mcp23017", "mcp23008":
		v := mcp23xxx.MCP23017
		if e.Kind == "mcp23008" {
			v = mcp23xxx.MCP23008
		}
		if x.mcp, err = mcp23xxx.NewI2C(b, v, e.Address); err != nil {
			return nil, fmt.Errorf("%s at %#02x on %s not answering: %w", e.Kind, e.Address, e.Bus, err)
		}
		o.d.closers = append(o.d.closers, x.mcp.Close)
	case "pcf8574", "pcf8575":
		v := pcf857x.PCF8574
		if e.Kind == "pcf8575" {
			v = pcf857x.PCF8575
		}
		if x.pcf, err = pcf857x.New(b, e.Address, v); err != nil {
			return nil, fmt.Errorf("%s at %#02x on %s: %w", e.Kind, e.Address, e.Bus, err)
		}
		// New does not talk to the chip; a read does.
		var all []int
		for i := range x.pcf.Pins {
			all = append(all, i)
		}
		g, err := x.pcf.Group(all...)
		if err == nil {
			_, err = g.Read(0)
		}
		if err != nil {
			return nil, fmt.Errorf("%s at %#02x on %s not answering: %w", e.Kind, e.Address, e.Bus, err)
		}
	}
	return x, nil
}

// index turns a config pin name into (port, bit): A3 → (0, 3), B0 → (1, 0)
// on an MCP230xx; P5 → (0, 5), P12 → (0, 10) on a PCF857x.
func (x *expander) index(name string) (int, int, error) {
	n := strings.ToUpper(name)
	if !slices.Contains(expanderPins[x.cfg.Kind], n) {
		return 0, 0, fmt.Errorf("%q is not a pin of a %s", name, x.cfg.Kind)
	}
	if x.mcp != nil {
		bit, _ := strconv.Atoi(n[1:])
		return int(n[0] - 'A'), bit, nil
	}
	bit, _ := strconv.Atoi(n[1:])
	if strings.HasPrefix(n, "P1") && len(n) == 3 {
		bit = 8 + int(n[2]-'0')
	}
	return 0, bit, nil
}

func (x *expander) pin(name string) (gpio.PinIO, error) {
	port, bit, err := x.index(name)
	if err != nil {
		return nil, err
	}
	if x.mcp != nil {
		return x.mcp.Pins[port][bit], nil
	}
	return x.pcf.Pins[bit], nil
}

// keys sets the key pins up as inputs and groups them per port.
func (x *expander) keys(names []string, keys map[string]string, pull gpio.Pull) (GroupKeys, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	byPort := map[int][]int{} // port → bits
	keyOf := map[int][]int{}  // port → key index per bit position
	for i, key := range names {
		port, bit, err := x.index(keys[key])
		if err != nil {
			return GroupKeys{}, fmt.Errorf("key %s: %w", key, err)
		}
		p, _ := x.pin(keys[key])
		if err := p.In(pull, gpio.NoEdge); err != nil {
			return GroupKeys{}, fmt.Errorf("key %s: %s not answering: %w", key, x.cfg.Kind, err)
		}
		byPort[port] = append(byPort[port], bit)
		keyOf[port] = append(keyOf[port], i)
	}
	gk := GroupKeys{Lock: &x.mu}
	for _, port := range sortedInts(byPort) {
		var g gpio.Group
		if x.mcp != nil {
			gp := x.mcp.Group(port, byPort[port])
			if gp == nil {
				return GroupKeys{}, fmt.Errorf("%s: no pin group for port %d", x.cfg.Kind, port)
			}
			g = *gp
		} else {
			var err error
			if g, err = x.pcf.Group(byPort[port]...); err != nil {
				return GroupKeys{}, err
			}
		}
		gk.Parts = append(gk.Parts, GroupPart{Group: g, Keys: keyOf[port]})
	}
	return gk, nil
}

func sortedInts[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// lockedPin holds its expander's lock around each write.
type lockedPin struct {
	gpio.PinIO
	mu *sync.Mutex
}

func (p *lockedPin) Out(l gpio.Level) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.PinIO.Out(l)
}

// sharedPort is an SPI port opened once and shared by the readers on it:
// periph's sysfs SPI port can be connected only once.
type sharedPort struct {
	spi.PortCloser
	mu   sync.Mutex
	conn spi.Conn
	err  error
}

func (s *sharedPort) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil && s.err == nil {
		s.conn, s.err = s.PortCloser.Connect(f, mode, bits)
	}
	return s.conn, s.err
}

// csPort is a reader's view of a shared port: its own chip-select line,
// driven low around each transfer, with the bus held meanwhile.
type csPort struct {
	shared *sharedPort
	cs     gpio.PinOut
}

func (p *csPort) String() string                      { return p.shared.String() + "+" + p.cs.Name() }
func (p *csPort) LimitSpeed(f physic.Frequency) error { return p.shared.LimitSpeed(f) }
func (p *csPort) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	c, err := p.shared.Connect(f, mode, bits)
	if err != nil {
		return nil, err
	}
	return &csConn{Conn: c, cs: p.cs, mu: &p.shared.mu}, nil
}

type csConn struct {
	spi.Conn
	cs gpio.PinOut
	mu *sync.Mutex
}

func (c *csConn) Tx(w, r []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.cs.Out(gpio.Low); err != nil {
		return err
	}
	err := c.Conn.Tx(w, r)
	if e := c.cs.Out(gpio.High); err == nil {
		err = e
	}
	return err
}

func (c *csConn) TxPackets(p []spi.Packet) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.cs.Out(gpio.Low); err != nil {
		return err
	}
	err := c.Conn.TxPackets(p)
	if e := c.cs.Out(gpio.High); err == nil {
		err = e
	}
	return err
}

// addrBus sends transfers for 0x3C (the address periph's ssd1306 always
// uses) to the configured address (0x3D modules).
type addrBus struct {
	i2c.Bus
	addr uint16
}

func (b *addrBus) Tx(addr uint16, w, r []byte) error {
	if addr == 0x3C {
		addr = b.addr
	}
	return b.Bus.Tx(addr, w, r)
}

var (
	_ conn.Conn = &csConn{}
	_ spi.Port  = &csPort{}
)
