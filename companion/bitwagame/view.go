package bitwagame

import (
	"fmt"
	"github.com/sztab/sztab/companion/wire"
	"slices"
	"strconv"
	"strings"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/bitwa"
)

// TableView is what the screens get: the engine's view for the viewer
// (hands filtered, decks hidden) and what the board shows anyway: each
// army's strength and 2nd-line limit per front and, for whoever may answer
// the decision the game waits for, its answers as commands.
type TableView struct {
	bitwa.State
	// Strength and Limit are per army (WP, ACz) and front (N, C, S).
	Strength [2][3]int `json:"strength"`
	Limit    [2][3]int `json:"limit"`
	// Answers are the pending decision's answers as commands, for the
	// decider's page (any player of the deciding army) and the referee's.
	Answers []Answer `json:"answers,omitempty"`
	// The catalogue's keys (Catalogue) shadow the state's: a view names
	// cards and components by id and never carries them.
	NoCards *struct{} `json:"cards,omitempty"`
	NoComp  *struct{} `json:"components,omitempty"`
}

// Catalogue is what never changes during a game, sent once (the
// table's catalogue topic) and left out of every view: the card table,
// the components, the names of the board's places a blockade lies on and
// of the engine's actions.
// All of it is printed on the cards and the board: no viewer may not see
// it.
func (g *Game) Catalogue() any {
	s := g.State()
	return catalogue{Cards: s.Cards, Components: s.Comp, Places: Places, ActionNames: ActionNames}
}

type catalogue struct {
	Cards       map[string]bitwa.Card `json:"cards"`
	Components  bitwa.Components      `json:"components"`
	Places      map[string]rules.Text `json:"places"`
	ActionNames map[string]rules.Text `json:"action_names"`
}

// Answer is one answer to the pending decision: a command, its args and
// what the button says.
type Answer struct {
	Command string     `json:"command"`
	Args    []string   `json:"args"`
	Label   rules.Text `json:"label"`
}

// Places are the board's places by the engine's name, in words.
var Places = bitwa.PlaceNames

// viewer is the engine's viewer of a table's viewer.
func viewer(v gamespec.Viewer) bitwa.Viewer {
	bv := bitwa.Viewer{Referee: v.Role == gamespec.RoleReferee}
	if v.Role == gamespec.RolePlayer {
		bv.Seat = v.Seat
	}
	return bv
}

func view(s bitwa.State, v gamespec.Viewer) any {
	var out TableView
	bv := viewer(v)
	out.State = s.View(bv)
	if s.Phase == "" {
		return out
	}
	for i, ar := range bitwa.Armies {
		for fi, f := range bitwa.Fronts {
			out.Strength[i][fi] = s.Strength(ar, f)
			out.Limit[i][fi] = s.Limit(ar, f)
		}
	}
	if pd := s.Pending; pd != nil && s.Phase != bitwa.PhaseOver {
		p := s.Player(bv.Seat)
		if bv.Referee || (p != nil && (p.Seat == pd.Seat || (pd.Army != "" && p.Army == pd.Army))) {
			for _, a := range bitwa.LegalActions(s) {
				if ans, ok := asCommand(a); ok {
					ans.Label = answerLabel(s, a)
					out.Answers = append(out.Answers, ans)
				}
			}
		}
	}
	return out
}

func move(m bitwa.UnitMove) string {
	if m.N == 1 {
		return m.From + ">" + m.To
	}
	return fmt.Sprintf("%s>%s:%d", m.From, m.To, m.N)
}

// frontName is a front's name from the game data.
func frontName(s bitwa.State, f string) rules.Text {
	for _, fc := range s.Comp.Fronts {
		if fc.ID == f {
			return fc.Name
		}
	}
	return rules.Text{PL: f, EN: f}
}

// zoneName is a position written front and line ("N1") in words.
func zoneName(s bitwa.State, z string) rules.Text {
	if len(z) != 2 {
		return rules.Text{PL: z, EN: z}
	}
	f := frontName(s, z[:1])
	return rules.Text{PL: f.PL + ", " + z[1:] + ". linia", EN: f.EN + ", line " + z[1:]}
}

// movesText is unit moves in words.
func movesText(s bitwa.State, ms []bitwa.UnitMove) rules.Text {
	var pl, en []string
	for _, m := range ms {
		from, to := zoneName(s, m.From), zoneName(s, m.To)
		pl = append(pl, fmt.Sprintf("%d Oddz. z %s na %s", max(m.N, 1), from.PL, to.PL))
		en = append(en, fmt.Sprintf("%d unit(s) from %s to %s", max(m.N, 1), from.EN, to.EN))
	}
	return rules.Text{PL: strings.Join(pl, "; "), EN: strings.Join(en, "; ")}
}

