package hardware

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/mfrc522/commands"
)

// NFCReader is an MFRC522 reader on SPI. It polls the field and turns what
// it finds into tag present / tag removed events, with debounce: a card
// lying on the reader is one event, however long it lies there, and a card
// is removed only after Debounce without it. MIFARE Classic and NTAG /
// Ultralight UIDs of 4, 7 and 10 bytes are read (ISO 14443-3 cascade
// levels 1–3).
//
// The chip is driven through periph's mfrc522/commands.LowLevel (register
// access, init, MIFARE authentication); the ISO 14443-3 polling is done
// here, because the periph driver's ReadUID waits on the IRQ line in real
// time, stops at 7-byte UIDs and cannot tell two cards from a garbled
// read.
type NFCReader struct {
	cfg   ReaderConfig
	reset gpio.PinOut
	clock Clock
	log   *slog.Logger
	ll    *commands.LowLevel
	key   [6]byte

	mu      sync.Mutex
	running bool
	closed  bool

	// tick, when set (tests), runs at the end of each round of the loop
	// (a look at the field, or a failed attempt to reach the chip).
	tick func()
	// maxPolls bounds the wait for the end of one exchange, in reads of
	// the chip's interrupt register.
	maxPolls int
}

// NewNFCReader opens the reader on port. reset (may be nil: RST tied high)
// and irq (may be nil) are the reader's lines. cfg's zero durations are
// filled with the defaults; clock nil is the system clock.
func NewNFCReader(cfg ReaderConfig, port spi.Port, reset gpio.PinOut, irq gpio.PinIn, clock Clock, log *slog.Logger) (*NFCReader, error) {
	if clock == nil {
		clock = SystemClock()
	}
	if log == nil {
		log = slog.Default()
	}
	c := Config{Readers: []ReaderConfig{cfg}}
	c.defaults()
	cfg = c.Readers[0]
	r := &NFCReader{cfg: cfg, reset: reset, clock: clock, log: log.With("reader", cfg.Name), maxPolls: maxIRQPolls}
	if cfg.Data != nil {
		k, err := hex.DecodeString(cfg.Data.Key)
		if err != nil || len(k) != 6 {
			return nil, fmt.Errorf("hardware: reader %s: data key %q is not 12 hex digits", cfg.Name, cfg.Data.Key)
		}
		copy(r.key[:], k)
	}
	rst := reset
	if rst == nil {
		rst = noPin{}
	}
	var err error
	if irq == nil {
		r.ll, err = commands.NewLowLevelSPI(speedPort{port, physic.Frequency(cfg.SpeedHz) * physic.Hertz}, rst, nil)
	} else {
		r.ll, err = commands.NewLowLevelSPI(speedPort{port, physic.Frequency(cfg.SpeedHz) * physic.Hertz}, rst, irq)
	}
	if err != nil {
		return nil, fmt.Errorf("hardware: reader %s: %w", cfg.Name, err)
	}
	r.ll.SetAntennaGain(*cfg.Gain)
	return r, nil
}

// Name is the reader's name.
func (r *NFCReader) Name() string { return r.cfg.Name }

// Close powers the reader down. Call it after Run has returned.
func (r *NFCReader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	if err := r.ll.Halt(); err != nil {
		return fmt.Errorf("hardware: reader %s: %w", r.cfg.Name, err)
	}
	return nil
}

const (
	backoffFirst = time.Second
	backoffMax   = 30 * time.Second
)

