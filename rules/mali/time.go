package mali

import (
	"slices"
	"sort"
	"strings"

	"github.com/sztab/sztab/rules"
)

// TrackLength is the number of fields of the order track: 5, or 4 in the
// extended variant.
func (s State) TrackLength() int { return len(s.Track) }

// beginTime is the time phase: every card moves one field down the track;
// the cards leaving the last field are missed and settled one by one, in
// the order they lie on that field (the order they came onto the track).
func (s *State) beginTime() []Event {
	s.Phase = PhaseTime
	s.Pending = nil
	last := s.Track[len(s.Track)-1]
	copy(s.Track[1:], s.Track[:len(s.Track)-1])
	s.Track[0] = []string{}
	evs := []Event{ev("time", "czas płynie: rozkazy przesuwają się o jedno pole", "time passes: the orders move one field down")}
	for _, card := range last {
		if card == VictoryCard {
			s.VictoryOut = true
			evs = append(evs, Event{Type: "victory_out", Cards: []string{card}, Text: rules.Textf("karta Zwycięstwo opuszcza tor: gra kończy się z tą rundą", "the Victory card leaves the track: the game ends with this round")})
			continue
		}
		s.Missed = append(s.Missed, card)
		for i := range s.Couriers {
			if s.Couriers[i].Carrying == card {
				s.Couriers[i].Carrying = ""
			}
		}
		s.Queue = append(s.Queue, "miss:"+card)
	}
	return append(evs, s.settle()...)
}

// settle works through the time phase's queue until a player must decide
// or the round ends.
func (s *State) settle() []Event {
	var evs []Event
	for s.Phase != PhaseOver && s.Pending == nil {
		if len(s.Displace) > 0 {
			c := s.courier(s.Displace[0])
			choices := s.nearestSafe(c.At)
			switch len(choices) {
			case 0:
				// Nowhere safe on the whole map: the courier waits off
				// the map and comes back as an escaped one.
				c.At, c.Off = "", Escaped
				s.Displace = s.Displace[1:]
				evs = append(evs, Event{Type: "no_safe_field", Courier: c.ID, Text: rules.Textf("%[1]s nie ma dokąd pójść: wraca do ręki gracza", "%[1]s has nowhere to go: back to the player's hand", CourierName(*c))})
			case 1:
				s.Displace = s.Displace[1:]
				evs = append(evs, s.forcedMove(c, choices[0])...)
			default:
				s.Pending = &Pending{Kind: WaitDisplace, Seat: c.Seat, Courier: c.ID, Choices: nodeStrings(choices)}
				evs = append(evs, Event{Type: WaitDisplace, Courier: c.ID, Seat: c.Seat, Text: rules.Textf("gracz %[1]d wybiera, dokąd przesunąć harcerza %[2]s", "player %[1]d chooses where %[2]s goes", c.Seat, CourierName(*c))})
			}
			continue
		}
		if len(s.Queue) == 0 {
			return append(evs, s.endRound()...)
		}
		item := s.Queue[0]
		s.Queue = s.Queue[1:]
		if item == "draw" {
			// "Natychmiast weźcie kartę z wierzchu talii rozkazów i
			// umieśćcie ją na pierwszym polu toru rozkazów."
			if s.Deck.Left == 0 || (s.Options.NoDrawAfterVictory && !s.Deck.Victory) {
				evs = append(evs, ev("no_draw", "talia pusta: nie dobiera się karty", "the deck is empty: no card is drawn"))
				continue
			}
			s.Pending = &Pending{Kind: WaitDrawOrders, Seat: s.Starter, Count: 1}
			continue
		}
		evs = append(evs, s.miss(strings.TrimPrefix(item, "miss:"))...)
	}
	return evs
}

// lastMover is the seat that moved last this round.
func (s *State) lastMover() int {
	if s.Turn == nil || len(s.Turn.Order) == 0 {
		return s.Starter
	}
	return s.Turn.Order[len(s.Turn.Order)-1]
}

