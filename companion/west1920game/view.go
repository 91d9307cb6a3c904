package west1920game

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/west1920"
)

// View is what the screens get: the engine's view for the viewer (hands
// filtered), the map to draw and the overlays on top of the counters.
// The state is a field, not embedded: west1920.State marshals itself.
type View struct {
	Game west1920.State `json:"game"`
	// Map is the map data (terrain rows, cities, rivers, countries), as
	// JSON encoded once for the game.
	Map json.RawMessage `json:"map,omitempty"`
	// Cards are the event cards' titles by number, in both languages.
	Cards map[int]rules.Text `json:"card_titles,omitempty"`
	// Seats are the sides' seats.
	Seats   map[string]int `json:"seats"`
	Overlay *Overlay       `json:"overlay,omitempty"`
}

// Overlay is what the map shows on top of the counters and the odds
// before a roll. It depends on the state alone: computed once per state
// for all the viewers.
type Overlay struct {
	// Supply is each combat unit's supply (6.0): "supplied" or
	// "unsupplied" (a unit's strength is its own field).
	Supply map[string]string `json:"supply"`
	// Reach are the hexes each side's depots and base supply (3 hexes
	// between; Russian cavalry reaches 6: reach6).
	Reach map[string][]west1920.Hex `json:"reach"`
	// Depots are the depots and whether each is linked to its base (5.2).
	Depots []DepotView `json:"depots"`
	// HQs are the HQs on the map and their command range: the hexes in or
	// next to which a stack moves without the activation roll (7.2) and may
	// attack (9.2).
	HQs []HQRange `json:"hqs"`
	// Stacks are the stacks on the map with the activation roll their order
	// would need (7.2).
	Stacks []StackView `json:"stacks"`
	// Combat is the combat outcome table before the combat (or
	// coordination) roll: one branch, or two for a coordinated attack.
	Combat []CombatView `json:"combat,omitempty"`
	// RP is the resource roll's distribution (4.0), total RP → chance.
	RP []Chance `json:"rp,omitempty"`
	// Fail is the pending activation roll's chance of failure (7.2).
	Fail *float64 `json:"fail,omitempty"`
	// Attrition is each cavalry unit's chance to be weakened (7.4: 5–6).
	Attrition *float64 `json:"attrition,omitempty"`
	// Outcomes are the pending one-die roll's results and their chances
	// where no field above says them: card 8's desertions, 13.5's stages
	// in East Prussia.
	Outcomes []Outcome `json:"outcomes,omitempty"`
	// Legal are the action types the engine takes now.
	Legal []string `json:"legal,omitempty"`
}

// DepotView is a depot on the map.
type DepotView struct {
	Hex       west1920.Hex `json:"hex"`
	Side      string       `json:"side"`
	Connected bool         `json:"connected"`
}

// HQRange is an HQ and its command range.
type HQRange struct {
	ID    string         `json:"id"`
	Name  string         `json:"name"`
	Side  string         `json:"side"`
	Hex   west1920.Hex   `json:"hex"`
	Range []west1920.Hex `json:"range"`
}

// StackView is a stack and its activation: Gap hexes between it and the
// nearest HQ able to command it (−1: none), Fail the chance an order fails.
type StackView struct {
	Hex   west1920.Hex `json:"hex"`
	Side  string       `json:"side"`
	Units []string     `json:"units"`
	Gap   int          `json:"gap"`
	Fail  float64      `json:"fail"`
}

// CombatView is one combat's outcome distribution (9.3–9.5).
type CombatView struct {
	// Branch is "" for a plain combat, "alone" or "supported" for the two
	// branches of a coordinated attack, with P its chance (1 for plain).
	Branch       string    `json:"branch,omitempty"`
	P            float64   `json:"p"`
	Attack       int       `json:"attack"`
	Defence      int       `json:"defence"`
	AttackerWins float64   `json:"attacker_wins"`
	DefenderWins float64   `json:"defender_wins"`
	Tie          float64   `json:"tie"`
	Rows         []OddsRow `json:"rows"`
}

