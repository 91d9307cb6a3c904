package skirmishgame

import (
	"strings"
	"testing"
)

func TestSeatsHeadlineAndDesyncs(t *testing.T) {
	g := newGame(t, scenario1)
	if got := g.Seats(); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Errorf("Seats() = %v", got)
	}
	ak, gren := row("ak", 4, 2, 4), row("gren", 4, 2, 25)
	bind(t, g, snapshot(append(ak, gren...)...))
	bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "gren"))
	if h := g.Headline(); !strings.Contains(h.PL, "runda 1 · faza ruchu") || !strings.Contains(h.EN, "Wehrmacht 4") {
		t.Errorf("Headline() = %+v", h)
	}
	if g.ActiveSeat() != 1 {
		t.Errorf("ActiveSeat() = %d", g.ActiveSeat())
	}
	if d := g.Desyncs(); len(d) != 0 {
		t.Errorf("table and state agree, got %v", d)
	}
	// The camera loses gren-2 and a dead model stands on.
	st := g.State()
	st.Units[1].Models[0].Removed = true
	g.SetState(st)
	bind(t, g, snapshot(append(ak, gren[0], gren[2], gren[3])...))
	var got []string
	for _, d := range g.Desyncs() {
		got = append(got, d.EN)
	}
	want := "gren-1 is dead in the game but the camera still sees it on the table: take it off|the camera does not see gren-2 (Grenadier), which is in play"
	if strings.Join(got, "|") != want {
		t.Errorf("Desyncs():\n got %q\nwant %q", strings.Join(got, "|"), want)
	}
}
