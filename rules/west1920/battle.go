package west1920

import (
	"slices"

	"github.com/sztab/sztab/rules"
)

// ---- 9.1 withdrawal before combat ----

func (s *State) withdraw(a Withdraw) ([]Event, error) {
	if s.Phase != PhaseWithdrawal || a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "wycofanie przed walką na zmianę na początku walki (9.1)", "withdrawals are made in turn at the start of combat (9.1)")
	}
	stack := s.ownStack(a.Side, a.Hex)
	if len(stack) == 0 {
		return nil, rejectf("no_stack", "brak stosu w %s", "no stack in %s", a.Hex)
	}
	for _, u := range stack {
		if u.Type != Cavalry {
			return nil, rejectf("not_all_cavalry", "wycofać się może tylko stos samej kawalerii (9.1)", "only an all-cavalry stack may withdraw (9.1)")
		}
	}
	b := s.cat.Board
	at := b.Index(a.Hex)
	facing := 0
	for d := N; d <= NW; d++ {
		j := b.Neighbour(at, d)
		if j < 0 || s.facedHex(other(a.Side), b.HexAt(j)) != at {
			continue
		}
		if len(s.ownStack(other(a.Side), b.HexAt(j))) == 0 {
			continue
		}
		facing++
		for _, u := range s.ownStack(other(a.Side), b.HexAt(j)) {
			if u.Type == Cavalry {
				return nil, rejectf("enemy_cavalry", "wrogi stos zwrócony w stronę kawalerii ma kawalerię (9.1)", "the enemy stack facing it has cavalry (9.1)")
			}
		}
	}
	if facing != 1 {
		return nil, rejectf("not_one_facing", "w stronę stosu musi być zwrócony dokładnie jeden wrogi stos (9.1); jest %d", "exactly one enemy stack must face it (9.1); %d do", facing)
	}
	ids := s.stackIDs(a.Hex)
	if err := s.checkRetreatPath(a.Side, a.Hex, a.Path, len(ids)); err != nil {
		return nil, err
	}
	dest := s.retreatEnd(a.Path)
	for k := range s.HQs {
		if q := &s.HQs[k]; q.Status == OnMap && q.Side == a.Side && q.Hex == a.Hex {
			q.Hex = dest // 9.5b applies: HQs go with the stack
		}
	}
	evs := append(s.passThrough(a.Side, a.Path, dest), s.moveStack(a.Side, ids, dest, a.Facing)...)
	evs = append([]Event{{Type: "withdraw", Side: a.Side, Hex: dest, Text: textf("Kawaleria z %s wycofuje się do %s (9.1)", "Cavalry withdraws from %s to %s (9.1)", a.Hex, dest)}}, evs...)
	// 9.1: the enemy stack that faced it may enter the vacated hex.
	var followers []string
	for d := N; d <= NW; d++ {
		j := b.Neighbour(at, d)
		if j < 0 || s.facedHex(other(a.Side), b.HexAt(j)) != at {
			continue
		}
		for _, u := range s.ownStack(other(a.Side), b.HexAt(j)) {
			if u.Type != Artillery {
				followers = append(followers, u.ID)
			}
		}
	}
	if len(followers) > 0 {
		s.setPending(Pending{Kind: "withdraw_follow", Action: "pursue", Side: other(a.Side), Options: followers, Hex: a.Hex,
			Text: textf("wrogi stos może wejść na opuszczony heks %s (pusta lista: nie) (9.1)", "the enemy stack may enter the vacated hex %s (an empty list: no) (9.1)", a.Hex)})
		return evs, nil
	}
	s.passTurn()
	return evs, nil
}

