package hub

import (
	"fmt"
	"testing"
	"time"

	"github.com/sztab/sztab/internal/testclock"
)

// Two daemons publishing as one table id are a conflict once both stay
// online past the grace, or at once when they take turns; a restart (a new
// instance, then the old connection's will) is none, and the old will does
// not turn the table offline.
func TestInstanceConflict(t *testing.T) {
	type step struct {
		status, instance string
		after            time.Duration
	}
	tests := []struct {
		name     string
		steps    []step
		conflict bool
		status   string
	}{
		{"one daemon", []step{{"online", "a", 0}, {"online", "a", time.Minute}}, false, "online"},
		{"restart: new instance, then the old will", []step{{"online", "a", 0}, {"online", "b", time.Second}, {"offline", "a", 10 * time.Second}, {"online", "b", time.Minute}}, false, "online"},
		{"two online within the grace", []step{{"online", "a", 0}, {"online", "b", time.Second}}, false, "online"},
		{"two online past the grace", []step{{"online", "a", 0}, {"online", "b", time.Second}, {"online", "b", 50 * time.Second}}, true, "online"},
		{"two taking turns", []step{{"online", "a", 0}, {"online", "b", time.Second}, {"online", "a", time.Second}}, true, "online"},
		{"the second goes off", []step{{"online", "a", 0}, {"online", "b", time.Second}, {"online", "a", time.Second}, {"offline", "b", time.Second}}, false, "online"},
		{"both go off", []step{{"online", "a", 0}, {"online", "b", time.Second}, {"offline", "b", time.Second}, {"offline", "a", time.Second}}, false, "offline"},
		{"daemons without instance ids", []step{{"online", "", 0}, {"online", "", time.Minute}}, false, "online"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := testclock.New(time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC))
			h, err := New(Options{Broker: "tcp://127.0.0.1:1", Venue: "klub", Clock: clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.steps {
				clock.Add(s.after)
				h.apply("sztab/v1/klub/stol-1/status", fmt.Appendf(nil, `{"status":%q,"venue":"klub","table":"stol-1","instance":%q}`, s.status, s.instance))
			}
			got, why := h.Conflict("stol-1")
			if got != tt.conflict {
				t.Errorf("Conflict = %v (%s), want %v", got, why, tt.conflict)
			}
			w := h.Wall()
			if len(w.Tables) != 1 || w.Tables[0].Conflict != tt.conflict || w.Tables[0].Status != tt.status {
				t.Errorf("wall = %+v, want conflict %v, status %s", w.Tables, tt.conflict, tt.status)
			}
		})
	}
}
