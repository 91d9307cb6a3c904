package west1920game

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/internal/twoworlds"
	"github.com/sztab/sztab/rules/west1920"
)

// What How the West was Saved hides (3.1, 3.2): the event cards in each
// hand (from everyone but their holder and the referee) and the deck's
// order (from everyone but the referee; with deck: virtual, the seed that
// deals it). A card is public once played. Whether a drawn card is a
// single-instruction card is public by the rules: the play order changes
// (3.2), so a twin keeps it.

// tableInput is one input of a world and the engine action the binder made of it.
type tableInput struct {
	in  companion.Input
	act west1920.Action
}

// inputFor is the command a player (their own page) or the referee (rolls,
// the table's dice) gives for a.
func inputFor(a west1920.Action) (companion.Input, bool) {
	hexes := func(hs []west1920.Hex) []string {
		out := make([]string, len(hs))
		for i, h := range hs {
			out[i] = string(h)
		}
		return out
	}
	withFacing := func(args []string, f string) []string {
		if f != "" {
			args = append(args, f)
		}
		return args
	}
	bonuses := func(bs []west1920.Bonus) []string {
		var out []string
		for _, b := range bs {
			out = append(out, fmt.Sprintf("%d@%s", b.Card, b.Hex))
		}
		return out
	}
	switch a := a.(type) {
	case west1920.DrawCard:
		return page(SeatOf(a.Side), "draw", strconv.Itoa(a.Card)), true
	case west1920.PlayCard:
		return page(SeatOf(a.Side), "play", strconv.Itoa(a.Card)), true
	case west1920.Roll:
		args := make([]string, len(a.Dice))
		for i, d := range a.Dice {
			args[i] = strconv.Itoa(d)
		}
		return page(0, "roll", args...), true
	case west1920.Pass:
		return page(SeatOf(a.Side), "pass"), true
	case west1920.BuildDepot:
		return page(SeatOf(a.Side), "depot", string(a.Hex)), true
	case west1920.RemoveDepot:
		return page(SeatOf(a.Side), "remove_depot", string(a.Hex)), true
	case west1920.AssignChit:
		return page(SeatOf(a.Side), "chit", string(a.Hex)), true
	case west1920.DiscardChit:
		return page(SeatOf(a.Side), "discard", string(a.Hex)), true
	case west1920.Order:
		if len(a.Path) == 0 {
			if a.Facing == "" {
				return companion.Input{}, false
			}
			return page(SeatOf(a.Side), "turn", string(a.Hex), a.Facing), true
		}
		return page(SeatOf(a.Side), "move", withFacing([]string{string(a.Hex), string(a.Path[len(a.Path)-1])}, a.Facing)...), true
	case west1920.MoveHQ:
		return page(SeatOf(a.Side), "hq", a.HQ, string(a.Path[len(a.Path)-1])), true
	case west1920.Withdraw:
		return page(SeatOf(a.Side), "move", withFacing([]string{string(a.Hex), string(a.Path[len(a.Path)-1])}, a.Facing)...), true
	case west1920.Attack:
		args := []string{string(a.From), string(a.Target)}
		if a.Support != "" {
			args = append(args, string(a.Support))
		} else if len(a.Bonuses) > 0 {
			args = append(args, "-")
		}
		return page(SeatOf(a.Side), "attack", append(args, bonuses(a.Bonuses)...)...), true
	case west1920.CardBonus:
		return page(SeatOf(a.Side), "card_bonus", bonuses(a.Bonuses)...), true
	case west1920.Losses:
		return page(SeatOf(a.Side), "losses", a.Units...), true
	case west1920.Retreat:
		args := withFacing(hexes(a.Path), a.Facing)
		if len(a.Eliminate) > 0 {
			args = append(append(args, "eliminate"), a.Eliminate...)
		}
		return page(SeatOf(a.Side), "retreat", args...), true
	case west1920.Pursue:
		args := slices.Clone(a.Units)
		for _, f := range a.Further {
			args = append(args, f.Unit+"@"+string(f.Hex))
		}
		return page(SeatOf(a.Side), "pursue", args...), true
	case west1920.Replace:
		return page(SeatOf(a.Side), "replace", a.Unit), true
	case west1920.StrategicMove:
		return page(SeatOf(a.Side), "strategic", withFacing([]string{a.Unit, string(a.Path[len(a.Path)-1])}, a.Facing)...), true
	case west1920.Place:
		return page(SeatOf(a.Side), "place", withFacing([]string{a.Unit, string(a.Hex)}, a.Facing)...), true
	case west1920.Choose:
		return page(SeatOf(a.Side), "choose", a.Targets...), true
	}
	return companion.Input{}, false
}