// follow answers 9.1's "the enemy stack may enter the vacated hex".
func (s *State) follow(a Pursue) ([]Event, error) {
	p := s.Pending
	var evs []Event
	if len(a.Units) > 0 {
		if len(a.Further) > 0 {
			return nil, rejectf("cannot_pursue", "po wycofaniu przed walką nie ma dalszego ruchu kawalerii (9.1)", "no further cavalry hex after a withdrawal (9.1)")
		}
		for _, id := range a.Units {
			if !slices.Contains(p.Options, id) {
				return nil, rejectf("cannot_pursue", "%s nie może wejść na %s (9.1)", "%s may not enter %s (9.1)", id, p.Hex)
			}
		}
		if len(s.ownStack(a.Side, p.Hex))+len(a.Units) > StackLimit {
			return nil, rejectf("overstacked", "%s: limit stosu %d (1.2)", "%s: the stacking limit is %d (1.2)", p.Hex, StackLimit)
		}
		evs = append(evs, Event{Type: "follow", Side: a.Side, Hex: p.Hex, N: len(a.Units), Text: textf("%d jedn. wchodzi na opuszczony heks %s (9.1)", "%d unit(s) enter the vacated hex %s (9.1)", len(a.Units), p.Hex)})
		evs = append(evs, s.moveStack(a.Side, a.Units, p.Hex, a.Facing)...)
	}
	s.Pending = nil
	// The turn goes on from the withdrawing player.
	s.Turn = other(a.Side)
	s.passTurn()
	return evs, nil
}

// checkRetreatPath: two hexes, no impassable hex, no enemy combat unit in
// or (unless screened, as in 5.2) next to a hex of the path (9.5b).
func (s *State) checkRetreatPath(side string, from Hex, path []Hex, n int) error {
	b := s.cat.Board
	if len(path) != 2 {
		return rejectf("retreat_two", "odwrót o dwa heksy (9.5b)", "a retreat is two hexes (9.5b)")
	}
	o := s.occupancy(side)
	prev := b.Index(from)
	for _, h := range path {
		i := b.Index(h)
		if i < 0 || b.DirTo(prev, i) < 0 || i == b.Index(from) {
			return rejectf("bad_path", "%s nie jest kolejnym heksem odwrotu", "%s is not the next hex of the retreat", h)
		}
		if b.impassable[i] {
			return rejectf("impassable", "%s: teren niedostępny (9.5b)", "%s: impassable (9.5b)", h)
		}
		if o.enemyCombat[i] {
			return rejectf("enemy_occupied", "%s: wroga jednostka bojowa (9.5b)", "%s: an enemy combat unit (9.5b)", h)
		}
		// 9.5b forbids hexes with enemy combat units, and hexes next to
		// one unless screened; a lone enemy HQ does not stop a retreat (the
		// stack enters its hex and the HQ is removed, 9.6, as for moves).
		if s.passable(i) && s.exposed(i, &o) {
			return rejectf("enemy_adjacent", "%s: przy wrogiej jednostce, bez rzeki i bez sojusznika (9.5b)", "%s: next to an enemy unit, with no river or friend between (9.5b)", h)
		}
		prev = i
	}
	return nil
}

// retreatLoss is how many of n retreating units a path loses: all of them
// interned in a neutral country, or those over the stacking limit (9.5b).
func (s *State) retreatLoss(side string, n int, path []Hex) int {
	dest := s.retreatEnd(path)
	if i := s.cat.Board.Index(dest); s.cat.Board.country[i] != "" && !s.passable(i) {
		return n
	}
	return max(0, len(s.ownStack(side, dest))+n-StackLimit)
}

// retreatEnd is where a retreat path ends: its last hex, or the first hex
// in a neutral country, where the retreating units are interned (1.3, 13.5).
func (s *State) retreatEnd(path []Hex) Hex {
	b := s.cat.Board
	for _, h := range path {
		if i := b.Index(h); i >= 0 && b.country[i] != "" && !s.passable(i) {
			return h
		}
	}
	return path[len(path)-1]
}

// moveStack puts units on dest with one facing (arrivals take the facing
// of friendly cavalry/infantry already there).
func (s *State) moveStack(side string, ids []string, dest Hex, facing string) []Event {
	for _, u := range s.Units {
		if u.Status == OnMap && u.Hex == dest && u.Side == side && u.Type != Artillery && !slices.Contains(ids, u.ID) {
			facing = u.Facing
		}
	}
	for _, id := range ids {
		u := s.unit(id)
		u.Hex = dest
		if u.Type != Artillery && facing != "" {
			u.Facing = facing
		}
	}
	return s.enterHex(side, s.cat.Board.Index(dest))
}

// ---- 9.2–9.5 combat ----

