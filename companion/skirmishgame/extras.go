package skirmishgame

import (
	"fmt"
	"strings"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/skirmish"
)

// Seats are the players' seats; each gets its own view.
func (g *Game) Seats() []int {
	var out []int
	for _, p := range g.State().Players {
		out = append(out, p.Seat)
	}
	return out
}

// ActiveSeat is whose turn it is, for the table's lights.
func (g *Game) ActiveSeat() int { return g.State().ActiveSeat() }

// Headline is the game in one line: round, phase, and each side's models
// left, or the result once the game is over. It is public: it counts the
// models as the public view does, deployed ones only until deployment is
// over.
func (g *Game) Headline() rules.Text {
	if r := g.State().Result; r != nil {
		return gamespec.ResultText(gamespec.Outcome(g), r.Text)
	}
	return headline(g.State().View(skirmish.Viewer{}))
}

// headline is the headline of a state as a viewer sees it.
func headline(s skirmish.State) rules.Text {
	phase := s.Phase.Name()
	if phase.PL == "" {
		phase = rules.Text{PL: string(s.Phase), EN: string(s.Phase)}
	}
	var sides []string
	for _, sd := range s.Sides {
		sides = append(sides, fmt.Sprintf("%s %d", sd.Faction, sd.Alive))
	}
	score := strings.Join(sides, " : ")
	return rules.Text{
		PL: fmt.Sprintf("runda %d · %s · %s", s.Round, phase.PL, score),
		EN: fmt.Sprintf("round %d · %s · %s", s.Round, phase.EN, score),
	}
}

// Desyncs compares the latest snapshot with the state: a model the game
// removed that the camera still sees, a model in play the camera has lost.
// The referee's view shows them; nothing is decided from them.
func (g *Game) Desyncs() []rules.Text {
	if g.snap == nil {
		return nil
	}
	seen := map[string]bool{}
	for _, m := range g.snap.Models {
		if !m.Occluded {
			seen[m.ID] = true
		}
	}
	var out []rules.Text
	for _, u := range g.State().Units {
		if !u.Deployed {
			continue
		}
		for _, m := range u.Models {
			switch {
			case m.Removed && seen[m.ID]:
				out = append(out, rules.Textf("%s zginął w grze, a kamera wciąż widzi go na stole: zdejmijcie go",
					"%s is dead in the game but the camera still sees it on the table: take it off", m.ID))
			case !m.Removed && !seen[m.ID]:
				out = append(out, rules.Textf("kamera nie widzi %s (%s), który jest w grze", "the camera does not see %s (%s), which is in play", m.ID, u.Name))
			}
		}
	}
	return out
}
