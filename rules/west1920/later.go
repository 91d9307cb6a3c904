package west1920

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/sztab/sztab/rules"
)

// prepareBattle checks 9.2 and computes both modified combat factors (9.3).
func (s *State) prepareBattle(a Attack) (*Battle, error) {
	b := s.cat.Board
	from, tgt := b.Index(a.From), b.Index(a.Target)
	if from < 0 || tgt < 0 || b.DirTo(from, tgt) < 0 {
		return nil, rejectf("not_adjacent", "%s i %s nie sąsiadują (9.2)", "%s and %s are not neighbours (9.2)", a.From, a.Target)
	}
	att := s.ownStack(a.Side, a.From)
	var ids []string
	inf, cav, art := false, false, false
	for _, u := range att {
		inf, cav = inf || u.Type == Infantry, cav || u.Type == Cavalry
	}
	if !inf {
		// 9.2: artillery attacks only together with infantry; in a stack
		// without infantry it stays out of the combat (no CF, no losses,
		// no 9.3 fourth-point exception, not counted by 9.4).
		att = slices.DeleteFunc(att, func(u *Unit) bool { return u.Type == Artillery })
	}
	for _, u := range att {
		if u.Attacked && !u.Again {
			return nil, rejectf("attacked_once", "%s już atakowała w tym etapie (9.2)", "%s has already attacked this stage (9.2)", u.Name)
		}
		ids = append(ids, u.ID)
		// Card 10: zeroed artillery gives "no benefit when attacking
		// cities/fortifications" (9.3 fourth point).
		art = art || (u.Type == Artillery && s.effect("artillery_zero", u.Side) == nil)
	}
	if !inf && !cav {
		return nil, rejectf("no_attacker", "atakujący stos potrzebuje kawalerii lub piechoty (9.2)", "the attacking stack needs cavalry or infantry (9.2)")
	}
	if s.facedHex(a.Side, a.From) != tgt {
		return nil, rejectf("not_facing", "stos w %s nie jest zwrócony w stronę %s (9.2)", "the stack in %s does not face %s (9.2)", a.From, a.Target)
	}
	if !s.hqInRange(a.Side, from, att) {
		return nil, rejectf("no_hq", "dowództwo musi być na stosie atakującym lub obok (9.2)", "an HQ must be in or next to the attacking hex (9.2)")
	}
	defs := s.ownStack(other(a.Side), a.Target)
	hqThere := false
	for _, q := range s.HQs {
		hqThere = hqThere || (q.Status == OnMap && q.Side != a.Side && q.Hex == a.Target)
	}
	if len(defs) == 0 && !hqThere {
		return nil, rejectf("no_defender", "w %s nie ma wroga", "no enemy in %s", a.Target)
	}
	bt := &Battle{Side: a.Side, From: a.From, Target: a.Target, Support: a.Support, Attackers: ids, Bonuses: a.Bonuses}
	for _, u := range defs {
		bt.Defenders = append(bt.Defenders, u.ID)
	}
	if len(defs) == 0 {
		return bt, nil
	}
	// Base CF (1.2, 9.3 fourth point: cities/fortifications use the front
	// unless the attacker has artillery).
	// The stack's facing is its cavalry's and infantry's (artillery has
	// none, 1.2).
	defFront := (b.city[tgt] >= 0 && !art) || s.facedHex(other(a.Side), a.Target) == from
	bt.AttCF = s.baseCF(att, true)
	bt.DefCF = s.baseCF(defs, defFront)
	// +1 per extra friendly stack next to the defender.
	for d := N; d <= NW; d++ {
		j := b.Neighbour(tgt, d)
		if j < 0 || j == from {
			continue
		}
		h := b.HexAt(j)
		if len(s.ownStack(a.Side, h)) > 0 {
			bt.AttCF++
		}
		if len(s.ownStack(other(a.Side), h)) > 0 {
			bt.DefCF++
		}
	}
	// +2 difficult terrain and/or a river between (once).
	if river, _ := b.River(from, b.DirTo(from, tgt)); b.difficult[tgt] || river {
		bt.DefCF += 2
	}
	bt.AttCF += s.armsBonus(att)
	bt.DefCF += s.armsBonus(defs)
	for _, u := range defs {
		if u.Fought && !u.Routed {
			bt.DefCF-- // 9.3 fifth point
		}
	}
	bt.AttCF += s.cardCF(a.Side, att)
	bt.DefCF += s.cardCF(other(a.Side), defs)
	if a.Support != "" {
		si := b.Index(a.Support)
		sup := s.ownStack(a.Side, a.Support)
		if si < 0 || si == from || b.DirTo(si, tgt) < 0 || len(sup) == 0 || s.facedHex(a.Side, a.Support) != tgt {
			return nil, rejectf("bad_support", "stos wspierający musi sąsiadować z obrońcą i być zwrócony w jego stronę (9.2)", "the supporting stack must be next to and facing the defender (9.2)")
		}
		if b.unbridged(si, b.DirTo(si, tgt)) {
			return nil, rejectf("bad_support", "stos wspierający oddziela rzeka bez mostu (9.2)", "an unbridged river separates the supporting stack (9.2)")
		}
		if !s.hqInRange(a.Side, si, sup) {
			return nil, rejectf("no_hq", "stos wspierający poza zasięgiem dowództwa (9.2)", "the supporting stack is out of its HQ's range (9.2)")
		}
		for _, u := range sup {
			// 9.2: a unit attacks once a stage; supporting counts as an attack.
			if u.Attacked && !u.Again {
				return nil, rejectf("attacked_once", "%s już atakowała w tym etapie (9.2)", "%s has already attacked this stage (9.2)", u.Name)
			}
		}
		supInf := slices.ContainsFunc(sup, func(u *Unit) bool { return u.Type == Infantry })
		if !supInf {
			sup = slices.DeleteFunc(sup, func(u *Unit) bool { return u.Type == Artillery })
		}
		if len(sup) == 0 {
			return nil, rejectf("bad_support", "stos wspierający potrzebuje kawalerii lub piechoty (9.2)", "the supporting stack needs cavalry or infantry (9.2)")
		}
		bt.SupportCF = s.baseCF(sup, true)
		for _, u := range sup {
			bt.Supporters = append(bt.Supporters, u.ID)
		}
	}
	if err := s.addBonuses(bt, a.Side, a.Bonuses); err != nil {
		return nil, err
	}
	return bt, nil
}

