package wotrush

import (
	"slices"

	"github.com/sztab/sztab/rules"
)

// Phase is the part of the game in progress.
type Phase string

const (
	PhasePlay Phase = "play" // turns are being played
	PhaseOver Phase = "over" // scored
)

// Card kinds.
const (
	KindVehicle     = "vehicle"
	KindBarracks    = "barracks"
	KindBase        = "base"
	KindMedal       = "medal"
	KindAchievement = "achievement"
)

// Card is what one physical card in the game is: its id is the NFC tag's
// card id. A card has a resource symbol when Pays is true (vehicles,
// Engineers, medals), even when Resources is 0.
type Card struct {
	Kind      string     `json:"kind"`
	Name      rules.Text `json:"name"`
	Nation    string     `json:"nation,omitempty"`
	Class     string     `json:"class,omitempty"`
	Icon      string     `json:"icon,omitempty"`
	Cost      int        `json:"cost,omitempty"`
	Pays      bool       `json:"pays,omitempty"`
	Resources int        `json:"resources,omitempty"`
	Firepower int        `json:"firepower,omitempty"`
	Armour    int        `json:"armour,omitempty"`
	Abilities []Ability  `json:"abilities,omitempty"`
	// Medals is 1 or 2 on a medal card.
	Medals int `json:"medals,omitempty"`
	// Points is what a base card is worth in a squad, and an achievement
	// card to the player who wins it (components.yaml's
	// achievement_points: "5 Medali za każdą zdobytą kartę Osiągnięć").
	Points int `json:"points,omitempty"`
	// Set is the barracks or base set (1 = the first player listed).
	Set int `json:"set,omitempty"`
	// Achievement is the condition of an achievement card.
	Achievement *AchievementCard `json:"achievement,omitempty"`
}

func (c Card) has(id string) bool { return hasAbility(c.Abilities, id) }

// Options are the choices a table makes where the rulebook leaves room.
// Zero values take the defaults named next to each field; each choice is
// also a row of AMBIGUITIES.md.
type Options struct {
	// Medals: how medals for several destroyed vehicles are taken:
	// "doubles" (default; the rulebook recommends a double for two:
	// "zalecamy wzięcie karty z dwoma Medalami"), "singles" (only singles
	// while any are left) or "choose" (the player answers TakeMedals).
	Medals string `json:"medals,omitempty"`
	// OddMedal: one medal owed when the nation's singles are gone but a
	// double is left: "nothing" (default: the card owed is a single and the
	// FAQ gives nothing from an empty pile) or "double".
	OddMedal string `json:"odd_medal,omitempty"`
	// SabotageChooser: who picks the card each opponent discards:
	// "victim" (default: "odłożyć jedną wybraną kartę ze swojej ręki") or
	// "active" (the saboteur, picking blind).
	SabotageChooser string `json:"sabotage_chooser,omitempty"`
	// DefendersInSquad: vehicles defending surviving bases at the end join
	// the squad (default false: the squad is "ręka, Garaż i Magazyn").
	DefendersInSquad bool `json:"defenders_in_squad,omitempty"`
	// MedalAchievement: what the national medal achievements count:
	// "medals" (default: "najwięcej Orderów", a double is two) or "cards".
	MedalAchievement string `json:"medal_achievement,omitempty"`
	// HeavySiege: a heavy tank's Siege destroys an undamaged base at once,
	// as its attack does (default false: Siege's own text, damage first).
	HeavySiege bool `json:"heavy_siege,omitempty"`
	// DefenderOfSiegedBase: the defender sent back to its owner's Magazine
	// when Siege destroys its base counts as a destroyed vehicle (a medal
	// at the end of the turn). Default false: the text sends it back
	// ("należy natychmiast odłożyć do Magazynu"), it does not destroy it.
	DefenderOfSiegedBase bool `json:"defender_of_sieged_base,omitempty"`
	// TurnDoubles: the vehicles a player destroys in one turn by the attack
	// and by Siege count together for the medals of their nation (the
	// medal card: "Jeśli gracz w jednej turze zniszczy dwa wrogie Pojazdy,
	// może wziąć kartę z dwoma Medalami"); the attack's medals then come
	// at the end of the turn with Siege's. Default false: two awards, each
	// when its text gives it — the attack's "po skończonym ataku" (its
	// doubles "w jednym ataku"), Siege's "na koniec tury".
	TurnDoubles bool `json:"turn_doubles,omitempty"`
}

