package mali

import (
	"fmt"
	"slices"
	"sort"

	"github.com/sztab/sztab/rules"
)

// Apply plays action a on state s. It returns the next state and what
// happened, or a *rules.Rejection and s itself: nothing is half-applied.
// When the rules need a player's choice the state's Pending names the
// player and lists the legal answers.
func Apply(s State, a Action) (State, []Event, error) {
	return applyWith(s, a, nil)
}

// Allowable are the rejection codes a referee may let stand for one action
// (rules.Waiver): breaches of the movement rules. Everything else (an
// unknown field or courier, a card not in the hand, the wrong phase) is
// refused whatever the waiver says.
var Allowable = []string{"too_far", "not_adjacent", "blocked_road", "soldier_field", "fallen_district", "move_used"}

// ApplyAllowing is Apply with the referee's leave to break the rules named
// in w (flag but allow); w.Waived says which it broke. The state goes on
// from the allowed action.
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
	return next, evs, nil
}

func (s *State) apply(a Action) ([]Event, error) {
	if a == nil {
		return nil, rules.Reject("unknown_action", "brak akcji", "no action")
	}
	if _, ok := a.(StartGame); !ok && s.Phase == "" {
		return nil, rules.Reject("not_started", "gra się jeszcze nie zaczęła", "the game has not started")
	}
	if s.Phase == PhaseOver {
		return nil, rules.Reject("game_over", "gra się skończyła", "the game is over")
	}
	switch a := a.(type) {
	case StartGame:
		return s.start(a)
	case DealGoals:
		return s.dealGoals(a)
	case KeepGoals:
		return s.keepGoals(a)
	case DrawOrders:
		return s.drawOrders(a)
	case PlayCard:
		return s.playCard(a)
	case Place:
		return s.place(a)
	case Move:
		return s.step(a)
	case Jump:
		return s.jump(a)
	case PickUp:
		return s.pickUp(a)
	case Drop:
		return s.drop(a)
	case EndTurn:
		return s.endTurn()
	case SwapCouriers:
		return s.swapCouriers(a)
	case UnitJump:
		return s.unitJump(a)
	case SwapOrders:
		return s.swapOrders(a)
	case Rumours:
		return s.rumours(a)
	case RollDie:
		return s.rollDie(a)
	case ChooseCourier:
		return s.chooseCourier(a)
	case ChooseSoldierStep:
		return s.chooseSoldierStep(a)
	case BlockRoad:
		return s.blockRoad(a)
	case Displace:
		return s.displace(a)
	}
	return nil, rules.Reject("unknown_action", "nieznana akcja %T", "unknown action %T", a)
}

// waiting refuses an action unless the engine waits for kind.
func (s *State) waiting(kind string) error {
	if s.Pending == nil || s.Pending.Kind != kind {
		want := "—"
		if s.Pending != nil {
			want = s.Pending.Kind
		}
		return rules.Reject("not_now", "teraz nie pora na to (czekamy na: %[1]s)", "not now (waiting for: %[1]s)", want)
	}
	return nil
}

func ev(typ string, pl, en string, args ...any) Event {
	return Event{Type: typ, Text: rules.Textf(pl, en, args...)}
}

// ---- setup

// DeckSize is the number of order cards in the basic variant's deck, or
// under the Victory card in the extended one, for n players.
func DeckSize(variant string, n int) int {
	if variant == Extended {
		return map[int]int{2: 24, 3: 18, 4: 12}[n]
	}
	return map[int]int{2: 12, 3: 16, 4: 20}[n]
}

