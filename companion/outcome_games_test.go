package companion_test

import (
	"reflect"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/companion/maligame"
	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/companion/west1920game"
	"github.com/sztab/sztab/companion/wotrushgame"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/bitwa"
	"github.com/sztab/sztab/rules/mali"
	"github.com/sztab/sztab/rules/skirmish"
	"github.com/sztab/sztab/rules/west1920"
	"github.com/sztab/sztab/rules/wotrush"
)

// Each game says each seat's outcome once it is over — what a venue's
// standings count — with the players' names and sides; nothing before.
func TestOutcomeOfEveryGame(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spec   companion.GameSpec
		demo   string
		finish func(g companion.Game)
		want   []rec.Seat
	}{
		{"skirmish won", skirmishgame.Spec, "skirmish.yaml", func(g companion.Game) {
			sg := g.(*skirmishgame.Game)
			s := sg.State()
			s.Sides[1].ObjectivePoints, s.Sides[1].OrderPoints, s.Sides[1].KillPoints = 3, 2, 5 // 5 in every scenario
			s.Result = &skirmish.Result{Winner: s.Sides[1].Faction}
			sg.SetState(s)
		}, []rec.Seat{{Seat: 1, Name: "Ania", Side: "Armia Krajowa", Outcome: rec.Loss}, {Seat: 2, Name: "Bartek", Side: "Wehrmacht", Outcome: rec.Win, Score: 5}}},
		{"skirmish drawn", skirmishgame.Spec, "skirmish.yaml", func(g companion.Game) {
			sg := g.(*skirmishgame.Game)
			s := sg.State()
			s.Result = &skirmish.Result{}
			sg.SetState(s)
		}, []rec.Seat{{Seat: 1, Name: "Ania", Side: "Armia Krajowa", Outcome: rec.Draw}, {Seat: 2, Name: "Bartek", Side: "Wehrmacht", Outcome: rec.Draw}}},
		{"bitwa won", bitwagame.Spec, "bitwa-warszawska.yaml", func(g companion.Game) {
			bg := g.(*bitwagame.Game)
			s := bg.State()
			s.Result = &bitwa.Result{Winner: bitwa.ACz, VP: [2]int{4, 7}}
			bg.SetState(s)
		}, []rec.Seat{{Seat: 1, Name: "Marysia", Side: "wp", Outcome: rec.Loss, Score: 4}, {Seat: 2, Name: "Janek", Side: "acz", Outcome: rec.Win, Score: 7}}},
		{"mali defeat", maligame.Spec, "mali-powstancy.yaml", func(g companion.Game) {
			mg := g.(*maligame.Game)
			s := mg.State()
			s.Result = &mali.Result{Defeat: true}
			mg.SetState(s)
		}, []rec.Seat{{Seat: 1, Name: "Ania", Side: "red", Outcome: rec.Loss}, {Seat: 2, Name: "Bartek", Side: "green", Outcome: rec.Loss}}},
		{"mali shared win", maligame.Spec, "mali-powstancy.yaml", func(g companion.Game) {
			mg := g.(*maligame.Game)
			s := mg.State()
			s.Result = &mali.Result{Scores: []mali.Score{{Seat: 1, Total: 9}, {Seat: 2, Total: 9}}, Winners: []int{1, 2}}
			mg.SetState(s)
		}, []rec.Seat{{Seat: 1, Name: "Ania", Side: "red", Outcome: rec.Draw, Score: 9}, {Seat: 2, Name: "Bartek", Side: "green", Outcome: rec.Draw, Score: 9}}},
		{"wot won", wotrushgame.Spec, "wot-rush.yaml", func(g companion.Game) {
			wg := g.(*wotrushgame.Game)
			s := wg.State()
			s.Result = &wotrush.Result{Scores: []wotrush.Score{{Seat: 1, Total: 14}, {Seat: 2, Total: 17}}, Winners: []int{2}}
			wg.SetState(s)
		}, []rec.Seat{{Seat: 1, Name: "Ania", Outcome: rec.Loss, Score: 14}, {Seat: 2, Name: "Bartek", Outcome: rec.Win, Score: 17}}},
		{"west won", west1920game.Spec, "west-1920.yaml", func(g companion.Game) {
			wg := g.(*west1920game.Game)
			s := wg.State()
			text := rules.Textf("zwycięstwo", "victory")
			s.Winner, s.Result = west1920.Russian, &text
			wg.SetState(s)
		}, []rec.Seat{{Seat: 1, Side: "polish", Outcome: rec.Loss}, {Seat: 2, Side: "russian", Outcome: rec.Win}}},
		{"west drawn", west1920game.Spec, "west-1920.yaml", func(g companion.Game) {
			wg := g.(*west1920game.Game)
			s := wg.State()
			text := rules.Textf("remis", "a draw")
			s.Winner, s.Result = "draw", &text
			wg.SetState(s)
		}, []rec.Seat{{Seat: 1, Side: "polish", Outcome: rec.Draw}, {Seat: 2, Side: "russian", Outcome: rec.Draw}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tabletest.DemoConfig(t, t.TempDir(), tc.demo, false)
			g, err := tc.spec.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			open, err := g.Start()
			if err != nil {
				t.Fatal(err)
			}
			_, commit, err := g.Apply(open)
			if err != nil {
				t.Fatal(err)
			}
			commit()
			if got := companion.Outcome(g); got != nil {
				t.Fatalf("an outcome before the game is over: %+v", got)
			}
			tc.finish(g)
			if got := companion.Outcome(g); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("outcome:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