// OddsRow is one result of 9.5 for one side with the losses it implies.
type OddsRow struct {
	Rule           string  `json:"rule"`
	Winner         string  `json:"winner,omitempty"`
	P              float64 `json:"p"`
	AttackerLosses int     `json:"attacker_losses"`
	DefenderLosses int     `json:"defender_losses"`
}

// Chance is a value and its probability.
type Chance struct {
	N int     `json:"n"`
	P float64 `json:"p"`
}

// Outcome is one result of a roll and its chance.
type Outcome struct {
	Text rules.Text `json:"text"`
	P    float64    `json:"p"`
}

// dieOutcomes groups the six faces of one die by what f says each does.
func dieOutcomes(f func(face int) rules.Text) []Outcome {
	var out []Outcome
	for face := 1; face <= 6; face++ {
		t := f(face)
		if i := slices.IndexFunc(out, func(o Outcome) bool { return o.Text == t }); i >= 0 {
			out[i].P += 1.0 / 6
			continue
		}
		out = append(out, Outcome{Text: t, P: 1.0 / 6})
	}
	return out
}

// derived is what the game computes once per state.
type derived struct {
	overlay *Overlay
	mapData json.RawMessage
	cards   map[int]rules.Text
}

// overlays are the current state's, computed once per state, not once per
// viewer.
func (g *Game) overlays() *derived {
	if g.derived == nil || g.derivedAt != g.Version() {
		g.derived, g.derivedAt = computeDerived(g.State(), g.derived), g.Version()
	}
	return g.derived
}

func computeDerived(s west1920.State, prev *derived) *derived {
	cat := s.Catalogue()
	if cat == nil {
		return nil
	}
	d := &derived{}
	if prev != nil && prev.mapData != nil {
		d.mapData, d.cards = prev.mapData, prev.cards
	} else {
		d.mapData, _ = json.Marshal(cat.Data.Map)
		d.cards = map[int]rules.Text{}
		for id, c := range cat.Cards {
			d.cards[id] = c.Titles()
		}
	}
	d.overlay = computeOverlay(s)
	return d
}

