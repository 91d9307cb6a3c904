package bitwagame

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/internal/twoworlds"
	"github.com/sztab/sztab/rules/bitwa"
)

// Bitwa Warszawska hides both army decks (their order and the cards never
// drawn), each player's hand from the other army (and from the ally with
// ally_hands "hidden"), the seed the decks are shuffled from, and the card
// a player picks on their own reader or page until it is played (a pick
// put back stays the player's). Played and discarded cards, fights, the
// board and the counts of hands and decks are public. The twins below
// change only those hidden things; where the table's inputs reveal a card
// (it is played or discarded), both worlds hold it there.

// opened is the game of setup, its Start applied.
func opened(t testing.TB, setup bitwa.Setup) *Game {
	t.Helper()
	cat, err := bitwa.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	st, err := cat.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(st, nil)
	start, _ := g.Start()
	if _, commit, err := g.Apply(start); err != nil {
		t.Fatal(err)
	} else {
		commit()
	}
	return g
}

// decksOf are the army decks of an opened game, top first.
func decksOf(g *Game) map[string][]string {
	s := g.State()
	return map[string][]string{bitwa.WP: slices.Clone(s.Army(bitwa.WP).Deck), bitwa.ACz: slices.Clone(s.Army(bitwa.ACz).Deck)}
}

// twinPlayers are the players of an n-player random game.
func twinPlayers(n int) []bitwa.PlayerInfo {
	ps := []bitwa.PlayerInfo{{Seat: 1, Name: "Marysia", Army: bitwa.WP}, {Seat: 2, Name: "Janek", Army: bitwa.ACz}, {Seat: 3, Name: "Zuzia", Army: bitwa.WP}, {Seat: 4, Name: "Staś", Army: bitwa.ACz}}
	return ps[:n]
}

// step is one input of a random game, or a pick: the seat's card at
// index A (world A) or B (world B) of its hand scanned on its reader or
// named on its page, then put back.
type step struct {
	in   companion.Input
	pick *pick
}

type pick struct {
	seat int
	scan bool
	a, b int
}

// inputs turns a game's steps into one world's inputs: g is that world's
// game (played along, then spent); picks by a seat in other take index B.
func inputs(t testing.TB, g *Game, steps []step, other func(seat int) bool) []companion.Input {
	t.Helper()
	var out []companion.Input
	feedOne := func(in companion.Input) {
		if _, rej := feed(t, g, in); rej != nil {
			t.Fatalf("input %d (%+v): refused %s: %s", len(out), in.Key, rej.Code, rej.Reason.EN)
		}
		out = append(out, in)
	}
	for _, st := range steps {
		if st.pick == nil {
			feedOne(st.in)
			continue
		}
		p := st.pick
		s := g.State()
		hand := s.Player(p.seat).Hand
		i := p.a
		if other(p.seat) {
			i = p.b
		}
		card := hand[i%len(hand)]
		if p.scan {
			feedOne(scan(fmt.Sprintf("seat-%d", p.seat), card))
			feedOne(press(fmt.Sprintf("seat-%d", p.seat), "cancel"))
		} else {
			feedOne(page(p.seat, "select", card))
			feedOne(page(p.seat, "cancel"))
		}
	}
	return out
}

