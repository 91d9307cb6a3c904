package companion_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/internal/tabletest"
)

// TestScreensGamesEnd: each game's golden finished game, written as the
// journal of its demo table, which the real daemon replays at start: the
// table screen on a 1080p TV in both languages shows the result (the
// winner and every seat's final score, as the venue wall and the watch
// say it) and passes the page check (internal/pagecheck); with
// SZTAB_FULL=1 on every screen, the referee's and a player's pages too.
func TestScreensGamesEnd(t *testing.T) {
	full := pagecheck.Full()
	ctx := pagecheck.Browser(t)
	for _, g := range screenGames {
		t.Run(g.id, func(t *testing.T) {
			f := g.finished
			data, err := os.ReadFile(filepath.Join("..", "rules", f.golden))
			if err != nil {
				t.Fatal(err)
			}
			lines, err := f.parse(t, data)
			if err != nil {
				t.Fatal(err)
			}
			cfg := tabletest.DemoConfig(t, t.TempDir(), g.file, false)
			tabletest.ScriptJournal(t, cfg.Resolve(cfg.Journal), companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, lines, f.codec)
			r := tabletest.Start(t, cfg, g.spec)
			defer r.Stop(t)
			base := pagecheck.Page{Game: g.id + "-finished", URL: "http://" + r.D.DisplayAddr(), IDs: g.ids, Allow: append([]string{"dice", "of"}, g.allow...), // the dice keypad's name; "of" in "World of Tanks: Rush"
				Ready: `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=result]")`}
			table, referee, player := pagecheck.Roles(base, "/player/1", g.user, g.pass)
			pages := pagecheck.Matrix(table, full)
			if full {
				pages = append(pages, append(pagecheck.Matrix(referee, true), pagecheck.Matrix(player, true)...)...)
			}
			for _, p := range pages {
				pagecheck.Run(t, ctx, p)
				if p.Name != "table" {
					continue
				}
				over := map[string]string{"pl": `"koniec gry: "`, "en": `"game over: "`}[p.Lang]
				pagecheck.Expect(t, ctx, g.id+": the result on the "+p.Size.Name+" table screen in "+p.Lang,
					`(r => !!r && r.textContent.startsWith(`+over+`) && /\d/.test(r.textContent))(document.querySelector("[data-testid=result]"))`)
				pagecheck.Expect(t, ctx, g.id+": the result on the screen", pagecheck.InView("[data-testid=result]"))
			}
		})
	}
}
