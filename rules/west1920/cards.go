package west1920

import (
	"slices"
)

// CardTask is a card instruction waiting to be carried out (3.2: at once,
// in the events phase) because someone must choose, roll, place or retreat.
// Unit is the unit a place/retreat step is about; Roll a desertion roll.
type CardTask struct {
	Card   int    `json:"card"`
	Player string `json:"player"`
	Effect Effect `json:"effect"`
	Step   string `json:"step,omitempty"` // "" choose, "roll", "place", "retreat"
	Unit   string `json:"unit,omitempty"`
	Side   string `json:"side,omitempty"` // desertion: whose roll
	Roll   int    `json:"roll,omitempty"`
}

// immediate reports the effects carried out at once with a choice (3.2).
func immediate(do string) bool {
	switch do {
	case "weaken_nearest", "eliminate", "desertion", "forced_retreat", "replace_free", "relocate", "return_eliminated", "no_chit":
		return true
	}
	return false
}

// runCardTasks works through the queue until a decision is needed; with
// the queue empty the stage goes on to the resources phase.
func (s *State) runCardTasks() []Event {
	var evs []Event
	for s.Pending == nil && len(s.CardTasks) > 0 {
		evs = append(evs, s.startTask()...)
	}
	if s.Pending == nil && s.Phase == PhaseEvents {
		evs = append(evs, s.enterResources()...)
	}
	return evs
}

func (s *State) popTask() { s.CardTasks = s.CardTasks[1:] }

func chooserOf(t CardTask) string {
	if t.Side != "" {
		return t.Side // card 8: each player chooses their own units
	}
	if t.Effect.Chooser != "" {
		return t.Effect.Chooser
	}
	return t.Effect.Side
}

// startTask begins the first task: done at once when there is nothing to
// choose, otherwise a Pending decision.
func (s *State) startTask() []Event {
	t := s.CardTasks[0]
	e := t.Effect
	switch t.Step {
	case "roll":
		s.setPending(Pending{Kind: "desertion", Action: "roll", Side: t.Side, Dice: 1,
			Text: textf("Dezercje: %[1]s rzuca 1K6 (karta 8)", "Desertions: %[2]s rolls 1d6 (card 8)", sideName(t.Side).PL, sideName(t.Side).EN)})
		return nil
	case "place":
		opts := s.placeOptions(t)
		if len(opts) == 0 {
			s.popTask()
			return s.noPlace(t)
		}
		u := s.unit(t.Unit)
		if t.Effect.Do == "relocate" && t.Effect.To != "czechoslovakia" {
			// Card 24: Toruń, nothing to choose.
			s.popTask()
			evs := []Event{{Type: "relocated", Unit: u.ID, Hex: Hex(opts[0]), Text: textf("%s przeniesiona do %s (karta %d)", "%s moved to %s (card %d)", u.Name, opts[0], t.Card)}}
			return append(evs, s.moveStack(u.Side, []string{u.ID}, Hex(opts[0]), "")...)
		}
		s.setPending(Pending{Kind: "place", Action: "place", Side: chooserOf(t), Options: opts, Unit: t.Unit,
			Text: textf("Karta %d: rozstaw %s", "Card %d: place %s", t.Card, u.Name)})
		return nil
	case "retreat":
		u := s.unit(t.Unit)
		if !s.anyRetreat(u.Side, u.Hex) {
			s.popTask()
			u.Status = Eliminated
			return []Event{{Type: "eliminated", Unit: u.ID, Text: textf("Karta %d: %s bez drogi odwrotu: wyeliminowana (9.5b)", "Card %d: %s cannot retreat: eliminated (9.5b)", t.Card, u.Name)}}
		}
		s.setPending(Pending{Kind: "card_retreat", Action: "retreat", Side: u.Side, Unit: u.ID, Hex: u.Hex,
			Text: textf("Karta %d: %s wycofuje się o dwa heksy (9.5b)", "Card %d: %s retreats two hexes (9.5b)", t.Card, u.Name)})
		return nil
	}
	if e.Do == "desertion" && t.Side == "" {
		// Card 8: each player rolls 1d6; the player who plays first first.
		s.popTask()
		first := s.firstForCards()
		s.CardTasks = append([]CardTask{{Card: t.Card, Player: t.Player, Effect: e, Step: "roll", Side: first},
			{Card: t.Card, Player: t.Player, Effect: e, Step: "roll", Side: other(first)}}, s.CardTasks...)
		return nil
	}
	cands, n, upTo := s.taskCandidates(t)
	if n == 0 || len(cands) == 0 {
		s.popTask()
		return []Event{{Type: "card_void", N: t.Card, Text: textf("Karta %d: nie ma czego wykonać (3.2)", "Card %d: nothing to carry out (3.2)", t.Card)}}
	}
	if len(cands) <= n && !upTo {
		s.popTask()
		return s.carryOut(t, cands)
	}
	s.setPending(Pending{Kind: "card_choice", Action: "choose", Side: chooserOf(t), N: min(n, len(cands)), UpTo: upTo, Options: cands,
		Text: textf("Karta %d: wybierz %d z: %s", "Card %d: choose %d of %s", t.Card, min(n, len(cands)), s.optionNames(cands))})
	return nil
}

