package watch

import (
	"encoding/json"
	"strings"
	"testing"
)

// Whatever a broker delivers, the watch draws a screen and never panics;
// another sender's answer never settles this watch's command.
func FuzzApply(f *testing.F) {
	for _, s := range [][2]string{
		{"status", status}, {"state", state}, {"referee/state", state},
		{"events", `{"seq":20,"event":{"type":"stage_resolved","text":{"pl":"obrona","en":"saves on 4+"}}}`},
		{"referee/events", `{"seq":7,"event":{"type":"command_result","id":"x","ok":true,"seq":7}}`},
		{"state", `{"summary":[null,{"pl":1}]}`}, {"status", `{"commands":[{"from":["nobody"]}]}`}, {"events", `[]`},
	} {
		f.Add(s[0], []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, suffix string, payload []byte) {
		s := NewScreen("en")
		s.commands = true
		s.pending, s.pendingID = "next", "mine"
		s.Apply(suffix, payload)
		out := s.Render()
		if !strings.HasPrefix(out, "Sztab · ") {
			t.Fatalf("no header:\n%s", out)
		}
		var m struct {
			Event struct {
				ID string `json:"id"`
			} `json:"event"`
		}
		if s.pending == "" && (json.Unmarshal(payload, &m) != nil || m.Event.ID != "mine") {
			t.Fatalf("an answer without this watch's id settled its command: %s", payload)
		}
	})
}
