package wotrushgame

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/internal/twoworlds"
	"github.com/sztab/sztab/rules/wotrush"
)

// Issue #28: what World of Tanks: Rush hides is proved hidden by playing
// two worlds that differ only in it and comparing what a viewer receives.
//
// Hidden from everyone (the referee sees it all): the vehicle deck's order,
// every Garage's order (its owner's too: the cards lie face down), the seed
// and the count of shuffles it drives, the hands of the players whose turn
// it is not (the active player's hand is laid face up, "kładzie karty
// trzymane w ręku … odkryte"; every hand is shown once the game is over).
// A player sees their own hand. The worlds of a pair are dealt by pinned
// orders (Setup.Deck, Garages, Achievements) so that the only difference is
// the one the pair names.

// dealt is what a setup deals: the whole deck in order (the Reserve's four
// first), each seat's Garage in order (the hand drawn first) and the
// achievements in play.
type dealt struct {
	deck    []string
	garages []wotrush.SeatOrder
	achs    []string
}

func dealOf(s wotrush.State) dealt {
	d := dealt{deck: slices.Concat(s.Reserve, s.Deck), achs: slices.Clone(s.Achievements)}
	for _, p := range s.Players {
		d.garages = append(d.garages, wotrush.SeatOrder{Seat: p.Seat, Cards: slices.Concat(p.Hand, p.Garage)})
	}
	return d
}

func (d dealt) clone() dealt {
	c := dealt{deck: slices.Clone(d.deck), achs: slices.Clone(d.achs)}
	for _, g := range d.garages {
		c.garages = append(c.garages, wotrush.SeatOrder{Seat: g.Seat, Cards: slices.Clone(g.Cards)})
	}
	return c
}

func players(n int) []wotrush.PlayerInfo {
	names := []string{"Ania", "Bartek", "Celina", "Darek", "Ewa"}
	var ps []wotrush.PlayerInfo
	for i := 0; i < n; i++ {
		ps = append(ps, wotrush.PlayerInfo{Seat: i + 1, Name: names[i]})
	}
	return ps
}

// open starts a game from setup, as the table does (its Start applied).
func open(t testing.TB, setup wotrush.Setup) *Game {
	t.Helper()
	cat, err := wotrush.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	st, err := cat.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(st)
	start, _ := g.Start()
	_, commit, err := g.Apply(start)
	if err != nil {
		t.Fatal(err)
	}
	commit()
	return g
}

// pinned is setup dealt by d: the same game, every order given.
func pinned(setup wotrush.Setup, d dealt) wotrush.Setup {
	setup.Deck, setup.Garages, setup.Achievements = d.deck, d.garages, d.achs
	return setup
}

// rng is a small reproducible generator (PCG-like LCG, high bits).
type rng uint64

func (r *rng) intn(n int) int {
	*r = *r*6364136223846793005 + 1442695040888963407
	return int((uint64(*r) >> 33) % uint64(n))
}

// inputOf is the input a player gives for a engine action: a command from
// their own page. ok is false for actions a page cannot give in one
// command (a purchase of several Reserve cards).
func inputOf(a wotrush.Action) (companion.Input, bool) {
	switch a := a.(type) {
	case wotrush.EndTurn:
		return page(a.Seat, "next"), true
	case wotrush.PlayCard:
		if a.Skip {
			return page(a.Seat, "defend_only", a.Card), true
		}
		return page(a.Seat, "play", a.Card), true
	case wotrush.Buy:
		if len(a.Cards) != 1 {
			return companion.Input{}, false
		}
		return page(a.Seat, "buy", slices.Concat(a.Cards, a.Pay)...), true
	case wotrush.Attack:
		return page(a.Seat, "attack", a.Cards...), true
	case wotrush.Fire:
		return page(a.Seat, "fire", a.Attacker, a.Target), true
	case wotrush.Defend:
		return page(a.Seat, "defend", a.Base), true
	case wotrush.Siege:
		return page(a.Seat, "siege", a.Target), true
	case wotrush.Research:
		if a.Take == "" {
			return page(a.Seat, "research"), true
		}
		return page(a.Seat, "research", a.Take), true
	case wotrush.Dismantle:
		return page(a.Seat, "dismantle", a.Cards...), true
	case wotrush.Discard:
		return page(a.Seat, "discard", a.Card), true
	case wotrush.TakeMedals:
		return page(a.Seat, "medals", fmt.Sprint(a.Doubles)), true
	}
	return companion.Input{}, false
}

