package mali

import (
	"slices"

	"github.com/sztab/sztab/rules"
)

// Variants.
const (
	Basic    = "basic"    // wariant podstawowy: the German soldier
	Extended = "extended" // wariant rozszerzony: card actions, districts falling, the Victory card
)

// Player colours (the scouts' pawns).
const (
	ColourRed    = "red"    // czerwony
	ColourGreen  = "green"  // zielony
	ColourOrange = "orange" // pomarańczowy
	ColourPurple = "purple" // fioletowy
)

// Colours lists the four colours.
var Colours = []string{ColourRed, ColourGreen, ColourOrange, ColourPurple}

// Phases of a round, and the end.
const (
	PhaseGoals   = "goals"   // extended setup: deal and keep secret goals
	PhaseOrders  = "orders"  // 1. faza rozkazów
	PhaseCards   = "cards"   // 2. the movement cards are chosen face down
	PhaseMove    = "move"    // 2. faza ruchu harcerzy: players move in card order
	PhaseSoldier = "soldier" // 3. faza ruchu niemieckiego żołnierza (basic)
	PhaseTime    = "time"    // 4. faza upływu czasu: missed orders being settled
	PhaseOver    = "over"    // the game has ended (State.Result)
)

// Player is one seat at the table, in clockwise order in State.Players.
type Player struct {
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Colour string `json:"colour"`
	// Cards are the movement cards (1–5) still in hand.
	Cards []int `json:"cards"`
	// Chosen is the card laid face down this round (hidden from others
	// until all have chosen); Played the card revealed this round.
	Chosen int `json:"chosen,omitempty"`
	Played int `json:"played,omitempty"`
	// Delivered are the order cards this player's couriers delivered.
	Delivered []string `json:"delivered,omitempty"`
	// Dealt is the hand of six secret goals; Goals the three kept. Hidden
	// from the other players.
	Dealt []string `json:"dealt,omitempty"`
	Goals []string `json:"goals,omitempty"`
}

// Courier places: where a courier is when it is not on a map field.
const (
	InPrison = "prison"  // pole Więzienie: arrested this round
	Escaped  = "escaped" // back in the owner's hand, placed just before the owner's next move
)

// Courier is one scout pawn. ID is "<colour>-<n>", n 1–3.
type Courier struct {
	ID     string `json:"id"`
	Seat   int    `json:"seat"`
	Colour string `json:"colour"`
	// At is the field the courier stands on; empty while Off is set.
	At Node `json:"at,omitempty"`
	// Off is InPrison or Escaped when the courier is off the map.
	Off string `json:"off,omitempty"`
	// Carrying is the order card the courier took (its token on the card).
	Carrying string `json:"carrying,omitempty"`
	// Left is true once the courier has stood anywhere but its start
	// object (for the return-home bonus option).
	Left bool `json:"left,omitempty"`
}

// OnMap says whether the courier stands on a field.
func (c Courier) OnMap() bool { return c.Off == "" && c.At != "" }

// Block is a small German token on a road (a missed order's effect).
// Road is empty when every road from the target was already blocked: the
// token is still counted.
type Block struct {
	Road     string `json:"road,omitempty"`
	Order    string `json:"order"`
	District string `json:"district"`
}

// DistrictState counts the missed orders of a district (extended).
type DistrictState struct {
	ID     string `json:"id"`
	Missed int    `json:"missed"`
	Fallen bool   `json:"fallen,omitempty"`
}

// Deck is the order deck as the engine knows it: counts, not the order of
// the cards (drawn cards arrive in DrawOrders). In the extended variant the
// Victory card lies under Above cards and over Below ones.
type Deck struct {
	// Left is the number of cards still in the deck, the Victory card
	// included.
	Left int `json:"left"`
	// Above counts the order cards over the Victory card while it is in the
	// deck (extended); Victory says it still is.
	Above   int  `json:"above,omitempty"`
	Victory bool `json:"victory,omitempty"`
	// Peeked are the cards on top of the deck a player saw with "Plotki z
	// ulicy", top first; PeekedBy the seat. Hidden from the others.
	Peeked   []string `json:"peeked,omitempty"`
	PeekedBy int      `json:"peeked_by,omitempty"`
	// Seen lists every card taken from the deck so far (sorted), so a card
	// is never drawn twice.
	Seen []string `json:"seen,omitempty"`
}

