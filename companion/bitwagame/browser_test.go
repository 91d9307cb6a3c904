package bitwagame_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/sztab/sztab/internal/chromium"
)

func pageShows(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	chromium.Until(t, ctx, cond)
}

// TestBrowserTableAndPlayerPages: after the demo session, the table screen
// draws the three fronts with both armies' lines and unit counts from the
// real state, the commanders and blockades, the VP and round tracks, and
// no hand; Janek's page shows his own hand, and a command from his page
// for Marysia's action is refused with the reason.
func TestBrowserTableAndPlayerPages(t *testing.T) {
	ctx := chromium.Start(t)
	r := start(t, demoTable(t, t.TempDir(), true))
	defer r.Stop(t)
	w := watch(t, r.D.BrokerAddr())
	w.Until(t, "the demo's end", func() bool { return demoOver(last(w)) })
	w.Mu.Lock()
	final := last(w)
	w.Mu.Unlock()
	addr := r.D.DisplayAddr()

	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/")); err != nil {
		t.Fatal(err)
	}
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=fronts] [data-testid^=front-]").length === 3`)
	// Every line drawn with the state's count.
	for ai, army := range []string{"wp", "acz"} {
		for fi, f := range []string{"N", "C", "S"} {
			l := final.State.Armies[ai].Fronts[fi]
			pageShows(t, ctx, `document.querySelector("[data-testid=line-`+army+`-`+f+`1]").dataset.count === "`+strconv.Itoa(l.First)+`"`)
			pageShows(t, ctx, `document.querySelector("[data-testid=line-`+army+`-`+f+`2]").dataset.count === "`+strconv.Itoa(l.Second)+`"`)
			pageShows(t, ctx, `document.querySelector("[data-testid=strength-`+army+`-`+f+`]").textContent.endsWith(" `+strconv.Itoa(final.State.Strength[ai][fi])+`")`)
		}
		pageShows(t, ctx, `document.querySelector("[data-testid=vp-`+army+`]").dataset.vp === "`+strconv.Itoa(final.State.Armies[ai].VP)+`"`)
	}
	pageShows(t, ctx, `document.querySelector("[data-testid=round]").dataset.round === "2"`)
	pageShows(t, ctx, `document.querySelector("[data-testid=commander-wp-C]").textContent.includes("Zieliński")`)
	pageShows(t, ctx, `!!document.querySelector("[data-testid=blockade-acz-N]")`)
	pageShows(t, ctx, `document.querySelector("[data-testid=front-S]").textContent.includes("Dodatkowa Punktacja")`)
	pageShows(t, ctx, `document.querySelector("[data-testid=pending-text]").textContent.includes("Marysia")`)
	pageShows(t, ctx, `!document.querySelector("[data-testid=my-hand]")`)

	// Janek's page: his own hand; Marysia's pass from his page is refused.
	err := chromedp.Do(ctx,
		chromedp.Navigate("http://"+addr+"/player/2"),
		chromedp.WaitVisible(`#user`),
		chromedp.SendKeys(`#user`, "janek"),
		chromedp.SendKeys(`#password`, "janek"),
		chromedp.Click(`#login`),
		chromedp.WaitReady(`body[data-page=player]`),
	)
	if err != nil {
		t.Fatal(err)
	}
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=my-hand] [data-card]").length === `+strconv.Itoa(final.State.Players[1].HandCount))
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=cmd-pass]`)); err != nil {
		t.Fatal(err)
	}
	pageShows(t, ctx, `document.querySelector("[data-testid=command-result]").textContent.includes("nie może działać za gracza Marysia")`)
}
