package venue

import (
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/wire"
)

// A table of a newer release publishes its status and its signed result
// under its own contract (sztab/v2/…): the venue counts nothing, keeps the
// result as a refusal that says which release reads it, in Polish and
// English, and the wall shows the table as one it cannot read (issue #34,
// item 3). This contract's tables go on being counted.
func TestVenueOtherContract(t *testing.T) {
	broker := startMosquitto(t)
	tv := startVenue(t, broker)
	pub := publisher(t, broker)
	if err := tv.tour.PairNext(t.Context()); err != nil {
		t.Fatal(err)
	}
	pub("sztab/v2/demo/stol-2/status", []byte(`{"status":"online","venue":"demo","table":"stol-2"}`))
	pub("sztab/v2/demo/stol-2/result", resultMessage(tv.keys["stol-2"], "demo", "stol-2", win(1, 30), loss(2, 12)))
	pub(wire.TopicsFor("demo", "stol-1").Result, resultMessage(tv.keys["stol-1"], "demo", "stol-1", win(1, 30), loss(2, 12)))
	en := "is in the wire contract v2; this sztab speaks " + wire.Version + ": a sztab release that speaks v2 is needed to read it"
	pl := "potrzebne wydanie sztab, które zna v2"
	var refused Refusal
	until(t, "the v2 result refused and stol-1's counted", func() bool {
		tv.v.mu.Lock()
		vw := tv.v.view()
		tv.v.mu.Unlock()
		for _, r := range vw.Refusals {
			if r.Table == "stol-2" {
				refused = r
			}
		}
		return refused.Table != "" && points(tv.tour.View()) != "Ania=0 Bartek=0 Celina=0 Darek=0"
	})
	if !strings.Contains(refused.Reason, "result not counted: sztab/v2/demo/stol-2/result "+en) || !strings.Contains(refused.ReasonPL, "wynik nie liczy się") || !strings.Contains(refused.ReasonPL, pl) {
		t.Errorf("the refusal: %q / %q, want %q and %q", refused.Reason, refused.ReasonPL, en, pl)
	}
	for _, p := range tv.tour.View().Pairings[0].Tables {
		if p.Table == "stol-2" && p.State != "awaiting" {
			t.Errorf("stol-2's v2 result reached the tournament: %+v", p)
		}
	}
	until(t, "the wall showing stol-2 unreadable", func() bool {
		u := tv.v.Hub().Wall().Unreadable
		return len(u) == 1 && u[0].Table == "stol-2" && strings.Contains(u[0].Text.EN, en) && strings.Contains(u[0].Text.PL, pl)
	})
	if !strings.Contains(tv.logs.String(), "reason_pl=") || !strings.Contains(tv.logs.String(), "sztab/v2/demo/stol-2/result") {
		t.Errorf("the venue's log does not say it:\n%s", tv.logs.String())
	}
}