func (s *State) miss(card string) []Event {
	o := s.cat.Orders[card]
	target := s.cat.Objects[o.To]
	evs := []Event{{Type: "missed", Order: card, District: target.District,
		Text: rules.Textf("rozkaz %[1]s nie dotarł na czas", "the order %[1]s did not arrive in time", s.orderName(card))}}
	if s.Variant == Extended {
		d := s.district(target.District)
		if d.Fallen {
			// The district is lost already: nothing more to lose.
			return append(evs, Event{Type: "already_fallen", District: d.ID, Text: rules.Textf("dzielnica %[1]s już upadła", "district %[1]s has already fallen", s.cat.Districts[d.ID].Name)})
		}
		d.Missed++
		if d.Missed >= 2 {
			return append(evs, s.fall(d)...)
		}
		s.Queue = append([]string{"draw"}, s.Queue...)
	}
	var roads []string
	for _, r := range s.cat.Data.Map.Roads {
		if (r.A == o.To || r.B == o.To) && !s.blocked(r.ID) {
			roads = append(roads, r.ID)
		}
	}
	seat := s.lastMover()
	switch len(roads) {
	case 0:
		// Every road from the target is blocked already: the token still
		// comes onto the board (and counts), beside the object.
		return append(evs, s.placeBlock(Block{Order: card, District: target.District})...)
	case 1:
		return append(evs, s.placeBlock(Block{Road: roads[0], Order: card, District: target.District})...)
	}
	s.Pending = &Pending{Kind: WaitBlockRoad, Seat: seat, Order: card, Choices: roads}
	return append(evs, Event{Type: WaitBlockRoad, Seat: seat, Order: card, Text: rules.Textf("gracz %[1]d blokuje jedną z dróg z %[2]s", "player %[1]d blocks one of the roads from %[2]s", seat, target.Name)})
}

func (s *State) placeBlock(b Block) []Event {
	s.Blocks = append(s.Blocks, b)
	s.Tokens++
	var evs []Event
	if b.Road == "" {
		evs = append(evs, Event{Type: "token", District: b.District, Text: rules.Textf("żeton oddziału niemieckiego (wszystkie drogi już zablokowane)", "a German token (every road is blocked already)")})
	} else {
		r := s.cat.Roads[b.Road]
		evs = append(evs, Event{Type: "road_blocked", Road: b.Road, Order: b.Order, District: b.District,
			Text: rules.Textf("droga %[1]s – %[2]s zablokowana", "road %[1]s – %[2]s blocked", s.cat.Objects[r.A].Name, s.cat.Objects[r.B].Name)})
		for _, c := range s.Couriers {
			if _, _, on := s.cat.RoadOf(c.At); c.OnMap() && on && s.onBlockedRoad(c.At) {
				if road, _, _ := s.cat.RoadOf(c.At); road == b.Road {
					s.Displace = append(s.Displace, c.ID)
				}
			}
		}
	}
	if (s.Variant == Basic || s.Options.TokenLimitExtended) && s.smallTokens() >= 4 {
		// "Jeśli w jakimkolwiek momencie gry na planszy pojawi się czwarty
		// żeton oddziałów niemieckich, gra natychmiast kończy się porażką."
		return append(evs, s.defeat(rules.Text{PL: "czwarty żeton oddziałów niemieckich: porażka wszystkich graczy", EN: "the fourth German token: all players lose"})...)
	}
	return evs
}

func (s *State) smallTokens() int { return len(s.Blocks) }