func (s *State) start(a StartGame) ([]Event, error) {
	if s.Phase != "" {
		return nil, rules.Reject("already_started", "gra już trwa", "the game is already running")
	}
	if a.Variant != Basic && a.Variant != Extended {
		return nil, rules.Reject("bad_setup", "wariant %[1]q: podstawowy (basic) albo rozszerzony (extended)", "variant %[1]q: want basic or extended", a.Variant)
	}
	cat, err := NewCatalogue(a.Data)
	if err != nil {
		return nil, rules.Reject("bad_setup", "błędne dane gry: %[1]v", "bad game data: %[1]v", err)
	}
	n := len(a.Players)
	if n < 2 || n > 4 {
		return nil, rules.Reject("bad_setup", "graczy: %[1]d; gra jest dla 2–4 graczy", "%[1]d players; the game is for 2 to 4", n)
	}
	seats, colours := map[int]bool{}, map[string]bool{}
	for _, p := range a.Players {
		if p.Seat < 1 || seats[p.Seat] || !slices.Contains(Colours, p.Colour) || colours[p.Colour] {
			return nil, rules.Reject("bad_setup", "miejsce %[1]d / kolor %[2]q: miejsca od 1, różne; kolory %[3]v, różne",
				"seat %[1]d / colour %[2]q: seats from 1, distinct; colours %[3]v, distinct", p.Seat, p.Colour, Colours)
		}
		seats[p.Seat], colours[p.Colour] = true, true
	}
	if !seats[a.Starter] {
		return nil, rules.Reject("bad_setup", "gracz rozpoczynający %[1]d nie siedzi przy stole", "the round-starter %[1]d is not at the table", a.Starter)
	}
	o := a.Options
	if o.SoldierPath != "" && o.SoldierPath != "starter" {
		return nil, rules.Reject("bad_setup", "soldier_path %[1]q: puste albo \"starter\"", "soldier_path %[1]q: want empty or \"starter\"", o.SoldierPath)
	}
	size := DeckSize(a.Variant, n)
	if o.DeckSize != 0 {
		size = o.DeckSize
	}
	above := 0
	if a.Variant == Extended {
		above = len(a.Data.Orders) - size
		if o.ExtendedAbove != 0 {
			above = o.ExtendedAbove
		}
	}
	if size < 1 || above < 0 || size+above > len(a.Data.Orders) || (a.Variant == Extended && len(a.Data.Goals) < 6*n) {
		return nil, rules.Reject("bad_setup", "talia %[1]d+%[2]d kart przy %[3]d rozkazach i %[4]d celach", "a deck of %[1]d+%[2]d cards from %[3]d orders and %[4]d goals", size, above, len(a.Data.Orders), len(a.Data.Goals))
	}
	*s = State{Variant: a.Variant, Options: o, Starter: a.Starter, cat: cat, Track: make([][]string, 5)}
	if a.Variant == Extended {
		s.Track = make([][]string, 4)
		s.Deck = Deck{Left: size + above + 1, Above: above, Victory: true}
		for _, d := range cat.Data.Map.Districts {
			s.Districts = append(s.Districts, DistrictState{ID: d.ID})
		}
	} else {
		s.Deck = Deck{Left: size}
		s.Soldier = Node(cat.SoldierStart())
	}
	for i := range s.Track {
		s.Track[i] = []string{}
	}
	starts := cat.StartObjects()
	for _, p := range a.Players {
		s.Players = append(s.Players, Player{Seat: p.Seat, Name: p.Name, Colour: p.Colour, Cards: []int{1, 2, 3, 4, 5}})
		for k, obj := range starts {
			s.Couriers = append(s.Couriers, Courier{ID: fmt.Sprintf("%s-%d", p.Colour, k+1), Seat: p.Seat, Colour: p.Colour, At: Node(obj)})
		}
	}
	evs := []Event{ev("game_started", "gra rozpoczęta: wariant %[1]s, graczy %[2]d, talia %[3]d kart", "game started: %[1]s variant, %[2]d players, a deck of %[3]d cards", a.Variant, n, s.Deck.Left)}
	if a.Variant == Extended {
		s.Phase = PhaseGoals
		s.Pending = &Pending{Kind: WaitDealGoals}
		return evs, nil
	}
	return append(evs, s.beginRound()...), nil
}

func (s *State) dealGoals(a DealGoals) ([]Event, error) {
	if err := s.waiting(WaitDealGoals); err != nil {
		return nil, err
	}
	if len(a.Hands) != len(s.Players) {
		return nil, rules.Reject("bad_deal", "rąk: %[1]d, graczy: %[2]d", "%[1]d hands for %[2]d players", len(a.Hands), len(s.Players))
	}
	used := map[string]bool{}
	redeal := false
	for i, h := range a.Hands {
		if len(h) != 6 {
			return nil, rules.Reject("bad_deal", "gracz %[1]d: %[2]d kart celów, powinno być 6", "player %[1]d: %[2]d goal cards, want 6", s.Players[i].Seat, len(h))
		}
		colours := map[string]bool{}
		for _, g := range h {
			goal, ok := s.cat.Goals[g]
			if !ok || used[g] {
				return nil, rules.Reject("bad_deal", "karta celu %[1]q nieznana lub rozdana dwa razy", "goal card %[1]q unknown or dealt twice", g)
			}
			used[g] = true
			colours[goal.Colour] = true
		}
		if len(colours) < 3 {
			redeal = true
		}
	}
	if redeal {
		// "W sytuacji gdy gracz otrzyma sześć kart tylko w jednym lub w
		// dwóch kolorach, potasujcie i rozdajcie karty jeszcze raz."
		return []Event{ev("goals_redeal", "ktoś dostał cele w mniej niż trzech kolorach: tasujemy i rozdajemy jeszcze raz",
			"a hand shows fewer than three colours: shuffle and deal again")}, nil
	}
	var seats []int
	for i := range s.Players {
		s.Players[i].Dealt = slices.Clone(a.Hands[i])
		seats = append(seats, s.Players[i].Seat)
	}
	s.Pending = &Pending{Kind: WaitKeepGoals, Seats: seats}
	return []Event{ev("goals_dealt", "rozdano po sześć sekretnych celów", "six secret goals dealt to each player")}, nil
}

func (s *State) keepGoals(a KeepGoals) ([]Event, error) {
	if err := s.waiting(WaitKeepGoals); err != nil {
		return nil, err
	}
	p := s.player(a.Seat)
	if p == nil || !slices.Contains(s.Pending.Seats, a.Seat) {
		return nil, rules.Reject("not_your_turn", "gracz %[1]d nie wybiera teraz celów", "player %[1]d is not choosing goals now", a.Seat)
	}
	// One refusal for every wrong choice, naming none of the goals: it is
	// published to everyone, and the goals a player names on their own
	// page, and whether they are in the hand, are the player's secret.
	colours := map[string]bool{}
	ok := len(a.Goals) == 3
	for _, g := range a.Goals {
		ok = ok && slices.Contains(p.Dealt, g)
		colours[s.cat.Goals[g].Colour] = true
	}
	if !ok || len(colours) != 3 {
		return nil, rules.Reject("bad_goals", "wybierz ze swojej ręki trzy cele w trzech różnych kolorach", "keep three goals from your hand, of three different colours")
	}
	p.Goals = slices.Clone(a.Goals)
	sort.Strings(p.Goals)
	s.Pending.Seats = slices.DeleteFunc(s.Pending.Seats, func(x int) bool { return x == a.Seat })
	evs := []Event{{Type: "goals_kept", Seat: a.Seat, Text: rules.Textf("gracz %[1]d wybrał sekretne cele", "player %[1]d kept their secret goals", a.Seat)}}
	if len(s.Pending.Seats) == 0 {
		evs = append(evs, s.beginRound()...)
	}
	return evs, nil
}

