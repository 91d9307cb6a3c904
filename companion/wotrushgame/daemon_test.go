package wotrushgame_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wotrushgame"
	"github.com/sztab/sztab/internal/tabletest"
)

func demoTable(t testing.TB, dir string, script bool, edits ...string) *companion.Config {
	return tabletest.DemoConfigEdited(t, dir, "wot-rush.yaml", script, edits...)
}

func start(t testing.TB, cfg *companion.Config) *tabletest.Running {
	return tabletest.Start(t, cfg, wotrushgame.Spec)
}

// startWatched serves cfg with a watcher subscribed first: it sees the
// demo's events from the first.
func startWatched(t testing.TB, cfg *companion.Config) (*tabletest.Running, *tabletest.Watcher) {
	return tabletest.StartWatched(t, cfg, wotrushgame.Spec)
}

func watch(t *testing.T, addr string) *tabletest.Watcher {
	return tabletest.Watch(t, addr, "demo", "stol-1")
}

// publicState is the part of the published view the test reads.
type publicState struct {
	Seq   int64 `json:"seq"`
	State struct {
		Active  int      `json:"active"`
		Round   int      `json:"round"`
		Reserve []string `json:"reserve"`
		Players []struct {
			Seat   int      `json:"seat"`
			Hand   []string `json:"hand"`
			Garage []string `json:"garage"`
			Bases  []struct {
				Card    string `json:"card"`
				Damaged bool   `json:"damaged"`
			} `json:"bases"`
		} `json:"players"`
		Stats []struct {
			Seat  int `json:"seat"`
			Squad int `json:"squad"`
		} `json:"stats"`
		Leaders []json.RawMessage `json:"leaders"`
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
	return ps.State.Round == 3 && len(ps.State.Players) == 2 && ps.State.Players[1].Bases[0].Damaged
}

// TestDemoEndToEnd plays the wot-rush demo table through the real daemon
// (simulated readers and buttons, embedded broker): a real MQTT client sees
// the state reach round 3 with Bartek's BASE-2-1 damaged, no step refused,
// the Garage order never published; after a restart on the same journal
// the state is the same.
func TestDemoEndToEnd(t *testing.T) {
	for _, tc := range []struct {
		name string
		club bool
	}{{"the shipped sample data", false}, {"a club's box", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var edits []string
			if tc.club {
				edits = tabletest.OnClubBox(t, "wot-rush")
			}
			dir := t.TempDir()
			r, w := startWatched(t, demoTable(t, dir, true, edits...))
			w.Until(t, "the demo's last step (BASE-2-1 damaged in round 3)", func() bool { return demoOver(last(w)) })
			w.Until(t, "the answers to the demo's 7 keys", func() bool {
				n := 0
				for _, e := range w.Events {
					if strings.Contains(e, `"command_result"`) {
						n++
					}
				}
				return n >= 7
			})
			// The journal's events come on their own path, not ordered with the
			// state or the answers: wait for the last of them too.
			wanted := []string{"unknown_tag", "hand_shown", "reserve_shown", "bought", "attack", "damaged"}
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
			for _, p := range final.State.Players {
				if len(p.Garage) != 0 {
					t.Errorf("seat %d's Garage order published: %v", p.Seat, p.Garage)
				}
				if p.Seat != final.State.Active && len(p.Hand) != 0 {
					t.Errorf("seat %d's hidden hand published: %v", p.Seat, p.Hand)
				}
			}
			if len(final.State.Reserve) != 4 || len(final.State.Stats) != 2 || len(final.State.Leaders) != 3 {
				t.Errorf("reserve %v, stats %d, leaders %d", final.State.Reserve, len(final.State.Stats), len(final.State.Leaders))
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
			tabletest.CheckRestart(t, demoTable(t, dir, false, edits...), wotrushgame.Spec, seq, raw)
		})
	}
}
