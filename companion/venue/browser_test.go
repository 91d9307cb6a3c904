package venue

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/chromium"
	"github.com/sztab/sztab/internal/pagecheck"
)

// The organiser's night in a real browser: sign in, pair round 1, start
// its clock, the tables' results arrive over the broker, a result is
// corrected with its reason (in the audit trail); the wall then shows the
// standings and the running clock, and with 100 tables it pages instead of
// scrolling.
func TestBrowserOrganiserAndWall(t *testing.T) {
	ctx := chromium.Start(t)
	broker := startMosquitto(t)
	tv := startVenue(t, broker)
	do := func(actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(tctx, actions...); err != nil {
			html, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.outerHTML`))
			t.Fatalf("%v\n%s", err, html)
		}
	}
	// waitFor polls cond (JavaScript) until it holds, across the
	// navigation a form's POST starts (a query begun on the old page would
	// wait on it forever).
	waitFor := func(cond string) {
		t.Helper()
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			ok, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`!!(function(){ try { return `+cond+` } catch (e) { return false } })()`))
			cancel()
			if err == nil && ok {
				return
			}
		}
		html, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.outerHTML`))
		t.Fatalf("page never showed %s:\n%s", cond, html)
	}
	// text reads in one step in the page: the wall redraws its clock every
	// second, and a node looked up first and read after could be gone
	// ("No node with given id found").
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(`+strconv.Quote(sel)+`) || {}).textContent || ""`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	chromium.Login(t, ctx, tv.base+"/login?next=/organiser", organiser, orgPass, `[data-testid=organiser]`)
	// Each action posts a form: wait for the page it leads to.
	do(chromedp.Click(`[data-testid=pair-next]`))
	waitFor(`!!document.querySelector("[data-testid=round-1]")`)
	waitFor(`document.querySelector("[data-testid=done]").textContent.indexOf("round paired") >= 0`)
	do(chromedp.Click(`[data-testid=start-clock]`))
	waitFor(`(document.querySelector("[data-testid=clock]")||{}).textContent.indexOf("runda 1") === 0`)

	pub := publisher(t, broker)
	// stol-1 played on sample data: its signed statement says so (v5).
	pub(wire.TopicsFor("demo", "stol-1").Result, sampleResult(tv.keys["stol-1"], "demo", "stol-1", win(1, 30), loss(2, 12)))
	pub(wire.TopicsFor("demo", "stol-2").Result, resultMessage(tv.keys["stol-2"], "demo", "stol-2", draw(1, 20), draw(2, 20)))
	until(t, "both results counted", func() bool { return points(tv.tour.View()) == "Ania=1 Celina=0.5 Darek=0.5 Bartek=0" })
	do(chromedp.Navigate(tv.base + "/organiser"))
	waitFor(`document.querySelector("[data-testid=state-1-stol-2]").textContent === "signed"`)
	// The result on sample data is marked, in both languages, beside it
	// and beside its players' games in the standings; the other is not.
	if got := text(`[data-testid=sample-data-1-stol-1]`); got != "dane przykładowe / sample data" {
		t.Errorf("the organiser's page marks stol-1's result %q, want %q", got, "dane przykładowe / sample data")
	}
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[document.querySelectorAll("[data-testid=sample-data-1-stol-2]").length,
		document.querySelectorAll("[data-testid=standings] [data-testid=standing-sample-data]").length]`)); err != nil || n[0] != 0 || n[1] != 2 {
		t.Errorf("the organiser's page: stol-2 marked %v times, standings lines marked %v (%v); want 0 and 2 (Ania, Bartek)", n[0], n[1], err)
	}

	// The draw at stol-2 was a win for Celina: corrected with the reason.
	form := `[data-testid=correct-1-stol-2] `
	do(chromedp.SetValue(form+`select[name=outcome1]`, "win"),
		chromedp.SetValue(form+`select[name=outcome2]`, "loss"),
		chromedp.SendKeys(form+`input[name=reason]`, "gracze zgodnie: Celina zdobyła cel"),
		chromedp.Click(form+`button`))
	waitFor(`document.querySelector("[data-testid=state-1-stol-2]").textContent === "corrected" &&
		document.querySelector("[data-testid=audit]").textContent.indexOf("gracze zgodnie: Celina zdobyła cel") >= 0`)
	if got := points(tv.tour.View()); got != "Ania=1 Celina=1 Bartek=0 Darek=0" {
		t.Errorf("standings after the correction: %s", got)
	}
	// Its links and every text meet WCAG AA contrast (axe-core in the page).
	problems, err := pagecheck.Contrast(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("the organiser's page: %s", p)
	}

	// The printable page.
	do(chromedp.Navigate(tv.base + "/organiser/print"))
	waitFor(`document.querySelector("[data-testid=print-standings]").textContent.indexOf("Celina") >= 0 &&
		document.querySelector("[data-testid=print-pairings]") !== null`)

	// The wall: each table's game on sample data, as its state says, and
	// the standings' players whose points count a game on sample data are
	// marked, in the wall's language.
	state := func(table string, sample bool) []byte {
		m := map[string]any{"venue": "demo", "table": table, "game": "skirmish", "seq": 9, "finished": true,
			"headline": map[string]string{"pl": "koniec", "en": "over"}}
		if sample {
			m["sample_data"] = wire.SampleDataText
		}
		b, _ := json.Marshal(m)
		return b
	}
	pub(wire.TopicsFor("demo", "stol-1").State, state("stol-1", true))
	pub(wire.TopicsFor("demo", "stol-2").State, state("stol-2", false))
	for _, l := range []struct{ lang, mark string }{{"en", "sample data"}, {"pl", "dane przykładowe"}} {
		do(chromedp.Navigate(tv.base + "/?lang=" + l.lang))
		waitFor(`!!document.querySelector("[data-testid=headline-stol-2]") && document.querySelectorAll("[data-testid=standings] [data-testid=standing-sample-data]").length === 2`)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[(document.querySelector("[data-testid=sample-data-stol-1]") || {}).textContent || "",
			String(document.querySelectorAll("[data-testid=sample-data-stol-2]").length),
			Array.prototype.map.call(document.querySelectorAll("[data-testid=standing]"), function (r) { return r.querySelector("[data-testid=standing-sample-data]") ? r.querySelector(".name").textContent : ""; }).filter(Boolean).sort().join("; ")]`))
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{l.mark, "0", "Ania · " + l.mark + "; Bartek · " + l.mark}; strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: the wall marks stol-1 %q, stol-2 %s times, the standings %q; want %q", l.lang, got[0], got[1], got[2], want)
		}
	}

	// The wall: standings (a tie shown as such) and the clock counting down.
	do(chromedp.Navigate(tv.base + "/"))
	waitFor(`document.querySelectorAll("[data-testid=standings] [data-testid=standing]").length === 4 &&
		document.querySelector("[data-testid=standings]").textContent.indexOf("=1Ania") >= 0`)
	waitFor(`/^(89|90):\d\d$/.test(document.querySelector("[data-testid=clock-time]").textContent)`)
	// (a busy machine may delay the page's tick: wait for it)
	first := text(`[data-testid=clock-time]`)
	waitFor(`document.querySelector("[data-testid=clock-time]").textContent !== ` + strconv.Quote(first))

	// A table of a newer release (sztab/v2/…): the wall says it cannot
	// show it, and which release can.
	pub("sztab/v2/demo/stol-9/status", []byte(`{"status":"online","venue":"demo","table":"stol-9"}`))
	waitFor(`document.querySelector("[data-testid=unreadable-stol-9]").textContent.indexOf("stol-9: wiadomość sztab/v2/demo/stol-9/status jest w protokole v2; ten sztab zna ` + wire.Version + `: potrzebne wydanie sztab, które zna v2") === 0`)

	// A hall of 100 tables: paged, no scrolling on a 1920×1080 TV.
	for i := 1; i <= 100; i++ {
		id := fmt.Sprintf("t-%03d", i)
		pub(wire.TopicsFor("demo", id).Status, fmt.Appendf(nil, `{"status":"online","game":"skirmish","venue":"demo","table":%q,"instance":"i%d"}`, id, i))
	}
	waitFor(`(document.querySelector("[data-testid=tables-page]")||{}).textContent === "stoły 1/5" || (document.querySelector("[data-testid=tables-page]")||{}).textContent.slice(-2) === "/5"`)
	fits, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.scrollingElement.scrollHeight <= window.innerHeight + 1`))
	if err != nil || !fits {
		h, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.scrollingElement.scrollHeight`))
		t.Errorf("the wall with 100 tables scrolls: %d px high (%v)", h, err)
	}
}