func (s *State) attack(a Attack) ([]Event, error) {
	if s.Phase != PhaseCombat || a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "ataki na zmianę w fazie walki (9.2)", "attacks are made in turn in the combat phase (9.2)")
	}
	bt, err := s.prepareBattle(a)
	if err != nil {
		return nil, err
	}
	s.Battle = bt
	if len(bt.Defenders) == 0 {
		// 9.6: an HQ attacked alone is removed at once; no losses; the
		// attackers may pursue into the hex.
		evs := []Event{{Type: "attack", Side: a.Side, Hex: a.Target, Text: textf("Atak z %s na samotne dowództwo w %s (9.6)", "Attack from %s on a lone HQ in %s (9.6)", a.From, a.Target)}}
		for k := range s.HQs {
			if q := &s.HQs[k]; q.Status == OnMap && q.Side != a.Side && q.Hex == a.Target {
				evs = append(evs, s.removeHQ(q)...)
			}
		}
		bt.Support = ""
		s.markAttackers()
		bt.Outcome = &CombatOutcome{Winner: Attacker, Effect: EffectRetreat, Rule: "9.6"}
		bt.Loser, bt.Retreated = other(a.Side), true
		return append(evs, s.nextBattleStep()...), nil
	}
	if a.Support != "" {
		co, _ := CoordinatedCombat(CombatStack{Combat: bt.AttCF, Units: len(bt.Attackers), Steps: s.steps(bt.Attackers)}, bt.SupportCF,
			CombatStack{Combat: bt.DefCF, Units: max(1, len(bt.Defenders)), Steps: s.steps(bt.Defenders)})
		s.tieOdds(&co.WithoutSupport)
		s.tieOdds(&co.WithSupport)
		s.rollPending("coordination", a.Side, 1, "rzut koordynacji 1K6: 1–2 atak odwołany, 3–4 bez wsparcia, 5–6 wsparcie (9.2)", "coordination roll 1d6: 1–2 cancelled, 3–4 alone, 5–6 supported (9.2)", &Odds{Coordinated: &co})
		return []Event{{Type: "attack", Side: a.Side, Hex: a.Target, Text: textf("Atak z %s na %s ze wsparciem z %s", "Attack from %s on %s supported from %s", a.From, a.Target, a.Support)}}, nil
	}
	return append([]Event{{Type: "attack", Side: a.Side, Hex: a.Target, Text: textf("Atak z %s na %s", "Attack from %s on %s", a.From, a.Target)}}, s.askCombatRoll()...), nil
}

func (s *State) steps(ids []string) int {
	n := 0
	for _, id := range ids {
		if s.unit(id).Weak {
			n++
		} else {
			n += 2
		}
	}
	return max(n, 1)
}

func (s *State) askCombatRoll() []Event {
	bt := s.Battle
	if len(bt.Defenders) == 0 {
		// 9.6: a lone HQ attacked is removed at once; no losses.
		evs := s.enterHex(bt.Side, s.cat.Board.Index(bt.Target))
		s.markAttackers()
		s.Battle = nil
		s.passTurn()
		return evs
	}
	if d := other(bt.Side); !bt.BonusAsked {
		// 9.3, last point: the defending player names its card bonuses
		// (those whose chooser it is) before the roll.
		bt.BonusAsked = true
		if opts := s.bonusChoice(d); len(opts) > 0 {
			s.setPending(Pending{Kind: "card_bonus", Action: "card_bonus", Side: d, Hex: bt.Target, Options: opts,
				Text: rules.Text{PL: "premie kart do tej walki (albo żadnej) przed rzutem (9.3)", EN: "card bonuses for this combat (or none) before the roll (9.3)"}})
			return nil
		}
	}
	co, _ := Combat(CombatStack{Combat: bt.AttCF, Units: len(bt.Attackers), Steps: s.steps(bt.Attackers)},
		CombatStack{Combat: bt.DefCF, Units: len(bt.Defenders), Steps: s.steps(bt.Defenders)})
	s.tieOdds(&co)
	s.rollPending("combat_roll", "", 2, "rzut walki: 1K6 atakującego i 1K6 obrońcy (9.3)", "combat roll: the attacker's 1d6 and the defender's 1d6 (9.3)", &Odds{Combat: &co})
	return nil
}

