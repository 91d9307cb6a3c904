package wotrushgame_test

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/sztab/sztab/internal/chromium"
)

func pageShows(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	chromium.Until(t, ctx, cond)
}

// TestBrowserTableAndPlayerPages: after the demo session, the table screen
// draws the Reserve row, both players' bases (BASE-2-1 damaged), medals,
// squads, the achievements and the active player's face-up hand; Bartek's
// page shows his own hand and Garage count, and the buttons of his page
// send commands with arguments that the table answers.
func TestBrowserTableAndPlayerPages(t *testing.T) {
	ctx := chromium.Start(t)
	r := start(t, demoTable(t, t.TempDir(), true))
	defer r.Stop(t)
	w := watch(t, r.D.BrokerAddr())
	w.Until(t, "the demo's end", func() bool { return demoOver(last(w)) })
	addr := r.D.DisplayAddr()

	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/")); err != nil {
		t.Fatal(err)
	}
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=reserve] [data-card]").length === 4`)
	pageShows(t, ctx, `document.querySelector("[data-testid=base-BASE-2-1]").dataset.damaged === "1"`)
	pageShows(t, ctx, `document.querySelector("[data-testid=base-BASE-1-1]").dataset.damaged === "0"`)
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=players] [data-testid^=player-]").length === 2`)
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=achievements] tr").length === 4`)
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=active-hand] [data-card]").length > 0`)
	pageShows(t, ctx, `document.querySelector("[data-testid=squad-1]").textContent.includes("oddział")`)
	pageShows(t, ctx, `!document.querySelector("[data-testid=my-hand]")`)

	// Bartek's page: his hand, his Garage count, never its order.
	err := chromedp.Do(ctx,
		chromedp.Navigate("http://"+addr+"/player/2"),
		chromedp.WaitVisible(`#user`),
		chromedp.SendKeys(`#user`, "bartek"),
		chromedp.SendKeys(`#password`, "bartek"),
		chromedp.Click(`#login`),
		chromedp.WaitReady(`body[data-page=player]`),
	)
	if err != nil {
		t.Fatal(err)
	}
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=my-hand] [data-card]").length === 3`)
	pageShows(t, ctx, `/Garaż: \d+ kart/.test(document.querySelector("[data-testid=my-garage]").textContent)`)
	// The end of Ania's turn from Bartek's page is refused, with the reason.
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=cmd-next]`)); err != nil {
		t.Fatal(err)
	}
	pageShows(t, ctx, `document.querySelector("[data-testid=command-result]").textContent.includes("nie może działać za gracza Ania")`)
}
