package wotrushgame_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browser starts Debian's headless chromium (a missing one fails under CI,
// skips elsewhere).
func browser(t testing.TB) context.Context {
	t.Helper()
	path := ""
	for _, p := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if found, err := exec.LookPath(p); err == nil {
			path = found
			break
		}
	}
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed; `make test` installs it")
		}
		t.Skip("chromium is not installed; run `make test`, which installs it")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1920, 1080),
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("no-first-run", true))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1080)); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

func pageShows(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(tctx, chromedp.Poll[chromedp.Void](cond)); err != nil {
		html, _ := chromedp.Run(ctx, chromedp.OuterHTML("#app"))
		t.Fatalf("the page never showed %s: %v\n%.3000s", cond, err, html)
	}
}

// TestBrowserTableAndPlayerPages: after the demo session, the table screen
// draws the Reserve row, both players' bases (BASE-2-1 damaged), medals,
// squads, the achievements and the active player's face-up hand; Bartek's
// page shows his own hand and Garage count, and the buttons of his page
// send commands with arguments that the table answers.
func TestBrowserTableAndPlayerPages(t *testing.T) {
	ctx := browser(t)
	r := start(t, demoTable(t, t.TempDir(), true))
	defer r.stop(t)
	w := watch(t, r.d.BrokerAddr())
	w.until(t, "the demo's end", func() bool { return demoOver(w.last()) })
	addr := r.d.DisplayAddr()

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
