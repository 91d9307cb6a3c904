package skirmish

import (
	"encoding/json"
	"slices"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// Phase is the part of the game in progress.
type Phase string

const (
	// PhaseSetup: army lists, scenario and first player, in any order
	// ("Przed lub po wyborze armii ... muszą oni wybrać scenariusz").
	PhaseSetup Phase = "setup"
	// PhaseObjectives: scenarios 2 and 4, objective markers placed by the
	// players in turn ("rozmieszczone po kolei na mapie przez graczy na
	// zmianę").
	PhaseObjectives Phase = "objectives"
	PhaseDeployment Phase = "deployment" // "Rozmieszczenie"
	// PhaseOrders: "Faza rozkazów" (scenarios 3 and 4). Round 0 is the
	// first draw of five cards, "jeszcze przed rozpoczęciem 1 tury".
	PhaseOrders   Phase = "orders"
	PhaseMovement Phase = "movement" // "Faza ruchu"
	PhaseShooting Phase = "shooting" // "Faza strzału"
	PhaseOver     Phase = "over"
)

// Allocation says which model takes the next unsaved wound. The rulebook
// does not say; its worked example (FAZA STRZAŁU: two unsaved wounds on
// two-life grenadiers leave "2 rannych", two wounded, none dead) fits
// Spread, the default. Tables that play "finish the wounded man first" pick
// Focus.
type Allocation string

const (
	Spread Allocation = "spread" // to an unwounded model first
	Focus  Allocation = "focus"  // to an already wounded model first
)

// MoveLoss is what "skok = strata ruchu" costs a model that jumps an
// obstacle. FAZA RUCHU names two restrictions, weapons that cannot jump
// ("niemożliwy") and weapons after whose jump "model nie może oddać
// strzału"; the second can only be the "strata ruchu" weapons, so NoShot is
// the default. Tables that read "strata ruchu" literally (the jump eats
// movement) pick HalfMove or Both.
type MoveLoss string

const (
	MoveLossNoShot MoveLoss = "no_shot"   // the model may not shoot this turn
	MoveLossHalf   MoveLoss = "half_move" // the model moves at most half its move
	MoveLossBoth   MoveLoss = "both"
)

// Table is the playing area in kroki; the origin is the south-west corner,
// x runs east and y runs north.
type Table struct {
	Width float64 `json:"width" yaml:"width"`
	Depth float64 `json:"depth" yaml:"depth"`
}

// Table edges a player deploys from.
const (
	EdgeSouth = "south" // y = 0
	EdgeNorth = "north" // y = Depth
	EdgeWest  = "west"  // x = 0
	EdgeEast  = "east"  // x = Width
)

// Options are the choices a table makes where the rulebook is silent or
// leaves the number to the players. Zero values take the defaults written
// next to each field when the game starts.
type Options struct {
	Allocation Allocation `json:"allocation" yaml:"allocation"`
	// Points is the agreed army limit ("200 - krótka gra, 350 - średnia
	// gra, 500 - dłuższa rozgrywka"); default 200.
	Points int `json:"points" yaml:"points"`
	// Table size; default 36 × 36 kroki (the rulebook gives none).
	Table Table `json:"table" yaml:"table"`
	// Base is the base diameter in kroki for placements that do not give
	// one; default 1.
	Base float64 `json:"base" yaml:"base"`
	// DeployDepth: "w odległości maksymalnej 12 kroków od krawędzi stołu".
	DeployDepth float64 `json:"deploy_depth" yaml:"deploy_depth"`
	// Coherency: "Modele w oddziale muszą stać od siebie maksymalnie na
	// odległość 2 kroków" — default 2.
	Coherency float64 `json:"coherency" yaml:"coherency"`
	// UnitGap: "Modele piechoty powinny znajdować się o minimum 3 kroki od
	// siebie" — default 3, read as the gap between models of different
	// units at deployment (see deploy.go).
	UnitGap  float64  `json:"unit_gap" yaml:"unit_gap"`
	MoveLoss MoveLoss `json:"move_loss" yaml:"move_loss"`
	// ObjectiveRadius: a side holds an objective with a model within this
	// many kroki of the marker and no enemy model that close; default 3.
	ObjectiveRadius float64 `json:"objective_radius" yaml:"objective_radius"`
	// HandSize: "tak aby zawsze mieć 5 na rękę"; default 5.
	HandSize int `json:"hand_size" yaml:"hand_size"`
	// MaxRounds ends the game after that round when no other condition did
	// (0: no limit; the rulebook sets none).
	MaxRounds int `json:"max_rounds,omitempty" yaml:"max_rounds"`
}

func (o *Options) defaults() {
	if o.Allocation == "" {
		o.Allocation = Spread
	}
	if o.Points == 0 {
		o.Points = 200
	}
	if o.Table.Width == 0 {
		o.Table.Width = 36
	}
	if o.Table.Depth == 0 {
		o.Table.Depth = 36
	}
	if o.Base == 0 {
		o.Base = 1
	}
	if o.DeployDepth == 0 {
		o.DeployDepth = 12
	}
	if o.Coherency == 0 {
		o.Coherency = 2
	}
	if o.UnitGap == 0 {
		o.UnitGap = 3
	}
	if o.MoveLoss == "" {
		o.MoveLoss = MoveLossNoShot
	}
	if o.ObjectiveRadius == 0 {
		o.ObjectiveRadius = 3
	}
	if o.HandSize == 0 {
		o.HandSize = 5
	}
}

// Player is one seat at the table, as configured.
type Player struct {
	Seat    int    `json:"seat" yaml:"seat"`
	Name    string `json:"name" yaml:"name"`
	Faction string `json:"faction" yaml:"faction"`
	// Edge is the table edge the player deploys from; by default the first
	// faction listed takes south and the other north.
	Edge string `json:"edge,omitempty" yaml:"edge"`
}

// Tally counts what a player's units did, for the order cards.
type Tally struct {
	Kills int `json:"kills"`
	// ByClass counts kills per weapon class; "captured" counts kills with
	// ZDOBYCZNY weapons.
	ByClass        map[string]int `json:"by_class,omitempty"`
	UnitsDestroyed int            `json:"units_destroyed"`
}

// HeldCard is an order card in a player's hand.
type HeldCard struct {
	ID     string      `json:"id"`
	Origin dice.Origin `json:"origin"`
	// Baseline is the player's tally when the card was drawn; the card's
	// counts run from there.
	Baseline Tally `json:"baseline"`
}

// PlayerState is what the game keeps about each seat.
type PlayerState struct {
	Seat       int  `json:"seat"`
	ArmyReady  bool `json:"army_ready"`
	ArmyPoints int  `json:"army_points,omitempty"`
	// Hand is hidden from everyone but its owner and the referee; HandSize
	// is public.
	Hand     []HeldCard `json:"hand,omitempty"`
	HandSize int        `json:"hand_size"`
	// Drawn is every card this player has drawn (hidden like the hand).
	Drawn     []string `json:"drawn,omitempty"`
	Completed []string `json:"completed,omitempty"`
	Discarded []string `json:"discarded,omitempty"`
	// Swapped: the player has discarded a card in this orders phase.
	Swapped bool  `json:"swapped,omitempty"`
	Tally   Tally `json:"tally"`
}

// Side is a faction and its score. Players of the same faction play as a
// team ("Do gry potrzeba od 2 do 20 graczy"; there are two factions).
type Side struct {
	Faction         string `json:"faction"`
	Seats           []int  `json:"seats"`
	ObjectivePoints int    `json:"objective_points"`
	OrderPoints     int    `json:"order_points"`
	// Kills and KillPoints are the enemy models this side killed and their
	// cost.
	Kills      int `json:"kills"`
	KillPoints int `json:"kill_points"`
	// Alive is the side's models still on the table.
	Alive int `json:"alive"`
}

// Scenario numbers, "WYBÓR SCENARIUSZA".
const (
	ScenarioAttrition    = 1 // Wyniszczenie
	ScenarioHold         = 2 // Zdobądź i utrzymaj
	ScenarioOrders       = 3 // Punkty zwycięstwa
	ScenarioAllOrNothing = 4 // Wszystko albo nic
)

// Scenario is the chosen scenario and its numbers.
type Scenario struct {
	Number int        `json:"number"`
	Name   rules.Text `json:"name"`
	// PointsToWin is the objective points a side needs (scenarios 2, 4):
	// "10 - krótka gra, 20 - średnia gra, 30 - długa gra".
	PointsToWin int `json:"points_to_win,omitempty"`
	// OrderPointsToWin is the order card points a side needs (scenarios 3,
	// 4); the rulebook gives no number, the default is 10.
	OrderPointsToWin int `json:"order_points_to_win,omitempty"`
	// Objectives is how many objective markers are placed (scenarios 2, 4);
	// the rulebook gives no number, the default is 4.
	Objectives int `json:"objectives,omitempty"`
}

func (sc *Scenario) holds() bool  { return sc != nil && (sc.Number == 2 || sc.Number == 4) }
func (sc *Scenario) orders() bool { return sc != nil && (sc.Number == 3 || sc.Number == 4) }

// RollOff is the first-player roll: "Grę rozpoczyna osoba, która wyrzuci na
// kostce d6 najwyższą liczbę." Tied top rolls roll again.
type RollOff struct {
	Rounds [][]SeatRoll `json:"rounds"`
	// Tied are the seats that must roll again.
	Tied []int `json:"tied,omitempty"`
}

// SeatRoll is one player's die.
type SeatRoll struct {
	Seat      int `json:"seat" yaml:"seat"`
	dice.Roll `yaml:",inline"`
}

// Point is a position on the table in kroki, with the standard uncertainty
// of each coordinate.
type Point struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Sigma float64 `json:"sigma,omitempty"`
}

