package west1920

import (
	"errors"
	"fmt"
	"slices"

	"github.com/sztab/sztab/rules"
)

// Event is something that happened, for the journal and the screens.
type Event struct {
	Type string     `json:"type"`
	Text rules.Text `json:"text"`
	Side string     `json:"side,omitempty"`
	Unit string     `json:"unit,omitempty"`
	Hex  Hex        `json:"hex,omitempty"`
	N    int        `json:"n,omitempty"`
}

func ev(typ string, pl, en string, args ...any) Event {
	return Event{Type: typ, Text: textf(pl, en, args...)}
}

// rejectf is a rejection whose reason is written by textf.
func rejectf(code, pl, en string, args ...any) error {
	return &rules.Rejection{Code: code, Reason: textf(pl, en, args...)}
}

// textf is rules.Textf where an argument of type rules.Text (a side's
// name) is written in each text's own language.
func textf(pl, en string, args ...any) rules.Text {
	p, e := make([]any, len(args)), make([]any, len(args))
	for i, a := range args {
		p[i], e[i] = a, a
		if t, ok := a.(rules.Text); ok {
			p[i], e[i] = t.PL, t.EN
		}
	}
	return rules.Text{PL: fmt.Sprintf(pl, p...), EN: fmt.Sprintf(en, e...)}
}

// Apply plays action a on state s: the next state and what happened, or a
// *rules.Rejection and s itself. s is never changed.
func Apply(s State, a Action) (State, []Event, error) {
	return applyWith(s, a, nil)
}

// Allowable are the rejection codes a referee may let stand for one action
// (rules.Waiver, "flag but allow"): a move over its movement
// allowance (7.4), infantry or artillery from one enemy-adjacent hex to
// another (7.4, 11.2), a hex over the stacking limit after a move (1.2),
// a chit its side has no RP for (7.3), a strategic move over the limit
// (11.2).
// Every other refusal (malformed input, an unknown card or unit, the wrong
// phase) stands whatever the waiver says.
var Allowable = []string{"too_far", "adjacent_move", "overstacked", "no_rp", "strategic_limit"}

// ApplyAllowing is Apply with the referee's leave to break the rules named
// in w; w.Waived says which the action broke. The state goes on from the
// allowed action.
func ApplyAllowing(s State, a Action, w *rules.Waiver) (State, []Event, error) {
	next, evs, err := applyWith(s, a, w)
	next.waiver = nil
	return next, evs, err
}

func applyWith(s State, a Action, w *rules.Waiver) (State, []Event, error) {
	next := s.clone()
	next.waiver = w
	evs, err := next.apply(a)
	if err != nil {
		return s, nil, err
	}
	if next.Phase != PhaseOver && next.cat != nil {
		// 13.3, 13.4: a Lithuanian unit more than two hexes from Lithuania
		// or a Ukrainian unit north of the line is eliminated as soon as it
		// gets there (a move, retreat or card), not only at the supply check.
		evs = append(evs, next.specialChecks()...)
		if next.Options.CityControl == "last" {
			next.updateControl()
		}
		evs = append(evs, next.checkVictory()...)
		next.prussiaRollDue()
	}
	return next, evs, nil
}

