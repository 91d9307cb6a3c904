package bitwa

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/sztab/sztab/rules"
)

// Event is something that happened, for the journal, the screens and the
// players. Events are public: they never name a card drawn into a hand.
type Event struct {
	Type  string     `json:"type"`
	Text  rules.Text `json:"text"`
	Seat  int        `json:"seat,omitempty"`
	Army  string     `json:"army,omitempty"`
	Card  string     `json:"card,omitempty"`
	Front string     `json:"front,omitempty"`
	N     int        `json:"n,omitempty"`
	Dice  []int      `json:"dice,omitempty"`
}

// Apply plays action a on state s. It returns the next state and what
// happened, or a *rules.Rejection (or, for a StartGame with bad data, an
// error wrapping one) and s itself: nothing is half-applied, s is never
// changed.
func Apply(s State, a Action) (State, []Event, error) {
	return applyWith(s, a, nil)
}

// Allowable are the rejection codes a referee may let stand for one action
// (rules.Waiver, "flag but allow"): moving more units than a card
// allows, moves across blockades or between fronts that are not
// neighbours, a 2nd line over its limit (the move stands, the surplus goes
// back to the Reserve at once, as the rulebook says), a card on a blocked
// field, a supply of more units than the resource card gives.
// Every other refusal (malformed input, an unknown card or unit, the wrong
// phase) stands whatever the waiver says.
var Allowable = []string{"too_many", "blocked_line1", "blocked_line2", "not_adjacent", "over_limit", "blocked_field"}

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
	next.tally()
	return next, evs, nil
}

// MinPlayers and MaxPlayers bound a game ("LICZBA GRACZY: 2–4").
const (
	MinPlayers = 2
	MaxPlayers = 4
)

func (s *State) emit(typ string, t rules.Text, ev Event) {
	ev.Type, ev.Text = typ, t
	s.evs = append(s.evs, ev)
}

func (s *State) apply(a Action) ([]Event, error) {
	if a == nil {
		return nil, rules.Reject("unknown_action", "brak akcji", "no action")
	}
	if st, ok := a.(StartGame); ok {
		if s.Phase != "" {
			return nil, rules.Reject("already_started", "gra już trwa", "the game is already running")
		}
		if err := s.start(st); err != nil {
			return nil, err
		}
		s.run()
		return s.evs, nil
	}
	switch {
	case s.Phase == "":
		return nil, rules.Reject("not_started", "gra się jeszcze nie zaczęła", "the game has not started")
	case s.Phase == PhaseOver:
		return nil, rules.Reject("game_over", "gra się skończyła", "the game is over")
	}
	seat := actionSeat(a)
	p := s.Player(seat)
	if p == nil {
		return nil, rules.Reject("unknown_seat", "miejsce %d nie gra", "seat %d is not playing", seat)
	}
	if pd := s.Pending; pd != nil {
		if !answers(pd.Kind, a) {
			return nil, rules.Reject("awaiting_decision", "najpierw: %[1]s", "first: %[2]s", pd.Text.PL, pd.Text.EN)
		}
		if !s.mayAnswer(p) {
			return nil, rules.Reject("not_your_decision", "decyzję podejmuje %[1]s, nie %[2]s", "%[1]s decides, not %[2]s", s.name(pd.Seat), s.name(seat))
		}
		if err := s.answer(p, a); err != nil {
			return nil, err
		}
	} else {
		switch a.(type) {
		case PlayCard, Blockade, Fight, Activate, Pass, Select:
		default:
			return nil, rules.Reject("no_decision", "nikt nie czeka na odpowiedź %s", "nothing waits for a %s answer", a.Type())
		}
		if s.Stage != StageMilitary {
			return nil, rules.Reject("not_military", "akcje tylko w etapie Działań militarnych", "actions only in the military stage")
		}
		if p.Passed {
			return nil, rules.Reject("passed", "%s spasował(a) w tej rundzie", "%s has passed this round", s.name(seat))
		}
		if seat != s.Active {
			return nil, rules.Reject("not_your_turn", "teraz kolej gracza %[1]s, nie %[2]s", "it is %[1]s's turn, not %[2]s's", s.name(s.Active), s.name(seat))
		}
		if sel, ok := a.(Select); ok {
			// A selection changes nothing but itself: the turn goes on.
			if err := s.selectCard(p, sel); err != nil {
				return nil, err
			}
			return s.evs, nil
		}
		s.Selected = nil
		if err := s.military(p, a); err != nil {
			return nil, err
		}
		s.Queue = append(s.Queue, Work{Op: "next_turn"})
	}
	s.run()
	return s.evs, nil
}

