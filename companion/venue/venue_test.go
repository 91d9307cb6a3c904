package venue

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/wire"
)

// A night at the venue, end to end on a real Mosquitto: two real table
// daemons online, the organiser pairs round 1, the tables' signed results
// arrive and make the standings; then every kind of bad input the issue
// lists is refused with its reason on the organiser's page and in the log,
// and the standings do not move.
func TestVenueNight(t *testing.T) {
	broker := startMosquitto(t)
	tables := []string{"stol-1", "stol-2"}
	for _, id := range tables {
		r := startTable(t, broker, id)
		t.Cleanup(func() { r.Stop(t) })
	}
	tv := startVenue(t, broker)
	until(t, "both tables online on the wall", func() bool {
		w := tv.v.Hub().Wall()
		return len(w.Tables) == 2 && w.Tables[0].Status == "online" && w.Tables[1].Status == "online" && w.Tables[0].Headline != nil
	})
	c := tv.client(t)

	if code, _ := post(t, c, tv.base+"/organiser/pair", nil); code != http.StatusSeeOther {
		t.Fatalf("pair: %d", code)
	}
	if code, _ := post(t, c, tv.base+"/organiser/start", url.Values{"round": {"1"}}); code != http.StatusSeeOther {
		t.Fatalf("start: %d", code)
	}
	vw := tv.tour.View()
	if len(vw.Pairings) != 1 || vw.Clock == nil || vw.Clock.Round != 1 {
		t.Fatalf("after pairing and starting: %+v", vw)
	}
	if b := tv.v.Hub().Wall().Board; b == nil || b.Clock == nil || len(b.Standings) != 4 {
		t.Fatalf("the wall has no clock or standings: %+v", b)
	}

	pub := publisher(t, broker)
	// stol-1: Ania (seat 1) beats Bartek; stol-2: Celina and Darek draw.
	pub(wire.TopicsFor("demo", "stol-1").Result, resultMessage(tv.keys["stol-1"], "demo", "stol-1", win(1, 30), loss(2, 12)))
	pub(wire.TopicsFor("demo", "stol-2").Result, resultMessage(tv.keys["stol-2"], "demo", "stol-2", draw(1, 20), draw(2, 20)))
	const want = "Ania=1 Celina=0.5 Darek=0.5 Bartek=0"
	until(t, "the standings "+want, func() bool { return points(tv.tour.View()) == want })
	until(t, "the wall's standings", func() bool {
		b := tv.v.Hub().Wall().Board
		return b != nil && len(b.Standings) == 4 && b.Standings[0].Name == "Ania" && b.Standings[0].Points == 1 && b.Standings[1].Tie
	})
	refusals := len(tv.v.data().Refusals)

	other := newKey(t)
	bad := []struct {
		name, table string
		payload     []byte
		reason      string
	}{
		{"a result signed with another key", "stol-2", resultMessage(other, "demo", "stol-2", win(1, 1), loss(2, 0)), "signature does not match"},
		{"a table the tournament does not have", "stol-9", resultMessage(tv.keys["stol-1"], "demo", "stol-9", win(1, 1), loss(2, 0)), "is not a table of this tournament"},
		{"an unreadable result", "stol-2", []byte(`{"statement":`), "not a result message"},
	}
	for _, b := range bad {
		pub(wire.TopicsFor("demo", b.table).Result, b.payload)
		until(t, b.name+" refused", func() bool { return strings.Contains(tv.logs.String(), b.reason) })
		_, page := get(t, c, tv.base+"/organiser")
		if !strings.Contains(page, b.reason) {
			t.Errorf("%s: the organiser's page does not say %q", b.name, b.reason)
		}
		if got := points(tv.tour.View()); got != want {
			t.Errorf("%s: the standings moved: %s", b.name, got)
		}
	}

	// A malformed pairing import: refused with line and column, nothing
	// changed.
	code, page := post(t, c, tv.base+"/organiser/import", url.Values{"round": {"2"}, "csv": {"table,seat1,seat2\nstol-1,Ania,Zenon\n"}})
	if code != http.StatusConflict || !strings.Contains(page, "line 2, column 3") || !strings.Contains(page, `data-testid="error"`) {
		t.Errorf("malformed import: %d\n%s", code, page)
	}
	if vw := tv.tour.View(); len(vw.Pairings) != 1 || points(vw) != want {
		t.Errorf("a refused import changed the tournament: %+v", vw)
	}
	if !strings.Contains(tv.logs.String(), "organiser's action refused") {
		t.Error("the refused import is not in the log")
	}

	// Two daemons claiming stol-1: the wall flags it, and a result from
	// that id is not counted.
	twin := startTable(t, broker, "stol-1")
	defer twin.Stop(t)
	until(t, "the conflict on the wall", func() bool {
		for _, tb := range tv.v.Hub().Wall().Tables {
			if tb.Table == "stol-1" && tb.Conflict && len(tb.Instances) == 2 {
				return true
			}
		}
		return false
	})
	pub(wire.TopicsFor("demo", "stol-1").Result, resultMessage(tv.keys["stol-1"], "demo", "stol-1", loss(1, 0), win(2, 40)))
	until(t, "the claimed-twice result refused", func() bool { return strings.Contains(tv.logs.String(), "two daemons publish as table stol-1") })
	if got := points(tv.tour.View()); got != want {
		t.Errorf("a result from a table claimed twice moved the standings: %s", got)
	}
	_, page = get(t, c, tv.base+"/organiser")
	if !strings.Contains(page, "two daemons publish as table stol-1") || !strings.Contains(page, "claimed twice") {
		t.Error("the organiser's page does not show the conflict")
	}
	if n := len(tv.v.data().Refusals); n != refusals+len(bad)+1 {
		t.Errorf("%d refusals, want %d", n, refusals+len(bad)+1)
	}
}