// inputFor is the table's input for a legal action: a page's command, a
// seat's button, the dice keypad or a card on a front's reader.
func inputFor(r *rand.Rand, s bitwa.State, a bitwa.Action) []companion.Input {
	one := func(in companion.Input) []companion.Input { return []companion.Input{in} }
	seatKeys := func(seat int) string { return fmt.Sprintf("seat-%d", seat) }
	switch a := a.(type) {
	case bitwa.PlayCard:
		if len(s.Cards[a.Card].Options()) <= 1 && r.IntN(2) == 0 {
			return one(scan("front-"+strings.ToLower(a.Front), a.Card))
		}
		return one(page(a.Seat, "play", a.Card, a.Front, strconv.Itoa(a.Choice+1)))
	case bitwa.Blockade:
		if a.Card != "" {
			return one(page(a.Seat, "blockade", a.Card, a.Marker, a.Place, a.Front))
		}
	case bitwa.Fight:
		return one(page(a.Seat, "fight", a.Card, a.Resource))
	case bitwa.Activate:
		return one(page(a.Seat, "activate", a.Card, a.Front, strconv.Itoa(a.Choice+1)))
	case bitwa.Pass:
		if r.IntN(2) == 0 {
			return one(press(seatKeys(a.Seat), "pass"))
		}
		return one(page(a.Seat, "pass"))
	case bitwa.Roll:
		if r.IntN(2) == 0 {
			var out []companion.Input
			for _, d := range a.Dice {
				out = append(out, press("", strconv.Itoa(d)))
			}
			return out
		}
	case bitwa.Confirm:
		if r.IntN(2) == 0 {
			k := "cancel"
			if a.Yes {
				k = "confirm"
			}
			return one(press(seatKeys(a.Seat), k))
		}
	}
	ans, ok := asCommand(a)
	if !ok {
		panic(fmt.Sprintf("no command for %T", a))
	}
	seat := s.Pending.Seat
	return one(page(seat, ans.Command, ans.Args...))
}

// kinds groups legal actions by type, so that a random game does not
// mostly lay blockades (there are thirty a card).
func byKind(acts []bitwa.Action) [][]bitwa.Action {
	var keys []string
	m := map[string][]bitwa.Action{}
	for _, a := range acts {
		k := a.Type()
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
		m[k] = append(m[k], a)
	}
	out := make([][]bitwa.Action, 0, len(keys))
	for _, k := range keys {
		out = append(out, m[k])
	}
	return out
}

// randomGame plays a random legal game of setup through the binder and
// returns its steps, with picks put back now and then, and the game.
func randomGame(t testing.TB, r *rand.Rand, setup bitwa.Setup, maxInputs int) ([]step, *Game) {
	t.Helper()
	g := opened(t, setup)
	var steps []step
	for n := 0; n < maxInputs; n++ {
		s := g.State()
		if s.Phase == bitwa.PhaseOver {
			break
		}
		if s.Pending == nil && s.Selected == nil && s.Stage == bitwa.StageMilitary && s.Active != 0 && len(s.Player(s.Active).Hand) > 0 && r.IntN(4) == 0 {
			p := &pick{seat: s.Active, scan: r.IntN(2) == 0, a: r.IntN(8), b: r.IntN(8)}
			hand := s.Player(p.seat).Hand
			card := hand[p.a%len(hand)]
			in := []companion.Input{page(p.seat, "select", card), page(p.seat, "cancel")}
			if p.scan {
				in = []companion.Input{scan(fmt.Sprintf("seat-%d", p.seat), card), press(fmt.Sprintf("seat-%d", p.seat), "cancel")}
			}
			feedAll(t, g, in...)
			steps = append(steps, step{pick: p})
			continue
		}
		kinds := byKind(bitwa.LegalActions(s))
		if len(kinds) == 0 {
			t.Fatalf("no legal action (pending %+v)", s.Pending)
		}
		kind := kinds[r.IntN(len(kinds))]
		for _, in := range inputFor(r, s, kind[r.IntN(len(kind))]) {
			if _, rej := feed(t, g, in); rej != nil {
				t.Fatalf("input %d: %+v %v refused: %s %s", len(steps), in.Key, in.Args, rej.Code, rej.Reason.EN)
			}
			steps = append(steps, step{in: in})
		}
	}
	return steps, g
}

// sees reports whether viewer sees the hand of the player at seat.
func sees(s bitwa.State, viewer companion.Viewer, seat int) bool {
	switch viewer.Role {
	case companion.RoleReferee:
		return true
	case companion.RolePlayer:
		me, p := s.Player(viewer.Seat), s.Player(seat)
		return me != nil && p != nil && (me.Seat == p.Seat || (me.Army == p.Army && s.Options.AllyHands == "visible"))
	}
	return false
}