// score ranks actions so that random games end: attacks and abilities
// first, purchases by cost, the turn's end last.
func score(s wotrush.State, a wotrush.Action) int {
	switch a := a.(type) {
	case wotrush.Fire:
		if s.Cards[a.Target].Kind == wotrush.KindBase {
			return 80
		}
		return 75
	case wotrush.Attack:
		return 70 + len(a.Cards)
	case wotrush.PlayCard:
		if a.Skip {
			return 1
		}
		return 60
	case wotrush.Buy:
		return 20 + 3*s.Cards[a.Cards[0]].Cost - len(a.Pay)
	case wotrush.EndTurn:
		return 0
	}
	return 5
}

// noise is an input a table also sees: the table's confirm key, or a
// wrong answer from the seat the game waits for (refused, with a reason
// every viewer reads).
func noise(s wotrush.State, r *rng) companion.Input {
	w := waiting(s)
	base := fmt.Sprintf("BASE-%d-1", 1+r.intn(len(s.Players)))
	switch r.intn(3) {
	case 0:
		return press("", "confirm")
	case 1:
		if pd := s.Pending; pd != nil {
			return page(w, pd.Kind, base)
		}
		return page(w, "play", base)
	}
	return page(w, "play", s.Players[r.intn(len(s.Players))].Magazine...)
}

// game is a random game played through the binder: its inputs and the
// referee's state after each.
type game struct {
	seed   uint64
	setup  wotrush.Setup
	dealt  dealt
	start  wotrush.State
	inputs []companion.Input
	states []wotrush.State
}

// randomGame plays a seeded random game of 2–5 players (options drawn too)
// to its end or to max inputs.
func randomGame(t testing.TB, seed uint64, max int) game {
	t.Helper()
	r := rng(seed)
	setup := wotrush.Setup{Players: players(2 + r.intn(4)), First: 1, Seed: seed*7919 + 1}
	setup.First = 1 + r.intn(len(setup.Players))
	if r.intn(2) == 1 {
		setup.Options = wotrush.Options{Medals: "choose", SabotageChooser: "active", OddMedal: "double", DefendersInSquad: r.intn(2) == 1, HeavySiege: r.intn(2) == 1, TurnDoubles: r.intn(2) == 1}
	}
	first := open(t, setup)
	gm := game{seed: seed, setup: setup, dealt: dealOf(first.State())}
	g := open(t, pinned(setup, gm.dealt))
	gm.start = g.State()
	for len(gm.inputs) < max && g.State().Phase == wotrush.PhasePlay {
		s := g.State()
		var in companion.Input
		if r.intn(20) == 0 {
			in = noise(s, &r)
		} else {
			var acts []wotrush.Action
			for _, a := range wotrush.LegalActions(s) {
				if _, ok := inputOf(a); ok {
					acts = append(acts, a)
				}
			}
			if len(acts) == 0 {
				t.Fatalf("game %d: no legal action a page can give", seed)
			}
			pick := acts[r.intn(len(acts))]
			if r.intn(10) < 7 {
				best := -1
				for _, a := range acts {
					if sc := score(s, a); sc > best {
						best, pick = sc, a
					}
				}
			}
			in, _ = inputOf(pick)
		}
		tabletest.Feed(t, g, in)
		gm.inputs = append(gm.inputs, in)
		gm.states = append(gm.states, g.State())
	}
	return gm
}

// untouched is how many cards at the bottom of a pile never moved from
// start to the end of the game (0 once the pile was shuffled anew): the
// cards nobody saw, whose order no input decides.
func untouched(start, end []string) int {
	k := 0
	for k < len(start) && k < len(end) && start[len(start)-1-k] == end[len(end)-1-k] {
		k++
	}
	return k
}