// cardBonus answers the defender's card_bonus decision (9.3).
func (s *State) cardBonus(a CardBonus) ([]Event, error) {
	bt := s.Battle
	if err := s.addBonuses(bt, a.Side, a.Bonuses); err != nil {
		return nil, err
	}
	s.Pending = nil
	var evs []Event
	for _, bo := range a.Bonuses {
		evs = append(evs, Event{Type: "card_bonus", Side: a.Side, N: bo.Card, Hex: bo.Hex, Text: textf("Karta %d: premia dla stosu w %s (9.3)", "Card %d: bonus for the stack in %s (9.3)", bo.Card, bo.Hex)})
	}
	return append(evs, s.askCombatRoll()...), nil
}

// tieOdds moves the tie to the defender's wins under the option
// tie_combat: defender (9.3, AMBIGUITIES.md).
func (s *State) tieOdds(o *CombatOdds) {
	if s.Options.TieCombat != "defender" {
		return
	}
	o.DefenderWins += o.Tie
	o.Tie = 0
	for i := range o.Outcomes {
		if o.Outcomes[i].Diff == 0 {
			o.Outcomes[i].Winner = Defender
		}
	}
}

func (s *State) coordinationRoll(r Roll) ([]Event, error) {
	if err := checkDice(r, 1); err != nil {
		return nil, err
	}
	bt := s.Battle
	s.Pending = nil
	switch d := r.Dice[0]; {
	case d <= 2:
		// 9.2: "atak jest anulowany": both stacks count as having
		// attacked, but no combat took place: nobody has fought (9.3's
		// −1 is for units that "uczestniczyła w walce").
		s.markAttacked()
		s.Battle = nil
		s.passTurn()
		return []Event{ev("attack_cancelled", "Rzut %d: atak odwołany (9.2)", "Roll %d: the attack is cancelled (9.2)", d)}, nil
	case d >= 5:
		bt.Supported = true
		bt.AttCF += bt.SupportCF
		return append([]Event{ev("supported", "Rzut %d: drugi stos wspiera (+%d) (9.2)", "Roll %d: the second stack supports (+%d) (9.2)", d, bt.SupportCF)}, s.askCombatRoll()...), nil
	default:
		return append([]Event{ev("unsupported", "Rzut %d: atak bez wsparcia (9.2)", "Roll %d: the attack goes in alone (9.2)", d)}, s.askCombatRoll()...), nil
	}
}

// markAttackers marks a combat's attackers (the supporting stack too) as
// having attacked and fought, and its defenders as having fought (9.2,
// 9.3 fifth point).
func (s *State) markAttackers() {
	bt := s.Battle
	s.markAttacked()
	for _, id := range bt.Attackers {
		s.unit(id).Fought = true
	}
	if bt.Support != "" {
		for _, u := range s.ownStack(bt.Side, bt.Support) {
			u.Fought = true
		}
	}
	for _, id := range bt.Defenders {
		s.unit(id).Fought = true
	}
}

// markAttacked marks the attacking and supporting units as having
// attacked (9.2: taking part in a coordinated attack counts as an attack,
// "niezależnie od tego, czy udała się koordynacja").
func (s *State) markAttacked() {
	bt := s.Battle
	for _, id := range bt.Attackers {
		u := s.unit(id)
		u.Attacked, u.Routed, u.Again = true, false, false
	}
	if bt.Support != "" {
		for _, u := range s.ownStack(bt.Side, bt.Support) {
			u.Attacked = true
		}
	}
}

