package west1920game_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion/west1920game"
	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/west1920"
)

// westIDs are the ids a person must never read on West's pages: the
// units' and HQs' ids.
func westIDs(t *testing.T) []string {
	t.Helper()
	cat, err := west1920.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range cat.Units {
		ids = append(ids, id)
	}
	for id := range cat.HQs {
		ids = append(ids, id)
	}
	return ids
}

// TestScreensWest: the demo played (stage 1, the first combat rolled), its
// pages checked in Chromium (internal/pagecheck): the table screen on the
// TVs, the referee's and a player's pages, in both languages; make test
// checks the table screen at 1080p in both languages and a player's phone.
// On both TVs the whole map, the stage and the decision are on the screen.
func TestScreensWest(t *testing.T) {
	r := tabletest.Start(t, tabletest.DemoConfig(t, t.TempDir(), "west-1920.yaml", true), west1920game.Spec)
	defer r.Stop(t)
	cat, err := west1920.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	ctx := pagecheck.Browser(t)
	full := pagecheck.Full()
	base := pagecheck.Page{Game: "west", URL: "http://" + r.D.DisplayAddr(), IDs: westIDs(t), Allow: []string{"stol-1"}, // the table's config name (the top bar)
		Foreign: west1920game.ForeignWords(cat),
		Ready:   `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=map]") && !!document.querySelector("[data-testid=pending]")`}
	table, referee, player := pagecheck.Roles(base, "/player/1", "ola", "ola")
	for _, p := range pagecheck.Pages(table, referee, player, full) {
		pagecheck.Run(t, ctx, p)
	}
	for _, size := range []pagecheck.Size{pagecheck.TV1080, pagecheck.TV720} {
		p := table
		p.Size, p.Lang = size, "pl"
		if err := pagecheck.Load(ctx, p); err != nil {
			t.Fatal(err)
		}
		for _, sel := range []string{"[data-testid=map]", "[data-testid=tracker]", "[data-testid=whose]", "[data-testid=pending]"} {
			pagecheck.Expect(t, ctx, "West's table screen at "+size.Name+": "+sel+" on the screen", pagecheck.InView(sel))
		}
	}
}

// TestScreensWestMapTypeFits: on a 720p TV the map's type is sized from
// the scale the map is drawn at: with a banner taking part of the screen's
// height (the map drawn smaller), a stack's numbers are still at least the
// state's type (1rem: 16 px at 720p) and a city's name the secondary type
// (.84rem), in both languages; and back at full height.
func TestScreensWestMapTypeFits(t *testing.T) {
	r := tabletest.PlayDemo(t, t.TempDir(), "west-1920.yaml", west1920game.Spec, 1)
	defer r.Stop(t)
	ctx := pagecheck.Browser(t)
	// smallest is the smallest drawn size of the labels sel, over their
	// least size in px (pagecheck's measure: the font size times the
	// map's scale).
	const smallest = `((sel, least) => { const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
		const px = [...document.querySelectorAll(sel)].map(e => { const m = e.getScreenCTM(); return parseFloat(getComputedStyle(e).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)); });
		return px.length ? Math.min(...px) / (least * rem) : 0; })`
	for _, lang := range []string{"pl", "en"} {
		p := pagecheck.Page{Game: "west", Name: "table", URL: "http://" + r.D.DisplayAddr(), Path: "/", Size: pagecheck.TV720, Lang: lang,
			Ready: `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=map] [data-label=stack]")`}
		if err := pagecheck.Load(ctx, p); err != nil {
			t.Fatal(err)
		}
		for _, banner := range []bool{true, false} {
			what := "the 720p map in " + lang
			if banner {
				what += " under a banner"
				// A banner 3rem tall: the map is drawn about 7% smaller.
				if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(b => { b.hidden = false; b.textContent = "banner"; b.style.height = "3rem"; })(document.querySelector("[data-testid=render-warning]"))`)); err != nil {
					t.Fatal(err)
				}
			} else if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector("[data-testid=render-warning]").hidden = true`)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`(m => m.getBoundingClientRect().height > 0)(document.querySelector("[data-testid=map]"))`)); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				sel, name string
				least     float64
			}{{"[data-testid=map] [data-label=stack]", "a stack's numbers", 1}, {"[data-testid=map] [data-label=city]", "a city's name", 0.84}} {
				got, err := chromedp.Run(ctx, chromedp.Evaluate[float64](smallest+fmt.Sprintf("(%q, %v)", c.sel, c.least)))
				if err != nil {
					t.Fatal(err)
				}
				if got < 1 {
					t.Errorf("%s: %s drawn at %.3f of its least size (%.2frem), want at least 1", what, c.name, got, c.least)
				}
			}
		}
	}
}

// hexAtMiddle is the JavaScript of the hex drawn at the middle of the
// referee's map box.
const hexAtMiddle = `(() => { const box = document.querySelector("[data-testid=mapbox]"); box.scrollIntoView({block: "center"}); const b = box.getBoundingClientRect();
	const h = document.elementsFromPoint(b.left + b.width / 2, b.top + b.height / 2).find(e => e.matches("polygon.hex"));
	return h ? h.dataset.hex : ""; })()`

