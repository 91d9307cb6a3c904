package west1920

import (
	"slices"
	"strings"

	"github.com/sztab/sztab/rules"
)

// ---- 7.x activation and movement ----

func (s *State) assignChit(a AssignChit) ([]Event, error) {
	if s.Phase != PhaseChits || a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "żetony aktywacji przydziela się na zmianę w fazie ruchu (7.1)", "chits are assigned in turn in the movement phase (7.1)")
	}
	for _, e := range s.Effects {
		if e.Effect.Do == "no_chit" && e.Effect.Side == a.Side && slices.Contains(e.Hexes, string(a.Hex)) {
			return nil, rejectf("card_forbids", "karta %d: na %s nie można położyć żetonu (7.1)", "card %d: no chit may go on %s (7.1)", e.Card, a.Hex)
		}
	}
	units := s.ownStack(a.Side, a.Hex)
	if len(units) == 0 {
		return nil, rejectf("no_stack", "%s nie ma stosu w %s", "%s has no stack in %s", sideName(a.Side), a.Hex)
	}
	n := 0
	for _, c := range s.Chits {
		if c.Hex == a.Hex && c.Side == a.Side {
			n++
		}
	}
	free := 0
	for _, u := range units {
		if !u.Ordered {
			free++
		}
	}
	if n >= free {
		return nil, rejectf("no_units_left", "%s: %d żetonów na %d jednostek bez rozkazu (7.2)", "%s: %d chits for %d units without an order (7.2)", a.Hex, n, free)
	}
	cost := 1
	for _, u := range units {
		if u.Unsupplied {
			cost = 2 // 7.3: the stack began the phase unsupplied
		}
	}
	p := s.player(a.Side)
	if p.RP() < cost {
		if !s.waiver.Lets("no_rp") {
			return nil, rejectf("no_rp", "żeton kosztuje %d PZ, zostało %d (7.3)", "a chit costs %d RP, %d left (7.3)", cost, p.RP())
		}
	}
	p.Spent += cost
	s.Chits = append(s.Chits, Chit{Side: a.Side, Hex: a.Hex, Cost: cost})
	s.passTurn()
	return []Event{{Type: "chit", Side: a.Side, Hex: a.Hex, N: cost, Text: textf("%s: żeton aktywacji na %s za %d PZ", "%s: an activation chit on %s for %d RP", sideName(a.Side), a.Hex, cost)}}, nil
}

func (s *State) ownStack(side string, h Hex) []*Unit {
	var out []*Unit
	for i := range s.Units {
		u := &s.Units[i]
		if u.Status == OnMap && u.Hex == h && u.Side == side {
			out = append(out, u)
		}
	}
	return out
}

func (s *State) enterOrders() []Event {
	s.startAlternating(PhaseOrders, "")
	if len(s.Chits) == 0 {
		return s.enterHQ()
	}
	s.rollPending("first_roll", "", 2, "kto zaczyna rozkazy: 1K6 polski i rosyjski (7.1)", "who gives the first order: the Polish and the Russian 1d6 (7.1)", nil)
	return []Event{ev("phase", "Rozkazy (7.1, część druga)", "Orders (7.1, second part)")}
}

func (s *State) enterHQ() []Event {
	s.Chits = nil
	for i := range s.Units {
		s.Units[i].Moved = false
	}
	s.startAlternating(PhaseHQ, s.firstByTotalRP())
	return []Event{ev("phase", "Ruch dowództw (8.0)", "HQ movement (8.0)")}
}

func (s *State) chitIndex(side string, h Hex) int {
	for i, c := range s.Chits {
		if c.Side == side && c.Hex == h {
			return i
		}
	}
	return -1
}

func (s *State) hasChit(side string) bool {
	for _, c := range s.Chits {
		if c.Side == side {
			return true
		}
	}
	return false
}