func (s *State) combatRoll(r Roll) ([]Event, error) {
	if err := checkDice(r, 2); err != nil {
		return nil, err
	}
	bt := s.Battle
	att := CombatStack{Combat: bt.AttCF, Units: len(bt.Attackers), Steps: s.steps(bt.Attackers)}
	def := CombatStack{Combat: bt.DefCF, Units: len(bt.Defenders), Steps: s.steps(bt.Defenders)}
	out, err := CombatResult(att, def, r.Dice[0], r.Dice[1])
	if err != nil {
		return nil, rejectf("bad_combat", "%v", "%v", err)
	}
	if out.Winner == "" && s.Options.TieCombat == "defender" {
		// Option tie_combat: defender (AMBIGUITIES.md, 9.3): equal values
		// are a defender's win by 0, a 9.5a result with no losses.
		out.Winner = Defender
	}
	s.Pending = nil
	bt.Outcome = &out
	s.markAttackers()
	evs := []Event{ev("combat", "Atak %d + %d = %d, obrona %d + %d = %d: różnica %d, %s; straty: atakujący %d, obrońca %d",
		"Attack %d + %d = %d, defence %d + %d = %d: difference %d, %s; losses: attacker %d, defender %d",
		bt.AttCF, r.Dice[0], bt.AttCF+r.Dice[0], bt.DefCF, r.Dice[1], bt.DefCF+r.Dice[1], out.Diff, out.Rule, out.AttackerLosses, out.DefenderLosses)}
	// The event names the winning side ("" when nobody wins).
	switch out.Winner {
	case Attacker:
		evs[0].Side = bt.Side
	case Defender:
		evs[0].Side = other(bt.Side)
	}
	bt.AttLosses, bt.DefLosses = out.AttackerLosses, out.DefenderLosses
	switch out.Winner {
	case Attacker:
		bt.Loser = other(bt.Side)
		if out.Effect == EffectRout {
			for _, id := range bt.Attackers {
				s.unit(id).Routed = true
			}
		}
	case Defender:
		bt.Loser = bt.Side
		if out.Effect == EffectRout {
			for _, id := range bt.Defenders {
				s.unit(id).Routed = true // 9.3 fifth point: won under 9.5c
			}
		}
	}
	return append(evs, s.nextBattleStep()...), nil
}

// nextBattleStep asks for the next decision of the combat in progress.
func (s *State) nextBattleStep() []Event {
	bt := s.Battle
	chooser := func(owner string) string {
		if s.Options.LossesChosenBy == "winner" {
			return other(owner)
		}
		return owner
	}
	if bt.DefLosses > 0 {
		s.setPending(Pending{Kind: "losses", Action: "losses", Side: chooser(other(bt.Side)), N: bt.DefLosses, Options: s.alive(bt.Defenders), Role: string(Defender),
			Text: textf("obrońca traci %d (9.4)", "the defender takes %d loss(es) (9.4)", bt.DefLosses)})
		return nil
	}
	if bt.AttLosses > 0 {
		s.setPending(Pending{Kind: "losses", Action: "losses", Side: chooser(bt.Side), N: bt.AttLosses, Options: s.alive(bt.Attackers), Role: string(Attacker),
			Text: textf("atakujący traci %d (9.4)", "the attacker takes %d loss(es) (9.4)", bt.AttLosses)})
		return nil
	}
	// 9.6: an HQ whose combat units were all eliminated leaves the map.
	evs := s.strandedHQs()
	return append(evs, s.afterLosses()...)
}

// afterLosses is the retreat and pursuit (9.5b) and the battle's end.
func (s *State) afterLosses() []Event {
	bt := s.Battle
	if bt.Outcome.Effect != EffectHold && bt.Loser != "" && !bt.Retreated {
		losers := bt.Defenders
		if bt.Loser == bt.Side {
			losers = bt.Attackers
		}
		var evs []Event
		for _, id := range s.alive(losers) {
			if u := s.unit(id); u.Type == Artillery {
				u.Status = Eliminated // 9.5b: artillery is eliminated
				evs = append(evs, Event{Type: "eliminated", Unit: id, Text: textf("%s wyeliminowana (9.5b)", "%s eliminated (9.5b)", u.Name)})
			}
		}
		if len(s.alive(losers)) > 0 {
			who := bt.Loser
			if bt.Outcome.Effect == EffectRout {
				who = other(bt.Loser) // 9.5c: the winner picks the route
			}
			s.setPending(Pending{Kind: "retreat", Action: "retreat", Side: who, Text: textf("odwrót o dwa heksy (9.5b)", "retreat two hexes (9.5b)")})
			return evs
		}
		bt.Retreated = true
		return append(evs, s.nextBattleStep()...)
	}
	if bt.Retreated && bt.Loser != "" {
		winners := bt.Attackers
		if bt.Loser == bt.Side {
			winners = bt.Defenders
		}
		if len(s.alive(winners)) > 0 {
			// 9.5b: "Jednostki kawalerii, piechoty i dowodzenia mogą
			// wykonać pościg": the HQs in the winning hex may go too.
			won := bt.From
			if bt.Loser == bt.Side {
				won = bt.Target
			}
			opts := s.alive(winners)
			for _, q := range s.HQs {
				if q.Status == OnMap && q.Side == other(bt.Loser) && q.Hex == won {
					opts = append(opts, q.ID)
				}
			}
			s.setPending(Pending{Kind: "pursuit", Action: "pursue", Side: other(bt.Loser), Options: opts,
				Text: textf("pościg: wejście na opuszczony heks (pusta lista: bez pościgu) (9.5b)", "pursuit: enter the vacated hex (an empty list: none) (9.5b)")})
			return nil
		}
	}
	s.Battle, s.Pending = nil, nil
	s.passTurn()
	return nil
}

