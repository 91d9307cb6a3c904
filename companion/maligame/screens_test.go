package maligame_test

import (
	"context"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/maligame"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/internal/tabletest"
)

// The ids a person must never read on Mali's pages: the couriers, the
// soldier's fields, the order cards.
var maliIDs = []string{"red-1", "red-2", "red-3", "green-1", "green-2", "green-3", "r04", "zwyciestwo"}

// maliPages are the table screen (short form: 1080p in both languages)
// and, in the full matrix, every page on every screen; the short form adds
// the mover's page on a phone.
func maliPages(url, ready, stage string, full bool) []pagecheck.Page {
	base := pagecheck.Page{Game: "mali-" + stage, URL: url, IDs: maliIDs, Allow: []string{"stol-2"}, Ready: ready}
	table, referee, player := pagecheck.Roles(base, "/player/2", "bartek", "bartek")
	return pagecheck.Pages(table, referee, player, full)
}

// TestScreensMali: Mali's pages in Chromium (internal/pagecheck) in the
// middle of a game (Bartek to move his couriers) and, in the full matrix,
// at the demo's end.
func TestScreensMali(t *testing.T) {
	full := pagecheck.Full()
	ctx := pagecheck.Browser(t)

	mid := tabletest.Start(t, demoTable(t, t.TempDir(), false), maligame.Spec)
	defer mid.Stop(t)
	for _, uid := range []string{"04A1A000", "04A1A001", "04A1A002"} { // r04 onto the track; red-3 and green-2 laid
		if err := mid.D.Submit(context.Background(), companion.Input{Tag: &hardware.TagEvent{Reader: "orders", UID: uid, Present: true}}); err != nil {
			t.Fatal(err)
		}
	}
	url := "http://" + mid.D.DisplayAddr()
	for _, p := range maliPages(url, `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=map]")`, "mid", full) {
		pagecheck.Run(t, ctx, p)
	}
	// The TV shows the whole map, the score and the track.
	for _, size := range []pagecheck.Size{pagecheck.TV1080, pagecheck.TV720} {
		p := maliPages(url, `!!document.querySelector("[data-testid=map]")`, "mid", false)[0]
		p.Size = size
		if err := pagecheck.Load(ctx, p); err != nil {
			t.Fatal(err)
		}
		for _, sel := range []string{"[data-testid=map]", "[data-testid=score]", "[data-testid=track]", "[data-testid=turn]"} {
			pagecheck.Expect(t, ctx, "Mali's table screen at "+size.Name+": "+sel+" on the screen", pagecheck.InView(sel))
		}
	}

	if !full {
		return // the end in make test-screens (and TestBrowserTableDrawsTheEnd)
	}
	end, w := tabletest.StartWatched(t, demoTable(t, t.TempDir(), true), maligame.Spec)
	defer end.Stop(t)
	w.Until(t, "the game's end", func() bool { _, v := last(t, w); return v.Result != nil })
	for _, p := range maliPages("http://"+end.D.DisplayAddr(), `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=result]")`, "end", full) {
		pagecheck.Run(t, ctx, p)
	}
}