// afterOrder hands the turn over, or ends the phase when no chits are left.
func (s *State) afterOrder() []Event {
	s.Move, s.Pending = nil, nil
	if s.Phase == PhaseCombat {
		return s.nextExtraOrder() // card 31's orders after combat
	}
	evs := s.pruneChits()
	if len(s.Chits) == 0 {
		return append(evs, s.enterHQ()...)
	}
	o := other(s.Turn)
	for _, c := range s.Chits {
		if c.Side == o {
			s.Turn = o
			return evs
		}
	}
	return evs
}

// pruneChits removes chits left on a hex with no unit that may still take
// an order (7.2: one order per unit; the units moved away, all went with an
// earlier chit, or were eliminated). Their RP stay spent (7.3).
func (s *State) pruneChits() []Event {
	var evs []Event
	s.Chits = slices.DeleteFunc(s.Chits, func(c Chit) bool {
		for _, u := range s.ownStack(c.Side, c.Hex) {
			if !u.Ordered {
				return false
			}
		}
		evs = append(evs, Event{Type: "chit_void", Side: c.Side, Hex: c.Hex, Text: textf("Żeton na %s bez jednostek do rozkazu: zdjęty, PZ przepadają (7.2, 7.3)", "The chit on %s has no unit left to order: removed, its RP stay spent (7.2, 7.3)", c.Hex)})
		return true
	})
	return evs
}

func (s *State) discardChit(a DiscardChit) ([]Event, error) {
	if s.Phase != PhaseOrders || a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "teraz nie twój rozkaz", "not your order now")
	}
	ci := s.chitIndex(a.Side, a.Hex)
	if ci < 0 {
		return nil, rejectf("no_chit", "na %s nie ma twojego żetonu", "no chit of yours on %s", a.Hex)
	}
	if !s.facesEnemy(a.Side, a.Hex) {
		return nil, rejectf("must_order", "żeton musi oznaczać rozkaz; odrzucić go można tylko, gdy stos jest zwrócony do wroga (7.2)", "a chit must be used; it may be discarded only by a stack facing an enemy stack (7.2)")
	}
	s.Chits = slices.Delete(s.Chits, ci, ci+1)
	evs := []Event{{Type: "chit_discarded", Side: a.Side, Hex: a.Hex, Text: textf("%s odrzuca żeton na %s (7.2)", "%s discards the chit on %s (7.2)", sideName(a.Side), a.Hex)}}
	return append(evs, s.afterOrder()...), nil
}

// facesEnemy: the stack's facing points at a hex with enemy combat units.
func (s *State) facesEnemy(side string, h Hex) bool {
	t := s.facedHex(side, h)
	if t < 0 {
		return false
	}
	for _, u := range s.Units {
		if u.Status == OnMap && u.Side != side && s.cat.Board.Index(u.Hex) == t {
			return true
		}
	}
	return false
}

// facedHex is the hex the stack on h faces, or −1.
func (s *State) facedHex(side string, h Hex) int {
	b := s.cat.Board
	for _, u := range s.Units {
		if u.Status == OnMap && u.Side == side && u.Hex == h && u.Type != Artillery {
			d, ok := ParseDir(u.Facing)
			if !ok {
				return -1
			}
			return b.Neighbour(b.Index(h), d)
		}
	}
	return -1
}

// commands reports whether hq may command unit u (7.2, 9.2, 13.1, 13.3, 13.4).
func (s *State) commands(hq *HQ, u *Unit, at int) bool {
	if hq.Status != OnMap || hq.Side != u.Side {
		return false
	}
	switch {
	case u.Nation == NatLithuanian || hq.Nation == NatLithuanian:
		return u.Nation == NatLithuanian && hq.Nation == NatLithuanian
	case hq.Nation == NatUkrainian:
		return u.Nation == NatUkrainian
	case hq.Nation == NatRussian:
		return (hq.Zone == "S") == s.cat.Board.south[at]
	}
	return true
}