// takes binds in on g and reports the one engine action it becomes, when
// the engine accepts it (g's state does not change).
func takes(g *Game, in companion.Input) (west1920.Action, bool) {
	acts, notices := g.Bind(in)
	if len(notices) > 0 || len(acts) != 1 {
		return nil, false
	}
	if _, _, err := g.Apply(acts[0]); err != nil {
		return nil, false
	}
	return engineAction(acts[0]), true
}

// randomGame plays up to max inputs of a random legal game on a new table
// (the seeded bot passes with probability passP when it may) and returns
// them with the actions they became.
func randomGame(t testing.TB, seed uint64, max int, passP float64) []tableInput {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x7477))
	g := testGame(t, false)
	var steps []tableInput
	for len(steps) < max && g.State().Phase != west1920.PhaseOver {
		s := g.State()
		if rng.Float64() < passP || s.Phase == west1920.PhaseStrategic {
			// A pass where one is taken (listing the strategic moves is
			// slow: the bot passes them).
			in := page(SeatOf(waiting(s)), "pass")
			if took, ok := takes(g, in); ok {
				must(t, g, in)
				steps = append(steps, tableInput{in: in, act: took})
				continue
			}
		}
		legal := west1920.LegalActions(s)
		rng.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
		var st *tableInput
		for _, a := range legal {
			in, ok := inputFor(a)
			if !ok {
				continue
			}
			if took, ok := takes(g, in); ok {
				st = &tableInput{in: in, act: took}
				break
			}
		}
		if st == nil {
			t.Fatalf("seed %d: no legal action reaches the engine through the binder (stage %d %s, pending %+v)", seed, s.Stage, s.Phase, s.Pending)
		}
		must(t, g, st.in)
		steps = append(steps, *st)
	}
	return steps
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// twin is the inputs of a world that differs from steps only in the cards
// the sides hidden from the viewer drew and never played: each such card
// is swapped for one drawn by nobody in steps, of the same kind (single
// instruction or not, public by 3.2's play order). The draws are the
// drawing player's own page commands, which only they and the referee see.
// It reports false when there is no card to swap.
func twin(steps []tableInput, hidden func(side string) bool, rng *rand.Rand, cards []int) ([]companion.Input, bool) {
	drawn, played := map[int]string{}, map[int]bool{}
	for _, st := range steps {
		switch a := st.act.(type) {
		case west1920.DrawCard:
			drawn[a.Card] = a.Side
		case west1920.PlayCard:
			played[a.Card] = true
		}
	}
	var free []int
	for _, c := range cards {
		if _, ok := drawn[c]; !ok {
			free = append(free, c)
		}
	}
	rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	single := func(c int) bool { return slices.Contains(west1920.SingleCards, c) }
	swap := map[int]int{}
	for _, st := range steps {
		a, ok := st.act.(west1920.DrawCard)
		if !ok || played[a.Card] || !hidden(a.Side) {
			continue
		}
		for i, c := range free {
			if single(c) == single(a.Card) {
				swap[a.Card] = c
				free = slices.Delete(free, i, i+1)
				break
			}
		}
	}
	out := make([]companion.Input, len(steps))
	for i, st := range steps {
		out[i] = st.in
		if a, ok := st.act.(west1920.DrawCard); ok {
			if c, ok := swap[a.Card]; ok {
				out[i] = page(SeatOf(a.Side), "draw", strconv.Itoa(c))
			}
		}
	}
	return out, len(swap) > 0
}

func inputsOf(steps []tableInput) []companion.Input {
	out := make([]companion.Input, len(steps))
	for i, st := range steps {
		out[i] = st.in
	}
	return out
}

