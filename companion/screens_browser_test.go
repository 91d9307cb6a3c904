package companion_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion/skirmishgame"
)

// The pages' own requests pass the screens' cross-origin and content-type
// checks in a real browser: a state that fails to draw is reported (and
// accepted), and the sign-out button signs out.
func TestBrowserPagesPassTheScreensChecks(t *testing.T) {
	ctx := browser(t)
	r := startServing(t, screenTable(t, t.TempDir(), "127.0.0.1:0"), skirmishgame.Spec)
	defer r.stop(t)
	addr := r.d.DisplayAddr()
	login(t, ctx, addr, "/referee", "sedzia", "tajne", "[data-testid=referee]")
	until(t, ctx, time.Now(), `document.body.dataset.stale === "0"`)

	// Break the game's panel and note what /client-error answers.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function () {
		var fetch0 = window.fetch;
		window.fetch = function (u, o) {
			return fetch0(u, o).then(function (resp) { if (u === "/client-error") window.reported = resp.status; return resp; });
		};
		window.SztabPanels.games.skirmish.draw = function () { throw new Error("panel broken on purpose"); };
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	deploy(t, r.d, 20) // a new state to draw
	until(t, ctx, time.Now(), `!document.querySelector("[data-testid=render-warning]").hidden`)
	until(t, ctx, time.Now(), `window.reported === 204`)

	if err := chromedp.Do(ctx, chromedp.Click(`header form button`), chromedp.WaitReady(`body[data-page=table]`)); err != nil {
		t.Fatalf("signing out did not land on the table screen: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/referee"), chromedp.WaitVisible(`#user`)); err != nil {
		t.Fatalf("after signing out the referee page did not ask to sign in: %v", err)
	}
}