// rotate turns the last k cards of pile by one (an order that differs for
// k ≥ 2).
func rotate(pile []string, k int) []string {
	out := slices.Clone(pile)
	if k >= 2 {
		tail := out[len(out)-k:]
		first := tail[0]
		copy(tail, tail[1:])
		tail[len(tail)-1] = first
	}
	return out
}

// before is the state before input x.
func (gm game) before(x int) wotrush.State {
	if x == 0 {
		return gm.start
	}
	return gm.states[x-1]
}

// deckCut is the first input that shuffles the discards into a new deck
// (its cards come to the Reserve, face up) or, with low, leaves fewer than
// a third of the deck undrawn; else the number of inputs.
func (gm game) deckCut(low bool) int {
	for x, s := range gm.states {
		if len(s.Deck) > len(gm.before(x).Deck) || low && 3*len(s.Deck) < len(gm.start.Deck) {
			return x
		}
	}
	return len(gm.inputs)
}

// garageOf is the size of seat's Garage.
func garageOf(s wotrush.State, seat int) int { return len(s.Player(seat).Garage) }

// tailsTwin: the cards of the deck and of each Garage that nobody drew or
// scanned in the first cut inputs (before the deck is shuffled anew; with
// low, while two thirds of it at most are drawn) lie in another order. It
// returns the twin's deal, cut and how many cards changed places.
func (gm game) tailsTwin(low bool) (dealt, int, int) {
	d := gm.dealt.clone()
	cut := gm.deckCut(low)
	end := gm.before(cut)
	k := untouched(gm.start.Deck, end.Deck)
	d.deck = rotate(d.deck, k)
	changed := k
	for i, g := range d.garages {
		seat := g.Seat
		grew := false
		for x := 0; x < cut; x++ {
			grew = grew || garageOf(gm.states[x], seat) > garageOf(gm.before(x), seat)
		}
		if grew {
			continue
		}
		k := untouched(gm.start.Player(seat).Garage, end.Player(seat).Garage)
		d.garages[i].Cards = rotate(g.Cards, k)
		changed += k
	}
	return d, cut, changed
}

// seedCut is how far two worlds dealt alike but with different seeds look
// the same to viewer: every Garage shuffled anew lies in another order,
// so up to the first input that makes one of its cards visible to them —
// for the seat itself the shuffle's draw, for everyone else that seat's
// turn (the hand laid face up), a Sabotage answer aimed at that seat or
// the game's end (every hand shown) — or that shuffles the deck anew (its
// cards come to the Reserve).
func (gm game) seedCut(viewer companion.Viewer) int {
	cut := gm.deckCut(false)
	for _, p := range gm.start.Players {
		seat := p.Seat
		shuffled := false
		for x := 0; x < cut; x++ {
			s := gm.states[x]
			if garageOf(s, seat) > garageOf(gm.before(x), seat) {
				shuffled = true
				if viewer.Role == companion.RolePlayer && viewer.Seat == seat {
					cut = x
					break
				}
			}
			pd := gm.before(x).Pending
			if shuffled && (s.Active == seat || s.Phase != wotrush.PhasePlay || pd != nil && pd.Kind == wotrush.DecideDiscard && pd.Victim == seat) {
				cut = x
				break
			}
		}
	}
	return cut
}

// handCut is how far a twin where seat holds another card of their
// Garage in the starting hand looks the same to the others: up to their
// first turn (the hand laid face up), a Sabotage answer aimed at them or
// the game's end.
func (gm game) handCut(seat int) int {
	for x, s := range gm.states {
		pd := gm.before(x).Pending
		if s.Active == seat || s.Phase != wotrush.PhasePlay || pd != nil && pd.Kind == wotrush.DecideDiscard && pd.Victim == seat {
			return x
		}
	}
	return len(gm.inputs)
}