func (o *Options) defaults() {
	if o.Medals == "" {
		o.Medals = "doubles"
	}
	if o.OddMedal == "" {
		o.OddMedal = "nothing"
	}
	if o.SabotageChooser == "" {
		o.SabotageChooser = "victim"
	}
	if o.MedalAchievement == "" {
		o.MedalAchievement = "medals"
	}
}

func (o Options) check() error {
	bad := func(field, got, want string) error {
		return rules.Reject("bad_option", "opcja %s: %q, dozwolone: %s", "option %s: %q, allowed: %s", field, got, want)
	}
	if !slices.Contains([]string{"doubles", "singles", "choose"}, o.Medals) {
		return bad("medals", o.Medals, "doubles, singles, choose")
	}
	if o.OddMedal != "nothing" && o.OddMedal != "double" {
		return bad("odd_medal", o.OddMedal, "nothing, double")
	}
	if o.SabotageChooser != "victim" && o.SabotageChooser != "active" {
		return bad("sabotage_chooser", o.SabotageChooser, "victim, active")
	}
	if o.MedalAchievement != "medals" && o.MedalAchievement != "cards" {
		return bad("medal_achievement", o.MedalAchievement, "medals, cards")
	}
	return nil
}

// Base is one of a player's surviving bases, the vehicle defending it and
// what is damaged (turned 90°).
type Base struct {
	Card            string `json:"card"`
	Damaged         bool   `json:"damaged,omitempty"`
	Defender        string `json:"defender,omitempty"`
	DefenderDamaged bool   `json:"defender_damaged,omitempty"`
}

// Player is one seat's cards and counters. Hand and Garage are hidden in
// views (see View); their sizes are always shown.
type Player struct {
	Seat     int      `json:"seat"`
	Name     string   `json:"name"`
	Hand     []string `json:"hand"`
	HandSize int      `json:"hand_size"`
	// Garage is the face-down draw pile, top first.
	Garage     []string `json:"garage"`
	GarageSize int      `json:"garage_size"`
	// Magazine is the face-up discard pile, top last.
	Magazine []string `json:"magazine"`
	Bases    []Base   `json:"bases"`
	// Shown are the hand cards seen on the table (RevealHand): the rest of
	// the hand is the engine's guess of what was drawn.
	Shown []string `json:"shown,omitempty"`
	// Won are the achievements taken at the end.
	Won               []string `json:"won,omitempty"`
	VehiclesDestroyed int      `json:"vehicles_destroyed"`
	BasesDestroyed    int      `json:"bases_destroyed"`
}

// MedalPile is one nation's face-up medal pile.
type MedalPile struct {
	Nation  string   `json:"nation"`
	Singles []string `json:"singles"`
	Doubles []string `json:"doubles"`
}

// Playing is the card being played for its abilities: Next is the next
// ability to carry out.
type Playing struct {
	Seat     int    `json:"seat"`
	Card     string `json:"card"`
	Next     int    `json:"next"`
	Skip     bool   `json:"skip,omitempty"`
	Scrapped bool   `json:"scrapped,omitempty"`
	// Victims are the opponents still to discard for Sabotage.
	Victims []int `json:"victims,omitempty"`
}

// AttackState is the attack in progress: the attackers not yet fired and
// the vehicles destroyed so far.
type AttackState struct {
	Nation    string   `json:"nation"`
	Attackers []string `json:"attackers"`
	Kills     int      `json:"kills"`
}

// Decision kinds: what a pending decision waits for.
const (
	DecideDefend     = "defend"      // answer Defend
	DecideResearch   = "research"    // answer Research
	DecideDismantle  = "dismantle"   // answer Dismantle
	DecideSiege      = "siege"       // answer Siege
	DecideDiscard    = "discard"     // answer Discard (Sabotage)
	DecideFire       = "fire"        // answer Fire
	DecideTakeMedals = "take_medals" // answer TakeMedals
)

// Pending is a choice the engine waits for; only its answer is accepted.
// Options are the legal card ids (a base, a target, a card to take); Min
// and Max bound how many (Dismantle) or how many doubles (TakeMedals).
type Pending struct {
	Kind    string     `json:"kind"`
	Seat    int        `json:"seat"`
	Card    string     `json:"card,omitempty"`
	Victim  int        `json:"victim,omitempty"`
	Nation  string     `json:"nation,omitempty"`
	Owed    int        `json:"owed,omitempty"`
	Min     int        `json:"min"`
	Max     int        `json:"max"`
	Options []string   `json:"options"`
	Text    rules.Text `json:"text"`
}