// A result that comes while two daemons are online as its table (here a
// restarted table whose old connection's "offline" has not come yet) is
// held, not counted, until the hub can tell a restart from a conflict:
// the other daemon goes offline within the grace, and the result counts
// once the grace is over. (Before, a result counted during the grace even
// when two daemons claimed the id.)
func TestResultHeldWhileTwoDaemonsOnline(t *testing.T) {
	broker := startMosquitto(t)
	for _, id := range []string{"stol-1", "stol-2"} {
		r := startTable(t, broker, id)
		t.Cleanup(func() { r.Stop(t) })
	}
	tv := startVenueWith(t, broker, func(o *Options) { o.Hub.ConflictGrace = 3 * time.Second })
	until(t, "both tables online on the wall", func() bool {
		w := tv.v.Hub().Wall()
		return len(w.Tables) == 2 && w.Tables[0].Status == "online" && w.Tables[1].Status == "online"
	})
	c := tv.client(t)
	if code, _ := post(t, c, tv.base+"/organiser/pair", nil); code != http.StatusSeeOther {
		t.Fatalf("pair: %d", code)
	}
	pub := publisher(t, broker)
	status := func(s, instance string) []byte {
		b, _ := json.Marshal(wire.StatusMessage{Status: s, Venue: "demo", Table: "stol-1", Instance: instance})
		return b
	}
	topics := wire.TopicsFor("demo", "stol-1")
	pub(topics.Status, status("online", "restarted"))
	until(t, "two daemons online as stol-1", func() bool { return tv.v.Hub().Contested("stol-1") })
	before := points(tv.tour.View())
	pub(topics.Result, resultMessage(tv.keys["stol-1"], "demo", "stol-1", win(1, 30), loss(2, 12)))
	until(t, "the result held", func() bool { return strings.Contains(tv.logs.String(), "result held") })
	if got := points(tv.tour.View()); got != before {
		t.Errorf("a held result moved the standings: %s, before %s", got, before)
	}
	pub(topics.Status, status("offline", "restarted"))
	until(t, "the held result counted once the grace is over", func() bool { return strings.HasPrefix(points(tv.tour.View()), "Ania=1 ") })
	if strings.Contains(tv.logs.String(), "two daemons publish as table stol-1") {
		t.Error("a restart was taken for a conflict")
	}
}
