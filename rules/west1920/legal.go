package west1920

import (
	"slices"
	"strconv"
	"strings"
)

// LegalActions lists actions Apply accepts in s: every candidate is checked
// by Apply, so the list never holds a refused action. It is complete for
// decisions with few answers (rolls with one or two dice, passes, cards,
// depots, chits, turns, attacks, replacements) and samples the large ones:
// one shortest path to each reachable hex for moves (7.x, 8.0, 11.x), every
// two-hex path for retreats and withdrawals, and a few loss allocations.
// Referee corrections (adjust) are never listed.
func LegalActions(s State) []Action {
	if s.Phase == "" || s.Phase == PhaseOver || s.cat == nil {
		return nil
	}
	return legalOnly(s, s.candidates())
}

func legalOnly(s State, cand []Action) []Action {
	var out []Action
	for _, a := range cand {
		if _, _, err := Apply(s, a); err == nil {
			out = append(out, a)
		}
	}
	return out
}

func (s *State) candidates() []Action {
	b := s.cat.Board
	if p := s.Pending; p != nil {
		return s.pendingCandidates(p)
	}
	var c []Action
	side := s.Turn
	sides := []string{side}
	if s.Phase == PhaseReplacement {
		sides = []string{Polish, Russian}
	}
	for _, sd := range sides {
		if sd != "" {
			c = append(c, Pass{Side: sd})
		}
	}
	switch s.Phase {
	case PhaseEvents:
		for _, sd := range []string{Polish, Russian} {
			for _, card := range s.Deck {
				c = append(c, DrawCard{Side: sd, Card: card})
			}
			for _, card := range s.player(sd).Hand {
				c = append(c, PlayCard{Side: sd, Card: card})
			}
		}
	case PhaseDepots:
		for _, city := range s.cat.Data.Map.Cities {
			c = append(c, BuildDepot{Side: side, Hex: city.Hex})
		}
		for _, d := range s.Depots {
			c = append(c, RemoveDepot{Side: side, Hex: d.Hex})
		}
	case PhaseChits:
		for _, h := range s.stackHexes(side) {
			c = append(c, AssignChit{Side: side, Hex: h})
		}
	case PhaseOrders:
		for _, ch := range s.Chits {
			if ch.Side != side {
				continue
			}
			c = append(c, DiscardChit{Side: side, Hex: ch.Hex})
			for d := N; d <= NW; d++ {
				c = append(c, Order{Side: side, Hex: ch.Hex, Facing: d.String()})
			}
			for _, path := range s.paths(b.Index(ch.Hex), 5) {
				c = append(c, Order{Side: side, Hex: ch.Hex, Path: path})
			}
		}
	case PhaseHQ:
		for _, q := range s.HQs {
			if q.Side == side && q.Status == OnMap && !q.Moved {
				for _, path := range s.paths(b.Index(q.Hex), 5) {
					c = append(c, MoveHQ{Side: side, HQ: q.ID, Path: path})
				}
			}
		}
	case PhaseWithdrawal:
		for _, h := range s.stackHexes(side) {
			for _, path := range s.twoHexPaths(h) {
				c = append(c, Withdraw{Side: side, Hex: h, Path: path})
			}
		}
	case PhaseCombat:
		for _, h := range s.stackHexes(side) {
			if t := s.facedHex(side, h); t >= 0 {
				c = append(c, Attack{Side: side, From: h, Target: b.HexAt(t)})
			}
		}
	case PhaseReplacement:
		for _, u := range s.Units {
			if u.Status == OnMap && u.Weak {
				c = append(c, Replace{Side: u.Side, Unit: u.ID})
			}
		}
	case PhaseStrategic:
		for _, u := range s.Units {
			if u.Side == side && u.Status == OnMap && !u.Strategic {
				for _, path := range s.paths(b.Index(u.Hex), 4) {
					c = append(c, StrategicMove{Side: side, Unit: u.ID, Path: path})
				}
			}
		}
		for _, q := range s.HQs {
			if q.Side == side && q.Status == OnMap && !q.Strategic {
				for _, path := range s.paths(b.Index(q.Hex), 4) {
					c = append(c, StrategicMove{Side: side, Unit: q.ID, Path: path})
				}
			}
		}
	}
	return c
}

