package west1920

import (
	"slices"
	"testing"
)

// 13.1: one RP for each Russian combat unit that crosses the command line
// in strategic movement (none without a crossing); not enough RP: refused.
func TestStrategicLineCrossingCosts(t *testing.T) {
	b := defaultCat(t).Board
	// A column near the eastern edge (supplied from it, 6.0) where the
	// line runs: a southern hex and its northern neighbour.
	var from, north, south Hex
	for r := 2; r < b.Rows && from == ""; r++ {
		i := b.Index(cc(b.Columns-1, r))
		if i < 0 || !b.south[i] || b.impassable[i] {
			continue
		}
		n, s := b.Neighbour(i, N), b.Neighbour(i, S)
		if n >= 0 && !b.south[n] && !b.impassable[n] && s >= 0 && b.south[s] && !b.impassable[s] {
			from, north, south = b.HexAt(i), b.HexAt(n), b.HexAt(s)
		}
	}
	if from == "" {
		t.Fatal("no hex by the eastern edge where the line runs")
	}
	s := bare(t, PhaseStrategic, Russian, 1)
	put(t, &s, "ru-7sd", from, "N")
	if n := mustApply(t, s, StrategicMove{Side: Russian, Unit: "ru-7sd", Path: []Hex{north}, Facing: "N"}); n.player(Russian).Spent != 1 {
		t.Errorf("crossing %s → %s: %d RP spent, want 1", from, north, n.player(Russian).Spent)
	}
	if n := mustApply(t, s, StrategicMove{Side: Russian, Unit: "ru-7sd", Path: []Hex{south}, Facing: "N"}); n.player(Russian).Spent != 0 {
		t.Errorf("%s → %s, no crossing: %d RP spent, want 0", from, south, n.player(Russian).Spent)
	}
	s.player(Russian).TotalRP = 0
	rejectCode(t, s, StrategicMove{Side: Russian, Unit: "ru-7sd", Path: []Hex{north}, Facing: "N"}, "no_rp")
}

func cc(c, r int) Hex { return coord{c, r}.hex() }

// 13.6: in the replacement phase a weakened Russian unit in Smolensk, or a
// Polish one in Warsaw, is restored free when an enemy unit is next to the
// city; without the enemy next door it is not.
func TestFreeRestorationInTheCapitals(t *testing.T) {
	b := defaultCat(t).Board
	for _, c := range []struct {
		unit, enemy string
		city        Hex
	}{{"ru-7sd", "pl-8dp", "2404"}, {"pl-8dp", "ru-7sd", "0609"}} {
		var next Hex
		ci := b.Index(c.city)
		for d := N; d <= NW && next == ""; d++ {
			if j := b.Neighbour(ci, d); j >= 0 && !b.impassable[j] && b.country[j] == "" {
				next = b.HexAt(j)
			}
		}
		for _, enemy := range []bool{true, false} {
			s := bare(t, PhaseCombat, Polish, 0)
			put(t, &s, c.unit, c.city, "N")
			s.unit(c.unit).Weak = true
			if enemy {
				put(t, &s, c.enemy, next, "N")
			}
			s.enterReplacement()
			if got := s.unit(c.unit).Weak; got == enemy {
				t.Errorf("%s weak in %s, enemy next door %v: still weak %v", c.unit, c.city, enemy, got)
			}
			if s.player(Polish).Spent != 0 || s.player(Russian).Spent != 0 {
				t.Errorf("13.6 costs no RP")
			}
		}
	}
}

// 7.3: a chit costs 1 RP, 2 on a stack that began the movement phase
// unsupplied.
func TestChitCost(t *testing.T) {
	for _, unsupplied := range []bool{false, true} {
		s := bare(t, PhaseChits, Polish, 5)
		put(t, &s, "pl-8dp", "1606", "NE")
		s.unit("pl-8dp").Unsupplied = unsupplied
		n := mustApply(t, s, AssignChit{Side: Polish, Hex: "1606"})
		want := 1
		if unsupplied {
			want = 2
		}
		if n.player(Polish).Spent != want {
			t.Errorf("unsupplied %v: %d RP, want %d", unsupplied, n.player(Polish).Spent, want)
		}
	}
}