// NationCount is a number of vehicles destroyed for one nation's medals.
type NationCount struct {
	Nation string `json:"nation"`
	N      int    `json:"n"`
}

// Score is one player's final count.
type Score struct {
	Seat              int      `json:"seat"`
	MedalPoints       int      `json:"medal_points"`
	BasePoints        int      `json:"base_points"`
	Achievements      []string `json:"achievements"`
	AchievementPoints int      `json:"achievement_points"`
	Total             int      `json:"total"`
	VehiclesDestroyed int      `json:"vehicles_destroyed"`
	BasesDestroyed    int      `json:"bases_destroyed"`
	Squad             int      `json:"squad"`
}

// Result is the end of the game: scores in seating order and the winners
// (more than one: a shared win).
type Result struct {
	Scores  []Score    `json:"scores"`
	Winners []int      `json:"winners"`
	Text    rules.Text `json:"text"`
}

// State is a whole game. It is plain data: JSON-serialisable, copied by
// Apply (the input is never changed). Piles are slices, top first, except
// the Magazines and the Scrapyard (top last).
type State struct {
	Phase   Phase   `json:"phase"`
	Options Options `json:"options"`
	// Cards describes every card in the game by id.
	Cards   map[string]Card `json:"cards,omitempty"`
	Players []Player        `json:"players"`
	// First is the seat holding the first-player card.
	First  int `json:"first"`
	Active int `json:"active"`
	Round  int `json:"round"`
	Turn   int `json:"turn"`
	// Deck is the vehicle draw pile (top first); Discard its discards.
	Deck     []string `json:"deck"`
	DeckSize int      `json:"deck_size"`
	Discard  []string `json:"discard"`
	// Reserve is the market row; index 0 lies next to the deck.
	Reserve   []string    `json:"reserve"`
	Scrapyard []string    `json:"scrapyard"`
	Medals    []MedalPile `json:"medals"`
	// Achievements are in play; Box holds the ones left out.
	Achievements []string `json:"achievements"`
	Box          []string `json:"box,omitempty"`
	// Seed drives every shuffle not given as an order; Shuffles counts
	// the shuffles made so far.
	Seed uint64 `json:"seed"`
	// HandLimit is the cards drawn at the end of a turn; ReserveSize the
	// Reserve row's length (3 and 4 in the rulebook).
	HandLimit   int `json:"hand_limit"`
	ReserveSize int `json:"reserve_size"`
	Shuffles    int `json:"shuffles"`

	// The turn in progress.
	Used        []string `json:"used,omitempty"`
	Purchases   int      `json:"purchases,omitempty"`
	Recruitment bool     `json:"recruitment,omitempty"`
	Attacked    bool     `json:"attacked,omitempty"`
	// Acted: the active player has bought, played or attacked this turn
	// (the hand is no longer only being laid out).
	Acted bool `json:"acted,omitempty"`
	// Selection is a purchase or attack being put together (Select).
	Selection *Selection `json:"selection,omitempty"`
	// ReserveShown are the Reserve cards seen on the table (RevealReserve).
	ReserveShown []string     `json:"reserve_shown,omitempty"`
	Playing      *Playing     `json:"playing,omitempty"`
	Attack       *AttackState `json:"attack,omitempty"`
	Pending      *Pending     `json:"pending,omitempty"`
	// SiegeKills are the vehicles destroyed this turn whose medals come
	// at its end, by nation: Siege's, and with TurnDoubles the attack's.
	SiegeKills []NationCount `json:"siege_kills,omitempty"`
	Ending     bool          `json:"ending,omitempty"`

	// EndTriggered: a player lost the last base or a ninth single medal
	// was taken; the round is finished.
	EndTriggered bool    `json:"end_triggered,omitempty"`
	Result       *Result `json:"result,omitempty"`

	// waiver is the referee's leave for the action being applied
	// (ApplyAllowing); nil in every state an engine call returns.
	waiver *rules.Waiver
}

