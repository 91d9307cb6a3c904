package skirmish

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// EventTooCloseToCall is the event of a measurement within its uncertainty
// of a limit: not decided, the players or the referee rule. It asks for a
// person's attention (the game's spec declares it so).
const EventTooCloseToCall = "too_close_to_call"

// Event is something that happened in the game, for the journal, the
// displays and the players. Events are public: they never carry an army
// list before deployment or a card in a hand.
type Event struct {
	Type      string      `json:"type"`
	Text      rules.Text  `json:"text"`
	Seat      int         `json:"seat,omitempty"`
	Unit      string      `json:"unit,omitempty"`
	Target    string      `json:"target,omitempty"`
	Stage     string      `json:"stage,omitempty"`
	Need      int         `json:"need,omitempty"`
	Threshold int         `json:"threshold,omitempty"`
	Rolls     []dice.Roll `json:"rolls,omitempty"`
	Successes *int        `json:"successes,omitempty"`
	Models    []string    `json:"models,omitempty"`
	Shot      *ShotResult `json:"shot,omitempty"`
	Call      *Call       `json:"call,omitempty"`
	Result    *Result     `json:"result,omitempty"`
}

// needCall is returned inside the engine when a measurement is too close to
// call: the action waits for a Ruling.
type needCall struct{ call Call }

func (n *needCall) Error() string { return "skirmish: too close to call: " + n.call.Key }

// Apply plays action a on state s. It returns the next state and what
// happened, or a *rules.Rejection and s itself: nothing is half-applied. An
// action whose measurement is too close to call is held in State.Call until
// a Ruling settles it.
func Apply(s State, a Action) (State, []Event, error) {
	return applyWith(s, a, nil)
}

// Allowable are the rejection codes a referee may let stand for one action
// (rules.Waiver, "flag but allow"): a target or marker out of the
// weapon's range, a second shot of one weapon in a turn, a move longer than
// the model's allowance, units deployed too close to each other or outside
// the deployment zone.
// Every other refusal (malformed input, an unknown card or unit, the wrong
// phase) stands whatever the waiver says.
var Allowable = []string{"out_of_range", "already_shot", "move_too_long", "too_close", "deploy_zone"}

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
	var nc *needCall
	if errors.As(err, &nc) {
		held := s.clone()
		if mv, ok := a.(Move); ok {
			// After the ruling the move is taken and the phase stays open:
			// the players end it when they are ready.
			mv.EndPhase = false
			a = mv
		}
		body, encErr := EncodeAction(a)
		if encErr != nil {
			return s, nil, encErr
		}
		nc.call.Action = body
		held.Call = &nc.call
		return held, []Event{callEvent(&nc.call)}, nil
	}
	if err != nil {
		return s, nil, err
	}
	next.settleSelection(a)
	evs = append(evs, next.afterAction()...)
	return next, evs, nil
}

func callEvent(c *Call) Event {
	return Event{Type: EventTooCloseToCall, Call: c,
		Text: rules.Text{PL: c.Question.PL + " — pomiar za blisko granicy; rozstrzygnijcie",
			EN: c.Question.EN + " — the measurement is too close to call; please rule"}}
}

func (s *State) apply(a Action) ([]Event, error) {
	if _, ok := a.(StartGame); !ok && s.Phase == "" {
		return nil, rules.Reject("not_started", "gra się jeszcze nie zaczęła", "the game has not started")
	}
	if s.Result != nil {
		return nil, rules.Reject("game_over", "gra się skończyła: %[1]s", "the game is over: %[2]s", s.Result.Text.PL, s.Result.Text.EN)
	}
	if s.Call != nil {
		switch a.(type) {
		case Ruling, EndGame:
		default:
			return nil, rules.Reject("awaiting_ruling", "najpierw rozstrzygnijcie: %[1]s", "rule on this first: %[2]s", s.Call.Question.PL, s.Call.Question.EN)
		}
	}
	switch a := a.(type) {
	case StartGame:
		return s.start(a)
	case SubmitArmy:
		return s.submitArmy(a)
	case ChooseScenario:
		return s.chooseScenario(a)
	case RollOffDice:
		return s.rollOff(a)
	case PlaceObjective:
		return s.placeObjective(a)
	case Deploy:
		return s.deploy(a)
	case Move:
		return s.move(a)
	case UnitMoved:
		return s.unitMoved(a)
	case DrawOrders:
		return s.drawOrders(a)
	case DiscardOrder:
		return s.discardOrder(a)
	case ClaimOrder:
		return s.claimOrder(a)
	case EndPhase:
		return s.endPhase()
	case DeclareShot:
		return s.declareShot(a)
	case Dice:
		return s.enterDice(a)
	case UndoDie:
		return s.undoDie()
	case Ruling:
		return s.ruling(a)
	case CancelShot:
		return s.cancelShot()
	case EndGame:
		return s.endGame(a)
	case SelectShooter:
		return s.selectShooter(a)
	case ArmDiscard:
		return s.armDiscard()
	case NoteJumps:
		return s.noteJumps(a)
	}
	return nil, rules.Reject("unknown_action", "nieznana akcja %T", "unknown action %T", a)
}

