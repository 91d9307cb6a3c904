package west1920game

import (
	"slices"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/west1920"
)

// A move entered on a page is "the stack at A to hex B". The binder turns
// it into the engine action the phase (or the pending decision) calls for
// and finds the path: candidate paths, shortest first, each tried on the
// engine; the first one the engine accepts is sent. When none is, the
// shortest is sent anyway, so the engine's own reason is what the table
// sees (too far, the adjacency rule, over-stacking…).

// maxCandidates bounds the paths tried for one move.
const maxCandidates = 48

// paths lists simple paths from from to to (to included, from not) of
// minLen to maxLen steps, shortest first, at most limit of them; a hex
// other than to must pass through; to must pass enter.
func paths(b *west1920.Board, from, to west1920.Hex, minLen, maxLen, limit int, through, enter func(int) bool) [][]west1920.Hex {
	fi, ti := b.Index(from), b.Index(to)
	if fi < 0 || ti < 0 || fi == ti {
		return nil
	}
	var out [][]west1920.Hex
	var path []int
	var walk func(cur, length int)
	walk = func(cur, length int) {
		if len(out) >= limit {
			return
		}
		if len(path) == length {
			if cur == ti {
				p := make([]west1920.Hex, len(path))
				for i, x := range path {
					p[i] = b.HexAt(x)
				}
				out = append(out, p)
			}
			return
		}
		for d := west1920.N; d <= west1920.NW; d++ {
			n := b.Neighbour(cur, d)
			if n < 0 || n == fi || slices.Contains(path, n) || b.Distance(n, ti) > length-len(path)-1 {
				continue
			}
			if n == ti && len(path)+1 == length {
				if !enter(n) {
					continue
				}
			} else if n == ti || !through(n) {
				continue
			}
			path = append(path, n)
			walk(n, length)
			path = path[:len(path)-1]
		}
	}
	for l := max(minLen, b.Distance(fi, ti)); l <= maxLen && len(out) < limit; l++ {
		walk(fi, l)
	}
	return out
}

// enemyAt marks the hexes holding the enemy's combat units (and, with
// hqs, HQs) for side.
func enemyAt(s west1920.State, side string, hqs bool) map[int]bool {
	b := s.Catalogue().Board
	out := map[int]bool{}
	for _, u := range s.Units {
		if u.Status == west1920.OnMap && u.Side != side {
			out[b.Index(u.Hex)] = true
		}
	}
	if hqs {
		for _, q := range s.HQs {
			if q.Status == west1920.OnMap && q.Side != side {
				out[b.Index(q.Hex)] = true
			}
		}
	}
	return out
}

// firstLegal tries the action of each path on the engine and returns the
// first it accepts, or the first one when it accepts none (its refusal is
// the reason the table sees). No path at all is the binder's refusal.
func firstLegal(s west1920.State, ps [][]west1920.Hex, build func([]west1920.Hex) rules.Action, from, to west1920.Hex) ([]gamespec.Action, []gamespec.Notice) {
	if len(ps) == 0 {
		return nil, rejected("no_path", rules.Textf("z %s do %s nie prowadzi żadna droga w zasięgu", "no path within reach leads from %s to %s", from, to))
	}
	for _, p := range ps {
		a := build(p)
		if _, _, err := west1920.Apply(s, a); err == nil {
			return one(a)
		}
	}
	return one(build(ps[0]))
}

// search finds candidate paths for side's units: first around impassable
// hexes and the enemy, then (for the engine's reason) over any hexes.
func search(s west1920.State, side string, from, to west1920.Hex, minLen, maxLen int, hqs bool) [][]west1920.Hex {
	b := s.Catalogue().Board
	enemy := enemyAt(s, side, hqs)
	ok := func(i int) bool { return s.Passable(b.HexAt(i)) && !enemy[i] }
	ps := paths(b, from, to, minLen, maxLen, maxCandidates, ok, ok)
	if len(ps) == 0 {
		all := func(int) bool { return true }
		ps = paths(b, from, to, minLen, maxLen, 1, all, all)
	}
	return ps
}

