package west1920game_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/west1920game"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules"
)

// TestUnknownCardNoticeIsWords: a card not in the registry laid on the
// Polish player's reader (seat-1) is announced in words, naming the
// player's reader, never the reader's config name; the planted old text
// ("… na czytniku seat-1") is caught by the same check.
func TestUnknownCardNoticeIsWords(t *testing.T) {
	r, w := tabletest.StartWatched(t, tabletest.DemoConfig(t, t.TempDir(), "west-1920.yaml", false), west1920game.Spec)
	defer r.Stop(t)
	if err := r.D.Submit(context.Background(), companion.Input{Tag: &hardware.TagEvent{Reader: "seat-1", UID: "04998877", Present: true}}); err != nil {
		t.Fatal(err)
	}
	var text rules.Text
	w.Until(t, "the unknown card's notice", func() bool {
		for _, e := range w.Events {
			var m struct {
				Event struct {
					Type string     `json:"type"`
					Text rules.Text `json:"text"`
				} `json:"event"`
			}
			if json.Unmarshal([]byte(e), &m) == nil && m.Event.Type == "unknown_tag" {
				text = m.Event.Text
				return true
			}
		}
		return false
	})
	words := &tabletest.Words{}
	if p := words.Problems("notice", text); len(p) > 0 {
		t.Errorf("the notice %+v: %v", text, p)
	}
	if !strings.Contains(text.PL, "gracza polskiego") || !strings.Contains(text.EN, "the Polish player's reader") {
		t.Errorf("the notice %+v does not name the Polish player's reader", text)
	}
	old := rules.Text{PL: "nieznana karta 04998877 na czytniku seat-1", EN: "unknown tag 04998877 on reader seat-1"}
	if len((&tabletest.Words{}).Problems("planted", old)) == 0 {
		t.Errorf("the old notice %+v passed the check", old)
	}
}