func computeOverlay(s west1920.State) *Overlay {
	cat := s.Catalogue()
	b := cat.Board
	sup := s.ComputeSupply()
	o := &Overlay{Supply: map[string]string{}, Reach: map[string][]west1920.Hex{}}
	for id, ok := range s.UnitSupply(sup) {
		o.Supply[id] = "unsupplied"
		if ok {
			o.Supply[id] = "supplied"
		}
	}
	for i := range b.Size() {
		h := b.HexAt(i)
		if sup.Polish != nil && sup.Polish[i] <= west1920.SupplyRange {
			o.Reach[west1920.Polish] = append(o.Reach[west1920.Polish], h)
		}
		if sup.Russian != nil && sup.Russian[i] <= west1920.SupplyRange {
			o.Reach[west1920.Russian] = append(o.Reach[west1920.Russian], h)
		} else if sup.Russian != nil && sup.Russian[i] <= west1920.RussianCavalryRange {
			o.Reach["russian_cavalry"] = append(o.Reach["russian_cavalry"], h)
		}
	}
	for i, dp := range s.Depots {
		o.Depots = append(o.Depots, DepotView{Hex: dp.Hex, Side: dp.Side, Connected: i < len(sup.Connected) && sup.Connected[i]})
	}
	for _, q := range s.HQs {
		if q.Status != west1920.OnMap {
			continue
		}
		r := HQRange{ID: q.ID, Name: q.Name, Side: q.Side, Hex: q.Hex, Range: []west1920.Hex{q.Hex}}
		i := b.Index(q.Hex)
		for d := west1920.N; d <= west1920.NW; d++ {
			if n := b.Neighbour(i, d); n >= 0 {
				r.Range = append(r.Range, b.HexAt(n))
			}
		}
		o.HQs = append(o.HQs, r)
	}
	type key struct {
		side string
		hex  west1920.Hex
	}
	at := map[key]int{}
	for _, u := range s.Units {
		if u.Status != west1920.OnMap {
			continue
		}
		k := key{u.Side, u.Hex}
		i, ok := at[k]
		if !ok {
			gap := s.HQGap(u.Side, u.Hex)
			o.Stacks = append(o.Stacks, StackView{Hex: u.Hex, Side: u.Side, Gap: gap, Fail: west1920.ActivationFail(gap)})
			i = len(o.Stacks) - 1
			at[k] = i
		}
		o.Stacks[i].Units = append(o.Stacks[i].Units, u.ID)
	}
	if p := s.Pending; p != nil {
		if od := p.Odds; od != nil {
			if od.Fail != nil {
				f := *od.Fail
				o.Fail = &f
			}
			for k, v := range od.RP {
				var n int
				fmt.Sscan(k, &n)
				o.RP = append(o.RP, Chance{N: n, P: v})
			}
			sort.Slice(o.RP, func(i, j int) bool { return o.RP[i].N < o.RP[j].N })
			if od.Combat != nil {
				o.Combat = append(o.Combat, combatView("", 1, *od.Combat))
			}
			if c := od.Coordinated; c != nil {
				o.Combat = append(o.Combat, combatView("alone", c.Unsupported, c.WithoutSupport), combatView("supported", c.Supported, c.WithSupport))
			}
		}
		switch p.Kind {
		case "attrition":
			a := 2.0 / 6
			o.Attrition = &a
		case "desertion": // card 8: half the roll, rounded down, of the roller's units
			units := 0
			for _, u := range s.Units {
				if u.Side == p.Side && u.Status == west1920.OnMap {
					units++
				}
			}
			o.Outcomes = dieOutcomes(func(face int) rules.Text {
				n := min(face/2, units)
				return rules.Textf("dezercja %d jedn.", "%d unit(s) desert", n)
			})
		case "prussia": // 13.5: back in Smolensk in stage now + roll
			o.Outcomes = dieOutcomes(func(face int) rules.Text {
				if back := s.Stage + face; back <= west1920.Stages {
					return rules.Textf("powrót w etapie %d", "back in stage %d", back)
				}
				return rules.Textf("nie wraca przed końcem gry", "not back before the game ends")
			})
		}
	}
	o.Legal = west1920.LegalTypes(s)
	return o
}

// combatView groups the exact distribution by result and losses.
func combatView(branch string, p float64, c west1920.CombatOdds) CombatView {
	v := CombatView{Branch: branch, P: p, Attack: c.Attacker.Combat, Defence: c.Defender.Combat,
		AttackerWins: c.AttackerWins, DefenderWins: c.DefenderWins, Tie: c.Tie}
	for _, out := range c.Outcomes {
		row := OddsRow{Rule: out.Rule, Winner: string(out.Winner), AttackerLosses: out.AttackerLosses, DefenderLosses: out.DefenderLosses}
		found := false
		for i := range v.Rows {
			r := &v.Rows[i]
			if r.Rule == row.Rule && r.Winner == row.Winner && r.AttackerLosses == row.AttackerLosses && r.DefenderLosses == row.DefenderLosses {
				r.P += out.P
				found = true
			}
		}
		if !found {
			row.P = out.P
			v.Rows = append(v.Rows, row)
		}
	}
	return v
}

func show(s west1920.State, v gamespec.Viewer, d *derived) any {
	wv := west1920.Viewer{Referee: v.Role == gamespec.RoleReferee}
	if v.Role == gamespec.RolePlayer {
		wv.Seat = SideOfSeat(v.Seat)
	}
	out := View{Game: s.View(wv), Seats: map[string]int{west1920.Polish: PolishSeat, west1920.Russian: RussianSeat}}
	if d != nil {
		out.Map, out.Cards, out.Overlay = d.mapData, d.cards, d.overlay
	}
	return out
}

