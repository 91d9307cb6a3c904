package skirmish

import (
	"fmt"
	"strings"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// Event is something that happened in the game, for the journal, the
// displays and the players.
type Event struct {
	Type      string      `json:"type"`
	Text      rules.Text  `json:"text"`
	Unit      string      `json:"unit,omitempty"`
	Target    string      `json:"target,omitempty"`
	Stage     string      `json:"stage,omitempty"`
	Need      int         `json:"need,omitempty"`
	Threshold int         `json:"threshold,omitempty"`
	Rolls     []dice.Roll `json:"rolls,omitempty"`
	Successes *int        `json:"successes,omitempty"`
	Models    []string    `json:"models,omitempty"`
	Shot      *ShotResult `json:"shot,omitempty"`
}

// Apply plays action a on state s. It returns the next state and what
// happened, or a *rules.Rejection and s itself: nothing is half-applied.
func Apply(s State, a Action) (State, []Event, error) {
	next := s.clone()
	var evs []Event
	var err error
	switch a := a.(type) {
	case StartGame:
		evs, err = next.start(a)
	case EndPhase:
		evs, err = next.endPhase()
	case UnitMoved:
		evs, err = next.unitMoved(a)
	case DeclareShot:
		evs, err = next.declareShot(a)
	case Dice:
		evs, err = next.enterDice(a)
	case UndoDie:
		evs, err = next.undoDie()
	case Ruling:
		evs, err = next.ruling(a)
	case CancelShot:
		evs, err = next.cancelShot()
	default:
		err = rules.Reject("unknown_action", "nieznana akcja %T", "unknown action %T", a)
	}
	if err != nil {
		return s, nil, err
	}
	return next, evs, nil
}

func (s *State) started() error {
	if s.Phase == "" {
		return rules.Reject("not_started", "gra się jeszcze nie zaczęła", "the game has not started")
	}
	return nil
}

func (s *State) start(a StartGame) ([]Event, error) {
	if s.Phase != "" {
		return nil, rules.Reject("already_started", "gra już trwa", "the game is already running")
	}
	if len(a.Players) < 2 {
		return nil, rules.Reject("bad_setup", "potrzeba co najmniej 2 graczy", "at least 2 players are needed")
	}
	if a.Options.Allocation == "" {
		a.Options.Allocation = Spread
	}
	if a.Options.Allocation != Spread && a.Options.Allocation != Focus {
		return nil, rules.Reject("bad_setup", "nieznany przydział ran %q", "unknown wound allocation %q", a.Options.Allocation)
	}
	s.Players, s.Units, s.Options = a.Players, a.Units, a.Options
	s.Round, s.Phase, s.Active = 1, PhaseMovement, 0
	return []Event{{
		Type: "game_started",
		Text: rules.Textf("gra rozpoczęta, runda 1, ruch: %s", "game started, round 1, %s to move", s.Players[0].Name),
	}}, nil
}

func (s *State) endPhase() ([]Event, error) {
	if err := s.started(); err != nil {
		return nil, err
	}
	if s.Shot != nil {
		return nil, rules.Reject("shot_in_progress", "najpierw dokończ strzał", "finish the shot in progress first")
	}
	if s.Phase == PhaseMovement {
		s.Phase = PhaseShooting
		return []Event{{Type: "phase", Stage: string(s.Phase),
			Text: rules.Textf("%s: faza strzału", "%s: shooting phase", s.Players[s.Active].Name)}}, nil
	}
	s.Phase = PhaseMovement
	s.Active++
	if s.Active == len(s.Players) {
		s.Active = 0
		s.Round++
		for i := range s.Units {
			u := &s.Units[i]
			if u.MovedThisRound {
				u.StationaryRounds = 0
			} else {
				u.StationaryRounds++
			}
			u.MovedThisRound = false
		}
	}
	for i := range s.Units {
		if s.Units[i].Owner == s.ActiveSeat() {
			s.Units[i].ShotThisTurn = false
		}
	}
	return []Event{{Type: "phase", Stage: string(s.Phase),
		Text: rules.Textf("runda %d, %s: faza ruchu", "round %d, %s: movement phase", s.Round, s.Players[s.Active].Name)}}, nil
}

func (s *State) ownUnit(id string) (*Unit, error) {
	u := s.unit(id)
	if u == nil {
		return nil, rules.Reject("unknown_unit", "nie ma oddziału %q", "no unit %q", id)
	}
	if u.Owner != s.ActiveSeat() {
		return nil, rules.Reject("not_your_turn", "%s: teraz tura gracza %s", "%s: it is %s's turn", u.Name, s.Players[s.Active].Name)
	}
	return u, nil
}

func (s *State) unitMoved(a UnitMoved) ([]Event, error) {
	if err := s.started(); err != nil {
		return nil, err
	}
	if s.Phase != PhaseMovement {
		return nil, rules.Reject("wrong_phase", "ruch tylko w fazie ruchu", "units move only in the movement phase")
	}
	u, err := s.ownUnit(a.Unit)
	if err != nil {
		return nil, err
	}
	u.MovedThisRound, u.StationaryRounds = true, 0
	return []Event{{Type: "unit_moved", Unit: u.ID, Text: rules.Textf("%s wykonał ruch", "%s moved", u.Name)}}, nil
}

// coverFor decides the cover a target unit gets: it counts only when more
// than half of the unit's models are behind it ("ponad połowa oddziału musi
// znajdować się za przeszkodą"). When more than half is behind cover but not
// more than half behind heavy cover, the unit gets light cover: the rulebook
// does not cover mixed cover, and this is the reading that never gives more
// than the majority of the unit has.
func coverFor(alive int, in InCover) string {
	switch {
	case 2*in.Heavy > alive:
		return CoverHeavy
	case 2*(in.Heavy+in.Light) > alive:
		return CoverLight
	}
	return CoverNone
}

func (s *State) declareShot(a DeclareShot) ([]Event, error) {
	if err := s.started(); err != nil {
		return nil, err
	}
	if s.Phase != PhaseShooting {
		return nil, rules.Reject("wrong_phase", "strzał tylko w fazie strzału (teraz: faza ruchu)", "shooting only in the shooting phase (now: movement)")
	}
	if s.Shot != nil {
		return nil, rules.Reject("shot_in_progress", "najpierw dokończ strzał %s", "finish the shot by %s first", s.Shot.Shooter)
	}
	shooter, err := s.ownUnit(a.Shooter)
	if err != nil {
		return nil, err
	}
	target := s.unit(a.Target)
	if target == nil {
		return nil, rules.Reject("unknown_unit", "nie ma oddziału %q", "no unit %q", a.Target)
	}
	w := shooter.Weapon
	switch {
	case target.Owner == shooter.Owner:
		return nil, rules.Reject("friendly_target", "%s: %s to własny oddział", "%s: %s is a friendly unit", shooter.Name, target.Name)
	case shooter.Alive() == 0:
		return nil, rules.Reject("no_models", "%s nie ma już modeli", "%s has no models left", shooter.Name)
	case target.Alive() == 0:
		return nil, rules.Reject("no_models", "%s nie ma już modeli", "%s has no models left", target.Name)
	case shooter.ShotThisTurn:
		return nil, rules.Reject("already_shot", "%s już strzelał w tej turze", "%s has already shot this turn", shooter.Name)
	case w.Template != "":
		return nil, rules.Reject("needs_template", "%s: trafienie wyznacza pomarańczowy znacznik", "%s: the orange marker decides the hit", w.Name)
	case a.Distance.Kroki < 0 || a.Distance.Uncertainty < 0:
		return nil, rules.Reject("bad_measurement", "błędny pomiar odległości %v", "bad distance measurement %v", a.Distance)
	case a.InCover.Light < 0 || a.InCover.Heavy < 0 || a.InCover.Light+a.InCover.Heavy > target.Alive():
		return nil, rules.Reject("bad_measurement", "za osłoną %d modeli, a oddział ma %d", "%d models in cover but the unit has %d",
			a.InCover.Light+a.InCover.Heavy, target.Alive())
	case a.Distance.Kroki-a.Distance.Uncertainty > float64(w.Range):
		return nil, rules.Reject("out_of_range", "%s: cel %s kroków, zasięg %d", "%s: target %s kroki away, range %d",
			w.Name, fmtKroki(a.Distance), w.Range)
	}
	sh := &Shot{
		Shooter: shooter.ID, Target: target.ID, Weapon: w.Name,
		Distance: a.Distance, Cover: coverFor(target.Alive(), a.InCover),
		Attacks: shooter.Alive() * w.ShotsPerModel(shooter.StationaryRounds),
		HitOn:   w.Hit, WoundOn: w.Wound, D6Wounds: w.D6Wounds, SaveOn: target.Defence,
		Entered: []dice.Roll{},
	}
	switch sh.Cover {
	case CoverHeavy: // "ich statystyka celności spada o 1" and +1 to defence
		sh.HitOn = min(sh.HitOn+1, 7)
		sh.SaveOn = max(sh.SaveOn-1, 2)
	case CoverLight:
		sh.SaveOn = max(sh.SaveOn-1, 2)
	}
	s.Shot = sh
	cover := coverNames[sh.Cover]
	evs := []Event{{
		Type: "shot_declared", Unit: shooter.ID, Target: target.ID,
		Text: rules.Text{
			PL: fmt.Sprintf("%s (%s) strzela do %s: %s kroków, osłona: %s, %d kości, trafienie na %d+",
				shooter.Name, w.Name, target.Name, fmtKroki(a.Distance), cover.PL, sh.Attacks, sh.HitOn),
			EN: fmt.Sprintf("%s (%s) fires at %s: %s kroki, cover: %s, %d dice, hit on %d+",
				shooter.Name, w.Name, target.Name, fmtKroki(a.Distance), cover.EN, sh.Attacks, sh.HitOn),
		},
	}}
	if a.Distance.Kroki+a.Distance.Uncertainty > float64(w.Range) {
		sh.Stage = StageRuling
		evs = append(evs, Event{
			Type: "too_close_to_call", Unit: shooter.ID, Target: target.ID,
			Text: rules.Textf("%s: cel %s kroków, zasięg %d — za blisko granicy, by rozstrzygnąć pomiarem; rozstrzygnijcie",
				"%s: target %s kroki, range %d — too close to call by measurement; please rule",
				w.Name, fmtKroki(a.Distance), w.Range),
		})
		return evs, nil
	}
	return append(evs, s.openStage(StageHit, sh.Attacks)...), nil
}

func fmtKroki(m Measure) string {
	k := strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", m.Kroki), "0"), ".")
	if m.Uncertainty == 0 {
		return k
	}
	return fmt.Sprintf("%s±%.1f", k, m.Uncertainty)
}

var coverNames = map[string]rules.Text{
	CoverNone:  {PL: "brak", EN: "none"},
	CoverLight: {PL: "lekka", EN: "light"},
	CoverHeavy: {PL: "ciężka", EN: "heavy"},
}

var stageNames = map[string]rules.Text{
	StageHit:    {PL: "trafienie", EN: "to hit"},
	StageWound:  {PL: "rany", EN: "to wound"},
	StageDamage: {PL: "liczba ran (k6)", EN: "wounds (d6)"},
	StageSave:   {PL: "obrona", EN: "saves"},
}

func (s *State) openStage(stage string, need int) []Event {
	sh := s.Shot
	sh.Stage, sh.Need, sh.Entered = stage, need, []dice.Roll{}
	name := stageNames[stage]
	th := s.threshold(stage)
	text := rules.Textf("rzuć %d k6: %s", "roll %d d6: %s", need, "")
	text.PL += name.PL
	text.EN += name.EN
	if th > 0 {
		text.PL += fmt.Sprintf(" na %d+", th)
		text.EN += fmt.Sprintf(" on %d+", th)
	}
	return []Event{{Type: "roll_needed", Unit: sh.Shooter, Target: sh.Target, Stage: stage, Need: need, Threshold: th, Text: text}}
}

func (s *State) threshold(stage string) int {
	switch stage {
	case StageHit:
		return s.Shot.HitOn
	case StageWound:
		return s.Shot.WoundOn
	case StageSave:
		return s.Shot.SaveOn
	}
	return 0
}

func (s *State) enterDice(a Dice) ([]Event, error) {
	sh := s.Shot
	if sh == nil {
		return nil, rules.Reject("no_shot", "żaden strzał nie czeka na kości", "no shot is waiting for dice")
	}
	if sh.Stage == StageRuling {
		return nil, rules.Reject("awaiting_ruling", "pomiar czeka na rozstrzygnięcie", "the measurement is waiting for a ruling")
	}
	if len(a.Rolls) == 0 {
		return nil, rules.Reject("no_dice", "brak kości", "no dice given")
	}
	for _, r := range a.Rolls {
		if err := r.Validate(); err != nil {
			return nil, rules.Reject("bad_die", "kość pokazuje %d: k6 ma ścianki 1–6", "a die showing %d: a d6 has faces 1–6", r.Value)
		}
	}
	if have := len(sh.Entered) + len(a.Rolls); have > sh.Need {
		return nil, rules.Reject("too_many_dice", "%s: potrzeba %d kości, podano %d", "%s: %d dice needed, %d given",
			sh.Stage, sh.Need-len(sh.Entered), len(a.Rolls))
	}
	sh.Entered = append(sh.Entered, a.Rolls...)
	evs := []Event{{
		Type: "dice_entered", Stage: sh.Stage, Need: sh.Need, Rolls: a.Rolls,
	}}
	name := stageNames[sh.Stage]
	evs[0].Text = rules.Textf(name.PL+": %v (%d z %d)", name.EN+": %v (%d of %d)", dice.Values(a.Rolls), len(sh.Entered), sh.Need)
	if len(sh.Entered) == sh.Need {
		evs = append(evs, s.resolveStage()...)
	}
	return evs, nil
}

func count(rolls []dice.Roll, atLeast int) int {
	n := 0
	for _, r := range rolls {
		if r.Value >= atLeast {
			n++
		}
	}
	return n
}

func (s *State) resolveStage() []Event {
	sh := s.Shot
	rolls := sh.Entered
	th := s.threshold(sh.Stage)
	ev := Event{Type: "stage_resolved", Stage: sh.Stage, Threshold: th, Rolls: rolls}
	var succ int
	switch sh.Stage {
	case StageHit:
		sh.Rolls.Hit = rolls
		succ = count(rolls, th)
		sh.Hits = succ
		ev.Text = rules.Textf("trafienie na %d+: %v → %d trafień", "to hit on %d+: %v → %d hits", th, dice.Values(rolls), succ)
	case StageWound:
		sh.Rolls.Wound = rolls
		succ = count(rolls, th)
		sh.Packets = make([]int, succ)
		for i := range sh.Packets {
			sh.Packets[i] = 1
		}
		ev.Text = rules.Textf("rany na %d+: %v → %d ran", "to wound on %d+: %v → %d wounds", th, dice.Values(rolls), succ)
	case StageDamage:
		sh.Rolls.Damage = rolls
		sh.Packets = dice.Values(rolls)
		for _, p := range sh.Packets {
			succ += p
		}
		ev.Text = rules.Textf("k6 ran za każde trafienie: %v → %d ran", "d6 wounds per hit: %v → %d wounds", dice.Values(rolls), succ)
	case StageSave:
		sh.Rolls.Save = rolls
		succ = count(rolls, th)
		ev.Text = rules.Textf("obrona na %d+: %v → %d obronionych", "saves on %d+: %v → %d saved", th, dice.Values(rolls), succ)
	}
	ev.Successes = &succ
	evs := []Event{ev}
	switch sh.Stage {
	case StageHit:
		switch {
		case sh.Hits == 0:
			return append(evs, s.finishShot()...)
		case sh.D6Wounds:
			return append(evs, s.openStage(StageDamage, sh.Hits)...)
		}
		return append(evs, s.openStage(StageWound, sh.Hits)...)
	case StageWound, StageDamage:
		total := 0
		for _, p := range sh.Packets {
			total += p
		}
		if total == 0 || sh.SaveOn >= 7 {
			return append(evs, s.finishShot()...)
		}
		return append(evs, s.openStage(StageSave, total)...)
	}
	return append(evs, s.finishShot()...)
}

// finishShot applies the unsaved wounds. Each wounding hit is a packet; the
// saves are rolled per wound, in packet order. All unsaved wounds of one
// packet go to one model and what that model cannot take is lost: the
// rulebook gives d6 wounds per Panzerschreck, Panzerfaust or grenade hit
// (SPIS BRONI) without saying they spread, and a single hit felling a whole
// squad would not be one shot.
func (s *State) finishShot() []Event {
	sh := s.Shot
	target := s.unit(sh.Target)
	res := &ShotResult{
		Shooter: sh.Shooter, Target: sh.Target, Weapon: sh.Weapon, Cover: sh.Cover,
		Attacks: sh.Attacks, Hits: sh.Hits, Wounded: []string{}, Killed: []string{},
	}
	res.Rolls = append(append(append(append([]dice.Roll{}, sh.Rolls.Hit...), sh.Rolls.Wound...), sh.Rolls.Damage...), sh.Rolls.Save...)
	saves := sh.Rolls.Save
	hurt := map[string]bool{}
	for _, p := range sh.Packets {
		res.Wounds += p
		unsaved := p
		if sh.SaveOn < 7 {
			unsaved = p - count(saves[:p], sh.SaveOn)
			saves = saves[p:]
		}
		res.Unsaved += unsaved
		if unsaved > 0 {
			if m := pickModel(target, s.Options.Allocation); m != nil {
				m.Wounds += min(unsaved, m.Remaining())
				hurt[m.ID] = true
				if m.Remaining() == 0 {
					m.Removed = true
				}
			}
		}
	}
	res.Saved = res.Wounds - res.Unsaved
	for _, m := range target.Models {
		switch {
		case !hurt[m.ID]:
		case m.Removed:
			res.Killed = append(res.Killed, m.ID)
		default:
			res.Wounded = append(res.Wounded, m.ID)
		}
	}
	s.unit(sh.Shooter).ShotThisTurn = true
	s.Shot, s.LastShot = nil, res
	evs := []Event{{
		Type: "shot_resolved", Unit: res.Shooter, Target: res.Target, Shot: res,
		Text: rules.Textf("%s → %s: %d trafień, %d ran, %d obronionych, %d niezablokowanych: %d rannych, %d zabitych",
			"%s → %s: %d hits, %d wounds, %d saved, %d unsaved: %d wounded, %d killed",
			s.unit(sh.Shooter).Name, target.Name, res.Hits, res.Wounds, res.Saved, res.Unsaved, len(res.Wounded), len(res.Killed)),
	}}
	if len(res.Killed) > 0 {
		evs = append(evs, Event{
			Type: "remove_models", Unit: target.ID, Models: res.Killed,
			Text: rules.Textf("zdejmij ze stołu: %s", "take off the table: %s", strings.Join(res.Killed, ", ")),
		})
	}
	return evs
}

// pickModel chooses who takes the next packet: the living model with the
// most lives left under Spread, the fewest under Focus; ties go to the first
// in the unit's order, so the choice is reproducible.
func pickModel(u *Unit, policy Allocation) *Model {
	var best *Model
	for i := range u.Models {
		m := &u.Models[i]
		if m.Removed {
			continue
		}
		if best == nil ||
			(policy == Focus && m.Remaining() < best.Remaining()) ||
			(policy != Focus && m.Remaining() > best.Remaining()) {
			best = m
		}
	}
	return best
}

func (s *State) undoDie() ([]Event, error) {
	sh := s.Shot
	if sh == nil || sh.Stage == StageRuling || len(sh.Entered) == 0 {
		return nil, rules.Reject("nothing_to_undo", "nie ma kości do cofnięcia", "no die to take back")
	}
	last := sh.Entered[len(sh.Entered)-1]
	sh.Entered = sh.Entered[:len(sh.Entered)-1]
	return []Event{{Type: "die_undone", Stage: sh.Stage, Rolls: []dice.Roll{last},
		Text: rules.Textf("cofnięto kość %d", "took back a %d", last.Value)}}, nil
}

func (s *State) ruling(a Ruling) ([]Event, error) {
	sh := s.Shot
	if sh == nil || sh.Stage != StageRuling {
		return nil, rules.Reject("no_ruling_needed", "nic nie czeka na rozstrzygnięcie", "nothing is waiting for a ruling")
	}
	if !a.InRange {
		s.Shot = nil
		return []Event{{Type: "shot_cancelled", Unit: sh.Shooter, Target: sh.Target,
			Text: rules.Textf("rozstrzygnięcie (%s): cel poza zasięgiem, strzał odwołany", "ruling (%s): target out of range, shot called off", a.By)}}, nil
	}
	evs := []Event{{Type: "ruled_in_range", Unit: sh.Shooter, Target: sh.Target,
		Text: rules.Textf("rozstrzygnięcie (%s): cel w zasięgu", "ruling (%s): target in range", a.By)}}
	return append(evs, s.openStage(StageHit, sh.Attacks)...), nil
}

func (s *State) cancelShot() ([]Event, error) {
	sh := s.Shot
	if sh == nil {
		return nil, rules.Reject("no_shot", "nie ma strzału do odwołania", "no shot to call off")
	}
	if sh.Stage != StageRuling && sh.Stage != StageHit {
		return nil, rules.Reject("shot_under_way", "kości już rozstrzygnęły trafienia; strzału nie można odwołać", "hits are already rolled; the shot cannot be called off")
	}
	s.Shot = nil
	return []Event{{Type: "shot_cancelled", Unit: sh.Shooter, Target: sh.Target,
		Text: rules.Textf("strzał odwołany", "shot called off")}}, nil
}