// Objective is an objective marker of scenarios 2 and 4.
type Objective struct {
	ID       string `json:"id"`
	PlacedBy int    `json:"placed_by"`
	At       Point  `json:"at"`
	// Holder is the faction that held it at its side's last count.
	Holder string `json:"holder,omitempty"`
}

// Model is one miniature.
type Model struct {
	ID        string `json:"id"`
	Weapon    string `json:"weapon"`
	Commander bool   `json:"commander,omitempty"`
	Cost      int    `json:"cost"`
	Lives     int    `json:"lives"`
	Wounds    int    `json:"wounds"`
	Removed   bool   `json:"removed,omitempty"`
	// Base is the base diameter in kroki; At the base centre as last
	// measured.
	Base float64 `json:"base,omitempty"`
	At   *Point  `json:"at,omitempty"`
	// From is where the model stood when this movement phase began, once it
	// has moved in it.
	From *Point `json:"from,omitempty"`
	// Jumped: the model jumped an obstacle this turn.
	Jumped bool `json:"jumped,omitempty"`
}

// Remaining is the number of wounds the model can still take.
func (m Model) Remaining() int { return m.Lives - m.Wounds }

// Unit is a unit of an army. Its weapon rows and statistics are copied in
// when the army is submitted, so a journal replays the same even if the data
// files are edited later.
type Unit struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Card     string   `json:"card"`
	Faction  string   `json:"faction"`
	Owner    int      `json:"owner"`
	Civilian bool     `json:"civilian,omitempty"`
	Move     int      `json:"move"`
	Defence  int      `json:"defence"`
	Weapons  []Weapon `json:"weapons"`
	Models   []Model  `json:"models"`
	Deployed bool     `json:"deployed"`
	// StationaryRounds counts whole rounds the unit did not move (MG bonus).
	StationaryRounds int  `json:"stationary_rounds"`
	MovedThisRound   bool `json:"moved_this_round,omitempty"`
	// Fired lists the weapons that have fired this turn.
	Fired []string `json:"fired,omitempty"`
}