func (s *State) start(a StartGame) ([]Event, error) {
	if s.Phase != "" {
		return nil, rules.Reject("already_started", "gra już trwa", "the game is already running")
	}
	cat, err := NewCatalogue(a.Data)
	if err != nil {
		return nil, rules.Reject("bad_setup", "błędne dane gry: %v", "bad game data: %v", err)
	}
	if len(cat.Data.Weapons) == 0 || len(cat.Data.Units) == 0 {
		return nil, rules.Reject("bad_setup", "brak danych gry (broń, karty jednostek)", "no game data (weapons, unit cards)")
	}
	if n := len(a.Players); n < 2 || n > 20 {
		return nil, rules.Reject("bad_setup", "graczy: %d; gra jest dla 2–20 graczy", "%d players; the game is for 2 to 20", n)
	}
	o := a.Options
	o.defaults()
	if err := checkOptions(o); err != nil {
		return nil, err
	}
	s.data, s.Options = cat, o
	s.Players = append([]Player(nil), a.Players...)
	edges := map[string]string{}
	defaultEdges := []string{EdgeSouth, EdgeNorth}
	seen := map[int]bool{}
	for i := range s.Players {
		p := &s.Players[i]
		switch {
		case p.Seat < 1:
			return nil, rules.Reject("bad_setup", "miejsce %d: miejsca numerujemy od 1", "seat %d: seats are numbered from 1", p.Seat)
		case seen[p.Seat]:
			return nil, rules.Reject("bad_setup", "miejsce %d podane dwa razy", "seat %d listed twice", p.Seat)
		}
		seen[p.Seat] = true
		if _, ok := cat.Factions[p.Faction]; !ok {
			return nil, rules.Reject("bad_setup", "gracz %s: nieznana frakcja %q", "player %s: unknown faction %q", p.Name, p.Faction)
		}
		if p.Edge == "" {
			if e, ok := edges[p.Faction]; ok {
				p.Edge = e
			} else {
				p.Edge = defaultEdges[len(edges)%2]
			}
		}
		switch p.Edge {
		case EdgeSouth, EdgeNorth, EdgeWest, EdgeEast:
		default:
			return nil, rules.Reject("bad_setup", "gracz %s: krawędź %q (south, north, west, east)", "player %s: edge %q (south, north, west, east)", p.Name, p.Edge)
		}
		if _, ok := edges[p.Faction]; !ok {
			edges[p.Faction] = p.Edge
		}
		s.Seats = append(s.Seats, PlayerState{Seat: p.Seat})
		if sd := s.side(p.Faction); sd != nil {
			sd.Seats = append(sd.Seats, p.Seat)
		} else {
			s.Sides = append(s.Sides, Side{Faction: p.Faction, Seats: []int{p.Seat}})
		}
	}
	if len(s.Sides) < 2 {
		return nil, rules.Reject("bad_setup", "wszyscy gracze są w jednej frakcji", "every player is in the same faction")
	}
	s.Units = []Unit{}
	s.Round, s.Phase, s.Active = 0, PhaseSetup, 0
	var names []string
	for _, p := range s.Players {
		names = append(names, fmt.Sprintf("%s (%s)", p.Name, p.Faction))
	}
	evs := []Event{{Type: "game_started",
		Text: rules.Textf("gra rozpoczęta: %s; limit armii %d pkt", "game started: %s; army limit %d pts", strings.Join(names, ", "), o.Points)}}
	var steps []Action
	for _, sa := range a.Armies {
		steps = append(steps, sa)
	}
	if a.Scenario != nil {
		steps = append(steps, *a.Scenario)
	}
	if len(a.RollOff) > 0 {
		steps = append(steps, RollOffDice{Rolls: a.RollOff})
	}
	for _, st := range steps {
		more, err := s.apply(st)
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	}
	return evs, nil
}

