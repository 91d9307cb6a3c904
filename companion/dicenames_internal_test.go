package companion

import (
	"testing"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/vision"
)

// TestDieName: a die's source in the fairness table is words in both
// languages, whatever config name the keypad, tray or reader has.
func TestDieName(t *testing.T) {
	cfg := &Config{Table: "stol-1", Camera: &vision.Config{DiceTray: &vision.TrayConfig{Device: "tacka"}}}
	for _, tc := range []struct {
		key  string
		want rules.Text
	}{
		{"stol-1/keypad", rules.Text{PL: "klawiatura stołu", EN: "the table's keypad"}},
		{"stol-1/dice", rules.Text{PL: "klawiatura kości", EN: "the dice keypad"}},
		{"stol-1/seat-2", rules.Text{PL: "klawiatura miejsca 2", EN: "seat 2's keypad"}},
		{"stol-1/tacka", rules.Text{PL: "taca na kości (kamera)", EN: "the dice tray (camera)"}},
		{"stol-1/camera", rules.Text{PL: "kamera stołu", EN: "the table's camera"}},
		{"stol-1/nfc", rules.Text{PL: "kości z chipem NFC", EN: "the NFC dice"}},
		{"stol-1/seat-x", rules.Text{PL: "urządzenie seat-x", EN: "device seat-x"}},
	} {
		if got := dieName(cfg, tc.key); got != tc.want {
			t.Errorf("dieName(%q) = %+v, want %+v", tc.key, got, tc.want)
		}
	}
}