// twinDecks shuffles, in each army's deck, the cards viewer never sees in
// the game that ended in final: those never drawn and those drawn into a
// hand viewer does not see that never left it.
func twinDecks(r *rand.Rand, decks map[string][]string, final bitwa.State, viewer companion.Viewer) map[string][]string {
	hidden := map[string]bool{}
	for _, ar := range bitwa.Armies {
		for _, c := range final.Army(ar).Deck {
			hidden[c] = true
		}
	}
	for _, p := range final.Players {
		if !sees(final, viewer, p.Seat) {
			for _, c := range p.Hand {
				hidden[c] = true
			}
		}
	}
	out := map[string][]string{}
	for ar, d := range decks {
		d = slices.Clone(d)
		var at []int
		for i, c := range d {
			if hidden[c] {
				at = append(at, i)
			}
		}
		perm := r.Perm(len(at))
		cards := make([]string, len(at))
		for i, j := range perm {
			cards[i] = d[at[j]]
		}
		for i, pos := range at {
			d[pos] = cards[i]
		}
		out[ar] = d
	}
	return out
}

// randomOptions are a game's options: the defaults, or every other choice.
func randomOptions(r *rand.Rand) bitwa.Options {
	if r.IntN(2) == 0 {
		return bitwa.Options{}
	}
	return bitwa.Options{StartUnits: "reserve", BonusHigh: "none", FundsTie: "nothing", SweepVP: 3, AdjacentMoves: true,
		StrengthWhen: "play", Removed: "out", AllyHands: "hidden", DeckOutAll: true}
}

// TestTwoWorldsRandomGames plays random legal games, each as pairs of
// worlds differing only in what a viewer may not see: for the public, the
// seed, both decks' hidden cards, every hand and every pick put back; for
// each seat, the same but its own hand, its ally's (ally_hands
// "visible") and its own picks. The viewer must not tell them apart.
// SZTAB_TWOWORLDS_SEED replays one game.
func TestTwoWorldsRandomGames(t *testing.T) {
	games := twoworlds.Games(3)
	if testing.Short() {
		games = 2 // under qemu (scripts/test-arm64.sh)
	}
	base := uint64(20260501)
	if v := os.Getenv("SZTAB_TWOWORLDS_SEED"); v != "" {
		s, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		base, games = s, 1
	}
	for i := 0; i < games; i++ {
		seed := base + uint64(i)
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("replay: SZTAB_TWOWORLDS_SEED=%d go test ./companion/bitwagame -run TwoWorldsRandomGames", seed)
				}
			}()
			r := rand.New(rand.NewPCG(seed, 1944))
			n := 2 + int(seed%3)
			setup := bitwa.Setup{Players: twinPlayers(n), Options: randomOptions(r), Seed: r.Uint64()}
			steps, played := randomGame(t, r, setup, 400)
			final := played.State()
			t.Logf("%d players, %d steps, round %d, %s, %d picks", n, len(steps), final.Round, final.Phase, countPicks(steps))
			decks := decksOf(opened(t, setup))
			viewers := []companion.Viewer{companion.Public}
			for _, p := range setup.Players {
				viewers = append(viewers, companion.Viewer{Role: companion.RolePlayer, Seat: p.Seat})
			}
			for _, v := range viewers {
				twin := setup
				twin.Seed = r.Uint64()
				twin.Decks = twinDecks(r, decks, final, v)
				other := func(seat int) bool { return !sees(final, v, seat) }
				inA := inputs(t, opened(t, setup), steps, func(int) bool { return false })
				inB := inputs(t, opened(t, twin), steps, other)
				twoworlds.Check(t, twoworlds.Pair{Name: fmt.Sprintf("%d players, %d inputs", n, len(inA)), Viewer: v,
					A: twoworlds.World{Game: opened(t, setup), Inputs: inA},
					B: twoworlds.World{Game: opened(t, twin), Inputs: inB}})
			}
		})
	}
}

// The demo's opening: Marysia holds 7-dp, zielinski, 1-dj and
// omelianowicz-pawlenko and acts first; Janek holds kork, szuwajew, 8-ds
// and komintern (game_test.go).

