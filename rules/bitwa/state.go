package bitwa

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/sztab/sztab/rules"
)

// Phase is the part of the game in progress.
type Phase string

const (
	PhaseSetup Phase = "setup" // opening blockades and the initiative roll
	PhaseRound Phase = "round" // a round is being played; Stage says where
	PhaseOver  Phase = "over"  // scored
)

// Stages of a round ("PRZEBIEG ROZGRYWKI").
const (
	StageBonus     = "bonus"     // 1. Umieszczenie znacznika Dodatkowej Punktacji
	StageResources = "resources" // 2. Pojedynek o karty Zasobów (not in round 1)
	StageMilitary  = "military"  // 3. Działania militarne
	StageBattle    = "battle"    // 4. Bitwa
)

// Pending decision kinds: the answer is the action of the same name,
// except roll_* (Roll), opening_blockade and support (Blockade).
const (
	DecideRollInitiative  = "roll_initiative"
	DecideOpeningBlockade = "opening_blockade"
	DecideRollBonus       = "roll_bonus"
	DecideTurnCard        = "turn_card"
	DecideAssign          = "assign_initiative"
	DecideSupply          = "supply"
	DecideSupport         = "support"
	DecideMove            = "move"
	DecideRemove          = "remove"
	DecideConfirm         = "confirm"
)

// Options are the choices a table makes where the rulebook leaves room.
// Zero values take the defaults named next to each field; each choice is a
// row of AMBIGUITIES.md.
type Options struct {
	// StartUnits: "from_21" (default: each army has 21 units; one of them
	// goes on each 2nd line and the rest, 18, to the Reserve) or "reserve"
	// (all 21 in the Reserve, the 2nd lines start empty).
	StartUnits string `json:"start_units,omitempty"`
	// BonusHigh: bonus-front die faces 4–6, which the rulebook does not
	// print: "reroll" (default) or "none" (no marker this round).
	BonusHigh string `json:"bonus_high,omitempty"`
	// FundsTie: nobody wins the funds card (a tie, or nobody fought):
	// "base" (default: everyone draws up to the round-1 hand size, the
	// initiative stays) or "nothing" (no cards are drawn).
	FundsTie string `json:"funds_tie,omitempty"`
	// SweepVP: VP for winning the battles on all three fronts: 2 (default,
	// "przesuwa swój znacznik PZ o 2 pola") or 3 (1 for more battles plus 2).
	SweepVP int `json:"sweep_vp,omitempty"`
	// AdjacentMoves: units move only between neighbouring fronts (N–C,
	// C–S). Default false: "dowolne Oddziały", any front.
	AdjacentMoves bool `json:"adjacent_moves,omitempty"`
	// StrengthWhen: when the condition of a strength effect without "W
	// etapie Bitwy" is checked: "battle" (default) or "play".
	StrengthWhen string `json:"strength_when,omitempty"`
	// Removed: where an enemy unit removed by a card goes: "reserve"
	// (default, as the battle losses) or "out" (out of the game).
	Removed string `json:"removed,omitempty"`
	// AllyHands: allies see each other's hands in the views: "visible"
	// (default: they decide together) or "hidden".
	AllyHands string `json:"ally_hands,omitempty"`
	// DeckOutAll: an empty deck ends the game (after the round) with 3 and
	// 4 players too. Default false: the rulebook says "rozgrywka dla 2 osób".
	DeckOutAll bool `json:"deck_out_all,omitempty"`
}

func (o *Options) defaults() {
	if o.StartUnits == "" {
		o.StartUnits = "from_21"
	}
	if o.BonusHigh == "" {
		o.BonusHigh = "reroll"
	}
	if o.FundsTie == "" {
		o.FundsTie = "base"
	}
	if o.SweepVP == 0 {
		o.SweepVP = 2
	}
	if o.StrengthWhen == "" {
		o.StrengthWhen = "battle"
	}
	if o.Removed == "" {
		o.Removed = "reserve"
	}
	if o.AllyHands == "" {
		o.AllyHands = "visible"
	}
}

func (o Options) check() error {
	bad := func(field, got, want string) error {
		return rules.Reject("bad_option", "opcja %s: %q, dozwolone: %s", "option %s: %q, allowed: %s", field, got, want)
	}
	switch {
	case o.StartUnits != "from_21" && o.StartUnits != "reserve":
		return bad("start_units", o.StartUnits, "from_21, reserve")
	case o.BonusHigh != "reroll" && o.BonusHigh != "none":
		return bad("bonus_high", o.BonusHigh, "reroll, none")
	case o.FundsTie != "base" && o.FundsTie != "nothing":
		return bad("funds_tie", o.FundsTie, "base, nothing")
	case o.SweepVP != 2 && o.SweepVP != 3:
		return rules.Reject("bad_option", "opcja sweep_vp: %d, dozwolone: 2, 3", "option sweep_vp: %d, allowed: 2, 3", o.SweepVP)
	case o.StrengthWhen != "battle" && o.StrengthWhen != "play":
		return bad("strength_when", o.StrengthWhen, "battle, play")
	case o.Removed != "reserve" && o.Removed != "out":
		return bad("removed", o.Removed, "reserve, out")
	case o.AllyHands != "visible" && o.AllyHands != "hidden":
		return bad("ally_hands", o.AllyHands, "visible, hidden")
	}
	return nil
}