func cardNumbers(g *Game) []int {
	var ids []int
	for id := range g.State().Catalogue().Cards {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// viewers are the public screen and each seat, with the sides whose
// secrets each may not see.
var viewers = []struct {
	name   string
	viewer companion.Viewer
	hidden func(side string) bool
}{
	{"public", companion.Public, func(string) bool { return true }},
	{"polish seat", companion.Viewer{Role: companion.RolePlayer, Seat: PolishSeat}, func(s string) bool { return s == west1920.Russian }},
	{"russian seat", companion.Viewer{Role: companion.RolePlayer, Seat: RussianSeat}, func(s string) bool { return s == west1920.Polish }},
}

// Random legal games, each played twice differing only in the cards held
// and never played (and so in the deck's order past the cards drawn): the
// public screen cannot tell the worlds apart, nor can a seat when only the
// other side's cards differ.
func TestTwoWorldsRandomGames(t *testing.T) {
	base := uint64(1920)
	if s := os.Getenv("SZTAB_SEED"); s != "" {
		base, _ = strconv.ParseUint(s, 10, 64)
	}
	n := twoworlds.Games(3)
	for i := range n {
		seed := base + uint64(i)
		steps := randomGame(t, seed, 140, 0.6)
		cards := cardNumbers(testGame(t, false))
		last := stateAfter(t, inputsOf(steps))
		t.Logf("seed %d: %d inputs, to stage %d %s", seed, len(steps), last.Stage, last.Phase)
		for _, v := range viewers {
			rng := rand.New(rand.NewPCG(seed, 2))
			b, ok := twin(steps, v.hidden, rng, cards)
			if !ok {
				t.Logf("seed %d: no hidden card for the %s", seed, v.name)
				continue
			}
			f := &seedT{TB: t, seed: seed}
			twoworlds.Check(f, twoworlds.Pair{Name: fmt.Sprintf("seed %d, %s", seed, v.name), Viewer: v.viewer,
				A: twoworlds.World{Game: testGame(t, false), Inputs: inputsOf(steps)},
				B: twoworlds.World{Game: testGame(t, false), Inputs: b}})
		}
	}
}

// seedT names the seed (SZTAB_SEED reproduces it) in a failure.
type seedT struct {
	testing.TB
	seed uint64
}

func (s *seedT) Errorf(f string, a ...any) {
	s.TB.Helper()
	s.TB.Errorf("SZTAB_SEED=%d: "+f, append([]any{s.seed}, a...)...)
}

func (s *seedT) Fatalf(f string, a ...any) {
	s.TB.Helper()
	s.TB.Fatalf("SZTAB_SEED=%d: "+f, append([]any{s.seed}, a...)...)
}

// scripted plays a game by a policy: pick chooses an action among the
// legal ones (nil: the first pass, else a random one from rng) until done.
func scripted(t testing.TB, rng *rand.Rand, pick func(s west1920.State, legal []west1920.Action) west1920.Action, done func(s west1920.State) bool) []tableInput {
	t.Helper()
	g := testGame(t, false)
	var steps []tableInput
	for !done(g.State()) {
		s := g.State()
		if len(steps) > 400 || s.Phase == west1920.PhaseOver {
			t.Fatalf("stuck in stage %d %s, pending %+v", s.Stage, s.Phase, s.Pending)
		}
		legal := west1920.LegalActions(s)
		rng.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
		var cands []west1920.Action
		if a := pick(s, legal); a != nil {
			cands = []west1920.Action{a}
		} else {
			slices.SortStableFunc(legal, func(a, b west1920.Action) int {
				return boolInt(b.Type() == "pass") - boolInt(a.Type() == "pass")
			})
			cands = legal
		}
		var st *tableInput
		for _, a := range cands {
			if in, ok := inputFor(a); ok {
				if took, ok := takes(g, in); ok {
					st = &tableInput{in: in, act: took}
					break
				}
			}
		}
		if st == nil {
			t.Fatalf("no action for stage %d %s, pending %+v", s.Stage, s.Phase, s.Pending)
		}
		must(t, g, st.in)
		steps = append(steps, *st)
	}
	return steps
}

// drawing returns a pick that makes side draw card c in stage stage, and
// otherwise draws and plays cards that are not single-instruction cards.
func drawing(side string, stage, c int) func(west1920.State, []west1920.Action) west1920.Action {
	return func(s west1920.State, legal []west1920.Action) west1920.Action {
		if s.Phase != west1920.PhaseEvents || s.Pending != nil {
			return nil
		}
		for _, a := range legal {
			switch a := a.(type) {
			case west1920.DrawCard:
				if s.Stage == stage && a.Side == side {
					if a.Card == c {
						return a
					}
				} else if !slices.Contains(west1920.SingleCards, a.Card) {
					return a
				}
			case west1920.PlayCard:
				return a
			}
		}
		return nil
	}
}

// replace swaps the draw of card from by a draw of card to.
func replace(steps []tableInput, from, to int) []companion.Input {
	out := inputsOf(steps)
	for i, st := range steps {
		if a, ok := st.act.(west1920.DrawCard); ok && a.Card == from {
			out[i] = page(SeatOf(a.Side), "draw", strconv.Itoa(to))
		}
	}
	return out
}

func checkAll(t *testing.T, name string, a, b []companion.Input, only ...string) {
	t.Helper()
	for _, v := range viewers {
		if len(only) > 0 && !slices.Contains(only, v.name) {
			continue
		}
		twoworlds.Check(t, twoworlds.Pair{Name: name, Viewer: v.viewer,
			A: twoworlds.World{Game: testGame(t, false), Inputs: a},
			B: twoworlds.World{Game: testGame(t, false), Inputs: b}})
	}
}

// The leaks found on main (#28), each as the smallest pair of worlds.
func TestTwoWorldsLeaks(t *testing.T) {
	t.Run("leak: the public draw event names the card", func(t *testing.T) {
		// Stage 1: the Russians draw card 1 or card 5, the Poles card 3 or
		// card 6; nobody plays a card before stage 2.
		a := []companion.Input{page(2, "draw", "1"), page(1, "draw", "3"), page(0, "roll", "6", "3")}
		checkAll(t, "stage-1 draws", a, []companion.Input{page(2, "draw", "5"), page(1, "draw", "6"), page(0, "roll", "6", "3")}, "public")
		// Each seat: only the other side's card differs.
		checkAll(t, "the Russian card", a, []companion.Input{page(2, "draw", "5"), page(1, "draw", "3"), page(0, "roll", "6", "3")}, "polish seat")
		checkAll(t, "the Polish card", a, []companion.Input{page(2, "draw", "1"), page(1, "draw", "6"), page(0, "roll", "6", "3")}, "russian seat")
	})
	t.Run("leak: a single-instruction card drawn is named before it is played", func(t *testing.T) {
		// Stage 2: the Russians (first, 3.1) draw single card 2 or 4; that
		// it is a single card is public (the Poles now draw and play first,
		// 3.2), which one is not until it is played.
		rng := rand.New(rand.NewPCG(2, 2))
		steps := scripted(t, rng, drawing(west1920.Russian, 2, 2), func(s west1920.State) bool {
			r := s.Player(west1920.Russian)
			return s.Stage == 2 && slices.Contains(r.Hand, 2)
		})
		checkAll(t, "the Russians' single card", inputsOf(steps), replace(steps, 2, 4), "public", "polish seat")
	})
	t.Run("leak: a refused play names the single-instruction card in the hand", func(t *testing.T) {
		// Stage 2: the Russians hold single card 2 or 4 and, after the
		// Poles' card, try to play their other card: refused, card 2 (or 4)
		// must be played — which one is still the Russians' secret.
		rng := rand.New(rand.NewPCG(3, 2))
		steps := scripted(t, rng, drawing(west1920.Russian, 2, 2), func(s west1920.State) bool {
			r := s.Player(west1920.Russian)
			return s.Stage == 2 && slices.Contains(r.Hand, 2) && s.Player(west1920.Polish).Played != 0
		})
		s := stateAfter(t, inputsOf(steps))
		held := slices.DeleteFunc(slices.Clone(s.Player(west1920.Russian).Hand), func(c int) bool { return c == 2 })
		try := page(2, "play", strconv.Itoa(held[0]))
		checkAll(t, "the Russians' single card", append(inputsOf(steps), try), append(replace(steps, 2, 4), try), "public", "polish seat")
	})
}

func stateAfter(t testing.TB, ins []companion.Input) west1920.State {
	t.Helper()
	g := testGame(t, false)
	for _, in := range ins {
		must(t, g, in)
	}
	return g.State()
}

// A virtual deck's seed decides the cards dealt; two tables with different
// seeds look the same to the public while no card it dealt is played (the
// whole of stage 1: its cards are held).
func TestTwoWorldsVirtualDeckSeed(t *testing.T) {
	world := func(seed uint64) twoworlds.World {
		g := newVirtual(t, seed)
		var ins []companion.Input
		for _, st := range demo {
			switch {
			case st.Say != "" || st.Card == tabletest.UnknownCard:
			case st.Reader != "":
				ins = append(ins, page(SeatOf(ReaderSide(st.Reader)), "draw"))
			default:
				ins = append(ins, demoInput(st))
			}
		}
		return twoworlds.World{Game: g, Inputs: ins}
	}
	for _, v := range viewers[:1] {
		twoworlds.Check(t, twoworlds.Pair{Name: "virtual deck", Viewer: v.viewer, A: world(1920), B: world(77)})
	}
	t.Run("leak: the virtual dice come from the deck's seed", func(t *testing.T) {
		// The same table dice seed, other deck seeds: the virtual dice
		// (public) must not depend on the deck's seed, or they give it
		// (and so the deck's order) away.
		world := func(seed uint64) twoworlds.World {
			return twoworlds.World{Game: newVirtual(t, seed), Inputs: []companion.Input{
				page(2, "draw"), page(1, "draw"), page(0, "roll"), page(0, "roll"), page(0, "roll")}}
		}
		twoworlds.Check(t, twoworlds.Pair{Name: "virtual dice", Viewer: companion.Public, A: world(1920), B: world(77)})
	})
}

func newVirtual(t testing.TB, seed uint64) *Game {
	t.Helper()
	cat, err := west1920.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	start, err := cat.NewGame(west1920.Setup{})
	if err != nil {
		t.Fatal(err)
	}
	v := newGame(start, seed, 5, true)
	a, _ := v.Start()
	if _, commit, err := v.Apply(a); err != nil {
		t.Fatal(err)
	} else {
		commit()
	}
	return v
}

// The demo on two real daemons: the twin's script lays other cards on the
// seat readers in stage 1 (cards 5 and 6 for 1 and 3): what a public MQTT
// client and the public /stream receive is the same.
func TestTwoWorldsDemoDaemons(t *testing.T) {
	a := tabletest.DemoConfig(t, t.TempDir(), "west-1920.yaml", true)
	b := tabletest.DemoConfig(t, t.TempDir(), "west-1920.yaml", true)
	script, err := os.ReadFile(b.Resolve(b.Hardware.Simulated))
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, 40)
	for _, c := range demoCards(t) {
		ids = append(ids, c.ID)
	}
	text := string(script)
	for from, to := range map[int]int{1: 5, 3: 6} {
		u, v := uidOf(ids, CardID(from)), uidOf(ids, CardID(to))
		if !strings.Contains(text, u) {
			t.Fatalf("the demo script lays no card %d (%s)", from, u)
		}
		text = strings.ReplaceAll(text, `"uid": "`+u+`"`, `"uid": "`+v+`"`)
	}
	if err := os.WriteFile(b.Resolve(b.Hardware.Simulated), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	twoworlds.CheckDaemons(t, twoworlds.DaemonPair{Name: "the demo, other cards drawn", Spec: Spec,
		A: twoworlds.DaemonWorld{Config: a}, B: twoworlds.DaemonWorld{Config: b}})
}

// undo is the referee's take-back of the last action, with a reason.
func undo(reason string) companion.Input {
	in := page(0, companion.CmdUndo)
	in.Text = reason
	return in
}

// The referee's corrections on real daemons: taking back a draw tells the
// public which entry and that it was a draw, never the card.
func TestTwoWorldsUndoDaemons(t *testing.T) {
	t.Run("leak: the undo of a draw names the card", func(t *testing.T) {
		world := func(card string) twoworlds.DaemonWorld {
			return twoworlds.DaemonWorld{Config: tabletest.DemoConfig(t, t.TempDir(), "west-1920.yaml", false),
				Inputs: []companion.Input{page(2, "draw", card), undo("zła karta")}}
		}
		twoworlds.CheckDaemons(t, twoworlds.DaemonPair{Name: "an undone draw", Spec: Spec, A: world("1"), B: world("5")})
	})
	t.Run("leak: the correction of a draw names the cards", func(t *testing.T) {
		world := func(card, fixed string) twoworlds.DaemonWorld {
			fix := page(0, companion.CmdCorrect, "2")
			fix.Text, fix.Action = "inna karta", []byte(`{"type":"draw_card","side":"russian","card":`+fixed+`}`)
			return twoworlds.DaemonWorld{Config: tabletest.DemoConfig(t, t.TempDir(), "west-1920.yaml", false),
				Inputs: []companion.Input{page(2, "draw", card), fix}}
		}
		twoworlds.CheckDaemons(t, twoworlds.DaemonPair{Name: "a corrected draw", Spec: Spec, A: world("1", "3"), B: world("5", "6")})
	})
}

// The undo's public text still says what was taken back: a draw, by whom.
func TestConcealedDrawBrief(t *testing.T) {
	g := testGame(t, false)
	b, err := g.EncodeAction(g.Conceal(west1920.DrawCard{Side: west1920.Russian, Card: 5}))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"type":"draw_card","side":"russian"}` {
		t.Errorf("concealed draw %s", b)
	}
	if a := (west1920.PlayCard{Side: west1920.Polish, Card: 5}); g.Conceal(a) != a {
		t.Errorf("a played card is public: concealed as %+v", g.Conceal(a))
	}
}