// stackHex reads the moving stack: a hex, or a unit or HQ standing there.
func stackHex(s west1920.State, what string) (west1920.Hex, string, bool) {
	if s.Catalogue().Board.Index(west1920.Hex(what)) >= 0 {
		return west1920.Hex(what), "", true
	}
	for _, u := range s.Units {
		if u.ID == what && u.Status == west1920.OnMap {
			return u.Hex, u.ID, true
		}
	}
	for _, q := range s.HQs {
		if q.ID == what && q.Status == west1920.OnMap {
			return q.Hex, q.ID, true
		}
	}
	return "", "", false
}

func noStack(what string) []gamespec.Notice {
	return rejected("no_stack", rules.Textf("%q nie jest heksem ani jednostką na mapie", "%q is neither a hex nor a unit on the map", what))
}

// move is "the stack at what to hex to", as the phase or the pending
// decision reads it.
func (g *Game) move(s west1920.State, side, what string, to west1920.Hex, facing string) ([]gamespec.Action, []gamespec.Notice) {
	from, id, ok := stackHex(s, what)
	if p := s.Pending; p != nil {
		// The decision says which stack moves: a click on the hex is
		// enough (what may be "-").
		switch p.Action {
		case "retreat":
			return retreat(s, p, to, facing)
		case "pursue":
			return pursue(s, p, to, facing)
		case "place":
			unit := p.Unit
			if id != "" {
				unit = id
			}
			return one(west1920.Place{Side: p.Side, Unit: unit, Hex: to, Facing: facing})
		case "order": // card 31's extra orders after combat
			if !ok {
				return nil, noStack(what)
			}
			ps := search(s, side, from, to, 1, 5, false)
			return firstLegal(s, ps, func(p []west1920.Hex) rules.Action {
				return west1920.Order{Side: side, Hex: from, Path: p, Facing: facing}
			}, from, to)
		case "attack": // 9.5c: attack again at once
			if !ok {
				return nil, noStack(what)
			}
			return one(west1920.Attack{Side: side, From: from, Target: to})
		}
		return nil, rejected("awaiting_decision", rules.Textf("najpierw: %[1]s", "first: %[2]s", p.Text.PL, p.Text.EN))
	}
	if !ok {
		return nil, noStack(what)
	}
	switch s.Phase {
	case west1920.PhaseOrders:
		ps := search(s, side, from, to, 1, 5, false)
		return firstLegal(s, ps, func(p []west1920.Hex) rules.Action {
			return west1920.Order{Side: side, Hex: from, Path: p, Facing: facing}
		}, from, to)
	case west1920.PhaseHQ:
		hq := ""
		for _, q := range s.HQs {
			if q.Status == west1920.OnMap && q.Side == side && (q.ID == id || (id == "" && q.Hex == from && !q.Moved)) {
				hq = q.ID
				break
			}
		}
		if hq == "" {
			return nil, rejected("no_hq", rules.Textf("w %s nie ma dowództwa, które może się ruszyć (8.0)", "no HQ in %s that may move (8.0)", from))
		}
		ps := search(s, side, from, to, 1, 5, true)
		return firstLegal(s, ps, func(p []west1920.Hex) rules.Action { return west1920.MoveHQ{Side: side, HQ: hq, Path: p} }, from, to)
	case west1920.PhaseWithdrawal:
		ps := search(s, side, from, to, 2, 2, false)
		return firstLegal(s, ps, func(p []west1920.Hex) rules.Action {
			return west1920.Withdraw{Side: side, Hex: from, Path: p, Facing: facing}
		}, from, to)
	case west1920.PhaseCombat:
		return one(west1920.Attack{Side: side, From: from, Target: to})
	case west1920.PhaseStrategic:
		if id == "" {
			for _, u := range s.Units {
				if u.Status == west1920.OnMap && u.Side == side && u.Hex == from && !u.Strategic {
					id = u.ID
					break
				}
			}
		}
		return strategic(s, side, id, to, facing)
	}
	return nil, rejected("no_move_now", rules.Textf("w tej fazie (%s) żetony się nie ruszają", "counters do not move in this phase (%s)", s.Phase))
}