// TestTwoWorldsLeaks are the leaks found in Bitwa's views and events, each
// a pair that told the worlds apart before its fix.
func TestTwoWorldsLeaks(t *testing.T) {
	seat := func(n int) companion.Viewer { return companion.Viewer{Role: companion.RolePlayer, Seat: n} }
	viewers := []companion.Viewer{companion.Public, seat(2)}
	t.Run("leak: the seed the decks are shuffled from", func(t *testing.T) {
		// The same decks, given in B, shuffled from another seed in A: the
		// seed rebuilt every deck and hand (sztab play --view referee).
		twin := demoSetup
		twin.Seed = 7
		twin.Decks = decksOf(opened(t, demoSetup))
		for _, v := range viewers {
			twoworlds.Check(t, twoworlds.Pair{Name: "seed 1920 or 7", Viewer: v,
				A: twoworlds.World{Game: opened(t, demoSetup), Inputs: opening},
				B: twoworlds.World{Game: opened(t, twin), Inputs: opening}})
		}
	})
	t.Run("leak: a card picked and put back", func(t *testing.T) {
		// Marysia picks a card on her reader (or page), puts it back and
		// plays 7-dp: which card she picked is hers.
		for _, v := range viewers {
			for _, how := range []string{"reader", "page"} {
				pickBack := func(card string) []companion.Input {
					in := slices.Clone(opening)
					if how == "reader" {
						in = append(in, scan("seat-1", card), press("seat-1", "cancel"))
					} else {
						in = append(in, page(1, "select", card), page(1, "cancel"))
					}
					in = append(in, scan("front-c", "7-dp"))
					feedAll(t, testGame(t), in...) // every input is taken
					return in
				}
				twoworlds.Check(t, twoworlds.Pair{Name: "zielinski or 1-dj put back, from the " + how, Viewer: v,
					A: twoworlds.World{Game: testGame(t), Inputs: pickBack("zielinski")},
					B: twoworlds.World{Game: testGame(t), Inputs: pickBack("1-dj")}})
			}
		}
	})
	t.Run("leak: a confirm with no front names the picked card", func(t *testing.T) {
		// A commander picked on the reader and confirmed on the seat's
		// button before a front is chosen: the refusal went to everyone.
		confirmNoFront := func(card string) []companion.Input {
			g := testGame(t)
			feedAll(t, g, append(slices.Clone(opening), scan("seat-1", card))...)
			if _, rej := feed(t, g, press("seat-1", "confirm")); rej == nil || rej.Code != "choose_front" {
				t.Fatalf("confirm with %s picked: %+v, want choose_front", card, rej)
			}
			return append(slices.Clone(opening), scan("seat-1", card), press("seat-1", "confirm"), press("seat-1", "cancel"), scan("front-c", "7-dp"))
		}
		for _, v := range viewers {
			twoworlds.Check(t, twoworlds.Pair{Name: "zielinski or omelianowicz-pawlenko", Viewer: v,
				A: twoworlds.World{Game: testGame(t), Inputs: confirmNoFront("zielinski")},
				B: twoworlds.World{Game: testGame(t), Inputs: confirmNoFront("omelianowicz-pawlenko")}})
		}
	})
	t.Run("leak: a refused pick names the card", func(t *testing.T) {
		// A card she does not hold, scanned on her reader or named on her
		// page: the refusal went to everyone with the card's name.
		for _, v := range viewers {
			for _, in := range []func(string) companion.Input{
				func(c string) companion.Input { return scan("seat-1", c) },
				func(c string) companion.Input { return page(1, "select", c) },
			} {
				notHeld := func(card string) []companion.Input {
					g := testGame(t)
					feedAll(t, g, opening...)
					if _, rej := feed(t, g, in(card)); rej == nil || rej.Code != "not_in_hand" {
						t.Fatalf("%s picked: %+v, want not_in_hand", card, rej)
					}
					return append(slices.Clone(opening), in(card), scan("front-c", "7-dp"))
				}
				twoworlds.Check(t, twoworlds.Pair{Name: "kork or pilsudski", Viewer: v,
					A: twoworlds.World{Game: testGame(t), Inputs: notHeld("kork")},
					B: twoworlds.World{Game: testGame(t), Inputs: notHeld("pilsudski")}})
			}
		}
	})
	t.Run("leak: the seed the daemon picks", func(t *testing.T) {
		// A config with both decks read at the table and no seed: each
		// daemon picks a seed of its own, which reached the public state.
		decks := decksOf(opened(t, demoSetup))
		A := demoTwin(t, "  seed: 1920\n", deckYAML(decks), nil)
		B := demoTwin(t, "  seed: 1920\n", deckYAML(decks), nil)
		twoworlds.CheckDaemons(t, twoworlds.DaemonPair{Name: "two daemons' own seeds", Spec: Spec, A: A, B: B})
	})
}