func (s *State) apply(a Action) ([]Event, error) {
	if a == nil {
		return nil, rejectf("unknown_action", "brak akcji", "no action")
	}
	if st, ok := a.(StartGame); ok {
		if s.Phase != "" {
			return nil, rejectf("already_started", "gra już trwa", "the game is already running")
		}
		return s.start(st)
	}
	if s.Phase == "" || s.cat == nil {
		return nil, rejectf("not_started", "gra się jeszcze nie zaczęła", "the game has not started")
	}
	if s.Phase == PhaseOver {
		return nil, rejectf("game_over", "gra się skończyła", "the game is over")
	}
	if ad, ok := a.(Adjust); ok {
		return s.adjust(ad)
	}
	if side := actionSide(a); side != "" || a.Type() != "roll" {
		if !sideOK(side) {
			return nil, rejectf("unknown_side", "strona %q: polish albo russian", "side %q: polish or russian", side)
		}
	}
	if p := s.Pending; p != nil {
		if a.Type() == "pass" && actionSide(a) == p.Side {
			// Decisions a pass declines without passing for the phase.
			switch p.Kind {
			case "extra_order":
				return s.declineExtra(), nil
			case "attack_again":
				return s.declineAgain(), nil
			}
		}
		if a.Type() != p.Action {
			return nil, rejectf("awaiting_decision", "najpierw: %[1]s", "first: %[2]s", p.Text.PL, p.Text.EN)
		}
		if side := actionSide(a); p.Side != "" && a.Type() != "roll" && side != p.Side {
			return nil, rejectf("not_your_decision", "decyduje %[1]s", "%[2]s decides", sideName(p.Side).PL, sideName(p.Side).EN)
		}
		return s.answer(a)
	}
	switch a := a.(type) {
	case DrawCard:
		return s.drawCard(a)
	case PlayCard:
		return s.playCard(a)
	case Pass:
		return s.pass(a)
	case BuildDepot:
		return s.buildDepot(a)
	case RemoveDepot:
		return s.removeDepot(a)
	case AssignChit:
		return s.assignChit(a)
	case Order:
		return s.order(a)
	case DiscardChit:
		return s.discardChit(a)
	case MoveHQ:
		return s.moveHQ(a)
	case Withdraw:
		return s.withdraw(a)
	case Attack:
		return s.attack(a)
	case Replace:
		return s.replace(a)
	case StrategicMove:
		return s.strategicMove(a)
	case Roll, CardBonus, Losses, Retreat, Pursue, Place, Choose:
		return nil, rejectf("no_decision", "nikt nie czeka na %s", "nothing waits for %s", a.Type())
	}
	return nil, rejectf("unknown_action", "nieznana akcja %T", "unknown action %T", a)
}

func actionSide(a Action) string {
	switch a := a.(type) {
	case DrawCard:
		return a.Side
	case PlayCard:
		return a.Side
	case Pass:
		return a.Side
	case BuildDepot:
		return a.Side
	case RemoveDepot:
		return a.Side
	case AssignChit:
		return a.Side
	case Order:
		return a.Side
	case DiscardChit:
		return a.Side
	case MoveHQ:
		return a.Side
	case Withdraw:
		return a.Side
	case Attack:
		return a.Side
	case CardBonus:
		return a.Side
	case Losses:
		return a.Side
	case Retreat:
		return a.Side
	case Pursue:
		return a.Side
	case Replace:
		return a.Side
	case StrategicMove:
		return a.Side
	case Place:
		return a.Side
	case Choose:
		return a.Side
	}
	return ""
}

func (s *State) start(a StartGame) ([]Event, error) {
	cat, err := NewCatalogue(a.Data)
	if err != nil {
		pl := err.Error()
		var de *DataError
		if errors.As(err, &de) {
			pl = fmt.Sprintf("%s: %s: %s", de.File, de.Entry, de.Reason.PL)
		}
		return nil, fmt.Errorf("%w (%w)", rejectf("bad_setup", "błędne dane gry: %[1]s", "bad game data: %[2]v", pl, err), err)
	}
	o := a.Options
	o.defaults()
	if err := o.check(); err != nil {
		return nil, err
	}
	s.cat, s.Options, s.Stage = cat, o, 1
	for _, u0 := range cat.Data.OOB.Units {
		u := cat.Units[u0.ID]
		un := Unit{ID: u.ID, Name: u.Name, Side: u.Side, Nation: u.Nation, Type: u.Type, Hex: u.Hex, Facing: u.Facing,
			OneSided: u.OneSided, Full: *u.Full, WeakCF: *u.Weak, Weak: u.OneSided}
		if u.Hex == "" {
			un.Status = Waiting
		}
		if un.Type == Artillery {
			un.Facing = ""
		}
		s.Units = append(s.Units, un)
	}
	for _, h := range cat.Data.OOB.HQs {
		hq := HQ{ID: h.ID, Name: h.Name, Side: h.Side, Nation: h.Nation, Zone: h.Zone, Hex: h.Hex}
		if h.Hex == "" {
			hq.Status = Waiting
		}
		s.HQs = append(s.HQs, hq)
	}
	for _, side := range []string{Polish, Russian} {
		for _, h := range cat.Data.OOB.Depots[side] {
			s.Depots = append(s.Depots, Depot{Hex: h, Side: side, Stage: 0})
		}
		s.Players = append(s.Players, Player{Side: side, Hand: []int{}})
	}
	// 3.1: the seven single-instruction cards are out for the stage-1 draw.
	for _, c := range cat.Data.Cards.Cards {
		if !slices.Contains(SingleCards, c.ID) {
			s.Deck = append(s.Deck, c.ID)
		}
	}
	s.Phase = PhaseEvents
	s.beginStage()
	return []Event{ev("start", "Początek gry: etap 1 z %d", "The game begins: stage 1 of %d", Stages)}, nil
}