// ---- rounds

// drawCount is how many orders the order phase of round r draws.
func (s *State) drawCount(r int) int {
	switch len(s.Players) {
	case 2:
		return 1
	case 3:
		if r%2 == 1 {
			return 2
		}
		return 1
	}
	return 2
}

// ordersPhaseHeld says whether round r has an order phase: not once the
// deck is empty, nor (extended) once the Victory card is out.
func (s *State) ordersPhaseHeld() bool {
	if s.Deck.Left == 0 {
		return false
	}
	if s.Variant == Extended && !s.Deck.Victory {
		return false
	}
	return true
}

func (s *State) beginRound() []Event {
	s.Round++
	s.Turn = nil
	evs := []Event{ev("round", "runda %[1]d; rozpoczyna gracz %[2]d", "round %[1]d; player %[2]d starts", s.Round, s.Starter)}
	if s.ordersPhaseHeld() {
		s.Phase = PhaseOrders
		s.Pending = &Pending{Kind: WaitDrawOrders, Seat: s.Starter, Count: min(s.drawCount(s.Round), s.Deck.Left)}
		return evs
	}
	evs = append(evs, ev("no_orders", "talia pusta (lub Zwycięstwo wyszło): bez fazy rozkazów", "the deck is done (or the Victory card is out): no order phase"))
	return append(evs, s.beginCards()...)
}

func (s *State) beginCards() []Event {
	s.Phase = PhaseCards
	var seats []int
	returned := false
	for i := range s.Players {
		p := &s.Players[i]
		if len(p.Cards) == 0 {
			// "Dopiero gdy każdy z graczy wykorzysta wszystkie swoje karty,
			// gracze zabierają cały zestaw ze stołu."
			p.Cards = []int{1, 2, 3, 4, 5}
			returned = true
		}
		p.Played, p.Chosen = 0, 0
		seats = append(seats, p.Seat)
	}
	s.Pending = &Pending{Kind: WaitPlayCard, Seats: seats}
	if returned {
		return []Event{ev("cards_back", "gracze biorą z powrotem wszystkie karty ruchu", "the players take back all their movement cards")}
	}
	return nil
}

func (s *State) playCard(a PlayCard) ([]Event, error) {
	if err := s.waiting(WaitPlayCard); err != nil {
		return nil, err
	}
	p := s.player(a.Seat)
	if p == nil || !slices.Contains(s.Pending.Seats, a.Seat) {
		return nil, rules.Reject("not_your_turn", "gracz %[1]d już wybrał kartę", "player %[1]d has already chosen a card", a.Seat)
	}
	if !slices.Contains(p.Cards, a.Card) {
		// The refusal is published to everyone: it names the hand, which
		// the table sees, and not the card the player tried, which only
		// they did (on their page, or face down on the reader).
		return nil, rules.Reject("no_such_card", "tej karty ruchu nie masz w ręce (masz %[1]v)", "that movement card is not in your hand (you hold %[1]v)", p.Cards)
	}
	p.Chosen = a.Card
	s.Pending.Seats = slices.DeleteFunc(s.Pending.Seats, func(x int) bool { return x == a.Seat })
	evs := []Event{{Type: "card_laid", Seat: a.Seat, Text: rules.Textf("gracz %[1]d położył kartę ruchu", "player %[1]d laid a movement card", a.Seat)}}
	if len(s.Pending.Seats) > 0 {
		return evs, nil
	}
	// All revealed together; the order: card number, then the starter and
	// clockwise from him.
	type mover struct{ seat, card, rank int }
	var ms []mover
	start := s.seatIndex(s.Starter)
	for i := range s.Players {
		p := &s.Players[i]
		p.Played, p.Chosen = p.Chosen, 0
		p.Cards = slices.DeleteFunc(p.Cards, func(c int) bool { return c == p.Played })
		ms = append(ms, mover{p.Seat, p.Played, (i - start + len(s.Players)) % len(s.Players)})
	}
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].card != ms[j].card {
			return ms[i].card < ms[j].card
		}
		return ms[i].rank < ms[j].rank
	})
	t := &Turn{}
	var shown []string
	for _, m := range ms {
		t.Order = append(t.Order, m.seat)
		shown = append(shown, fmt.Sprintf("%d:%d", m.seat, m.card))
	}
	s.Turn = t
	s.Phase = PhaseMove
	evs = append(evs, Event{Type: "cards_revealed", Cards: shown, Text: rules.Textf("karty odkryte (gracz:karta) %[1]v", "cards revealed (player:card) %[1]v", shown)})
	return append(evs, s.beginTurn()...), nil
}

func (s *State) seatIndex(seat int) int {
	for i, p := range s.Players {
		if p.Seat == seat {
			return i
		}
	}
	return 0
}

// Active is the seat moving now, or 0.
func (s State) Active() int {
	if s.Phase != PhaseMove || s.Turn == nil || s.Turn.Index >= len(s.Turn.Order) {
		return 0
	}
	return s.Turn.Order[s.Turn.Index]
}

