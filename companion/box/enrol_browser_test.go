package box_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/companion/box"
	"github.com/sztab/sztab/companion/maligame"
	"github.com/sztab/sztab/companion/west1920game"
	"github.com/sztab/sztab/companion/wotrushgame"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules"
)

var update = flag.Bool("update", false, "rewrite the screenshots docs/box.md shows (docs/box/*.png)")

// boxGames are the games whose boxes are enrolled through the page.
var boxGames = []companion.GameSpec{bitwagame.Spec, wotrushgame.Spec, maligame.Spec, west1920game.Spec}

// walkGame is the game docs/box.md walks a club through, its example.
var walkGame = maligame.Spec.ID

// step is the picture of the walk-through's step name in docs/box.md
// (docs/box/walk-<name>.png), taken of game walkGame's page: rewritten with
// -update, else it must exist.
func step(t *testing.T, ctx context.Context, game, name string) {
	t.Helper()
	if game == walkGame {
		pagecheck.Thumbnail(t, ctx, filepath.Join("..", "..", "docs", "box", "walk-"+name+".png"), *update)
	}
}

// enrolTable starts the game's demo table (no script) on a new pack made
// as `sztab box init` makes it, with the files the page does not enrol
// (boards, components) taken from the printed box, testdata/<game>: the
// board is typed into its file, as docs/box.md says. It returns the
// daemon, the pack's directory and the browser signed in as the referee.
func enrolTable(t *testing.T, browser context.Context, spec companion.GameSpec) (*tabletest.Running, string, context.Context) {
	t.Helper()
	dir := t.TempDir()
	pack := filepath.Join(dir, "nasze-pudelko")
	p, err := box.Shipped(spec.ID)
	if err != nil {
		t.Fatal(err)
	}
	p.Meta.Edition = rules.Text{PL: "Nasze pudełko", EN: "Our box"}
	p.Meta.Version = "1"
	if err := box.Write(p, pack); err != nil {
		t.Fatal(err)
	}
	enrolled := map[string]bool{}
	for _, c := range box.Collections(spec.ID) {
		enrolled[c.File] = true
	}
	for _, f := range box.Files(spec.ID) {
		if enrolled[f] {
			continue
		}
		data, err := os.ReadFile(filepath.Join("testdata", spec.ID, f))
		if err != nil {
			continue // the printed box's file is the shipped one
		}
		if err := os.WriteFile(filepath.Join(pack, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := tabletest.DemoConfigEdited(t, dir, spec.Demo, false, "game: "+spec.ID+"\n", "game: "+spec.ID+"\nbox: ./nasze-pudelko\n")
	r := tabletest.Start(t, cfg, spec)
	ctx := refereePage(t, browser, r, "pl")
	// The referee's page links to the enrolment page (docs/box.md, step 2).
	err = chromedp.Do(ctx, chromedp.WaitVisible(`[data-testid=box-link]`), chromedp.Click(`[data-testid=box-link]`), chromedp.WaitVisible(`#save`))
	if err != nil {
		r.Stop(t)
		t.Fatalf("opening the enrolment page from the referee's page: %v", err)
	}
	return r, pack, ctx
}

// refereePage signs in as the referee in a new tab and opens the
// referee's page in lang, drawn (the game's state has come).
func refereePage(t *testing.T, browser context.Context, r *tabletest.Running, lang string) context.Context {
	t.Helper()
	url := "http://" + r.D.DisplayAddr()
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	err := chromedp.Do(ctx, chromedp.EmulateViewport(1400, 1000),
		chromedp.Navigate(url+"/login?next=/referee"), chromedp.WaitVisible(`#user`),
		chromedp.SendKeys(`#user`, "sedzia"), chromedp.SendKeys(`#password`, "sedzia"),
		chromedp.Click(`#login`), chromedp.WaitReady(`body[data-page=referee]`),
		chromedp.Navigate(url+"/referee?lang="+lang), chromedp.WaitVisible(`[data-testid=referee]`))
	if err != nil {
		r.Stop(t)
		t.Fatalf("signing in and opening the referee's page: %v", err)
	}
	return ctx
}

// saveEntry picks collection ci's entry ei on the page, sets its fields to
// values (each declared field: the printed text, or "" for none), clicks
// save and waits for the answer: "" when saved, else the page's reason.
func saveEntry(t *testing.T, ctx context.Context, ci, ei int, values map[string]string) string {
	t.Helper()
	js, _ := json.Marshal(values)
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(`(function () {
  var n = +document.body.dataset.saved;
  var c = document.querySelector("#collection");
  if (c.value !== "%[1]d") { c.value = "%[1]d"; c.dispatchEvent(new Event("change")); }
  var s = document.querySelector("#slot");
  s.value = "%[2]d"; s.dispatchEvent(new Event("change"));
  var v = %[3]s;
  // Choices first: they decide which other fields the entry has.
  document.querySelectorAll("select[data-field]").forEach(function (i) {
    if (i.dataset.field in v) { i.value = v[i.dataset.field]; i.dispatchEvent(new Event("change")); }
  });
  document.querySelectorAll("input[data-field]").forEach(function (i) {
    if (i.dataset.field in v) { i.value = v[i.dataset.field]; i.dispatchEvent(new Event("input")); }
  });
  document.querySelector("#save").click();
  return n;
})()`, ci, ei, js)))
	if err != nil {
		t.Fatalf("entry %d of collection %d: %v", ei, ci, err)
	}
	return answer(t, ctx, n)
}

// answer waits for the page's answer to save number n+1.
func answer(t *testing.T, ctx context.Context, n int) string {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](fmt.Sprintf(`+document.body.dataset.saved > %d`, n))); err != nil {
		t.Fatalf("no answer to the save: %v", err)
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(function () { var r = document.querySelector("[data-testid=result]"); return r ? [r.dataset.ok, r.textContent] : ["", "no result"]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if res[0] == "1" {
		return ""
	}
	return res[1]
}

// printedValues are the printed box's entries (testdata/<game>), as the
// page would have them typed: every declared field, "" where the card has
// none.
func printedValues(t *testing.T, game string) [][]map[string]string {
	t.Helper()
	p, err := box.Open(filepath.Join("testdata", game))
	if err != nil {
		t.Fatal(err)
	}
	s, err := box.Enrolment(p)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]map[string]string
	for _, c := range s.Collections {
		var col []map[string]string
		for _, e := range c.Entries {
			v := map[string]string{}
			for _, f := range c.Fields {
				v[f.Name] = e.Values[f.Name]
			}
			col = append(col, v)
		}
		out = append(out, col)
	}
	return out
}

// For each of the four board games: a new pack's whole box of cards is
// enrolled through the referee's page in headless Chromium, the first
// card typed key by key and bound to the tag a reader of the table scans;
// the pack then checks with no card assumed and holds what the printed
// box holds, and the game's demo plays on it through the daemon to the
// same end as on the printed box.
func TestEnrolAWholeBoxThroughThePage(t *testing.T) {
	browser := pagecheck.Browser(t)
	for _, spec := range boxGames {
		t.Run(spec.ID, func(t *testing.T) {
			r, pack, ctx := enrolTable(t, browser, spec)
			stopped := false
			t.Cleanup(func() {
				if !stopped {
					r.Stop(t)
				}
			})
			step(t, ctx, spec.ID, "1-opened")
			printed := printedValues(t, spec.ID)
			cols := box.Collections(spec.ID)
			if len(printed) != len(cols) {
				t.Fatalf("the printed box has %d collections, the game declares %d", len(printed), len(cols))
			}

			// The first entry: every text field typed as a person types it,
			// and the card laid on a reader of the table.
			first := cols[0]
			var typed []chromedp.Action[chromedp.Void]
			for _, f := range first.Fields {
				if f.Type == "choice" || !applies(f, printed[0][0]) {
					continue
				}
				sel := `input[data-field="` + f.Name + `"]`
				typed = append(typed, chromedp.Evaluate[chromedp.Void](`(function (i) { i.value = ""; i.dispatchEvent(new Event("input")); })(document.querySelector('`+sel+`'))`))
				if v := printed[0][0][f.Name]; v != "" {
					typed = append(typed, chromedp.SendKeys(sel, v))
				}
			}
			if err := chromedp.Do(ctx, typed...); err != nil {
				t.Fatalf("typing the first card: %v", err)
			}
			const uid = "04A1B2C3D4E5F6"
			if err := r.D.Submit(context.Background(), companion.Input{Tag: &hardware.TagEvent{Reader: "r1", UID: uid, Present: true}}); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`(document.querySelector("[data-testid=scanned]") || {}).textContent === "Na czytniku: `+uid+`"`)); err != nil {
				t.Fatalf("the reader's scan never reached the page: %v", err)
			}
			step(t, ctx, spec.ID, "2-on-the-reader")
			// A vehicle class is no card: the scan waits for the first card.
			withTag, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector("#uid")`))
			if err != nil {
				t.Fatal(err)
			}
			if why := saveEntry(t, ctx, 0, 0, printed[0][0]); why != "" {
				t.Fatalf("the first card was refused: %s", why)
			}
			if withTag {
				tags, err := os.ReadFile(filepath.Join(pack, box.TagsFile))
				if err != nil || !strings.Contains(string(tags), uid) {
					t.Fatalf("tags.yaml %q (%v), want the scanned tag bound", tags, err)
				}
			}

			// Half way through the biggest collection: the README's picture.
			biggest := 0
			for ci := range printed {
				if len(printed[ci]) > len(printed[biggest]) {
					biggest = ci
				}
			}
			for ci := range cols {
				for ei := range printed[ci] {
					if ci == 0 && ei == 0 {
						continue
					}
					if why := saveEntry(t, ctx, ci, ei, printed[ci][ei]); why != "" {
						t.Fatalf("%s entry %d refused: %s", cols[ci].List, ei+1, why)
					}
					if ci == 0 && ei == 1 {
						step(t, ctx, spec.ID, "3-saved") // a card the pack had assumed
					}
					if ci == biggest && ei == len(printed[ci])/2 {
						pagecheck.Thumbnail(t, ctx, filepath.Join("..", "..", "docs", "box", "enrol-"+spec.ID+".png"), *update)
					}
				}
			}
			left, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.left`))
			if err != nil || left != "0" {
				t.Errorf("the page says %q left (%v), want 0", left, err)
			}
			step(t, ctx, spec.ID, "5-done")

			// sztab box check: the pack passes with no card assumed.
			p, err := box.Open(pack)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := box.Check(p)
			if err != nil {
				t.Fatalf("box check: %v", err)
			}
			for _, a := range rep.Assumed {
				if a.Entry != "" && slices.ContainsFunc(cols, func(c box.Collection) bool { return c.File == filepath.Base(a.File) }) {
					t.Errorf("still assumed after the enrolment: %s", a)
				}
			}
			tags, err := os.ReadFile(filepath.Join(pack, box.TagsFile))
			if rep.Tags != 1 || err != nil || !strings.Contains(string(tags), uid) {
				t.Errorf("%d tags bound (%v), want the scanned one:\n%s", rep.Tags, err, tags)
			}
			// What was enrolled is what the printed box holds.
			got, err := box.Enrolment(p)
			if err != nil {
				t.Fatal(err)
			}
			for ci, c := range got.Collections {
				for ei, e := range c.Entries {
					for _, f := range c.Fields {
						want := printed[ci][ei][f.Name]
						if slices.Contains(f.When, "") || !applies(f, printed[ci][ei]) {
							continue
						}
						if e.Values[f.Name] != want {
							t.Errorf("%s %d %s: enrolled %q, printed %q", c.List, ei+1, f.Name, e.Values[f.Name], want)
						}
					}
				}
			}
			r.Stop(t)
			stopped = true

			// The demo played on the enrolled pack ends as on the printed box.
			onPack := tabletest.PlayDemo(t, t.TempDir(), spec.Demo, spec, 1, "game: "+spec.ID+"\n", "game: "+spec.ID+"\nbox: "+pack+"\n")
			enrolledView := view(t, onPack)
			onPack.Stop(t)
			onPrinted := tabletest.PlayDemo(t, t.TempDir(), spec.Demo, spec, 1, tabletest.OnClubBox(t, spec.ID)...)
			printedView := view(t, onPrinted)
			onPrinted.Stop(t)
			if !reflect.DeepEqual(enrolledView, printedView) {
				t.Errorf("the demo on the enrolled pack ends\n%s\non the printed box\n%s", enrolledView, printedView)
			}
		})
	}
}

func applies(f box.Field, values map[string]string) bool {
	if len(f.When) == 0 {
		return true
	}
	return slices.Contains(f.When[1:], values[f.When[0]])
}

// view is the referee's view of the game now, as JSON.
func view(t *testing.T, r *tabletest.Running) string {
	t.Helper()
	b, err := json.Marshal(r.D.Game().View(companion.Viewer{Role: companion.RoleReferee}))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
