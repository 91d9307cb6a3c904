package bitwa

// roundStart opens a round: the round track moves, stage 1 asks for the
// bonus-front die; stage 2 (not in round 1) and stage 3 follow.
func (s *State) roundStart() {
	s.Phase = PhaseRound
	s.Round++
	s.Stage = StageBonus
	for i := range s.Players {
		s.Players[i].Passed = false
	}
	s.emit("round", tr("runda %d", "round %d", s.Round), Event{N: s.Round})
	s.pend(Pending{Kind: DecideRollBonus, Seat: s.turnOrder()[0],
		Text: tr("rzut kością: Front Dodatkowej Punktacji (1 N, 2 C, 3 S)", "roll for the bonus front (1 N, 2 C, 3 S)")})
	if s.Round == 1 {
		// "Cały etap POJEDYNEK O KARTY ZASOBÓW jest pomijany w 1. rundzie."
		s.push(Work{Op: "military_start"})
		return
	}
	s.push(Work{Op: "funds"}, Work{Op: "supply"}, Work{Op: "support"}, Work{Op: "fights_discard"}, Work{Op: "military_start"})
}

// fightsDiscard ends stage 2: the cards fought with last round, which lay
// beside the resource cards through the round's end, go to the discard
// piles now. Rulebook, 3. DZIAŁANIA MILITARNE, "C. ODRZUCENIE DOWOLNEJ
// KARTY I WALKA O KARTY ZASOBÓW": "Gracze rozpatrują efekty zdobytych kart
// Zasobów w kolejnej rundzie, w etapie POJEDYNEK O KARTY ZASOBÓW. Po
// zastosowaniu tych efektów … karty Wojska należy odłożyć na stos kart
// odrzuconych." Cards fought with in the game's last round stay there.
func (s *State) fightsDiscard() {
	n := 0
	for i := range s.Armies {
		ar := &s.Armies[i]
		for _, r := range ResourceIDs {
			ar.Discard = append(ar.Discard, ar.Fights[r]...)
			n += len(ar.Fights[r])
		}
		ar.Fights = map[string][]string{}
	}
	if n > 0 {
		s.emit("fights_discarded", tr("karty walki o Zasoby (%d) na stosy kart odrzuconych", "the cards fought with (%d) go to the discard piles", n), Event{N: n})
	}
}

// funds resolves the funds card (Karta Funduszy): the initiative and the
// hand limits of the round.
func (s *State) funds() {
	s.Stage = StageResources
	w := s.Won[ResFunds]
	delete(s.Won, ResFunds)
	if w == "" {
		// A tie (or nobody fought): "Jeśli jest remis, nic się nie dzieje."
		// The initiative stays; option funds_tie decides the hands.
		s.emit("funds_tie", tr("Fundusze: nikt nie zdobył karty; inicjatywa bez zmian", "Funds: nobody won the card; the initiative stays"), Event{})
		if s.Options.FundsTie == "base" {
			s.baseHands()
		}
		return
	}
	if len(s.Players) == 2 {
		// "obraca ją stroną [5 kart oraz inicjatywa] do siebie"
		s.fundsDraw(w, 0)
		return
	}
	s.pend(Pending{Kind: DecideTurnCard, Seat: s.decider(w), Army: w, Resource: ResFunds,
		Text: tr("Fundusze: którą stroną obrócić kartę do siebie (0: 3+3 kart i znaczniki Inicjatywy, 1: 4+3 karty)", "Funds: which face to turn to your army (0: 3+3 cards and the initiative tokens, 1: 4+3 cards)")})
}

// fundsDraw applies the funds card with face turned to army w: the
// initiative, then the hand limits, the winner's army drawing first.
func (s *State) fundsDraw(w string, face int) {
	faces := s.faces(ResFunds)
	mine, theirs := faces[face], faces[1-face]
	s.emit("funds", tr("Fundusze zdobywa %s", "Funds won by %s", s.armyName(w)), Event{Army: w, N: face})
	if len(s.Players) == 2 && mine.Initiative {
		s.Initiative = s.Seats(w)[0]
		s.emit("initiative", tr("inicjatywa: %s", "initiative: %s", s.name(s.Initiative)), Event{Seat: s.Initiative})
	}
	for _, side := range []struct {
		army string
		face Face
	}{{w, mine}, {Enemy(w), theirs}} {
		seats := s.Seats(side.army)
		h := side.face.Hands
		if len(seats) == 1 {
			// "Jeżeli gracz jest sam, zawsze dobiera do sumy kart."
			sum := 0
			for _, x := range h {
				sum += x
			}
			p := s.Player(seats[0])
			p.Limit = sum
			s.draw(p)
			continue
		}
		// Two allies: the first (higher) limit goes to the army's decider.
		dec := s.decider(side.army)
		order := []int{dec}
		for _, x := range seats {
			if x != dec {
				order = append(order, x)
			}
		}
		for i, seat := range order {
			p := s.Player(seat)
			p.Limit = h[min(i, len(h)-1)]
			s.draw(p)
		}
	}
}