// hqGap is the hexes between a stack at `at` and the nearest HQ able to
// command all of units, counting only hexes free of enemy units and not
// impassable (7.2); 0 when an HQ is in or next to the stack; −1 when none
// can be reached.
func (s *State) hqGap(side string, at int, units []*Unit) int {
	b := s.cat.Board
	o := s.occupancy(side)
	targets := make(map[int]bool)
	for i := range s.HQs {
		h := &s.HQs[i]
		ok := h.Status == OnMap && h.Side == side
		for _, u := range units {
			ok = ok && s.commands(h, u, at)
		}
		if ok {
			targets[b.Index(h.Hex)] = true
		}
	}
	if len(targets) == 0 {
		return -1
	}
	if targets[at] {
		return 0
	}
	dist := map[int]int{at: 0}
	q := []int{at}
	for len(q) > 0 {
		a := q[0]
		q = q[1:]
		for d := N; d <= NW; d++ {
			c := int(b.nb[a][d])
			if c < 0 {
				continue
			}
			if _, seen := dist[c]; seen {
				continue
			}
			if targets[c] {
				return dist[a] // hexes between = steps − 1
			}
			if !s.passable(c) || o.enemyAny[c] {
				continue
			}
			dist[c] = dist[a] + 1
			q = append(q, c)
		}
	}
	return -1
}

func (s *State) order(a Order) ([]Event, error) {
	if s.Phase != PhaseOrders || a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "teraz nie twój rozkaz", "not your order now")
	}
	ci := s.chitIndex(a.Side, a.Hex)
	if ci < 0 {
		return nil, rejectf("no_chit", "na %s nie ma twojego żetonu aktywacji", "no activation chit of yours on %s", a.Hex)
	}
	movers, err := s.checkOrder(a)
	if err != nil {
		return nil, err
	}
	var free *CardEffect
	if a.Card != 0 {
		// Card 31 (Russian column): the Polish player names the stack
		// that moves without the 7.2 roll.
		for i := range s.Effects {
			if e := &s.Effects[i]; e.Card == a.Card && e.Effect.Do == "no_activation_roll" && e.Effect.Side == a.Side && e.Used < max(1, e.Effect.N) {
				free = e
			}
		}
		if free == nil {
			return nil, rejectf("no_card", "karta %d nie zwalnia z rzutu aktywacji", "card %d does not spare the activation roll", a.Card)
		}
		free.Used++
	}
	s.Chits = slices.Delete(s.Chits, ci, ci+1)
	if len(a.Path) > 0 && free == nil {
		if evs, waits := s.activation(a, movers); waits {
			return evs, nil
		}
	}
	return s.execute(a, movers)
}

// activation is 7.2's roll for a move order with no HQ in or next to the
// stack: it asks for the roll (Pending "activation"), or fails the order
// when no HQ can be reached; waits is false when no roll is due.
func (s *State) activation(a Order, movers []*Unit) (evs []Event, waits bool) {
	gap := s.hqGap(a.Side, s.cat.Board.Index(a.Hex), movers)
	if gap == 0 {
		return nil, false
	}
	s.Move = &Move{Order: a}
	if gap < 0 {
		// No HQ can be reached: the order fails (7.2).
		s.markOrdered(movers)
		evs := []Event{{Type: "order_failed", Side: a.Side, Hex: a.Hex, Text: textf("Brak dowództwa w zasięgu: rozkaz nie wykonany (7.2)", "No HQ can be reached: the order fails (7.2)")}}
		return append(evs, s.afterOrder()...), true
	}
	fail := float64(min(gap, 6)) / 6
	s.rollPending("activation", a.Side, 1, "rzut aktywacji 1K6: porażka przy wyniku ≤ "+itoa(gap)+" (7.2)", "activation roll 1d6: fails on "+itoa(gap)+" or less (7.2)", &Odds{Fail: &fail})
	s.Pending.N = gap
	return []Event{{Type: "activation_needed", Side: a.Side, Hex: a.Hex, N: gap, Text: textf("%d heksy przerwy do dowództwa: rzut aktywacji (7.2)", "%d hexes between the stack and its HQ: activation roll (7.2)", gap)}}, true
}