// 13.1: a Russian "S" HQ commands only south of the line, an "N" HQ only
// north: next to a southern stack only an "S" HQ spares the 7.2 roll.
func TestRussianCommandZones(t *testing.T) {
	for _, c := range []struct {
		hq   string
		roll bool
	}{{"ru-hq-12a", false}, {"ru-hq-15a", true}} {
		s := bare(t, PhaseOrders, Russian, 5)
		s.Chits = []Chit{{Side: Russian, Hex: "2115", Cost: 1}}
		put(t, &s, "ru-7sd", "2115", "NW")
		putHQ(t, &s, c.hq, "2115")
		n := mustApply(t, s, Order{Side: Russian, Hex: "2115", Path: []Hex{"2114"}, Facing: "NW"})
		moved := n.unit("ru-7sd").Hex == "2114"
		if moved == c.roll {
			t.Errorf("%s with the stack south of the line: moved at once %v (pending %+v), want %v", c.hq, moved, n.Pending, !c.roll)
		}
	}
}

// 6.0, 13.3, 13.4: Russian depots never supply Lithuanian units (Kaunas
// only); Polish depots supply Ukrainian units.
func TestAlliedSupply(t *testing.T) {
	s := bare(t, PhaseChits, Russian, 5)
	s.Lithuania = true
	s.Depots = []Depot{{Hex: "2113", Side: Russian, Stage: 1}}
	put(t, &s, "ru-7sd", "2114", "N")
	put(t, &s, "lt-1dp", "2013", "N")
	if !s.Supplied("ru-7sd") || s.Supplied("lt-1dp") {
		t.Errorf("next to the Russian depot in Kiev: Russian supplied %v (want true), Lithuanian %v (want false)", s.Supplied("ru-7sd"), s.Supplied("lt-1dp"))
	}
	p := bare(t, PhaseChits, Polish, 5)
	put(t, &p, "ua-2ds", "2114", "N")
	if p.Supplied("ua-2ds") {
		t.Fatal("ua-2ds in 2114 without depots is supplied: the scene tests nothing")
	}
	p.Depots = []Depot{{Hex: "2113", Side: Polish, Stage: 1}}
	if !p.Supplied("ua-2ds") {
		t.Error("a Polish depot next to it does not supply the Ukrainian unit")
	}
}

// 7.1: an HQ with the stack may go along with the order; it may still move
// in the HQ phase (8.0, "Uwaga"). An HQ elsewhere cannot.
func TestHQAccompaniesOrder(t *testing.T) {
	s := ordersState(t, "1606")
	put(t, &s, "pl-8dp", "1606", "NE")
	putHQ(t, &s, "pl-hq-1a", "1606")
	putHQ(t, &s, "pl-hq-4a", "1608")
	rejectCode(t, s, Order{Side: Polish, Hex: "1606", Path: []Hex{"1605"}, Facing: "NE", HQ: "pl-hq-4a"}, "bad_hq")
	n := mustApply(t, s, Order{Side: Polish, Hex: "1606", Path: []Hex{"1605"}, Facing: "NE", HQ: "pl-hq-1a"})
	if n.hq("pl-hq-1a").Hex != "1605" || n.unit("pl-8dp").Hex != "1605" {
		t.Fatalf("HQ at %s, unit at %s: want both in 1605", n.hq("pl-hq-1a").Hex, n.unit("pl-8dp").Hex)
	}
	n.Pending = nil
	n.startAlternating(PhaseHQ, Polish)
	if m := mustApply(t, n, MoveHQ{Side: Polish, HQ: "pl-hq-1a", Path: []Hex{"1604"}}); m.hq("pl-hq-1a").Hex != "1604" {
		t.Fatalf("the HQ did not move in 8.0 after going with the order")
	}
}

// 2.2, option city_control: "occupied" (default) counts the victory cities
// with a side's combat unit in them at the end of stage 14; "last" counts
// those its units held last (a control marker), kept when they leave.
func TestCityControlOption(t *testing.T) {
	cities := []Hex{"0609", "0707", "0912", "1115", "0907", "1106"}
	ids := []string{"pl-8dp", "pl-10dp", "pl-11dp", "pl-5dp", "pl-1dlb", "pl-2dlb"}
	for _, c := range []struct {
		option, want string
	}{{"occupied", "draw"}, {"last", Polish}} {
		s := bare(t, PhaseReinforcement, Polish, 3)
		s.Stage = Stages
		s.Options.CityControl = c.option
		for k, h := range cities {
			put(t, &s, ids[k], "1606", "NE")
			// The referee's correction is an action: control follows it.
			s = mustApply(t, s, Adjust{Unit: ids[k], Hex: h})
		}
		if c.option == "last" && len(s.Control) != 6 {
			t.Fatalf("control %v, want the six cities Polish", s.Control)
		}
		if c.option == "occupied" && s.Control != nil {
			t.Fatalf("control %v recorded without the option", s.Control)
		}
		// The Poles leave the cities before the end.
		for _, id := range ids {
			s.unit(id).Hex = "1606"
		}
		e := s.clone()
		e.endStage()
		if e.Winner != c.want {
			t.Errorf("city_control %s: winner %q, want %q", c.option, e.Winner, c.want)
		}
	}
	// A Russian unit taking one of them takes its control.
	s := bare(t, PhaseReinforcement, Polish, 3)
	s.Stage, s.Options.CityControl = Stages, "last"
	put(t, &s, "pl-8dp", "1606", "NE")
	s = mustApply(t, s, Adjust{Unit: "pl-8dp", Hex: "0707"})
	s.unit("pl-8dp").Hex = "1606"
	put(t, &s, "ru-7sd", "1606", "NE")
	s = mustApply(t, s, Adjust{Unit: "ru-7sd", Hex: "0707"})
	if s.Control["0707"] != Russian {
		t.Errorf("control of 0707 %q, want russian", s.Control["0707"])
	}
	_, _, err := Apply(State{}, StartGame{Data: defaultCat(t).Data, Options: Options{CityControl: "nearest"}})
	if r, ok := asRejection(err); !ok || r.Code != "bad_option" {
		t.Errorf("city_control nearest: %v, want bad_option", err)
	}
}

