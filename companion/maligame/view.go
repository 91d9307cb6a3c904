package maligame

import (
	"fmt"
	"github.com/sztab/sztab/companion/wire"
	"slices"
	"strings"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/mali"
)

// View is what the screens get: the state as the viewer may see it, the
// map and the order cards to draw it with, and, before the soldier's die,
// the odds and the soldier's route.
type View struct {
	mali.State
	Map    mali.Map                  `json:"map"`
	Orders map[string]mali.OrderCard `json:"order_cards"`
	// Goals are the secret goal cards' texts (which ones a player holds
	// shows only in their own view).
	Goals map[string]mali.Goal `json:"goal_cards,omitempty"`
	// Odds are the chances before the die is rolled (basic variant, the
	// soldier's phase): each courier's arrest and, for the referee, the
	// red move's courier.
	Odds []mali.CourierOdds `json:"odds,omitempty"`
	// Routes are where the soldier would go on the highest black face:
	// one route, or one per courier its owner may choose among.
	Routes []mali.SoldierRoute `json:"soldier_routes,omitempty"`
}

// beforeTheDie is what the screens show while the round-starter is to
// roll the soldier's die (basic variant): every courier's odds and the
// soldier's routes. It depends on the state alone, so the game computes it
// once per state for all the viewers; nil at any other time.
type beforeTheDie struct {
	odds   []mali.CourierOdds
	routes []mali.SoldierRoute
}

func computeBeforeTheDie(s mali.State) *beforeTheDie {
	if s.Catalogue() == nil || s.Variant != mali.Basic || s.Result != nil || s.Pending == nil || s.Pending.Kind != mali.WaitRoll {
		return nil
	}
	var bd beforeTheDie
	bd.odds, _ = mali.SoldierOdds(s)
	bd.routes, _ = mali.SoldierPath(s, maxBlack(s))
	return &bd
}

func show(s mali.State, v gamespec.Viewer, bd *beforeTheDie) any {
	mv := mali.Viewer{Referee: v.Role == gamespec.RoleReferee}
	if v.Role == gamespec.RolePlayer {
		mv.Seat = v.Seat
	}
	out := View{State: s.View(mv)}
	cat := s.Catalogue()
	if cat == nil {
		return out
	}
	out.Map, out.Orders = cat.Data.Map, cat.Orders
	if s.Variant == mali.Extended {
		out.Goals = cat.Goals
	}
	if bd != nil {
		out.Odds = slices.Clone(bd.odds)
		for i := range out.Odds {
			if !mv.Referee {
				out.Odds[i].RedMin, out.Odds[i].RedMax = 0, 0
			}
		}
		out.Routes = bd.routes
	}
	return out
}

// beforeTheDie is the current state's, computed once per state, not once
// per viewer (about 0.5 ms each): the adapter shows every viewer the
// current state.
func (g *Game) beforeTheDie() *beforeTheDie {
	if g.bd == nil || g.bdAt != g.Version() {
		g.bd, g.bdAt = computeBeforeTheDie(g.State()), g.Version()
	}
	return g.bd
}

func maxBlack(s mali.State) int {
	n := 0
	for _, f := range s.Catalogue().Data.Die {
		if f.Colour == mali.Black && f.Value > n {
			n = f.Value
		}
	}
	return n
}

// LegalActions are the action types the engine takes now.
func (g *Game) LegalActions() []string {
	var out []string
	for _, a := range mali.LegalActions(g.State()) {
		if !slices.Contains(out, a.Type()) {
			out = append(out, a.Type())
		}
	}
	return out
}

// Seats are the players' seats, for their own views.
func (g *Game) Seats() []int {
	var out []int
	for _, p := range g.State().Players {
		out = append(out, p.Seat)
	}
	return out
}

// ActiveSeat is the seat the game waits for, 0 when it waits for several
// or for the table.
func (g *Game) ActiveSeat() int {
	if p := g.State().Pending; p != nil {
		return p.Seat
	}
	return 0
}