// supply resolves the supply card (Karta Zaopatrzenia).
func (s *State) supply() {
	w := s.Won[ResSupply]
	if w == "" {
		return
	}
	// The card is spent this round ("zużyte karty … wracają"): won again
	// only by a new fight.
	delete(s.Won, ResSupply)
	s.pend(Pending{Kind: DecideTurnCard, Seat: s.decider(w), Army: w, Resource: ResSupply,
		Text: tr("Zaopatrzenie: którą stroną obrócić kartę do siebie", "Supply: which face to turn to your army")})
}

// nextTurn picks the next player to act; first: the stage's first action.
// A player without cards passes. It reports whether anyone acts.
func (s *State) nextTurn(first bool) bool {
	order := s.turnOrder()
	if !first && s.Again {
		s.Again = false
		if p := s.Player(s.Active); p != nil && !p.Passed && len(p.Hand) > 0 {
			s.emit("again", tr("%s wykonuje ponownie akcję", "%s takes another action", s.name(p.Seat)), Event{Seat: p.Seat})
			return true
		}
	}
	s.Again = false
	start := -1
	if !first {
		start = indexOf(order, s.Active)
	}
	for i := 1; i <= len(order); i++ {
		seat := order[(start+i+len(order))%len(order)]
		p := s.Player(seat)
		if p.Passed {
			continue
		}
		if len(p.Hand) == 0 {
			// "Gracz może wykonać tyle akcji, ile ma kart na ręku."
			p.Passed = true
			s.emit("no_cards", tr("%s nie ma kart: koniec akcji w tej rundzie", "%s has no cards: no more actions this round", s.name(seat)), Event{Seat: seat})
			continue
		}
		s.Active = seat
		return true
	}
	s.Active = 0
	return false
}

func indexOf(xs []int, x int) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// battles opens stage 4: a battle on every front, north to south, with at
// least one unit or commander of either army, unless fought already.
func (s *State) battles() {
	s.Stage = StageBattle
	s.emit("stage", tr("runda %d: Bitwa", "round %d: battle", s.Round), Event{N: s.Round})
	var steps []Work
	for i, f := range Fronts {
		if s.Fought[i] {
			continue
		}
		any := false
		for _, a := range Armies {
			ar := s.Army(a)
			if ar.Fronts[i].First+ar.Fronts[i].Second > 0 || ar.Commanders[i] != nil {
				any = true
			}
		}
		if any {
			steps = append(steps, Work{Op: "battle", Front: f})
		}
	}
	steps = append(steps, Work{Op: "score"}, Work{Op: "end_round"})
	s.push(steps...)
}

// battle starts the battle on a front: the battle-stage moves of the
// commander and the order come first ("A. Weryfikacja rozkazów"), then the
// strength is compared.
func (s *State) battle(st Work) {
	fi := frontIndex(st.Front)
	if s.Fought[fi] {
		return
	}
	if st.Commander {
		if c := s.Army(st.Army).Commanders[fi]; c != nil && c.Card == st.Card {
			c.StartedBattle = true
		}
	}
	var steps []Work
	for _, army := range s.armyOrder() {
		for _, src := range s.battleSources(army, st.Front) {
			for _, e := range src.effects {
				if e.Do == DoAdvanceAll && e.When == WhenBattle {
					e := e
					steps = append(steps, Work{Op: "advance", Army: army, Front: st.Front, Card: src.card, Effect: &e})
				}
			}
		}
	}
	steps = append(steps, Work{Op: "resolve", Front: st.Front, Immediate: st.Immediate})
	s.push(steps...)
}

type source struct {
	card      string
	effects   []Effect
	commander bool
}

// battleSources are the cards whose effects count in army's battle on f:
// the commander if played, swapped in or activated this round (and not
// under a commander-card blockade), and the order on the front.
func (s *State) battleSources(army, f string) []source {
	ar := s.Army(army)
	fi := frontIndex(f)
	var out []source
	if c := ar.Commanders[fi]; c != nil && c.Round == s.Round && c.Choice >= 0 && !s.blocked(army, BlockCommanderCard, f) {
		opts := s.Cards[c.Card].Options()
		if c.Choice < len(opts) {
			out = append(out, source{card: c.Card, effects: opts[c.Choice], commander: true})
		}
	}
	if o := ar.Orders[fi]; o != "" {
		out = append(out, source{card: o, effects: s.Cards[o].Effects})
	}
	return out
}