// 3.1: the seven single-instruction cards are out of the deck for the
// stage-1 draw and go back after it; stage-1 cards are held (no play);
// Russians draw and play first in stages 2–7, Poles in 8–14. 4.0: RP not
// spent are lost at the end of the stage.
func TestEventsStageOrder(t *testing.T) {
	s := newGame(t)
	for _, c := range SingleCards {
		if slices.Contains(s.Deck, c) {
			t.Fatalf("card %d in the stage-1 deck", c)
		}
	}
	rejectCode(t, s, DrawCard{Side: Russian, Card: 13}, "not_in_deck")
	s = mustApply(t, s, DrawCard{Side: Russian, Card: 1})
	rejectCode(t, s, PlayCard{Side: Russian, Card: 1}, "wrong_phase")
	s = mustApply(t, s, DrawCard{Side: Polish, Card: 3})
	for _, c := range SingleCards {
		if !slices.Contains(s.Deck, c) {
			t.Fatalf("card %d not back in the deck after the stage-1 draw", c)
		}
	}
	if !slices.Equal(s.Player(Russian).Hand, []int{1}) || !slices.Equal(s.Player(Polish).Hand, []int{3}) {
		t.Fatalf("hands %v %v: the stage-1 cards are held", s.Player(Russian).Hand, s.Player(Polish).Hand)
	}
	for _, c := range []struct {
		stage int
		first string
	}{{2, Russian}, {7, Russian}, {8, Polish}, {14, Polish}} {
		e := s.clone()
		e.Stage = c.stage - 1
		e.player(Polish).TotalRP, e.player(Polish).Spent = 9, 4
		e.endStage()
		if e.Stage != c.stage || e.Phase != PhaseEvents || e.Turn != c.first {
			t.Errorf("stage %d: phase %s, %s first, want %s", e.Stage, e.Phase, e.Turn, c.first)
		}
		if p := e.Player(Polish); p.TotalRP != 0 || p.Spent != 0 {
			t.Errorf("stage %d: Polish RP %d spent %d carried over (4.0)", c.stage, p.TotalRP, p.Spent)
		}
	}
}

// 5.4: when a player's RP cannot pay the depots' upkeep at the end of the
// depot phase, the opponent picks the depots to remove, one at a time,
// until the rest can be paid.
func TestDepotShortfall(t *testing.T) {
	s := newGame(t)
	s.Phase, s.Turn, s.Pending = PhaseDepots, Polish, nil
	s.player(Polish).TotalRP, s.player(Russian).TotalRP = 4, 20
	before := 0
	for _, d := range s.Depots {
		if d.Side == Polish {
			before++
		}
	}
	s = passBoth(t, s)
	for i := 0; s.Pending != nil && s.Pending.Kind == "depot_shortfall"; i++ {
		if i > before {
			t.Fatal("the shortfall never ends")
		}
		wantPending(t, s, "depot_shortfall", Russian, -1)
		h := Hex(s.Pending.Options[len(s.Pending.Options)-1])
		rejectCode(t, s, RemoveDepot{Side: Polish, Hex: h}, "not_your_decision")
		s = mustApply(t, s, RemoveDepot{Side: Russian, Hex: h})
	}
	after := 0
	for _, d := range s.Depots {
		if d.Side == Polish {
			after++
		}
	}
	if after >= before || s.Player(Polish).Spent > 4 || s.Phase == PhaseDepots {
		t.Fatalf("Polish depots %d → %d, spent %d of 4, phase %s", before, after, s.Player(Polish).Spent, s.Phase)
	}
}

