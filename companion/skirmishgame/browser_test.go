package skirmishgame_test

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/chromium"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/vision"
)

// TestBrowserTableFromAbove: the demo table (no script) sees both units,
// a heavy wall in front of the grenadiers and a crater; both units deploy,
// Ania ends her move and shoots. The table screen draws the table from
// above: both kinds of terrain, every model with its uncertainty ring, the
// rifles' reach and the shot's lines of fire through heavy cover; the
// camera image stays behind a click.
func TestBrowserTableFromAbove(t *testing.T) {
	cfg := tabletest.DemoConfig(t, t.TempDir(), "skirmish.yaml", false)
	r := tabletest.Start(t, cfg, skirmishgame.Spec)
	defer r.Stop(t)
	var models []vision.ModelPosition
	for i, id := range []string{"ak-1", "ak-2", "ak-3", "ak-4", "ak-5"} {
		models = append(models, vision.ModelPosition{ID: id, Unit: "ak", X: 300 + 60*float64(i), Y: 100, BaseMM: 25, SigmaMM: 0.5})
	}
	for i, id := range []string{"gren-1", "gren-2", "gren-3", "gren-4", "gren-5"} {
		models = append(models, vision.ModelPosition{ID: id, Unit: "gren", X: 300 + 60*float64(i), Y: 633, BaseMM: 25, SigmaMM: 0.5})
	}
	snap := &vision.Snapshot{Models: models, KrokMM: 25.4,
		Terrain: []vision.Terrain{
			{ID: "sciana", Kind: vision.CoverHeavy, SigmaMM: 1, Outline: [][2]float64{{200, 590}, {700, 590}, {700, 600}, {200, 600}}},
			{ID: "dol", Kind: vision.CoverLight, SigmaMM: 1, Outline: [][2]float64{{800, 300}, {900, 280}, {920, 380}, {820, 400}}},
		},
		Markers: []vision.TableMarker{{Kind: vision.MarkerObjective, X: 1000, Y: 450, DiameterMM: 30}}}
	ctx := context.Background()
	submit := func(in companion.Input) {
		t.Helper()
		if err := r.D.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	card := func(uid string) companion.Input {
		return companion.Input{Tag: &hardware.TagEvent{Reader: "stol", UID: uid, Present: true}}
	}
	submit(companion.Input{Snapshot: snap})
	submit(card("04A1B2C3")) // ak deploys
	submit(card("04D4E5F6")) // gren deploys
	submit(tabletest.Press("keypad", "next"))
	submit(card("04A1B2C3")) // the shooter
	submit(card("04D4E5F6")) // the target

	b := chromium.Start(t)
	if err := chromedp.Do(b, chromedp.Navigate("http://"+r.D.DisplayAddr()+"/")); err != nil {
		t.Fatal(err)
	}
	chromium.Until(t, b, `!!document.querySelector("[data-testid=table-svg]")`)
	chromium.Until(t, b, `document.querySelectorAll("[data-testid=table-svg] [data-testid=terrain][data-kind=heavy]").length === 1`)
	chromium.Until(t, b, `document.querySelectorAll("[data-testid=table-svg] [data-testid=terrain][data-kind=light]").length === 1`)
	chromium.Until(t, b, `document.querySelectorAll("[data-testid=table-svg] [data-testid=model]").length === 10`)
	chromium.Until(t, b, `document.querySelectorAll("[data-testid=table-svg] [data-testid=uncertainty]").length === 10`)
	chromium.Until(t, b, `document.querySelectorAll("[data-testid=table-svg] [data-testid=objective]").length === 1`)
	// The shot: five rifles, each with its line of fire through the wall.
	chromium.Until(t, b, `document.querySelectorAll("[data-testid=table-svg] [data-testid=line-of-fire]").length === 5`)
	chromium.Until(t, b, `[...document.querySelectorAll("[data-testid=line-of-fire]")].every(l => l.dataset.cover === "heavy" && l.dataset.close === "false")`)
	chromium.Until(t, b, `document.querySelector("[data-testid=line-of-fire][data-from=ak-1]").dataset.to === "gren-1"`)
	chromium.Until(t, b, `document.querySelectorAll("[data-testid=table-svg] [data-testid=range]").length === 5`)
	// The line is drawn where the models are: ak-1 at (300, 100) mm, the
	// picture flipped so north is up.
	chromium.Until(t, b, `(() => { const l = document.querySelector("[data-testid=line-of-fire][data-from=ak-1]"); const d = +document.querySelector("[data-testid=table-svg]").viewBox.baseVal.height; return +l.getAttribute("x1") === 300 && Math.abs(+l.getAttribute("y1") - (d - 100)) < 0.01; })()`)
	chromium.Until(t, b, `document.querySelector("[data-testid=shot-line]").textContent.includes("ciężka")`)
}
