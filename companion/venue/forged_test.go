package venue

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/wire"
)

// A broker without logins lets anyone publish a result. One for a table
// the tournament does not have is refused by the venue itself, with the
// reason in Polish and English on the organiser's page; a flood of them
// stays in a list of MaxRefusals (the oldest dropped, counted), never
// reaches the tournament (nothing stored) nor the public wall.
func TestForgedResultsForMadeUpTables(t *testing.T) {
	broker := startMosquitto(t) // allow_anonymous true
	tv := startVenue(t, broker)
	c := tv.client(t)
	if code, _ := post(t, c, tv.base+"/organiser/pair", nil); code != http.StatusSeeOther {
		t.Fatalf("pair: %d", code)
	}
	wall := func() string {
		w := tv.v.Hub().Wall()
		b, _ := json.Marshal(struct {
			Tables any
			Board  any
		}{w.Tables, w.Board})
		return string(b)
	}
	before := wall()
	tourRefusals := len(tv.tour.View().Refusals)
	forger := newKey(t)
	pub := publisher(t, broker) // no user name: an anonymous client

	pub(wire.TopicsFor("demo", "stol-99").Result, resultMessage(forger, "demo", "stol-99", win(1, 1), loss(2, 0)))
	const en, pl = `venue: result not counted: table "stol-99" is not a table of this tournament`, `stół "stol-99" nie jest stołem tego turnieju`
	until(t, "the made-up table's result refused", func() bool { return strings.Contains(tv.logs.String(), "stol-99") })
	_, page := get(t, c, tv.base+"/organiser")
	for _, want := range []string{en, pl} {
		if !strings.Contains(page, html.EscapeString(want)) {
			t.Errorf("the organiser's page does not say %q", want)
		}
	}

	const flood = 3 * MaxRefusals
	for i := range flood {
		table := fmt.Sprintf("falszywy-%04d", i)
		pub(wire.TopicsFor("demo", table).Result, resultMessage(forger, "demo", table, win(1, 1), loss(2, 0)))
	}
	until(t, "every forged result refused", func() bool {
		vw := tv.v.data().View
		return vw.Dropped == flood+1-MaxRefusals
	})
	tv.v.mu.Lock()
	kept, last := len(tv.v.refusals), tv.v.refusals[len(tv.v.refusals)-1].Table
	tv.v.mu.Unlock()
	if kept != MaxRefusals || last != fmt.Sprintf("falszywy-%04d", flood-1) {
		t.Errorf("the venue keeps %d refusals, the latest of %s; want %d, the latest of the last one", kept, last, MaxRefusals)
	}
	if n := len(tv.tour.View().Refusals); n != tourRefusals {
		t.Errorf("the tournament got %d refusals, want %d: the forged results reached it", n, tourRefusals)
	}
	if after := wall(); after != before {
		t.Errorf("the wall changed:\n%s\n%s", before, after)
	}
	// The log is bounded too: one line in a hundred once dropping.
	if n := strings.Count(tv.logs.String(), "venue: result refused"); n > MaxRefusals+flood/100+2 {
		t.Errorf("%d refusals logged for %d forged results", n, flood+1)
	}
	_, page = get(t, c, tv.base+"/organiser")
	if want := fmt.Sprintf("older refused results dropped: %d", flood+1-MaxRefusals); !strings.Contains(page, want) {
		t.Errorf("the organiser's page does not say %q", want)
	}
}