// checkToEnd checks the tails twin over the whole game when the game
// ended without its deck shuffled anew and some undrawn cards can change
// places; it reports whether it could.
func (gm game) checkToEnd(t *testing.T, name string, i int) bool {
	t.Helper()
	d, cut, k := gm.tailsTwin(false)
	if cut != len(gm.inputs) || k < 2 || gm.states[cut-1].Phase != wotrush.PhaseOver {
		return false
	}
	for _, v := range watchers(gm.start, 0, i+2) {
		check(t, name+", tails to the end", v, pinned(gm.setup, gm.dealt), pinned(gm.setup, d), gm.inputs)
	}
	return true
}

// watchers are who a pair is checked for: the public and, in the short
// run, one seat (another each game), with SZTAB_FULL=1 every seat; never
// skip, the seat the twin differs for.
func watchers(s wotrush.State, skip, game int) []companion.Viewer {
	out := []companion.Viewer{companion.Public}
	var seats []companion.Viewer
	for _, p := range s.Players {
		if p.Seat != skip {
			seats = append(seats, companion.Viewer{Role: companion.RolePlayer, Seat: p.Seat})
		}
	}
	if twoworlds.Games(1) > 1 {
		return append(out, seats...)
	}
	return append(out, seats[game%len(seats)])
}

func check(t *testing.T, name string, v companion.Viewer, a, b wotrush.Setup, inputs []companion.Input) {
	t.Helper()
	twoworlds.Check(t, twoworlds.Pair{Name: name, Viewer: v,
		A: twoworlds.World{Game: open(t, a), Inputs: inputs},
		B: twoworlds.World{Game: open(t, b), Inputs: inputs}})
}

// TestTwoWorlds plays seeded random games of 2–5 players (legal actions
// from the players' pages, now and then a refused one or the table's
// confirm key), each against three twins, for the public and the seats:
//   - tails: the deck's and the Garages' cards nobody drew lie in another
//     order, until the deck is shuffled anew (the whole game, its end
//     included, when it never is);
//   - seed: another seed, as long as no card a shuffle of it decides is
//     visible to the viewer;
//   - hand: a player other than the first holds another card of their
//     Garage in the starting hand, until it is laid face up (checked for
//     the others).
func TestTwoWorlds(t *testing.T) {
	n := twoworlds.Games(4)
	ended, tails, seeded, toEnd := 0, 0, 0, 0
	for i := 0; i < n; i++ {
		seed := uint64(28_000 + i)
		gm := randomGame(t, seed, 300)
		if gm.states[len(gm.states)-1].Phase == wotrush.PhaseOver {
			ended++
		}
		name := fmt.Sprintf("game seed %d (%d players, %d inputs; randomGame(t, %d, 300))", seed, len(gm.setup.Players), len(gm.inputs), seed)
		failed := t.Failed()
		a := pinned(gm.setup, gm.dealt)
		// tails: while a third of the deck is left, and to the end when
		// the deck is never shuffled anew
		d, cut, k := gm.tailsTwin(true)
		tails += k
		for _, v := range watchers(gm.start, 0, i) {
			check(t, fmt.Sprintf("%s, tails (%d inputs)", name, cut), v, a, pinned(gm.setup, d), gm.inputs[:cut])
		}
		if gm.checkToEnd(t, name, i) {
			toEnd++
		}
		// seed
		other := gm.setup
		other.Seed = gm.setup.Seed ^ 0x5eed
		for _, v := range watchers(gm.start, 0, i+1) {
			cut := gm.seedCut(v)
			seeded += cut
			check(t, fmt.Sprintf("%s, seed (%d inputs)", name, cut), v, a, pinned(other, gm.dealt), gm.inputs[:cut])
		}
		// hand: the next seat after the first
		j := gm.start.Players[(slices.IndexFunc(gm.start.Players, func(p wotrush.Player) bool { return p.Seat == gm.setup.First })+1)%len(gm.start.Players)].Seat
		h := gm.dealt.clone()
		cards := h.garages[slices.IndexFunc(h.garages, func(o wotrush.SeatOrder) bool { return o.Seat == j })].Cards
		hand := gm.start.Player(j).HandSize
		cards[hand-1], cards[len(cards)-1] = cards[len(cards)-1], cards[hand-1]
		for _, v := range watchers(gm.start, j, i) {
			check(t, fmt.Sprintf("%s, seat %d's hand", name, j), v, a, pinned(gm.setup, h), gm.inputs[:gm.handCut(j)])
		}
		if !failed && t.Failed() {
			t.Logf("the first failing game: seed %d", seed)
		}
	}
	// The end's view (every hand shown) is checked in at least one game:
	// the next seeds until one ends without its deck shuffled anew.
	for seed := uint64(28_500); toEnd == 0 && seed < 28_530; seed++ {
		gm := randomGame(t, seed, 300)
		if gm.checkToEnd(t, fmt.Sprintf("game seed %d (%d players, %d inputs)", seed, len(gm.setup.Players), len(gm.inputs)), int(seed)) {
			toEnd++
		}
	}
	t.Logf("%d random games, %d played to the end (%d compared to the end); tails twins reordered %d cards; seed twins compared %d inputs", n, ended, toEnd, tails, seeded)
	if toEnd == 0 {
		t.Errorf("no tails twin reached the game's end: the end's view is not tested")
	}
}

