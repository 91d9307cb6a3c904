package skirmishgame

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/internal/twoworlds"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/rules/skirmish"
	"github.com/sztab/sztab/vision"
)

// The skirmish hides the army lists until their units are deployed
// (undeployed units, their models and the army points) and the order
// cards in the players' hands (which cards, drawn and put away; not how
// many). The camera's snapshots, the keys and the cards scanned are public:
// both worlds of a pair receive the same ones, and a scanned card is held
// in both.

// setup is a random game's setup: the config's skirmish section.
type setup struct {
	Players  []skirmish.Player        `yaml:"players"`
	Units    []skirmish.UnitSpec      `yaml:"units"`
	Options  skirmish.Options         `yaml:"options"`
	Scenario *skirmish.ChooseScenario `yaml:"scenario"`
	RollOff  []skirmish.SeatRoll      `yaml:"roll_off"`
}

// openGame builds the game for a setup and applies its StartGame as the
// daemon does.
func openGame(t testing.TB, tb setup) *Game {
	t.Helper()
	section, err := yaml.Marshal(map[string]any{"skirmish": tb})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	text := "venue: test\ntable: t1\ngame: skirmish\ntags: tags.yaml\nmeasure:\n  krok_mm: 25.4\ndice:\n  seed: 7\n" + string(section)
	path := filepath.Join(dir, "table.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := companion.ParseConfig(path, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	cg, err := New(cfg)
	if err != nil {
		t.Fatalf("%v\n%s", err, section)
	}
	g := cg.(*Game)
	start, err := g.Start()
	if err != nil {
		t.Fatal(err)
	}
	if _, commit, err := g.Apply(start); err != nil {
		t.Fatalf("start: %v\n%s", err, section)
	} else {
		commit()
	}
	return g
}

// randomTable is a legal setup: two or three players, one or two units
// each, a scenario 1–4 with small targets so that games end.
func randomTable(r *rand.Rand) setup {
	tb := setup{
		Players: []skirmish.Player{
			{Seat: 1, Name: "Ania", Faction: "Armia Krajowa", Edge: skirmish.EdgeSouth},
			{Seat: 2, Name: "Bartek", Faction: "Wehrmacht", Edge: skirmish.EdgeNorth},
		},
		Options:  skirmish.Options{Table: skirmish.Table{Width: 48, Depth: 36}, Points: 200, MaxRounds: 6},
		Scenario: &skirmish.ChooseScenario{Number: 1 + r.IntN(4), PointsToWin: 4, OrderPointsToWin: 6, Objectives: 2},
	}
	if r.IntN(3) == 0 {
		tb.Players = append(tb.Players, skirmish.Player{Seat: 3, Name: "Celina", Faction: "Armia Krajowa", Edge: skirmish.EdgeSouth})
	}
	for _, p := range tb.Players {
		n := 1 + r.IntN(2)
		if len(tb.Players) == 3 {
			n = 1
		}
		for i := range n {
			tb.Units = append(tb.Units, unitFor(r, p, fmt.Sprintf("s%du%d", p.Seat, i+1), i == 0))
		}
		tb.RollOff = append(tb.RollOff, skirmish.SeatRoll{Seat: p.Seat})
	}
	// a first-player roll without a tie
	for i, v := range r.Perm(6)[:len(tb.RollOff)] {
		tb.RollOff[i].Value = v + 1
	}
	return tb
}

// unitFor is a unit of p's faction with weapons that need no template;
// only a first unit may be of a card an army fields once.
func unitFor(r *rand.Rand, p skirmish.Player, id string, first bool) skirmish.UnitSpec {
	if p.Faction == "Wehrmacht" {
		switch r.IntN(3) {
		case 0:
			return skirmish.UnitSpec{ID: id, Card: "grenadier", Owner: p.Seat, Models: 4, Swaps: []skirmish.ModelSwap{{Weapon: "MP 40", Models: 1 + r.IntN(2)}}}
		case 1:
			if first {
				return skirmish.UnitSpec{ID: id, Card: "sturmpionier", Owner: p.Seat, Models: 3}
			}
		}
		return skirmish.UnitSpec{ID: id, Card: "grenadier", Owner: p.Seat, Models: 4, Commander: true, Name: "Grenadierzy " + id}
	}
	switch r.IntN(3) {
	case 0:
		return skirmish.UnitSpec{ID: id, Card: "ak_soldier", Owner: p.Seat, Models: 4, Commander: r.IntN(2) == 0}
	case 1:
		return skirmish.UnitSpec{ID: id, Card: "ak_civilian", Owner: p.Seat, Models: 4 + r.IntN(3)}
	}
	return skirmish.UnitSpec{ID: id, Card: "ak_soldier", Owner: p.Seat, Models: 5, Swaps: []skirmish.ModelSwap{{Weapon: "STEN", Models: 2}}, Name: "Pluton " + id}
}

// hiddenUnits are the two units an army twin's owner keeps in hand, one per
// world: other cards, other ids, other model counts, other costs.
func hiddenUnits(p skirmish.Player) (a, b skirmish.UnitSpec) {
	if p.Faction == "Wehrmacht" {
		return skirmish.UnitSpec{ID: "ukryty", Card: "grenadier", Owner: p.Seat, Models: 4},
			skirmish.UnitSpec{ID: "zapas", Card: "mortar_team", Owner: p.Seat, Models: 2, Name: "Moździerz"}
	}
	return skirmish.UnitSpec{ID: "ukryty", Card: "ak_civilian", Owner: p.Seat, Models: 5},
		skirmish.UnitSpec{ID: "zapas", Card: "ak_soldier", Owner: p.Seat, Models: 4, Commander: true}
}

// player plays random inputs at a table: the physical table (where each
// model stands, the markers), the choices of the players, and the keys,
// cards and snapshots that follow from them. It reads the full state of
// world A to choose; the inputs are the same in both worlds.
type player struct {
	r *rand.Rand
	// at is where each model stands on the physical table (kroki).
	at      map[string][2]float64
	unitOf  map[string]string
	slots   map[string]int
	markers []vision.TableMarker
	// keep are units that never leave their owner's hand (the army twin):
	// never placed, never scanned on their owner's turn.
	keep map[string]int
	// noise are unit ids scanned at random, some of them in no army.
	noise []string
	// orderScans: the players put order cards away by scanning them; held
	// says whether the other world's seat holds the card too (a scanned
	// card is in both worlds).
	orderScans bool
	held       func(seat int, card string) bool
}

func newPlayer(seed uint64) *player {
	return &player{r: rand.New(rand.NewPCG(seed, 0x7477)), at: map[string][2]float64{}, unitOf: map[string]string{}, slots: map[string]int{}, keep: map[string]int{}}
}

func (p *player) snapshot(s skirmish.State) companion.Input {
	dead := map[string]bool{}
	for _, u := range s.Units {
		for _, m := range u.Models {
			if m.Removed {
				dead[m.ID] = true
			}
		}
	}
	sn := &vision.Snapshot{Markers: slices.Clone(p.markers)}
	ids := make([]string, 0, len(p.at))
	for id := range p.at {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if dead[id] {
			continue
		}
		xy := p.at[id]
		sn.Models = append(sn.Models, vision.ModelPosition{ID: id, Unit: p.unitOf[id], X: xy[0] * krok, Y: xy[1] * krok, BaseMM: krok, SigmaMM: 0.2})
	}
	return companion.Input{Snapshot: sn}
}

func unitScan(id string) companion.Input {
	return companion.Input{Tag: &hardware.TagEvent{Reader: "stol", UID: "04A1B2C3", Present: true}, TagInfo: &companion.Tag{Kind: "unit", ID: id}}
}

func orderScan(id string) companion.Input {
	return companion.Input{Tag: &hardware.TagEvent{Reader: "stol", UID: "04C0FFEE", Present: true}, TagInfo: &companion.Tag{Kind: "card", ID: id}}
}

func pageKey(seat int, k string) companion.Input {
	in := key(k)
	in.From = companion.Sender{Kind: wire.Seat, Audience: wire.Player(seat)}
	return in
}

// next chooses the next inputs for the state s of world A.
func (p *player) next(s skirmish.State) []companion.Input {
	r := p.r
	if r.IntN(12) == 0 {
		return []companion.Input{p.noiseInput(s)}
	}
	switch {
	case s.Call != nil:
		return []companion.Input{key([]string{"confirm", "cancel"}[r.IntN(2)])}
	case s.Shot != nil:
		switch {
		case s.Shot.Stage == skirmish.StageRuling:
			return []companion.Input{key([]string{"confirm", "cancel"}[r.IntN(2)])}
		case r.IntN(30) == 0:
			return []companion.Input{key("cancel")}
		case r.IntN(20) == 0:
			return []companion.Input{key("undo")}
		case r.IntN(4) == 0:
			return []companion.Input{key("roll")}
		}
		return []companion.Input{key(fmt.Sprint(1 + r.IntN(6)))}
	}
	active := s.ActiveSeat()
	switch s.Phase {
	case skirmish.PhaseObjectives:
		p.markers = append(p.markers, vision.TableMarker{Kind: vision.MarkerObjective,
			X: (6 + r.Float64()*36) * krok, Y: (14 + r.Float64()*8) * krok, DiameterMM: 30, SigmaMM: 0.5})
		return []companion.Input{p.snapshot(s), key("next")}
	case skirmish.PhaseDeployment:
		for _, u := range s.Units {
			if u.Owner != active || u.Deployed {
				continue
			}
			if _, kept := p.keep[u.ID]; kept {
				continue
			}
			p.place(s, u)
			return []companion.Input{p.snapshot(s), unitScan(u.ID)}
		}
		// only kept units left to the active player: the table waits
		return []companion.Input{p.noiseInput(s)}
	case skirmish.PhaseOrders:
		ps := seatOf(s, active)
		switch {
		case s.Round == 0:
			return []companion.Input{key("draw")}
		case p.orderScans && !ps.Swapped && len(ps.Hand) > 0 && r.IntN(3) == 0:
			var both []string
			for _, h := range ps.Hand {
				if p.held == nil || p.held(active, h.ID) {
					both = append(both, h.ID)
				}
			}
			if len(both) > 0 {
				return []companion.Input{key("discard"), orderScan(both[r.IntN(len(both))])}
			}
		case ps.HandSize < s.Options.HandSize && r.IntN(4) > 0:
			return []companion.Input{key("draw")}
		}
		return []companion.Input{key("next")}
	case skirmish.PhaseMovement:
		var moved bool
		for _, u := range s.Units {
			if u.Owner != active || r.IntN(3) == 0 {
				continue
			}
			dy := 1.0
			if edgeOf(s, active) == skirmish.EdgeNorth {
				dy = -1
			}
			step := r.Float64() * 4
			for _, m := range u.Models {
				if m.Removed || m.At == nil {
					continue
				}
				xy := [2]float64{m.At.X + r.Float64() - 0.5, m.At.Y + dy*step}
				xy[1] = min(max(xy[1], 1), s.Options.Table.Depth-1)
				p.at[m.ID] = xy
				moved = true
			}
		}
		if !moved {
			return []companion.Input{key("next")}
		}
		return []companion.Input{p.snapshot(s), key("next")}
	case skirmish.PhaseShooting:
		if sel := s.Selection; sel != nil && sel.Shooter != "" {
			var targets []string
			for _, u := range s.Units {
				if u.Deployed && u.Faction != s.Players[s.Active].Faction && u.Alive() > 0 {
					targets = append(targets, u.ID)
				}
			}
			switch {
			case len(targets) == 0:
				return []companion.Input{key("next")}
			case r.IntN(6) == 0:
				// the shooter's card again: its next weapon
				return []companion.Input{unitScan(sel.Shooter)}
			case r.IntN(6) == 0:
				return []companion.Input{key("cancel")}
			}
			return []companion.Input{unitScan(targets[r.IntN(len(targets))])}
		}
		var mine []string
		for _, u := range s.Units {
			if u.Owner == active && u.Alive() > 0 && len(u.Fired) == 0 {
				mine = append(mine, u.ID)
			}
		}
		if len(mine) == 0 || r.IntN(5) == 0 {
			return []companion.Input{key("next")}
		}
		return []companion.Input{p.snapshot(s), unitScan(mine[r.IntN(len(mine))])}
	}
	return nil
}

// noiseInput is something a table does now and then: a key out of turn, a
// player's page, a card that is no use now.
func (p *player) noiseInput(s skirmish.State) companion.Input {
	r := p.r
	switch r.IntN(6) {
	case 0:
		return key([]string{"next", "cancel", "undo", "confirm", "roll", "draw", "discard", "7"}[r.IntN(8)])
	case 1:
		seats := []int{1, 2, 3}
		return pageKey(seats[r.IntN(len(seats))], []string{"next", "cancel", "draw"}[r.IntN(3)])
	case 2:
		return p.snapshot(s)
	case 3:
		return orderScan([]string{"not-a-card", "w_granaty"}[r.IntN(2)])
	}
	var ids []string
	for _, id := range p.noise {
		// a kept unit's card is scanned only when its owner cannot be
		// deploying it
		if owner, kept := p.keep[id]; kept && owner == s.ActiveSeat() {
			continue
		}
		ids = append(ids, id)
	}
	for _, u := range s.Units {
		if _, kept := p.keep[u.ID]; !kept && (u.Deployed || s.Phase != skirmish.PhaseDeployment) {
			ids = append(ids, u.ID)
		}
	}
	if len(ids) == 0 {
		return key("cancel")
	}
	return unitScan(ids[r.IntN(len(ids))])
}

// place stands a unit's models in a row in its owner's deployment zone, in
// a slot of its own along the edge.
func (p *player) place(s skirmish.State, u skirmish.Unit) {
	edge := edgeOf(s, u.Owner)
	slot, ok := p.slots[u.ID]
	if !ok {
		n := 0
		for id := range p.slots {
			if o, _ := s.Unit(id); edgeOf(s, o.Owner) == edge {
				n++
			}
		}
		slot = n
		p.slots[u.ID] = slot
	}
	y := 3.0
	if edge == skirmish.EdgeNorth {
		y = s.Options.Table.Depth - 3
	}
	for i, m := range u.Models {
		p.at[m.ID] = [2]float64{2 + 10*float64(slot) + 1.5*float64(i), y}
		p.unitOf[m.ID] = u.ID
	}
}

func seatOf(s skirmish.State, seat int) skirmish.PlayerState {
	for _, ps := range s.Seats {
		if ps.Seat == seat {
			return ps
		}
	}
	return skirmish.PlayerState{}
}

func edgeOf(s skirmish.State, seat int) string {
	for _, p := range s.Players {
		if p.Seat == seat {
			return p.Edge
		}
	}
	return ""
}

// feed applies an input to a game as the table does, refusals allowed.
func feed(g *Game, in companion.Input) {
	acts, notices := g.Bind(in)
	for _, n := range notices {
		if n.Type == "rejected" {
			return
		}
	}
	for _, a := range acts {
		_, commit, err := g.Apply(a)
		if err != nil {
			return
		}
		commit()
	}
}

// public is what the rules make public about the order cards: the cards
// each seat completed. Two worlds whose hands differ stay a fair pair only
// as long as these agree.
func public(s skirmish.State) string {
	var b strings.Builder
	for _, ps := range s.Seats {
		fmt.Fprintf(&b, "%d:%v;", ps.Seat, ps.Completed)
	}
	if s.Result != nil {
		fmt.Fprintf(&b, "%v", *s.Result)
	}
	return b.String()
}

// reshuffle gives world B other deck orders for the seats in seats.
func reshuffle(g *Game, seed uint64, seats []int) {
	for _, seat := range seats {
		g.decks[seat] = rand.New(rand.NewPCG(seed, 0xb0+uint64(seat)))
	}
}

// playPair plays a random game in worlds A and B at once, the inputs chosen
// from A; it stops at maxSteps, at the game's end, or before the first
// input after which the two worlds differ in what the rules make public
// (then the pair is fair up to there and no further).
func playPair(p *player, a, b *Game, maxSteps int) []companion.Input {
	var inputs []companion.Input
	p.held = func(seat int, card string) bool {
		return slices.ContainsFunc(seatOf(b.State(), seat).Hand, func(h skirmish.HeldCard) bool { return h.ID == card })
	}
	for len(inputs) < maxSteps && a.State().Result == nil {
		ins := p.next(a.State())
		if len(ins) == 0 {
			break
		}
		for _, in := range ins {
			feed(a, in)
			feed(b, in)
			if public(a.State()) != public(b.State()) {
				return inputs
			}
			inputs = append(inputs, in)
		}
	}
	return inputs
}

// viewers are the public and every seat but except.
func viewers(tb setup, except int) []companion.Viewer {
	out := []companion.Viewer{companion.Public}
	for _, p := range tb.Players {
		if p.Seat != except {
			out = append(out, companion.Viewer{Role: companion.RolePlayer, Seat: p.Seat})
		}
	}
	return out
}

// TestTwoWorldsRandomGames plays random games as pairs of worlds that
// differ only in hidden information and checks that the public viewer and
// every seat that may not see the difference receive the same things:
//
//   - army: one seat's army has one more unit, a different one in each
//     world, that stays in its hand (never placed, never scanned by its
//     owner), through deployment;
//   - decks: the order cards drawn virtually come from other deck orders
//     (every seat's for the public; every other seat's for a seat), through
//     the whole game, as long as the cards completed are the same.
func TestTwoWorldsRandomGames(t *testing.T) {
	n := twoworlds.Games(8)
	if testing.Short() {
		// under qemu (scripts/test-arm64.sh): fewer games
		n = twoworlds.Games(3)
	}
	for i := range n {
		seed := uint64(2800 + i)
		r := rand.New(rand.NewPCG(seed, 0x3131))
		tb := randomTable(r)
		t.Run(fmt.Sprintf("seed=%d/army", seed), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("reproduce with seed %d (scenario %d, %d players)", seed, tb.Scenario.Number, len(tb.Players))
				}
			}()
			owner := tb.Players[r.IntN(len(tb.Players))]
			ta, tbB := tb, tb
			ha, hb := hiddenUnits(owner)
			ta.Units = append(slices.Clone(tb.Units), ha)
			tbB.Units = append(slices.Clone(tb.Units), hb)
			// the hidden unit's owner deploys it first or last: its place in
			// the list is its own
			p := newPlayer(seed)
			p.keep = map[string]int{"ukryty": owner.Seat, "zapas": owner.Seat}
			p.noise = []string{"ukryty", "zapas", "nikt"}
			inputs := playPair(p, openGame(t, ta), openGame(t, tbB), 60)
			for _, v := range viewers(tb, owner.Seat) {
				twoworlds.Check(t, twoworlds.Pair{Name: fmt.Sprintf("seed %d army of seat %d", seed, owner.Seat), Viewer: v,
					A: twoworlds.World{Game: openGame(t, ta), Inputs: inputs},
					B: twoworlds.World{Game: openGame(t, tbB), Inputs: inputs}})
			}
		})
		if !(tb.Scenario.Number == skirmish.ScenarioOrders || tb.Scenario.Number == skirmish.ScenarioAllOrNothing) {
			continue
		}
		t.Run(fmt.Sprintf("seed=%d/decks", seed), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("reproduce with seed %d (scenario %d, %d players)", seed, tb.Scenario.Number, len(tb.Players))
				}
			}()
			for _, v := range viewers(tb, 0) {
				var others []int
				for _, pl := range tb.Players {
					if pl.Seat != v.Seat {
						others = append(others, pl.Seat)
					}
				}
				p := newPlayer(seed)
				p.orderScans = true
				a, b := openGame(t, tb), openGame(t, tb)
				reshuffle(b, seed, others)
				inputs := playPair(p, a, b, 300)
				if len(inputs) < 10 {
					t.Logf("%v: only %d inputs before the worlds differ publicly", v, len(inputs))
				}
				b2 := openGame(t, tb)
				reshuffle(b2, seed, others)
				twoworlds.Check(t, twoworlds.Pair{Name: fmt.Sprintf("seed %d decks of seats %v", seed, others), Viewer: v,
					A: twoworlds.World{Game: openGame(t, tb), Inputs: inputs},
					B: twoworlds.World{Game: b2, Inputs: inputs}})
			}
		})
	}
}

