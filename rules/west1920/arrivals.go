package west1920

import (
	"slices"
)

// Arrival is a counter to put on the map in the reinforcement phase: a
// reinforcement (12.0), an HQ removed by 9.6, a Russian unit back from
// East Prussia (13.5). Hex is where it is due (12.0, 13.5) or where 9.6
// removed the HQ.
type Arrival struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // "reinforcement", "hq_return", "prussia"
	Hex  Hex    `json:"hex"`
}

// ---- 9.6: an HQ whose stack is gone, or attacked alone ----

// removeHQ takes an HQ off the map until the next stage's reinforcement
// phase (9.6).
func (s *State) removeHQ(q *HQ) []Event {
	q.Status, q.From, q.Return = OffMap, q.Hex, s.Stage+1
	return []Event{{Type: "hq_removed", Unit: q.ID, Hex: q.Hex, Text: textf("%s zdjęte z planszy do następnego etapu (9.6)", "%s leaves the map until next stage (9.6)", q.Name)}}
}

// strandedHQs: 9.6, an HQ in a battle hex whose combat units were all
// eliminated leaves the map.
func (s *State) strandedHQs() []Event {
	bt := s.Battle
	var evs []Event
	for _, h := range []Hex{bt.From, bt.Target} {
		for k := range s.HQs {
			q := &s.HQs[k]
			if q.Status == OnMap && q.Hex == h && len(s.ownStack(q.Side, h)) == 0 {
				evs = append(evs, s.removeHQ(q)...)
			}
		}
	}
	return evs
}

// ---- 12.0 reinforcements, with 9.6 and 13.5 returns ----

func (s *State) reinforcements() []Event {
	s.Phase = PhaseReinforcement
	s.Arrivals = nil
	for _, r := range s.cat.Data.OOB.Reinforcements {
		if r.Stage != s.Stage {
			continue
		}
		for _, id := range r.Units {
			if u := s.unit(id); u != nil && u.Status == Waiting {
				s.Arrivals = append(s.Arrivals, Arrival{ID: id, Kind: "reinforcement", Hex: r.Hex})
			} else if h := s.hq(id); h != nil && h.Status == Waiting {
				s.Arrivals = append(s.Arrivals, Arrival{ID: id, Kind: "reinforcement", Hex: r.Hex})
			}
		}
	}
	for _, q := range s.HQs {
		if q.Status == OffMap && q.Return <= s.Stage {
			s.Arrivals = append(s.Arrivals, Arrival{ID: q.ID, Kind: "hq_return", Hex: q.From})
		}
	}
	for _, u := range s.Units {
		if u.Status == Prussia && u.Return > 0 && u.Return <= s.Stage {
			s.Arrivals = append(s.Arrivals, Arrival{ID: u.ID, Kind: "prussia", Hex: s.cat.Cities["smolensk"].Hex})
		}
	}
	for _, q := range s.HQs {
		if q.Status == Prussia && q.Return > 0 && q.Return <= s.Stage {
			s.Arrivals = append(s.Arrivals, Arrival{ID: q.ID, Kind: "prussia", Hex: s.cat.Cities["smolensk"].Hex})
		}
	}
	return s.nextArrival()
}

// nextArrival places the arrivals in order; one that has a choice of hexes
// waits for a place action; then the stage ends.
func (s *State) nextArrival() []Event {
	var evs []Event
	for len(s.Arrivals) > 0 {
		a := s.Arrivals[0]
		opts, direct := s.arrivalOptions(a)
		switch {
		case direct:
			s.Arrivals = s.Arrivals[1:]
			evs = append(evs, s.arrive(a, opts[0], "")...)
		case len(opts) == 0:
			s.Arrivals = s.Arrivals[1:]
			evs = append(evs, s.noArrival(a)...)
		default:
			side, name := s.counter(a.ID)
			s.setPending(Pending{Kind: "arrival", Action: "place", Side: side, Unit: a.ID, Options: opts,
				Text: textf("%s: wybierz heks (12.0, 9.6)", "%s: choose the hex (12.0, 9.6)", name)})
			return evs
		}
	}
	return append(evs, s.endStage()...)
}

func (s *State) counter(id string) (side, name string) {
	if u := s.unit(id); u != nil {
		return u.Side, u.Name
	}
	q := s.hq(id)
	return q.Side, q.Name
}

// arrivalOptions lists the hexes an arrival may take and whether it goes
// straight to the first (its own hex is usable).
func (s *State) arrivalOptions(a Arrival) ([]string, bool) {
	b := s.cat.Board
	u := s.unit(a.ID)
	q := s.hq(a.ID)
	side, _ := s.counter(a.ID)
	o := s.occupancy(side)
	sup := s.computeSupply()
	// 12.0: not enemy-held, supplied (6.0) and within the stacking limit;
	// never impassable or neutral.
	usable := func(i int) bool {
		if i < 0 || !s.passable(i) || o.enemyAny[i] {
			return false
		}
		if u == nil {
			return true
		}
		return sup.suppliedAt(u, i) && len(s.ownStack(side, b.HexAt(i)))+1 <= StackLimit
	}
	if a.Kind == "hq_return" {
		// 9.6: a city held by a friendly combat unit within five hexes of
		// where the HQ was removed.
		from := b.Index(a.Hex)
		var out []string
		for _, c := range s.cat.Data.Map.Cities {
			i := b.Index(c.Hex)
			if i >= 0 && b.Distance(from, i) <= 5 && len(s.ownStack(side, c.Hex)) > 0 && !o.enemyAny[i] {
				out = append(out, string(c.Hex))
			}
		}
		return out, len(out) == 1
	}
	at := b.Index(a.Hex)
	if usable(at) {
		return []string{string(a.Hex)}, true
	}
	var out []string
	for d := N; d <= NW; d++ {
		if j := b.Neighbour(at, d); usable(j) {
			out = append(out, string(b.HexAt(j)))
		}
	}
	// 12.0's exception: the Russian cavalry and HQ due at Uman in stage 4
	// may enter along the eastern edge south of the Sejm.
	uman, ok := s.cat.Cities["uman"]
	if len(out) == 0 && a.Kind == "reinforcement" && ok && a.Hex == uman.Hex && side == Russian && (q != nil || u.Type == Cavalry) {
		for i := 0; i < b.Size(); i++ {
			if s.cat.sejmEdge[b.HexAt(i)] && usable(i) {
				out = append(out, string(b.HexAt(i)))
			}
		}
	}
	_ = q
	return out, false
}

