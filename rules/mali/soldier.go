package mali

import (
	"fmt"
	"slices"

	"github.com/sztab/sztab/rules"
)

// WaitSoldierStep: the round-starter picks the soldier's next field at a
// fork (Options.SoldierPath "starter") with ChooseSoldierStep.
const WaitSoldierStep = "soldier_step"

// SoldierRoute is where the soldier goes on a black n towards one target:
// Path are the fields he enters in order (the last is where he stops),
// Arrests the couriers taken there.
type SoldierRoute struct {
	Target  string   `json:"target"`
	Path    []Node   `json:"path"`
	Arrests []string `json:"arrests,omitempty"`
}

// nearest are the couriers the rules point at from the soldier's field:
// the nearest ones; among several players' the one who moved later this
// round ("wyłożył kartę ruchu z wyższą cyfrą"; equal cards: later in the
// order of play); among one player's several, all of them — that player
// chooses. seat is that player.
func (s *State) nearest() (seat int, couriers []string) {
	d := s.cat.distances(s.Soldier, s.soldierEdge)
	best := -1
	var tied []Courier
	for _, c := range s.Couriers {
		dc, ok := d[c.At]
		if !c.OnMap() || !ok {
			continue
		}
		switch {
		case best < 0 || dc < best:
			best, tied = dc, []Courier{c}
		case dc == best:
			tied = append(tied, c)
		}
	}
	if len(tied) == 0 {
		return 0, nil
	}
	rank := func(seat int) int {
		if s.Turn != nil {
			if i := slices.Index(s.Turn.Order, seat); i >= 0 {
				return i
			}
		}
		return -1
	}
	seat = tied[0].Seat
	for _, c := range tied {
		if rank(c.Seat) > rank(seat) {
			seat = c.Seat
		}
	}
	for _, c := range tied {
		if c.Seat == seat {
			couriers = append(couriers, c.ID)
		}
	}
	return seat, couriers
}

// nextSteps are the soldier's fields one step nearer to target from cur,
// in map order.
func (s *State) nextSteps(cur, target Node) []Node {
	dt := s.cat.distances(target, s.soldierEdge)
	var out []Node
	for _, e := range s.cat.adj[cur] {
		if !s.soldierEdge(e, cur) {
			continue
		}
		if d, ok := dt[e.To]; ok && d == dt[cur]-1 && !containsNode(out, e.To) {
			out = append(out, e.To)
		}
	}
	s.cat.sortNodes(out)
	return out
}

func (s *State) couriersAt(n Node) []string {
	var out []string
	for _, c := range s.Couriers {
		if c.OnMap() && c.At == n {
			out = append(out, c.ID)
		}
	}
	return out
}

// routes walks every path the soldier may take towards target in n steps
// (only the map-order one unless the starter picks at forks).
func (s *State) routes(from, target Node, n int) [][]Node {
	var out [][]Node
	var walk func(cur Node, path []Node)
	walk = func(cur Node, path []Node) {
		if len(path) == n || cur == target || (len(path) > 0 && len(s.couriersAt(cur)) > 0) {
			out = append(out, slices.Clone(path))
			return
		}
		next := s.nextSteps(cur, target)
		if len(next) == 0 {
			out = append(out, slices.Clone(path))
			return
		}
		if s.Options.SoldierPath != "starter" {
			next = next[:1]
		}
		for _, nx := range next {
			walk(nx, append(path, nx))
		}
	}
	walk(from, nil)
	return out
}