// sabotageReady is a two-player game (options o) on Ania's first turn
// with BT-7 (Sabotaż) in her hand, taken from the deck, and the same game
// where Bartek holds another card of his Garage: his hand, face down, is
// the difference.
func sabotageReady(t *testing.T, o wotrush.Options) (a, b *Game) {
	t.Helper()
	setup := wotrush.Setup{Players: players(2), First: 1, Seed: 1944, Options: o}
	d := dealOf(open(t, setup).State())
	h := d.clone()
	bartek := h.garages[1].Cards
	bartek[2], bartek[5] = bartek[5], bartek[2]
	a, b = open(t, pinned(setup, d)), open(t, pinned(setup, h))
	for _, g := range []*Game{a, b} {
		s := g.State()
		var raw wotrush.State
		js, _ := json.Marshal(s)
		json.Unmarshal(js, &raw)
		raw.Cards = s.Cards
		if !slices.Contains(raw.Deck, "SU-04") {
			t.Fatalf("BT-7 (SU-04) is not in the deck: %v", raw.Deck)
		}
		raw.Deck = slices.DeleteFunc(raw.Deck, func(id string) bool { return id == "SU-04" })
		raw.DeckSize = len(raw.Deck)
		p := raw.Player(1)
		p.Hand = append(p.Hand, "SU-04")
		p.HandSize = len(p.Hand)
		g.SetState(raw)
	}
	sa, sb := a.State(), b.State()
	if slices.Equal(sa.Player(2).Hand, sb.Player(2).Hand) {
		t.Fatal("the twins hold the same hand")
	}
	return a, b
}

