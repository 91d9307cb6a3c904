package skirmish

import (
	"slices"

	"github.com/sztab/sztab/rules"
)

func (s *State) selection() *Selection {
	if s.Selection == nil {
		s.Selection = &Selection{}
	}
	return s.Selection
}

// settleSelection drops what an accepted action used up: a shot declared
// or called off uses the shooter, a discard the armed key, a move the jumps,
// and the end of a phase all of it.
func (s *State) settleSelection(a Action) {
	if s.Selection == nil {
		return
	}
	switch a.(type) {
	case EndPhase, EndGame:
		s.Selection = nil
		return
	case DeclareShot, CancelShot:
		s.Selection.Shooter, s.Selection.Weapon = "", ""
	case DiscardOrder:
		s.Selection.Discard = false
	case Move:
		s.Selection.Jumps, s.Selection.NotJumped = nil, nil
	case Ruling:
		// A ruled shot used the shooter; a ruled move its jumps (cleared
		// in ruleOnCall, since a ruled jump adds to them).
		s.Selection.Shooter, s.Selection.Weapon = "", ""
	}
	if s.Phase != PhaseMovement {
		s.Selection.Jumps, s.Selection.NotJumped = nil, nil
	}
	if s.Selection.Shooter == "" && !s.Selection.Discard && len(s.Selection.Jumps) == 0 && len(s.Selection.NotJumped) == 0 {
		s.Selection = nil
	}
}

func (s *State) selectShooter(a SelectShooter) ([]Event, error) {
	if a.Unit == "" {
		s.Selection = nil
		return []Event{{Type: "selection_cleared", Text: rules.Textf("wybór anulowany", "selection cleared")}}, nil
	}
	if s.Phase != PhaseShooting {
		return nil, rules.Reject("not_now", "strzelca wybiera się w fazie strzału", "the shooter is picked in the shooting phase")
	}
	if s.Shot != nil {
		return nil, rules.Reject("shot_in_progress", "najpierw dokończ strzał", "finish the shot in progress first")
	}
	u, err := s.ownUnit(a.Unit)
	if err != nil {
		return nil, err
	}
	if a.Weapon != "" {
		if _, ok := u.Weapon(a.Weapon); !ok {
			return nil, rules.Reject("unknown_weapon", "%[1]s nie ma broni %[2]s", "%[1]s has no weapon %[2]s", u.Name, a.Weapon)
		}
	}
	sel := s.selection()
	sel.Shooter, sel.Weapon = u.ID, a.Weapon
	return []Event{{Type: "shooter_selected", Unit: u.ID,
		Text: rules.Textf("strzela: %s (%s); zeskanuj cel", "shooting: %s (%s); scan the target", u.Name, a.Weapon)}}, nil
}

func (s *State) armDiscard() ([]Event, error) {
	if s.Phase != PhaseOrders {
		return nil, rules.Reject("not_now", "karty rozkazów odrzuca się w fazie rozkazów", "order cards are put away in the orders phase")
	}
	s.selection().Discard = true
	return []Event{{Type: "discard_armed", Seat: s.ActiveSeat(),
		Text: rules.Textf("zeskanuj kartę rozkazu do odrzucenia", "scan the order card to put away")}}, nil
}

func (s *State) noteJumps(a NoteJumps) ([]Event, error) {
	if s.Phase != PhaseMovement {
		return nil, rules.Reject("not_now", "skoki liczą się w fazie ruchu", "jumps count in the movement phase")
	}
	if len(a.Models)+len(a.Unsure) == 0 {
		return nil, rules.Reject("bad_move", "skok bez modeli", "a jump with no models")
	}
	sel := s.selection()
	var added []string
	for i, id := range append(slices.Clone(a.Models), a.Unsure...) {
		u := s.unitOfModel(id)
		if u == nil || !u.Deployed {
			return nil, rules.Reject("unknown_model", "nie ma na stole modelu %q", "no model %q on the table", id)
		}
		if u.Owner != s.ActiveSeat() {
			return nil, rules.Reject("not_your_turn", "%s należy do %s; teraz tura gracza %s", "%s belongs to %s; it is %s's turn",
				id, u.Name, s.Players[s.Active].Name)
		}
		if slices.Contains(sel.Jumps, id) || slices.Contains(sel.NotJumped, id) {
			continue
		}
		if i >= len(a.Models) {
			// The camera could not tell: the players or the referee rule.
			key := "jump:" + id
			yes, ok := s.ruled(key)
			if !ok {
				return nil, &needCall{Call{Key: key, Question: rules.Textf("czy %s przeskoczył przeszkodę? (kamera: za blisko, by rozstrzygnąć)",
					"did %s jump an obstacle? (the camera: too close to call)", id)}}
			}
			if !yes {
				sel.NotJumped = append(sel.NotJumped, id)
				continue
			}
		}
		sel.Jumps = append(sel.Jumps, id)
		added = append(added, id)
	}
	if len(added) == 0 {
		return nil, nil
	}
	return []Event{{Type: "jump_seen", Models: added,
		Text: rules.Textf("skok przez przeszkodę: %v", "jumped an obstacle: %v", added)}}, nil
}

// LegalActions lists the action types the engine may take in s. A listed
// action can still be refused for what it carries (a model out of range, a
// card not in hand); one not listed is always refused. Binders ask this
// instead of trying an action to see whether it applies.
func LegalActions(s State) []string {
	if s.Phase == "" {
		return []string{"start_game"}
	}
	if s.Result != nil {
		return nil
	}
	if s.Call != nil {
		return []string{"ruling", "end_game"}
	}
	var out []string
	switch s.Phase {
	case PhaseSetup:
		out = []string{"submit_army", "choose_scenario", "roll_off"}
	case PhaseObjectives:
		out = []string{"place_objective"}
	case PhaseDeployment:
		out = []string{"deploy"}
	case PhaseOrders:
		out = []string{"draw_orders", "discard_order", "arm_discard", "claim_order", "end_phase"}
	case PhaseMovement:
		out = []string{"move", "note_jumps", "unit_moved", "claim_order", "end_phase"}
	case PhaseShooting:
		if s.Shot != nil {
			out = []string{"dice", "undo_die", "cancel_shot"}
			if s.Shot.Stage == StageRuling {
				out = []string{"ruling", "cancel_shot"}
			}
		} else {
			out = []string{"select_shooter", "declare_shot", "unit_moved", "claim_order", "end_phase"}
		}
	}
	return append(out, "end_game")
}

// Legal reports whether actions of type name may be taken in s.
func Legal(s State, name string) bool { return slices.Contains(LegalActions(s), name) }