func (s *State) alive(ids []string) []string {
	var out []string
	for _, id := range ids {
		if u := s.unit(id); u != nil && u.Status == OnMap {
			out = append(out, id)
		}
	}
	return out
}

func (s *State) losses(a Losses) ([]Event, error) {
	p := s.Pending
	alive := p.Options
	count := map[string]int{}
	for _, id := range a.Units {
		if !slices.Contains(alive, id) {
			return nil, rejectf("not_in_combat", "%s nie walczy w tym starciu", "%s is not in this combat", id)
		}
		count[id]++
	}
	capacity := 0
	for _, id := range alive {
		if s.unit(id).Weak {
			capacity++
		} else {
			capacity += 2
		}
	}
	want := min(p.N, capacity)
	if len(a.Units) != want {
		return nil, rejectf("losses_count", "trzeba przydzielić %d strat, podano %d (9.4)", "%d losses must be allocated, %d given (9.4)", want, len(a.Units))
	}
	for id, n := range count {
		u := s.unit(id)
		if (u.Weak && n > 1) || n > 2 {
			return nil, rejectf("too_many_on_unit", "%s nie przyjmie %d strat", "%s cannot take %d losses", u.Name, n)
		}
	}
	var evs []Event
	for _, id := range a.Units {
		evs = append(evs, s.hit(s.unit(id), 1, "9.4")...)
	}
	bt := s.Battle
	// The pending decision names whose losses these were (9.4).
	if p.Role == string(Defender) {
		bt.DefLosses = 0
	} else {
		bt.AttLosses = 0
	}
	s.Pending = nil
	return append(evs, s.nextBattleStep()...), nil
}