// Alive counts the models still on the table.
func (u Unit) Alive() int {
	n := 0
	for _, m := range u.Models {
		if !m.Removed {
			n++
		}
	}
	return n
}

// Weapon returns the unit's weapon row called name.
func (u Unit) Weapon(name string) (Weapon, bool) {
	for _, w := range u.Weapons {
		if w.Name == name {
			return w, true
		}
	}
	return Weapon{}, false
}

func (u *Unit) model(id string) *Model {
	for i := range u.Models {
		if u.Models[i].ID == id {
			return &u.Models[i]
		}
	}
	return nil
}

// Measure is a measured distance in kroki and its uncertainty (one bound,
// same units): the true value lies within Kroki ± Uncertainty.
type Measure struct {
	Kroki       float64 `json:"kroki"`
	Uncertainty float64 `json:"uncertainty"`
}

// Cover kinds from "Modyfikator przeszkód". The rulebook first calls heavy
// cover yellow and then, in the examples, light cover (gruz) yellow and
// heavy cover green; the examples and the list of obstacles agree with each
// other, so yellow = light, green = heavy.
const (
	CoverNone  = "none"
	CoverLight = "light"
	CoverHeavy = "heavy"
)

// Stages of a shot.
const (
	StageRuling = "ruling" // measurement too close to call, waiting for a ruling
	StageTarget = "target" // the mortar's "kostka celu", one die per marker
	StageHit    = "hit"
	StageWound  = "wound"
	StageDamage = "damage" // d6 wounds per hit
	StageSave   = "save"
)

