package mali

import (
	"math/rand/v2"
	"slices"
)

// bot plays legal actions for the property tests and the generated
// example games: it supplies the table's inputs (goal hands, drawn cards,
// die rolls) from its random source and otherwise picks among
// LegalActions, greedily walking couriers to their orders.
type bot struct {
	r *rand.Rand
}

func newBot(seed uint64) *bot { return &bot{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))} }

// deck draws count cards as the table would: the peeked ones first, the
// Victory card when it is next, cards of fallen districts replaced.
func (b *bot) deck(s State, count int) []string {
	var out []string
	peeked := slices.Clone(s.Deck.Peeked)
	left, above, victory := s.Deck.Left, s.Deck.Above, s.Deck.Victory
	pool := slices.DeleteFunc(s.Unseen(), func(c string) bool { return c == VictoryCard || slices.Contains(peeked, c) })
	kept := 0
	for kept < count && left > 0 {
		var c string
		switch {
		case len(peeked) > 0:
			c, peeked = peeked[0], peeked[1:]
		case s.Variant == Extended && victory && above == 0:
			c = VictoryCard
		default:
			i := b.r.IntN(len(pool))
			c = pool[i]
			pool = slices.Delete(pool, i, i+1)
		}
		left--
		if c == VictoryCard {
			victory = false
		} else if victory {
			above--
		}
		out = append(out, c)
		if c == VictoryCard || !(s.Variant == Extended && s.fallenCard(c)) {
			kept++
		}
	}
	return out
}

func (b *bot) next(s State) Action {
	p := s.Pending
	if p == nil {
		return nil
	}
	switch p.Kind {
	case WaitDealGoals:
		ids := make([]string, 0, len(s.cat.Data.Goals))
		for _, g := range s.cat.Data.Goals {
			ids = append(ids, g.ID)
		}
		b.r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		var hands [][]string
		for i := range s.Players {
			hands = append(hands, ids[6*i:6*i+6])
		}
		return DealGoals{Hands: hands}
	case WaitKeepGoals:
		seat := p.Seats[0]
		var keep []string
		colours := map[string]bool{}
		for _, g := range s.player(seat).Dealt {
			if c := s.cat.Goals[g].Colour; !colours[c] && len(keep) < 3 {
				colours[c] = true
				keep = append(keep, g)
			}
		}
		return KeepGoals{Seat: seat, Goals: keep}
	case WaitDrawOrders:
		return DrawOrders{Cards: b.deck(s, p.Count)}
	}
	legal := LegalActions(s)
	if len(legal) == 0 {
		return nil
	}
	if p.Kind == WaitTurn && s.Turn.Card == 4 && !s.Turn.ActionDone && s.Variant == Extended && b.r.IntN(3) == 0 {
		k := 0
		if s.ordersPhaseHeld() {
			k = s.drawCount(s.Round + 1)
		}
		return Rumours{Cards: b.deck(s, k)}
	}
	if p.Kind != WaitTurn && p.Kind != WaitBonusMove {
		return legal[b.r.IntN(len(legal))]
	}
	// Take orders; take an extended action now and then; step the courier
	// that gets nearest to what it wants; else end the turn.
	var best Action
	bestGain := 0
	for _, a := range legal {
		switch a := a.(type) {
		case PickUp:
			return a
		case SwapCouriers, UnitJump, SwapOrders:
			if b.r.IntN(4) == 0 {
				return a
			}
		case Move:
			c, _ := s.Courier(a.Courier)
			gain := b.want(s, c, c.At) - b.want(s, c, a.To) + b.r.IntN(2)
			if gain > bestGain {
				best, bestGain = a, gain
			}
		}
	}
	if best != nil && b.r.IntN(10) > 0 {
		return best
	}
	if b.r.IntN(6) == 0 {
		return legal[b.r.IntN(len(legal))]
	}
	return EndTurn{}
}

// want is how far n is from what courier c wants: its order's target, or
// the nearest start of an order on the track.
func (b *bot) want(s State, c Courier, n Node) int {
	d := s.cat.distances(n, func(e edge, _ Node) bool { return !s.blocked(e.Road) })
	if c.Carrying != "" {
		if v, ok := d[Node(s.cat.Orders[c.Carrying].To)]; ok {
			return v
		}
		return 100
	}
	best := 100
	for _, f := range s.Track {
		for _, id := range f {
			if o, ok := s.cat.Orders[id]; ok {
				if v, ok := d[Node(o.From)]; ok && v < best {
					best = v
				}
			}
		}
	}
	return best
}

// playBot plays a game from start to the end (or maxSteps), returning the
// actions taken.
func playBot(cat *Catalogue, setup Setup, seed uint64, maxSteps int, check func(State, Action, State)) ([]Action, State, error) {
	b := newBot(seed)
	start := cat.NewGame(setup)
	s, _, err := Apply(State{}, start)
	if err != nil {
		return nil, s, err
	}
	acts := []Action{start}
	for i := 0; i < maxSteps && s.Phase != PhaseOver; i++ {
		a := b.next(s)
		if a == nil {
			break
		}
		next, _, err := Apply(s, a)
		if err != nil {
			return acts, s, err
		}
		if check != nil {
			check(s, a, next)
		}
		acts = append(acts, a)
		s = next
	}
	return acts, s, nil
}
