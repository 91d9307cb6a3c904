package bitwa

import (
	"github.com/sztab/sztab/rules"
)

// The effect language's interpreter. An effect acts on the front of its
// card (the front a unit card's units go to, the field a commander or an
// order lies on): "Ruch … dotyczy Oddziałów z dowolnego Frontu. Pozostałe
// efekty … dotyczą tylko Frontu, na którym została zagrana karta."

// units counts army's units on front f, line 1, 2 or 0 (both).
func (s *State) units(army, f string, line int) int {
	l := s.Army(army).Fronts[frontIndex(f)]
	switch line {
	case 1:
		return l.First
	case 2:
		return l.Second
	}
	return l.First + l.Second
}

// condOK checks an effect's condition for army; cardFront is where the
// card lies, f the front the effect looks at.
func (s *State) condOK(army, cardFront, f string, c *Cond) bool {
	if c == nil {
		return true
	}
	if c.On != "" {
		ok := false
		for _, x := range FrontSet(c.On) {
			ok = ok || x == cardFront
		}
		if !ok {
			return false
		}
	}
	mine, theirs := s.units(army, f, 0), s.units(Enemy(army), f, 0)
	switch c.Units {
	case "fewer":
		if mine >= theirs {
			return false
		}
	case "more":
		if mine <= theirs {
			return false
		}
	}
	if c.Min > 0 && s.units(army, f, c.Line) < c.Min {
		return false
	}
	return true
}

// times is how many times an effect's N applies (Per), 1 without Per.
func (s *State) times(army, f string, e Effect) int {
	if e.Per == nil {
		return 1
	}
	return s.units(army, f, e.Per.Line) / e.Per.Each
}

// effectFront is the front an effect acts on: its own front when it names
// one front, else the card's.
func effectFront(e Effect, cardFront string) string {
	if fs := FrontSet(e.Front); e.Front != "" && e.Front != "this" && len(fs) == 1 {
		return fs[0]
	}
	return cardFront
}

func (s *State) effect(st Work) {
	e := *st.Effect
	army, f := st.Army, effectFront(e, st.Front)
	fi := frontIndex(f)
	ar := s.Army(army)
	card := s.cardName(st.Card)
	if e.When == WhenBattle {
		return // read at the start of the battle
	}
	if e.Do == DoStrength {
		// Counted in the battle; with strength_when "play" the condition is
		// checked now and the strength fixed.
		if s.Options.StrengthWhen == "play" && s.condOK(army, st.Front, f, e.If) {
			n := e.N * s.times(army, f, e)
			if st.Commander {
				if c := ar.Commanders[fi]; c != nil {
					c.PlayStrength += n
				}
			} else {
				ar.OrderStrength[fi] += n
			}
		}
		return
	}
	if !s.condOK(army, st.Front, f, e.If) {
		s.emit("condition_failed", tr("%s: warunek niespełniony, bez efektu: %s", "%s: condition not met, no effect: %s", card, effectName(e.Do)), Event{Card: st.Card, Front: f})
		return
	}
	n := e.N * s.times(army, f, e)
	switch e.Do {
	case DoMove:
		if n < 1 {
			s.emit("no_effect", tr("%s: nic do poruszenia", "%s: nothing to move", card), Event{Card: st.Card})
			return
		}
		mf := ""
		if e.Front == "this" {
			mf = st.Front
		} else if e.Front != "" {
			mf = e.Front
		}
		if len(s.singleMoves(army, e.FromLine, e.ToLine, mf)) == 0 {
			s.emit("no_effect", tr("%s: żaden ruch nie jest możliwy", "%s: no move is possible", card), Event{Card: st.Card})
			return
		}
		s.pend(Pending{Kind: DecideMove, Seat: s.decider(army), Army: army, Card: st.Card, Front: st.Front, N: n, FromLine: e.FromLine, ToLine: e.ToLine, MoveFront: mf,
			Text: tr("%s: porusz maksymalnie %d Oddz.", "%s: move up to %d unit(s)", card, n)})
	case DoAdd:
		added := 0
		for i := 0; i < n && ar.Reserve > 0; i++ {
			if e.Line == 1 {
				if s.blocked(army, BlockLine1, f) {
					break
				}
				ar.Fronts[fi].First++
			} else {
				if ar.Fronts[fi].Second >= s.Limit(army, f) {
					break // "nadwyżkę Oddziałów pozostawia w Rezerwie"
				}
				ar.Fronts[fi].Second++
			}
			ar.Reserve--
			added++
		}
		s.emit("added", tr("%s: %d Oddz. na %d. linię (%s)", "%s: %d unit(s) to line %d (%s)", card, added, e.Line, s.frontName(f)), Event{Army: army, Card: st.Card, Front: f, N: added})
	case DoAdvanceAll:
		if s.blocked(army, BlockLine1, f) {
			s.emit("no_effect", tr("%s: 1. linia zablokowana", "%s: the 1st line is blocked", card), Event{Card: st.Card, Front: f})
			return
		}
		m := ar.Fronts[fi].Second
		ar.Fronts[fi].First += m
		ar.Fronts[fi].Second = 0
		s.emit("advanced", tr("%s: %d Oddz. z 2. na 1. linię (%s)", "%s: %d unit(s) from the 2nd to the 1st line (%s)", card, m, s.frontName(f)), Event{Army: army, Card: st.Card, Front: f, N: m})
	case DoRemove:
		if n < 1 {
			s.emit("no_effect", tr("%s: nic do usunięcia", "%s: nothing to remove", card), Event{Card: st.Card})
			return
		}
		s.push(Work{Op: "remove_n", Army: army, Front: f, Card: st.Card, N: n, Effect: &Effect{Do: DoRemove, Line: e.Line}})
	case DoBattle:
		if s.Fought[fi] {
			s.emit("no_effect", tr("%s: na tym Froncie już stoczono Bitwę w tej rundzie", "%s: this front has already fought this round", card), Event{Card: st.Card, Front: f})
			return
		}
		b := Work{Op: "battle", Army: army, Front: f, Card: st.Card, Immediate: true, Commander: st.Commander}
		if e.Optional {
			s.pend(Pending{Kind: DecideConfirm, Seat: s.decider(army), Army: army, Card: st.Card, Front: f, Step: &b,
				Text: tr("%s: rozpocząć Bitwę teraz (%s)?", "%s: start the battle now (%s)?", card, s.frontName(f))})
			return
		}
		s.push(b)
	case DoAgain:
		s.Again = true
	case DoBlock:
		s.Blockades = append(s.Blockades, Marker{Marker: st.Card, Army: Enemy(army), Place: e.Target, Front: f})
		s.emit("card_block", tr("%s blokuje przeciwnikowi %s (%s) do końca rundy", "%s blocks the enemy's %s (%s) to the end of the round", card, placeName(e.Target), s.frontName(f)), Event{Card: st.Card, Front: f})
	}
}