// Run polls the reader until ctx ends and returns ctx's error. Hardware
// trouble never ends it: a garbled read, two cards at once or a tag
// flickering at the edge of the field are reported as Fault events; a
// reader that stops answering is reported once (FaultNotAnswering), retried
// with a growing pause (1s … 30s) and reported again when it is back
// (FaultRecovered).
func (r *NFCReader) Run(ctx context.Context, emit func(TagEvent)) error {
	r.mu.Lock()
	if r.running || r.closed {
		r.mu.Unlock()
		return fmt.Errorf("hardware: reader %s: already running or closed", r.cfg.Name)
	}
	r.running = true
	r.mu.Unlock()
	defer func() { r.mu.Lock(); r.running = false; r.mu.Unlock() }()

	tr := tracker{reader: r.cfg.Name, debounce: r.cfg.Debounce}
	up, faulted, hard := false, false, false
	backoff := backoffFirst
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var fail error
		if !up {
			if fail = r.start(ctx, hard); fail == nil {
				up = true
			}
		}
		var obs observation
		if fail == nil {
			if obs = r.look(ctx, tr.holds); obs.kind == obsDead {
				fail = obs.err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		wait := r.cfg.Poll
		if fail != nil {
			up, hard = false, true
			if !faulted {
				faulted = true
				r.log.Warn("NFC reader not answering; retrying", "err", fail)
				emit(TagEvent{Reader: r.cfg.Name, Fault: &Fault{Kind: FaultNotAnswering, Detail: fail.Error()}})
			}
			wait = backoff
			backoff = min(backoff*2, backoffMax)
		} else {
			if faulted {
				faulted, backoff = false, backoffFirst
				r.log.Info("NFC reader answering again")
				emit(TagEvent{Reader: r.cfg.Name, Fault: &Fault{Kind: FaultRecovered}})
			}
			for _, e := range tr.observe(r.clock.Now(), obs) {
				if e.Fault != nil {
					r.log.Warn("NFC read trouble", "fault", e.Fault.Kind, "uid", e.Fault.UID, "detail", e.Fault.Detail)
				} else {
					r.log.Debug("tag", "uid", e.UID, "present", e.Present)
				}
				emit(e)
			}
		}
		if r.tick != nil {
			r.tick()
		}
		if err := r.clock.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// Versions of the MFRC522 and its clones in VersionReg.
var chipVersions = map[byte]string{0x91: "MFRC522 v1", 0x92: "MFRC522 v2", 0x88: "FM17522", 0xB2: "FM17522", 0x12: "MFRC522 clone"}

// start (re)initialises the chip: a pulse on RST after a failure (when the
// line is wired), the soft reset and settings of periph's Init, antenna on,
// and a check that the chip answers with a known version.
func (r *NFCReader) start(ctx context.Context, hard bool) error {
	if hard && r.reset != nil {
		if err := r.reset.Out(gpio.Low); err != nil {
			return fmt.Errorf("reset line: %w", err)
		}
		if err := r.clock.Sleep(ctx, time.Millisecond); err != nil {
			return err
		}
		if err := r.reset.Out(gpio.High); err != nil {
			return fmt.Errorf("reset line: %w", err)
		}
		if err := r.clock.Sleep(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
	if err := r.checkVersion(); err != nil {
		return err
	}
	if err := r.ll.Init(); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	return nil
}

func (r *NFCReader) checkVersion() error {
	v, err := r.ll.DevRead(commands.VersionReg)
	if err != nil {
		return fmt.Errorf("SPI: %w", err)
	}
	if v == 0x00 || v == 0xFF {
		return fmt.Errorf("version register reads %#02x: no MFRC522 on the bus (wiring, power, chip-select?)", v)
	}
	if _, ok := chipVersions[v]; !ok {
		r.log.Debug("unknown MFRC522 version; carrying on", "version", fmt.Sprintf("%#02x", v))
	}
	return nil
}

type obsKind int

const (
	obsAbsent obsKind = iota
	obsTag
	obsGarbled
	obsCollision
	obsDead
)

// observation is what one look at the field found.
type observation struct {
	kind      obsKind
	uid, data string
	err       error
}

// Errors of one exchange with a tag.
var (
	errNoAnswer  = errors.New("no answer")
	errCollision = errors.New("two or more tags answered at once")
)

type garbled struct{ msg string }

func (g garbled) Error() string { return g.msg }

func garbledf(format string, a ...any) error { return garbled{fmt.Sprintf(format, a...)} }

// deadError is the chip (not a tag) failing: the bus or a hung chip.
type deadError struct{ err error }

func (d deadError) Error() string { return d.err.Error() }
func (d deadError) Unwrap() error { return d.err }

// look wakes the tags in the field, selects the one there and reads its
// data if configured (not for a tag held already: holds(uid)).
func (r *NFCReader) look(ctx context.Context, holds func(uid string) bool) observation {
	uid, sak, err := r.selectTag()
	var data []byte
	crypto := false
	if err == nil && r.cfg.Data != nil && !holds(uid) {
		data, crypto, err = r.readData(uid, sak)
	}
	if err == nil {
		if herr := r.halt(crypto); herr != nil {
			return observation{kind: obsDead, err: herr}
		}
	}
	var d deadError
	switch {
	case err == nil:
		o := observation{kind: obsTag, uid: uid}
		if data != nil {
			o.data = strings.ToUpper(hex.EncodeToString(data))
		}
		return o
	case errors.As(err, &d):
		return observation{kind: obsDead, err: err}
	case errors.Is(err, errNoAnswer) && uid == "":
		return observation{kind: obsAbsent}
	}
	// Something answered but not cleanly. A dead chip can look like this
	// too (a floating MISO line reads 0xFF), so make sure it is alive; then
	// reset the tags in the field (RF off and on) so the next look starts
	// clean.
	if verr := r.checkVersion(); verr != nil {
		return observation{kind: obsDead, err: verr}
	}
	if crypto {
		_ = r.ll.StopCrypto()
	}
	if rerr := r.rfReset(ctx); rerr != nil {
		return observation{kind: obsDead, err: rerr}
	}
	if errors.Is(err, errCollision) {
		return observation{kind: obsCollision, err: err}
	}
	if uid != "" {
		err = fmt.Errorf("tag %s: %w", uid, err)
	}
	return observation{kind: obsGarbled, err: err}
}

// rfReset turns the field off and on, which resets every tag in it.
func (r *NFCReader) rfReset(ctx context.Context) error {
	if err := r.ll.SetAntenna(false); err != nil {
		return deadError{err}
	}
	if err := r.clock.Sleep(ctx, 5*time.Millisecond); err != nil {
		return err
	}
	if err := r.ll.SetAntenna(true); err != nil {
		return deadError{err}
	}
	return r.clock.Sleep(ctx, 5*time.Millisecond)
}

// ISO 14443-3 type A commands.
const (
	piccWUPA  = 0x52
	piccHLTA  = 0x50
	piccRead  = 0x30
	cascadeCT = 0x88
)

var selCodes = [3]byte{0x93, 0x95, 0x97}

// selectTag wakes the tags (WUPA, so a tag halted after the last look
// answers again) and runs the cascade levels to the tag's full UID. It
// returns errNoAnswer with an empty uid when the field is empty.
func (r *NFCReader) selectTag() (string, byte, error) {
	atqa, bits, err := r.transceive([]byte{piccWUPA}, 7)
	if err != nil {
		if errors.Is(err, errCollision) {
			// Tags of different types answer WUPA with different ATQAs;
			// the collision shows again, bit by bit, at anticollision.
			err = nil
		} else {
			return "", 0, err
		}
	} else if bits != 16 || len(atqa) != 2 {
		return "", 0, garbledf("ATQA of %d bits, want 16", bits)
	}
	var uid []byte
	for level := 0; level < 3; level++ {
		sel := selCodes[level]
		resp, bits, err := r.transceive([]byte{sel, 0x20}, 0)
		if errors.Is(err, errNoAnswer) {
			return "", 0, garbledf("no answer at cascade level %d", level+1)
		}
		if err != nil {
			return "", 0, err
		}
		if bits != 40 || len(resp) != 5 {
			return "", 0, garbledf("cascade level %d: UID part of %d bits, want 40", level+1, bits)
		}
		if resp[0]^resp[1]^resp[2]^resp[3] != resp[4] {
			return "", 0, garbledf("cascade level %d: BCC %02X does not match UID part % X", level+1, resp[4], resp[:4])
		}
		frame := append([]byte{sel, 0x70}, resp...)
		frame = appendCRC(frame)
		sak, bits, err := r.transceive(frame, 0)
		if errors.Is(err, errNoAnswer) {
			return "", 0, garbledf("no answer to SELECT at cascade level %d", level+1)
		}
		if err != nil {
			return "", 0, err
		}
		if bits != 24 || len(sak) != 3 {
			return "", 0, garbledf("cascade level %d: SAK of %d bits, want 24", level+1, bits)
		}
		if !checkCRC(sak) {
			return "", 0, garbledf("cascade level %d: SAK CRC does not match", level+1)
		}
		if sak[0]&0x04 != 0 { // UID not complete
			if resp[0] != cascadeCT || level == 2 {
				return "", 0, garbledf("cascade level %d: SAK %02X asks for another level after UID part % X", level+1, sak[0], resp[:4])
			}
			uid = append(uid, resp[1:4]...)
			continue
		}
		if resp[0] == cascadeCT {
			return "", 0, garbledf("cascade level %d: cascade tag in a complete UID", level+1)
		}
		uid = append(uid, resp[:4]...)
		return strings.ToUpper(hex.EncodeToString(uid)), sak[0], nil
	}
	return "", 0, garbledf("UID longer than 10 bytes")
}

// readData reads the configured block (MIFARE Classic, after
// authenticating with key A) or pages (NTAG / Ultralight). crypto reports
// that a Crypto1 session is open (to be closed after HLTA).
func (r *NFCReader) readData(uid string, sak byte) (data []byte, crypto bool, err error) {
	d := r.cfg.Data
	var addr byte
	switch {
	case sak&0x18 == 0x08 || sak&0x18 == 0x18: // MIFARE Classic Mini / 1K / 4K
		addr = byte(*d.Block)
		u, _ := hex.DecodeString(uid)
		st, err := r.ll.Auth(commands.PICC_AUTHENT1A, addr, r.key, u[len(u)-4:])
		if err != nil {
			return nil, false, deadError{err}
		}
		if st != commands.AuthOk {
			return nil, false, garbledf("data: block %d: authentication with key A failed (wrong key?)", addr)
		}
		crypto = true
	case sak == 0x00: // MIFARE Ultralight, NTAG21x
		addr = byte(*d.Page)
	default:
		return nil, false, garbledf("data: a tag with SAK %02X is neither MIFARE Classic nor NTAG; its memory is not read", sak)
	}
	resp, bits, err := r.transceive(appendCRC([]byte{piccRead, addr}), 0)
	if errors.Is(err, errNoAnswer) {
		return nil, crypto, garbledf("data: no answer to READ %d", addr)
	}
	if err != nil {
		return nil, crypto, err
	}
	if bits == 4 {
		return nil, crypto, garbledf("data: READ %d refused (NAK %X)", addr, resp[0]&0x0F)
	}
	if len(resp) != 18 || !checkCRC(resp) {
		return nil, crypto, garbledf("data: READ %d: %d bytes, want 16 and a good CRC", addr, len(resp))
	}
	return resp[:d.Length], crypto, nil
}

// halt sends HLTA, so the tag answers only WUPA until it leaves the field;
// the tag does not answer it.
func (r *NFCReader) halt(crypto bool) error {
	_, _, err := r.transceive(appendCRC([]byte{piccHLTA, 0}), 0)
	var d deadError
	if errors.As(err, &d) {
		return err
	}
	if crypto {
		if err := r.ll.StopCrypto(); err != nil {
			return deadError{err}
		}
	}
	return nil
}

// maxIRQPolls bounds the wait for an exchange: the chip's timer (set by
// Init to about 15ms) ends every exchange well before.
const maxIRQPolls = 2000

// transceive sends data (the last byte's txBits bits only, 0 for all) and
// returns the answer and its length in bits. errNoAnswer: the chip's timer
// ran out; errCollision: bits collided; garbled: parity, protocol or
// overflow error; deadError: SPI failure or a chip that never finishes.
func (r *NFCReader) transceive(data []byte, txBits byte) ([]byte, int, error) {
	ll := r.ll
	w := func(reg int, v byte) error {
		if err := ll.DevWrite(reg, v); err != nil {
			return deadError{err}
		}
		return nil
	}
	rd := func(reg int) (byte, error) {
		v, err := ll.DevRead(reg)
		if err != nil {
			return 0, deadError{err}
		}
		return v, nil
	}
	if err := w(commands.CommandReg, commands.PCD_IDLE); err != nil {
		return nil, 0, err
	}
	if err := w(commands.CommIrqReg, 0x7F); err != nil { // clear all IRQ bits
		return nil, 0, err
	}
	if err := w(commands.FIFOLevelReg, 0x80); err != nil { // flush the FIFO
		return nil, 0, err
	}
	for _, b := range data {
		if err := w(commands.FIFODataReg, b); err != nil {
			return nil, 0, err
		}
	}
	if err := w(commands.BitFramingReg, txBits&0x07); err != nil {
		return nil, 0, err
	}
	if err := w(commands.CommandReg, commands.PCD_TRANSCEIVE); err != nil {
		return nil, 0, err
	}
	if err := w(commands.BitFramingReg, 0x80|txBits&0x07); err != nil { // StartSend
		return nil, 0, err
	}
	for i := 0; ; i++ {
		v, err := rd(commands.CommIrqReg)
		if err != nil {
			return nil, 0, err
		}
		if v&0x30 != 0 { // RxIRq or IdleIRq
			break
		}
		if v&0x01 != 0 { // TimerIRq
			return nil, 0, errNoAnswer
		}
		if i >= r.maxPolls {
			return nil, 0, deadError{fmt.Errorf("chip never finished an exchange (CommIrqReg %#02x)", v)}
		}
	}
	e, err := rd(commands.ErrorReg)
	if err != nil {
		return nil, 0, err
	}
	if e&0x08 != 0 {
		return nil, 0, errCollision
	}
	if e&0x13 != 0 {
		return nil, 0, garbledf("reader error register %#02x (%s)", e, errorBits(e))
	}
	n, err := rd(commands.FIFOLevelReg)
	if err != nil {
		return nil, 0, err
	}
	ctl, err := rd(commands.ControlReg)
	if err != nil {
		return nil, 0, err
	}
	n &= 0x7F
	if n > 64 {
		return nil, 0, garbledf("FIFO level %d", n)
	}
	bits := int(n) * 8
	if last := int(ctl & 0x07); last != 0 && n > 0 {
		bits = (int(n)-1)*8 + last
	}
	out := make([]byte, n)
	for i := range out {
		if out[i], err = rd(commands.FIFODataReg); err != nil {
			return nil, 0, err
		}
	}
	return out, bits, nil
}

func errorBits(e byte) string {
	var parts []string
	for _, b := range []struct {
		bit  byte
		name string
	}{{0x01, "protocol"}, {0x02, "parity"}, {0x04, "CRC"}, {0x10, "buffer overflow"}} {
		if e&b.bit != 0 {
			parts = append(parts, b.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// crcA is ISO 14443-3's CRC_A.
func crcA(data []byte) uint16 {
	crc := uint16(0x6363)
	for _, b := range data {
		b ^= byte(crc)
		b ^= b << 4
		crc = crc>>8 ^ uint16(b)<<8 ^ uint16(b)<<3 ^ uint16(b)>>4
	}
	return crc
}

func appendCRC(data []byte) []byte {
	c := crcA(data)
	return append(data, byte(c), byte(c>>8))
}

func checkCRC(frame []byte) bool {
	if len(frame) < 3 {
		return false
	}
	c := crcA(frame[:len(frame)-2])
	return frame[len(frame)-2] == byte(c) && frame[len(frame)-1] == byte(c>>8)
}

// tracker turns looks at the field into events: present once, removed
// after debounce without the tag, faults once per run of the same fault.
type tracker struct {
	reader   string
	debounce time.Duration

	present   bool
	uid, data string
	lastSeen  time.Time
	missing   bool // the tag was not seen at the last look
	gaps      int  // times the tag came back after missing a look
	unsteady  bool // the unsteady fault was reported for this tag
	fault     FaultKind
}

// unsteadyGaps is how often a tag may drop out and come back before it is
// reported as unsteady.
const unsteadyGaps = 3

func (t *tracker) holds(uid string) bool { return t.present && t.uid == uid }

func (t *tracker) removed() TagEvent {
	e := TagEvent{Reader: t.reader, UID: t.uid}
	t.present, t.uid, t.data, t.missing, t.gaps, t.unsteady = false, "", "", false, 0, false
	return e
}

func (t *tracker) observe(now time.Time, o observation) []TagEvent {
	var out []TagEvent
	if o.kind != obsGarbled && o.kind != obsCollision {
		t.fault = ""
	}
	switch o.kind {
	case obsAbsent:
		if t.present {
			if now.Sub(t.lastSeen) >= t.debounce {
				out = append(out, t.removed())
			} else {
				t.missing = true
			}
		}
	case obsTag:
		if t.present && t.uid != o.uid {
			out = append(out, t.removed())
		}
		if !t.present {
			t.present, t.uid, t.data = true, o.uid, o.data
			out = append(out, TagEvent{Reader: t.reader, UID: o.uid, Present: true, Data: o.data})
		} else if t.missing {
			t.missing = false
			t.gaps++
			if t.gaps >= unsteadyGaps && !t.unsteady {
				t.unsteady = true
				out = append(out, TagEvent{Reader: t.reader, Fault: &Fault{Kind: FaultUnsteady, UID: t.uid,
					Detail: fmt.Sprintf("tag %s dropped out of the field %d times", t.uid, t.gaps)}})
			}
		}
		t.lastSeen = now
	case obsGarbled, obsCollision:
		kind := FaultGarbled
		if o.kind == obsCollision {
			kind = FaultCollision
		}
		if t.present {
			t.lastSeen = now // something is in the field: keep the tag
		}
		if t.fault != kind {
			t.fault = kind
			out = append(out, TagEvent{Reader: t.reader, Fault: &Fault{Kind: kind, UID: t.uid, Detail: o.err.Error()}})
		}
	}
	return out
}

// speedPort caps the clock periph's mfrc522 asks for (10 MHz) at the
// configured speed.
type speedPort struct {
	spi.Port
	max physic.Frequency
}

func (p speedPort) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	return p.Port.Connect(min(f, p.max), mode, bits)
}

// noPin stands for a line that is not wired (an MFRC522's RST tied high).
type noPin struct{}

func (noPin) String() string                        { return "none" }
func (noPin) Halt() error                           { return nil }
func (noPin) Name() string                          { return "none" }
func (noPin) Number() int                           { return -1 }
func (noPin) Function() string                      { return "" }
func (noPin) Out(gpio.Level) error                  { return nil }
func (noPin) PWM(gpio.Duty, physic.Frequency) error { return nil }

var _ gpio.PinOut = noPin{}