// LegalActions are the action types the engine takes now.
func (g *Game) LegalActions() []string {
	if d := g.overlays(); d != nil {
		return slices.Clone(d.overlay.Legal)
	}
	return nil
}

// Seats are the players' seats.
func (g *Game) Seats() []int { return []int{PolishSeat, RussianSeat} }

// ActiveSeat is the seat the game waits for, 0 when both or nobody.
func (g *Game) ActiveSeat() int {
	s := g.State()
	if s.Phase == west1920.PhaseOver {
		return 0
	}
	return SeatOf(waiting(s))
}

var phaseName = map[west1920.Phase]rules.Text{
	west1920.PhaseEvents:        {PL: "zdarzenia (3)", EN: "events (3)"},
	west1920.PhaseResources:     {PL: "punkty zasobów (4)", EN: "resource points (4)"},
	west1920.PhaseDepots:        {PL: "magazyny (5)", EN: "depots (5)"},
	west1920.PhaseChits:         {PL: "żetony aktywacji (7.1)", EN: "activation chits (7.1)"},
	west1920.PhaseOrders:        {PL: "rozkazy (7.1)", EN: "orders (7.1)"},
	west1920.PhaseHQ:            {PL: "ruch dowództw (8)", EN: "HQ movement (8)"},
	west1920.PhaseWithdrawal:    {PL: "wycofanie przed walką (9.1)", EN: "withdrawal (9.1)"},
	west1920.PhaseCombat:        {PL: "walka (9)", EN: "combat (9)"},
	west1920.PhaseReplacement:   {PL: "uzupełnienia (10)", EN: "replacement (10)"},
	west1920.PhaseStrategic:     {PL: "ruch strategiczny (11)", EN: "strategic movement (11)"},
	west1920.PhaseReinforcement: {PL: "posiłki (12)", EN: "reinforcements (12)"},
	west1920.PhaseOver:          {PL: "koniec gry", EN: "game over"},
}

// Headline is the stage, phase and whose decision, or the result.
func (g *Game) Headline() rules.Text {
	s := g.State()
	if s.Result != nil {
		return gamespec.ResultTextNamed(gamespec.Outcome(g), *s.Result, func(seat record.Seat) rules.Text { return sideName(seat.Side) })
	}
	ph := phaseName[s.Phase]
	t := rules.Text{PL: fmt.Sprintf("Etap %d/%d · %s", s.Stage, west1920.Stages, ph.PL),
		EN: fmt.Sprintf("Stage %d/%d · %s", s.Stage, west1920.Stages, ph.EN)}
	if w := waiting(s); w != "" {
		n := sideName(w)
		t.PL += " · decyduje " + n.PL
		t.EN += " · " + n.EN + " decides"
	}
	return t
}

// Summary is the game in a few lines for the watch and text displays.
func (g *Game) Summary(gamespec.Viewer) []rules.Text {
	s := g.State()
	out := []rules.Text{g.Headline()}
	for _, p := range s.Players {
		n := sideName(p.Side)
		out = append(out, rules.Text{PL: fmt.Sprintf("%s: PZ %d z %d, karty na ręce %d", n.PL, p.RP(), p.TotalRP, len(p.Hand)),
			EN: fmt.Sprintf("%s: RP %d of %d, cards in hand %d", n.EN, p.RP(), p.TotalRP, len(p.Hand))})
	}
	if p := s.Pending; p != nil {
		out = append(out, rules.Text{PL: "Czeka: " + p.Text.PL, EN: "Waiting: " + p.Text.EN})
	}
	return out
}

// Scoreboard: the stage on the digits, a line a side.
func (g *Game) Scoreboard() hardware.Scoreboard {
	s := g.State()
	sb := hardware.Scoreboard{Digits: fmt.Sprintf("E%2d", s.Stage)}
	sb.Lines = append(sb.Lines, fmt.Sprintf("E%d %s", s.Stage, s.Phase))
	for _, p := range s.Players {
		sb.Lines = append(sb.Lines, fmt.Sprintf("%.3s RP%d", p.Side, p.RP()))
	}
	return sb
}