func (s *State) advance(st Work) {
	e := st.Effect
	if !s.condOK(st.Army, st.Front, st.Front, e.If) {
		return
	}
	do := Work{Op: "effect", Army: st.Army, Front: st.Front, Card: st.Card, Effect: &Effect{Do: DoAdvanceAll}}
	if e.Optional {
		s.pend(Pending{Kind: DecideConfirm, Seat: s.decider(st.Army), Army: st.Army, Card: st.Card, Front: st.Front, Step: &do,
			Text: tr("%s: poruszyć wszystkie Oddziały z 2. na 1. linię (%s)?", "%s: move all units from the 2nd to the 1st line (%s)?", s.cardName(st.Card), s.frontName(st.Front))})
		return
	}
	s.push(do)
}

// Strength is army's Siła Armii on front f: 2 per 1st-line unit, 1 per
// 2nd-line unit, the commander's and the order's strength effects.
func (s *State) Strength(army, f string) int {
	fi := frontIndex(f)
	ar := s.Army(army)
	n := 2*ar.Fronts[fi].First + ar.Fronts[fi].Second + ar.OrderStrength[fi]
	for _, src := range s.battleSources(army, f) {
		for _, e := range src.effects {
			if e.Do != DoStrength {
				continue
			}
			if e.When != WhenBattle && s.Options.StrengthWhen == "play" {
				continue // fixed when played
			}
			if s.condOK(army, f, f, e.If) {
				n += e.N * s.times(army, f, e)
			}
		}
		if src.commander {
			n += ar.Commanders[fi].PlayStrength
		}
	}
	return n
}

func (s *State) resolve(st Work) {
	fi := frontIndex(st.Front)
	wp, acz := s.Strength(WP, st.Front), s.Strength(ACz, st.Front)
	s.Fought[fi] = true
	win := ""
	switch {
	case wp > acz:
		win = WP
	case acz > wp:
		win = ACz
	}
	s.Advantage[fi] = win
	fn := s.frontName(st.Front)
	if win == "" {
		s.emit("battle", tr("Bitwa, %s: WP %d – ACz %d, remis", "battle, %s: WP %d – ACz %d, a tie", fn, wp, acz), Event{Front: st.Front})
	} else {
		s.emit("battle", tr("Bitwa, %s: WP %d – ACz %d, wygrywa %s", "battle, %s: WP %d – ACz %d, won by %s", fn, wp, acz, s.armyName(win)), Event{Front: st.Front, Army: win})
	}
	if st.Immediate {
		// "Straty po takiej bitwie również należy wprowadzić natychmiast."
		for _, a := range Armies {
			ar := s.Army(a)
			ar.Reserve += ar.Fronts[fi].First
			ar.Fronts[fi].First = 0
		}
		s.emit("losses", tr("straty: 1. linie (%s) wracają do Rezerwy", "losses: the 1st lines (%s) go back to the Reserve", fn), Event{Front: st.Front})
	}
}

// score moves the VP markers ("C. PRZESUNIĘCIE ZNACZNIKÓW PRZEWAGI").
func (s *State) score() {
	wins := map[string]int{}
	for _, a := range s.Advantage {
		if a != "" {
			wins[a]++
		}
	}
	for _, a := range Armies {
		if wins[a] > wins[Enemy(a)] {
			vp := 1
			if wins[a] == 3 {
				vp = s.Options.SweepVP
			}
			s.Army(a).VP += vp
			s.emit("vp", tr("%s: więcej wygranych Bitew (%d:%d), +%d PZ", "%s: more battles won (%d:%d), +%d VP", s.armyName(a), wins[a], wins[Enemy(a)], vp), Event{Army: a, N: vp})
		}
	}
	if s.Bonus != "" {
		if w := s.Advantage[frontIndex(s.Bonus)]; w != "" {
			s.Army(w).VP++
			s.emit("vp_bonus", tr("%s: wygrana na Froncie Dodatkowej Punktacji, +1 PZ", "%s: won the bonus front, +1 VP", s.armyName(w)), Event{Army: w, Front: s.Bonus, N: 1})
		}
	}
}