// answerLabel is what an answer's button says: the action as a verb.
func answerLabel(s bitwa.State, a bitwa.Action) rules.Text {
	switch a := a.(type) {
	case bitwa.Roll:
		var d []string
		for _, x := range a.Dice {
			d = append(d, strconv.Itoa(x))
		}
		return rules.Textf("Wynik rzutu: %s", "Roll result: %s", strings.Join(d, ", "))
	case bitwa.Blockade:
		if a.Skip {
			return rules.Textf("Bez blokady", "No blockade")
		}
		pl := Places[a.Place]
		if pl.PL == "" {
			pl = rules.Text{PL: a.Place, EN: a.Place}
		}
		f := frontName(s, a.Front)
		if a.Place == "line2" || a.Front == "" {
			return rules.Textf("Zablokuj: %s", "Block: %s", pl.PL)
		}
		return rules.Text{PL: "Zablokuj: " + pl.PL + ", " + f.PL, EN: "Block: " + pl.EN + ", " + f.EN}
	case bitwa.TurnCard:
		return rules.Textf("Obróć kartę Zasobów stroną %d do siebie", "Turn the resource card's side %d to your army", a.Face+1)
	case bitwa.AssignInitiative:
		var pl, en []string
		for i, seat := range a.Order {
			n := seatName(s, seat)
			pl = append(pl, fmt.Sprintf("%d: %s", i+1, n))
			en = append(en, fmt.Sprintf("%d: %s", i+1, n))
		}
		return rules.Text{PL: "Znaczniki Inicjatywy — " + strings.Join(pl, ", "), EN: "Initiative tokens — " + strings.Join(en, ", ")}
	case bitwa.Supply:
		var pl, en []string
		for _, f := range a.Add {
			n := frontName(s, f)
			pl = append(pl, "+1 Oddz. na 2. linię: "+n.PL)
			en = append(en, "+1 unit to the 2nd line: "+n.EN)
		}
		if len(a.Moves) > 0 {
			m := movesText(s, a.Moves)
			pl, en = append(pl, m.PL), append(en, m.EN)
		}
		if len(pl) == 0 {
			return rules.Textf("Zaopatrzenie: nic", "Supply: nothing")
		}
		return rules.Text{PL: "Zaopatrzenie: " + strings.Join(pl, "; "), EN: "Supply: " + strings.Join(en, "; ")}
	case bitwa.Move:
		if len(a.Moves) == 0 {
			return rules.Textf("Bez ruchu", "No move")
		}
		m := movesText(s, a.Moves)
		return rules.Text{PL: "Porusz: " + m.PL, EN: "Move: " + m.EN}
	case bitwa.Remove:
		return rules.Textf("Usuń Oddział przeciwnika z %d. linii", "Remove an enemy unit from line %d", a.Line)
	case bitwa.Confirm:
		if a.Yes {
			return rules.Textf("Tak", "Yes")
		}
		return rules.Textf("Nie", "No")
	}
	return rules.Text{PL: a.Type(), EN: a.Type()}
}

// seatName is a player's name by seat.
func seatName(s bitwa.State, seat int) string {
	if p := s.Player(seat); p != nil {
		return p.Name
	}
	return strconv.Itoa(seat)
}

// asCommand is the command that makes a decision's answer (the binder's
// vocabulary), for the pages' buttons.
func asCommand(a bitwa.Action) (Answer, bool) {
	switch a := a.(type) {
	case bitwa.Roll:
		var d []string
		for _, x := range a.Dice {
			d = append(d, strconv.Itoa(x))
		}
		return Answer{Command: "roll", Args: d}, true
	case bitwa.Blockade:
		if a.Skip {
			return Answer{Command: "cancel", Args: []string{}}, true
		}
		return Answer{Command: "blockade", Args: []string{a.Place, a.Front}}, true
	case bitwa.TurnCard:
		return Answer{Command: "turn", Args: []string{strconv.Itoa(a.Face + 1)}}, true
	case bitwa.AssignInitiative:
		var o []string
		for _, x := range a.Order {
			o = append(o, strconv.Itoa(x))
		}
		return Answer{Command: "assign", Args: o}, true
	case bitwa.Supply:
		args := slices.Clone(a.Add)
		for _, m := range a.Moves {
			args = append(args, move(m))
		}
		if args == nil {
			args = []string{}
		}
		return Answer{Command: "supply", Args: args}, true
	case bitwa.Move:
		args := []string{}
		for _, m := range a.Moves {
			args = append(args, move(m))
		}
		return Answer{Command: "move", Args: args}, true
	case bitwa.Remove:
		return Answer{Command: "remove", Args: []string{strconv.Itoa(a.Line)}}, true
	case bitwa.Confirm:
		if a.Yes {
			return Answer{Command: "confirm", Args: []string{}}, true
		}
		return Answer{Command: "cancel", Args: []string{}}, true
	}
	return Answer{}, false
}

