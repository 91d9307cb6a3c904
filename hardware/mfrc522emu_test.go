package hardware

import (
	"bytes"
	"errors"
	"fmt"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/mfrc522/commands"
)

// emuChip is a register-level model of an MFRC522 with ISO 14443-3 type A
// tags in its field: enough of the chip (FIFO, Transceive, MFAuthent, the
// interrupt and error registers, soft reset, the antenna) and of the tags
// (WUPA/REQA, anticollision and SELECT at cascade levels 1–3, HLTA, READ,
// MIFARE Classic authentication) to record the transcripts in testdata/nfc.
// The recorded transcripts, not this model, are what the tests replay.
type emuChip struct {
	regs    [64]byte
	fifo    []byte
	version byte
	// dead: the chip is gone from the bus; reads are 0x00.
	dead bool
	// garble corrupts the next answer: "parity" (error register),
	// "bcc" (anticollision answer), "crc" (SAK).
	garble string

	cards []*emuCard // in the field
	// pending interrupt bits show after pendDelay more reads.
	pendIRQ   byte
	pendDelay int
}

type cardState int

const (
	cardOff cardState = iota
	cardIdle
	cardReady
	cardActive
	cardHalt
)

type emuCard struct {
	uid   []byte
	atqa  [2]byte
	sak   byte
	state cardState
	level int
	// classic cards need authentication with key before READ.
	classic bool
	key     [6]byte
	authed  int // sector authenticated, -1 none
	mem     map[byte][]byte
}

func newClassic(uid ...byte) *emuCard {
	return &emuCard{uid: uid, atqa: [2]byte{0x04, 0x00}, sak: 0x08, classic: true, key: [6]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, authed: -1, mem: map[byte][]byte{}}
}

func newNTAG(uid ...byte) *emuCard {
	atqa := [2]byte{0x44, 0x00}
	if len(uid) == 10 {
		atqa[0] = 0x84
	}
	return &emuCard{uid: uid, atqa: atqa, sak: 0x00, authed: -1, mem: map[byte][]byte{}}
}

func newEmuChip() *emuChip {
	e := &emuChip{version: 0x92}
	e.softReset()
	return e
}

func (e *emuChip) softReset() {
	e.regs = [64]byte{}
	e.regs[commands.CommandReg] = 0x20
	e.regs[commands.TxControlReg] = 0x80
	e.regs[commands.CollReg] = 0x80
	e.fifo = nil
	e.pendIRQ, e.pendDelay = 0, 0
	e.fieldOff()
}

func (e *emuChip) fieldOn() bool { return e.regs[commands.TxControlReg]&0x03 == 0x03 }

func (e *emuChip) fieldOff() {
	for _, c := range e.cards {
		c.state, c.authed = cardOff, -1
	}
}

// setField puts exactly these cards in the field.
func (e *emuChip) setField(cards ...*emuCard) {
	for _, c := range e.cards {
		if !containsCard(cards, c) {
			c.state, c.authed = cardOff, -1
		}
	}
	for _, c := range cards {
		if !containsCard(e.cards, c) {
			c.state, c.authed = cardOff, -1
			if e.fieldOn() {
				c.state = cardIdle
			}
		}
	}
	e.cards = cards
}

func containsCard(cs []*emuCard, c *emuCard) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// The SPI side: emuPort is the spi.PortCloser spitest.Record wraps.

type emuPort struct{ chip *emuChip }

func (p *emuPort) String() string                                            { return "mfrc522-model" }
func (p *emuPort) Close() error                                              { return nil }
func (p *emuPort) LimitSpeed(physic.Frequency) error                         { return nil }
func (p *emuPort) Connect(physic.Frequency, spi.Mode, int) (spi.Conn, error) { return p, nil }
func (p *emuPort) Duplex() conn.Duplex                                       { return conn.Full }
func (p *emuPort) TxPackets([]spi.Packet) error                              { return errors.New("emu: no packets") }

func (p *emuPort) Tx(w, r []byte) error {
	e := p.chip
	if len(w) != 2 {
		return fmt.Errorf("emu: %d-byte transfer", len(w))
	}
	reg := int(w[0]>>1) & 0x3F
	if w[0]&0x80 != 0 {
		if len(r) != 2 {
			return fmt.Errorf("emu: read with a %d-byte buffer", len(r))
		}
		r[0], r[1] = 0, e.read(reg)
		return nil
	}
	if len(r) != 0 {
		for i := range r {
			r[i] = 0
		}
	}
	e.write(reg, w[1])
	return nil
}