func (s *State) activationRoll(r Roll) ([]Event, error) {
	if err := checkDice(r, 1); err != nil {
		return nil, err
	}
	a, gap := s.Move.Order, s.Pending.N
	s.Pending = nil
	movers, _ := s.checkOrder(a)
	if r.Dice[0] <= gap {
		s.markOrdered(movers)
		evs := []Event{{Type: "order_failed", Side: a.Side, Hex: a.Hex, Text: textf("Rzut %d ≤ %d: rozkaz nie wykonany, jednostki zostają (7.2)", "Roll %d ≤ %d: the order fails, the units stay (7.2)", r.Dice[0], gap)}}
		return append(evs, s.afterOrder()...), nil
	}
	return s.execute(a, movers)
}

// checkOrder validates an order against 7.2 and 7.4 without changing s.
func (s *State) checkOrder(a Order) ([]*Unit, error) {
	b := s.cat.Board
	stack := s.ownStack(a.Side, a.Hex)
	var movers []*Unit
	// Card 31 (Polish column): after combat, stacks may move "even if
	// activated earlier this stage", but no unit twice under the card.
	var again []string
	extra := s.Phase == PhaseCombat
	if extra {
		if e := s.effect("extra_moves", a.Side); e != nil {
			again = e.Units
		}
	}
	ordered := func(u *Unit) bool {
		if extra {
			return slices.Contains(again, u.ID)
		}
		return u.Ordered
	}
	if len(a.Units) == 0 {
		for _, u := range stack {
			if !ordered(u) {
				movers = append(movers, u)
			}
		}
	} else {
		for _, id := range a.Units {
			var found *Unit
			for _, u := range stack {
				if u.ID == id {
					found = u
				}
			}
			if found == nil {
				return nil, rejectf("not_in_stack", "%s nie stoi w %s", "%s is not in %s", id, a.Hex)
			}
			if ordered(found) {
				return nil, rejectf("already_ordered", "%s wykonał już rozkaz w tym etapie (7.2)", "%s has already had an order this stage (7.2)", found.Name)
			}
			movers = append(movers, found)
		}
	}
	if len(movers) == 0 {
		return nil, rejectf("no_units_left", "w %s nie ma jednostek bez rozkazu (7.2)", "no unit in %s is without an order (7.2)", a.Hex)
	}
	if len(a.Path) == 0 {
		// Turning (7.1): all cavalry and infantry of the stack.
		if _, ok := ParseDir(a.Facing); !ok {
			return nil, rejectf("bad_facing", "zmiana ukierunkowania wymaga kierunku N, NE, SE, S, SW lub NW", "a turn needs a facing: N, NE, SE, S, SW or NW")
		}
		return movers, nil
	}
	if a.Facing != "" {
		if _, ok := ParseDir(a.Facing); !ok {
			return nil, rejectf("bad_facing", "kierunek %q", "facing %q", a.Facing)
		}
	}
	allowance := 5
	for _, u := range movers {
		switch u.Type {
		case Artillery:
			allowance = min(allowance, 2)
		case Infantry:
			allowance = min(allowance, 3)
		}
	}
	rain := s.effect("move_limit", "") != nil
	slow := slices.ContainsFunc(movers, func(u *Unit) bool { return u.Type != Cavalry })
	o := s.occupancy(a.Side)
	sup := s.computeSupply()
	cost, prev := 0, b.Index(a.Hex)
	for k, h := range a.Path {
		i := b.Index(h)
		if i < 0 || b.DirTo(prev, i) < 0 {
			return nil, rejectf("bad_path", "%s nie sąsiaduje z poprzednim heksem drogi", "%s is not next to the previous hex of the path", h)
		}
		if !s.passable(i) {
			return nil, rejectf("impassable", "%s: teren niedostępny lub kraj neutralny (1.3, 7.4)", "%s: impassable terrain or a neutral country (1.3, 7.4)", h)
		}
		if o.enemyCombat[i] {
			return nil, rejectf("enemy_occupied", "%s: heks z wrogimi jednostkami bojowymi (7.4)", "%s: a hex with enemy combat units (7.4)", h)
		}
		step := 1
		if b.difficult[i] && slow && !rain {
			step = 2
		}
		cost += step
		// 7.4: artillery and infantry may not go straight from one hex next
		// to the enemy to another, unless a river or a stationary friend
		// screens one of them.
		if slow && s.zoc(a.Side, prev, movers, &o) && s.zoc(a.Side, i, movers, &o) {
			if !s.waiver.Lets("adjacent_move") {
				return nil, rejectf("adjacent_move", "piechota i artyleria nie mogą przejść z heksu przy wrogu na inny taki heks (7.4): %s → %s", "infantry and artillery may not move from a hex next to the enemy to another (7.4): %s → %s", b.HexAt(prev), h)
			}
		}
		_ = k
		prev = i
	}
	limit := allowance
	if rain {
		limit = 1
	}
	if cost > limit {
		if !s.waiver.Lets("too_far") {
			return nil, rejectf("too_far", "droga kosztuje %d, limit ruchu %d (7.4)", "the path costs %d, the allowance is %d (7.4)", cost, limit)
		}
	}
	dest := a.Path[len(a.Path)-1]
	if dest == a.Hex {
		return nil, rejectf("same_hex", "heks docelowy musi być inny niż początkowy (7.1)", "the destination must differ from the start (7.1)")
	}
	di := b.Index(dest)
	for _, u := range movers {
		if u.Unsupplied && !sup.suppliedAt(u, di) {
			return nil, rejectf("unsupplied_dest", "%s bez zaopatrzenia może wejść tylko na heks zaopatrzony (7.4)", "%s is unsupplied: only into a supplied hex (7.4)", u.Name)
		}
	}
	n := len(movers)
	for _, u := range s.Units {
		if u.Status == OnMap && u.Hex == dest && u.Side == a.Side {
			n++
		}
	}
	if n > StackLimit {
		if !s.waiver.Lets("overstacked") {
			return nil, rejectf("overstacked", "%s: %d jednostek bojowych, limit %d (1.2)", "%s: %d combat units, the limit is %d (1.2)", dest, n, StackLimit)
		}
	}
	if err := s.checkNationMix(a.Side, dest, movers); err != nil {
		return nil, err
	}
	return movers, nil
}