func (s *State) retreat(a Retreat) ([]Event, error) {
	bt := s.Battle
	losers := bt.Defenders
	from := bt.Target
	if bt.Loser == bt.Side {
		losers, from = bt.Attackers, bt.From
	}
	ids := s.alive(losers)
	if len(a.Path) == 0 {
		if s.anyRetreat(bt.Loser, from) {
			return nil, rejectf("retreat_exists", "odwrót jest możliwy: podaj drogę (9.5b)", "a retreat is possible: give the path (9.5b)")
		}
		var evs []Event
		for _, id := range ids {
			s.unit(id).Status = Eliminated
			evs = append(evs, Event{Type: "eliminated", Unit: id, Text: textf("%s bez drogi odwrotu: wyeliminowana (9.5b)", "%s cannot retreat: eliminated (9.5b)", s.unit(id).Name)})
		}
		bt.Retreated = true
		s.Pending = nil
		return append(evs, s.nextBattleStep()...), nil
	}
	if err := s.checkRetreatPath(bt.Loser, from, a.Path, len(ids)); err != nil {
		return nil, err
	}
	if bt.Outcome.Effect == EffectRout {
		// 9.5c: the winner must pick a route that loses the fewest units
		// (over-stacking eliminations; internment counts as losing them).
		best := len(ids)
		for _, p := range s.twoHexPaths(from) {
			if s.checkRetreatPath(bt.Loser, from, p, len(ids)) == nil {
				best = min(best, s.retreatLoss(bt.Loser, len(ids), p))
			}
		}
		if got := s.retreatLoss(bt.Loser, len(ids), a.Path); got > best {
			return nil, rejectf("retreat_costly", "ta droga kosztuje %d jednostek, inna tylko %d (9.5c)", "this route loses %d unit(s), another only %d (9.5c)", got, best)
		}
	}
	dest := s.retreatEnd(a.Path)
	there := len(s.ownStack(bt.Loser, dest))
	over := there + len(ids) - StackLimit
	if over > 0 && len(a.Eliminate) != over {
		return nil, rejectf("overstacked", "%s: wyeliminuj %d jednostek ponad limit (9.5b)", "%s: eliminate %d unit(s) over the limit (9.5b)", dest, over)
	}
	var evs []Event
	for _, id := range a.Eliminate {
		if !slices.Contains(ids, id) {
			return nil, rejectf("not_retreating", "%s się nie wycofuje", "%s is not retreating", id)
		}
	}
	for _, id := range a.Eliminate {
		s.unit(id).Status = Eliminated
		ids = slices.DeleteFunc(ids, func(x string) bool { return x == id })
	}
	for k := range s.HQs {
		if q := &s.HQs[k]; q.Status == OnMap && q.Side == bt.Loser && q.Hex == from {
			q.Hex = dest // 9.5b: HQs retreat with the stack (13.5: into East Prussia too)
		}
	}
	evs = append(evs, s.passThrough(bt.Loser, a.Path, dest)...)
	evs = append(evs, s.moveStack(bt.Loser, ids, dest, a.Facing)...)
	bt.Retreated = true
	s.Pending = nil
	evs = append([]Event{{Type: "retreat", Side: bt.Loser, Hex: dest, Text: textf("Odwrót z %s do %s (9.5b)", "Retreat from %s to %s (9.5b)", from, dest)}}, evs...)
	return append(evs, s.nextBattleStep()...), nil
}

func (s *State) anyRetreat(side string, from Hex) bool {
	b := s.cat.Board
	f := b.Index(from)
	for d1 := N; d1 <= NW; d1++ {
		i := b.Neighbour(f, d1)
		if i < 0 {
			continue
		}
		for d2 := N; d2 <= NW; d2++ {
			j := b.Neighbour(i, d2)
			if j < 0 {
				continue
			}
			if s.checkRetreatPath(side, from, []Hex{b.HexAt(i), b.HexAt(j)}, 1) == nil {
				return true
			}
		}
	}
	return false
}

