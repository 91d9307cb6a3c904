package skirmish

import "github.com/sztab/sztab/rules/dice"

// Phase is the part of a player's turn in progress.
type Phase string

const (
	PhaseSetup    Phase = "setup"
	PhaseMovement Phase = "movement" // "Faza ruchu"
	PhaseShooting Phase = "shooting" // "Faza strzału"
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

// Options are the choices a table makes where the rulebook is silent.
type Options struct {
	Allocation Allocation `json:"allocation"`
}

// Player is one seat at the table.
type Player struct {
	Seat    int    `json:"seat"`
	Name    string `json:"name"`
	Faction string `json:"faction"`
}

// Model is one miniature.
type Model struct {
	ID      string `json:"id"`
	Lives   int    `json:"lives"`
	Wounds  int    `json:"wounds"`
	Removed bool   `json:"removed,omitempty"`
}

// Remaining is the number of wounds the model can still take.
func (m Model) Remaining() int { return m.Lives - m.Wounds }

// Unit is a unit on the table. Its weapon row and defence are copied in at
// the start of the game, so a journal replays the same even if the data
// files are edited later.
type Unit struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Card    string  `json:"card"`
	Faction string  `json:"faction"`
	Owner   int     `json:"owner"`
	Weapon  Weapon  `json:"weapon"`
	Defence int     `json:"defence"`
	Models  []Model `json:"models"`
	// StationaryRounds counts whole rounds the unit did not move (MG bonus).
	StationaryRounds int  `json:"stationary_rounds"`
	MovedThisRound   bool `json:"moved_this_round,omitempty"`
	ShotThisTurn     bool `json:"shot_this_turn,omitempty"`
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

// Measure is a measured distance in kroki and its uncertainty (one bound,
// same units): the true value lies within Kroki ± Uncertainty.
type Measure struct {
	Kroki       float64 `json:"kroki"`
	Uncertainty float64 `json:"uncertainty"`
}

// Cover kinds from "Modyfikator przeszkód".
const (
	CoverNone  = "none"
	CoverLight = "light"
	CoverHeavy = "heavy"
)

// Stages of a shot.
const (
	StageRuling = "ruling" // measurement too close to call, waiting for a ruling
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
	Attacks  int     `json:"attacks"`
	HitOn    int     `json:"hit_on"`
	WoundOn  int     `json:"wound_on,omitempty"`
	D6Wounds bool    `json:"d6_wounds,omitempty"`
	SaveOn   int     `json:"save_on"`
	Stage    string  `json:"stage"`
	// Need is the number of dice the stage takes; Entered are those in so far.
	Need    int         `json:"need"`
	Entered []dice.Roll `json:"entered"`
	Hits    int         `json:"hits"`
	// Packets holds the wounds of each wounding hit (1 each, or d6).
	Packets []int `json:"packets,omitempty"`
	Rolls   struct {
		Hit    []dice.Roll `json:"hit,omitempty"`
		Wound  []dice.Roll `json:"wound,omitempty"`
		Damage []dice.Roll `json:"damage,omitempty"`
		Save   []dice.Roll `json:"save,omitempty"`
	} `json:"rolls"`
}

// State is the whole game. It is a value: Apply never changes the state it
// is given.
type State struct {
	Players []Player `json:"players"`
	Units   []Unit   `json:"units"`
	Options Options  `json:"options"`
	Round   int      `json:"round"`
	Phase   Phase    `json:"phase"`
	// Active is the index in Players of the player whose turn it is.
	Active int   `json:"active"`
	Shot   *Shot `json:"shot,omitempty"`
	// LastShot is the outcome of the most recent shot, for displays.
	LastShot *ShotResult `json:"last_shot,omitempty"`
}

// ShotResult is what a resolved shot did.
type ShotResult struct {
	Shooter string      `json:"shooter"`
	Target  string      `json:"target"`
	Weapon  string      `json:"weapon"`
	Cover   string      `json:"cover"`
	Attacks int         `json:"attacks"`
	Hits    int         `json:"hits"`
	Wounds  int         `json:"wounds"`
	Saved   int         `json:"saved"`
	Unsaved int         `json:"unsaved"`
	Wounded []string    `json:"wounded"`
	Killed  []string    `json:"killed"`
	Rolls   []dice.Roll `json:"rolls"`
}

func (s State) clone() State {
	c := s
	c.Players = append([]Player(nil), s.Players...)
	c.Units = make([]Unit, len(s.Units))
	for i, u := range s.Units {
		u.Models = append([]Model(nil), u.Models...)
		c.Units[i] = u
	}
	if s.Shot != nil {
		sh := *s.Shot
		sh.Entered = append([]dice.Roll(nil), s.Shot.Entered...)
		sh.Packets = append([]int(nil), s.Shot.Packets...)
		sh.Rolls.Hit = append([]dice.Roll(nil), s.Shot.Rolls.Hit...)
		sh.Rolls.Wound = append([]dice.Roll(nil), s.Shot.Rolls.Wound...)
		sh.Rolls.Damage = append([]dice.Roll(nil), s.Shot.Rolls.Damage...)
		sh.Rolls.Save = append([]dice.Roll(nil), s.Shot.Rolls.Save...)
		c.Shot = &sh
	}
	if s.LastShot != nil {
		ls := *s.LastShot
		c.LastShot = &ls
	}
	return c
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
