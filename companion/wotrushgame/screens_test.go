package wotrushgame_test

import (
	"testing"

	"github.com/sztab/sztab/companion/wotrushgame"
	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/wotrush"
)

// TestScreensWotRush: the demo played (round 3, a base of Bartek damaged), its pages
// checked in Chromium (internal/pagecheck): the table screen on the TVs,
// the referee's and a player's pages, in both languages; make test checks
// the table screen at 1080p in both languages and a player's phone.
func TestScreensWotRush(t *testing.T) {
	r := tabletest.Start(t, tabletest.DemoConfig(t, t.TempDir(), "wot-rush.yaml", true), wotrushgame.Spec)
	defer r.Stop(t)
	cat, err := wotrush.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range cat.Vehicles {
		ids = append(ids, id)
	}
	ids = append(ids, "BASE-1-1", "BASE-2-1", "ENG-1-1", "VOL-1-1", "recruitment", "only_vehicles", "national_goods")
	ctx := pagecheck.Browser(t)
	full := pagecheck.Full()
	base := pagecheck.Page{Game: "wot-rush", URL: "http://" + r.D.DisplayAddr(), IDs: ids, Allow: []string{"stol-1", "of"}, // the game's name: "World of Tanks: Rush" in Polish too
		Ready: `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=base-BASE-2-1][data-damaged='1']")`}
	table, referee, player := pagecheck.Roles(base, "/player/2", "bartek", "bartek")
	for _, p := range pagecheck.Pages(table, referee, player, full) {
		pagecheck.Run(t, ctx, p)
	}
}
