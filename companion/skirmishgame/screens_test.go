package skirmishgame_test

import (
	"testing"

	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/internal/tabletest"
)

// The ids a person must never read on the skirmish's pages: the demo's
// models, units and cards.
var skirmishIDs = []string{"ak", "gren", "ak_soldier", "grenadier"}

// TestScreensSkirmish: the demo played to its end (the rulebook's worked
// example: two grenadiers wounded), its pages checked in Chromium
// (internal/pagecheck): the table screen on the TVs, the referee's and a
// player's pages, in both languages.
func TestScreensSkirmish(t *testing.T) {
	r := tabletest.Start(t, tabletest.DemoConfig(t, t.TempDir(), "skirmish.yaml", true), skirmishgame.Spec)
	defer r.Stop(t)
	ctx := pagecheck.Browser(t)
	full := pagecheck.Full()
	base := pagecheck.Page{Game: "skirmish", URL: "http://" + r.D.DisplayAddr(), IDs: skirmishIDs, Allow: []string{"stol-1"},
		Ready: `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=last-shot]")`}
	table, referee, player := base, base, base
	table.Name, table.Path = "table", "/"
	referee.Name, referee.Path, referee.User, referee.Password = "referee", "/referee", "sedzia", "sedzia"
	player.Name, player.Path, player.User, player.Password = "player", "/player/1", "ania", "ania"
	pages := pagecheck.Matrix(table, full)
	if full {
		pages = append(pages, pagecheck.Matrix(referee, full)...)
		pages = append(pages, pagecheck.Matrix(player, full)...)
	} else {
		player.Size, player.Lang = pagecheck.Phone, "pl"
		pages = append(pages, player)
	}
	for _, p := range pages {
		pagecheck.Run(t, ctx, p)
	}

	// The TV shows the whole public state: the table from above with both
	// sides, the two wounded grenadiers marked, the last shot's lines with
	// its distance and cover, both units' cards and the score.
	for _, size := range []pagecheck.Size{pagecheck.TV1080, pagecheck.TV720} {
		p := table
		p.Size, p.Lang = size, "pl"
		if err := pagecheck.Load(ctx, p); err != nil {
			t.Fatal(err)
		}
		what := "the skirmish's table screen at " + size.Name
		pagecheck.Expect(t, ctx, what, `document.querySelectorAll("[data-testid=table-svg] [data-testid=model][data-unit=ak]").length === 5`)
		pagecheck.Expect(t, ctx, what, `document.querySelectorAll("[data-testid=table-svg] [data-testid=model][data-unit=gren]").length === 5`)
		pagecheck.Expect(t, ctx, what, `document.querySelectorAll("[data-testid=model][data-state=wounded]").length === 2`)
		pagecheck.Expect(t, ctx, what, `document.querySelectorAll("[data-testid=last-line]").length === 5`)
		pagecheck.Expect(t, ctx, what, `/20,0 kroku · osłona: brak|20\.0 kroku · osłona: brak/.test(document.querySelector("[data-testid=last-shot-line]").textContent)`)
		for _, sel := range []string{"[data-testid=table-svg]", "[data-testid^=unit-]", "[data-testid=score]", "[data-testid=turn]", "[data-testid=last-shot]", "[data-testid=table-legend]"} {
			pagecheck.Expect(t, ctx, what+": "+sel+" on the screen", pagecheck.InView(sel))
		}
	}
}