// checkNationMix: Lithuanians never stack with Russians (13.3).
func (s *State) checkNationMix(side string, dest Hex, movers []*Unit) error {
	lit, rus := false, false
	for _, u := range movers {
		lit = lit || u.Nation == NatLithuanian
		rus = rus || u.Nation == NatRussian
	}
	for _, u := range s.Units {
		if u.Status == OnMap && u.Hex == dest && u.Side == side {
			lit = lit || u.Nation == NatLithuanian
			rus = rus || u.Nation == NatRussian
		}
	}
	if lit && rus {
		return rejectf("lithuanian_stack", "jednostki litewskie nie mogą stać z rosyjskimi (13.3)", "Lithuanian units may not stack with Russian ones (13.3)")
	}
	return nil
}

// zoc: hex i is next to an enemy combat unit and not screened (7.4).
func (s *State) zoc(side string, i int, movers []*Unit, o *occupancy) bool {
	b := s.cat.Board
	adj := false
	for d := N; d <= NW; d++ {
		j := b.nb[i][d]
		if j >= 0 && o.enemyCombat[j] && !b.unbridged(i, d) {
			adj = true
		}
	}
	if !adj {
		return false
	}
	// A friendly unit that has not moved and will not move this phase.
	for _, u := range s.Units {
		if u.Status != OnMap || u.Side != side || b.Index(u.Hex) != i || u.Moved || slices.Contains(movers, &u) {
			continue
		}
		mover := false
		for _, m := range movers {
			mover = mover || m.ID == u.ID
		}
		if !mover && s.chitIndex(side, u.Hex) < 0 {
			return false
		}
	}
	return true
}

// markOrdered: the units had their order (7.2), or one of card 31's.
func (s *State) markOrdered(movers []*Unit) {
	e := s.effect("extra_moves", "")
	for _, u := range movers {
		u.Ordered = true
		if s.Phase == PhaseCombat && e != nil {
			e.Units = append(e.Units, u.ID)
		}
	}
}