// twoTable is a two-player table of scenario sc; Bartek's army is gren.
func twoTable(sc int, gren skirmish.UnitSpec) setup {
	return setup{
		Players: []skirmish.Player{
			{Seat: 1, Name: "Ania", Faction: "Armia Krajowa", Edge: skirmish.EdgeSouth},
			{Seat: 2, Name: "Bartek", Faction: "Wehrmacht", Edge: skirmish.EdgeNorth},
		},
		Units:    []skirmish.UnitSpec{{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 4}, gren},
		Options:  skirmish.Options{Table: skirmish.Table{Width: 48, Depth: 36}},
		Scenario: &skirmish.ChooseScenario{Number: sc, Objectives: 2},
		RollOff:  []skirmish.SeatRoll{{Seat: 1, Roll: dice.Roll{Value: 6}}, {Seat: 2, Roll: dice.Roll{Value: 1}}},
	}
}

// The leaks the random games found, each as the smallest pair that shows
// it; each failed before its fix.
func TestTwoWorldsLeaks(t *testing.T) {
	akRow := snapshot(row("ak", 4, 2, 3)...)
	pair := func(name string, v companion.Viewer, a, b setup, inputs ...companion.Input) twoworlds.Pair {
		return twoworlds.Pair{Name: name, Viewer: v,
			A: twoworlds.World{Game: openGame(t, a), Inputs: inputs},
			B: twoworlds.World{Game: openGame(t, b), Inputs: inputs}}
	}
	ania := companion.Viewer{Role: companion.RolePlayer, Seat: 1}
	gren := skirmish.UnitSpec{ID: "gren", Card: "grenadier", Owner: 2, Models: 4}
	t.Run("leak: the headline and the summary count undeployed models", func(t *testing.T) {
		// Bartek's list: four grenadiers or six, none deployed yet.
		more := gren
		more.Models = 6
		for _, v := range []companion.Viewer{companion.Public, ania} {
			twoworlds.Check(t, pair("models in the list", v, twoTable(1, gren), twoTable(1, more), akRow, unitScan("ak")))
		}
	})
	// Bartek's list: four grenadiers, or four assault pioneers under
	// another id; the same number of models.
	pioneers := skirmish.UnitSpec{ID: "szturm", Card: "sturmpionier", Owner: 2, Models: 4}
	t.Run("leak: a card of an enemy unit not deployed yet is refused otherwise than a card of no unit", func(t *testing.T) {
		// Ania's turn to deploy; the grenadiers' card is scanned.
		for _, v := range []companion.Viewer{companion.Public, ania} {
			twoworlds.Check(t, pair("deployment", v, twoTable(1, gren), twoTable(1, pioneers), akRow, unitScan("gren")))
		}
	})
	t.Run("leak: a refused deployment lists the models of the unit", func(t *testing.T) {
		// Bartek scans his card before his models stand on the table: four
		// grenadiers or six.
		more := gren
		more.Models = 6
		for _, v := range []companion.Viewer{companion.Public, ania} {
			twoworlds.Check(t, pair("deployment refused", v, twoTable(1, gren), twoTable(1, more), akRow, unitScan("ak"), unitScan("gren")))
		}
	})
	t.Run("leak: a card of a unit not deployed yet names the unit before deployment", func(t *testing.T) {
		// Objectives are placed first in scenario 2; the grenadiers' card
		// is scanned meanwhile.
		for _, v := range []companion.Viewer{companion.Public, ania} {
			twoworlds.Check(t, pair("objectives", v, twoTable(2, gren), twoTable(2, pioneers), unitScan("gren")))
		}
	})
}

