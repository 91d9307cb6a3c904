package companion

import (
	"strings"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// dieName is a physical die's source (a fairness watch key,
// dice.SourceKey: "table/device" or "table/origin") in words, for the
// referee: the keypad, the camera's dice tray or the reader the rolls came
// from, never the config's name alone.
func dieName(cfg *Config, key string) rules.Text {
	src := key
	if cfg != nil {
		src = strings.TrimPrefix(key, cfg.Table+"/")
	}
	if cfg != nil && cfg.Camera != nil && cfg.Camera.DiceTray != nil && src == cfg.Camera.DiceTray.Device {
		return rules.Text{PL: "taca na kości (kamera)", EN: "the dice tray (camera)"}
	}
	switch src {
	case string(dice.Keypad):
		return rules.Text{PL: "klawiatura stołu", EN: "the table's keypad"}
	case string(dice.Camera):
		return rules.Text{PL: "kamera stołu", EN: "the table's camera"}
	case string(dice.NFC):
		return rules.Text{PL: "kości z chipem NFC", EN: "the NFC dice"}
	case "dice":
		return rules.Text{PL: "klawiatura kości", EN: "the dice keypad"}
	}
	if n, ok := strings.CutPrefix(src, "seat-"); ok && n != "" && strings.Trim(n, "0123456789") == "" {
		return rules.Textf("klawiatura miejsca %s", "seat %s's keypad", n)
	}
	return rules.Textf("urządzenie %s", "device %s", src)
}

// diceNames are the fairness watch's sources in words, by key.
func diceNames(cfg *Config, reports []dice.FairnessReport) map[string]rules.Text {
	if len(reports) == 0 {
		return nil
	}
	out := make(map[string]rules.Text, len(reports))
	for _, r := range reports {
		out[r.Key] = dieName(cfg, r.Key)
	}
	return out
}