func (s *State) execute(a Order, movers []*Unit) ([]Event, error) {
	b := s.cat.Board
	var evs []Event
	s.markOrdered(movers)
	if len(a.Path) == 0 {
		for _, u := range s.ownStack(a.Side, a.Hex) {
			if u.Type != Artillery {
				u.Facing = a.Facing
			}
		}
		evs = append(evs, Event{Type: "turn", Side: a.Side, Hex: a.Hex, Text: textf("Stos w %s zmienia ukierunkowanie na %s", "The stack in %s turns to face %s", a.Hex, a.Facing)})
		return append(evs, s.afterOrder()...), nil
	}
	dest := a.Path[len(a.Path)-1]
	facing := a.Facing
	for _, u := range s.Units {
		if u.Status == OnMap && u.Hex == dest && u.Side == a.Side && u.Type != Artillery {
			facing = u.Facing // 7.2, 7.4: arrivals take the stack's facing
		}
	}
	if facing == "" {
		facing = movers[0].Facing
		if facing == "" {
			facing = "N"
		}
	}
	var cav []string
	for _, u := range movers {
		u.Hex, u.Moved = dest, true
		if u.Type != Artillery {
			u.Facing = facing
		}
		if u.Type == Cavalry && len(a.Path) >= 5 {
			cav = append(cav, u.ID)
		}
	}
	if a.HQ != "" {
		if h := s.hq(a.HQ); h != nil && h.Side == a.Side && h.Hex == a.Hex && h.Status == OnMap {
			h.Hex = dest
		} else {
			return nil, rejectf("bad_hq", "dowództwo %s nie stoi w %s", "HQ %s is not in %s", a.HQ, a.Hex)
		}
	}
	evs = append(evs, Event{Type: "move", Side: a.Side, Hex: dest, N: len(movers), Text: textf("%d jedn. z %s do %s", "%d unit(s) from %s to %s", len(movers), a.Hex, dest)})
	evs = append(evs, s.passThrough(a.Side, a.Path, dest)...)
	evs = append(evs, s.enterHex(a.Side, b.Index(dest))...)
	if len(cav) > 0 {
		s.Move = &Move{Order: a, Cavalry: cav}
		s.rollPending("attrition", a.Side, len(cav), "rzut 1K6 za każdą kawalerię po 5 heksach: 5–6 osłabia (7.4)", "1d6 for each cavalry unit that moved five hexes: 5–6 weakens (7.4)", nil)
		return evs, nil
	}
	return append(evs, s.afterOrder()...), nil
}

// passThrough is enterHex for the hexes of path before dest: a combat
// unit that enters a hex on its way destroys an enemy depot there (7.5)
// and removes a lone enemy HQ (7.6, 9.6), as at the end of its move.
func (s *State) passThrough(side string, path []Hex, dest Hex) []Event {
	var evs []Event
	for _, h := range path {
		if h == dest {
			break
		}
		evs = append(evs, s.enterHex(side, s.cat.Board.Index(h))...)
	}
	return evs
}

// enterHex destroys an enemy depot and removes an enemy HQ (7.5, 7.6, 9.6).
func (s *State) enterHex(side string, i int) []Event {
	b := s.cat.Board
	h := b.HexAt(i)
	var evs []Event
	if di := s.depotAt(h); di >= 0 && s.Depots[di].Side != side {
		s.Depots = slices.Delete(s.Depots, di, di+1)
		evs = append(evs, Event{Type: "depot_destroyed", Hex: h, Text: textf("Magazyn w %s zniszczony (7.5)", "The depot in %s is destroyed (7.5)", h)})
	}
	for k := range s.HQs {
		q := &s.HQs[k]
		if q.Status == OnMap && q.Side != side && q.Hex == h {
			evs = append(evs, s.removeHQ(q)...)
		}
	}
	// 1.3, 13.5: a neutral country interns whoever enters it (a retreat may
	// lead there, 9.5b), East Prussia interns Poles for good and sends
	// Russians out for 1d6 stages (the roll is asked once nothing else
	// waits: prussiaRollDue). HQs retreating with their stack go too.
	if b.country[i] != "" && !s.passable(i) {
		away := Interned
		if b.country[i] == EastPrussia && side == Russian {
			away = Prussia
		}
		for k := range s.Units {
			if u := &s.Units[k]; u.Status == OnMap && u.Hex == h && u.Side == side {
				u.Status, u.Return = away, 0
				evs = append(evs, s.awayEvent(u.ID, u.Name, h, away, b.country[i]))
			}
		}
		for k := range s.HQs {
			if q := &s.HQs[k]; q.Status == OnMap && q.Hex == h && q.Side == side {
				q.Status, q.Return = away, 0
				evs = append(evs, s.awayEvent(q.ID, q.Name, h, away, b.country[i]))
			}
		}
	}
	return evs
}