var phaseName = map[string]rules.Text{
	mali.PhaseGoals:   {PL: "sekretne cele", EN: "secret goals"},
	mali.PhaseOrders:  {PL: "faza rozkazów", EN: "order phase"},
	mali.PhaseCards:   {PL: "wybór kart ruchu", EN: "movement cards"},
	mali.PhaseMove:    {PL: "ruch harcerzy", EN: "couriers move"},
	mali.PhaseSoldier: {PL: "ruch niemieckiego żołnierza", EN: "the German soldier"},
	mali.PhaseTime:    {PL: "upływ czasu", EN: "time passes"},
	mali.PhaseOver:    {PL: "koniec gry", EN: "game over"},
}

// Headline is the round and phase, or the result.
func (g *Game) Headline() rules.Text {
	s := g.State()
	if s.Result != nil {
		return gamespec.ResultText(gamespec.Outcome(g), resultNote(*s.Result))
	}
	ph := phaseName[s.Phase]
	return rules.Text{PL: fmt.Sprintf("Runda %d · %s · żetony niemieckie %d", s.Round, ph.PL, s.Tokens),
		EN: fmt.Sprintf("Round %d · %s · German tokens %d", s.Round, ph.EN, s.Tokens)}
}

// resultNote is what the result says beside the winner and the scores:
// why every seat lost (the Germans' victory), or, when the best score was
// shared, that the most delivered orders broke the tie (the rulebook's
// tie-break, mali.Winners).
func resultNote(r mali.Result) rules.Text {
	if r.Defeat {
		return r.Reason
	}
	best, tied := -1, false
	for _, sc := range r.Scores {
		switch {
		case sc.Total > best:
			best, tied = sc.Total, false
		case sc.Total == best:
			tied = true
		}
	}
	if !tied {
		return rules.Text{}
	}
	if len(r.Winners) > 1 {
		return rules.Textf("remis także w liczbie dostarczonych rozkazów", "tied on delivered orders too")
	}
	return rules.Textf("remis punktowy rozstrzygnęła liczba dostarczonych rozkazów", "a tie on points, broken by the most delivered orders")
}

// points is each seat's points: once the game is over, its final score as
// its outcome says it (what the result, the statement and the export
// count: orders, couriers home and goals, or 0 for all on the Germans'
// victory); before, the points of its delivered orders.
func (g *Game) points() map[int]int {
	out := map[int]int{}
	if seats := gamespec.Outcome(g); seats != nil {
		for _, s := range seats {
			out[s.Seat] = s.Score
		}
		return out
	}
	s := g.State()
	for _, p := range s.Players {
		for _, id := range p.Delivered {
			out[p.Seat] += s.Catalogue().Orders[id].Points
		}
	}
	return out
}

// Summary is the headline, each player's delivered orders and points (see
// points), and what the game waits for.
func (g *Game) Summary(gamespec.Viewer) []rules.Text {
	s := g.State()
	out := []rules.Text{g.Headline()}
	pts := g.points()
	for _, p := range s.Players {
		who := p.Colour
		if p.Name != "" {
			who = p.Name + " (" + p.Colour + ")"
		}
		out = append(out, rules.Textf("%s: %d rozkazów, %d pkt", "%s: %d orders, %d pts", who, len(p.Delivered), pts[p.Seat]))
	}
	if p := s.Pending; p != nil && s.Result == nil {
		out = append(out, rules.Textf("Czekam na: %s (miejsce %d)", "Waiting for: %s (seat %d)", p.Kind, p.Seat))
	}
	return out
}

// Scoreboard: the digits show the round and German tokens, the lines each
// player's points.
func (g *Game) Scoreboard() hardware.Scoreboard {
	s := g.State()
	sb := hardware.Scoreboard{Digits: fmt.Sprintf("%2d-%d", s.Round%100, s.Tokens)}
	sb.Lines = append(sb.Lines, fmt.Sprintf("R%d %s", s.Round, s.Phase))
	pts := g.points()
	for _, p := range s.Players {
		sb.Lines = append(sb.Lines, fmt.Sprintf("%.8s %d", p.Name, pts[p.Seat]))
	}
	return sb
}

