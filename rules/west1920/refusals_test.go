package west1920

import (
	"testing"
)

// The rules' refusals not covered elsewhere (5.2, 3.1, 7.1, 7.2, 7.4, 8.0,
// 9.2, 9.4), each with its reason in Polish and English and the state
// unchanged.
func TestRuleRefusals(t *testing.T) {
	depots := func(t *testing.T) State { return bare(t, PhaseDepots, Polish, 10) }
	orders := func(t *testing.T) State {
		s := ordersState(t, "1606")
		put(t, &s, "pl-8dp", "1606", "NE")
		putHQ(t, &s, "pl-hq-1a", "1606")
		return s
	}
	hand := func(t *testing.T, n int) State {
		s := newGame(t)
		s.Stage, s.Phase, s.Turn, s.Pending = 2, PhaseEvents, Russian, nil
		s.player(Russian).Hand = []int{1, 6}[:n]
		return s
	}
	cases := []struct {
		name  string
		scene func(*testing.T) State
		act   Action
		code  string
	}{
		{"5.2: a depot in a city no friendly unit holds", depots, BuildDepot{Side: Polish, Hex: "0707"}, "city_not_held"},
		{"5.2: a depot where one is", func(t *testing.T) State {
			s := depots(t)
			put(t, &s, "pl-8dp", "0707", "NE")
			s.Depots = []Depot{{Hex: "0707", Side: Polish, Stage: 1}}
			return s
		}, BuildDepot{Side: Polish, Hex: "0707"}, "depot_there"},
		{"5.2: a depot in an enemy-held city", func(t *testing.T) State {
			s := depots(t)
			put(t, &s, "ru-7sd", "0707", "SW")
			return s
		}, BuildDepot{Side: Polish, Hex: "0707"}, "enemy_there"},
		{"3.1: a third card", func(t *testing.T) State { return hand(t, 2) }, DrawCard{Side: Russian, Card: 3}, "hand_full"},
		{"3.1: a play before the draw to two", func(t *testing.T) State { return hand(t, 1) }, PlayCard{Side: Russian, Card: 1}, "draw_first"},
		{"3.2: a card not in the hand", func(t *testing.T) State { return hand(t, 2) }, PlayCard{Side: Russian, Card: 11}, "not_in_hand"},
		{"7.1: a move back to the start", orders, Order{Side: Polish, Hex: "1606", Path: []Hex{"1605", "1606"}}, "same_hex"},
		{"7.2: one order per unit a stage", func(t *testing.T) State {
			s := orders(t)
			s.unit("pl-8dp").Ordered = true
			return s
		}, Order{Side: Polish, Hex: "1606", Units: []string{"pl-8dp"}, Path: []Hex{"1605"}}, "already_ordered"},
		{"7.2: a unit that is not in the stack", orders, Order{Side: Polish, Hex: "1606", Units: []string{"pl-12dp"}, Path: []Hex{"1605"}}, "not_in_stack"},
		{"7.4: an unsupplied stack into an unsupplied hex", func(t *testing.T) State {
			s := ordersState(t, "1914")
			put(t, &s, "pl-2dlb", "1914", "NE")
			putHQ(t, &s, "pl-hq-1a", "1914")
			s.unit("pl-2dlb").Unsupplied = true
			return s
		}, Order{Side: Polish, Hex: "1914", Path: []Hex{"1913"}}, "unsupplied_dest"},
		{"13.3: a Lithuanian unit ordered into a Russian stack", func(t *testing.T) State {
			s := bare(t, PhaseOrders, Russian, 5)
			s.Lithuania = true
			s.Chits = []Chit{{Side: Russian, Hex: "1103", Cost: 1}}
			put(t, &s, "lt-1dp", "1103", "S")
			putHQ(t, &s, "lt-hq", "1103")
			put(t, &s, "ru-2sd", "1104", "S")
			return s
		}, Order{Side: Russian, Hex: "1103", Path: []Hex{"1104"}, Facing: "S"}, "lithuanian_stack"},
		{"8.0: an HQ moves once", func(t *testing.T) State {
			s := bare(t, PhaseHQ, Polish, 5)
			putHQ(t, &s, "pl-hq-1a", "1606")
			s.hq("pl-hq-1a").Moved = true
			return s
		}, MoveHQ{Side: Polish, HQ: "pl-hq-1a", Path: []Hex{"1605"}}, "hq_moved"},
		{"9.2: artillery alone does not attack", func(t *testing.T) State {
			s := exampleCombat(t)
			for _, id := range []string{"ru-7sd", "ru-24sd", "ru-11kd"} {
				s.unit(id).Status = Waiting
			}
			return s
		}, Attack{Side: Russian, From: "2115", Target: "2014"}, "no_attacker"},
		{"9.2: a target that is not next to the stack", exampleCombat, Attack{Side: Russian, From: "2115", Target: "1813"}, "not_adjacent"},
		{"9.4: more losses on a unit than it has steps", func(t *testing.T) State {
			s := mustApply(t, exampleCombat(t), Attack{Side: Russian, From: "2115", Target: "2014"})
			return mustApply(t, s, Roll{Dice: []int{6, 1}}) // 21 against 11: four losses
		}, Losses{Side: Polish, Units: []string{"pl-12dp", "pl-12dp", "pl-12dp", "pl-7bk"}}, "too_many_on_unit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkRefused(t, c.scene(t), c.act, c.code)
		})
	}
}