// Turn is the move phase's bookkeeping: the order of play this round and
// what the active player has done.
type Turn struct {
	// Order are the seats in the order they move this round.
	Order []int `json:"order"`
	// Index is the position in Order of the seat moving now.
	Index int `json:"index"`
	Card  int `json:"card"`
	// Points used of the card's movement points; Jumped when the move was
	// a jump; MoveDone when the move part is over (a jump, or the action
	// taken after moving — extended); ActionDone when the card's action is
	// used.
	Points     int  `json:"points"`
	Jumped     bool `json:"jumped,omitempty"`
	MoveDone   bool `json:"move_done,omitempty"`
	ActionDone bool `json:"action_done,omitempty"`
}

// Pending decision kinds: what the engine waits for.
const (
	WaitDealGoals     = "deal_goals"     // DealGoals (extended setup)
	WaitKeepGoals     = "keep_goals"     // KeepGoals from each of Seats
	WaitDrawOrders    = "draw_orders"    // DrawOrders with Count cards
	WaitPlayCard      = "play_card"      // PlayCard from each of Seats
	WaitPlace         = "place_escaped"  // Seat places Choices (escaped couriers) with Place
	WaitTurn          = "turn"           // Seat moves (Step, Jump, PickUp, Drop, actions, EndTurn)
	WaitRoll          = "roll_die"       // RollDie by the round-starter
	WaitSoldierTarget = "soldier_target" // Seat picks among Choices (own couriers) with ChooseCourier
	WaitBonusCourier  = "bonus_courier"  // Seat picks the courier for the red move with ChooseCourier
	WaitBonusMove     = "bonus_move"     // Seat moves Courier up to Count fields (Step, PickUp, Drop, EndTurn)
	WaitBlockRoad     = "block_road"     // Seat blocks one of Choices (roads) with BlockRoad
	WaitDisplace      = "displace"       // Seat moves Courier to one of Choices with Displace
)

// Pending is what the engine waits for, and from whom.
type Pending struct {
	Kind  string `json:"kind"`
	Seat  int    `json:"seat,omitempty"`
	Seats []int  `json:"seats,omitempty"`
	// Courier and Order the decision is about, if any.
	Courier string `json:"courier,omitempty"`
	Order   string `json:"order,omitempty"`
	// Count is the cards to draw, or the red move's fields.
	Count int `json:"count,omitempty"`
	// Choices are the legal answers: couriers, roads or nodes.
	Choices []string `json:"choices,omitempty"`
}

// Score is one player's final score.
type Score struct {
	Seat        int      `json:"seat"`
	Orders      int      `json:"orders"`
	OrderPoints int      `json:"order_points"`
	Home        int      `json:"home"`
	HomeBonus   int      `json:"home_bonus"`
	GoalsDone   []string `json:"goals_done,omitempty"`
	GoalPoints  int      `json:"goal_points"`
	Total       int      `json:"total"`
}

// Result is how the game ended: a defeat of all (no scoring), or the scores
// and the winners (several when still tied after the tie-break).
type Result struct {
	Defeat  bool       `json:"defeat,omitempty"`
	Reason  rules.Text `json:"reason"`
	Scores  []Score    `json:"scores,omitempty"`
	Winners []int      `json:"winners,omitempty"`
}