func (s *State) noArrival(a Arrival) []Event {
	if u := s.unit(a.ID); u != nil {
		u.Status = Eliminated
		return []Event{{Type: "reinforcement_lost", Unit: a.ID, Text: textf("%s nie może wejść: usunięta (12.0)", "%s cannot enter: removed (12.0)", u.Name)}}
	}
	q := s.hq(a.ID)
	q.Status = Eliminated
	return []Event{{Type: "hq_eliminated", Unit: a.ID, Text: textf("%s nie ma gdzie wrócić: wyeliminowane (9.6, 12.0)", "%s has nowhere to return: eliminated (9.6, 12.0)", q.Name)}}
}

// arrive puts the counter on h (13.5: weakened).
func (s *State) arrive(a Arrival, h string, facing string) []Event {
	hex := Hex(h)
	if q := s.hq(a.ID); q != nil {
		q.Status, q.Hex, q.Return = OnMap, hex, 0
		return []Event{{Type: "reinforcement", Unit: a.ID, Hex: hex, Text: textf("%s przybywa do %s (12.0)", "%s arrives in %s (12.0)", q.Name, hex)}}
	}
	u := s.unit(a.ID)
	u.Status, u.Hex, u.Return = OnMap, hex, 0
	if a.Kind == "prussia" {
		u.Weak = true
	}
	if u.Type != Artillery {
		switch {
		case facing != "":
			u.Facing = facing
		case u.Facing == "" && u.Side == Russian:
			u.Facing = "SW"
		case u.Facing == "":
			u.Facing = "NE"
		}
	}
	evs := []Event{{Type: "reinforcement", Unit: a.ID, Hex: hex, Text: textf("%s przybywa do %s (12.0)", "%s arrives in %s (12.0)", u.Name, hex)}}
	return append(evs, s.moveStack(u.Side, []string{u.ID}, hex, u.Facing)...)
}

// placeArrival answers the arrival's hex choice.
func (s *State) placeArrival(a Place) ([]Event, error) {
	p := s.Pending
	if a.Unit != p.Unit || !slices.Contains(p.Options, string(a.Hex)) {
		return nil, rejectf("bad_place", "%s: do wyboru %v", "%s: the choice is %v", p.Unit, p.Options)
	}
	if a.Facing != "" {
		if _, ok := ParseDir(a.Facing); !ok {
			return nil, rejectf("bad_facing", "kierunek %q", "facing %q", a.Facing)
		}
	}
	arr := s.Arrivals[0]
	s.Arrivals = s.Arrivals[1:]
	s.Pending = nil
	evs := s.arrive(arr, string(a.Hex), a.Facing)
	return append(evs, s.nextArrival()...), nil
}

// ---- 13.5 East Prussia ----

// prussiaRollDue asks the Russian roll for a unit or HQ that entered East
// Prussia (13.5), once nothing else waits.
func (s *State) prussiaRollDue() {
	if s.Pending != nil || s.Phase == PhaseOver {
		return
	}
	for _, u := range s.Units {
		if u.Status == Prussia && u.Return == 0 {
			s.setPending(Pending{Kind: "prussia", Action: "roll", Side: Russian, Dice: 1, Unit: u.ID,
				Text: textf("%s w Prusach Wschodnich: rzut 1K6 na liczbę etapów (13.5)", "%s in East Prussia: roll 1d6 for the stages out (13.5)", u.Name)})
			return
		}
	}
	for _, q := range s.HQs {
		if q.Status == Prussia && q.Return == 0 {
			s.setPending(Pending{Kind: "prussia", Action: "roll", Side: Russian, Dice: 1, Unit: q.ID,
				Text: textf("%s w Prusach Wschodnich: rzut 1K6 na liczbę etapów (13.5)", "%s in East Prussia: roll 1d6 for the stages out (13.5)", q.Name)})
			return
		}
	}
}

func (s *State) prussiaRoll(r Roll) ([]Event, error) {
	if err := checkDice(r, 1); err != nil {
		return nil, err
	}
	id := s.Pending.Unit
	s.Pending = nil
	back := s.Stage + r.Dice[0]
	if u := s.unit(id); u != nil {
		u.Return = back
	} else {
		s.hq(id).Return = back
	}
	_, name := s.counter(id)
	return []Event{{Type: "prussia_return", Unit: id, N: back, Text: textf("%s wróci osłabiona do Smoleńska w fazie posiłków etapu %d (13.5)", "%s returns weakened to Smolensk in stage %d's reinforcement phase (13.5)", name, back)}}, nil
}
