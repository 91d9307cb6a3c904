// Package hardware holds the small interfaces the table's devices meet and
// the events they report, and the real drivers behind them: MFRC522 NFC
// readers on SPI, buttons and dice keypads on GPIO or an I²C port expander,
// status LEDs, a buzzer and TM1637 / SSD1306 score displays, all through
// periph.io and opened by name from a table's configuration (see Config and
// Open). Simulated devices (hardware/sim) feed the same events.
//
// A device that misbehaves does not stop the table: its driver reports what
// happened as an event carrying a Fault (which reader, what went wrong) and
// keeps retrying.
package hardware

import (
	"context"
	"fmt"
	"strings"
)

// TagEvent is a card or base tag arriving at (Present) or leaving a reader.
//
// An event with Fault set is a report about the reader instead (a garbled
// read, two cards at once, a reader that stopped answering); its UID is
// empty and Present false, so code that ignores faults ignores it too. The
// tag concerned, when known, is in Fault.UID.
type TagEvent struct {
	Reader  string `json:"reader"`
	UID     string `json:"uid"`
	Present bool   `json:"present"`
	// Data is what was read from the tag's memory, upper-case hex, for a
	// reader configured to read it (cards that carry their identity in
	// memory). Empty otherwise.
	Data  string `json:"data,omitempty"`
	Fault *Fault `json:"fault,omitempty"`
}

// KeyEvent is a key or button press: "1"–"6" on a dice keypad, or a named
// key such as "confirm", "undo", "next", "roll", "cancel".
//
// An event with Fault set reports a keypad that cannot be read (a port
// expander that stopped answering) or that is back; Key is then empty.
type KeyEvent struct {
	Keypad string `json:"keypad"`
	Key    string `json:"key"`
	Long   bool   `json:"long,omitempty"`
	Fault  *Fault `json:"fault,omitempty"`
	// Args are a command's arguments (a courier and the field it moves
	// to) from a simulated table's script, standing in for a player's
	// page; a real keypad never sends any.
	Args []string `json:"args,omitempty"`
}

// FaultKind says what went wrong with a device.
type FaultKind string

// Fault kinds.
const (
	// FaultGarbled: a tag answered but its answer did not check (bad BCC or
	// CRC, parity error, a data block that could not be read).
	FaultGarbled FaultKind = "garbled"
	// FaultCollision: two or more cards on one reader at once.
	FaultCollision FaultKind = "collision"
	// FaultUnsteady: a tag keeps dropping out of the field and coming back
	// (lying at the edge of the antenna); it is still reported as present.
	FaultUnsteady FaultKind = "unsteady"
	// FaultNotAnswering: the device does not answer on its bus; the driver
	// retries it.
	FaultNotAnswering FaultKind = "not_answering"
	// FaultRecovered: a device that was not answering answers again.
	FaultRecovered FaultKind = "recovered"
)

// Fault is what a device reports instead of a reading.
type Fault struct {
	Kind FaultKind `json:"kind"`
	// UID is the tag concerned, when one is known.
	UID string `json:"uid,omitempty"`
	// Detail is the technical cause, for logs.
	Detail string `json:"detail,omitempty"`
}

// Text says what happened on device (a reader or keypad name) in Polish and
// English, for the players and the referee.
func (f Fault) Text(device string) (pl, en string) {
	switch f.Kind {
	case FaultGarbled:
		return fmt.Sprintf("czytnik %s: nieczytelny odczyt karty, połóż ją jeszcze raz", device),
			fmt.Sprintf("reader %s: garbled read, place the card again", device)
	case FaultCollision:
		return fmt.Sprintf("czytnik %s: dwie karty naraz, zostaw jedną", device),
			fmt.Sprintf("reader %s: two cards at once, leave only one", device)
	case FaultUnsteady:
		return fmt.Sprintf("czytnik %s: karta %s na skraju anteny, połóż ją na środku", device, f.UID),
			fmt.Sprintf("reader %s: tag %s is at the edge of the field, place it in the middle", device, f.UID)
	case FaultNotAnswering:
		return fmt.Sprintf("urządzenie %s nie odpowiada, ponawiam", device),
			fmt.Sprintf("device %s is not answering, retrying", device)
	case FaultRecovered:
		return fmt.Sprintf("urządzenie %s znów działa", device),
			fmt.Sprintf("device %s is answering again", device)
	}
	return fmt.Sprintf("urządzenie %s: %s", device, f.Kind), fmt.Sprintf("device %s: %s", device, f.Kind)
}

// TagReader reports tag events until ctx ends.
type TagReader interface {
	Run(ctx context.Context, emit func(TagEvent)) error
}

// Keypad reports key events until ctx ends.
type Keypad interface {
	Run(ctx context.Context, emit func(KeyEvent)) error
}

// NormalizeUID writes a tag UID as upper-case hex without separators
// ("04:a1:b2:c3" → "04A1B2C3"). MIFARE Classic and NTAG UIDs are 4, 7 or 10
// bytes long.
func NormalizeUID(uid string) (string, error) {
	u := strings.ToUpper(strings.NewReplacer(":", "", "-", "", " ", "").Replace(uid))
	for _, c := range u {
		if !strings.ContainsRune("0123456789ABCDEF", c) {
			return "", fmt.Errorf("hardware: tag UID %q: %q is not a hex digit", uid, c)
		}
	}
	switch len(u) {
	case 8, 14, 20:
		return u, nil
	}
	return "", fmt.Errorf("hardware: tag UID %q has %d hex digits, want 8, 14 or 20 (4, 7 or 10 bytes)", uid, len(u))
}