func (s *State) beginTurn() []Event {
	t := s.Turn
	seat := t.Order[t.Index]
	t.Card = s.player(seat).Played
	t.Points, t.Jumped, t.MoveDone, t.ActionDone = 0, false, false, false
	evs := []Event{{Type: "turn", Seat: seat, Points: t.Card, Text: rules.Textf("ruch gracza %[1]d (karta %[2]d)", "player %[1]d moves (card %[2]d)", seat, t.Card)}}
	var esc []string
	for _, c := range s.Couriers {
		if c.Seat == seat && c.Off == Escaped {
			esc = append(esc, c.ID)
		}
	}
	if len(esc) > 0 {
		// "Bezpośrednio przed swoim ruchem gracz musi wprowadzić na planszę
		// harcerza lub harcerzy, którzy uciekli."
		s.Pending = &Pending{Kind: WaitPlace, Seat: seat, Choices: esc}
		return evs
	}
	s.Pending = &Pending{Kind: WaitTurn, Seat: seat}
	return evs
}

func (s *State) place(a Place) ([]Event, error) {
	if err := s.waiting(WaitPlace); err != nil {
		return nil, err
	}
	if !slices.Contains(s.Pending.Choices, a.Courier) {
		return nil, rules.Reject("not_escaped", "harcerz %[1]q nie czeka na wprowadzenie na planszę", "courier %[1]q is not waiting to be placed", a.Courier)
	}
	if err := s.canStand(a.At); err != nil {
		return nil, err
	}
	c := s.courier(a.Courier)
	c.At, c.Off, c.Left = a.At, "", true
	s.Pending.Choices = slices.DeleteFunc(s.Pending.Choices, func(x string) bool { return x == a.Courier })
	evs := []Event{{Type: "placed", Courier: c.ID, Seat: c.Seat, To: a.At, Text: rules.Textf("%[1]s wraca na planszę: %[2]s", "%[1]s is back on the map: %[2]s", CourierName(*c), s.cat.Name(a.At))}}
	if len(s.Pending.Choices) == 0 {
		s.Pending = &Pending{Kind: WaitTurn, Seat: c.Seat}
	}
	return evs, nil
}

// canStand explains why a courier may not stand on n.
func (s *State) canStand(n Node) error {
	dist, ok := s.cat.DistrictOf[n]
	if !ok {
		return rules.Reject("no_such_field", "na mapie nie ma pola %[1]q", "there is no field %[1]q on the map", n)
	}
	// Rule breaches: the referee may let them stand (ApplyAllowing).
	if n == s.Soldier {
		if err := s.waiver.Breach("soldier_field", "na polu %[1]s stoi niemiecki żołnierz", "the German soldier stands on %[1]s", s.cat.Name(n)); err != nil {
			return err
		}
	}
	if s.onBlockedRoad(n) {
		if err := s.waiver.Breach("blocked_road", "droga %[1]s jest zablokowana", "the road of %[1]s is blocked", s.cat.Name(n)); err != nil {
			return err
		}
	}
	if s.fallen(dist) {
		return s.waiver.Breach("fallen_district", "dzielnica %[1]s upadła: nikt nie może tam wejść", "district %[1]s has fallen: nobody may enter it", s.cat.Districts[dist].Name)
	}
	return nil
}

// mover checks a courier belongs to the seat that may move it now.
func (s *State) mover(id string, seat int) (*Courier, error) {
	c := s.courier(id)
	if c == nil {
		return nil, rules.Reject("no_such_courier", "nie ma harcerza %[1]q", "there is no courier %[1]q", id)
	}
	if c.Seat != seat {
		return nil, rules.Reject("not_your_courier", "harcerz %[1]s nie należy do gracza %[2]d", "courier %[1]s does not belong to player %[2]d", id, seat)
	}
	if !c.OnMap() {
		return nil, rules.Reject("off_map", "harcerza %[1]s nie ma na planszy", "courier %[1]s is not on the map", id)
	}
	return c, nil
}

func (s *State) step(a Move) ([]Event, error) {
	if s.Pending != nil && s.Pending.Kind == WaitBonusMove {
		if a.Courier != s.Pending.Courier {
			return nil, rules.Reject("not_your_courier", "dodatkowy ruch ma tylko %[1]s", "only %[1]s has the extra move", s.Pending.Courier)
		}
		if s.Pending.Count < 1 {
			if err := s.waiver.Breach("too_far", "dodatkowy ruch wykorzystany", "the extra move is used up"); err != nil {
				return nil, err
			}
		}
		c := s.courier(a.Courier)
		if err := s.stepCheck(c, a.To); err != nil {
			return nil, err
		}
		s.Pending.Count--
		return s.moveTo(c, a.To, "step"), nil
	}
	if err := s.waiting(WaitTurn); err != nil {
		return nil, err
	}
	t := s.Turn
	c, err := s.mover(a.Courier, s.Pending.Seat)
	if err != nil {
		return nil, err
	}
	var breach error
	switch {
	case t.Jumped:
		breach = s.waiver.Breach("move_used", "ruch tej rundy był skokiem", "this round's move was a jump")
	case t.MoveDone:
		breach = s.waiver.Breach("move_used", "ruch już zakończony (akcja rozdziela ruch)", "the move is over (the action came after it)")
	}
	if breach == nil && t.Points >= t.Card {
		breach = s.waiver.Breach("too_far", "karta %[1]d daje %[1]d punktów ruchu, wszystkie wykorzystane", "card %[1]d gives %[1]d movement points, all used", t.Card)
	}
	if breach != nil {
		return nil, breach
	}
	if err := s.stepCheck(c, a.To); err != nil {
		return nil, err
	}
	t.Points++
	return s.moveTo(c, a.To, "step"), nil
}