func (s *State) awayEvent(id, name string, h Hex, away, country string) Event {
	if away == Prussia {
		return Event{Type: "prussia", Unit: id, Hex: h, Text: textf("%s w Prusach Wschodnich: czasowo poza grą (13.5)", "%s in East Prussia: out of play for a while (13.5)", name)}
	}
	if country == EastPrussia {
		return Event{Type: "interned", Unit: id, Hex: h, Text: textf("%s internowana w Prusach Wschodnich do końca gry (13.5)", "%s interned in East Prussia for the rest of the game (13.5)", name)}
	}
	return Event{Type: "interned", Unit: id, Hex: h, Text: textf("%s internowana w kraju neutralnym (%s, 1.3)", "%s interned in a neutral country (%s, 1.3)", name, country)}
}

func (s *State) attritionRoll(r Roll) ([]Event, error) {
	if err := checkDice(r, len(s.Move.Cavalry)); err != nil {
		return nil, err
	}
	var evs []Event
	for k, id := range s.Move.Cavalry {
		u := s.unit(id)
		if r.Dice[k] >= 5 {
			evs = append(evs, s.hit(u, 1, "7.4")...)
		}
	}
	s.Pending = nil
	return append(evs, s.afterOrder()...), nil
}

// hit takes n losses on u (9.4): a full unit flips, a weak one is
// eliminated. rule is the rule's number ("9.5b") or "karta N" for a card's.
func (s *State) hit(u *Unit, n int, rule string) []Event {
	why := rules.Text{PL: rule, EN: rule}
	if c, ok := strings.CutPrefix(rule, "karta "); ok {
		why.EN = "card " + c
	}
	for ; n > 0 && u.Status == OnMap; n-- {
		if u.Weak {
			u.Status = Eliminated
			return []Event{{Type: "eliminated", Unit: u.ID, Hex: u.Hex, Text: textf("%s wyeliminowana (%s)", "%s eliminated (%s)", u.Name, why)}}
		}
		u.Weak = true
		if n == 1 {
			return []Event{{Type: "weakened", Unit: u.ID, Hex: u.Hex, Text: textf("%s osłabiona (%s)", "%s weakened (%s)", u.Name, why)}}
		}
	}
	return nil
}

// ---- card 31, Polish column: two more orders after combat ----

// enterExtraOrders ends the combat phase: with card 31's Polish column in
// force the Polish player (the effect's side) may first give up to two more
// orders (7.2 and 7.4 apply, 7.3 does not: no chit, no RP), then
// replacement (10.0) follows.
func (s *State) enterExtraOrders() []Event {
	e := s.effect("extra_moves", "")
	if e == nil {
		return s.enterReplacement()
	}
	for i := range s.Units {
		s.Units[i].Moved = false // 7.4's "has not moved and will not" is per phase
	}
	return append([]Event{{Type: "extra_orders", Side: e.Effect.Side, N: e.Effect.N, Text: textf("Karta %d: %s może wydać %d rozkazy po walce (7.2, 7.4; bez kosztu 7.3)",
		"Card %d: %s may give %d more orders after combat (7.2, 7.4; no 7.3 cost)", e.Card, sideName(e.Effect.Side), e.Effect.N)}}, s.nextExtraOrder()...)
}