// beginStage resets the stage's marks and sets whose draw it is.
func (s *State) beginStage() {
	for i := range s.Units {
		u := &s.Units[i]
		u.Ordered, u.Moved, u.Attacked, u.Fought, u.Routed, u.Again, u.Strategic = false, false, false, false, false, false, false
	}
	for i := range s.HQs {
		s.HQs[i].Moved, s.HQs[i].Strategic = false, false
	}
	s.Effects = nil
	for i := range s.Players {
		p := &s.Players[i]
		p.BaseRP = s.cat.Data.OOB.BaseRP[p.Side][s.Stage-1]
		p.Dice, p.CardRP, p.TotalRP, p.Spent, p.Rolled, p.Passed, p.Removed, p.Played = 0, 0, 0, 0, false, false, false, 0
		p.StratMoves, p.StratLimit = 0, 4
	}
	s.Turn = s.firstForCards()
}

// firstForCards: Russians first in stages 2–7, Poles in 8–14 (3.1); stage 1
// (no order printed) the Russian player draws first as in stages 2–7.
func (s *State) firstForCards() string {
	if s.Stage >= 8 {
		return Polish
	}
	return Russian
}

// firstByTotalRP: the higher total RP starts, Poles on a tie (5.1, 8.0, 11.1).
func (s *State) firstByTotalRP() string {
	if s.player(Russian).TotalRP > s.player(Polish).TotalRP {
		return Russian
	}
	return Polish
}

// firstByBaseRP: the higher base RP starts withdrawals (9.1); the rulebook
// names no tie-break: Poles, as for total RP (AMBIGUITIES.md).
func (s *State) firstByBaseRP() string {
	if s.player(Russian).BaseRP > s.player(Polish).BaseRP {
		return Russian
	}
	return Polish
}

func (s *State) setPending(p Pending) { s.Pending = &p }

func (s *State) rollPending(kind string, side string, dice int, pl, en string, odds *Odds) {
	s.setPending(Pending{Kind: kind, Action: "roll", Side: side, Dice: dice, Text: rules.Text{PL: pl, EN: en}, Odds: odds})
}

// answer handles the action that answers s.Pending.
func (s *State) answer(a Action) ([]Event, error) {
	p := s.Pending
	switch p.Kind {
	case "resource_roll":
		return s.resourceRoll(a.(Roll))
	case "first_roll":
		return s.firstRoll(a.(Roll))
	case "activation":
		return s.activationRoll(a.(Roll))
	case "attrition":
		return s.attritionRoll(a.(Roll))
	case "coordination":
		return s.coordinationRoll(a.(Roll))
	case "combat_roll":
		return s.combatRoll(a.(Roll))
	case "card_bonus":
		return s.cardBonus(a.(CardBonus))
	case "losses":
		return s.losses(a.(Losses))
	case "retreat":
		return s.retreat(a.(Retreat))
	case "pursuit":
		switch a := a.(type) {
		case Pursue:
			return s.pursue(a)
		}
	case "withdraw_follow":
		if a, ok := a.(Pursue); ok {
			return s.follow(a)
		}
	case "depot_shortfall":
		return s.shortfallRemove(a.(RemoveDepot))
	case "desertion":
		return s.desertionRoll(a.(Roll))
	case "prussia":
		return s.prussiaRoll(a.(Roll))
	case "arrival":
		return s.placeArrival(a.(Place))
	case "card_retreat":
		return s.cardRetreat(a.(Retreat))
	case "card_choice":
		return s.cardChoice(a.(Choose))
	case "place":
		return s.place(a.(Place))
	case "extra_order":
		return s.extraOrder(a.(Order))
	case "attack_again":
		return s.attackAgain(a.(Attack))
	}
	return nil, rejectf("unknown_decision", "nieznana decyzja %s", "unknown decision %s", p.Kind)
}