func answers(kind string, a Action) bool {
	switch a.(type) {
	case Roll:
		return kind == DecideRollInitiative || kind == DecideRollBonus
	case Blockade:
		return kind == DecideOpeningBlockade || kind == DecideSupport
	case TurnCard:
		return kind == DecideTurnCard
	case AssignInitiative:
		return kind == DecideAssign
	case Supply:
		return kind == DecideSupply
	case Move:
		return kind == DecideMove
	case Remove:
		return kind == DecideRemove
	case Confirm:
		return kind == DecideConfirm
	}
	return false
}

func (s *State) mayAnswer(p *Player) bool {
	pd := s.Pending
	switch {
	case pd.Kind == DecideRollInitiative || pd.Kind == DecideRollBonus:
		return true // dice are read at the table
	case pd.Army != "":
		return p.Army == pd.Army
	}
	return p.Seat == pd.Seat
}

// ---- setup ----

func (s *State) start(a StartGame) error {
	cat, err := NewCatalogue(a.Data)
	if err != nil {
		return fmt.Errorf("%w (%w)", rules.Reject("bad_setup", "błędne dane gry: %v", "bad game data: %v", err), err)
	}
	n := len(a.Players)
	if n < MinPlayers || n > MaxPlayers {
		return rules.Reject("bad_setup", "graczy: %d; gra jest dla 2–4 graczy", "%d players; the game is for 2 to 4", n)
	}
	o := a.Options
	o.defaults()
	if err := o.check(); err != nil {
		return err
	}
	per := map[string]int{}
	seen := map[int]bool{}
	for _, p := range a.Players {
		if p.Seat < 1 || seen[p.Seat] {
			return rules.Reject("bad_setup", "miejsce %d: numery miejsc od 1, bez powtórzeń", "seat %d: seats are numbered from 1, each once", p.Seat)
		}
		if p.Army != WP && p.Army != ACz {
			return rules.Reject("bad_setup", "gracz %d: armia %q (wp albo acz)", "player %d: army %q (wp or acz)", p.Seat, p.Army)
		}
		seen[p.Seat] = true
		per[p.Army]++
	}
	// 2: one each; 3: two allies against one; 4: two against two.
	if per[WP] < 1 || per[ACz] < 1 || per[WP] > 2 || per[ACz] > 2 {
		return rules.Reject("bad_setup", "armie: WP %d, ACz %d graczy; każda armia ma 1 lub 2 graczy", "armies: WP %d, ACz %d players; each army has 1 or 2", per[WP], per[ACz])
	}
	s.Phase, s.Options, s.Seed = PhaseSetup, o, a.Seed
	s.Comp, s.Cards = cat.Data.Components, cat.Cards
	s.Won = map[string]string{}
	s.Blockades = []Marker{}
	s.Queue = []Work{}
	for _, p := range a.Players {
		s.Players = append(s.Players, Player{Seat: p.Seat, Name: p.Name, Army: p.Army, Hand: []string{}})
	}
	for i, id := range Armies {
		ar := Army{ID: id, Discard: []string{}, Fights: map[string][]string{}}
		var all []string
		for _, c := range cat.Data.Cards {
			if c.Army == id {
				all = append(all, c.ID)
			}
		}
		if given, ok := a.Decks[id]; ok {
			if !sameCards(given, all) {
				return rules.Reject("bad_setup", "talia %s musi zawierać każdą kartę armii dokładnie raz (%d kart)", "the %s deck must hold every card of the army exactly once (%d cards)", id, len(all))
			}
			ar.Deck = slices.Clone(given)
		} else {
			ar.Deck = slices.Clone(all)
			r := rand.New(rand.NewPCG(a.Seed, uint64(i+1)))
			r.Shuffle(len(ar.Deck), func(x, y int) { ar.Deck[x], ar.Deck[y] = ar.Deck[y], ar.Deck[x] })
		}
		units := cat.Armies[id].Units
		// Setup: "po 21 Oddziałów … na polu Rezerwy" and "po 1 Oddziale na
		// każdej 2LF" with 21 in the box: the 2nd-line units come out of the
		// 21 (option start_units).
		if o.StartUnits == "from_21" {
			for f := range ar.Fronts {
				ar.Fronts[f].Second = s.Comp.StartSecondLine
				units -= s.Comp.StartSecondLine
			}
		}
		ar.Reserve = units
		s.Armies[i] = ar
	}
	for k := range a.Decks {
		if k != WP && k != ACz {
			return rules.Reject("bad_setup", "talia nieznanej armii %q", "a deck of an unknown army %q", k)
		}
	}
	s.emit("game_started", tr("gra rozpoczęta: %d graczy", "game started: %d players", n), Event{N: n})
	s.Queue = append(s.Queue, Work{Op: "opening", Army: WP}, Work{Op: "opening", Army: ACz}, Work{Op: "initiative"})
	return nil
}