// addBonuses applies the combat_bonus cards chooser names for this combat
// (9.3, last point; cards 5, 16, 17, 19, 25–27, 30, 38). Each card's
// chooser is printed on it ("Wybór należy do gracza …"): the attacker names
// its cards with the attack, the defender in the card_bonus decision before
// the combat roll. A card helps or hinders during one combat ("podczas
// jednej walki"): up to its number of stacks in that combat (the attacking
// and supporting stacks, or the defending one), then it is spent. A card
// that needs cavalry (5) helps only a stack with cavalry taking part.
func (s *State) addBonuses(bt *Battle, chooser string, bonuses []Bonus) error {
	per := map[int][]Hex{}
	for _, bo := range bonuses {
		e := s.findBonus(bo.Card)
		if e == nil {
			return rejectf("no_bonus", "karta %d nie daje premii w tym etapie", "card %d gives no bonus this stage", bo.Card)
		}
		if e.Used > 0 {
			return rejectf("bonus_used", "premia karty %d już wykorzystana", "card %d's bonus is used up", bo.Card)
		}
		if who := cmp.Or(e.Effect.Chooser, e.Player); who != chooser {
			return rejectf("bonus_chooser", "o premii karty %d decyduje %s", "%[3]s decides card %[1]d's bonus", bo.Card, sideName(who).PL, sideName(who).EN)
		}
		if slices.Contains(per[bo.Card], bo.Hex) || len(per[bo.Card]) >= max(1, e.Effect.Stacks) {
			return rejectf("bonus_used", "karta %d: najwyżej %d stos(y), każdy raz", "card %d: at most %d stack(s), each once", bo.Card, max(1, e.Effect.Stacks))
		}
		var ids []string
		var cf *int
		switch {
		case bo.Hex == bt.From && e.Effect.Side == bt.Side && e.Effect.Role != "defend":
			ids, cf = bt.Attackers, &bt.AttCF
		case bo.Hex == bt.Support && bt.Support != "" && (bt.Supported || chooser == bt.Side) && e.Effect.Side == bt.Side && e.Effect.Role != "defend":
			// The supporting stack's CF counts only with a 5–6 (9.2).
			ids, cf = bt.Supporters, &bt.SupportCF
			if bt.Supported {
				cf = &bt.AttCF
			}
		case bo.Hex == bt.Target && e.Effect.Side == other(bt.Side) && e.Effect.Role != "attack":
			ids, cf = bt.Defenders, &bt.DefCF
		default:
			return rejectf("bad_bonus", "karta %d nie dotyczy stosu %s", "card %d does not apply to the stack in %s", bo.Card, bo.Hex)
		}
		if e.Effect.Needs != "" && !slices.ContainsFunc(ids, func(id string) bool { return s.unit(id).Type == e.Effect.Needs }) {
			return rejectf("bad_bonus", "karta %d: stos w %s musi mieć jednostkę typu %s", "card %d: the stack in %s needs a unit of type %s", bo.Card, bo.Hex, e.Effect.Needs)
		}
		*cf += e.Effect.N
		per[bo.Card] = append(per[bo.Card], bo.Hex)
	}
	for card := range per {
		e := s.findBonus(card)
		e.Used = max(1, e.Effect.Stacks)
	}
	bt.Bonuses = append(bt.Bonuses, bonuses...)
	return nil
}