// demoWorld is the demo table (with its simulated script, or without it)
// in a directory of its own, with old replaced by new in its config.
func demoWorld(t *testing.T, script bool, old, new string, inputs ...companion.Input) twoworlds.DaemonWorld {
	t.Helper()
	return twoworlds.DaemonWorld{Config: tabletest.DemoConfigEdited(t, t.TempDir(), "skirmish.yaml", script, old, new), Inputs: inputs}
}

// TestTwoWorldsDemo plays the demo on two real daemons whose configs
// differ only in what the public may not see, and compares what a public
// MQTT client, the public /stream, sztab watch and the venue wall receive.
func TestTwoWorldsDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("two daemons")
	}
	t.Run("the dice seed", func(t *testing.T) {
		// The demo's dice are keyed in: the seed decides nothing public.
		twoworlds.CheckDaemons(t, twoworlds.DaemonPair{Name: "demo, another seed", Spec: Spec,
			A: demoWorld(t, true, "seed: 1944", "seed: 1944"), B: demoWorld(t, true, "seed: 1944", "seed: 2026")})
	})
	t.Run("Bartek's army before deployment", func(t *testing.T) {
		// Ania deploys; Bartek's list is five grenadiers or six with an
		// MG42, and he has not deployed yet. His card scanned out of turn
		// and a key that does nothing now are refused alike.
		scan := func(uid string) companion.Input {
			return companion.Input{Tag: &hardware.TagEvent{Reader: "stol", UID: uid, Present: true}}
		}
		var ak []vision.ModelPosition
		for i := range 5 {
			ak = append(ak, vision.ModelPosition{ID: fmt.Sprintf("ak-%d", i+1), Unit: "ak", X: float64(300 + 60*i), Y: 100, BaseMM: 25, SigmaMM: 0.5})
		}
		inputs := []companion.Input{{Snapshot: &vision.Snapshot{Models: ak}}, scan("04D4E5F6"), scan("04A1B2C3"), scan("04D4E5F6"),
			tabletest.Press("stol", "next")}
		const gren = "{id: gren, card: grenadier, owner: 2, models: 5, name: Grenadierzy}"
		twoworlds.CheckDaemons(t, twoworlds.DaemonPair{Name: "demo, another army list", Spec: Spec,
			A: demoWorld(t, false, gren, gren, inputs...),
			B: demoWorld(t, false, gren, "{id: gren, card: grenadier, owner: 2, models: 6, name: Grenadierzy, swaps: [{weapon: MG42, models: 1}]}", inputs...)})
	})
}