// taskCandidates lists the units a choice is among, how many to pick and
// whether fewer may be picked (card 37: "maksymalnie").
func (s *State) taskCandidates(t CardTask) (cands []string, n int, upTo bool) {
	e := t.Effect
	b := s.cat.Board
	side := e.Side
	if t.Side != "" {
		side = t.Side
	}
	n = e.N
	switch e.Do {
	case "weaken_nearest":
		// Card 7: the combat unit(s) nearest the place (hex distance).
		at := b.Index(s.cat.Cities[e.Place].Hex)
		best := -1
		for _, u := range s.Units {
			if u.Status != OnMap || u.Side != side {
				continue
			}
			d := b.Distance(at, b.Index(u.Hex))
			switch {
			case best < 0 || d < best:
				best, cands = d, []string{u.ID}
			case d == best:
				cands = append(cands, u.ID)
			}
		}
		return cands, 1, false
	case "eliminate", "desertion":
		for _, u := range s.Units {
			if u.Status == OnMap && u.Side == side && (e.Type == "" || u.Type == e.Type) {
				cands = append(cands, u.ID)
			}
		}
		if e.Do == "desertion" {
			n = t.N() // half the roll, rounded down (1.5)
		}
		return cands, n, false
	case "replace_free":
		// 10.0's conditions: weakened, two-sided, supplied.
		for _, u := range s.Units {
			if u.Status == OnMap && u.Side == side && u.Weak && !u.OneSided && s.Supplied(u.ID) {
				cands = append(cands, u.ID)
			}
		}
		if n == 0 {
			n = len(cands)
		}
		return cands, n, false
	case "relocate":
		for _, u := range s.Units {
			if u.Status == OnMap && u.Side == side {
				cands = append(cands, u.ID)
			}
		}
		return cands, n, false
	case "return_eliminated":
		for _, u := range s.Units {
			if u.Status == Eliminated && u.Side == side {
				cands = append(cands, u.ID)
			}
		}
		return cands, n, true
	case "no_chit":
		// Card 21: side's stacks next to an enemy stack, by hex.
		for _, h := range s.stackHexes(side) {
			at := b.Index(h)
			for d := N; d <= NW; d++ {
				if j := b.Neighbour(at, d); j >= 0 && len(s.ownStack(other(side), b.HexAt(j))) > 0 {
					cands = append(cands, string(h))
					break
				}
			}
		}
		return cands, n, false
	case "forced_retreat":
		// Cards 20, 28: non-artillery units next to an enemy unit (of
		// cavalry, card 28).
		for _, u := range s.Units {
			if u.Status != OnMap || u.Side != side || u.Type == Artillery {
				continue
			}
			at := b.Index(u.Hex)
			for d := N; d <= NW; d++ {
				j := b.Neighbour(at, d)
				if j >= 0 && slices.ContainsFunc(s.ownStack(other(side), b.HexAt(j)), func(x *Unit) bool { return e.Adj != "cavalry" || x.Type == Cavalry }) {
					cands = append(cands, u.ID)
					break
				}
			}
		}
		return cands, n, false
	}
	return nil, 0, false
}

// N of a desertion task is half its roll, rounded down (1.5).
func (t CardTask) N() int { return t.Roll / 2 }