// Shot is a shot in progress, waiting for dice or a ruling.
type Shot struct {
	Shooter  string  `json:"shooter"`
	Target   string  `json:"target"`
	Weapon   string  `json:"weapon"`
	Distance Measure `json:"distance"`
	Cover    string  `json:"cover"`
	// Firing are the models that fire.
	Firing   []string `json:"firing"`
	Attacks  int      `json:"attacks"`
	HitOn    int      `json:"hit_on,omitempty"`
	WoundOn  int      `json:"wound_on,omitempty"`
	D6Wounds bool     `json:"d6_wounds,omitempty"`
	SaveOn   int      `json:"save_on"`
	// Template shots: the markers, the target die threshold (mortar) and
	// the model each hit lands on.
	Template  string   `json:"template,omitempty"`
	Markers   []Marker `json:"markers,omitempty"`
	TargetOn  int      `json:"target_on,omitempty"`
	HitModels []string `json:"hit_models,omitempty"`
	Stage     string   `json:"stage"`
	// Need is the number of dice the stage takes; Entered are those in so far.
	Need    int         `json:"need"`
	Entered []dice.Roll `json:"entered"`
	Hits    int         `json:"hits"`
	// Packets holds the wounds of each wounding hit (1 each, or d6);
	// PacketModels the model each packet is aimed at (template shots).
	Packets      []int    `json:"packets,omitempty"`
	PacketModels []string `json:"packet_models,omitempty"`
	Rolls        struct {
		Target []dice.Roll `json:"target,omitempty"`
		Hit    []dice.Roll `json:"hit,omitempty"`
		Wound  []dice.Roll `json:"wound,omitempty"`
		Damage []dice.Roll `json:"damage,omitempty"`
		Save   []dice.Roll `json:"save,omitempty"`
	} `json:"rolls"`
	// Odds is the exact distribution of the shot's outcome given the dice
	// rolled so far, computed before the roll the shot is waiting for.
	Odds *ShotOdds `json:"odds,omitempty"`
}

// ShotResult is what a resolved shot did.
type ShotResult struct {
	Shooter   string      `json:"shooter"`
	Target    string      `json:"target"`
	Weapon    string      `json:"weapon"`
	Cover     string      `json:"cover"`
	Attacks   int         `json:"attacks"`
	Hits      int         `json:"hits"`
	Wounds    int         `json:"wounds"`
	Saved     int         `json:"saved"`
	Unsaved   int         `json:"unsaved"`
	Wounded   []string    `json:"wounded"`
	Killed    []string    `json:"killed"`
	HitModels []string    `json:"hit_models,omitempty"`
	Rolls     []dice.Roll `json:"rolls"`
}

// Call is a measurement too close to call, waiting for a Ruling. The action
// that needs it waits with it and is applied again once ruled.
type Call struct {
	Key      string          `json:"key"`
	Question rules.Text      `json:"question"`
	Measured Measure         `json:"measured"`
	Limit    float64         `json:"limit"`
	Action   json.RawMessage `json:"action"`
}

// Ruled is a ruling given on a Call, kept until its action is through.
type Ruled struct {
	Key     string `json:"key"`
	InRange bool   `json:"in_range"`
	By      string `json:"by,omitempty"`
}