// removeN removes N enemy units from a front, asking which line when
// both hold units and the card leaves it open.
func (s *State) removeN(st Work) {
	enemy := Enemy(st.Army)
	line := st.Effect.Line
	for i := 0; i < st.N; i++ {
		first, second := s.units(enemy, st.Front, 1), s.units(enemy, st.Front, 2)
		if line == 1 && first == 0 || line == 2 && second == 0 || first+second == 0 {
			s.emit("no_effect", tr("%s: przeciwnik nie ma tu Oddziałów do usunięcia", "%s: no enemy unit to remove here", s.cardName(st.Card)), Event{Card: st.Card, Front: st.Front})
			return
		}
		l := line
		if l == 0 && first > 0 && second > 0 {
			s.pend(Pending{Kind: DecideRemove, Seat: s.decider(st.Army), Army: st.Army, Card: st.Card, Front: st.Front, N: st.N - i,
				Text: tr("%s: z której linii usunąć Oddział przeciwnika (%s)?", "%s: from which line to remove an enemy unit (%s)?", s.cardName(st.Card), s.frontName(st.Front))})
			return
		}
		if l == 0 {
			l = 1
			if first == 0 {
				l = 2
			}
		}
		s.removeUnit(enemy, st.Front, l)
	}
}

func (s *State) removeUnit(army, f string, line int) {
	ar := s.Army(army)
	l := &ar.Fronts[frontIndex(f)]
	if line == 1 {
		l.First--
	} else {
		l.Second--
	}
	if s.Options.Removed == "out" {
		ar.Removed++
	} else {
		ar.Reserve++
	}
	s.emit("removed", tr("usunięto Oddział %s z %d. linii (%s)", "a %s unit removed from line %d (%s)", s.armyName(army), line, s.frontName(f)), Event{Army: army, Front: f, N: 1})
}

// pos is a board position: front and line.
type pos struct {
	front string
	line  int
}

func parsePos(p string) (pos, error) {
	if len(p) != 2 || frontIndex(p[:1]) < 0 || (p[1] != '1' && p[1] != '2') {
		return pos{}, rules.Reject("bad_position", "nieznane pole %q (np. N1, C2)", "unknown position %q (e.g. N1, C2)", p)
	}
	return pos{p[:1], int(p[1] - '0')}, nil
}

func (s *State) at(army string, p pos) *int {
	l := &s.Army(army).Fronts[frontIndex(p.front)]
	if p.line == 1 {
		return &l.First
	}
	return &l.Second
}