// TestScreensWestMapZoomPan: on the referee's page (a 720p screen) the map
// zooms and pans. Zooming in draws a hex half as large again with the
// same hex at the middle of the box; panning right puts a hex three to
// five columns east at the middle; a redraw of the page (a layer switched
// off) keeps the view.
func TestScreensWestMapZoomPan(t *testing.T) {
	r := tabletest.Start(t, tabletest.DemoConfig(t, t.TempDir(), "west-1920.yaml", true), west1920game.Spec)
	defer r.Stop(t)
	ctx := pagecheck.Browser(t)
	p := pagecheck.Page{Game: "west", Name: "referee", URL: "http://" + r.D.DisplayAddr(), Path: "/referee", User: "sedzia", Password: "sedzia",
		Size: pagecheck.TV720, Lang: "pl", Ready: `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=mapbox] polygon.hex")`}
	if err := pagecheck.Load(ctx, p); err != nil {
		t.Fatal(err)
	}
	hexWidth := `document.querySelector("polygon[data-hex='0101']").getBoundingClientRect().width`
	num := func(js string) float64 {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[float64](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	hex := func() string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](hexAtMiddle))
		if err != nil {
			t.Fatalf("the hex at the middle: %v", err)
		}
		return v
	}
	w0, h0 := num(hexWidth), hex()
	if h0 == "" || w0 < 50 {
		t.Fatalf("before zooming: hex %q at the middle, a hex %.1f px wide (want a hex, at least 50 px: 1.5 px a unit)", h0, w0)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=zoom-in]`), chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=map]").dataset.zoom === "1.5"`)); err != nil {
		t.Fatal(err)
	}
	w1, h1 := num(hexWidth), hex()
	if w1 < 1.45*w0 || w1 > 1.55*w0 || h1 != h0 {
		t.Errorf("zoomed in: a hex %.1f px wide (was %.1f), hex %s at the middle (was %s); want 1.5 times as wide, the same hex", w1, w0, h1, h0)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=pan-right]`)); err != nil {
		t.Fatal(err)
	}
	h2 := hex()
	col := func(h string) int { n, _ := strconv.Atoi(h[:2]); return n }
	row := func(h string) int { n, _ := strconv.Atoi(h[2:]); return n }
	if h2 == "" || col(h2) < col(h0)+3 || col(h2) > col(h0)+5 || row(h2) < row(h0)-1 || row(h2) > row(h0)+1 {
		t.Errorf("panned right: hex %q at the middle, was %s; want three to five columns east, the same row or one off", h2, h0)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=layer-odds]`), chromedp.Poll[chromedp.Void](`!document.querySelector("[data-testid^=fail-]")`)); err != nil {
		t.Fatal(err)
	}
	if h3 := hex(); h3 != h2 {
		t.Errorf("after a redraw hex %s is at the middle, was %s: the view was not kept", h3, h2)
	}
}

// TestBrowserRefereeCorrectsARoll: the demo played to its combat roll
// (white 5, red 2: attack 3 + 5 = 8); on the referee's page the correction
// form is built from the roll's fields: the referee picks "a roll of the
// dice", enters 4, 2 for that entry with a reason, and the table journals
// the correction (one entry more) and replays: the page shows one
// correction and the log what changed in words (the roll 5, 2 → 4, 2)
// and why, in Polish and in English.
func TestBrowserRefereeCorrectsARoll(t *testing.T) {
	r := tabletest.PlayDemo(t, t.TempDir(), "west-1920.yaml", west1920game.Spec, 1)
	defer r.Stop(t)
	seq := r.D.Seq()
	ctx := pagecheck.Browser(t)
	p := pagecheck.Page{Game: "west", Name: "referee", URL: "http://" + r.D.DisplayAddr(), Path: "/referee", User: "sedzia", Password: "sedzia",
		Size: pagecheck.TV1080, Lang: "pl", Ready: `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=correction-type]")`}
	if err := pagecheck.Load(ctx, p); err != nil {
		t.Fatal(err)
	}
	pagecheck.Expect(t, ctx, "the log before the correction", `document.querySelector("[data-testid=log]").textContent.includes("Atak 3 + 5 = 8")`)
	err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`(s => { s.value = "roll"; s.dispatchEvent(new Event("change")); })(document.querySelector("[data-testid=correction-type]"))`),
		chromedp.Poll[chromedp.Void](`!!document.querySelector("#fix-dice")`),
		chromedp.SendKeys(`#fix-dice`, "4, 2"),
		chromedp.SendKeys(`[data-testid=ruling-seq]`, strconv.FormatInt(seq, 10)),
		chromedp.SendKeys(`[data-testid=ruling-text]`, "odczyt: 4"),
		chromedp.Click(`[data-testid=cmd-correct]`),
		chromedp.Poll[chromedp.Void](`(h => !!h && h.textContent.includes("1"))(document.querySelector("[data-testid=record-head]"))`),
		chromedp.Poll[chromedp.Void](`(l => l.includes("sędzia poprawia wpis `+strconv.FormatInt(seq, 10)+`: rzut kośćmi: 5, 2 → rzut kośćmi: 4, 2: odczyt: 4"))(document.querySelector("[data-testid=log]").textContent)`))
	if err != nil {
		html, _ := chromedp.Run(ctx, chromedp.OuterHTML("[data-testid=panel]"))
		t.Fatalf("the correction from the form: %v\n%.3000s", err, html)
	}
	if got := r.D.Seq(); got != seq+1 {
		t.Errorf("the journal is at %d after the correction, want %d (one entry more)", got, seq+1)
	}
	p.Lang = "en"
	if err := pagecheck.Load(ctx, p); err != nil {
		t.Fatal(err)
	}
	pagecheck.Expect(t, ctx, "the English log", `document.querySelector("[data-testid=log]").textContent.includes("the referee corrects entry `+strconv.FormatInt(seq, 10)+`: a roll of the dice: 5, 2 → a roll of the dice: 4, 2: odczyt: 4")`)
	pagecheck.Expect(t, ctx, "the English record", `document.querySelector("[data-testid=record]").textContent.includes("corrected entry `+strconv.FormatInt(seq, 10)+`: a roll of the dice: 5, 2 → a roll of the dice: 4, 2: the referee — odczyt: 4")`)
}