func checkOptions(o Options) error {
	switch {
	case o.Allocation != Spread && o.Allocation != Focus:
		return rules.Reject("bad_setup", "nieznany przydział ran %q", "unknown wound allocation %q", o.Allocation)
	case o.MoveLoss != MoveLossNoShot && o.MoveLoss != MoveLossHalf && o.MoveLoss != MoveLossBoth:
		return rules.Reject("bad_setup", "nieznana strata ruchu %q (no_shot, half_move, both)", "unknown move_loss %q (no_shot, half_move, both)", o.MoveLoss)
	case o.Points < 0, o.Table.Width <= 0, o.Table.Depth <= 0, o.Base <= 0, o.DeployDepth <= 0,
		o.Coherency <= 0, o.UnitGap < 0, o.ObjectiveRadius <= 0, o.HandSize < 1, o.MaxRounds < 0:
		return rules.Reject("bad_setup", "błędne opcje gry %+v", "bad game options %+v", o)
	}
	return nil
}

func (s *State) inSetup(what rules.Text) error {
	if s.Phase != PhaseSetup {
		return rules.Reject("wrong_phase", "%[1]s: tylko przed rozpoczęciem gry (teraz: %[2]s)", "%[3]s: only before the game begins (now: %[4]s)",
			what.PL, s.Phase.Name().PL, what.EN, s.Phase.Name().EN)
	}
	return nil
}

var phaseNames = map[Phase]rules.Text{
	PhaseSetup:      {PL: "przygotowanie", EN: "setup"},
	PhaseObjectives: {PL: "rozmieszczanie punktów", EN: "placing objectives"},
	PhaseDeployment: {PL: "rozmieszczenie", EN: "deployment"},
	PhaseOrders:     {PL: "faza rozkazów", EN: "orders phase"},
	PhaseMovement:   {PL: "faza ruchu", EN: "movement phase"},
	PhaseShooting:   {PL: "faza strzału", EN: "shooting phase"},
	PhaseOver:       {PL: "koniec gry", EN: "game over"},
}

// Name is the phase's name for players.
func (p Phase) Name() rules.Text { return phaseNames[p] }

func (s *State) submitArmy(a SubmitArmy) ([]Event, error) {
	if err := s.inSetup(rules.Text{PL: "lista armii", EN: "army list"}); err != nil {
		return nil, err
	}
	_, p := s.player(a.Seat)
	if p == nil {
		return nil, rules.Reject("unknown_seat", "nie ma gracza na miejscu %d", "no player in seat %d", a.Seat)
	}
	list := a.Army
	if list.Faction == "" {
		list.Faction = p.Faction
	}
	if list.Faction != p.Faction {
		return nil, rules.Reject("illegal_army", "%s gra frakcją %s, a lista jest dla %s", "%s plays %s but the list is for %s", p.Name, p.Faction, list.Faction)
	}
	r := s.data.CheckArmy(list, s.Options.Points)
	if !r.Legal() {
		why := reasons(r.Violations)
		return nil, rules.Reject("illegal_army", "lista armii gracza %[1]s: %[2]s", "%[3]s's army list: %[4]s", p.Name, why.PL, p.Name, why.EN)
	}
	for _, u := range s.Units {
		if u.Owner == a.Seat {
			continue
		}
		for _, spec := range list.Units {
			if spec.ID == u.ID {
				return nil, rules.Reject("duplicate_unit", "identyfikator oddziału %q jest już zajęty; zmień go", "unit id %q is already taken; rename it", spec.ID)
			}
		}
	}
	kept := s.Units[:0]
	for _, u := range s.Units {
		if u.Owner != a.Seat {
			kept = append(kept, u)
		}
	}
	s.Units = append(kept, s.data.buildUnits(a.Seat, list, r, s.Options)...)
	ps := s.seatState(a.Seat)
	ps.ArmyReady, ps.ArmyPoints = true, r.Cost
	evs := []Event{{Type: "army_submitted", Seat: a.Seat,
		Text: rules.Textf("%s oddaje listę armii (ukrytą do rozmieszczenia)", "%s hands in an army list (hidden until deployment)", p.Name)}}
	return append(evs, s.maybeEndSetup()...), nil
}