// LegalActions are the action types the engine takes now.
func (g *Game) LegalActions() []string {
	var out []string
	for _, a := range bitwa.LegalActions(g.State()) {
		if !slices.Contains(out, a.Type()) {
			out = append(out, a.Type())
		}
	}
	return out
}

// Seats are the players' seats.
func (g *Game) Seats() []int {
	var out []int
	for _, p := range g.State().Players {
		out = append(out, p.Seat)
	}
	return out
}

// ActiveSeat is the seat the game waits for, 0 when it waits for the dice
// (anyone reads them) or is over.
func (g *Game) ActiveSeat() int {
	s := g.State()
	if s.Phase == bitwa.PhaseOver || isRoll(s.Pending) {
		return 0
	}
	return waiting(s)
}

var stageName = map[string]rules.Text{
	bitwa.StageBonus:     {PL: "Dodatkowa Punktacja", EN: "bonus front"},
	bitwa.StageResources: {PL: "Pojedynek o Zasoby", EN: "resources"},
	bitwa.StageMilitary:  {PL: "Działania militarne", EN: "military actions"},
	bitwa.StageBattle:    {PL: "Bitwa", EN: "battle"},
}

// Headline: the round, the stage, the VP and whom the game waits for, or
// the result.
func (g *Game) Headline() rules.Text {
	s := g.State()
	if s.Result != nil {
		return gamespec.ResultText(gamespec.Outcome(g), s.Result.Text)
	}
	if s.Phase == bitwa.PhaseSetup || s.Round == 0 {
		return rules.Textf("przygotowanie gry · czeka: %s", "setup · waiting for: %s", name(s, waiting(s)))
	}
	st := stageName[s.Stage]
	wp, acz, who := s.Army(bitwa.WP).VP, s.Army(bitwa.ACz).VP, name(s, waiting(s))
	return rules.Text{
		PL: fmt.Sprintf("runda %d/%d · %s · PZ WP %d : ACz %d · czeka: %s", s.Round, s.Comp.Rounds, st.PL, wp, acz, who),
		EN: fmt.Sprintf("round %d/%d · %s · VP WP %d : ACz %d · waiting for: %s", s.Round, s.Comp.Rounds, st.EN, wp, acz, who),
	}
}

// Summary is the game in a few lines for the watch and text displays: a
// picked card only for whoever sees the picker's hand.
func (g *Game) Summary(v gamespec.Viewer) []rules.Text {
	s := g.State()
	out := []rules.Text{g.Headline()}
	if s.Result != nil || s.Phase == "" {
		return out
	}
	for _, ar := range bitwa.Armies {
		a := s.Army(ar)
		var fr []string
		for fi, f := range bitwa.Fronts {
			fr = append(fr, fmt.Sprintf("%s %d/%d", f, a.Fronts[fi].First, a.Fronts[fi].Second))
		}
		out = append(out, rules.Textf("%s: PZ %d, %s, Rezerwa %d, talia %d", "%s: VP %d, %s, reserve %d, deck %d",
			strings.ToUpper(ar), a.VP, strings.Join(fr, " "), a.Reserve, a.DeckLen))
	}
	if s.Bonus != "" {
		out = append(out, rules.Textf("Dodatkowa Punktacja: %s", "bonus front: %s", frontName(s, s.Bonus)))
	}
	if pd := s.Pending; pd != nil {
		out = append(out, rules.Text{PL: "Czeka: " + pd.Text.PL, EN: "Waiting: " + pd.Text.EN})
	}
	if sel := s.Selected; sel != nil && s.SeesHand(viewer(v), sel.Seat) {
		out = append(out, rules.Textf("Wybrana karta: %s %s", "Picked card: %s %s", s.Cards[sel.Card].Names(), frontName(s, sel.Front)))
	}
	return out
}