func (s *State) pendingCandidates(p *Pending) []Action {
	var c []Action
	switch p.Action {
	case "roll":
		switch p.Dice {
		case 1:
			for d := 1; d <= 6; d++ {
				c = append(c, Roll{Dice: []int{d}})
			}
		case 2:
			for d := 1; d <= 6; d++ {
				for e := 1; e <= 6; e++ {
					c = append(c, Roll{Dice: []int{d, e}})
				}
			}
		default:
			for d := 1; d <= 6; d++ {
				r := make([]int, p.Dice)
				for i := range r {
					r[i] = d
				}
				c = append(c, Roll{Dice: r})
			}
		}
	case "losses":
		// Round robin from each unit in turn, then the same doubled up.
		for k := range p.Options {
			var ids []string
			for i := 0; len(ids) < p.N && i < 2*len(p.Options); i++ {
				ids = append(ids, p.Options[(k+i)%len(p.Options)])
			}
			c = append(c, Losses{Side: p.Side, Units: ids})
			var dbl []string
			for i := 0; len(dbl) < p.N && i < len(p.Options); i++ {
				id := p.Options[(k+i)%len(p.Options)]
				dbl = append(dbl, id)
				if len(dbl) < p.N {
					dbl = append(dbl, id)
				}
			}
			c = append(c, Losses{Side: p.Side, Units: dbl})
		}
	case "retreat":
		if p.Kind == "card_retreat" {
			for _, path := range s.twoHexPaths(p.Hex) {
				c = append(c, Retreat{Side: p.Side, Path: path})
			}
			break
		}
		bt := s.Battle
		from, losers := bt.Target, bt.Defenders
		if bt.Loser == bt.Side {
			from, losers = bt.From, bt.Attackers
		}
		ids := s.alive(losers)
		c = append(c, Retreat{Side: p.Side})
		for _, path := range s.twoHexPaths(from) {
			dest := path[1]
			over := len(s.ownStack(bt.Loser, dest)) + len(ids) - StackLimit
			r := Retreat{Side: p.Side, Path: path}
			if over > 0 && over <= len(ids) {
				r.Eliminate = slices.Clone(ids[:over])
			}
			c = append(c, r)
		}
	case "pursue":
		c = append(c, Pursue{Side: p.Side, Units: []string{}})
		var movers []string
		for _, id := range p.Options {
			if u := s.unit(id); u != nil && u.Type != Artillery {
				movers = append(movers, id)
			}
		}
		if len(movers) > 0 {
			c = append(c, Pursue{Side: p.Side, Units: movers})
			if p.Kind == "pursuit" && s.Battle != nil {
				vacated := s.Battle.Target
				if s.Battle.Loser == s.Battle.Side {
					vacated = s.Battle.From
				}
				b := s.cat.Board
				for _, id := range movers {
					if s.unit(id).Type != Cavalry {
						continue
					}
					for d := N; d <= NW; d++ {
						if j := b.Neighbour(b.Index(vacated), d); j >= 0 {
							c = append(c, Pursue{Side: p.Side, Units: movers, Further: []PursuitStep{{Unit: id, Hex: b.HexAt(j)}}})
						}
					}
					break
				}
			}
		}
	case "choose":
		// Each window of N consecutive options (and none, when fewer may
		// be chosen).
		if p.UpTo {
			c = append(c, Choose{Side: p.Side, Targets: []string{}})
		}
		for k := 0; k+p.N <= len(p.Options); k++ {
			c = append(c, Choose{Side: p.Side, Targets: slices.Clone(p.Options[k : k+p.N])})
		}
	case "card_bonus":
		// 9.3: none, or one of the cards (each CARD@HEX option).
		c = append(c, CardBonus{Side: p.Side, Bonuses: []Bonus{}})
		for _, o := range p.Options {
			card, hex, _ := strings.Cut(o, "@")
			n, _ := strconv.Atoi(card)
			c = append(c, CardBonus{Side: p.Side, Bonuses: []Bonus{{Card: n, Hex: Hex(hex)}}})
		}
	case "attack":
		// 9.5c's attack at once: a pass, or an attack from a stack of the
		// units that entered the vacated hex.
		c = append(c, Pass{Side: p.Side})
		for _, h := range s.stackHexes(p.Side) {
			if t := s.facedHex(p.Side, h); t >= 0 {
				c = append(c, Attack{Side: p.Side, From: h, Target: s.cat.Board.HexAt(t)})
			}
		}
	case "order":
		// Card 31's orders after combat: a pass, turns, one shortest path
		// to each hex within five.
		c = append(c, Pass{Side: p.Side})
		b := s.cat.Board
		for _, h := range s.stackHexes(p.Side) {
			for d := N; d <= NW; d++ {
				c = append(c, Order{Side: p.Side, Hex: h, Facing: d.String()})
			}
			for _, path := range s.paths(b.Index(h), 5) {
				c = append(c, Order{Side: p.Side, Hex: h, Path: path})
			}
		}
	case "place":
		for _, h := range p.Options {
			c = append(c, Place{Side: p.Side, Unit: p.Unit, Hex: Hex(h)})
		}
	case "remove_depot":
		for _, h := range p.Options {
			c = append(c, RemoveDepot{Side: p.Side, Hex: Hex(h)})
		}
	}
	return c
}

// stackHexes lists the hexes with side's combat units, in unit order.
func (s *State) stackHexes(side string) []Hex {
	var out []Hex
	for _, u := range s.Units {
		if u.Status == OnMap && u.Side == side && !slices.Contains(out, u.Hex) {
			out = append(out, u.Hex)
		}
	}
	return out
}

// paths is one shortest path (breadth first over passable hexes) to every
// hex within steps of from.
func (s *State) paths(from, steps int) [][]Hex {
	b := s.cat.Board
	prev := map[int]int{from: -1}
	depth := map[int]int{from: 0}
	q := []int{from}
	var order []int
	for len(q) > 0 {
		a := q[0]
		q = q[1:]
		if depth[a] == steps {
			continue
		}
		for d := N; d <= NW; d++ {
			n := b.Neighbour(a, d)
			if n < 0 || !s.passable(n) {
				continue
			}
			if _, seen := prev[n]; seen {
				continue
			}
			prev[n], depth[n] = a, depth[a]+1
			q = append(q, n)
			order = append(order, n)
		}
	}
	var out [][]Hex
	for _, n := range order {
		var path []Hex
		for x := n; x != from; x = prev[x] {
			path = append(path, b.HexAt(x))
		}
		slices.Reverse(path)
		out = append(out, path)
	}
	return out
}

func (s *State) twoHexPaths(from Hex) [][]Hex {
	b := s.cat.Board
	f := b.Index(from)
	var out [][]Hex
	for d1 := N; d1 <= NW; d1++ {
		i := b.Neighbour(f, d1)
		if i < 0 {
			continue
		}
		for d2 := N; d2 <= NW; d2++ {
			if j := b.Neighbour(i, d2); j >= 0 && j != f {
				out = append(out, []Hex{b.HexAt(i), b.HexAt(j)})
			}
		}
	}
	return out
}