func (s *State) stepCheck(c *Courier, to Node) error {
	if err := s.canStand(to); err != nil {
		return err
	}
	if !containsNode(s.cat.Neighbours(c.At), to) {
		if err := s.waiver.Breach("not_adjacent", "%[1]s nie sąsiaduje z %[2]s", "%[1]s is not next to %[2]s", s.cat.Name(to), s.cat.Name(c.At)); err != nil {
			return err
		}
	} else if !s.courierEdge(c.At, to) {
		if err := s.waiver.Breach("blocked_road", "droga z %[1]s do %[2]s jest zablokowana", "the road from %[1]s to %[2]s is blocked", s.cat.Name(c.At), s.cat.Name(to)); err != nil {
			return err
		}
	}
	return nil
}

// moveTo puts c on n and settles a delivery there.
func (s *State) moveTo(c *Courier, n Node, how string) []Event {
	from := c.At
	c.At, c.Left = n, true
	evs := []Event{{Type: how, Courier: c.ID, Seat: c.Seat, From: from, To: n,
		Text: rules.Textf("%[1]s: %[2]s → %[3]s", "%[1]s: %[2]s → %[3]s", CourierName(*c), s.cat.Name(from), s.cat.Name(n))}}
	return append(evs, s.deliver(c)...)
}

// deliver scores c's order if c stands in its target and the card is
// still on the track: "Pierwszy harcerz, który dostarczy rozkaz do miejsca
// docelowego, zdobywa dla swojego zastępu punkty." Every other token comes
// off the card.
func (s *State) deliver(c *Courier) []Event {
	if c.Carrying == "" || s.cat.Orders[c.Carrying].To != string(c.At) {
		return nil
	}
	card := c.Carrying
	f := s.TrackField(card)
	if f == 0 {
		return nil
	}
	s.Track[f-1] = slices.DeleteFunc(s.Track[f-1], func(x string) bool { return x == card })
	for i := range s.Couriers {
		if s.Couriers[i].Carrying == card {
			s.Couriers[i].Carrying = ""
		}
	}
	p := s.player(c.Seat)
	p.Delivered = append(p.Delivered, card)
	o := s.cat.Orders[card]
	return []Event{{Type: "delivered", Courier: c.ID, Seat: c.Seat, Order: card, Points: o.Points, To: c.At,
		Text: rules.Textf("%[1]s doręczył rozkaz %[2]s → %[3]s: %[4]d pkt dla gracza %[5]d", "%[1]s delivered the order %[2]s → %[3]s: %[4]d points for player %[5]d",
			CourierName(*c), s.cat.Objects[o.From].Name, s.cat.Objects[o.To].Name, o.Points, c.Seat)}}
}

func (s *State) jump(a Jump) ([]Event, error) {
	if err := s.waiting(WaitTurn); err != nil {
		return nil, err
	}
	t := s.Turn
	c, err := s.mover(a.Courier, s.Pending.Seat)
	if err != nil {
		return nil, err
	}
	if t.Points > 0 || t.Jumped || t.MoveDone {
		if err := s.waiver.Breach("move_used", "skok zamiast ruchu: ten gracz już się ruszał", "a jump replaces the move: this player has already moved"); err != nil {
			return nil, err
		}
	}
	if err := s.jumpCheck(c, a.To); err != nil {
		return nil, err
	}
	t.Jumped, t.MoveDone = true, true
	return s.moveTo(c, a.To, "jump"), nil
}

func (s *State) jumpCheck(c *Courier, to Node) error {
	if !s.cat.IsObject(c.At) {
		return rules.Reject("not_in_object", "%[1]s stoi na drodze (%[2]s), skok tylko z obiektu", "%[1]s stands on a road (%[2]s); a jump starts from an object", c.ID, s.cat.Name(c.At))
	}
	if err := s.canStand(to); err != nil {
		return err
	}
	if !containsNode(s.jumpTargets(string(c.At)), to) {
		return s.waiver.Breach("not_adjacent", "%[1]s nie jest sąsiednim obiektem %[2]s (lub droga zablokowana)", "%[1]s is not a neighbouring object of %[2]s (or the road is blocked)", s.cat.Name(to), s.cat.Name(c.At))
	}
	return nil
}