// State is a game of Mali Powstańcy. It is a value: Apply never changes the
// state it is given. It is JSON-serialisable and its JSON is deterministic.
type State struct {
	Variant string   `json:"variant"`
	Options Options  `json:"options"`
	Players []Player `json:"players"`
	Round   int      `json:"round"`
	Phase   string   `json:"phase"`
	// Starter is the seat holding the round-starter marker.
	Starter  int       `json:"starter"`
	Couriers []Courier `json:"couriers"`
	// Soldier is the German soldier's field (basic variant).
	Soldier Node `json:"soldier,omitempty"`
	// Track are the order track's fields (5 basic, 4 extended), each with
	// the cards on it in the order they came.
	Track  [][]string `json:"track"`
	Deck   Deck       `json:"deck"`
	Missed []string   `json:"missed,omitempty"`
	// Discarded are cards put in the box: drawn for a fallen district.
	Discarded []string        `json:"discarded,omitempty"`
	Blocks    []Block         `json:"blocks,omitempty"`
	Districts []DistrictState `json:"districts,omitempty"`
	// Tokens counts the German tokens on the board (small and large).
	Tokens  int      `json:"tokens"`
	Turn    *Turn    `json:"turn,omitempty"`
	Pending *Pending `json:"pending,omitempty"`
	// Queue holds the time phase's missed orders not settled yet, and
	// couriers still to be moved off a blocked road or fallen district.
	Queue    []string `json:"queue,omitempty"`
	Displace []string `json:"displace,omitempty"`
	// VictoryOut is set when the Victory card left the track: the game
	// ends with this round (extended).
	VictoryOut bool `json:"victory_out,omitempty"`
	// LastRoll is the last die roll, for displays.
	LastRoll *DieFace `json:"last_roll,omitempty"`
	Result   *Result  `json:"result,omitempty"`

	// cat is the game data from StartGame (map, cards, die); it never
	// changes, so clones share it.
	cat *Catalogue
	// waiver is the referee's leave for the action being applied
	// (ApplyAllowing); nil in every state an engine call returns.
	waiver *rules.Waiver
}

// Catalogue is the game data of a started game.
func (s State) Catalogue() *Catalogue { return s.cat }

// clone is a deep copy: Apply works on it and throws it away on a refusal.
func (s State) clone() State {
	c := s
	c.Players = slices.Clone(s.Players)
	for i := range c.Players {
		p := &c.Players[i]
		p.Cards = slices.Clone(p.Cards)
		p.Delivered = slices.Clone(p.Delivered)
		p.Dealt = slices.Clone(p.Dealt)
		p.Goals = slices.Clone(p.Goals)
	}
	c.Couriers = slices.Clone(s.Couriers)
	c.Track = slices.Clone(s.Track)
	for i := range c.Track {
		c.Track[i] = slices.Clone(c.Track[i])
	}
	c.Deck.Peeked = slices.Clone(s.Deck.Peeked)
	c.Deck.Seen = slices.Clone(s.Deck.Seen)
	c.Missed = slices.Clone(s.Missed)
	c.Discarded = slices.Clone(s.Discarded)
	c.Blocks = slices.Clone(s.Blocks)
	c.Districts = slices.Clone(s.Districts)
	if s.Turn != nil {
		t := *s.Turn
		t.Order = slices.Clone(t.Order)
		c.Turn = &t
	}
	if s.Pending != nil {
		p := *s.Pending
		p.Seats = slices.Clone(p.Seats)
		p.Choices = slices.Clone(p.Choices)
		c.Pending = &p
	}
	c.Queue = slices.Clone(s.Queue)
	c.Displace = slices.Clone(s.Displace)
	if s.LastRoll != nil {
		r := *s.LastRoll
		c.LastRoll = &r
	}
	if s.Result != nil {
		r := *s.Result
		r.Scores = slices.Clone(r.Scores)
		for i := range r.Scores {
			r.Scores[i].GoalsDone = slices.Clone(r.Scores[i].GoalsDone)
		}
		r.Winners = slices.Clone(r.Winners)
		c.Result = &r
	}
	return c
}

// Courier looks a courier up by id.
func (s State) Courier(id string) (Courier, bool) {
	for _, c := range s.Couriers {
		if c.ID == id {
			return c, true
		}
	}
	return Courier{}, false
}

func (s *State) courier(id string) *Courier {
	for i := range s.Couriers {
		if s.Couriers[i].ID == id {
			return &s.Couriers[i]
		}
	}
	return nil
}

func (s *State) player(seat int) *Player {
	for i := range s.Players {
		if s.Players[i].Seat == seat {
			return &s.Players[i]
		}
	}
	return nil
}

// TrackField is the field (1-based) of the track a card lies on, or 0.
func (s State) TrackField(card string) int {
	for i, f := range s.Track {
		if slices.Contains(f, card) {
			return i + 1
		}
	}
	return 0
}