// Result conditions.
const (
	WinAnnihilation = "annihilation" // a side has no models left
	WinObjectives   = "objectives"   // objective points reached
	WinOrders       = "orders"       // order card points reached
	WinRounds       = "rounds"       // the agreed last round is over
	WinEnded        = "ended"        // ended by the players or the referee
)

// Result is how the game ended. Winner is a faction; it is empty for a draw
// or a game ended without a winner.
type Result struct {
	Winner    string     `json:"winner,omitempty"`
	Seats     []int      `json:"seats,omitempty"`
	Condition string     `json:"condition"`
	Round     int        `json:"round"`
	Text      rules.Text `json:"text"`
}

// Selection is what the players picked on the table and have not used yet:
// the shooter and weapon of the next shot (its first unit card), a discard
// armed by the "discard" key, and the models the camera saw jump in this
// movement phase. It is state like any other, so a restart in the middle of
// a selection keeps it.
type Selection struct {
	Shooter string   `json:"shooter,omitempty"`
	Weapon  string   `json:"weapon,omitempty"`
	Discard bool     `json:"discard,omitempty"`
	Jumps   []string `json:"jumps,omitempty"`
	// NotJumped are the models ruled not to have jumped in this movement
	// phase, so the camera's unsure call is not asked again.
	NotJumped []string `json:"not_jumped,omitempty"`
}

// State is the whole game. It is a value: Apply never changes the state it
// is given.
type State struct {
	Players    []Player      `json:"players"`
	Seats      []PlayerState `json:"seats"`
	Sides      []Side        `json:"sides"`
	Units      []Unit        `json:"units"`
	Options    Options       `json:"options"`
	Scenario   *Scenario     `json:"scenario,omitempty"`
	RollOff    *RollOff      `json:"roll_off,omitempty"`
	FirstSeat  int           `json:"first_seat,omitempty"`
	Objectives []Objective   `json:"objectives,omitempty"`
	Round      int           `json:"round"`
	Phase      Phase         `json:"phase"`
	// Active is the index in Players of the player whose turn (or whose
	// objective or deployment) it is.
	Active  int     `json:"active"`
	Call    *Call   `json:"call,omitempty"`
	Rulings []Ruled `json:"rulings,omitempty"`
	Shot    *Shot   `json:"shot,omitempty"`
	// LastShot is the outcome of the most recent shot, for displays.
	LastShot *ShotResult `json:"last_shot,omitempty"`
	Result   *Result     `json:"result,omitempty"`
	// Selection is what the table has picked and not used yet.
	Selection *Selection `json:"selection,omitempty"`

	// data is the game data from StartGame; it never changes, so clones
	// share it.
	data *Catalogue

	// waiver is the referee's leave for the action being applied
	// (ApplyAllowing); nil in every state an engine call returns.
	waiver *rules.Waiver
}

