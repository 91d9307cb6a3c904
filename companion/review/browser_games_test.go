package review_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/review"
	"github.com/sztab/sztab/games"
	"github.com/sztab/sztab/internal/chromium"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/dice"
)

var dieValue = regexp.MustCompile(`"value":([1-6])\b|"dice":\[([1-6])\b`)

// In headless Chromium the review page steps through each of the five
// games' demo (played on the real daemon): the first entry, next and
// previous, an entry with a die (its evidence shows the input and the
// die), the last entry; each moment shows the game's state.
func TestBrowserReviewStepsThroughEveryGame(t *testing.T) {
	ctx := chromium.Start(t)
	for _, spec := range games.All {
		if spec.Demo == "" {
			t.Errorf("%s has no demo to review", spec.ID)
			continue
		}
		t.Run(spec.ID, func(t *testing.T) {
			path, cfgPath := tabletest.DemoJournal(t, t.TempDir(), spec.Demo, spec, at, 20, nil)
			cfg, err := companion.LoadConfig(cfgPath)
			if err != nil {
				t.Fatal(err)
			}
			j, err := companion.ReadJournal(path)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			last := j.Chain().LastSeq
			var dieSeq int64
			var die string
			j.Entries(context.Background(), 1, func(e companion.Entry) error {
				if m := dieValue.FindStringSubmatch(string(e.Body)); m != nil && e.Kind == companion.KindAction && dieSeq == 0 {
					dieSeq, die = e.Seq, m[1]+m[2]
				}
				return nil
			})
			r := review.New(j, func() (companion.Game, error) { return spec.New(cfg) }, dice.WatchConfig{})
			srv := httptest.NewServer(r.Handler())
			defer srv.Close()
			text := func(sel string) string { return chromium.Text(t, ctx, sel) }
			click := func(sel string) { chromium.Click(t, ctx, sel) }
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
				t.Fatal(err)
			}
			chromium.Until(t, ctx, fmt.Sprintf(`document.body.dataset.seq === "1" && document.getElementById("last").textContent === "%d"`, last))
			first := text("#summary")
			if strings.TrimSpace(first) == "" {
				t.Errorf("entry 1 shows no state")
			}
			click("#next")
			chromium.Until(t, ctx, `document.body.dataset.seq === "2"`)
			click("#next")
			chromium.Until(t, ctx, `document.body.dataset.seq === "3"`)
			click("#prev")
			chromium.Until(t, ctx, `document.body.dataset.seq === "2"`)
			if ev := text("#evidence"); !strings.Contains(ev, "key") && !strings.Contains(ev, "tag") {
				t.Errorf("entry 2's evidence: %q, want the input that made it", ev)
			}
			if dieSeq != 0 {
				if err := chromedp.Do(ctx, chromedp.SetValue("#to", fmt.Sprint(dieSeq))); err != nil {
					t.Fatal(err)
				}
				click("#go")
				chromium.Until(t, ctx, fmt.Sprintf(`document.body.dataset.seq === "%d"`, dieSeq))
				if ev := text("#evidence"); !strings.Contains(ev, "dice: "+die) {
					t.Errorf("entry %d's evidence: %q, want the die %s", dieSeq, ev, die)
				}
			} else if _, dice := spec.Commands.Lookup("1"); dice {
				t.Errorf("no action with a die in the first %d entries of a game with dice keys", last)
			}
			click("#lastbtn")
			chromium.Until(t, ctx, fmt.Sprintf(`document.body.dataset.seq === "%d" && document.getElementById("next").disabled`, last))
			if s := text("#summary"); strings.TrimSpace(s) == "" || s == first {
				t.Errorf("the last entry's state %q, want the game's state after it (not the opening's)", s)
			}
		})
	}
}