func (e *emuChip) read(reg int) byte {
	if e.dead {
		return 0
	}
	switch reg {
	case commands.VersionReg:
		return e.version
	case commands.CommIrqReg:
		if e.pendIRQ != 0 {
			if e.pendDelay > 0 {
				e.pendDelay--
			} else {
				e.regs[reg] |= e.pendIRQ
				e.pendIRQ = 0
			}
		}
		return e.regs[reg]
	case commands.FIFODataReg:
		if len(e.fifo) == 0 {
			return 0
		}
		b := e.fifo[0]
		e.fifo = e.fifo[1:]
		return b
	case commands.FIFOLevelReg:
		return byte(len(e.fifo))
	}
	return e.regs[reg]
}

func (e *emuChip) write(reg int, v byte) {
	if e.dead {
		return
	}
	switch reg {
	case commands.CommandReg:
		e.regs[reg] = v
		e.pendIRQ, e.pendDelay = 0, 0
		switch v & 0x0F {
		case commands.PCD_RESETPHASE:
			e.softReset()
		case commands.PCD_AUTHENT:
			e.authenticate()
		}
	case commands.CommIrqReg, commands.DivIrqReg:
		if v&0x80 != 0 {
			e.regs[reg] |= v & 0x7F
		} else {
			e.regs[reg] &^= v & 0x7F
		}
	case commands.FIFODataReg:
		e.fifo = append(e.fifo, v)
	case commands.FIFOLevelReg:
		if v&0x80 != 0 {
			e.fifo = nil
		}
	case commands.BitFramingReg:
		e.regs[reg] = v & 0x7F
		if v&0x80 != 0 && e.regs[commands.CommandReg]&0x0F == commands.PCD_TRANSCEIVE {
			frame := e.fifo
			e.fifo = nil
			e.exchange(frame, v&0x07)
		}
	case commands.TxControlReg:
		was := e.fieldOn()
		e.regs[reg] = v
		switch {
		case was && !e.fieldOn():
			e.fieldOff()
		case !was && e.fieldOn():
			for _, c := range e.cards {
				c.state, c.authed = cardIdle, -1
			}
		}
	default:
		e.regs[reg] = v
	}
}

// answer puts a tag's answer in the FIFO; bits is its length in bits.
func (e *emuChip) answer(data []byte, bits int) {
	e.fifo = append([]byte(nil), data...)
	e.regs[commands.ControlReg] = byte(bits % 8)
	e.pendIRQ, e.pendDelay = 0x60, 1 // TxIRq | RxIRq, one read later
}

func (e *emuChip) silence() {
	e.pendIRQ, e.pendDelay = 0x01, 1 // TimerIRq
}

func (e *emuChip) take(kind string) bool {
	if e.garble == kind {
		e.garble = ""
		return true
	}
	return false
}

func cascadePart(uid []byte, level int) []byte {
	var part []byte
	switch {
	case len(uid) == 4:
		part = uid
	case len(uid) == 7 && level == 0:
		part = append([]byte{0x88}, uid[:3]...)
	case len(uid) == 7:
		part = uid[3:7]
	case len(uid) == 10 && level == 0:
		part = append([]byte{0x88}, uid[:3]...)
	case len(uid) == 10 && level == 1:
		part = append([]byte{0x88}, uid[3:6]...)
	default:
		part = uid[6:10]
	}
	return append(part, part[0]^part[1]^part[2]^part[3])
}

func levels(uid []byte) int { return map[int]int{4: 1, 7: 2, 10: 3}[len(uid)] }