// bonusChoice lists the cards (and hexes, CARD@HEX) side may still name
// for the combat in progress (the card_bonus decision before the roll).
func (s *State) bonusChoice(side string) []string {
	bt := s.Battle
	var opts []string
	for _, e := range s.Effects {
		if e.Effect.Do != "combat_bonus" || e.Used > 0 || cmp.Or(e.Effect.Chooser, e.Player) != side {
			continue
		}
		for _, h := range []Hex{bt.From, bt.Target, bt.Support} {
			if h == "" || (h == bt.Support && !bt.Supported) {
				continue
			}
			probe, c := *bt, s.clone()
			probe.Bonuses = nil
			if c.addBonuses(&probe, side, []Bonus{{Card: e.Card, Hex: h}}) == nil {
				opts = append(opts, strconv.Itoa(e.Card)+"@"+string(h))
			}
		}
	}
	return opts
}

func (s *State) findBonus(card int) *CardEffect {
	for i := range s.Effects {
		if s.Effects[i].Card == card && s.Effects[i].Effect.Do == "combat_bonus" {
			return &s.Effects[i]
		}
	}
	return nil
}

func (s *State) hqInRange(side string, at int, units []*Unit) bool {
	b := s.cat.Board
	for i := range s.HQs {
		h := &s.HQs[i]
		if h.Status != OnMap || h.Side != side {
			continue
		}
		hi := b.Index(h.Hex)
		if hi != at && b.DirTo(at, hi) < 0 {
			continue
		}
		ok := true
		for _, u := range units {
			ok = ok && s.commands(h, u, at)
		}
		// 13.4: a Ukrainian HQ never enables a mixed Polish–Ukrainian stack:
		// commands refuses it the Polish units (TestUkrainianHQMixedStack).
		if ok {
			return true
		}
	}
	return false
}

// baseCF sums the stack's factors (1.2; cards 9 and 10).
func (s *State) baseCF(st []*Unit, front bool) int {
	withInf := slices.ContainsFunc(st, func(u *Unit) bool { return u.Type == Infantry })
	n := 0
	for _, u := range st {
		cf := u.Full
		if u.Weak {
			cf = u.WeakCF
		}
		switch {
		case u.Type == Artillery:
			v := cf[0]
			if u.Weak && withInf {
				v = 1
			}
			if s.effect("artillery_zero", u.Side) != nil {
				v = 0
			}
			n += v
		case front:
			v := cf[0]
			if e := s.effect("front_cf", u.Side); e != nil && e.Effect.Type == u.Type {
				v = max(0, v+e.Effect.N)
			}
			n += v
		default:
			n += cf[1]
		}
	}
	return n
}

// armsBonus: +2 infantry with cavalry or artillery, +4 with both (9.3).
func (s *State) armsBonus(st []*Unit) int {
	inf, cav, art := false, false, false
	for _, u := range st {
		inf, cav = inf || u.Type == Infantry, cav || u.Type == Cavalry
		art = art || (u.Type == Artillery && s.effect("artillery_zero", u.Side) == nil)
	}
	switch {
	case inf && cav && art:
		return 4
	case inf && (cav || art):
		return 2
	}
	return 0
}

