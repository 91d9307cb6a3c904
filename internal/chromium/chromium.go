// Package chromium starts Debian's headless Chromium for the tests that
// check the screens in a real browser.
package chromium

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Start starts a headless Chromium with a 1920×1080 window for the test;
// it is stopped when the test ends. Under CI a missing Chromium fails the
// test: `make test` installs it.
func Start(t testing.TB) context.Context {
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
			t.Fatal("chromium is not installed; `make test` installs it (apt-get install chromium)")
		}
		t.Skip("chromium is not installed; run `make test`, which installs it")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1920, 1080),
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1080)); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// Until waits (15 s at most) for the page to make the JavaScript condition
// true; on a timeout the test fails with the page's #app.
func Until(t testing.TB, ctx context.Context, cond string) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if _, err := chromedp.Run(tctx, chromedp.Poll[chromedp.Void](cond)); err != nil {
		html, _ := chromedp.Run(ctx, chromedp.OuterHTML("#app"))
		t.Fatalf("page never showed %s: %v\n%s", cond, err, html)
	}
}

// Login signs in on the screens' sign-in page at url and waits for the
// landing page's selector.
func Login(t testing.TB, ctx context.Context, url, user, pass, landing string) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	err := chromedp.Do(tctx,
		chromedp.Navigate(url),
		chromedp.WaitVisible(`#user`),
		chromedp.SendKeys(`#user`, user),
		chromedp.SendKeys(`#password`, pass),
		chromedp.Click(`#login`),
		chromedp.WaitReady(landing),
	)
	if err != nil {
		t.Fatalf("sign in as %s on %s: %v", user, url, err)
	}
}

// Text is the text content of the page's first element matching sel; the
// test fails if there is none.
func Text(t testing.TB, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.TextContent(sel))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// Click clicks the page's first element matching sel; the test fails if
// it cannot.
func Click(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(sel)); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}