// TestTwoWorldsLeaks are the leaks #28 found, each a pair of worlds a
// viewer told apart on main.
func TestTwoWorldsLeaks(t *testing.T) {
	t.Run("leak: seed and shuffles in the public state", func(t *testing.T) {
		// The demo's seed deals the game; its twin is dealt the same
		// cards in the same orders, given, with another seed.
		setup := wotrush.Setup{Players: players(2), First: 1, Seed: 1944}
		d := dealOf(open(t, setup).State())
		other := setup
		other.Seed = 7
		in := []companion.Input{scan("seat-1", "ENG-1-2"), page(1, "play", "ENG-1-2"), page(1, "next")}
		for _, v := range watchers(open(t, setup).State(), 0, 0) {
			twoworlds.Check(t, twoworlds.Pair{Name: "seed 1944 dealt by the seed, seed 7 dealt the same by given orders", Viewer: v,
				A: twoworlds.World{Game: open(t, setup), Inputs: in},
				B: twoworlds.World{Game: open(t, pinned(other, d)), Inputs: in}})
		}
	})
	t.Run("leak: the saboteur sees the victim's hand (sabotage_chooser active)", func(t *testing.T) {
		a, b := sabotageReady(t, wotrush.Options{SabotageChooser: "active"})
		// Ania plays BT-7; she picks Bartek's card blind: she draws it from
		// his face-down hand and scans it on her reader (a card both
		// worlds hold in his hand).
		sa := a.State()
		picked := sa.Player(2).Hand[0]
		in := []companion.Input{page(1, "play", "SU-04"), scan("seat-1", picked)}
		twoworlds.Check(t, twoworlds.Pair{Name: "Bartek's hand", Viewer: companion.Viewer{Role: companion.RolePlayer, Seat: 1},
			A: twoworlds.World{Game: a, Inputs: in}, B: twoworlds.World{Game: b, Inputs: in}})
	})
	t.Run("leak: a refused Sabotage answer lists the victim's hand", func(t *testing.T) {
		// Found by this harness: while Bartek chooses what to discard, the
		// table's confirm key and a wrong card from his page are refused
		// in front of everyone, and the refusal listed his hand.
		for _, o := range []wotrush.Options{{}, {SabotageChooser: "active"}} {
			a, b := sabotageReady(t, o)
			chooser := 2
			if o.SabotageChooser == "active" {
				chooser = 1
			}
			in := []companion.Input{page(1, "play", "SU-04"), press("", "confirm"), page(chooser, "discard", "BASE-2-1"), page(chooser, "discard", "BASE-1-1")}
			twoworlds.Check(t, twoworlds.Pair{Name: "Bartek's hand, chooser " + o.SabotageChooser, Viewer: companion.Public,
				A: twoworlds.World{Game: a, Inputs: in}, B: twoworlds.World{Game: b, Inputs: in}})
		}
	})
}

// TestTwoWorldsDemo runs the demo table on two real daemons: the demo's
// config dealt by its seed as given orders, and its twin where the cards
// of the deck and of each Garage that the demo never draws lie in another
// order. A public MQTT client and the public screen see the same.
func TestTwoWorldsDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("two real daemons")
	}
	// The demo's game, played through the binder: which cards it never
	// touches.
	setup := wotrush.Setup{Players: players(2), First: 1, Seed: 1944}
	d := dealOf(testGame(t).State())
	g := open(t, pinned(setup, d))
	gm := game{setup: setup, dealt: d, start: g.State()}
	for _, st := range demo {
		var in companion.Input
		switch {
		case st.Say != "" || st.Card == tabletest.UnknownCard:
			continue
		case st.Reader != "":
			in = scan(st.Reader, st.Card)
		default:
			in = press(st.Keypad, st.Key, st.Args...)
		}
		tabletest.Feed(t, g, in)
		gm.inputs = append(gm.inputs, in)
		gm.states = append(gm.states, g.State())
	}
	twin, _, k := gm.tailsTwin(false)
	if k < 10 {
		t.Fatalf("only %d cards the demo never draws: the twin differs in too little", k)
	}
	config := func(name string, d dealt) *companion.Config {
		dir := t.TempDir()
		cfg := tabletest.DemoConfig(t, dir, "wot-rush.yaml", true)
		text, err := os.ReadFile(cfg.Path())
		if err != nil {
			t.Fatal(err)
		}
		y := string(text)
		y = strings.Replace(y, `listen: "127.0.0.1:1884"`, `listen: "127.0.0.1:0"`, 1)
		y = strings.Replace(y, `listen: "127.0.0.1:8080"`, `listen: "127.0.0.1:0"`, 1)
		order := func(ids []string) string { return "[" + strings.Join(ids, ", ") + "]" }
		y += "  deck: " + order(d.deck) + "\n  achievements: " + order(d.achs) + "\n  garages:\n"
		for _, g := range d.garages {
			y += fmt.Sprintf("    - {seat: %d, cards: %s}\n", g.Seat, order(g.Cards))
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := companion.ParseConfig(path, []byte(y))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	twoworlds.CheckDaemons(t, twoworlds.DaemonPair{Name: "the demo, never-drawn cards reordered", Spec: Spec,
		A: twoworlds.DaemonWorld{Config: config("wot-rush.yaml", d)},
		B: twoworlds.DaemonWorld{Config: config("wot-rush.yaml", twin)}})
}