// SoldierColour is the colour the board counts the German soldier's pawn
// under.
const SoldierColour = "soldier"

// Desyncs are the fields where the camera's count of pawns disagrees with
// the state (a courier the state has elsewhere, a soldier not where he
// went), fields and colours the game does not know, and the counts the
// camera is unsure of: those are no desync but a question to the players
// (unsureNotice), listed with their reason. Never a silent overwrite: the
// referee settles it.
func (g *Game) Desyncs() []rules.Text {
	if g.snap == nil || len(g.snap.Pieces) == 0 {
		return nil
	}
	s := g.State()
	cat := s.Catalogue()
	want := map[[2]string]int{}
	for _, c := range s.Couriers {
		if c.OnMap() {
			want[[2]string{string(c.At), c.Colour}]++
		}
	}
	if s.Soldier != "" {
		want[[2]string{string(s.Soldier), SoldierColour}]++
	}
	seen := map[[2]string]int{}
	unsureAt := map[[2]string]bool{}
	var out []rules.Text
	for _, p := range g.snap.Pieces {
		k := [2]string{p.Node, p.Colour}
		n := mali.Node(p.Node)
		if _, _, onRoad := cat.RoadOf(n); !cat.IsObject(n) && !onRoad {
			out = append(out, rules.Textf("kamera liczy pole %q, którego mapa nie zna", "the camera counts a field %q the map does not know", p.Node))
			continue
		}
		if p.Colour != SoldierColour && !slices.Contains(mali.Colours, p.Colour) {
			out = append(out, rules.Textf("%s: kamera widzi kolor %q, żadnego pionka", "%s: the camera sees colour %q, no pawn's", cat.Name(n), p.Colour))
			continue
		}
		seen[k] += p.Count
		if p.Unsure() {
			// Not a desync: the players are asked to look (unsureNotice);
			// the referee sees why.
			unsureAt[k] = true
			out = append(out, rules.Textf("%s: niepewny odczyt kamery (%s, %.0f%%%s) — sprawdźcie pionki", "%s: the camera is unsure (%s, %.0f%%%s) — check the pawns",
				cat.Name(n), p.Colour, 100*p.Confidence, p.Because()))
		}
	}
	keys := make([][2]string, 0, len(want)+len(seen))
	for k := range want {
		keys = append(keys, k)
	}
	for k := range seen {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b [2]string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
	for _, k := range keys {
		if want[k] != seen[k] && !unsureAt[k] {
			out = append(out, rules.Textf("%s: kamera widzi %d (%s), stan gry mówi %d", "%s: the camera sees %d (%s), the game's state says %d",
				cat.Name(mali.Node(k[0])), seen[k], k[1], want[k]))
		}
	}
	return out
}

// unsureNotice asks the players to look at the fields the camera is unsure
// of, once for each new set of unsure readings.
func (g *Game) unsureNotice() []gamespec.Notice {
	cat := g.State().Catalogue()
	var fields, key []string
	for _, p := range g.snap.Pieces {
		if p.Unsure() {
			key = append(key, fmt.Sprintf("%s/%s/%d", p.Node, p.Colour, p.Count))
			if name := cat.Name(mali.Node(p.Node)); !slices.Contains(fields, name) {
				fields = append(fields, name)
			}
		}
	}
	k := strings.Join(key, ",")
	if k == g.unsure {
		return nil
	}
	g.unsure = k
	if k == "" {
		return nil
	}
	return []gamespec.Notice{{Type: wire.NoticeCheckBoard, Code: "camera_unsure",
		Text: rules.Textf("kamera nie jest pewna pionków na: %s — sprawdźcie i potwierdźcie", "the camera is unsure of the pawns on: %s — check and confirm", strings.Join(fields, ", "))}}
}