// cardCF: card 39 (every Polish stack with infantry +1).
func (s *State) cardCF(side string, st []*Unit) int {
	if e := s.effect("cf_if", side); e != nil && slices.ContainsFunc(st, func(u *Unit) bool { return u.Type == e.Effect.Needs }) {
		return e.Effect.N
	}
	return 0
}

// ---- 10.0 replacement ----

func (s *State) enterReplacement() []Event {
	s.startAlternating(PhaseReplacement, "")
	var evs []Event
	// 13.6: free restoration in Smolensk / Warsaw with the enemy next door.
	b := s.cat.Board
	for i := range s.Units {
		u := &s.Units[i]
		if u.Status != OnMap || !u.Weak || u.OneSided {
			continue
		}
		city := "smolensk"
		if u.Side == Polish {
			city = s.cat.Data.Map.Bases.Polish
		}
		c, ok := s.cat.Cities[city]
		if !ok || u.Hex != c.Hex {
			continue
		}
		at := b.Index(u.Hex)
		o := s.occupancy(u.Side)
		for d := N; d <= NW; d++ {
			if j := b.nb[at][d]; j >= 0 && o.enemyCombat[j] {
				u.Weak = false
				evs = append(evs, Event{Type: "restored", Unit: u.ID, Text: textf("%s przywrócona bez kosztu (13.6)", "%s restored free (13.6)", u.Name)})
				break
			}
		}
	}
	return append(evs, ev("phase", "Uzupełnianie (10.0)", "Replacement (10.0)"))
}

func (s *State) replace(a Replace) ([]Event, error) {
	if s.Phase != PhaseReplacement {
		return nil, rejectf("wrong_phase", "uzupełnia się w fazie uzupełniania (10.0)", "replacement is in the replacement phase (10.0)")
	}
	u := s.unit(a.Unit)
	if u == nil || u.Side != a.Side || u.Status != OnMap || !u.Weak {
		return nil, rejectf("not_weakened", "%q nie jest twoją osłabioną jednostką na mapie", "%q is not a weakened unit of yours on the map", a.Unit)
	}
	if u.OneSided {
		return nil, rejectf("one_sided", "%s jest jednostronna: nie można jej uzupełnić (1.2)", "%s is one-sided: it cannot be replaced (1.2)", u.Name)
	}
	if !s.Supplied(u.ID) {
		return nil, rejectf("unsupplied", "%s bez zaopatrzenia (10.0)", "%s is unsupplied (10.0)", u.Name)
	}
	p := s.player(a.Side)
	if p.RP() < 1 {
		return nil, rejectf("no_rp", "brak PZ (10.0)", "no RP left (10.0)")
	}
	p.Spent++
	u.Weak = false
	return []Event{{Type: "replaced", Unit: u.ID, Text: textf("%s uzupełniona za 1 PZ (10.0)", "%s replaced for 1 RP (10.0)", u.Name)}}, nil
}

// ---- 11.x strategic movement ----