// Player is a seat at the table.
type Player struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Army string `json:"army"`
	// Hand is hidden from the other players (views).
	Hand      []string `json:"hand"`
	HandCount int      `json:"hand_count"`
	// Token is the initiative token (3–4 players), 1 acts first.
	Token int `json:"token,omitempty"`
	// Limit is the hand limit of this round (from the funds card).
	Limit  int  `json:"limit"`
	Passed bool `json:"passed,omitempty"`
}

// Line counts an army's units on one front.
type Line struct {
	First  int `json:"first"`  // 1LF: 2 strength each, no limit
	Second int `json:"second"` // 2LF: 1 strength each, limited
}

// Commander is a commander card on a front's commander field.
type Commander struct {
	Card string `json:"card"`
	// Choice is the effect chosen (the effect marker), -1 when none.
	Choice int `json:"choice"`
	// Round is the round it was played, swapped in or activated: its
	// strength counts only then, and it may not be used twice in a round.
	Round int `json:"round"`
	// StartedBattle: it started a battle; discarded at the end of the round.
	StartedBattle bool `json:"started_battle,omitempty"`
	// PlayStrength is the strength fixed when played (option
	// strength_when "play").
	PlayStrength int `json:"play_strength,omitempty"`
}

// Army is one army's side of the board.
type Army struct {
	ID      string   `json:"id"`
	Deck    []string `json:"deck"`
	DeckLen int      `json:"deck_count"`
	Discard []string `json:"discard"`
	Reserve int      `json:"reserve"`
	// Removed counts units out of the game (option removed "out").
	Removed    int           `json:"removed,omitempty"`
	Fronts     [3]Line       `json:"fronts"`
	Commanders [3]*Commander `json:"commanders"`
	// Orders is the order card on each front's order field this round.
	Orders [3]string `json:"orders"`
	// OrderStrength is strength fixed when an order was played (option
	// strength_when "play").
	OrderStrength [3]int `json:"order_strength"`
	// Fights are the cards discarded at each resource card: this round's in
	// stage 3, and from the round's end until the next round's stage 2 has
	// been resolved the cards of the fights being resolved.
	Fights map[string][]string `json:"fights"`
	VP     int                 `json:"vp"`
}

// Marker is a blockade on the board: the marker, the army it blocks, and
// where it lies. Card blocks (Marker = the card's id) last to the round's end.
type Marker struct {
	Marker string `json:"marker"`
	Army   string `json:"army"`
	Place  string `json:"place"`
	Front  string `json:"front"`
}

// Work is a piece of work the engine still has to do; a step that needs a
// player's answer sets Pending and waits at the head of the queue.
type Work struct {
	Op        string  `json:"op"`
	Army      string  `json:"army,omitempty"`
	Seat      int     `json:"seat,omitempty"`
	Card      string  `json:"card,omitempty"`
	Front     string  `json:"front,omitempty"`
	Effect    *Effect `json:"effect,omitempty"`
	Immediate bool    `json:"immediate,omitempty"`
	Commander bool    `json:"commander,omitempty"`
	N         int     `json:"n,omitempty"`
}

// Pending is a decision the game waits for.
type Pending struct {
	Kind string     `json:"kind"`
	Text rules.Text `json:"text"`
	// Seat decides; Army, when set, lets any player of that army answer
	// (allies decide together; the rulebook's token rule names Seat).
	Seat     int    `json:"seat"`
	Army     string `json:"army,omitempty"`
	Card     string `json:"card,omitempty"`
	Front    string `json:"front,omitempty"`
	N        int    `json:"n,omitempty"`
	Line     int    `json:"line,omitempty"`
	FromLine int    `json:"from_line,omitempty"`
	ToLine   int    `json:"to_line,omitempty"`
	// MoveFront restricts both ends of the moves ("" = any front).
	MoveFront string `json:"move_front,omitempty"`
	Resource  string `json:"resource,omitempty"`
	Marker    string `json:"marker,omitempty"`
	// Step is what a confirm decision does on yes.
	Step *Work `json:"step,omitempty"`
	// Dice are the initiative dice entered so far (one a player, in the
	// players' order), when they come one at a time.
	Dice []int `json:"dice,omitempty"`
}

// Selection is a card the active player has picked (Select) and not yet
// played: Front and Choice as chosen so far ("" / 0 until then).
type Selection struct {
	Seat   int    `json:"seat"`
	Card   string `json:"card"`
	Front  string `json:"front,omitempty"`
	Choice int    `json:"choice"`
}

// Result is the end of the game.
type Result struct {
	// Winner is the winning army, "" for a draw ("Bitwa Warszawska zostaje
	// nierozstrzygnięta").
	Winner string     `json:"winner"`
	Reason string     `json:"reason"`
	Text   rules.Text `json:"text"`
	VP     [2]int     `json:"vp"`
	Second [2]int     `json:"second_lines"`
}

