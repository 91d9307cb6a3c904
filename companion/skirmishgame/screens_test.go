package skirmishgame_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/internal/chromium"
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
	table, referee, player := pagecheck.Roles(base, "/player/1", "ania", "ania")
	for _, p := range pagecheck.Pages(table, referee, player, full) {
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

// TestBrowserRefereeCorrectsFromTheForm: the referee's page names what
// the engine takes now in words, and corrects an entry from a form built
// from the action's fields (no JSON): the first hit die, entry 8, was a 3;
// the referee makes it a 5.
func TestBrowserRefereeCorrectsFromTheForm(t *testing.T) {
	r := tabletest.PlayDemo(t, t.TempDir(), "skirmish.yaml", skirmishgame.Spec, 1)
	defer r.Stop(t)
	ctx := pagecheck.Browser(t)
	p := pagecheck.Page{Game: "skirmish", Name: "referee", URL: "http://" + r.D.DisplayAddr(), Path: "/referee", Size: pagecheck.TV1080, Lang: "pl",
		User: "sedzia", Password: "sedzia", Ready: `!!document.querySelector("[data-testid=correction]")`}
	if err := pagecheck.Load(ctx, p); err != nil {
		t.Fatal(err)
	}
	pagecheck.Expect(t, ctx, "the actions in words", `document.querySelector("[data-testid=legal]").textContent === "Silnik przyjmie teraz: wybór strzelającego, strzał, oddział skończył ruch, spełnienie rozkazu, koniec fazy, koniec gry"`)
	pagecheck.Expect(t, ctx, "no JSON box", `!document.querySelector("textarea")`)
	err := chromedp.Do(ctx,
		chromedp.SetValue(`[data-testid=correction-type]`, "dice"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("[data-testid=correction-type]").dispatchEvent(new Event("change"))`),
		chromedp.WaitVisible(`[data-field=rolls]`),
		chromedp.SendKeys(`[data-field=rolls]`, "5"),
		chromedp.SendKeys(`[data-testid=ruling-seq]`, "8"),
		chromedp.SendKeys(`[data-testid=ruling-text]`, "kość odczytana źle"),
		chromedp.Click(`[data-testid=cmd-correct]`))
	if err != nil {
		t.Fatal(err)
	}
	chromium.Until(t, ctx, `(document.querySelector("[data-testid=record-head]")||{}).textContent === "poprawki sędziego: 1"`)
	chromium.Until(t, ctx, `document.querySelector("[data-testid=command-result]").classList.contains("ok")`)
}