func (s *State) strategicMove(a StrategicMove) ([]Event, error) {
	if s.Phase != PhaseStrategic || a.Side != s.Turn {
		return nil, rejectf("not_your_turn", "ruch strategiczny na zmianę (11.1)", "strategic moves are made in turn (11.1)")
	}
	p := s.player(a.Side)
	if p.StratMoves >= p.StratLimit {
		if !s.waiver.Lets("strategic_limit") {
			return nil, rejectf("strategic_limit", "limit ruchu strategicznego: %d (11.2)", "the strategic movement limit is %d (11.2)", p.StratLimit)
		}
	}
	if q := s.hq(a.Unit); q != nil && q.Side == a.Side && q.Status == OnMap {
		return s.strategicHQ(a, q)
	}
	u := s.unit(a.Unit)
	if u == nil || u.Side != a.Side || u.Status != OnMap {
		return nil, rejectf("unknown_unit", "%q nie jest twoją jednostką na mapie", "%q is not a unit of yours on the map", a.Unit)
	}
	if u.Strategic {
		return nil, rejectf("strategic_once", "%s już wykonała ruch strategiczny (11.2)", "%s has already moved strategically (11.2)", u.Name)
	}
	b := s.cat.Board
	if e := s.effect("no_strategic", a.Side); e != nil && (e.Effect.Zone == "" || (e.Effect.Zone == "S") == b.south[b.Index(u.Hex)]) {
		return nil, rejectf("card_forbids", "karta %d zabrania ruchu strategicznego", "card %d forbids strategic movement", e.Card)
	}
	o := s.occupancy(a.Side)
	sup := s.computeSupply()
	prev := b.Index(u.Hex)
	cross := 0
	if len(a.Path) == 0 {
		return nil, rejectf("bad_path", "pusta droga", "an empty path")
	}
	for k, h := range append([]Hex{u.Hex}, a.Path...) {
		i := b.Index(h)
		if k > 0 {
			if i < 0 || b.DirTo(prev, i) < 0 {
				return nil, rejectf("bad_path", "%s nie sąsiaduje z poprzednim heksem", "%s is not next to the previous hex", h)
			}
			// 11.2's note: a hex with only an enemy depot or HQ may be
			// entered (7.5, 9.6 apply); enemy combat units stop it.
			if !s.passable(i) || o.enemyCombat[i] {
				return nil, rejectf("impassable", "%s: niedostępny lub zajęty przez wroga (11.2)", "%s: impassable or enemy-held (11.2)", h)
			}
			if !sup.suppliedAt(u, i) {
				return nil, rejectf("unsupplied_dest", "%s: jednostka byłaby tam niezaopatrzona (11.2)", "%s: the unit would be unsupplied there (11.2)", h)
			}
			if b.south[i] != b.south[prev] {
				cross++
			}
		}
		// 11.2: not into or out of a hex next to the enemy, unless a
		// stationary friend holds it.
		if s.zoc(a.Side, i, []*Unit{u}, &o) {
			if !s.waiver.Lets("adjacent_move") {
				return nil, rejectf("adjacent_move", "%s: heks przy wrogu (11.2)", "%s: a hex next to the enemy (11.2)", h)
			}
		}
		prev = i
	}
	dest := a.Path[len(a.Path)-1]
	if len(s.ownStack(a.Side, dest))+1 > StackLimit {
		return nil, rejectf("overstacked", "%s: limit stosu %d (1.2)", "%s: the stacking limit is %d (1.2)", dest, StackLimit)
	}
	if err := s.checkNationMix(a.Side, dest, []*Unit{u}); err != nil {
		return nil, err
	}
	cost := 0
	if u.Nation == NatRussian && cross > 0 {
		// 13.1: "jeden (1) Punkt Zasobów za każdą rosyjską jednostkę
		// bojową, która przekracza linię": per unit, however often its
		// path crosses.
		cost = 1
	}
	if p.RP() < cost {
		return nil, rejectf("no_rp", "przekroczenie linii kosztuje %d PZ, zostało %d (13.1)", "crossing the line costs %d RP, %d left (13.1)", cost, p.RP())
	}
	p.Spent += cost
	p.StratMoves++
	u.Strategic, u.Moved = true, true
	evs := s.passThrough(a.Side, a.Path, dest)
	evs = append(evs, s.moveStack(a.Side, []string{u.ID}, dest, a.Facing)...)
	s.passTurn()
	return append([]Event{{Type: "strategic", Unit: u.ID, Hex: dest, Text: textf("%s ruchem strategicznym do %s", "%s moves strategically to %s", u.Name, dest)}}, evs...), nil
}

// strategicHQ moves an HQ strategically (11.1: "dowództwo lub jednostkę
// bojową"): it counts against the same limit (11.2, cards 3, 15, 18, 22)
// and the same bans (cards 4, 32), once a stage; no impassable or
// enemy-held hex, not into or out of a hex next to enemy combat units
// unless a stationary friend holds it (11.2). HQs are never unsupplied and
// do not stack (1.2, 6.0), so neither limit applies; 13.1's RP are for
// combat units only (AMBIGUITIES.md, 11.2).
func (s *State) strategicHQ(a StrategicMove, q *HQ) ([]Event, error) {
	p := s.player(a.Side)
	if q.Strategic {
		return nil, rejectf("strategic_once", "%s już wykonało ruch strategiczny (11.2)", "%s has already moved strategically (11.2)", q.Name)
	}
	b := s.cat.Board
	if e := s.effect("no_strategic", a.Side); e != nil && (e.Effect.Zone == "" || (e.Effect.Zone == "S") == b.south[b.Index(q.Hex)]) {
		return nil, rejectf("card_forbids", "karta %d zabrania ruchu strategicznego", "card %d forbids strategic movement", e.Card)
	}
	if len(a.Path) == 0 {
		return nil, rejectf("bad_path", "pusta droga", "an empty path")
	}
	o := s.occupancy(a.Side)
	prev := b.Index(q.Hex)
	for k, h := range append([]Hex{q.Hex}, a.Path...) {
		i := b.Index(h)
		if k > 0 {
			if i < 0 || b.DirTo(prev, i) < 0 {
				return nil, rejectf("bad_path", "%s nie sąsiaduje z poprzednim heksem", "%s is not next to the previous hex", h)
			}
			if !s.passable(i) || o.enemyAny[i] {
				return nil, rejectf("impassable", "%s: niedostępny lub zajęty przez wroga (11.2)", "%s: impassable or enemy-held (11.2)", h)
			}
		}
		if s.zoc(a.Side, i, nil, &o) {
			if !s.waiver.Lets("adjacent_move") {
				return nil, rejectf("adjacent_move", "%s: heks przy wrogu (11.2)", "%s: a hex next to the enemy (11.2)", h)
			}
		}
		prev = i
	}
	p.StratMoves++
	q.Strategic = true
	q.Hex = a.Path[len(a.Path)-1]
	s.passTurn()
	return []Event{{Type: "strategic", Side: a.Side, Unit: q.ID, Hex: q.Hex, Text: textf("%s ruchem strategicznym do %s", "%s moves strategically to %s", q.Name, q.Hex)}}, nil
}

