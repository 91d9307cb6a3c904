package maligame_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/maligame"
	"github.com/sztab/sztab/companion/wire"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/chromium"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/mali"
)

func demoTable(t testing.TB, dir string, script bool, edits ...string) *companion.Config {
	return tabletest.DemoConfigEdited(t, dir, "mali-powstancy.yaml", script, edits...)
}

// last is the newest public view the watcher saw.
func last(t testing.TB, w *tabletest.Watcher) (json.RawMessage, maligame.View) {
	t.Helper()
	var m struct {
		State json.RawMessage `json:"state"`
	}
	var v maligame.View
	if len(w.States) == 0 {
		return nil, v
	}
	if err := json.Unmarshal(w.States[len(w.States)-1], &m); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(m.State, &v); err != nil {
		t.Fatal(err)
	}
	return m.State, v
}

// keysInDemo counts the demo script's keys: each is answered.
func keysInDemo(t *testing.T) int {
	data, err := firmwareconfig.Demo.ReadFile("demo/mali-powstancy-demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, `{"key"`) {
			n++
		}
	}
	return n
}

// The demo table played through the real daemon and broker: every key
// answered and taken, the README's game's result published (Bartek 8,
// Ania 4: no courier of theirs on a start object ever left it, so no
// return bonus; red-2 in prison), and the same state after a restart on the
// same journal.
func TestDemoThroughTheDaemon(t *testing.T) {
	for _, tc := range []struct {
		name string
		club bool
	}{{"the shipped sample data", false}, {"a club's box", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var edits []string
			if tc.club {
				edits = tabletest.OnClubBox(t, "mali-powstancy")
			}
			dir := t.TempDir()
			r, w := tabletest.StartWatched(t, demoTable(t, dir, true, edits...), maligame.Spec)
			keys := keysInDemo(t)
			w.Until(t, "the game's end", func() bool { _, v := last(t, w); return v.Result != nil })
			w.Until(t, "the answers to the demo's keys", func() bool { return w.Count(`"command_result"`) >= keys })

			w.Mu.Lock()
			raw, v := last(t, w)
			if n := w.Count(`"ok":false`) + w.Count(`"type":"rejected"`); n != 0 {
				t.Errorf("%d refusals in the demo: %s", n, strings.Join(w.Events, "\n"))
			}
			var totals []int
			for _, sc := range v.Result.Scores {
				totals = append(totals, sc.Total)
			}
			// The club's order cards are worth a point more each.
			want := map[bool]string{false: "[4,8]", true: "[5,9]"}[tc.club]
			if jsonOf(totals) != want {
				t.Errorf("scores %v, want %s (Ania, Bartek)", totals, want)
			}
			if c, _ := v.Courier("red-2"); c.Off != mali.InPrison {
				t.Errorf("red-2 is %+v, want in prison", c)
			}
			if len(v.Result.Winners) != 1 || v.Result.Winners[0] != 2 {
				t.Errorf("winners %v, want Bartek (seat 2)", v.Result.Winners)
			}
			if club := len(edits) > 0; club != (strings.Contains(string(raw), "★") || strings.Contains(strings.Join(w.Events, "\n"), "★")) {
				t.Errorf("on the club's box: %v; the club's names (★) in the state or the events: %v", club, !club)
			}
			// The screens say when the game runs on sample data, and only then.
			if sample := strings.Contains(string(w.States[len(w.States)-1]), `"sample_data":{"pl":"dane przykładowe","en":"sample data"}`); sample != (len(edits) == 0) {
				t.Errorf("on the club's box: %v; the state says sample data: %v", len(edits) > 0, sample)
			}
			w.Mu.Unlock()

			seq := r.D.Seq()
			r.Stop(t)
			r2 := tabletest.Start(t, demoTable(t, dir, false, edits...), maligame.Spec)
			defer r2.Stop(t)
			if r2.D.Seq() != seq {
				t.Errorf("after the restart seq %d, want %d", r2.D.Seq(), seq)
			}
			w2 := tabletest.Watch(t, r2.D.BrokerAddr(), "demo", "stol-2")
			w2.Until(t, "the retained state after the restart", func() bool { return len(w2.States) > 0 })
			w2.Mu.Lock()
			defer w2.Mu.Unlock()
			if again, _ := last(t, w2); string(again) != string(raw) {
				t.Errorf("the state after the restart differs:\n%s\n%s", again, raw)
			}
		})
	}
}