// State is the whole game. Apply never changes a State it is given.
type State struct {
	Phase   Phase    `json:"phase"`
	Stage   string   `json:"stage,omitempty"`
	Round   int      `json:"round"`
	Options Options  `json:"options"`
	Players []Player `json:"players"`
	// Armies: [0] is Wojsko Polskie, [1] Armia Czerwona.
	Armies [2]Army `json:"armies"`
	// Initiative is the seat with the initiative (2 players).
	Initiative int `json:"initiative"`
	// Active is the seat whose action it is in the military stage.
	Active int `json:"active"`
	// Again: the active player takes another action (a card said so).
	Again   bool     `json:"again,omitempty"`
	Pending *Pending `json:"pending"`
	// Selected is the card the active player is about to play (Select).
	Selected  *Selection `json:"selected,omitempty"`
	Queue     []Work     `json:"queue"`
	Blockades []Marker   `json:"blockades"`
	// Bonus is the bonus front this round ("" none); LastBonus where it
	// lay the last time it was placed.
	Bonus     string `json:"bonus"`
	LastBonus string `json:"last_bonus"`
	// Advantage: the army that won each front this round ("" none).
	Advantage [3]string `json:"advantage"`
	Fought    [3]bool   `json:"fought"`
	// Won: the resource cards won last round, to resolve this round.
	Won map[string]string `json:"won"`
	// DeckOut: an army deck ran out (the game ends with this round, 2 players).
	DeckOut bool    `json:"deck_out,omitempty"`
	Result  *Result `json:"result,omitempty"`
	// Seed shuffled the decks not given at the start: the referee's views
	// only.
	Seed uint64 `json:"seed,omitempty"`
	// Comp and Cards are the game data the state was started with.
	Comp  Components      `json:"components"`
	Cards map[string]Card `json:"cards"`

	evs []Event // the events of the action being applied

	// waiver is the referee's leave for the action being applied
	// (ApplyAllowing); nil in every state an engine call returns.
	waiver *rules.Waiver
}

// clone copies everything an action may change; the card table and the
// components are never changed after StartGame and stay shared.
func (s State) clone() State {
	c := s
	c.evs = nil
	c.Players = slices.Clone(s.Players)
	for i := range c.Players {
		c.Players[i].Hand = slices.Clone(s.Players[i].Hand)
	}
	for i := range c.Armies {
		a := &c.Armies[i]
		a.Deck = slices.Clone(a.Deck)
		a.Discard = slices.Clone(a.Discard)
		if a.Fights != nil {
			f := make(map[string][]string, len(a.Fights))
			for k, v := range a.Fights {
				f[k] = slices.Clone(v)
			}
			a.Fights = f
		}
		for fi, cm := range a.Commanders {
			if cm != nil {
				x := *cm
				a.Commanders[fi] = &x
			}
		}
	}
	if s.Pending != nil {
		p := *s.Pending
		p.Dice = slices.Clone(p.Dice)
		c.Pending = &p
	}
	if s.Selected != nil {
		x := *s.Selected
		c.Selected = &x
	}
	c.Queue = slices.Clone(s.Queue)
	c.Blockades = slices.Clone(s.Blockades)
	if s.Won != nil {
		c.Won = maps.Clone(s.Won)
	}
	return c
}

// Player returns the player in seat, or nil.
func (s *State) Player(seat int) *Player {
	for i := range s.Players {
		if s.Players[i].Seat == seat {
			return &s.Players[i]
		}
	}
	return nil
}

// Army returns an army's side of the board.
func (s *State) Army(id string) *Army {
	if id == ACz {
		return &s.Armies[1]
	}
	return &s.Armies[0]
}

// Seats returns the seats playing army, in the players' order.
func (s *State) Seats(army string) []int {
	var out []int
	for _, p := range s.Players {
		if p.Army == army {
			out = append(out, p.Seat)
		}
	}
	return out
}

func frontIndex(f string) int { return slices.Index(Fronts, f) }

// Limit is army's 2nd-line limit on front f: the commander's, or the
// standard one.
func (s *State) Limit(army, f string) int {
	if c := s.Army(army).Commanders[frontIndex(f)]; c != nil {
		return s.Cards[c.Card].Limit
	}
	return s.Comp.SecondLineLimit
}

// OnBoard counts army's units on the fronts.
func (s *State) OnBoard(army string) int {
	n := 0
	for _, l := range s.Army(army).Fronts {
		n += l.First + l.Second
	}
	return n
}

// SecondLines counts army's units on every 2nd line (the tie-break).
func (s *State) SecondLines(army string) int {
	n := 0
	for _, l := range s.Army(army).Fronts {
		n += l.Second
	}
	return n
}

func (s *State) tally() {
	for i := range s.Players {
		s.Players[i].HandCount = len(s.Players[i].Hand)
	}
	for i := range s.Armies {
		s.Armies[i].DeckLen = len(s.Armies[i].Deck)
	}
}

func (s *State) name(seat int) string {
	if p := s.Player(seat); p != nil && p.Name != "" {
		return p.Name
	}
	return "#" + itoa(seat)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
