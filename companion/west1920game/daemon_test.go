package west1920game_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/west1920game"
	"github.com/sztab/sztab/internal/tabletest"
)

func demoTable(t testing.TB, dir string, script bool, edits ...string) *companion.Config {
	return tabletest.DemoConfigEdited(t, dir, "west-1920.yaml", script, edits...)
}

// publicState is the part of the published view the test reads.
type publicState struct {
	Seq   int64 `json:"seq"`
	State struct {
		Game struct {
			Stage   int    `json:"stage"`
			Phase   string `json:"phase"`
			Deck    []int  `json:"deck"`
			Players []struct {
				Side     string `json:"side"`
				Hand     []int  `json:"hand"`
				HandSize int    `json:"hand_size"`
				TotalRP  int    `json:"total_rp"`
			} `json:"players"`
			Battle *struct {
				Outcome *struct {
					Rule string `json:"rule"`
				} `json:"outcome"`
			} `json:"battle"`
		} `json:"game"`
		Map *struct {
			Columns int `json:"columns"`
		} `json:"map"`
		Overlay *struct {
			Supply map[string]string `json:"supply"`
			Stacks []json.RawMessage `json:"stacks"`
		} `json:"overlay"`
	} `json:"state"`
}

func last(w *tabletest.Watcher) publicState {
	var ps publicState
	if len(w.States) > 0 {
		json.Unmarshal(w.States[len(w.States)-1], &ps)
	}
	return ps
}

func demoOver(ps publicState) bool {
	b := ps.State.Game.Battle
	return ps.State.Game.Phase == "combat" && b != nil && b.Outcome != nil
}

// TestDemoEndToEnd plays the west-1920 demo table through the real daemon
// (simulated seat readers and keys, embedded broker): a real MQTT client
// sees the combat of stage 1 resolved, every step answered without a
// refusal, the hands and the deck never published; after a restart on the
// same journal the state is the same.
func TestDemoEndToEnd(t *testing.T) {
	for _, tc := range []struct {
		name string
		club bool
	}{{"the shipped sample data", false}, {"a club's box", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var edits []string
			if tc.club {
				edits = tabletest.OnClubBox(t, "west-1920")
			}
			dir := t.TempDir()
			r, w := tabletest.StartWatched(t, demoTable(t, dir, true, edits...), west1920game.Spec)
			w.Until(t, "the demo's last step (the combat roll)", func() bool { return demoOver(last(w)) })
			w.Until(t, "the answers to the demo's 17 keys", func() bool { return w.Count(`"command_result"`) >= 17 })
			// The journal's events come on their own path: wait for them too.
			wanted := []string{"unknown_tag", `"draw"`, `"rp"`, `"depot"`, `"chit"`, `"move"`, `"hq_move"`, `"attack"`, `"combat"`}
			w.Until(t, "the demo's events", func() bool {
				joined := strings.Join(w.Events, "\n")
				for _, want := range wanted {
					if !strings.Contains(joined, want) {
						return false
					}
				}
				return true
			})
			w.Mu.Lock()
			final := last(w)
			raw := w.States[len(w.States)-1]
			for _, e := range w.Events {
				if strings.Contains(e, `"type":"rejected"`) || strings.Contains(e, `"ok":false`) {
					t.Errorf("the demo had a refusal: %s", e)
				}
			}
			g := final.State.Game
			if len(g.Deck) != 0 {
				t.Errorf("the deck is published: %v", g.Deck)
			}
			for _, p := range g.Players {
				if len(p.Hand) != 0 || p.HandSize != 1 {
					t.Errorf("%s: public hand %v, size %d; want hidden, one card", p.Side, p.Hand, p.HandSize)
				}
			}
			if final.State.Map == nil || final.State.Map.Columns == 0 || final.State.Overlay == nil || len(final.State.Overlay.Supply) == 0 || len(final.State.Overlay.Stacks) == 0 {
				t.Errorf("the public view lacks the map or the overlays")
			}
			if club := len(edits) > 0; club != (strings.Contains(string(raw), "★") || strings.Contains(strings.Join(w.Events, "\n"), "★")) {
				t.Errorf("on the club's box: %v; the club's names (★) in the state or the events: %v", club, !club)
			}
			// The screens say when the game runs on sample data, and only then.
			if sample := strings.Contains(string(w.States[len(w.States)-1]), `"sample_data":{"pl":"dane przykładowe","en":"sample data"}`); sample != (len(edits) == 0) {
				t.Errorf("on the club's box: %v; the state says sample data: %v", len(edits) > 0, sample)
			}
			w.Mu.Unlock()
			seq := r.D.Seq()
			r.Stop(t)

			// The same journal, no script: the same state.
			tabletest.CheckRestart(t, demoTable(t, dir, false, edits...), west1920game.Spec, seq, raw)
		})
	}
}