// Scoreboard: the VP (WP-ACz) on the 4-digit display; the round and each
// army's line on a text display.
func (g *Game) Scoreboard() hardware.Scoreboard {
	s := g.State()
	wp, acz := s.Army(bitwa.WP), s.Army(bitwa.ACz)
	sb := hardware.Scoreboard{Digits: fmt.Sprintf("%2d%2d", wp.VP%100, acz.VP%100)}
	sb.Lines = append(sb.Lines, fmt.Sprintf("R%d %s", s.Round, s.Stage))
	for _, ar := range bitwa.Armies {
		a := s.Army(ar)
		sb.Lines = append(sb.Lines, fmt.Sprintf("%s PZ%d R%d T%d", strings.ToUpper(ar), a.VP, a.Reserve, a.DeckLen))
	}
	return sb
}

// Zones are the board zones the camera counts units in: each front's two
// lines (N1 … S2) and the reserve.
var Zones = []string{"N1", "N2", "C1", "C2", "S1", "S2", "reserve"}

// count is army's units in a zone by the state.
func count(s bitwa.State, army, zone string) int {
	a := s.Army(army)
	if zone == "reserve" {
		return a.Reserve
	}
	fi := slices.Index(bitwa.Fronts, zone[:1])
	if zone[1] == '1' {
		return a.Fronts[fi].First
	}
	return a.Fronts[fi].Second
}

// Desyncs are the zones where the camera's count of an army's units
// disagrees with the state, the zones it is unsure of and colours or zones
// it names that the game does not know. Only the zones the snapshot
// reports are compared (the calibration may leave the reserve out), and
// only the counts it is sure of: an unsure count is no desync but a
// question to the players (unsureNotice), listed here with its reason.
// Never a silent overwrite: the referee settles it.
func (g *Game) Desyncs() []rules.Text {
	if g.snap == nil || len(g.snap.Pieces) == 0 {
		return nil
	}
	s := g.State()
	if s.Phase == "" {
		return nil
	}
	army := map[string]string{}
	for ar, col := range g.colours {
		army[col] = ar
	}
	seen := map[[2]string]int{}
	unsureAt := map[[2]string]bool{}
	covered := map[string]bool{}
	var out []rules.Text
	for _, p := range g.snap.Pieces {
		switch {
		case !slices.Contains(Zones, p.Node):
			out = append(out, rules.Textf("kamera liczy pole %q, którego gra nie zna (%s)", "the camera counts a zone %q the game does not know (%s)", p.Node, strings.Join(Zones, ", ")))
			continue
		case army[p.Colour] == "":
			out = append(out, rules.Textf("%s: kamera widzi kolor %q, żadnej armii", "%s: the camera sees colour %q, no army's", p.Node, p.Colour))
			continue
		}
		covered[p.Node] = true
		seen[[2]string{p.Node, army[p.Colour]}] += p.Count
		if p.Unsure() {
			// Not a desync: the players are asked to look (see
			// unsureNotice); the referee sees why.
			unsureAt[[2]string{p.Node, army[p.Colour]}] = true
			out = append(out, rules.Textf("%s: niepewny odczyt kamery (%s, %.0f%%%s) — sprawdźcie Oddziały", "%s: the camera is unsure (%s, %.0f%%%s) — check the units",
				p.Node, p.Colour, 100*p.Confidence, p.Because()))
		}
	}
	for _, z := range Zones {
		if !covered[z] {
			continue
		}
		for _, ar := range bitwa.Armies {
			if unsureAt[[2]string{z, ar}] {
				continue
			}
			want, got := count(s, ar, z), seen[[2]string{z, ar}]
			if want != got {
				out = append(out, rules.Textf("%s: kamera widzi %d Oddz. %s, stan gry mówi %d", "%s: the camera sees %d %s unit(s), the game's state says %d",
					z, got, strings.ToUpper(ar), want))
			}
		}
	}
	return out
}

// unsureNotice asks the players to look at the zones the camera is unsure
// of, once for each new set of unsure readings.
func (g *Game) unsureNotice() []gamespec.Notice {
	var zones, key []string
	for _, p := range g.snap.Pieces {
		if p.Unsure() {
			key = append(key, fmt.Sprintf("%s/%s/%d", p.Node, p.Colour, p.Count))
			if !slices.Contains(zones, p.Node) {
				zones = append(zones, p.Node)
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
		Text: rules.Textf("kamera nie jest pewna Oddziałów na: %s — sprawdźcie i potwierdźcie", "the camera is unsure of the units on: %s — check and confirm", strings.Join(zones, ", "))}}
}