// carryOut applies the instruction to the chosen units.
func (s *State) carryOut(t CardTask, ids []string) []Event {
	e := t.Effect
	var evs []Event
	rule := "karta " + itoa(t.Card)
	switch e.Do {
	case "weaken_nearest":
		for _, id := range ids {
			evs = append(evs, s.hit(s.unit(id), 1, rule)...)
		}
	case "eliminate", "desertion":
		for _, id := range ids {
			u := s.unit(id)
			u.Status = Eliminated
			evs = append(evs, Event{Type: "eliminated", Unit: id, Hex: u.Hex, Text: textf("%s wyeliminowana (karta %d)", "%s eliminated (card %d)", u.Name, t.Card)})
		}
	case "replace_free":
		for _, id := range ids {
			u := s.unit(id)
			u.Weak = false
			evs = append(evs, Event{Type: "restored", Unit: id, Text: textf("%s przywrócona bez kosztu (karta %d, 10.0)", "%s restored free (card %d, 10.0)", u.Name, t.Card)})
		}
	case "relocate", "return_eliminated":
		var place []CardTask
		for _, id := range ids {
			place = append(place, CardTask{Card: t.Card, Player: t.Player, Effect: e, Step: "place", Unit: id})
		}
		s.CardTasks = append(place, s.CardTasks...)
	case "no_chit":
		s.Effects = append(s.Effects, CardEffect{Card: t.Card, Player: t.Player, Effect: e, Hexes: ids})
		evs = append(evs, Event{Type: "card_effect", N: t.Card, Text: textf("Karta %d: bez żetonów aktywacji na %v (7.1)", "Card %d: no activation chit on %v (7.1)", t.Card, ids)})
	case "forced_retreat":
		var rt []CardTask
		for _, id := range ids {
			rt = append(rt, CardTask{Card: t.Card, Player: t.Player, Effect: e, Step: "retreat", Unit: id})
		}
		s.CardTasks = append(rt, s.CardTasks...)
	}
	return evs
}