// clone is a deep copy: Apply works on it and throws it away on a refusal.
// Weapon rows are shared, they never change once a unit exists.
func (s State) clone() State {
	c := s
	c.Players = slices.Clone(s.Players)
	c.Seats = slices.Clone(s.Seats)
	for i := range c.Seats {
		ps := &c.Seats[i]
		ps.Hand = slices.Clone(ps.Hand)
		for j := range ps.Hand {
			ps.Hand[j].Baseline = cloneTally(ps.Hand[j].Baseline)
		}
		ps.Drawn = slices.Clone(ps.Drawn)
		ps.Completed = slices.Clone(ps.Completed)
		ps.Discarded = slices.Clone(ps.Discarded)
		ps.Tally = cloneTally(ps.Tally)
	}
	c.Sides = slices.Clone(s.Sides)
	for i := range c.Sides {
		c.Sides[i].Seats = slices.Clone(c.Sides[i].Seats)
	}
	c.Units = slices.Clone(s.Units)
	for i := range c.Units {
		u := &c.Units[i]
		u.Weapons = slices.Clone(u.Weapons)
		u.Fired = slices.Clone(u.Fired)
		u.Models = slices.Clone(u.Models)
		for j := range u.Models {
			m := &u.Models[j]
			m.At, m.From = clonePtr(m.At), clonePtr(m.From)
		}
	}
	c.Scenario = clonePtr(s.Scenario)
	if s.RollOff != nil {
		r := RollOff{Tied: slices.Clone(s.RollOff.Tied)}
		for _, round := range s.RollOff.Rounds {
			r.Rounds = append(r.Rounds, slices.Clone(round))
		}
		c.RollOff = &r
	}
	c.Objectives = slices.Clone(s.Objectives)
	if s.Call != nil {
		call := *s.Call
		call.Action = slices.Clone(call.Action)
		c.Call = &call
	}
	c.Rulings = slices.Clone(s.Rulings)
	if s.Selection != nil {
		sel := *s.Selection
		sel.Jumps = slices.Clone(sel.Jumps)
		sel.NotJumped = slices.Clone(sel.NotJumped)
		c.Selection = &sel
	}
	if s.Shot != nil {
		sh := *s.Shot
		sh.Firing = slices.Clone(sh.Firing)
		sh.Markers = slices.Clone(sh.Markers)
		for i := range sh.Markers {
			sh.Markers[i].Models = slices.Clone(sh.Markers[i].Models)
			sh.Markers[i].Unsure = slices.Clone(sh.Markers[i].Unsure)
			sh.Markers[i].Distance = clonePtr(sh.Markers[i].Distance)
		}
		sh.HitModels = slices.Clone(sh.HitModels)
		sh.Entered = slices.Clone(sh.Entered)
		sh.Packets = slices.Clone(sh.Packets)
		sh.PacketModels = slices.Clone(sh.PacketModels)
		sh.Rolls.Target = slices.Clone(sh.Rolls.Target)
		sh.Rolls.Hit = slices.Clone(sh.Rolls.Hit)
		sh.Rolls.Wound = slices.Clone(sh.Rolls.Wound)
		sh.Rolls.Damage = slices.Clone(sh.Rolls.Damage)
		sh.Rolls.Save = slices.Clone(sh.Rolls.Save)
		if sh.Odds != nil {
			o := *sh.Odds
			o.Wounds, o.Killed = slices.Clone(o.Wounds), slices.Clone(o.Killed)
			sh.Odds = &o
		}
		c.Shot = &sh
	}
	if s.LastShot != nil {
		ls := *s.LastShot
		ls.Wounded, ls.Killed = slices.Clone(ls.Wounded), slices.Clone(ls.Killed)
		ls.HitModels, ls.Rolls = slices.Clone(ls.HitModels), slices.Clone(ls.Rolls)
		c.LastShot = &ls
	}
	if s.Result != nil {
		r := *s.Result
		r.Seats = slices.Clone(r.Seats)
		c.Result = &r
	}
	return c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func (s *State) unit(id string) *Unit {
	for i := range s.Units {
		if s.Units[i].ID == id {
			return &s.Units[i]
		}
	}
	return nil
}

// Unit returns the unit with id, if there is one.
func (s State) Unit(id string) (Unit, bool) {
	u := s.unit(id)
	if u == nil {
		return Unit{}, false
	}
	return *u, true
}

// ActiveSeat is the seat of the player whose turn it is.
func (s State) ActiveSeat() int {
	if len(s.Players) == 0 {
		return 0
	}
	return s.Players[s.Active].Seat
}

// Data is the game data the state runs with (nil before StartGame).
func (s State) Data() *Catalogue { return s.data }

func (s *State) player(seat int) (int, *Player) {
	for i := range s.Players {
		if s.Players[i].Seat == seat {
			return i, &s.Players[i]
		}
	}
	return -1, nil
}

func (s *State) seatState(seat int) *PlayerState {
	for i := range s.Seats {
		if s.Seats[i].Seat == seat {
			return &s.Seats[i]
		}
	}
	return nil
}

func (s *State) side(faction string) *Side {
	for i := range s.Sides {
		if s.Sides[i].Faction == faction {
			return &s.Sides[i]
		}
	}
	return nil
}

func (s *State) factionOf(seat int) string {
	if _, p := s.player(seat); p != nil {
		return p.Faction
	}
	return ""
}

func (s *State) firstIndex() int {
	i, _ := s.player(s.FirstSeat)
	return max(i, 0)
}
