package wotrush

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sztab/sztab/rules"
)

// Event is something that happened, for the journal, the screens and the
// players. Events are public: they never name a card in a hidden hand or
// the Garage order (cards drawn are counted, not named).
type Event struct {
	Type   string     `json:"type"`
	Text   rules.Text `json:"text"`
	Seat   int        `json:"seat,omitempty"`
	Card   string     `json:"card,omitempty"`
	Target string     `json:"target,omitempty"`
	Cards  []string   `json:"cards,omitempty"`
	N      int        `json:"n,omitempty"`
	Result *Result    `json:"result,omitempty"`
}

// Apply plays action a on state s. It returns the next state and what
// happened, or a *rules.Rejection (or, for a StartGame with bad data, an
// error wrapping one) and s itself: nothing is half-applied, s is never
// changed.
func Apply(s State, a Action) (State, []Event, error) {
	return applyWith(s, a, nil)
}

// Allowable are the rejection codes a referee may let stand for one action
// (rules.Waiver, "flag but allow"): the one-purchase and
// one-attack limits of a turn, a purchase that costs more than the cards
// give, attackers of more than one nation.
// Every other refusal (malformed input, an unknown card or unit, the wrong
// phase) stands whatever the waiver says.
var Allowable = []string{"second_purchase", "too_little", "second_attack", "mixed_nations"}

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
	if !keepsSelection(a) {
		next.Selection = nil
	}
	next.tally()
	return next, evs, nil
}

func (s *State) apply(a Action) ([]Event, error) {
	if a == nil {
		return nil, rules.Reject("unknown_action", "brak akcji", "no action")
	}
	if st, ok := a.(StartGame); ok {
		if s.Phase != "" {
			return nil, rules.Reject("already_started", "gra już trwa", "the game is already running")
		}
		return s.start(st)
	}
	if s.Phase == "" {
		return nil, rules.Reject("not_started", "gra się jeszcze nie zaczęła", "the game has not started")
	}
	if s.Phase == PhaseOver {
		return nil, rules.Reject("game_over", "gra się skończyła", "the game is over")
	}
	if d, ok := a.(DeclareEnd); ok {
		return s.declareEnd(d)
	}
	seat := actionSeat(a)
	if s.Player(seat) == nil {
		return nil, rules.Reject("unknown_seat", "miejsce %d nie gra", "seat %d is not playing", seat)
	}
	switch a := a.(type) {
	case RevealHand:
		if err := s.checkReveal(a, seat); err != nil {
			return nil, err
		}
		return s.revealHand(a)
	case RevealReserve:
		if err := s.checkReveal(a, seat); err != nil {
			return nil, err
		}
		return s.revealReserve(a)
	}
	if s.Pending != nil {
		if a.Type() != s.Pending.Kind {
			return nil, rules.Reject("awaiting_decision", "najpierw: %[1]s", "first: %[2]s", s.Pending.Text.PL, s.Pending.Text.EN)
		}
		if seat != s.Pending.Seat {
			return nil, rules.Reject("not_your_decision", "decyzję podejmuje %[1]s, nie %[2]s", "%[1]s decides, not %[2]s", s.name(s.Pending.Seat), s.name(seat))
		}
	} else if seat != s.Active {
		return nil, rules.Reject("not_your_turn", "teraz tura gracza %[1]s, nie %[2]s", "it is %[1]s's turn, not %[2]s's", s.name(s.Active), s.name(seat))
	}
	switch a := a.(type) {
	case Buy:
		return s.acted(s.buy(a))
	case PlayCard:
		return s.acted(s.playCard(a))
	case Attack:
		return s.acted(s.attack(a))
	case Select:
		return s.selectCards(a)
	case EndTurn:
		return s.endTurn()
	case Defend, Research, Dismantle, Siege, Discard, Fire, TakeMedals:
		if s.Pending == nil {
			return nil, rules.Reject("no_decision", "nikt nie czeka na odpowiedź %s", "nothing waits for a %s answer", a.Type())
		}
		return s.answer(a)
	}
	return nil, rules.Reject("unknown_action", "nieznana akcja %T", "unknown action %T", a)
}