func sameCards(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// ---- the work queue ----

func (s *State) push(steps ...Work) { s.Queue = append(slices.Clone(steps), s.Queue...) }

func (s *State) run() {
	for guard := 0; s.Pending == nil && s.Phase != PhaseOver && len(s.Queue) > 0; guard++ {
		if guard > 10000 {
			panic("bitwa: the work queue does not settle")
		}
		st := s.Queue[0]
		s.Queue = s.Queue[1:]
		s.step(st)
	}
}

func (s *State) pend(p Pending) { s.Pending = &p }

func (s *State) step(st Work) {
	switch st.Op {
	case "opening":
		seat := s.decider(st.Army)
		s.pend(Pending{Kind: DecideOpeningBlockade, Seat: seat, Army: st.Army, Marker: s.marker(st.Army),
			Text: tr("%s: połóż swój znacznik Blokady na polu przeciwnika", "%s: lay your blockade marker on a field of the enemy", s.armyName(st.Army))})
	case "initiative":
		s.pend(Pending{Kind: DecideRollInitiative, Seat: s.Players[0].Seat,
			Text: tr("rzut kością o inicjatywę: po jednej kości na gracza", "roll for the initiative: one die per player")})
	case "round_start":
		s.roundStart()
	case "funds":
		s.funds()
	case "funds_draw":
		s.fundsDraw(st.Army, st.N)
	case "assign":
		s.pend(Pending{Kind: DecideAssign, Seat: s.decider(st.Army), Army: st.Army,
			Text: tr("rozdaj znaczniki Inicjatywy", "hand out the initiative tokens")})
	case "supply":
		s.supply()
	case "supply_army":
		if st.N > 0 {
			s.pend(Pending{Kind: DecideSupply, Seat: s.decider(st.Army), Army: st.Army, N: st.N, Resource: ResSupply,
				Text: tr("Zaopatrzenie: dołóż (na 2LF) lub porusz do %d Oddziałów", "Supply: add (to 2nd lines) or move up to %d units", st.N)})
		}
	case "support":
		if w := s.Won[ResSupport]; w != "" {
			delete(s.Won, ResSupport)
			faces := s.faces(ResSupport)
			if faces[0].Special {
				s.pend(Pending{Kind: DecideSupport, Seat: s.decider(w), Army: w, Marker: s.Comp.SpecialBlockade, Resource: ResSupport,
					Text: tr("Poparcie społeczne: możesz położyć znacznik Blokady Specjalnej", "Public support: you may lay the special blockade")})
			}
		}
	case "fights_discard":
		s.fightsDiscard()
	case "military_start":
		s.Stage = StageMilitary
		s.Active = 0
		s.emit("stage", tr("runda %d: Działania militarne", "round %d: military actions", s.Round), Event{N: s.Round})
		if !s.nextTurn(true) {
			s.push(Work{Op: "battles"})
		}
	case "next_turn":
		if !s.nextTurn(false) {
			s.push(Work{Op: "battles"})
		}
	case "effect":
		s.effect(st)
	case "remove_n":
		s.removeN(st)
	case "battles":
		s.battles()
	case "battle":
		s.battle(st)
	case "advance":
		s.advance(st)
	case "resolve":
		s.resolve(st)
	case "score":
		s.score()
	case "end_round":
		s.endRound()
	default:
		panic("bitwa: unknown step " + st.Op)
	}
}

// ---- helpers ----

func (s *State) marker(army string) string {
	for _, a := range s.Comp.Armies {
		if a.ID == army {
			return a.Blockade
		}
	}
	return ""
}

func (s *State) armyName(army string) rules.Text {
	for _, a := range s.Comp.Armies {
		if a.ID == army {
			return a.Name
		}
	}
	return rules.Text{PL: army, EN: army}
}

func (s *State) frontName(f string) rules.Text {
	for _, fc := range s.Comp.Fronts {
		if fc.ID == f {
			return fc.Name
		}
	}
	return rules.Text{PL: f, EN: f}
}

func (s *State) resourceName(r string) rules.Text {
	for _, rc := range s.Comp.Resources {
		if rc.ID == r {
			return rc.Name
		}
	}
	return rules.Text{PL: r, EN: r}
}

// PlaceNames are the board's places a blockade lies on or a card blocks,
// in words.
var PlaceNames = map[string]rules.Text{
	"line1":           {PL: "1. linia", EN: "1st line"},
	"line2":           {PL: "2. linia (ruchy między Frontami)", EN: "2nd line (moves between fronts)"},
	"commander_card":  {PL: "karta Dowódcy", EN: "commander card"},
	"commander_field": {PL: "pole Dowódcy", EN: "commander field"},
	"order_field":     {PL: "pole Rozkazu", EN: "order field"},
}

func placeName(p string) rules.Text {
	if n, ok := PlaceNames[p]; ok {
		return n
	}
	return rules.Text{PL: p, EN: p}
}

// markerName is a blockade marker in words.
func (s *State) markerName(m string) rules.Text {
	if m == s.Comp.SpecialBlockade {
		return rules.Text{PL: "znacznik Blokady Specjalnej", EN: "the special blockade marker"}
	}
	if c, ok := s.Cards[m]; ok {
		return c.Names()
	}
	return rules.Text{PL: "znacznik Blokady", EN: "a blockade marker"}
}

// effectNames are the effects of the cards' effect language in words.
var effectNames = map[string]rules.Text{
	"strength":    {PL: "Siła Armii", EN: "army strength"},
	"move":        {PL: "ruch Oddziałów", EN: "the move"},
	"add":         {PL: "dołożenie Oddziałów", EN: "the added units"},
	"advance_all": {PL: "przejście na 1. linię", EN: "the advance to the 1st line"},
	"remove":      {PL: "usunięcie Oddziałów", EN: "the removal"},
	"battle":      {PL: "Bitwa", EN: "the battle"},
	"again":       {PL: "kolejna akcja", EN: "another action"},
	"block":       {PL: "blokada", EN: "the blockade"},
}

func effectName(do string) rules.Text {
	if n, ok := effectNames[do]; ok {
		return n
	}
	return rules.Text{PL: do, EN: do}
}

// cardName is a card's name in both languages.
func (s *State) cardName(id string) rules.Text {
	if c, ok := s.Cards[id]; ok {
		return c.Names()
	}
	return rules.Text{PL: id, EN: id}
}

// decider is the seat that answers for an army: with two players, the one
// holding the initiative token with the higher number ("ostateczną decyzję
// podejmuje ten gracz, który posiada znacznik Inicjatywy z wyższym
// numerem"); before tokens exist, the army's first player.
func (s *State) decider(army string) int {
	best, tok := 0, -1
	for _, p := range s.Players {
		if p.Army == army && p.Token > tok {
			best, tok = p.Seat, p.Token
		}
	}
	return best
}

// turnOrder is the order of actions: 2 players, the initiative first and
// then alternately; 3–4 players, by the initiative tokens.
func (s *State) turnOrder() []int {
	if len(s.Players) == 2 {
		other := s.Players[0].Seat
		if other == s.Initiative {
			other = s.Players[1].Seat
		}
		return []int{s.Initiative, other}
	}
	order := make([]int, 0, len(s.Players))
	for _, p := range s.Players {
		order = append(order, p.Seat)
	}
	slices.SortStableFunc(order, func(a, b int) int { return s.Player(a).Token - s.Player(b).Token })
	return order
}

// armyOrder is the armies in initiative order.
func (s *State) armyOrder() []string {
	first := s.Player(s.turnOrder()[0]).Army
	return []string{first, Enemy(first)}
}

func (s *State) faces(res string) [2]Face {
	for _, r := range s.Comp.Resources {
		if r.ID == res {
			return r.Faces[strconv.Itoa(len(s.Players))]
		}
	}
	return [2]Face{}
}

// draw fills a player's hand up to their limit from the army deck.
func (s *State) draw(p *Player) {
	ar := s.Army(p.Army)
	n := 0
	for len(p.Hand) < p.Limit && len(ar.Deck) > 0 {
		p.Hand = append(p.Hand, ar.Deck[0])
		ar.Deck = ar.Deck[1:]
		n++
	}
	if n > 0 {
		s.emit("draw", tr("%s dobiera %d kart(y)", "%s draws %d card(s)", s.name(p.Seat), n), Event{Seat: p.Seat, N: n})
	}
	// "Skończą się karty w talii Wojska": the deck is empty.
	if len(ar.Deck) == 0 && !s.DeckOut {
		s.DeckOut = true
		s.emit("deck_out", tr("talia %s się skończyła", "the %s deck has run out", s.armyName(p.Army)), Event{Army: p.Army})
	}
}

// baseHands sets the round-1 hand limits and draws, in turn order.
func (s *State) baseHands() {
	fh := s.Comp.FirstHands
	for _, seat := range s.turnOrder() {
		p := s.Player(seat)
		switch {
		case len(s.Players) == 2:
			p.Limit = fh.Two
		case len(s.Players) == 4:
			p.Limit = fh.Four
		case len(s.Seats(p.Army)) == 2:
			p.Limit = fh.Ally
		default:
			p.Limit = fh.Lone
		}
		s.draw(p)
	}
}

func removeOne(list []string, id string) ([]string, bool) {
	i := slices.Index(list, id)
	if i < 0 {
		return list, false
	}
	return slices.Delete(slices.Clone(list), i, i+1), true
}

// takeFromHand removes a card from the hand, refusing unknown cards and
// cards the player does not hold.
func (s *State) takeFromHand(p *Player, id string) (Card, error) {
	c, ok := s.Cards[id]
	if !ok {
		return Card{}, rules.Reject("unknown_card", "nieznana karta %q", "unknown card %q", id)
	}
	h, ok := removeOne(p.Hand, id)
	if !ok {
		// Not named: a refusal goes to everyone, and which card a player
		// tried from their page is theirs.
		return Card{}, rules.Reject("not_in_hand", "%s nie ma tej karty na ręku", "%s does not hold that card", s.name(p.Seat))
	}
	p.Hand = h
	return c, nil
}

func badFront(f string) error {
	return rules.Reject("bad_front", "nieznany Front %q (N, C albo S)", "unknown front %q (N, C or S)", f)
}

// blocked reports whether army is blocked at place on front f (any front
// for line2: a 2nd-line blockade blocks moves between all fronts).
func (s *State) blocked(army, place, f string) bool {
	for _, m := range s.Blockades {
		if m.Army == army && m.Place == place && (m.Front == f || place == BlockLine2) {
			return true
		}
	}
	return false
}

// applyLimit sends an army's units over the 2nd-line limit on f back to
// the Reserve.
func (s *State) applyLimit(army, f string) {
	l := &s.Army(army).Fronts[frontIndex(f)]
	if over := l.Second - s.Limit(army, f); over > 0 {
		l.Second -= over
		s.Army(army).Reserve += over
		s.emit("over_limit", tr("%s: %d Oddz. ponad limit %d na 2LF (%s) wraca do Rezerwy", "%s: %d unit(s) over the limit of %d on the 2nd line (%s) back to the Reserve",
			s.armyName(army), over, s.Limit(army, f), s.frontName(f)), Event{Army: army, Front: f, N: over})
	}
}

// tr is rules.Textf where an argument of type rules.Text (a name in two
// languages) is written in the language of each format.
func tr(pl, en string, args ...any) rules.Text {
	pick := func(lang string) []any {
		out := make([]any, len(args))
		for i, a := range args {
			if t, ok := a.(rules.Text); ok {
				if lang == "pl" {
					out[i] = t.PL
				} else {
					out[i] = t.EN
				}
			} else {
				out[i] = a
			}
		}
		return out
	}
	return rules.Text{PL: fmt.Sprintf(pl, pick("pl")...), EN: fmt.Sprintf(en, pick("en")...)}
}