// applyMoves moves army's units: at most max in all; fromLine and toLine
// (0 = any) and front ("" = any) restrict them. Blockades hold: no unit
// enters a blocked 1st line, none crosses between fronts under a 2nd-line
// blockade. Every 2nd line must be within its limit afterwards.
func (s *State) applyMoves(army string, moves []UnitMove, max, fromLine, toLine int, front string) error {
	total := 0
	for _, m := range moves {
		from, err := parsePos(m.From)
		if err != nil {
			return err
		}
		to, err := parsePos(m.To)
		if err != nil {
			return err
		}
		if m.N < 1 || m.N > 21 {
			return rules.Reject("out_of_range", "liczba Oddziałów %d poza 1–21", "unit count %d out of range 1–21", m.N)
		}
		total += m.N
		if total > max {
			if err := s.waiver.Breach("too_many", "można poruszyć najwyżej %d Oddz.", "at most %d unit(s) may move", max); err != nil {
				return err
			}
		}
		switch {
		case from == to:
			return rules.Reject("same_position", "ruch z %s na to samo pole", "a move from %s to itself", m.From)
		case fromLine != 0 && from.line != fromLine, toLine != 0 && to.line != toLine:
			return rules.Reject("bad_line", "ta karta porusza z %d. na %d. linię", "this card moves from line %d to line %d", fromLine, toLine)
		case front != "" && (!inSet(front, from.front) || !inSet(front, to.front)):
			return rules.Reject("bad_front", "ta karta porusza tylko na Froncie %s", "this card moves only on the %s front", front)
		}
		if from.front != to.front {
			if s.blocked(army, BlockLine2, "") {
				if err := s.waiver.Breach("blocked_line2", "Blokada 2LF: nie można przenosić Oddziałów między Frontami", "a blockade on the 2nd line: no moves between fronts"); err != nil {
					return err
				}
			}
			if s.Options.AdjacentMoves && abs(frontIndex(from.front)-frontIndex(to.front)) > 1 {
				if err := s.waiver.Breach("not_adjacent", "%[1]s i %[2]s nie sąsiadują", "the %[3]s and the %[4]s are not neighbours", s.frontName(from.front).PL, s.frontName(to.front).PL, s.frontName(from.front).EN, s.frontName(to.front).EN); err != nil {
					return err
				}
			}
		}
		if to.line == 1 && s.blocked(army, BlockLine1, to.front) {
			if err := s.waiver.Breach("blocked_line1", "1. linia Frontu %s jest zablokowana", "the 1st line of the %s front is blocked", to.front); err != nil {
				return err
			}
		}
		src := s.at(army, from)
		if *src < m.N {
			return rules.Reject("no_units", "na %s jest %d Oddz., nie %d", "%s holds %d unit(s), not %d", m.From, *src, m.N)
		}
		*src -= m.N
		*s.at(army, to) += m.N
	}
	for _, f := range Fronts {
		if n, lim := s.units(army, f, 2), s.Limit(army, f); n > lim {
			if err := s.waiver.Breach("over_limit", "%[1]s, 2. linia: %[3]d Oddz., limit %[4]d", "%[2]s, 2nd line: %[3]d units, limit %[4]d", s.frontName(f).PL, s.frontName(f).EN, n, lim); err != nil {
				return err
			}
			// The referee lets the rest of the answer stand and the breach
			// is recorded, but the surplus goes back at once: "po odkryciu
			// tego faktu, musi natychmiast odłożyć nadwyżkowe Oddziały na
			// pole Rezerwy" (AMBIGUITIES.md).
			s.applyLimit(army, f)
		}
	}
	return nil
}

func inSet(set, f string) bool {
	for _, x := range FrontSet(set) {
		if x == f {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// singleMoves lists every legal move of one unit for army.
func (s *State) singleMoves(army string, fromLine, toLine int, front string) []UnitMove {
	// The probes are the rules' own moves: a referee's waiver for the
	// action being applied neither widens them nor is noted by them.
	w := s.waiver
	s.waiver = nil
	defer func() { s.waiver = w }()
	var out []UnitMove
	for _, ff := range Fronts {
		for _, fl := range []int{1, 2} {
			for _, tf := range Fronts {
				for _, tl := range []int{1, 2} {
					m := UnitMove{From: ff + itoa(fl), To: tf + itoa(tl), N: 1}
					saved := s.Army(army).Fronts
					if s.applyMoves(army, []UnitMove{m}, 1, fromLine, toLine, front) == nil {
						out = append(out, m)
					}
					s.Army(army).Fronts = saved
				}
			}
		}
	}
	return out
}