func (s *State) pursue(a Pursue) ([]Event, error) {
	bt := s.Battle
	var evs []Event
	if len(a.Units) > 0 {
		vacated := bt.Target
		if bt.Loser == bt.Side {
			vacated = bt.From
		}
		var units, hqs []string
		for _, id := range a.Units {
			if !slices.Contains(s.Pending.Options, id) || s.unit(id) != nil && s.unit(id).Type == Artillery {
				return nil, rejectf("cannot_pursue", "%s nie może ścigać (9.5b)", "%s may not pursue (9.5b)", id)
			}
			if s.unit(id) == nil {
				hqs = append(hqs, id)
			} else {
				units = append(units, id)
			}
		}
		if len(units) == 0 {
			// AMBIGUITIES.md, 9.5b: an HQ pursues only with combat units.
			return nil, rejectf("cannot_pursue", "dowództwo ściga tylko z jednostkami bojowymi (9.5b)", "an HQ pursues only with combat units (9.5b)")
		}
		if len(s.ownStack(other(bt.Loser), vacated))+len(units) > StackLimit || len(s.ownStack(bt.Loser, vacated)) > 0 {
			return nil, rejectf("cannot_pursue", "pościg na %s niemożliwy", "no pursuit into %s", vacated)
		}
		evs = append(evs, s.moveStack(other(bt.Loser), units, vacated, a.Facing)...)
		for _, id := range hqs {
			s.hq(id).Hex = vacated
		}
		if bt.Outcome.Effect == EffectRout {
			// 9.5c: each unit entering the vacated hex may attack again.
			for _, id := range units {
				s.unit(id).Again = true
			}
		}
		b := s.cat.Board
		o := s.occupancy(other(bt.Loser))
		if len(a.Further) > 0 && bt.Outcome.Rule == "9.6" {
			// 9.6: after a lone HQ is attacked the units only occupy its hex.
			return nil, rejectf("cannot_pursue", "po ataku na samotne dowództwo tylko zajęcie heksu (9.6)", "after attacking a lone HQ the units only occupy its hex (9.6)")
		}
		for _, st := range a.Further {
			u := s.unit(st.Unit)
			i := b.Index(st.Hex)
			if u == nil || u.Type != Cavalry || !slices.Contains(a.Units, st.Unit) || i < 0 || b.DirTo(b.Index(vacated), i) < 0 || !s.passable(i) || o.enemyAny[i] {
				return nil, rejectf("cannot_pursue", "%s: kawaleria o jeden heks dalej, nie na teren niedostępny ani wroga (9.5b)", "%s: cavalry one hex further, not into impassable or enemy hexes (9.5b)", st.Hex)
			}
			evs = append(evs, s.moveStack(other(bt.Loser), []string{st.Unit}, st.Hex, st.Facing)...)
		}
		evs = append([]Event{{Type: "pursuit", Hex: vacated, N: len(units), Text: textf("Pościg: %d jedn. na %s (9.5b)", "Pursuit: %d unit(s) into %s (9.5b)", len(units), vacated)}}, evs...)
	}
	s.Battle, s.Pending = nil, nil
	// 9.5c: the units that entered the vacated hex may attack again at
	// once (their side's pass for the phase forfeits it).
	if w := other(bt.Loser); bt.Outcome.Effect == EffectRout && len(a.Units) > 0 && !s.player(w).Passed && s.canAttackAgain(w) {
		vacated := bt.Target
		if bt.Loser == bt.Side {
			vacated = bt.From
		}
		s.setPending(Pending{Kind: "attack_again", Action: "attack", Side: w, Hex: vacated,
			Text: textf("%s może natychmiast zaatakować ponownie jednostkami, które weszły na opuszczony heks (pas: nie) (9.5c)", "%s may attack again at once with the units that entered the vacated hex (pass: no) (9.5c)", sideName(w))})
		return evs, nil
	}
	s.clearAgain()
	s.passTurn()
	return evs, nil
}

// canAttackAgain: some stack of side's units that may attack again under
// 9.5c faces an enemy it may attack (HQ in range, 9.2).
func (s *State) canAttackAgain(side string) bool {
	b := s.cat.Board
	for _, u := range s.Units {
		if u.Status != OnMap || u.Side != side || !u.Again {
			continue
		}
		if t := s.facedHex(side, u.Hex); t >= 0 {
			if _, err := s.prepareBattle(Attack{Side: side, From: u.Hex, Target: b.HexAt(t)}); err == nil {
				return true
			}
		}
	}
	return false
}

func (s *State) clearAgain() {
	for i := range s.Units {
		s.Units[i].Again = false
	}
}

// attackAgain answers 9.5c's "may attack again at once": an attack by a
// stack made only of units that entered the vacated hex. The turn then
// passes to the opponent of the side that attacked.
func (s *State) attackAgain(a Attack) ([]Event, error) {
	stack := s.ownStack(a.Side, a.From)
	for _, u := range stack {
		if !u.Again {
			return nil, rejectf("not_again", "%s nie weszła na opuszczony heks: nie atakuje ponownie (9.5c)", "%s did not enter the vacated hex: it may not attack again (9.5c)", u.Name)
		}
	}
	for i := range s.Units {
		if u := &s.Units[i]; u.Hex != a.From || u.Side != a.Side {
			u.Again = false
		}
	}
	s.Pending, s.Turn = nil, a.Side
	return s.attack(a)
}

// declineAgain: no attack at once under 9.5c; the turn goes on.
func (s *State) declineAgain() []Event {
	side := s.Pending.Side
	s.Pending = nil
	s.clearAgain()
	s.passTurn()
	return []Event{{Type: "no_attack_again", Side: side, Text: textf("%s nie atakuje ponownie (9.5c)", "%s does not attack again (9.5c)", sideName(side))}}
}