// nextExtraOrder asks for the next of card 31's orders, or goes on to the
// replacement phase when they are used or declined.
func (s *State) nextExtraOrder() []Event {
	e := s.effect("extra_moves", "")
	if e != nil && e.Effect.N-e.Used > 0 && len(s.stackHexes(e.Effect.Side)) > 0 {
		left := e.Effect.N - e.Used
		s.setPending(Pending{Kind: "extra_order", Action: "order", Side: e.Effect.Side, N: left,
			Text: textf("Karta %d: rozkaz dla stosu (zostało %d) albo pas", "Card %d: an order for a stack (%d left) or pass", e.Card, left)})
		return nil
	}
	for i := range s.Units {
		s.Units[i].Moved = false
	}
	s.Move, s.Pending = nil, nil
	return s.enterReplacement()
}

// extraOrder carries out one of card 31's orders: any Polish stack, its
// units even if they had an order this stage (not twice under the card);
// the 7.2 roll when no HQ is in or next to the stack; 7.4's limits.
func (s *State) extraOrder(a Order) ([]Event, error) {
	if a.Card != 0 {
		return nil, rejectf("no_card", "karta %d nie dotyczy rozkazów karty 31", "card %d does not apply to card 31's orders", a.Card)
	}
	movers, err := s.checkOrder(a)
	if err != nil {
		return nil, err
	}
	s.effect("extra_moves", a.Side).Used++
	s.Pending = nil
	if len(a.Path) > 0 {
		if evs, waits := s.activation(a, movers); waits {
			return evs, nil
		}
	}
	return s.execute(a, movers)
}

// declineExtra: the player gives up card 31's remaining orders.
func (s *State) declineExtra() []Event {
	e := s.effect("extra_moves", "")
	e.Used = e.Effect.N
	evs := []Event{{Type: "pass", Side: e.Effect.Side, Text: textf("%s rezygnuje z pozostałych rozkazów karty %d", "%s gives up card %d's remaining orders", sideName(e.Effect.Side), e.Card)}}
	return append(evs, s.nextExtraOrder()...)
}

// ---- 8.0 HQ movement ----

func (s *State) moveHQ(a MoveHQ) ([]Event, error) {
	if s.Phase != PhaseHQ || a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "dowództwa rusza się na zmianę w fazie ruchu dowództw (8.0)", "HQs move in turn in the HQ phase (8.0)")
	}
	h := s.hq(a.HQ)
	if h == nil || h.Side != a.Side || h.Status != OnMap {
		return nil, rejectf("unknown_hq", "nie ma twojego dowództwa %q na mapie", "no HQ of yours %q on the map", a.HQ)
	}
	if h.Moved {
		return nil, rejectf("hq_moved", "%s już się poruszało (8.0)", "%s has already moved (8.0)", h.Name)
	}
	if len(a.Path) == 0 || len(a.Path) > 5 {
		return nil, rejectf("too_far", "dowództwo porusza się o 1–5 heksów (8.0)", "an HQ moves 1 to 5 hexes (8.0)")
	}
	b := s.cat.Board
	o := s.occupancy(a.Side)
	prev := b.Index(h.Hex)
	for _, x := range a.Path {
		i := b.Index(x)
		if i < 0 || b.DirTo(prev, i) < 0 {
			return nil, rejectf("bad_path", "%s nie sąsiaduje z poprzednim heksem drogi", "%s is not next to the previous hex of the path", x)
		}
		if !s.passable(i) {
			return nil, rejectf("impassable", "%s: teren niedostępny (8.0)", "%s: impassable (8.0)", x)
		}
		if o.enemyAny[i] {
			return nil, rejectf("enemy_occupied", "%s: dowództwo nie wchodzi na heks wroga (8.0)", "%s: an HQ may not enter an enemy hex (8.0)", x)
		}
		prev = i
	}
	h.Hex, h.Moved = a.Path[len(a.Path)-1], true
	s.passTurn()
	return []Event{{Type: "hq_move", Side: a.Side, Unit: h.ID, Hex: h.Hex, Text: textf("%s do %s", "%s to %s", h.Name, h.Hex)}}, nil
}