// deckYAML is the config's decks section.
func deckYAML(decks map[string][]string) string {
	return fmt.Sprintf("  decks:\n    wp: [%s]\n    acz: [%s]\n", strings.Join(decks[bitwa.WP], ", "), strings.Join(decks[bitwa.ACz], ", "))
}

// demoTwin is the demo table in a directory of its own, with old replaced
// by new in its config, and then given inputs.
func demoTwin(t *testing.T, old, new string, in []companion.Input) twoworlds.DaemonWorld {
	t.Helper()
	return twoworlds.DaemonWorld{Config: tabletest.DemoConfigEdited(t, t.TempDir(), "bitwa-warszawska.yaml", true, old, new), Inputs: in}
}

// TestTwoWorldsDemo runs the demo on two real daemons: the demo's config,
// and a twin with another seed and both decks given, the same cards where
// the demo plays them and the rest in another order. After the script,
// Marysia picks the first card of her round-2 hand (different in the two
// worlds) on her reader and puts it back. The public MQTT client and
// /stream must not tell them apart.
func TestTwoWorldsDemo(t *testing.T) {
	decks := decksOf(testGame(t))
	twin := map[string][]string{}
	for ar, d := range decks {
		// Each army plays its first four cards in the demo; the rest are
		// drawn for round 2 or never.
		tail := slices.Clone(d[4:])
		slices.Reverse(tail)
		twin[ar] = append(slices.Clone(d[:4]), tail...)
	}
	// The pick: the first card of Marysia's round-2 hand in each world,
	// checked to be hers on a scratch game.
	cs := demoCards(t)
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	pickBack := func(setup bitwa.Setup, card string) []companion.Input {
		g := opened(t, setup)
		session := tabletest.Session{Steps: demo, Press: press, UID: func(card string) string { return uidOf(ids, card) }}
		session.Play(t, g, "")
		feedAll(t, g, scan("seat-1", card), press("seat-1", "cancel"))
		tag := func(present bool) companion.Input {
			return companion.Input{Tag: &hardware.TagEvent{Reader: "seat-1", UID: uidOf(ids, card), Present: present}}
		}
		return []companion.Input{tag(true), tag(false), press("seat-1", "cancel")}
	}
	twinSetup := demoSetup
	twinSetup.Seed, twinSetup.Decks = 7, twin
	if decks[bitwa.WP][4] == twin[bitwa.WP][4] {
		t.Fatal("the twin's round-2 hand starts with the same card")
	}
	A := demoTwin(t, "  seed: 1920\n", "  seed: 1920\n", pickBack(demoSetup, decks[bitwa.WP][4]))
	B := demoTwin(t, "  seed: 1920\n", "  seed: 7\n"+deckYAML(twin), pickBack(twinSetup, twin[bitwa.WP][4]))
	twoworlds.CheckDaemons(t, twoworlds.DaemonPair{Name: "the demo and its twin", Spec: Spec, A: A, B: B})
}

func countPicks(steps []step) int {
	n := 0
	for _, s := range steps {
		if s.pick != nil {
			n++
		}
	}
	return n
}