func actionSeat(a Action) int {
	switch a := a.(type) {
	case Buy:
		return a.Seat
	case PlayCard:
		return a.Seat
	case Defend:
		return a.Seat
	case Research:
		return a.Seat
	case Dismantle:
		return a.Seat
	case Siege:
		return a.Seat
	case Discard:
		return a.Seat
	case Attack:
		return a.Seat
	case Fire:
		return a.Seat
	case TakeMedals:
		return a.Seat
	case EndTurn:
		return a.Seat
	case RevealHand:
		return a.Seat
	case RevealReserve:
		return a.Seat
	case Select:
		return a.Seat
	}
	return 0
}

// acted notes that the turn's step II has begun.
func (s *State) acted(evs []Event, err error) ([]Event, error) {
	if err == nil {
		s.Acted = true
	}
	return evs, err
}

// MinPlayers and MaxPlayers bound a game. The rulebook shows a five-player
// setup and prints no minimum; a deck-building duel works, so two.
const (
	MinPlayers = 2
	MaxPlayers = 5
)

func (s *State) start(a StartGame) ([]Event, error) {
	cat, err := NewCatalogue(a.Data)
	if err != nil {
		return nil, fmt.Errorf("%w (%w)", rules.Reject("bad_setup", "błędne dane gry: %v", "bad game data: %v", err), err)
	}
	comp := cat.Data.Components
	n := len(a.Players)
	if n < MinPlayers || n > min(MaxPlayers, comp.Sets) {
		return nil, rules.Reject("bad_setup", "graczy: %d; gra jest dla %d–%d graczy", "%d players; the game is for %d to %d", n, MinPlayers, min(MaxPlayers, comp.Sets))
	}
	o := a.Options
	o.defaults()
	if err := o.check(); err != nil {
		return nil, err
	}
	s.Options, s.Seed, s.Phase = o, a.Seed, PhasePlay
	s.HandLimit, s.ReserveSize = comp.HandSize, comp.ReserveSize
	s.Cards = map[string]Card{}
	seen := map[int]bool{}
	for _, p := range a.Players {
		if p.Seat < 1 || seen[p.Seat] {
			return nil, rules.Reject("bad_setup", "miejsce %d: miejsca są numerowane od 1, każde raz", "seat %d: seats are numbered from 1, each once", p.Seat)
		}
		if strings.TrimSpace(p.Name) == "" {
			p.Name = fmt.Sprintf("#%d", p.Seat)
		}
		seen[p.Seat] = true
		s.Players = append(s.Players, Player{Seat: p.Seat, Name: p.Name})
	}
	if !seen[a.First] {
		return nil, rules.Reject("bad_setup", "pierwszy gracz: miejsce %d nie gra", "first player: seat %d is not playing", a.First)
	}
	s.First, s.Active = a.First, a.First
	// Vehicles.
	var deck []string
	for _, dv := range cat.Data.Vehicles {
		v := cat.Vehicles[dv.ID]
		s.Cards[v.ID] = Card{Kind: KindVehicle, Name: rules.Text{PL: v.Name, EN: v.Name}, Nation: v.Nation,
			Class: v.Class, Icon: v.Icon, Cost: v.Cost, Pays: true, Resources: v.Resources,
			Firepower: *v.Firepower, Armour: *v.Armour, Abilities: v.Abilities}
		deck = append(deck, v.ID)
	}
	// Medals.
	for _, nat := range comp.Nations {
		pile := MedalPile{Nation: nat.ID}
		for i := 1; i <= nat.Singles; i++ {
			id := fmt.Sprintf("%s-1-%02d", nat.Tag, i)
			s.Cards[id] = Card{Kind: KindMedal, Name: rules.Text{PL: nat.Medal, EN: nat.Medal}, Nation: nat.ID, Pays: true, Resources: 1, Medals: 1}
			pile.Singles = append(pile.Singles, id)
		}
		for i := 1; i <= nat.Doubles; i++ {
			id := fmt.Sprintf("%s-2-%02d", nat.Tag, i)
			s.Cards[id] = Card{Kind: KindMedal, Name: rules.Text{PL: nat.Medal + " ×2", EN: nat.Medal + " ×2"}, Nation: nat.ID, Pays: true, Resources: 2, Medals: 2}
			pile.Doubles = append(pile.Doubles, id)
		}
		s.Medals = append(s.Medals, pile)
	}
	// Achievements.
	var achs []string
	for _, ac := range comp.Achievements {
		ac := ac
		s.Cards[ac.ID] = Card{Kind: KindAchievement, Name: ac.Name, Achievement: &ac, Points: comp.AchievementPoints}
		achs = append(achs, ac.ID)
	}
	// Barracks and bases, one set per player.
	for i := range s.Players {
		p, set := &s.Players[i], i+1
		for _, b := range comp.Barracks {
			for k := 1; k <= b.PerSet; k++ {
				id := fmt.Sprintf("%s-%d-%d", b.Tag, set, k)
				c := Card{Kind: KindBarracks, Name: b.Name, Abilities: b.Abilities, Set: set}
				if b.Resources != nil {
					c.Pays, c.Resources = true, *b.Resources
				}
				s.Cards[id] = c
				p.Garage = append(p.Garage, id)
			}
		}
		for k := 1; k <= comp.Bases.PerSet; k++ {
			id := fmt.Sprintf("%s-%d-%d", comp.Bases.Tag, set, k)
			s.Cards[id] = Card{Kind: KindBase, Name: rules.Textf("Baza %[1]d gracza %[2]s", "%[2]s's base %[1]d", k, p.Name), Points: comp.Bases.Points, Set: set}
			p.Bases = append(p.Bases, Base{Card: id})
		}
	}
	evs := []Event{{Type: "game_started", Seat: a.First,
		Text: rules.Textf("Gra: %[1]d graczy, zaczyna %[2]s", "Game: %[1]d players, %[2]s starts", n, s.name(a.First))}}
	// The shuffles.
	if a.Deck != nil {
		if err := samePermutation("deck", a.Deck, deck); err != nil {
			return nil, err
		}
		s.Deck = slices.Clone(a.Deck)
	} else {
		s.Deck = s.shuffle(deck)
	}
	for i := range s.Players {
		p := &s.Players[i]
		var given []string
		for _, g := range a.Garages {
			if g.Seat == p.Seat {
				given = g.Cards
			}
		}
		if given != nil {
			if err := samePermutation(fmt.Sprintf("garage %d", p.Seat), given, p.Garage); err != nil {
				return nil, err
			}
			p.Garage = slices.Clone(given)
		} else {
			p.Garage = s.shuffle(p.Garage)
		}
	}
	want := min(n+1, len(achs))
	if a.Achievements != nil {
		if len(a.Achievements) != want {
			return nil, rules.Reject("bad_setup", "osiągnięć: %d, a powinno być %d (liczba graczy + 1)", "%d achievements given, want %d (players + 1)", len(a.Achievements), want)
		}
		for _, id := range a.Achievements {
			if !slices.Contains(achs, id) || slices.Contains(s.Achievements, id) {
				return nil, rules.Reject("bad_setup", "osiągnięcie %q nieznane lub podane dwa razy", "achievement %q unknown or given twice", id)
			}
			s.Achievements = append(s.Achievements, id)
		}
		for _, id := range achs {
			if !slices.Contains(s.Achievements, id) {
				s.Box = append(s.Box, id)
			}
		}
	} else {
		sh := s.shuffle(achs)
		s.Achievements, s.Box = sh[:want], sh[want:]
		slices.Sort(s.Box)
	}
	for _, id := range s.Achievements {
		evs = append(evs, Event{Type: "achievement_in_play", Card: id, Text: rules.Textf("Osiągnięcie w grze: %[1]s", "Achievement in play: %[2]s", s.Cards[id].Name.PL, s.Cards[id].Name.EN)})
	}
	// The Reserve.
	for len(s.Reserve) < comp.ReserveSize && len(s.Deck) > 0 {
		s.Reserve = append(s.Reserve, s.Deck[0])
		s.Deck = s.Deck[1:]
	}
	evs = append(evs, Event{Type: "reserve", Cards: slices.Clone(s.Reserve), Text: rules.Textf("Rezerwa: %s", "Reserve: %s", s.names(s.Reserve))})
	for i := range s.Players {
		evs = append(evs, s.draw(s.Players[i].Seat, comp.HandSize)...)
	}
	s.Round, s.Turn = 1, 1
	evs = append(evs, s.startTurn()...)
	return evs, nil
}

