package bitwagame_test

import (
	"testing"

	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/bitwa"
)

// TestScreensBitwa: the demo played (round 2, military actions), its pages
// checked in Chromium (internal/pagecheck): the table screen on the TVs,
// the referee's and a player's pages, in both languages; make test checks
// the table screen at 1080p in both languages and a player's phone.
func TestScreensBitwa(t *testing.T) {
	r := tabletest.Start(t, tabletest.DemoConfig(t, t.TempDir(), "bitwa-warszawska.yaml", true), bitwagame.Spec)
	defer r.Stop(t)
	cat, err := bitwa.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range cat.Cards {
		ids = append(ids, id)
	}
	ctx := pagecheck.Browser(t)
	full := pagecheck.Full()
	base := pagecheck.Page{Game: "bitwa", URL: "http://" + r.D.DisplayAddr(), IDs: ids, Allow: []string{"stol-1", "WP", "ACz"}, Foreign: bitwagame.ForeignWords(cat),
		Ready: `document.body.dataset.stale === "0" && document.querySelector("[data-testid=round]") && document.querySelector("[data-testid=round]").dataset.round === "2" && !!document.querySelector("[data-testid=commander-wp-C]")`}
	table, referee, player := pagecheck.Roles(base, "/player/2", "janek", "janek")
	for _, p := range pagecheck.Pages(table, referee, player, full) {
		pagecheck.Run(t, ctx, p)
	}
}