// 7.4: artillery and infantry may not go straight from one hex next to
// enemy combat units to another, unless a stationary friend holds one of
// them (or an unbridged river screens it); cavalry may. Difficult terrain
// costs infantry and artillery two, cavalry one.
func TestMovementRestrictions(t *testing.T) {
	b := defaultCat(t).Board
	ok := func(i int) bool { return i >= 0 && !b.impassable[i] && b.country[i] == "" }
	unbridged := func(i, j int) bool { return b.unbridged(i, b.DirTo(i, j)) }
	// A (start), E (enemy) and B (destination) all next to each other,
	// no rivers between them.
	var A, E, B Hex
	for i := 0; i < b.Size() && A == ""; i++ {
		if !ok(i) || b.difficult[i] {
			continue
		}
		for d := N; d <= NW && A == ""; d++ {
			e := b.Neighbour(i, d)
			f := b.Neighbour(i, (d+1)%6)
			if !ok(e) || !ok(f) || b.difficult[f] || b.DirTo(e, f) < 0 || unbridged(i, e) || unbridged(i, f) || unbridged(f, e) {
				continue
			}
			A, E, B = b.HexAt(i), b.HexAt(e), b.HexAt(f)
		}
	}
	if A == "" {
		t.Fatal("no three neighbouring clear hexes")
	}
	scene := func(unit string) State {
		s := ordersState(t, A)
		put(t, &s, unit, A, "N")
		putHQ(t, &s, "pl-hq-1a", A)
		put(t, &s, "ru-7sd", E, "N")
		return s
	}
	o := Order{Side: Polish, Hex: A, Path: []Hex{B}, Facing: "N"}
	rejectCode(t, scene("pl-8dp"), o, "adjacent_move")
	mustApply(t, scene("pl-4bk"), o) // cavalry
	friend := scene("pl-8dp")
	put(t, &friend, "pl-10dp", B, "N") // stationary
	mustApply(t, friend, o)

	// Two difficult hexes in a row from a clear one.
	var S, D1, D2 Hex
	for i := 0; i < b.Size() && S == ""; i++ {
		if !ok(i) || b.difficult[i] {
			continue
		}
		for d := N; d <= NW && S == ""; d++ {
			j := b.Neighbour(i, d)
			if !ok(j) || !b.difficult[j] {
				continue
			}
			for d2 := N; d2 <= NW; d2++ {
				k := b.Neighbour(j, d2)
				if k != i && ok(k) && b.difficult[k] && b.DirTo(i, k) < 0 {
					S, D1, D2 = b.HexAt(i), b.HexAt(j), b.HexAt(k)
					break
				}
			}
		}
	}
	if S == "" {
		t.Fatal("no two difficult hexes in a row")
	}
	for _, c := range []struct {
		unit string
		ok   bool
	}{{"pl-8dp", false}, {"pl-4bk", true}} {
		s := ordersState(t, S)
		put(t, &s, c.unit, S, "N")
		putHQ(t, &s, "pl-hq-1a", S)
		o := Order{Side: Polish, Hex: S, Path: []Hex{D1, D2}, Facing: "N"}
		if c.ok {
			mustApply(t, s, o)
		} else {
			rejectCode(t, s, o, "too_far")
			mustApply(t, s, Order{Side: Polish, Hex: S, Path: []Hex{D1}, Facing: "N"}) // 2 ≤ 3
		}
	}
}

// 11.2: a strategic move may not end where the unit would be unsupplied.
func TestStrategicIntoUnsupplied(t *testing.T) {
	s := bare(t, PhaseStrategic, Polish, 0)
	put(t, &s, "pl-8dp", "0609", "NE") // Warsaw, the Polish base
	var in, out []Hex
	for _, p := range s.paths(s.cat.Board.Index("0609"), 6) {
		probe := s.clone()
		probe.unit("pl-8dp").Hex = p[len(p)-1]
		if probe.Supplied("pl-8dp") {
			in = p
		} else if out == nil {
			out = p
		}
	}
	if in == nil || out == nil {
		t.Fatal("no supplied and unsupplied destinations within six hexes of Warsaw")
	}
	rejectCode(t, s, StrategicMove{Side: Polish, Unit: "pl-8dp", Path: out, Facing: "NE"}, "unsupplied_dest")
	mustApply(t, s, StrategicMove{Side: Polish, Unit: "pl-8dp", Path: in, Facing: "NE"})
}
