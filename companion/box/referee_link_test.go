package box_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/internal/tabletest"
)

// The referee's page links to the box's enrolment page when the table's
// config names a pack (box:), in the page's language, and the link opens
// the enrolment page in that language; a table of the same game without
// box: says nothing of it.
func TestRefereePageLinksToTheBoxPage(t *testing.T) {
	browser := pagecheck.Browser(t)
	spec := boxGames[slices.IndexFunc(boxGames, func(s companion.GameSpec) bool { return s.ID == walkGame })]

	r, _, _ := enrolTable(t, browser, spec) // reaches the page through the link, in Polish
	for _, c := range []struct{ lang, link, title string }{
		{"pl", "Zapis pudełka klubu: karty i plansze →", "Zapis pudełka: "},
		{"en", "Enrol the club's box: cards and boards →", "Enrolling the box: "},
	} {
		ctx := refereePage(t, browser, r, c.lang)
		if err := chromedp.Do(ctx, chromedp.WaitVisible(`[data-testid=box-link]`)); err != nil {
			t.Fatalf("%s: the referee's page of a table with box: has no link to the enrolment page: %v", c.lang, err)
		}
		link, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(function (a) { return [a.textContent, a.getAttribute("href")]; })(document.querySelector("[data-testid=box-link]"))`))
		if err != nil {
			t.Fatal(err)
		}
		if link[0] != c.link || link[1] != "/referee/box?lang="+c.lang {
			t.Errorf("%s: the link says %q and goes to %q, want %q to /referee/box?lang=%s", c.lang, link[0], link[1], c.link, c.lang)
		}
		if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=box-link]`), chromedp.WaitVisible(`#save`)); err != nil {
			t.Fatalf("%s: following the link: %v", c.lang, err)
		}
		title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("h1").textContent`))
		if err != nil || !strings.HasPrefix(title, c.title) {
			t.Errorf("%s: the link opens a page titled %q (%v), want the enrolment page (%q…)", c.lang, title, err, c.title)
		}
	}
	r.Stop(t)

	// The same game's table without box: its referee's page, drawn,
	// has no link.
	plain := tabletest.Start(t, tabletest.DemoConfig(t, t.TempDir(), spec.Demo, false), spec)
	defer plain.Stop(t)
	for _, lang := range []string{"pl", "en"} {
		ctx := refereePage(t, browser, plain, lang)
		links, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=box-link], a[href^='/referee/box']").length`))
		if err != nil {
			t.Fatal(err)
		}
		if links != 0 {
			t.Errorf("%s: the referee's page of a table without box: links to the enrolment page", lang)
		}
	}
}