func (s State) clone() State {
	c := s
	c.Players = slices.Clone(s.Players)
	for i := range c.Players {
		p := &c.Players[i]
		p.Hand = slices.Clone(p.Hand)
		p.Garage = slices.Clone(p.Garage)
		p.Magazine = slices.Clone(p.Magazine)
		p.Bases = slices.Clone(p.Bases)
		p.Won = slices.Clone(p.Won)
		p.Shown = slices.Clone(p.Shown)
	}
	c.ReserveShown = slices.Clone(s.ReserveShown)
	if s.Selection != nil {
		sel := *s.Selection
		sel.Cards = slices.Clone(sel.Cards)
		sel.Pay = slices.Clone(sel.Pay)
		c.Selection = &sel
	}
	c.Deck = slices.Clone(s.Deck)
	c.Discard = slices.Clone(s.Discard)
	c.Reserve = slices.Clone(s.Reserve)
	c.Scrapyard = slices.Clone(s.Scrapyard)
	c.Medals = slices.Clone(s.Medals)
	for i := range c.Medals {
		c.Medals[i].Singles = slices.Clone(c.Medals[i].Singles)
		c.Medals[i].Doubles = slices.Clone(c.Medals[i].Doubles)
	}
	c.Achievements = slices.Clone(s.Achievements)
	c.Box = slices.Clone(s.Box)
	c.Used = slices.Clone(s.Used)
	c.SiegeKills = slices.Clone(s.SiegeKills)
	if s.Playing != nil {
		p := *s.Playing
		p.Victims = slices.Clone(p.Victims)
		c.Playing = &p
	}
	if s.Attack != nil {
		a := *s.Attack
		a.Attackers = slices.Clone(a.Attackers)
		c.Attack = &a
	}
	if s.Pending != nil {
		p := *s.Pending
		p.Options = slices.Clone(p.Options)
		c.Pending = &p
	}
	if s.Result != nil {
		r := *s.Result
		r.Scores = slices.Clone(r.Scores)
		for i := range r.Scores {
			r.Scores[i].Achievements = slices.Clone(r.Scores[i].Achievements)
		}
		r.Winners = slices.Clone(r.Winners)
		c.Result = &r
	}
	// Cards is never written after StartGame: it is shared.
	return c
}

// Player returns the player at seat, or nil.
func (s *State) Player(seat int) *Player {
	for i := range s.Players {
		if s.Players[i].Seat == seat {
			return &s.Players[i]
		}
	}
	return nil
}

func (s *State) index(seat int) int {
	for i := range s.Players {
		if s.Players[i].Seat == seat {
			return i
		}
	}
	return -1
}

// next is the seat to the left of seat (the next in the listed order).
func (s *State) next(seat int) int {
	return s.Players[(s.index(seat)+1)%len(s.Players)].Seat
}

// lastSeat is the seat to the right of the first player: it plays last.
func (s *State) lastSeat() int {
	n := len(s.Players)
	return s.Players[(s.index(s.First)+n-1)%n].Seat
}

// Squad is a player's squad for scoring: hand, Garage and Magazine (and
// with DefendersInSquad the defenders of surviving bases), in that order.
func (s *State) Squad(seat int) []string {
	p := s.Player(seat)
	if p == nil {
		return nil
	}
	out := slices.Concat(p.Hand, p.Garage, p.Magazine)
	if s.Options.DefendersInSquad {
		for _, b := range p.Bases {
			if b.Defender != "" {
				out = append(out, b.Defender)
			}
		}
	}
	return out
}

func (s *State) tally() {
	for i := range s.Players {
		p := &s.Players[i]
		p.HandSize, p.GarageSize = len(p.Hand), len(p.Garage)
		p.Shown = keepIn(p.Shown, p.Hand)
		if p.Hand == nil {
			p.Hand = []string{}
		}
		if p.Garage == nil {
			p.Garage = []string{}
		}
		if p.Magazine == nil {
			p.Magazine = []string{}
		}
		if p.Bases == nil {
			p.Bases = []Base{}
		}
	}
	s.DeckSize = len(s.Deck)
	s.ReserveShown = keepIn(s.ReserveShown, s.Reserve)
	for _, l := range []*[]string{&s.Deck, &s.Discard, &s.Reserve, &s.Scrapyard, &s.Achievements} {
		if *l == nil {
			*l = []string{}
		}
	}
}

// keepIn is the ids of list still in where (nil when none).
func keepIn(list, where []string) []string {
	var out []string
	for _, id := range list {
		if slices.Contains(where, id) {
			out = append(out, id)
		}
	}
	return out
}