func dieOK(d int) bool { return d >= 1 && d <= 6 }

func checkDice(r Roll, n int) error {
	if len(r.Dice) != n {
		return rejectf("dice_count", "potrzeba %d kości, podano %d", "%d dice needed, %d given", n, len(r.Dice))
	}
	for _, d := range r.Dice {
		if !dieOK(d) {
			return rejectf("bad_die", "wynik kości %d: poza 1–6", "die %d is outside 1–6", d)
		}
	}
	return nil
}

func (s *State) adjust(a Adjust) ([]Event, error) {
	b := s.cat.Board
	if u := s.unit(a.Unit); u != nil {
		if a.Hex != "" {
			if b.Index(a.Hex) < 0 {
				return nil, rejectf("bad_hex", "heks %q nie leży na mapie", "hex %q is not on the map", a.Hex)
			}
			u.Hex, u.Status = a.Hex, OnMap
		}
		if a.Weak != nil {
			u.Weak = *a.Weak || u.OneSided
		}
		if a.Status != "" {
			if !slices.Contains([]string{Waiting, Eliminated, Interned, Prussia, "on_map"}, a.Status) {
				return nil, rejectf("bad_status", "status %q", "status %q", a.Status)
			}
			u.Status = a.Status
			if a.Status == "on_map" {
				u.Status = OnMap
			}
		}
		if a.Facing != "" {
			if _, ok := ParseDir(a.Facing); !ok {
				return nil, rejectf("bad_facing", "kierunek %q", "facing %q", a.Facing)
			}
			u.Facing = a.Facing
		}
		if err := s.checkStacking(u.Hex); err != nil {
			return nil, err
		}
		return []Event{{Type: "adjust", Unit: u.ID, Hex: u.Hex, Text: textf("Sędzia poprawia %s: %s", "The referee corrects %s: %s", u.Name, a.Note)}}, nil
	}
	if h := s.hq(a.Unit); h != nil {
		if a.Hex != "" {
			if b.Index(a.Hex) < 0 {
				return nil, rejectf("bad_hex", "heks %q nie leży na mapie", "hex %q is not on the map", a.Hex)
			}
			h.Hex, h.Status = a.Hex, OnMap
		}
		if a.Status != "" {
			if !slices.Contains([]string{Waiting, Eliminated, Interned, Prussia, OffMap, "on_map"}, a.Status) {
				return nil, rejectf("bad_status", "status %q", "status %q", a.Status)
			}
			h.Status = a.Status
			if a.Status == "on_map" {
				h.Status = OnMap
			}
		}
		return []Event{{Type: "adjust", Unit: h.ID, Hex: h.Hex, Text: textf("Sędzia poprawia %s: %s", "The referee corrects %s: %s", h.Name, a.Note)}}, nil
	}
	return nil, rejectf("unknown_unit", "nie ma jednostki %q", "no unit %q", a.Unit)
}

// checkStacking refuses more than four combat units of a side on h (1.2).
func (s *State) checkStacking(h Hex) error {
	n := map[string]int{}
	for _, u := range s.Units {
		if u.Status == OnMap && u.Hex == h {
			n[u.Side]++
		}
	}
	for side, k := range n {
		if k > StackLimit {
			return rejectf("overstacked", "%s: %d jednostek bojowych na heksie, limit %d (1.2)", "%s: %d combat units on the hex, the limit is %d (1.2)", h, k, StackLimit)
		}
		if len(n) > 1 {
			return rejectf("enemy_occupied", "%s: heks zajmuje wróg", "%s: the enemy holds the hex", h)
		}
		_ = side
	}
	return nil
}
