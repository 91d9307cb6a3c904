package companion_test

import (
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/companion/maligame"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/companion/west1920game"
	"github.com/sztab/sztab/companion/wotrushgame"
	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/bitwa"
	"github.com/sztab/sztab/rules/mali"
	"github.com/sztab/sztab/rules/skirmish"
	"github.com/sztab/sztab/rules/west1920"
	"github.com/sztab/sztab/rules/wotrush"
)

var updateScreens = flag.Bool("update", false, "retake the README's screenshots (docs/screens/<game>.png)")

// screenGames are the five games' demo tables, with a player's sign-in
// and the ids their pages must never show.
var screenGames = []struct {
	id, file   string
	spec       companion.GameSpec
	user, pass string // seat 1's
	ids        []string
	allow      []string
	finished   finishedGame // its golden finished game (TestScreensGamesEnd)
}{
	{"skirmish", "skirmish.yaml", skirmishgame.Spec, "ania", "ania", []string{"ak", "gren", "ak_soldier", "grenadier"}, []string{"stol-1"},
		finishedGame{"skirmish/testdata/games/readme.jsonl", func(t *testing.T, data []byte) ([]rules.ScriptLine, error) {
			cat, err := skirmishgame.LoadCatalogue(skirmishgame.DataFiles{}, func(p string) string { return p })
			if err != nil {
				t.Fatal(err)
			}
			return skirmish.ParseScript(cat, "readme.jsonl", data)
		}, skirmish.Actions}},
	{"mali-powstancy", "mali-powstancy.yaml", maligame.Spec, "ania", "ania", []string{"red-1", "red-2", "red-3", "green-1", "green-2", "green-3", "r04"}, []string{"stol-2"},
		finishedGame{"mali/testdata/games/basic-2p.jsonl", func(t *testing.T, data []byte) ([]rules.ScriptLine, error) {
			cat, err := mali.DefaultCatalogue()
			if err != nil {
				t.Fatal(err)
			}
			return mali.ParseScript(cat, "basic-2p.jsonl", data)
		}, mali.Actions}},
	{"bitwa-warszawska", "bitwa-warszawska.yaml", bitwagame.Spec, "marysia", "marysia", nil, []string{"stol-1"},
		finishedGame{"bitwa/testdata/games/2-players.jsonl", func(t *testing.T, data []byte) ([]rules.ScriptLine, error) {
			cat, err := bitwa.DefaultCatalogue()
			if err != nil {
				t.Fatal(err)
			}
			return bitwa.ParseScript(cat, "2-players.jsonl", data)
		}, bitwa.Actions}},
	{"wot-rush", "wot-rush.yaml", wotrushgame.Spec, "ania", "ania", nil, []string{"stol-1"},
		finishedGame{"wotrush/testdata/games/2-players.jsonl", func(t *testing.T, data []byte) ([]rules.ScriptLine, error) {
			cat, err := wotrush.DefaultCatalogue()
			if err != nil {
				t.Fatal(err)
			}
			return wotrush.ParseScript(cat, "2-players.jsonl", data)
		}, wotrush.Actions}},
	{"west-1920", "west-1920.yaml", west1920game.Spec, "ola", "ola", nil, []string{"stol-1"},
		finishedGame{"west1920/testdata/games/full-game.jsonl", func(t *testing.T, data []byte) ([]rules.ScriptLine, error) {
			cat, err := west1920.DefaultCatalogue()
			if err != nil {
				t.Fatal(err)
			}
			lines, err := west1920.ParseScript(cat, "full-game.jsonl", data)
			for i, l := range lines {
				if r, ok := l.Action.(west1920.Roll); ok {
					lines[i].Action = west1920game.Roll{Roll: r} // the table's roll (west1920game.Actions)
				}
			}
			return lines, err
		}, west1920game.Actions}},
}

// finishedGame is a game's golden finished game (rules/<pkg>/testdata/games)
// and how it is read into the table's actions.
type finishedGame struct {
	golden string
	parse  func(t *testing.T, data []byte) ([]rules.ScriptLine, error)
	codec  *rules.Codec
}

// readmeShot is the README's screenshot of a game's table screen.
func readmeShot(game string) string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "docs", "screens", game+".png")
}

// TestScreensGames: the README's screenshot of each game's table screen
// on a 1080p TV, at its demo's end, is there (half size, 960×540); with
// -update the test plays each demo and takes it again. Under `make
// test-screens` (SZTAB_FULL=1) it checks every game's table, referee and
// player pages on a 1080p and a 720p TV and a phone, in both languages,
// in the middle of its demo and at its end (internal/pagecheck).
func TestScreensGames(t *testing.T) {
	full := pagecheck.Full()
	if !full && !*updateScreens {
		for _, g := range screenGames {
			f, err := os.Open(readmeShot(g.id))
			if err != nil {
				t.Errorf("the README's screenshot of %s: %v; run `go test ./companion/ -run TestScreensGames -update`", g.id, err)
				continue
			}
			cfg, err := png.DecodeConfig(f)
			f.Close()
			if err != nil || cfg.Width != 960 || cfg.Height != 540 {
				t.Errorf("the README's screenshot of %s is not a 960×540 PNG: %dx%d, %v", g.id, cfg.Width, cfg.Height, err)
			}
		}
		return
	}
	ctx := pagecheck.Browser(t)
	for _, g := range screenGames {
		t.Run(g.id, func(t *testing.T) {
			parts := []float64{1}
			if full {
				parts = []float64{0.5, 1}
			}
			for _, part := range parts {
				r := tabletest.PlayDemo(t, t.TempDir(), g.file, g.spec, part)
				stage := map[bool]string{true: "end", false: "mid"}[part == 1]
				base := pagecheck.Page{Game: g.id + "-" + stage, URL: "http://" + r.D.DisplayAddr(), IDs: g.ids, Allow: g.allow,
					Ready: fmt.Sprintf(`document.body.dataset.stale === "0" && +document.body.dataset.seq >= %d`, r.D.Seq())}
				table, referee, player := pagecheck.Roles(base, "/player/1", g.user, g.pass)
				if part == 1 && *updateScreens {
					shot := table
					shot.Size, shot.Lang = pagecheck.TV1080, "pl"
					if err := pagecheck.Load(ctx, shot); err != nil {
						t.Fatal(err)
					}
					pagecheck.Thumbnail(t, ctx, readmeShot(g.id), true)
				}
				if full {
					for _, p := range pagecheck.Pages(table, referee, player, true) {
						pagecheck.Run(t, ctx, p)
					}
				}
				r.Stop(t)
			}
		})
	}
}