// endRound: "D. STRATY I ZAKOŃCZENIE RUNDY", then the victory check.
func (s *State) endRound() {
	for i := range s.Armies {
		ar := &s.Armies[i]
		for fi := range ar.Fronts {
			ar.Reserve += ar.Fronts[fi].First
			ar.Fronts[fi].First = 0
			if o := ar.Orders[fi]; o != "" {
				ar.Discard = append(ar.Discard, o)
				ar.Orders[fi] = ""
			}
			ar.OrderStrength[fi] = 0
			if c := ar.Commanders[fi]; c != nil {
				c.Choice, c.PlayStrength = -1, 0
				if c.StartedBattle {
					ar.Discard = append(ar.Discard, c.Card)
					ar.Commanders[fi] = nil
					s.emit("commander_discarded", tr("%s wywołał Bitwę i odchodzi", "%s started a battle and is discarded", s.cardName(c.Card)), Event{Army: ar.ID, Card: c.Card, Front: Fronts[fi]})
					s.applyLimit(ar.ID, Fronts[fi])
				}
			}
		}
	}
	// Resource fights: the army with more cards at a resource wins it. The
	// cards stay beside the resource cards until the next round's stage 2
	// has been resolved (fightsDiscard).
	for _, r := range ResourceIDs {
		w, e := len(s.Armies[0].Fights[r]), len(s.Armies[1].Fights[r])
		switch {
		case w > e:
			s.Won[r] = WP
		case e > w:
			s.Won[r] = ACz
		}
		if s.Won[r] != "" {
			s.emit("resource_won", tr("%s zdobywa kartę zasobu %s (%d:%d)", "%s wins the %s card (%d:%d)", s.armyName(s.Won[r]), s.resourceName(r), w, e), Event{Army: s.Won[r], Card: r})
		}
	}
	var keep []Marker
	for _, m := range s.Blockades {
		if m.Marker == s.marker(WP) || m.Marker == s.marker(ACz) {
			keep = append(keep, m)
		}
	}
	if keep == nil {
		keep = []Marker{}
	}
	s.Blockades = keep
	s.Advantage, s.Fought = [3]string{}, [3]bool{}
	if s.Bonus != "" {
		s.LastBonus = s.Bonus
	}
	s.Bonus = ""
	s.Again = false
	s.Active = 0
	s.emit("round_end", tr("koniec rundy %d: PZ WP %d, ACz %d", "end of round %d: VP WP %d, ACz %d", s.Round, s.Army(WP).VP, s.Army(ACz).VP), Event{N: s.Round})
	s.checkEnd()
	if s.Phase != PhaseOver {
		s.push(Work{Op: "round_start"})
	}
}

// checkEnd: "ZAKOŃCZENIE GRY I WYŁONIENIE ZWYCIĘZCY".
func (s *State) checkEnd() {
	wp, acz := s.Army(WP).VP, s.Army(ACz).VP
	reason := ""
	switch {
	case wp >= s.Comp.VPToWin || acz >= s.Comp.VPToWin:
		reason = "vp"
	case s.Round >= s.Comp.Rounds:
		reason = "rounds"
	case s.DeckOut && (len(s.Players) == 2 || s.Options.DeckOutAll):
		reason = "deck"
	}
	if reason == "" {
		return
	}
	r := &Result{Reason: reason, VP: [2]int{wp, acz}, Second: [2]int{s.SecondLines(WP), s.SecondLines(ACz)}}
	// Both armies at 7 VP in one round: the one with more VP wins; equal VP
	// go to the tie-break like any other tie.
	switch {
	case wp > acz:
		r.Winner = WP
	case acz > wp:
		r.Winner = ACz
	case r.Second[0] > r.Second[1]:
		r.Winner = WP
	case r.Second[1] > r.Second[0]:
		r.Winner = ACz
	}
	if r.Winner == "" {
		r.Text = tr("remis %d:%d PZ i %d:%d Oddziałów na 2LF: Bitwa Warszawska nierozstrzygnięta", "a draw, %d:%d VP and %d:%d units on the 2nd lines: nobody wins", wp, acz, r.Second[0], r.Second[1])
	} else {
		n := s.armyName(r.Winner)
		r.Text = tr("wygrywa %s (PZ %d:%d, 2LF %d:%d)", "%s wins (VP %d:%d, 2nd lines %d:%d)", n, wp, acz, r.Second[0], r.Second[1])
	}
	s.Result = r
	s.Phase = PhaseOver
	s.Pending = nil
	s.Queue = []Work{}
	s.emit("game_over", r.Text, Event{Army: r.Winner})
}