// fall is a district's second missed order (extended).
func (s *State) fall(d *DistrictState) []Event {
	d.Fallen = true
	s.Tokens++
	name := s.cat.Districts[d.ID].Name
	evs := []Event{{Type: "district_fell", District: d.ID, Text: rules.Textf("dzielnica %[1]s upada", "district %[1]s falls", name)}}
	fallen := 0
	for _, x := range s.Districts {
		if x.Fallen {
			fallen++
		}
	}
	if fallen >= 3 {
		return append(evs, s.defeat(rules.Text{PL: "upadła trzecia dzielnica: porażka wszystkich graczy", EN: "a third district has fallen: all players lose"})...)
	}
	for _, c := range s.Couriers {
		if c.OnMap() && s.cat.DistrictOf[c.At] == d.ID {
			s.Displace = append(s.Displace, c.ID)
		}
	}
	s.Queue = append([]string{"draw"}, s.Queue...)
	return evs
}

func (s *State) forcedMove(c *Courier, n Node) []Event {
	if s.Options.NoForcedDelivery {
		from := c.At
		c.At, c.Left = n, true
		return []Event{{Type: "moved_to_safety", Courier: c.ID, Seat: c.Seat, From: from, To: n, Text: rules.Textf("%[1]s: %[2]s → %[3]s (bezpieczne pole)", "%[1]s: %[2]s → %[3]s (safe field)", CourierName(*c), s.cat.Name(from), s.cat.Name(n))}}
	}
	return s.moveTo(c, n, "moved_to_safety")
}

func (s *State) blockRoad(a BlockRoad) ([]Event, error) {
	if err := s.waiting(WaitBlockRoad); err != nil {
		return nil, err
	}
	if a.Seat != s.Pending.Seat || !slices.Contains(s.Pending.Choices, a.Road) {
		return nil, rules.Reject("bad_choice", "gracz %[1]d blokuje jedną z dróg %[2]v", "player %[1]d blocks one of the roads %[2]v", s.Pending.Seat, s.Pending.Choices)
	}
	card := s.Pending.Order
	s.Pending = nil
	evs := s.placeBlock(Block{Road: a.Road, Order: card, District: s.cat.Objects[s.cat.Orders[card].To].District})
	return append(evs, s.settle()...), nil
}

func (s *State) displace(a Displace) ([]Event, error) {
	if err := s.waiting(WaitDisplace); err != nil {
		return nil, err
	}
	if a.Courier != s.Pending.Courier || !slices.Contains(s.Pending.Choices, string(a.To)) {
		return nil, rules.Reject("bad_choice", "%[1]s idzie na jedno z pól %[2]v", "%[1]s goes to one of %[2]v", s.Pending.Courier, s.Pending.Choices)
	}
	s.Pending = nil
	s.Displace = s.Displace[1:]
	evs := s.forcedMove(s.courier(a.Courier), a.To)
	return append(evs, s.settle()...), nil
}

func (s *State) defeat(reason rules.Text) []Event {
	s.Phase = PhaseOver
	s.Pending = nil
	s.Queue, s.Displace = nil, nil
	s.Result = &Result{Defeat: true, Reason: reason}
	return []Event{{Type: "defeat", Result: s.Result, Text: reason}}
}

func (s *State) endRound() []Event {
	i := s.seatIndex(s.Starter)
	s.Starter = s.Players[(i+1)%len(s.Players)].Seat
	evs := []Event{ev("starter", "znacznik gracza rozpoczynającego przechodzi do gracza %[1]d", "the round-starter marker passes to player %[1]d", s.Starter)}
	onTrack := 0
	for _, f := range s.Track {
		onTrack += len(f)
	}
	if (s.Variant == Basic && s.Deck.Left == 0 && onTrack == 0) || (s.Variant == Extended && s.VictoryOut) {
		return append(evs, s.finish()...)
	}
	return append(evs, s.beginRound()...)
}

// HomeBonus is the return-home bonus for n couriers on start objects.
func HomeBonus(n int) int { return [4]int{0, 1, 3, 7}[min(max(n, 0), 3)] }