// The table's screen after the demo draws the end: five couriers on the
// map (red 2, "czerwony 2", is in prison), the soldier where he arrested
// him, the result with the winner and the scores.
func TestBrowserTableDrawsTheEnd(t *testing.T) {
	r, w := tabletest.StartWatched(t, demoTable(t, t.TempDir(), true), maligame.Spec)
	defer r.Stop(t)
	w.Until(t, "the game's end", func() bool { _, v := last(t, w); return v.Result != nil })
	ctx := chromium.Start(t)
	addr := r.D.DisplayAddr()
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/")); err != nil {
		t.Fatal(err)
	}
	chromium.Until(t, ctx, `document.querySelectorAll("[data-testid=map] [data-courier]").length === 5`)
	chromium.Until(t, ctx, `document.querySelector("[data-testid=soldier]").dataset.node === "sggw-dworzec/1"`)
	chromium.Until(t, ctx, `document.querySelector("[data-testid=prison]").textContent.includes("czerwony 2")`)
	// The result names the winner and both scores, as the headline does.
	chromium.Until(t, ctx, `(function (r) { return !!r && r.textContent.includes("wygrywa Bartek") && r.textContent.includes("Ania 4 pkt, Bartek 8 pkt"); })(document.querySelector("[data-testid=result]"))`)
	chromium.Until(t, ctx, `document.querySelectorAll("[data-testid=map] [data-node]").length > 60`)
	// The game runs on the shipped sample data: the title says so, in the
	// page's language.
	chromium.Until(t, ctx, `(function (b) { return !!b && b.textContent === "dane przykładowe"; })(document.querySelector("[data-testid=sample-data]"))`)
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=lang]`)); err != nil {
		t.Fatal(err)
	}
	chromium.Until(t, ctx, `document.querySelector("[data-testid=sample-data]").textContent === "sample data"`)
}

// On a club's box with nothing assumed the screens show no sample-data
// badge.
func TestBrowserNoSampleBadgeOnAClubBox(t *testing.T) {
	r, w := tabletest.StartWatched(t, demoTable(t, t.TempDir(), true, tabletest.OnClubBox(t, "mali-powstancy")...), maligame.Spec)
	defer r.Stop(t)
	w.Until(t, "the game's end", func() bool { _, v := last(t, w); return v.Result != nil })
	ctx := chromium.Start(t)
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+r.D.DisplayAddr()+"/")); err != nil {
		t.Fatal(err)
	}
	chromium.Until(t, ctx, `document.querySelectorAll("[data-testid=map] [data-courier]").length === 5`)
	chromium.Until(t, ctx, `document.querySelector("[data-testid=title]").textContent.includes("Mali") && !document.querySelector("[data-testid=sample-data]")`)
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }

// A player moves from their page: Bartek picks his courier and clicks the
// field, the table takes it; Ania clicking during Bartek's move is refused
// with the reason on her page.
func TestBrowserPlayerMovesACourier(t *testing.T) {
	r := tabletest.Start(t, demoTable(t, t.TempDir(), false), maligame.Spec)
	defer r.Stop(t)
	for _, uid := range []string{"04A1A000", "04A1A001", "04A1A002"} { // r04 onto the track; red-3 and green-2 laid
		if err := r.D.Submit(context.Background(), companion.Input{Tag: &hardware.TagEvent{Reader: "orders", UID: uid, Present: true}}); err != nil {
			t.Fatal(err)
		}
	}
	addr := r.D.DisplayAddr()
	ctx := chromium.Start(t)
	chromium.Login(t, ctx, "http://"+addr+"/player/2", "bartek", "bartek", "[data-testid=panel]")
	chromium.Until(t, ctx, `!!document.querySelector("[data-testid=move-tools]")`)
	if err := chromedp.Do(ctx,
		chromedp.Click(`[data-testid=courier-green-2]`),
		chromedp.Click(`[data-testid=map] circle[data-node="past-dworzec/1"]`)); err != nil {
		t.Fatal(err)
	}
	chromium.Until(t, ctx, `document.querySelector("[data-testid=courier-green-2]").dataset.at === "past-dworzec/1"`)

	// Ania's page (her own browser), while Bartek moves.
	actx := chromium.Start(t)
	chromium.Login(t, actx, "http://"+addr+"/player/1", "ania", "ania", "[data-testid=panel]")
	chromium.Until(t, actx, `!!document.querySelector("[data-testid=courier-red-2]")`)
	if err := chromedp.Do(actx,
		chromedp.Click(`[data-testid=courier-red-2]`),
		chromedp.Click(`[data-testid=map] circle[data-node="past-dworzec/1"]`)); err != nil {
		t.Fatal(err)
	}
	chromium.Until(t, actx, `document.querySelector("[data-testid=command-result]").textContent.length > 0 && !document.querySelector("[data-testid=command-result]").textContent.includes("wysłano")`)
	chromium.Until(t, actx, `document.querySelector("[data-testid=courier-red-2]").dataset.at === "past"`)
}

// The extended variant's secret goals: dealt virtually, each player sees
// their six on their own page (nobody else's), ticks three of three colours
// and keeps them.
func TestBrowserPlayerKeepsGoals(t *testing.T) {
	dir := t.TempDir()
	cfg := demoTable(t, dir, false)
	text := strings.NewReplacer("variant: basic", "variant: extended", "deck: tags", "deck: virtual").Replace(string(cfg.Raw()))
	cfg, err := companion.ParseConfig(cfg.Path(), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	r := tabletest.Start(t, cfg, maligame.Spec)
	defer r.Stop(t)
	ctx := chromium.Start(t)
	addr := r.D.DisplayAddr()
	chromium.Login(t, ctx, "http://"+addr+"/player/1", "ania", "ania", "[data-testid=panel]")
	deal := func() {
		t.Helper()
		if err := r.D.Submit(context.Background(), companion.Input{Key: &hardware.KeyEvent{Keypad: "keypad", Key: "deal"}, From: companion.Sender{Kind: wire.Keys, Audience: wire.Public}}); err != nil {
			t.Fatal(err)
		}
	}
	deal()
	// A deal that shows a hand only one or two colours is void: deal again.
	for i := 0; i < 20; i++ {
		chromium.Until(t, ctx, `document.querySelector("[data-testid=pending]") !== null`)
		dealt, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelectorAll("[data-testid=goals] li").length === 6`))
		if err != nil {
			t.Fatal(err)
		}
		if dealt {
			break
		}
		deal()
	}
	chromium.Until(t, ctx, `document.querySelectorAll("[data-testid=goals] li").length === 6`)
	clicked, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(function () {
		var seen = {}, n = 0;
		document.querySelectorAll("[data-testid=goals] li").forEach(function (li) {
			if (n < 3 && !seen[li.dataset.colour]) { seen[li.dataset.colour] = true; n++; li.querySelector("button").click(); }
		});
		return n;
	})()`))
	if err != nil || clicked != 3 {
		t.Fatalf("clicked %d goals of distinct colours: %v", clicked, err)
	}
	chromium.Until(t, ctx, `document.querySelectorAll("[data-testid=goals] li").length === 3 && !document.querySelector("[data-testid=goals] button")`)

	// The table's screen shows nobody's goals.
	pub := chromium.Start(t)
	if err := chromedp.Do(pub, chromedp.Navigate("http://"+addr+"/")); err != nil {
		t.Fatal(err)
	}
	chromium.Until(t, pub, `!!document.querySelector("[data-testid=map]")`)
	chromium.Until(t, pub, `!document.querySelector("[data-testid=goals]")`)
}