// strategic is one unit's strategic move (11.x): any distance, so only a
// few paths a little longer than the shortest are tried.
func strategic(s west1920.State, side, unit string, to west1920.Hex, facing string) ([]gamespec.Action, []gamespec.Notice) {
	from := west1920.Hex("")
	for _, u := range s.Units {
		if u.ID == unit && u.Status == west1920.OnMap {
			from = u.Hex
		}
	}
	for _, q := range s.HQs { // an HQ may move strategically too (11.1)
		if q.ID == unit && q.Status == west1920.OnMap {
			from = q.Hex
		}
	}
	if from == "" {
		return nil, noStack(unit)
	}
	b := s.Catalogue().Board
	d := b.Distance(b.Index(from), b.Index(to))
	ps := search(s, side, from, to, 1, d+2, false)
	return firstLegal(s, ps, func(p []west1920.Hex) rules.Action {
		return west1920.StrategicMove{Side: side, Unit: unit, Path: p, Facing: facing}
	}, from, to)
}

// loserHex is the hex the beaten stack retreats from and its units.
func loserHex(s west1920.State, p *west1920.Pending) (west1920.Hex, []string) {
	if p.Kind == "card_retreat" || s.Battle == nil {
		return p.Hex, []string{p.Unit}
	}
	bt := s.Battle
	if bt.Loser == bt.Side {
		return bt.From, alive(s, bt.Attackers)
	}
	return bt.Target, alive(s, bt.Defenders)
}

func alive(s west1920.State, ids []string) []string {
	var out []string
	for _, u := range s.Units {
		if u.Status == west1920.OnMap && slices.Contains(ids, u.ID) {
			out = append(out, u.ID)
		}
	}
	return out
}

// retreat is a two-hex retreat (9.5b) ending on to; units over the
// stacking limit there are named for elimination, the first ones first
// (the retreat command names them explicitly).
func retreat(s west1920.State, p *west1920.Pending, to west1920.Hex, facing string) ([]gamespec.Action, []gamespec.Notice) {
	from, ids := loserHex(s, p)
	b := s.Catalogue().Board
	all := func(int) bool { return true }
	ps := paths(b, from, to, 2, 2, maxCandidates, all, all)
	own := 0
	for _, u := range s.Units {
		if u.Status == west1920.OnMap && u.Hex == to && u.Side == p.Side && !slices.Contains(ids, u.ID) {
			own++
		}
	}
	var elim []string
	if over := own + len(ids) - west1920.StackLimit; over > 0 && over <= len(ids) && p.Kind != "card_retreat" {
		elim = slices.Clone(ids[:over])
	}
	return firstLegal(s, ps, func(path []west1920.Hex) rules.Action {
		return west1920.Retreat{Side: p.Side, Path: path, Facing: facing, Eliminate: elim}
	}, from, to)
}

// pursue: onto the vacated hex, every unit that may (not artillery); one
// hex further, the first cavalry unit goes on too (9.5b).
func pursue(s west1920.State, p *west1920.Pending, to west1920.Hex, facing string) ([]gamespec.Action, []gamespec.Notice) {
	vacated := p.Hex
	if p.Kind == "pursuit" && s.Battle != nil {
		vacated = s.Battle.Target
		if s.Battle.Loser == s.Battle.Side {
			vacated = s.Battle.From
		}
	}
	var movers []string
	cavalry := ""
	for _, u := range s.Units {
		if slices.Contains(p.Options, u.ID) && u.Type != west1920.Artillery {
			movers = append(movers, u.ID)
			if u.Type == west1920.Cavalry && cavalry == "" {
				cavalry = u.ID
			}
		}
	}
	a := west1920.Pursue{Side: p.Side, Units: movers, Facing: facing}
	if to != vacated {
		b := s.Catalogue().Board
		if b.DirTo(b.Index(vacated), b.Index(to)) < 0 || cavalry == "" || p.Kind != "pursuit" {
			return nil, rejected("bad_pursuit", rules.Textf("pościg wchodzi na opuszczony heks %s (kawaleria o jeden heks dalej) (9.5b)",
				"a pursuit enters the vacated hex %s (cavalry one hex further) (9.5b)", vacated))
		}
		a.Further = []west1920.PursuitStep{{Unit: cavalry, Hex: to, Facing: facing}}
	}
	return one(a)
}