// Scores are the scores as they would stand if the game ended now.
func (s State) Scores() []Score {
	starts := s.cat.StartObjects()
	delivered := map[int]int{}
	fromDistrict := map[string]map[int]int{}
	bestPoints := 0
	for _, p := range s.Players {
		delivered[p.Seat] = len(p.Delivered)
		for _, id := range p.Delivered {
			o := s.cat.Orders[id]
			d := s.cat.Objects[o.From].District
			if fromDistrict[d] == nil {
				fromDistrict[d] = map[int]int{}
			}
			fromDistrict[d][p.Seat]++
			bestPoints = max(bestPoints, o.Points)
		}
	}
	most := func(counts map[int]int, seat int) bool {
		top := 0
		for _, n := range counts {
			top = max(top, n)
		}
		// Ties: every tied player achieves it; nobody delivered: nobody.
		return top > 0 && counts[seat] == top
	}
	var out []Score
	for _, p := range s.Players {
		sc := Score{Seat: p.Seat, Orders: len(p.Delivered)}
		targets := map[string]bool{}
		important := false
		for _, id := range p.Delivered {
			o := s.cat.Orders[id]
			sc.OrderPoints += o.Points
			targets[s.cat.Objects[o.To].District] = true
			if o.Points == bestPoints {
				important = true
			}
		}
		for _, c := range s.Couriers {
			if c.Seat == p.Seat && c.OnMap() && slices.Contains(starts, string(c.At)) && (c.Left || !s.Options.homeBonusNeedsReturn()) {
				sc.Home++
			}
		}
		sc.HomeBonus = HomeBonus(sc.Home)
		for _, g := range p.Goals {
			goal := s.cat.Goals[g]
			done := false
			switch goal.Kind {
			case GoalMostFromDistrict:
				done = most(fromDistrict[goal.Param], p.Seat)
			case GoalMostOrders:
				done = most(delivered, p.Seat)
			case GoalDistricts:
				done = len(targets) >= atoi(goal.Param)
			case GoalMostImportant:
				done = important && bestPoints > 0
			}
			if done {
				sc.GoalsDone = append(sc.GoalsDone, g)
				sc.GoalPoints += goal.Points
			}
		}
		sc.Total = sc.OrderPoints + sc.HomeBonus + sc.GoalPoints
		out = append(out, sc)
	}
	return out
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

// Winners are the seats with the most points; among tied, those who
// delivered more orders; still tied, all of them.
func Winners(scores []Score) []int {
	best := slices.Clone(scores)
	sort.SliceStable(best, func(i, j int) bool {
		if best[i].Total != best[j].Total {
			return best[i].Total > best[j].Total
		}
		return best[i].Orders > best[j].Orders
	})
	var out []int
	for _, sc := range best {
		if len(best) > 0 && sc.Total == best[0].Total && sc.Orders == best[0].Orders {
			out = append(out, sc.Seat)
		}
	}
	sort.Ints(out)
	return out
}

func (s *State) finish() []Event {
	scores := s.Scores()
	s.Phase = PhaseOver
	s.Pending = nil
	s.Result = &Result{Scores: scores, Winners: Winners(scores), Reason: rules.Text{PL: "koniec gry: liczymy punkty", EN: "the game is over: scoring"}}
	evs := []Event{}
	for _, sc := range scores {
		evs = append(evs, Event{Type: "score", Seat: sc.Seat, Points: sc.Total,
			Text: rules.Textf("gracz %[1]d: rozkazy %[2]d (%[3]d pkt), powrót %[4]d harcerzy (%[5]d pkt), cele %[6]d pkt — razem %[7]d",
				"player %[1]d: %[2]d orders (%[3]d points), %[4]d couriers home (%[5]d points), goals %[6]d points — total %[7]d",
				sc.Seat, sc.Orders, sc.OrderPoints, sc.Home, sc.HomeBonus, sc.GoalPoints, sc.Total)})
	}
	return append(evs, Event{Type: "game_over", Result: s.Result, Text: rules.Textf("wygrywa: %[1]s", "winner(s): %[1]s", s.seatNames(s.Result.Winners))})
}