func (s *State) pickUp(a PickUp) ([]Event, error) {
	var c *Courier
	var err error
	switch {
	case s.Pending != nil && s.Pending.Kind == WaitBonusMove && !s.Options.RedMoveNoPickUp:
		if a.Courier != s.Pending.Courier {
			return nil, rules.Reject("not_your_courier", "dodatkowy ruch ma tylko %[1]s", "only %[1]s has the extra move", s.Pending.Courier)
		}
		c = s.courier(a.Courier)
	default:
		if err := s.waiting(WaitTurn); err != nil {
			return nil, err
		}
		if c, err = s.mover(a.Courier, s.Pending.Seat); err != nil {
			return nil, err
		}
	}
	o, ok := s.cat.Orders[a.Order]
	switch {
	case !ok || s.TrackField(a.Order) == 0:
		return nil, rules.Reject("not_on_track", "rozkazu %[1]q nie ma na torze rozkazów", "order %[1]q is not on the order track", a.Order)
	case string(c.At) != o.From:
		return nil, rules.Reject("not_at_start", "%[1]s nie stoi w %[2]s, skąd wychodzi rozkaz", "%[1]s is not in %[2]s, where the order starts", c.ID, s.cat.Objects[o.From].Name)
	case c.Carrying != "":
		return nil, rules.Reject("already_carrying", "%[1]s niesie już rozkaz %[2]s (harcerz niesie jeden rozkaz naraz)", "%[1]s already carries order %[2]s (one order at a time)", c.ID, c.Carrying)
	}
	for _, other := range s.Couriers {
		if other.Seat == c.Seat && other.Carrying == a.Order {
			return nil, rules.Reject("one_per_player", "rozkaz %[1]s niesie już %[2]s: tylko jeden harcerz z zastępu", "%[2]s already carries order %[1]s: only one courier of a player", a.Order, other.ID)
		}
	}
	c.Carrying = a.Order
	return []Event{{Type: "picked_up", Courier: c.ID, Seat: c.Seat, Order: a.Order,
		Text: rules.Textf("%[1]s odebrał rozkaz do %[2]s", "%[1]s took the order to %[2]s", CourierName(*c), s.cat.Objects[o.To].Name)}}, nil
}

func (s *State) drop(a Drop) ([]Event, error) {
	c := s.courier(a.Courier)
	if c == nil || c.Carrying == "" {
		return nil, rules.Reject("not_carrying", "harcerz %[1]q nie niesie rozkazu", "courier %[1]q carries no order", a.Courier)
	}
	if s.Pending != nil && s.Pending.Kind == WaitBonusMove && s.Options.RedMoveNoPickUp && c.ID == s.Pending.Courier {
		return nil, rules.Reject("not_now", "w dodatkowym ruchu nie odbiera się ani nie porzuca rozkazów", "no taking or dropping orders in the extra move")
	}
	card := c.Carrying
	c.Carrying = ""
	// "może jednak w dowolnej chwili pozbyć się go"
	return []Event{{Type: "dropped", Courier: c.ID, Seat: c.Seat, Order: card, Text: rules.Textf("%[1]s porzucił rozkaz %[2]s", "%[1]s dropped the order %[2]s", CourierName(*c), s.orderName(card))}}, nil
}

func (s *State) endTurn() ([]Event, error) {
	if s.Pending != nil && s.Pending.Kind == WaitBonusMove {
		evs := []Event{{Type: "extra_move_done", Courier: s.Pending.Courier, Text: rules.Textf("koniec dodatkowego ruchu", "the extra move is over")}}
		return append(evs, s.beginTime()...), nil
	}
	if err := s.waiting(WaitTurn); err != nil {
		return nil, err
	}
	t := s.Turn
	evs := []Event{{Type: "turn_ended", Seat: t.Order[t.Index], Text: rules.Textf("gracz %[1]d kończy ruch", "player %[1]d ends the move", t.Order[t.Index])}}
	t.Index++
	if t.Index < len(t.Order) {
		return append(evs, s.beginTurn()...), nil
	}
	if s.Variant == Basic {
		return append(evs, s.beginSoldier()...), nil
	}
	return append(evs, s.beginTime()...), nil
}

// ---- extended actions

func (s *State) action(card int, name rules.Text) error {
	if s.Variant != Extended {
		return rules.Reject("basic_variant", "akcje kart tylko w wariancie rozszerzonym", "card actions belong to the extended variant")
	}
	if err := s.waiting(WaitTurn); err != nil {
		return err
	}
	t := s.Turn
	if t.Card != card {
		return rules.Reject("wrong_card", "akcja „%[1]s” jest na karcie %[2]d, zagrana karta %[3]d", "action %[4]q is on card %[2]d, the card played is %[3]d", name.PL, card, t.Card, name.EN)
	}
	if t.ActionDone {
		return rules.Reject("action_used", "akcja już wykonana", "the action is already used")
	}
	t.ActionDone = true
	// "musi jednak całkowicie skończyć jedno z nich, zanim rozpocznie
	// wykonywanie drugiego": a move begun before the action is over.
	if t.Points > 0 || t.Jumped {
		t.MoveDone = true
	}
	return nil
}

func (s *State) swapCouriers(a SwapCouriers) ([]Event, error) {
	if err := s.action(1, rules.Text{PL: "Kumple z podwórka", EN: "Backyard mates"}); err != nil {
		return nil, err
	}
	x, err := s.mover(a.A, s.Pending.Seat)
	if err != nil {
		return nil, err
	}
	y, err := s.mover(a.B, s.Pending.Seat)
	if err != nil {
		return nil, err
	}
	if x.ID == y.ID || s.cat.DistrictOf[x.At] != s.cat.DistrictOf[y.At] {
		return nil, rules.Reject("not_same_district", "%[1]s i %[2]s muszą być dwoma harcerzami w tej samej dzielnicy", "%[1]s and %[2]s must be two couriers in one district", a.A, a.B)
	}
	xa, ya := x.At, y.At
	evs := []Event{{Type: "swap_couriers", Seat: x.Seat, Text: rules.Textf("Kumple z podwórka: %[1]s i %[2]s zamieniają się miejscami", "Backyard mates: %[1]s and %[2]s change places", CourierName(*x), CourierName(*y))}}
	evs = append(evs, s.moveTo(x, ya, "moved")...)
	return append(evs, s.moveTo(y, xa, "moved")...), nil
}