// SoldierPath is the soldier's path on a black n: one route per courier he
// may run towards (several when one player's couriers are equally near —
// that player chooses), and with Options.SoldierPath "starter" one per
// path through the forks. No route when no courier can be reached or in
// the extended variant.
func SoldierPath(s State, n int) ([]SoldierRoute, error) {
	if s.cat == nil || s.Variant != Basic || s.Phase == PhaseOver {
		return nil, fmt.Errorf("mali: soldier path: no German soldier in this game")
	}
	if n < 1 {
		return nil, fmt.Errorf("mali: soldier path: %d fields, want at least 1", n)
	}
	_, targets := s.nearest()
	var out []SoldierRoute
	for _, t := range targets {
		c, _ := s.Courier(t)
		for _, p := range s.routes(s.Soldier, c.At, n) {
			r := SoldierRoute{Target: t, Path: p}
			if len(p) > 0 {
				r.Arrests = s.couriersAt(p[len(p)-1])
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// CourierOdds are one courier's chances before the soldier's die. Min and
// Max differ only where a player's choice decides (equidistant couriers of
// one player, or the starter's pick at a fork).
type CourierOdds struct {
	Courier   string  `json:"courier"`
	ArrestMin float64 `json:"arrest_min"`
	ArrestMax float64 `json:"arrest_max"`
	RedMin    float64 `json:"red_min"`
	RedMax    float64 `json:"red_max"`
}

// SoldierOdds is, for every courier on the map (in State.Couriers order),
// the exact chance of being arrested on this round's roll and of being the
// one the red move goes to, from the die's faces and the map.
func SoldierOdds(s State) ([]CourierOdds, error) {
	if s.cat == nil || s.Variant != Basic {
		return nil, fmt.Errorf("mali: odds: no German soldier in this game")
	}
	die, err := Odds(s.cat.Data.Die)
	if err != nil {
		return nil, fmt.Errorf("mali: odds: %w", err)
	}
	idx := map[string]int{}
	var out []CourierOdds
	for _, c := range s.Couriers {
		if c.OnMap() {
			idx[c.ID] = len(out)
			out = append(out, CourierOdds{Courier: c.ID})
		}
	}
	for k := 1; k <= maxKey(die.Black); k++ {
		p := die.Black[k]
		if p == 0 {
			continue
		}
		routes, err := SoldierPath(s, k)
		if err != nil {
			return nil, err
		}
		count := map[string]int{}
		for _, r := range routes {
			for _, a := range r.Arrests {
				count[a]++
			}
		}
		for id, n := range count {
			out[idx[id]].ArrestMax += p
			if n == len(routes) {
				out[idx[id]].ArrestMin += p
			}
		}
	}
	_, cands := s.nearest()
	for _, id := range cands {
		out[idx[id]].RedMax += die.PRed()
		if len(cands) == 1 {
			out[idx[id]].RedMin += die.PRed()
		}
	}
	return out, nil
}

// ---- the soldier phase

func (s *State) beginSoldier() []Event {
	s.Phase = PhaseSoldier
	var evs []Event
	// "Najpierw wszyscy harcerze znajdujący się na polu Więzienie wracają w
	// ręce graczy."
	for i := range s.Couriers {
		c := &s.Couriers[i]
		if c.Off == InPrison {
			c.Off = Escaped
			evs = append(evs, Event{Type: "escaped", Courier: c.ID, Seat: c.Seat, Text: rules.Textf("%[1]s ucieka z więzienia", "%[1]s escapes from prison", CourierName(*c))})
		}
	}
	s.Pending = &Pending{Kind: WaitRoll, Seat: s.Starter}
	return evs
}

func (s *State) rollDie(a RollDie) ([]Event, error) {
	if err := s.waiting(WaitRoll); err != nil {
		return nil, err
	}
	face := DieFace{Colour: a.Colour, Value: a.Value}
	if !slices.ContainsFunc(s.cat.Data.Die, func(f DieFace) bool { return f.Colour == face.Colour && f.Value == face.Value }) {
		return nil, rules.Reject("no_such_face", "kostka nie ma ścianki %[1]s %[2]d", "the die has no face %[1]s %[2]d", a.Colour, a.Value)
	}
	s.LastRoll = &face
	colour := map[string]string{Black: "czarna", Red: "czerwona"}[a.Colour]
	evs := []Event{{Type: "die", Roll: &face, Seat: s.Starter, Text: rules.Textf("kostka: %[1]s %[2]d", "die: %[3]s %[2]d", colour, a.Value, a.Colour)}}
	seat, cands := s.nearest()
	if len(cands) == 0 {
		evs = append(evs, ev("no_courier", "żaden harcerz nie jest w zasięgu żołnierza", "no courier within the soldier's reach"))
		return append(evs, s.beginTime()...), nil
	}
	kind := WaitSoldierTarget
	if a.Colour == Red {
		kind = WaitBonusCourier
	}
	if len(cands) > 1 {
		s.Pending = &Pending{Kind: kind, Seat: seat, Choices: cands, Count: a.Value}
		return append(evs, Event{Type: kind, Seat: seat, Text: rules.Textf("gracz %[1]d wybiera harcerza spośród: %[2]s", "player %[1]d chooses a courier among: %[2]s", seat, s.courierNames(cands))}), nil
	}
	return append(evs, s.afterTarget(kind, cands[0], a.Value)...), nil
}

func (s *State) afterTarget(kind, courier string, n int) []Event {
	c := s.courier(courier)
	if kind == WaitBonusCourier {
		s.Pending = &Pending{Kind: WaitBonusMove, Seat: c.Seat, Courier: courier, Count: n}
		return []Event{{Type: "extra_move", Courier: courier, Seat: c.Seat, Points: n, Text: rules.Textf("%[1]s może ruszyć się o %[2]d pól", "%[1]s may move up to %[2]d fields", s.courierName(courier), n)}}
	}
	evs := []Event{{Type: "soldier_target", Courier: courier, Text: rules.Textf("żołnierz biegnie w stronę: %[1]s", "the soldier runs towards %[1]s", s.courierName(courier))}}
	return append(evs, s.soldierRun(c.At, courier, n)...)
}

// soldierRun moves the soldier up to n fields towards target, stopping on
// the first field holding a courier and arresting everyone there.
func (s *State) soldierRun(target Node, courier string, n int) []Event {
	var path []Node
	var evs []Event
	flush := func() {
		if len(path) > 0 {
			evs = append(evs, Event{Type: "soldier_moved", Path: slices.Clone(path), To: s.Soldier,
				Text: rules.Textf("żołnierz idzie do: %[1]s", "the soldier goes to %[1]s", s.cat.Name(s.Soldier))})
		}
	}
	for ; n > 0; n-- {
		next := s.nextSteps(s.Soldier, target)
		if len(next) == 0 {
			break
		}
		if len(next) > 1 && s.Options.SoldierPath == "starter" {
			flush()
			s.Pending = &Pending{Kind: WaitSoldierStep, Seat: s.Starter, Courier: courier, Count: n, Choices: nodeStrings(next)}
			return append(evs, Event{Type: WaitSoldierStep, Seat: s.Starter, Text: rules.Textf("gracz %[1]d wybiera drogę żołnierza: %[2]s", "player %[1]d picks the soldier's way: %[2]s", s.Starter, s.nodeNames(next))})
		}
		s.Soldier = next[0]
		path = append(path, next[0])
		if here := s.couriersAt(s.Soldier); len(here) > 0 {
			flush()
			for _, id := range here {
				c := s.courier(id)
				lost := c.Carrying
				c.At, c.Off, c.Carrying = "", InPrison, ""
				e := Event{Type: "arrested", Courier: id, Seat: c.Seat, Order: lost, Text: rules.Textf("%[1]s aresztowany: do więzienia", "%[1]s arrested: to prison", CourierName(*c))}
				if lost != "" {
					e.Text = rules.Textf("%[1]s aresztowany: do więzienia, traci rozkaz %[2]s", "%[1]s arrested: to prison, loses the order %[2]s", CourierName(*c), s.orderName(lost))
				}
				evs = append(evs, e)
			}
			return append(evs, s.beginTime()...)
		}
	}
	flush()
	return append(evs, s.beginTime()...)
}

func (s *State) chooseCourier(a ChooseCourier) ([]Event, error) {
	if s.Pending == nil || (s.Pending.Kind != WaitSoldierTarget && s.Pending.Kind != WaitBonusCourier) {
		return nil, s.waiting(WaitSoldierTarget)
	}
	if a.Seat != s.Pending.Seat || !slices.Contains(s.Pending.Choices, a.Courier) {
		return nil, rules.Reject("bad_choice", "wybór należy do gracza %[1]d, spośród %[2]v", "the choice is player %[1]d's, among %[2]v", s.Pending.Seat, s.Pending.Choices)
	}
	p := *s.Pending
	s.Pending = nil
	return s.afterTarget(p.Kind, a.Courier, p.Count), nil
}

func (s *State) chooseSoldierStep(a ChooseSoldierStep) ([]Event, error) {
	if err := s.waiting(WaitSoldierStep); err != nil {
		return nil, err
	}
	if !slices.Contains(s.Pending.Choices, string(a.To)) {
		return nil, rules.Reject("bad_choice", "żołnierz może pójść do: %[1]v", "the soldier may go to: %[1]v", s.Pending.Choices)
	}
	p := *s.Pending
	s.Pending = nil
	c := s.courier(p.Courier)
	s.Soldier = a.To
	evs := []Event{{Type: "soldier_moved", Path: []Node{a.To}, To: a.To, Text: rules.Textf("żołnierz idzie do: %[1]s", "the soldier goes to %[1]s", s.cat.Name(a.To))}}
	if here := s.couriersAt(a.To); len(here) > 0 {
		// Arrest through the common path: run zero further fields.
		for _, id := range here {
			cc := s.courier(id)
			lost := cc.Carrying
			cc.At, cc.Off, cc.Carrying = "", InPrison, ""
			evs = append(evs, Event{Type: "arrested", Courier: id, Seat: cc.Seat, Order: lost, Text: rules.Textf("%[1]s aresztowany: do więzienia", "%[1]s arrested: to prison", CourierName(*cc))})
		}
		return append(evs, s.beginTime()...), nil
	}
	return append(evs, s.soldierRun(c.At, p.Courier, p.Count-1)...), nil
}