func samePermutation(what string, got, want []string) error {
	a, b := slices.Clone(got), slices.Clone(want)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		return rules.Reject("bad_setup", "%s: podana kolejność nie zawiera dokładnie tych kart", "%s: the order given does not hold exactly these cards", what)
	}
	return nil
}

// shuffle returns a permutation of ids derived from the seed and the count
// of shuffles made (splitmix64 and Fisher–Yates, written out here so the
// order never depends on a library's version).
func (s *State) shuffle(ids []string) []string {
	out := slices.Clone(ids)
	x := s.Seed ^ (uint64(s.Shuffles+1) * 0x9E3779B97F4A7C15)
	s.Shuffles++
	next := func() uint64 {
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for i := len(out) - 1; i > 0; i-- {
		j := int(next() % uint64(i+1))
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func (s *State) name(seat int) string {
	if p := s.Player(seat); p != nil {
		return p.Name
	}
	return fmt.Sprintf("#%d", seat)
}

func (s *State) cardName(id string) string {
	if c, ok := s.Cards[id]; ok {
		return c.Name.PL
	}
	return id
}

func (s *State) cardNameEN(id string) string {
	if c, ok := s.Cards[id]; ok {
		return c.Name.EN
	}
	return id
}

// baseNo is a base card's number within its set ("BASE-2-1": "1").
func baseNo(id string) string { return id[strings.LastIndex(id, "-")+1:] }

// names lists cards by name in Polish; namesEN in English.
func (s *State) names(ids []string) string {
	var parts []string
	for _, id := range ids {
		parts = append(parts, s.cardName(id))
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

func (s *State) namesEN(ids []string) string {
	var parts []string
	for _, id := range ids {
		parts = append(parts, s.cardNameEN(id))
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

func (s *State) nationName(id string) rules.Text {
	switch id {
	case "ussr":
		return rules.Text{PL: "ZSRR", EN: "USSR"}
	case "germany":
		return rules.Text{PL: "Niemcy", EN: "Germany"}
	case "usa":
		return rules.Text{PL: "USA", EN: "USA"}
	case "france":
		return rules.Text{PL: "Francja", EN: "France"}
	}
	return rules.Text{PL: id, EN: id}
}

// draw moves n cards from the seat's Garage to the hand, shuffling the
// Magazine into a new Garage when it runs out. A base drawn goes straight
// to the Magazine ("Należy je natychmiast odłożyć do Magazynu") and is not
// replaced.
func (s *State) draw(seat, n int) []Event {
	p := s.Player(seat)
	var evs []Event
	drawn := 0
	for i := 0; i < n; i++ {
		if len(p.Garage) == 0 {
			if len(p.Magazine) == 0 {
				break
			}
			p.Garage = s.shuffle(p.Magazine)
			p.Magazine = nil
			evs = append(evs, Event{Type: "garage_shuffled", Seat: seat, N: len(p.Garage),
				Text: rules.Textf("%[1]s tasuje Magazyn (%[2]d kart) w nowy Garaż", "%[1]s shuffles the Magazine (%[2]d cards) into a new Garage", p.Name, len(p.Garage))})
		}
		c := p.Garage[0]
		p.Garage = p.Garage[1:]
		if s.Cards[c].Kind == KindBase {
			p.Magazine = append(p.Magazine, c)
			evs = append(evs, Event{Type: "base_set_aside", Seat: seat, Card: c,
				Text: rules.Textf("%[1]s dobiera %[2]s — karta Bazy idzie od razu do Magazynu", "%[1]s draws %[3]s — a base card goes straight to the Magazine", p.Name, s.cardName(c), s.cardNameEN(c))})
			continue
		}
		p.Hand = append(p.Hand, c)
		drawn++
	}
	evs = append(evs, Event{Type: "drew", Seat: seat, N: drawn,
		Text: rules.Textf("%[1]s dobiera %[2]d kart(y) z Garażu", "%[1]s draws %[2]d card(s) from the Garage", p.Name, drawn)})
	return evs
}

// deckTop takes the top vehicle, shuffling the discards into a new deck
// when the deck is empty ("wejdą bowiem do gry w momencie, gdy stos kart
// Pojazdów się wyczerpie"). "" when both are empty.
func (s *State) deckTop(evs *[]Event) string {
	if len(s.Deck) == 0 {
		if len(s.Discard) == 0 {
			return ""
		}
		s.Deck = s.shuffle(s.Discard)
		s.Discard = nil
		*evs = append(*evs, Event{Type: "deck_shuffled", N: len(s.Deck),
			Text: rules.Textf("Odrzucone Pojazdy (%[1]d) tasowane w nowy stos", "The discarded vehicles (%[1]d) are shuffled into a new deck", len(s.Deck))})
	}
	c := s.Deck[0]
	s.Deck = s.Deck[1:]
	return c
}

// refill puts a new card next to the deck (index 0), the row sliding away.
func (s *State) refill(evs *[]Event) {
	if c := s.deckTop(evs); c != "" {
		s.Reserve = slices.Insert(s.Reserve, 0, c)
		*evs = append(*evs, Event{Type: "reserve_refilled", Card: c,
			Text: rules.Textf("Do Rezerwy: %[1]s", "Into the Reserve: %[3]s", s.cardName(c), c, s.cardNameEN(c), c)})
	}
}

func (s *State) used(card string) bool { return slices.Contains(s.Used, card) }

func (s *State) markUsed(card string) {
	if s.Cards[card].Kind == KindVehicle && !s.used(card) {
		s.Used = append(s.Used, card)
	}
}

func removeOne(list []string, id string) []string {
	if i := slices.Index(list, id); i >= 0 {
		return slices.Delete(slices.Clone(list), i, i+1)
	}
	return list
}

// startTurn is phase I: the active player's damaged bases and vehicles are
// turned back upright, the hand is laid face up (public from now on).
func (s *State) startTurn() []Event {
	p := s.Player(s.Active)
	var evs []Event
	repaired := 0
	for i := range p.Bases {
		b := &p.Bases[i]
		if b.Damaged {
			repaired++
		}
		if b.DefenderDamaged {
			repaired++
		}
		b.Damaged, b.DefenderDamaged = false, false
	}
	evs = append(evs, Event{Type: "turn_started", Seat: s.Active, N: s.Round,
		Text: rules.Textf("Runda %[1]d: tura gracza %[2]s", "Round %[1]d: %[2]s's turn", s.Round, p.Name)})
	if repaired > 0 {
		evs = append(evs, Event{Type: "repaired", Seat: s.Active, N: repaired,
			Text: rules.Textf("%[1]s naprawia uszkodzenia (%[2]d kart)", "%[1]s repairs damage (%[2]d cards)", p.Name, repaired)})
	}
	evs = append(evs, Event{Type: "hand_revealed", Seat: s.Active, Cards: slices.Clone(p.Hand),
		Text: rules.Textf("%[1]s odkrywa rękę: %[2]s", "%[3]s reveals the hand: %[4]s", p.Name, s.names(p.Hand), p.Name, s.namesEN(p.Hand))})
	return evs
}

func (s *State) busy() error {
	switch {
	case s.Pending != nil:
		return rules.Reject("awaiting_decision", "najpierw: %[1]s", "first: %[2]s", s.Pending.Text.PL, s.Pending.Text.EN)
	case s.Playing != nil:
		return rules.Reject("card_in_play", "karta %[1]s jest jeszcze rozgrywana", "card %[2]s is still being played", s.cardName(s.Playing.Card), s.cardNameEN(s.Playing.Card))
	case s.Attack != nil:
		return rules.Reject("attack_in_progress", "atak trwa", "an attack is in progress")
	}
	return nil
}

// handCard checks a card the active player plays from the hand.
func (s *State) handCard(seat int, id string) error {
	c, ok := s.Cards[id]
	if !ok {
		return rules.Reject("unknown_card", "nieznana karta %q", "unknown card %q", id)
	}
	p := s.Player(seat)
	if !slices.Contains(p.Hand, id) {
		if c.Kind == KindBase {
			return rules.Reject("base_card", "karty Bazy nie mogą zostać zagrane", "base cards cannot be played")
		}
		return rules.Reject("not_in_hand", "%[1]s nie jest na ręce gracza %[3]s", "%[4]s is not in %[3]s's hand", c.Name.PL, id, p.Name, c.Name.EN)
	}
	if s.used(id) {
		return rules.Reject("used_twice", "%[1]s był już zagrany w tej turze", "%[3]s was already played this turn", c.Name.PL, id, c.Name.EN)
	}
	return nil
}