func (s *State) unitJump(a UnitJump) ([]Event, error) {
	if err := s.action(2, rules.Text{PL: "Oddział powstańczy", EN: "Insurgent unit"}); err != nil {
		return nil, err
	}
	c, err := s.mover(a.Courier, s.Pending.Seat)
	if err != nil {
		return nil, err
	}
	if err := s.jumpCheck(c, a.To); err != nil {
		return nil, err
	}
	evs := []Event{{Type: "unit_jump", Seat: c.Seat, Text: rules.Textf("Oddział powstańczy przeprowadza %[1]s", "An insurgent unit takes %[1]s across", CourierName(*c))}}
	return append(evs, s.moveTo(c, a.To, "moved")...), nil
}

func (s *State) swapOrders(a SwapOrders) ([]Event, error) {
	if a.A == VictoryCard || a.B == VictoryCard {
		return nil, rules.Reject("victory_card", "karty Zwycięstwo nie wolno przesuwać", "the Victory card may not be moved")
	}
	fa, fb := s.TrackField(a.A), s.TrackField(a.B)
	if fa == 0 || fb == 0 || (fa-fb != 1 && fb-fa != 1) {
		return nil, rules.Reject("not_adjacent", "rozkazy %[1]q i %[2]q muszą leżeć na sąsiednich polach toru", "orders %[1]q and %[2]q must lie on adjacent fields of the track", a.A, a.B)
	}
	if err := s.action(3, rules.Text{PL: "Zamiana rozkazów", EN: "Swap orders"}); err != nil {
		return nil, err
	}
	ia, ib := slices.Index(s.Track[fa-1], a.A), slices.Index(s.Track[fb-1], a.B)
	s.Track[fa-1][ia], s.Track[fb-1][ib] = a.B, a.A
	return []Event{{Type: "swap_orders", Seat: s.Pending.Seat, Cards: []string{a.A, a.B},
		Text: rules.Textf("Zamiana rozkazów: %[1]s (pole %[2]d) ↔ %[3]s (pole %[4]d)", "Swap orders: %[1]s (field %[2]d) ↔ %[3]s (field %[4]d)", s.orderName(a.A), fa, s.orderName(a.B), fb)}}, nil
}

func (s *State) rumours(a Rumours) ([]Event, error) {
	if err := s.action(4, rules.Text{PL: "Plotki z ulicy", EN: "Street rumours"}); err != nil {
		return nil, err
	}
	k := 0
	if s.ordersPhaseHeld() {
		k = s.drawCount(s.Round + 1)
	}
	if len(a.Cards) == 0 && k > 0 {
		// A physical deck the daemon does not see: the player looks at the
		// real cards. A card of a fallen district among them is discarded
		// and replaced when it is drawn (drawOrders), which leaves the
		// track as the rulebook's immediate discard would.
		return []Event{{Type: "rumours", Seat: s.Pending.Seat,
			Text: rules.Textf("Plotki z ulicy: gracz %[1]d ogląda wierzch talii", "Street rumours: player %[1]d looks at the top of the deck", s.Pending.Seat)}}, nil
	}
	kept, shown, err := s.takeCards(a.Cards, k, true, false)
	if err != nil {
		return nil, err
	}
	s.Deck.Peeked, s.Deck.PeekedBy = kept, s.Pending.Seat
	evs := []Event{{Type: "rumours", Seat: s.Pending.Seat, Points: len(kept),
		Text: rules.Textf("Plotki z ulicy: gracz %[1]d ogląda %[2]d kart(y) z talii", "Street rumours: player %[1]d looks at %[2]d card(s) of the deck", s.Pending.Seat, len(kept))}}
	if len(shown) > 0 {
		evs = append(evs, Event{Type: "discarded", Cards: shown, Text: rules.Textf("odrzucone (upadła dzielnica): %[1]s", "discarded (fallen district): %[1]s", s.orderNames(shown))})
	}
	return evs, nil
}

// ---- the deck

// Unseen lists the order cards that may still come from the deck (sorted):
// the cards not yet drawn, discarded or delivered; in the extended variant
// the Victory card while it is in the deck. A virtual deck deals from it.
func (s State) Unseen() []string {
	var out []string
	for _, o := range s.cat.Data.Orders {
		if !slices.Contains(s.Deck.Seen, o.ID) {
			out = append(out, o.ID)
		}
	}
	if s.Deck.Victory {
		out = append(out, VictoryCard)
	}
	sort.Strings(out)
	return out
}

// NextDraw is how many cards the next round's order phase will draw (0
// when it has none): what "Plotki z ulicy" shows.
func (s State) NextDraw() int {
	if s.cat == nil || !s.ordersPhaseHeld() {
		return 0
	}
	return s.drawCount(s.Round + 1)
}

// FallenCard says whether an order leads from or to a fallen district: it
// is discarded and replaced when it comes from the deck.
func (s State) FallenCard(id string) bool {
	if _, ok := s.cat.Orders[id]; !ok {
		return false
	}
	return s.fallenCard(id)
}

// fallenCard says whether an order leads from or to a fallen district.
func (s *State) fallenCard(id string) bool {
	o := s.cat.Orders[id]
	return s.fallen(s.cat.Objects[o.From].District) || s.fallen(s.cat.Objects[o.To].District)
}