func (e *emuChip) exchange(frame []byte, txBits byte) {
	e.regs[commands.ErrorReg] = 0
	e.regs[commands.ControlReg] = 0
	if !e.fieldOn() || len(frame) == 0 {
		e.silence()
		return
	}
	var live []*emuCard
	for _, c := range e.cards {
		if c.state != cardOff {
			live = append(live, c)
		}
	}
	parity := e.take("parity")
	defer func() {
		if parity {
			e.regs[commands.ErrorReg] |= 0x02
		}
	}()
	switch {
	case txBits == 7 && len(frame) == 1 && (frame[0] == 0x52 || frame[0] == 0x26):
		var answers [][]byte
		for _, c := range live {
			wake := c.state == cardIdle || (frame[0] == 0x52 && c.state == cardHalt)
			if wake {
				c.state, c.level = cardReady, 0
				answers = append(answers, c.atqa[:])
			} else {
				c.state = cardIdle
			}
		}
		e.reply(answers, 16)
	case len(frame) == 2 && frame[1] == 0x20:
		level := bytes.IndexByte([]byte{0x93, 0x95, 0x97}, frame[0])
		var answers [][]byte
		for _, c := range live {
			if c.state == cardReady && c.level == level {
				part := cascadePart(c.uid, level)
				if e.take("bcc") {
					part = append([]byte(nil), part...)
					part[4] ^= 0x01
				}
				answers = append(answers, part)
			}
		}
		e.reply(answers, 40)
	case len(frame) == 9 && frame[1] == 0x70:
		level := bytes.IndexByte([]byte{0x93, 0x95, 0x97}, frame[0])
		if !checkCRC(frame) {
			e.silence()
			return
		}
		var answers [][]byte
		for _, c := range live {
			if c.state != cardReady || c.level != level {
				continue
			}
			if !bytes.Equal(cascadePart(c.uid, level), frame[2:7]) {
				c.state = cardIdle
				continue
			}
			sak := c.sak
			if level+1 < levels(c.uid) {
				sak = 0x04
				c.level++
			} else {
				c.state = cardActive
			}
			ans := appendCRC([]byte{sak})
			if e.take("crc") {
				ans[2] ^= 0xFF
			}
			answers = append(answers, ans)
		}
		e.reply(answers, 24)
	case len(frame) == 4 && frame[0] == 0x50 && checkCRC(frame):
		for _, c := range live {
			if c.state == cardActive {
				c.state = cardHalt
			}
		}
		e.silence()
	case len(frame) == 4 && frame[0] == 0x30 && checkCRC(frame):
		for _, c := range live {
			if c.state != cardActive {
				continue
			}
			addr := frame[1]
			if c.classic && c.authed != int(addr)/4 {
				e.answer([]byte{0x04}, 4) // NAK
				return
			}
			var data []byte
			if c.classic {
				data = c.block(addr)
			} else {
				for p := 0; p < 4; p++ {
					data = append(data, c.page(addr+byte(p))...)
				}
			}
			e.answer(appendCRC(data), 18*8)
			return
		}
		e.silence()
	default:
		for _, c := range live {
			if c.state != cardHalt {
				c.state = cardIdle
			}
		}
		e.silence()
	}
}

// reply answers with what the woken tags said: one answer, or a collision.
func (e *emuChip) reply(answers [][]byte, bits int) {
	switch {
	case len(answers) == 0:
		e.silence()
	case len(answers) > 1 && !allEqual(answers):
		e.regs[commands.ErrorReg] |= 0x08 // CollErr
		e.regs[commands.CollReg] = 0x01
		e.answer(answers[0], bits)
	default:
		e.answer(answers[0], bits)
	}
}

func allEqual(as [][]byte) bool {
	for _, a := range as[1:] {
		if !bytes.Equal(a, as[0]) {
			return false
		}
	}
	return true
}

func (e *emuChip) authenticate() {
	f := e.fifo
	e.fifo = nil
	if len(f) != 12 || (f[0] != 0x60 && f[0] != 0x61) {
		e.silence()
		return
	}
	for _, c := range e.cards {
		if c.state != cardActive || !c.classic {
			continue
		}
		if bytes.Equal(f[2:8], c.key[:]) && bytes.Equal(f[8:12], c.uid[len(c.uid)-4:]) {
			c.authed = int(f[1]) / 4
			e.regs[commands.Status2Reg] |= 0x08
			e.pendIRQ, e.pendDelay = 0x10, 1 // IdleIRq
			return
		}
		c.state = cardIdle
	}
	e.silence()
}

func (c *emuCard) block(addr byte) []byte {
	if b, ok := c.mem[addr]; ok {
		return b
	}
	if addr == 0 {
		return append(append([]byte(nil), c.uid...), make([]byte, 16-len(c.uid))...)
	}
	return make([]byte, 16)
}

func (c *emuCard) page(p byte) []byte {
	blk := c.block(p / 4 * 4)
	i := int(p%4) * 4
	return blk[i : i+4]
}