var scenarioNames = map[int]rules.Text{
	ScenarioAttrition:    {PL: "Wyniszczenie", EN: "Attrition"},
	ScenarioHold:         {PL: "Zdobądź i utrzymaj", EN: "Take and hold"},
	ScenarioOrders:       {PL: "Punkty zwycięstwa", EN: "Victory points"},
	ScenarioAllOrNothing: {PL: "Wszystko albo nic", EN: "All or nothing"},
}

func (s *State) chooseScenario(a ChooseScenario) ([]Event, error) {
	if err := s.inSetup(rules.Text{PL: "wybór scenariusza", EN: "choice of scenario"}); err != nil {
		return nil, err
	}
	name, ok := scenarioNames[a.Number]
	if !ok {
		return nil, rules.Reject("bad_scenario", "scenariusz %d: są 1–4", "scenario %d: there are 1 to 4", a.Number)
	}
	if a.PointsToWin < 0 || a.OrderPointsToWin < 0 || a.Objectives < 0 {
		return nil, rules.Reject("bad_scenario", "ujemne liczby w scenariuszu", "negative numbers in the scenario")
	}
	sc := &Scenario{Number: a.Number, Name: name}
	if sc.holds() {
		sc.PointsToWin = cmpOr(a.PointsToWin, 10)
		sc.Objectives = cmpOr(a.Objectives, 4)
	}
	if sc.orders() {
		sc.OrderPointsToWin = cmpOr(a.OrderPointsToWin, 10)
		for _, p := range s.Players {
			if len(s.data.Deck(p.Faction)) == 0 {
				return nil, rules.Reject("bad_scenario", "frakcja %s nie ma talii kart rozkazów", "faction %s has no order deck", p.Faction)
			}
		}
	}
	s.Scenario = sc
	text := rules.Textf("scenariusz %d: %s", "scenario %d: %s", a.Number, name.PL)
	text.EN = fmt.Sprintf("scenario %d: %s", a.Number, name.EN)
	if sc.holds() {
		text.PL += fmt.Sprintf("; %s, do zwycięstwa %d pkt", plN(sc.Objectives, "punkt celu", "punkty celu", "punktów celu"), sc.PointsToWin)
		text.EN += fmt.Sprintf("; %d objectives, %d points to win", sc.Objectives, sc.PointsToWin)
	}
	if sc.orders() {
		text.PL += fmt.Sprintf("; karty rozkazów do %d pkt", sc.OrderPointsToWin)
		text.EN += fmt.Sprintf("; order cards to %d points", sc.OrderPointsToWin)
	}
	evs := []Event{{Type: "scenario_chosen", Text: text}}
	return append(evs, s.maybeEndSetup()...), nil
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func (s *State) rollOff(a RollOffDice) ([]Event, error) {
	if err := s.inSetup(rules.Text{PL: "rzut o pierwszeństwo", EN: "first-player roll"}); err != nil {
		return nil, err
	}
	if s.FirstSeat != 0 {
		return nil, rules.Reject("already_rolled", "pierwszy gracz jest już wybrany", "the first player is already decided")
	}
	want := s.Players
	if s.RollOff != nil && len(s.RollOff.Tied) > 0 {
		want = nil
		for _, seat := range s.RollOff.Tied {
			_, p := s.player(seat)
			want = append(want, *p)
		}
	}
	got := map[int]dice.Roll{}
	for _, r := range a.Rolls {
		if err := r.Roll.Validate(); err != nil {
			return nil, rules.Reject("bad_die", "kość pokazuje %d: k6 ma ścianki 1–6", "a die showing %d: a d6 has faces 1–6", r.Value)
		}
		if _, dup := got[r.Seat]; dup {
			return nil, rules.Reject("bad_roll_off", "miejsce %d rzuca dwa razy", "seat %d rolls twice", r.Seat)
		}
		got[r.Seat] = r.Roll
	}
	var seats []string
	for _, p := range want {
		seats = append(seats, fmt.Sprint(p.Seat))
	}
	if len(got) != len(want) {
		return nil, rules.Reject("bad_roll_off", "rzucają miejsca %s, po jednej kości", "seats %s roll, one die each", strings.Join(seats, ", "))
	}
	top := 0
	for _, p := range want {
		r, ok := got[p.Seat]
		if !ok {
			return nil, rules.Reject("bad_roll_off", "rzucają miejsca %s, po jednej kości", "seats %s roll, one die each", strings.Join(seats, ", "))
		}
		top = max(top, r.Value)
	}
	if s.RollOff == nil {
		s.RollOff = &RollOff{}
	}
	var round []SeatRoll
	var tied []int
	var parts []string
	for _, p := range want {
		r := got[p.Seat]
		round = append(round, SeatRoll{Seat: p.Seat, Roll: r})
		parts = append(parts, fmt.Sprintf("%s %d", p.Name, r.Value))
		if r.Value == top {
			tied = append(tied, p.Seat)
		}
	}
	s.RollOff.Rounds = append(s.RollOff.Rounds, round)
	var rolls []dice.Roll
	for _, r := range round {
		rolls = append(rolls, r.Roll)
	}
	if len(tied) > 1 {
		s.RollOff.Tied = tied
		return []Event{{Type: "roll_off_tied", Rolls: rolls,
			Text: rules.Textf("rzut o pierwszeństwo: %s — remis, rzucają jeszcze raz", "first-player roll: %s — a tie, roll again", strings.Join(parts, ", "))}}, nil
	}
	s.RollOff.Tied = nil
	s.FirstSeat = tied[0]
	s.Active = s.firstIndex()
	_, p := s.player(s.FirstSeat)
	evs := []Event{{Type: "first_player", Seat: s.FirstSeat, Rolls: rolls,
		Text: rules.Textf("rzut o pierwszeństwo: %s — zaczyna %s", "first-player roll: %s — %s goes first", strings.Join(parts, ", "), p.Name)}}
	return append(evs, s.maybeEndSetup()...), nil
}

// maybeEndSetup moves on once lists, scenario and first player are all
// settled.
func (s *State) maybeEndSetup() []Event {
	if s.Phase != PhaseSetup || s.Scenario == nil || s.FirstSeat == 0 {
		return nil
	}
	for _, ps := range s.Seats {
		if !ps.ArmyReady {
			return nil
		}
	}
	s.Active = s.firstIndex()
	if s.Scenario.holds() {
		s.Phase = PhaseObjectives
		return []Event{{Type: "phase", Stage: string(s.Phase), Seat: s.ActiveSeat(),
			Text: rules.Textf("punkty celu: gracze kładą na zmianę %[3]s; zaczyna %[2]s", "objectives: the players place %[1]d markers in turn; %[2]s first",
				s.Scenario.Objectives, s.Players[s.Active].Name, plN(s.Scenario.Objectives, "znacznik", "znaczniki", "znaczników"))}}
	}
	return s.startDeployment()
}

func (s *State) startDeployment() []Event {
	s.Phase = PhaseDeployment
	s.Active = s.firstIndex()
	return []Event{{Type: "phase", Stage: string(s.Phase), Seat: s.ActiveSeat(),
		Text: rules.Textf("rozmieszczenie: oddziały po kolei, do %s kroków od własnej krawędzi; zaczyna %s",
			"deployment: one unit at a time, within %s kroki of your own edge; %s first", fmtNum(s.Options.DeployDepth), s.Players[s.Active].Name)}}
}

func (s *State) placeObjective(a PlaceObjective) ([]Event, error) {
	if s.Phase != PhaseObjectives {
		return nil, rules.Reject("wrong_phase", "punkty celu kładzie się przed rozmieszczeniem w scenariuszach 2 i 4 (teraz: %[1]s)",
			"objectives are placed before deployment in scenarios 2 and 4 (now: %[2]s)", s.Phase.Name().PL, s.Phase.Name().EN)
	}
	if a.Seat != s.ActiveSeat() {
		return nil, rules.Reject("not_your_turn", "teraz punkt celu kładzie %s", "it is %s's turn to place an objective", s.Players[s.Active].Name)
	}
	if !s.onTable(a.At) || a.At.Sigma < 0 {
		return nil, rules.Reject("not_on_table", "punkt celu (%s, %s) poza stołem %s×%s", "objective (%s, %s) is off the %s×%s table",
			fmtNum(a.At.X), fmtNum(a.At.Y), fmtNum(s.Options.Table.Width), fmtNum(s.Options.Table.Depth))
	}
	id := fmt.Sprintf("obj-%d", len(s.Objectives)+1)
	s.Objectives = append(s.Objectives, Objective{ID: id, PlacedBy: a.Seat, At: a.At})
	evs := []Event{{Type: "objective_placed", Seat: a.Seat, Unit: id,
		Text: rules.Textf("%s kładzie punkt celu %s w (%s, %s)", "%s places objective %s at (%s, %s)", s.Players[s.Active].Name, id, fmtNum(a.At.X), fmtNum(a.At.Y))}}
	if len(s.Objectives) >= s.Scenario.Objectives {
		return append(evs, s.startDeployment()...), nil
	}
	s.Active = (s.Active + 1) % len(s.Players)
	return evs, nil
}

func (s *State) onTable(p Point) bool {
	return p.X >= 0 && p.Y >= 0 && p.X <= s.Options.Table.Width && p.Y <= s.Options.Table.Depth
}

// startPlay begins the game proper after deployment.
func (s *State) startPlay() []Event {
	s.Active = s.firstIndex()
	if s.Scenario.orders() {
		s.Round, s.Phase = 0, PhaseOrders
		return []Event{{Type: "phase", Stage: string(s.Phase),
			Text: rules.Textf("faza rozkazów przed 1. turą: każdy gracz dobiera %[2]s rozkazów", "orders phase before turn 1: every player draws %[1]d order cards", s.Options.HandSize, plN(s.Options.HandSize, "kartę", "karty", "kart"))}}
	}
	s.Round, s.Phase = 1, PhaseMovement
	return []Event{s.turnEvent()}
}

func (s *State) turnEvent() Event {
	p := s.Players[s.Active]
	return Event{Type: "phase", Stage: string(s.Phase), Seat: p.Seat,
		Text: rules.Textf("runda %[1]d, %[2]s: %[3]s", "round %[4]d, %[5]s: %[6]s", s.Round, p.Name, s.Phase.Name().PL, s.Round, p.Name, s.Phase.Name().EN)}
}

func (s *State) playing() bool {
	return (s.Phase == PhaseOrders || s.Phase == PhaseMovement || s.Phase == PhaseShooting) && s.Result == nil
}

func (s *State) endPhase() ([]Event, error) {
	if s.Shot != nil {
		return nil, rules.Reject("shot_in_progress", "najpierw dokończ strzał", "finish the shot in progress first")
	}
	switch s.Phase {
	case PhaseOrders:
		if s.Round == 0 {
			return nil, rules.Reject("draw_orders", "przed 1. turą każdy gracz dobiera %[2]s", "before turn 1 every player draws %[1]d cards", s.Options.HandSize, plN(s.Options.HandSize, "kartę", "karty", "kart"))
		}
		if n := s.missingCards(s.ActiveSeat()); n > 0 {
			return nil, rules.Reject("draw_orders", "dobierz jeszcze %[3]s rozkazów, by mieć %[2]d na ręce", "draw %[4]s more to hold %[2]d", n, s.Options.HandSize, plN(n, "kartę", "karty", "kart"), enN(n, "order card", "order cards"))
		}
		s.seatState(s.ActiveSeat()).Swapped = false
		s.Phase = PhaseMovement
		return []Event{s.turnEvent()}, nil
	case PhaseMovement:
		for i := range s.Units {
			for j := range s.Units[i].Models {
				s.Units[i].Models[j].From = nil
			}
		}
		s.Phase = PhaseShooting
		return []Event{s.turnEvent()}, nil
	case PhaseShooting:
		return s.endTurn()
	}
	return nil, rules.Reject("wrong_phase", "teraz nie ma fazy do zakończenia (%[1]s)", "there is no phase to end now (%[2]s)", s.Phase.Name().PL, s.Phase.Name().EN)
}

// endTurn closes the active player's turn: objectives are counted for the
// player's side, the next player begins, and a new round when the turn
// comes back to the first player.
func (s *State) endTurn() ([]Event, error) {
	var evs []Event
	if s.Scenario.holds() {
		more, err := s.countObjectives()
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	}
	seat := s.ActiveSeat()
	for i := range s.Units {
		u := &s.Units[i]
		if u.Owner != seat {
			continue
		}
		u.Fired = nil
		for j := range u.Models {
			u.Models[j].Jumped = false
		}
	}
	s.Active = (s.Active + 1) % len(s.Players)
	if s.Active == s.firstIndex() {
		for i := range s.Units {
			u := &s.Units[i]
			if u.MovedThisRound {
				u.StationaryRounds = 0
			} else {
				u.StationaryRounds++
			}
			u.MovedThisRound = false
		}
		if s.Options.MaxRounds > 0 && s.Round >= s.Options.MaxRounds {
			return append(evs, s.finishByRounds()...), nil
		}
		s.Round++
	}
	s.Phase = PhaseMovement
	if s.Scenario.orders() {
		s.Phase = PhaseOrders
	}
	return append(evs, s.turnEvent()), nil
}

func (s *State) ownUnit(id string) (*Unit, error) {
	u := s.unit(id)
	if u == nil || !s.visibleTo(u) {
		return nil, rules.Reject("unknown_unit", "nie ma oddziału %q", "no unit %q", id)
	}
	if u.Owner != s.ActiveSeat() {
		return nil, rules.Reject("not_your_turn", "%s: teraz tura gracza %s", "%s: it is %s's turn", u.Name, s.Players[s.Active].Name)
	}
	return u, nil
}

// visibleTo: units that are not deployed yet are not on the table; while
// deployment lasts they are known only to their owner.
func (s *State) visibleTo(u *Unit) bool {
	return u.Deployed || u.Owner == s.ActiveSeat()
}

func (s *State) unitMoved(a UnitMoved) ([]Event, error) {
	if s.Phase != PhaseMovement {
		return nil, rules.Reject("wrong_phase", "ruch tylko w fazie ruchu (teraz: %[1]s)", "units move only in the movement phase (now: %[2]s)", s.Phase.Name().PL, s.Phase.Name().EN)
	}
	u, err := s.ownUnit(a.Unit)
	if err != nil {
		return nil, err
	}
	u.MovedThisRound, u.StationaryRounds = true, 0
	return []Event{{Type: "unit_moved", Unit: u.ID, Text: rules.Textf("%s wykonał ruch", "%s moved", u.Name)}}, nil
}

func (s *State) endGame(a EndGame) ([]Event, error) {
	if a.Winner != "" && s.side(a.Winner) == nil {
		return nil, rules.Reject("unknown_faction", "nie ma w grze frakcji %q", "no faction %q in this game", a.Winner)
	}
	text := rules.Textf("gra zakończona (%s): %s", "game ended (%s): %s", a.By, a.Reason)
	if a.Reason == "" {
		text = rules.Textf("gra zakończona (%s)", "game ended (%s)", a.By)
	}
	return s.finish(a.Winner, WinEnded, text), nil
}

// finish ends the game.
func (s *State) finish(winner, condition string, text rules.Text) []Event {
	r := &Result{Winner: winner, Condition: condition, Round: s.Round, Text: text}
	if sd := s.side(winner); sd != nil {
		r.Seats = slices.Clone(sd.Seats)
	}
	s.Result, s.Phase, s.Shot, s.Call = r, PhaseOver, nil, nil
	return []Event{{Type: "game_over", Result: r, Text: text}}
}

func fmtNum(x float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", x), "0"), ".")
}