// takeCards walks cards taken from the top of the deck until want of them
// count (cards of fallen districts are discarded and replaced, extended),
// checking each against what the deck can hold. With peek the counted
// cards stay in the deck (they are returned as kept); otherwise they leave
// it. shown are the discarded cards.
func (s *State) takeCards(cards []string, want int, peek, partial bool) (kept, shown []string, err error) {
	d := s.Deck
	peeked := slices.Clone(d.Peeked)
	seen := map[string]bool{}
	for _, c := range d.Seen {
		seen[c] = true
	}
	left, above, victory := d.Left, d.Above, d.Victory
	shownAbove := 0
	for _, c := range cards {
		if len(kept) == want || left == 0 {
			return nil, nil, rules.Reject("too_many_cards", "za dużo kart: potrzeba %[1]d (talia: %[2]d)", "too many cards: %[1]d wanted (deck: %[2]d)", want, d.Left)
		}
		if len(peeked) > 0 {
			if c != peeked[0] {
				return nil, nil, rules.Reject("wrong_card", "na wierzchu talii leży obejrzana karta, nie %[1]q", "the card on top of the deck is the one looked at, not %[1]q", c)
			}
			peeked = peeked[1:]
		} else if _, ok := s.cat.Orders[c]; (!ok && c != VictoryCard) || seen[c] || slices.Contains(kept, c) {
			return nil, nil, rules.Reject("wrong_card", "karty %[1]q nie może być w talii", "card %[1]q cannot be in the deck", c)
		}
		if s.Variant == Extended && victory {
			switch {
			case above == 0 && c != VictoryCard:
				return nil, nil, rules.Reject("wrong_card", "teraz w talii leży karta Zwycięstwo, nie %[1]q", "the Victory card is next in the deck, not %[1]q", c)
			case above > 0 && c == VictoryCard:
				return nil, nil, rules.Reject("wrong_card", "nad kartą Zwycięstwo leży jeszcze %[1]d kart", "%[1]d cards still lie over the Victory card", above)
			case c == VictoryCard:
				victory = false
			default:
				above--
			}
		} else if c == VictoryCard {
			return nil, nil, rules.Reject("wrong_card", "karty Zwycięstwo nie ma w talii", "the Victory card is not in the deck")
		}
		left--
		if c != VictoryCard && s.Variant == Extended && s.fallenCard(c) {
			if victory {
				shownAbove++
			}
			shown = append(shown, c)
			seen[c] = true
			continue
		}
		kept = append(kept, c)
	}
	if len(kept) < want && left > 0 && !partial {
		return nil, nil, rules.Reject("too_few_cards", "za mało kart: potrzeba %[1]d, jest %[2]d", "too few cards: %[1]d wanted, %[2]d given", want, len(kept))
	}
	if peek {
		// The kept cards go back on top, in the same order: only the
		// discarded ones left the deck.
		left, above, victory = d.Left-len(shown), d.Above-shownAbove, d.Victory
	}
	s.Deck.Left, s.Deck.Above, s.Deck.Victory = left, above, victory
	s.Deck.Peeked = peeked
	if !peek {
		if len(peeked) == 0 {
			s.Deck.PeekedBy = 0
		}
		for _, c := range kept {
			seen[c] = true
		}
	}
	s.Deck.Seen = s.Deck.Seen[:0]
	for c := range seen {
		s.Deck.Seen = append(s.Deck.Seen, c)
	}
	sort.Strings(s.Deck.Seen)
	s.Discarded = append(s.Discarded, shown...)
	return kept, shown, nil
}

func (s *State) drawOrders(a DrawOrders) ([]Event, error) {
	if err := s.waiting(WaitDrawOrders); err != nil {
		return nil, err
	}
	if len(a.Cards) == 0 {
		return nil, rules.Reject("too_few_cards", "nie podano żadnej karty", "no card given")
	}
	// The cards may come one at a time (each read from its tag as it is
	// laid on the track): the phase waits for the rest.
	kept, shown, err := s.takeCards(a.Cards, s.Pending.Count, false, true)
	if err != nil {
		return nil, err
	}
	var evs []Event
	if len(shown) > 0 {
		evs = append(evs, Event{Type: "discarded", Cards: shown, Text: rules.Textf("odrzucone (upadła dzielnica): %[1]s", "discarded (fallen district): %[1]s", s.orderNames(shown))})
	}
	for _, c := range kept {
		s.Track[0] = append(s.Track[0], c)
		if c == VictoryCard {
			evs = append(evs, Event{Type: "victory_card", Cards: []string{c}, Text: rules.Textf("na torze pojawia się karta Zwycięstwo", "the Victory card comes onto the track")})
			continue
		}
		o := s.cat.Orders[c]
		evs = append(evs, Event{Type: "order_drawn", Order: c, Points: o.Points, Text: rules.Textf("rozkaz: %[1]s → %[2]s, %[3]d pkt", "order: %[1]s → %[2]s, %[3]d points", s.cat.Objects[o.From].Name, s.cat.Objects[o.To].Name, o.Points)})
	}
	if rest := s.Pending.Count - len(kept); rest > 0 && s.Deck.Left > 0 {
		s.Pending.Count = rest
		return evs, nil
	}
	if s.Phase == PhaseTime {
		s.Pending = nil
		return append(evs, s.settle()...), nil
	}
	return append(evs, s.beginCards()...), nil
}