// placeOptions: Toruń (card 24); a hex next to Czechoslovakia (36, 40);
// Smolensk or a hex next to it (37). Never an enemy-held, impassable or
// full hex.
func (s *State) placeOptions(t CardTask) []string {
	b := s.cat.Board
	u := s.unit(t.Unit)
	o := s.occupancy(u.Side)
	ok := func(i int) bool {
		return i >= 0 && s.passable(i) && !o.enemyAny[i] && len(s.ownStack(u.Side, b.HexAt(i)))+1 <= StackLimit+boolInt(u.Status == OnMap && u.Hex == b.HexAt(i))
	}
	var out []string
	switch {
	case t.Effect.Do == "return_eliminated" || t.Effect.To != "czechoslovakia":
		c := b.Index(s.cat.Cities[t.Effect.To].Hex)
		if ok(c) {
			out = append(out, string(b.HexAt(c)))
		}
		if t.Effect.Do == "return_eliminated" {
			for d := N; d <= NW; d++ {
				if j := b.Neighbour(c, d); ok(j) {
					out = append(out, string(b.HexAt(j)))
				}
			}
		}
	default:
		for i := 0; i < b.Size(); i++ {
			if b.country[i] == t.Effect.To || !ok(i) {
				continue
			}
			for d := N; d <= NW; d++ {
				if j := b.Neighbour(i, d); j >= 0 && b.country[j] == t.Effect.To {
					out = append(out, string(b.HexAt(i)))
					break
				}
			}
		}
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (s *State) noPlace(t CardTask) []Event {
	u := s.unit(t.Unit)
	if t.Effect.Do == "return_eliminated" {
		return []Event{{Type: "card_void", Unit: u.ID, Text: textf("Karta %d: %s nie ma gdzie wrócić", "Card %d: %s has nowhere to return", t.Card, u.Name)}}
	}
	return []Event{{Type: "card_void", Unit: u.ID, Text: textf("Karta %d: %s nie ma gdzie się przenieść: zostaje", "Card %d: %s has nowhere to go: it stays", t.Card, u.Name)}}
}

// cardChoice answers a card's choice (Choose).
func (s *State) cardChoice(a Choose) ([]Event, error) {
	p := s.Pending
	if len(a.Targets) > p.N || (!p.UpTo && len(a.Targets) != p.N) {
		return nil, rejectf("choose_count", "wybierz %d", "choose %d", p.N)
	}
	for i, id := range a.Targets {
		if !slices.Contains(p.Options, id) || slices.Contains(a.Targets[:i], id) {
			return nil, rejectf("bad_choice", "%q nie jest do wyboru: %v", "%q is not among %v", id, p.Options)
		}
	}
	t := s.CardTasks[0]
	s.popTask()
	s.Pending = nil
	evs := s.carryOut(t, a.Targets)
	return append(evs, s.runCardTasks()...), nil
}

// place answers a placement (cards 24, 36, 37, 40).
func (s *State) place(a Place) ([]Event, error) {
	p := s.Pending
	if p.Kind == "arrival" {
		return s.placeArrival(a)
	}
	if a.Unit != p.Unit || !slices.Contains(p.Options, string(a.Hex)) {
		return nil, rejectf("bad_place", "%s: do wyboru %v", "%s: the choice is %v", p.Unit, p.Options)
	}
	if a.Facing != "" {
		if _, ok := ParseDir(a.Facing); !ok {
			return nil, rejectf("bad_facing", "kierunek %q", "facing %q", a.Facing)
		}
	}
	t := s.CardTasks[0]
	s.popTask()
	s.Pending = nil
	u := s.unit(a.Unit)
	var evs []Event
	if t.Effect.Do == "return_eliminated" {
		u.Status, u.Weak = OnMap, true
		u.Hex = a.Hex
		evs = append(evs, Event{Type: "returned", Unit: u.ID, Hex: a.Hex, Text: textf("%s wraca osłabiona do %s (karta %d)", "%s returns weakened to %s (card %d)", u.Name, a.Hex, t.Card)})
	} else {
		evs = append(evs, Event{Type: "relocated", Unit: u.ID, Hex: a.Hex, Text: textf("%s przeniesiona do %s (karta %d)", "%s moved to %s (card %d)", u.Name, a.Hex, t.Card)})
	}
	evs = append(evs, s.moveStack(u.Side, []string{u.ID}, a.Hex, a.Facing)...)
	return append(evs, s.runCardTasks()...), nil
}

// desertionRoll: card 8, half the roll (1.5) of the roller's own units.
func (s *State) desertionRoll(r Roll) ([]Event, error) {
	if err := checkDice(r, 1); err != nil {
		return nil, err
	}
	t := &s.CardTasks[0]
	t.Step, t.Roll = "", r.Dice[0]
	s.Pending = nil
	evs := []Event{{Type: "desertion_roll", Side: t.Side, N: r.Dice[0], Text: textf("Dezercje: %[1]s wyrzuca %[3]d, traci %[4]d (karta 8)", "Desertions: %[2]s rolls %[3]d and loses %[4]d (card 8)", sideName(t.Side).PL, sideName(t.Side).EN, r.Dice[0], r.Dice[0]/2)}}
	return append(evs, s.runCardTasks()...), nil
}

// cardRetreat: cards 20, 28, one unit retreats two hexes (9.5b, first
// point); its owner picks the path.
func (s *State) cardRetreat(a Retreat) ([]Event, error) {
	p := s.Pending
	u := s.unit(p.Unit)
	if err := s.checkRetreatPath(u.Side, u.Hex, a.Path, 1); err != nil {
		return nil, err
	}
	dest := s.retreatEnd(a.Path)
	if len(s.ownStack(u.Side, dest))+1 > StackLimit {
		return nil, rejectf("overstacked", "%s: limit stosu %d (1.2)", "%s: the stacking limit is %d (1.2)", dest, StackLimit)
	}
	s.popTask()
	s.Pending = nil
	from := u.Hex
	evs := []Event{{Type: "retreat", Side: u.Side, Unit: u.ID, Hex: dest, Text: textf("%s wycofuje się z %s do %s (karta, 9.5b)", "%s retreats from %s to %s (card, 9.5b)", u.Name, from, dest)}}
	evs = append(evs, s.passThrough(u.Side, a.Path, dest)...)
	evs = append(evs, s.moveStack(u.Side, []string{u.ID}, dest, a.Facing)...)
	return append(evs, s.runCardTasks()...), nil
}
