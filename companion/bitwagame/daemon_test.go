package bitwagame_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/internal/tabletest"
)

func demoTable(t testing.TB, dir string, script bool, edits ...string) *companion.Config {
	return tabletest.DemoConfigEdited(t, dir, "bitwa-warszawska.yaml", script, edits...)
}

func start(t testing.TB, cfg *companion.Config) *tabletest.Running {
	return tabletest.Start(t, cfg, bitwagame.Spec)
}

// startWatched serves cfg with a watcher subscribed first: it sees the
// demo's events from the first.
func startWatched(t testing.TB, cfg *companion.Config) (*tabletest.Running, *tabletest.Watcher) {
	return tabletest.StartWatched(t, cfg, bitwagame.Spec)
}

func watch(t *testing.T, addr string) *tabletest.Watcher {
	return tabletest.Watch(t, addr, "demo", "stol-1")
}

// publicState is the part of the published view the test reads.
type publicState struct {
	Seq   int64 `json:"seq"`
	State struct {
		Round   int    `json:"round"`
		Stage   string `json:"stage"`
		Active  int    `json:"active"`
		Players []struct {
			Seat      int      `json:"seat"`
			Hand      []string `json:"hand"`
			HandCount int      `json:"hand_count"`
		} `json:"players"`
		Armies []struct {
			Deck   []string `json:"deck"`
			VP     int      `json:"vp"`
			Fronts []struct {
				First  int `json:"first"`
				Second int `json:"second"`
			} `json:"fronts"`
		} `json:"armies"`
		Strength [2][3]int `json:"strength"`
	} `json:"state"`
}

func last(w *tabletest.Watcher) publicState {
	var ps publicState
	if len(w.States) > 0 {
		json.Unmarshal(w.States[len(w.States)-1], &ps)
	}
	return ps
}

// demoOver: the demo's last step, Janek's supply in round 2, is done.
func demoOver(ps publicState) bool {
	return ps.State.Round == 2 && ps.State.Stage == "military"
}

// TestDemoEndToEnd plays the bitwa-warszawska demo table through the real
// daemon (simulated readers and keys, embedded broker): a real MQTT client
// sees the state reach round 2's military stage, no step refused, no hand
// and no deck published on the table's topic; after a restart on the same
// journal the state is the same.
func TestDemoEndToEnd(t *testing.T) {
	for _, tc := range []struct {
		name string
		club bool
	}{{"the shipped sample data", false}, {"a club's box", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var edits []string
			if tc.club {
				edits = tabletest.OnClubBox(t, "bitwa-warszawska")
			}
			dir := t.TempDir()
			r, w := startWatched(t, demoTable(t, dir, true, edits...))
			w.Until(t, "the demo's last step (round 2, military actions)", func() bool { return demoOver(last(w)) })
			w.Until(t, "the answers to the demo's keys", func() bool {
				n := 0
				for _, e := range w.Events {
					if strings.Contains(e, `"command_result"`) {
						n++
					}
				}
				return n >= 13
			})
			// The journal's events come on their own path, not ordered with the
			// state or the answers: wait for the last of them too.
			w.Until(t, "the demo's events", func() bool {
				joined := strings.Join(w.Events, "\n")
				for _, want := range []string{"unknown_tag", "selected", "play_commander", "fight", "battle", "supply"} {
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
			for _, p := range final.State.Players {
				if len(p.Hand) != 0 {
					t.Errorf("seat %d's hand published on the table's topic: %v", p.Seat, p.Hand)
				}
			}
			for i, a := range final.State.Armies {
				if len(a.Deck) != 0 {
					t.Errorf("army %d's deck published", i)
				}
			}
			if len(final.State.Armies) != 2 || final.State.Armies[0].VP+final.State.Armies[1].VP == 0 {
				t.Errorf("armies %+v: want VP scored in round 1", final.State.Armies)
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
			tabletest.CheckRestart(t, demoTable(t, dir, false, edits...), bitwagame.Spec, seq, raw)
		})
	}
}
