package west1920game

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
)

const tableHead = "venue: v\ntable: t\ngame: west-1920\ntags: tags.yaml\n"

// The config section: a bad deck, an unknown option or a missing data file
// is refused with the file and line; a good one makes a game.
func TestNew(t *testing.T) {
	cases := []struct {
		name, section, want string
	}{
		{"defaults", "west-1920: {}\n", ""},
		{"virtual deck and options", "west-1920:\n  deck: virtual\n  seed: 7\n  options: {losses_chosen_by: winner}\n", ""},
		{"bad deck", "west-1920:\n  deck: shuffled\n", `t.yaml:6: west1920game: deck "shuffled"`},
		{"unknown option", "west-1920:\n  options: {fog_of_war: true}\n", `t.yaml:6: west1920game: options`},
		{"bad option value", "west-1920:\n  options: {tie_combat: attacker}\n", "tie_combat"},
		{"missing data file", "west-1920:\n  data: {map: nowhere.yaml}\n", "nowhere.yaml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644)
			path := filepath.Join(dir, "t.yaml")
			os.WriteFile(path, []byte(tableHead+tc.section), 0o644)
			cfg, err := companion.LoadConfig(path)
			if err != nil {
				t.Fatal(err)
			}
			g, err := New(cfg)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if g.Name() != ID {
					t.Errorf("name %q", g.Name())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// The capabilities the watch, the small displays and the lights read.
func TestCapabilities(t *testing.T) {
	g := testGame(t, false)
	if h := g.Headline(); !strings.Contains(h.EN, "Stage 1/14 · events (3) · the Russian player decides") || !strings.Contains(h.PL, "Etap 1/14") {
		t.Errorf("headline %+v", h)
	}
	if s := g.ActiveSeat(); s != RussianSeat {
		t.Errorf("active seat %d, want the Russian %d", s, RussianSeat)
	}
	if len(g.Seats()) != 2 {
		t.Errorf("seats %v", g.Seats())
	}
	if l := g.LegalActions(); len(l) != 1 || l[0] != "draw_card" {
		t.Errorf("legal %v, want draw_card", l)
	}
	before(t, g, "roll")
	sum := g.Summary(companion.Public)
	if len(sum) != 4 || !strings.Contains(sum[3].EN, "Waiting: roll the white and red dice") {
		t.Errorf("summary %+v", sum)
	}
	if sb := g.Scoreboard(); sb.Digits != "E 1" || len(sb.Lines) != 3 {
		t.Errorf("scoreboard %+v", sb)
	}
}
