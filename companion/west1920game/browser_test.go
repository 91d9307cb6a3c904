package west1920game_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion/west1920game"
	"github.com/sztab/sztab/internal/chromium"
	"github.com/sztab/sztab/internal/tabletest"
)

func pageShows(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	chromium.Until(t, ctx, cond)
}

// pointer sends a pointer event to the element sel, as a click or the end
// of a drag does.
func pointer(t *testing.T, ctx context.Context, sel, typ string) {
	t.Helper()
	js := `(function(){var e=document.querySelector(` + "`" + sel + "`" + `); if(!e) return false; e.dispatchEvent(new PointerEvent("` + typ + `",{bubbles:true})); return true;})()`
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
	if err != nil || !ok {
		t.Fatalf("%s on %s: %v (found %v)", typ, sel, err, ok)
	}
}

func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	pointer(t, ctx, sel, "pointerdown")
	pointer(t, ctx, sel, "pointerup")
}

type stageState struct {
	State struct {
		Game struct {
			Phase   string           `json:"phase"`
			Turn    string           `json:"turn"`
			Pending *json.RawMessage `json:"pending"`
		} `json:"game"`
	} `json:"state"`
}

// TestBrowserMapMoves: the demo table stopped before the Russian order
// (the demo script cut there). The table screen draws the hex map with the
// stacks and their supply; Piotr's page (the Russian player) the
// activation chances too; a
// click on the 4. DS in 1904 and then on the Polish stack in 1704 is
// refused with the engine's reason; a click on 1904 and then on 1804 is an
// order the engine accepts; in the HQ phase dragging the 3rd Army's HQ
// onto 1905 moves it; the referee weakens a counter with a correction.
func TestBrowserMapMoves(t *testing.T) {
	ctx := chromium.Start(t)
	dir := t.TempDir()
	cfg := demoTable(t, dir, true)
	script, err := os.ReadFile(filepath.Join(dir, "west-1920-demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Index(string(script), `"key": "move"`)
	cut = strings.LastIndex(string(script[:cut]), "\n")
	if err := os.WriteFile(filepath.Join(dir, "west-1920-demo.jsonl"), script[:cut+1], 0o644); err != nil {
		t.Fatal(err)
	}
	r, w := tabletest.StartWatched(t, cfg, west1920game.Spec)
	defer r.Stop(t)
	lastStage := func() stageState {
		var s stageState
		if len(w.States) > 0 {
			json.Unmarshal(w.States[len(w.States)-1], &s)
		}
		return s
	}
	w.Until(t, "the Russian order awaited", func() bool {
		s := lastStage().State.Game
		return s.Phase == "orders" && s.Turn == "russian" && s.Pending == nil
	})
	addr := r.D.DisplayAddr()

	// The table screen: the map, the stacks, the tracker; no move tools.
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/")); err != nil {
		t.Fatal(err)
	}
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=map] polygon.hex").length === 26*19`)
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=map] [data-river]").length > 10`)
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=map] .ns-line").length === 26`)
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=map] [data-country]").length > 20`)
	// supply reach drawn for both sides, and the hexes only Russian cavalry reaches (6.0)
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=map] .reach-polish").length > 50 && document.querySelectorAll("[data-testid=map] .reach-russian").length > 50`)
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=map] .reach-russian_cavalry").length > 5`)
	pageShows(t, ctx, `(document.querySelector("[data-testid=stack-1904]") || {dataset: {}}).dataset.side === "russian"`)
	pageShows(t, ctx, `document.querySelectorAll("[data-testid=map] .stack[data-supply]").length > 20`)
	pageShows(t, ctx, `document.querySelectorAll("[data-testid^=depot-]").length >= 14`)
	pageShows(t, ctx, `!!document.querySelector("[data-stage='1'].on")`)
	pageShows(t, ctx, `(document.querySelector("[data-testid=whose]") || {textContent: ""}).textContent.includes("Rosjanie")`)

	// Piotr's page.
	chromium.Login(t, ctx, "http://"+addr+"/player/2", "piotr", "piotr", "body[data-page=player]")
	pageShows(t, ctx, `!!document.querySelector("[data-testid=stack-1904]")`)
	// The activation chances are the players' (not the TV's: too small for 3 m).
	pageShows(t, ctx, `document.querySelectorAll("[data-testid^=fail-]").length > 0`)
	// Refused: 1904 onto the Polish stack in 1704.
	click(t, ctx, `[data-testid=stack-1904]`)
	pageShows(t, ctx, `!!document.querySelector("[data-testid=stack-tools]")`)
	click(t, ctx, `[data-testid=stack-1704]`)
	pageShows(t, ctx, `(document.querySelector("[data-testid=command-result]") || {textContent: ""}).textContent.includes("wrogimi jednostkami")`)
	pageShows(t, ctx, `!!document.querySelector("[data-testid=stack-1904]")`)
	// Accepted: 1904 to 1804.
	click(t, ctx, `[data-testid=stack-1904]`)
	click(t, ctx, `polygon[data-hex="1804"]`)
	pageShows(t, ctx, `!!document.querySelector("[data-testid=stack-1804]") && !document.querySelector("[data-testid=stack-1904]")`)
	w.Until(t, "the HQ phase", func() bool { return lastStage().State.Game.Phase == "hq" })
	// A drag: the 3rd Army's HQ from 2004 onto 1905.
	pageShows(t, ctx, `(document.querySelector("[data-testid=hq-ru-hq-3a]") || {dataset: {}}).dataset.hex === "2004"`)
	pointer(t, ctx, `[data-testid=hq-ru-hq-3a]`, "pointerdown")
	pointer(t, ctx, `polygon[data-hex="1905"]`, "pointerup")
	pageShows(t, ctx, `(document.querySelector("[data-testid=hq-ru-hq-3a]") || {dataset: {}}).dataset.hex === "1905"`)

	// The referee flips a counter with a correction from the stack's tools.
	ctx = chromium.Start(t)
	chromium.Login(t, ctx, "http://"+addr+"/referee", "sedzia", "sedzia", "body[data-page=referee]")
	pageShows(t, ctx, `(document.querySelector("[data-testid=stack-1804]") || {dataset: {}}).dataset.weak === "0"`)
	click(t, ctx, `[data-testid=stack-1804]`)
	pageShows(t, ctx, `!!document.querySelector("[data-testid=tool-adjust]")`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(`[data-testid=adjust-changes]`, "weak=true note=flipped"), chromedp.Click(`[data-testid=tool-adjust]`)); err != nil {
		t.Fatal(err)
	}
	pageShows(t, ctx, `(document.querySelector("[data-testid=stack-1804]") || {dataset: {}}).dataset.weak === "1"`)
}