// ---- 12.0 reinforcements, end of stage, 2.2 victory ----

func (s *State) endStage() []Event {
	var evs []Event
	if s.Stage >= Stages {
		count := map[string]int{}
		if s.Options.CityControl == "last" {
			s.updateControl()
		}
		for _, c := range s.cat.Data.Map.Cities {
			if !c.Victory {
				continue
			}
			if s.Options.CityControl == "last" {
				if side := s.Control[c.Hex]; side != "" {
					count[side]++
				}
				continue
			}
			for _, u := range s.Units {
				if u.Status == OnMap && u.Hex == c.Hex {
					count[u.Side]++
					break
				}
			}
		}
		s.Phase, s.Winner = PhaseOver, "draw"
		for _, side := range []string{Polish, Russian} {
			if count[side] >= 6 {
				s.Winner = side
			}
		}
		verdict := map[string]rules.Text{"draw": {PL: "remis", EN: "a draw"},
			Polish: {PL: "zwycięstwo Polaków", EN: "the Poles win"}, Russian: {PL: "zwycięstwo Rosjan", EN: "the Russians win"}}[s.Winner]
		t := textf("Koniec gry: miasta punktowane Polacy %d, Rosjanie %d; wynik: %s", "Game over: victory cities Poles %d, Russians %d; result: %s", count[Polish], count[Russian], verdict)
		s.Result = &t
		return append(evs, Event{Type: "game_over", Text: t})
	}
	s.Stage++
	s.Phase = PhaseEvents
	s.beginStage()
	return append(evs, ev("stage", "Etap %d", "Stage %d", s.Stage))
}

// updateControl records, under city_control: last, the side whose combat
// units alone hold each victory city now (2.2, AMBIGUITIES.md); a city
// left empty keeps its last holder.
func (s *State) updateControl() {
	for _, c := range s.cat.Data.Map.Cities {
		if !c.Victory {
			continue
		}
		holder := ""
		for _, u := range s.Units {
			if u.Status == OnMap && u.Hex == c.Hex {
				holder = u.Side
				break
			}
		}
		if holder != "" && s.Control[c.Hex] != holder {
			if s.Control == nil {
				s.Control = map[Hex]string{}
			}
			s.Control[c.Hex] = holder
		}
	}
}

// checkVictory: 2.2, a supplied unit in Smolensk (Poles) or Warsaw (Russians).
func (s *State) checkVictory() []Event {
	for _, u := range s.Units {
		if u.Status != OnMap {
			continue
		}
		if (u.Side == Polish && u.Hex == s.cat.Cities["smolensk"].Hex) || (u.Side == Russian && u.Hex == s.cat.Cities[s.cat.Data.Map.Bases.Polish].Hex) {
			if s.Supplied(u.ID) {
				s.Phase, s.Winner = PhaseOver, u.Side
				t := textf("%s zajmuje %s: zwycięstwo (2.2)", "%s takes %s: victory (2.2)", u.Name, u.Hex)
				s.Result = &t
				return []Event{{Type: "game_over", Side: u.Side, Text: t}}
			}
		}
	}
	return nil
}
