// Package hardware holds the small interfaces the table's devices meet and
// the events they report. Real drivers (periph.io) and simulated devices
// (hardware/sim) both implement them.
package hardware

import (
	"context"
	"fmt"
	"strings"
)

// TagEvent is a card or base tag arriving at (Present) or leaving a reader.
type TagEvent struct {
	Reader  string `json:"reader"`
	UID     string `json:"uid"`
	Present bool   `json:"present"`
}

// KeyEvent is a key or button press: "1"–"6" on a dice keypad, or a named
// key such as "confirm", "undo", "next", "roll", "cancel".
type KeyEvent struct {
	Keypad string `json:"keypad"`
	Key    string `json:"key"`
	Long   bool   `json:"long,omitempty"`
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
