package maligame

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion/box"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/rules/mali"
	"github.com/sztab/sztab/vision"
)

// Game is Mali Powstańcy at one table: the engine's state in the adapter,
// and the virtual deck, goals and die for tables that play without tags or
// a physical die. What is drawn, dealt and rolled is journaled, so replays
// never depend on them.
type Game struct {
	// sample: the game's data marks something assumed (docs/box.md).
	sample bool
	gamespec.Adapter[mali.State, mali.Event]
	shuffle *rand.Rand
	// seed fixes the virtual deck's order.
	seed uint64
	// physicalDeck: the order cards come from their tags (Config.Deck).
	physicalDeck bool
	// bd is what the screens show before the soldier's die, computed for
	// the adapter's state version bdAt (see View).
	bd   *beforeTheDie
	bdAt uint64
	// snap is the camera's latest snapshot, for the desyncs.
	snap *vision.Snapshot
	// unsure is the last unsure reading the players were asked about.
	unsure string
}

// New reads the config's mali-powstancy section.
func New(cfg gamespec.TableConfig) (gamespec.Game, error) {
	var c Config
	if err := cfg.DecodeSection(ID, &c); err != nil {
		return nil, err
	}
	pack, err := box.ForConfig(cfg)
	if err != nil {
		return nil, err
	}
	cat, sample, err := LoadPackCatalogue(c.Data.paths(cfg.Resolve), pack)
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(ID + ".data"), Msg: err.Error()}
	}
	if c.Deck != "" && c.Deck != "tags" && c.Deck != "virtual" {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(ID + ".deck"), Msg: fmt.Sprintf("maligame: deck %q: want tags (the physical deck) or virtual", c.Deck)}
	}
	start, err := c.start(cat)
	if err == nil {
		_, _, err = mali.Apply(mali.State{}, start)
	}
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(ID), Msg: err.Error()}
	}
	g := &Game{shuffle: rand.New(rand.NewPCG(cfg.DiceSeed(), 0x6d616c69)), seed: cfg.DiceSeed(), physicalDeck: c.Deck != "virtual", sample: sample}
	g.Adapter = gamespec.Adapter[mali.State, mali.Event]{ID: ID, Codec: mali.Actions, Opening: start, Step: mali.Apply, Allowing: mali.ApplyAllowing,
		Show: func(s mali.State, v gamespec.Viewer) any { return show(s, v, g.beforeTheDie()) }}
	return g, nil
}

func yamlStrict(data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, v); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func rejected(code string, t rules.Text) []gamespec.Notice {
	return []gamespec.Notice{{Type: wire.NoticeRejected, Code: code, Text: t}}
}

func one(a mali.Action) ([]gamespec.Action, []gamespec.Notice) { return []gamespec.Action{a}, nil }

// Bind turns the table's inputs into the engine's actions.
func (g *Game) Bind(in gamespec.Input) ([]gamespec.Action, []gamespec.Notice) {
	switch {
	case in.Snapshot != nil:
		g.snap = in.Snapshot
		return nil, g.unsureNotice()
	case in.Tag != nil && in.Tag.Present && in.TagInfo != nil:
		switch in.TagInfo.Kind {
		case "card":
			// An order card taken from the deck and read onto the track, or
			// a player's movement card ("red-3") laid face down.
			if _, ok := g.State().Catalogue().Orders[in.TagInfo.ID]; ok || in.TagInfo.ID == mali.VictoryCard {
				return g.drawn(in.TagInfo.ID)
			}
			return g.movementCard(in.TagInfo.ID)
		case "command":
			return g.command(in.TagInfo.ID, nil, in.From)
		}
		return nil, []gamespec.Notice{{Type: wire.NoticeTagIgnored, UID: in.Tag.UID, Device: in.Tag.Reader,
			Text: rules.Textf("karta %s (%s) nie ma znaczenia w tej grze", "card %s (%s) means nothing in this game", in.TagInfo.ID, in.TagInfo.Kind)}}
	case in.Key != nil:
		if v, err := strconv.Atoi(in.Key.Key); err == nil && len(in.Key.Key) == 1 {
			return g.face(v, "keypad:"+in.Key.Keypad)
		}
		return g.command(in.Key.Key, in.Args, in.From)
	case len(in.Dice) > 0:
		// a throw the camera read in its tray: one die, its pips the
		// face's number in die.yaml, as a keypad digit is
		if len(in.Dice) != 1 {
			return nil, rejected("dice_count", rules.Textf("gra ma jedną kość, w tacce leży %d", "the game has one die, the tray shows %d", len(in.Dice)))
		}
		d := in.Dice[0]
		return g.face(d.Value, string(d.Origin)+":"+d.Device)
	}
	return nil, nil
}

// face is a face of the physical die, numbered as in die.yaml; origin is
// where it was read ("keypad:<keypad>", "camera:<tray>").
func (g *Game) face(n int, origin string) ([]gamespec.Action, []gamespec.Notice) {
	faces := g.State().Catalogue().Data.Die
	if n < 1 || n > len(faces) {
		return nil, rejected("bad_face", rules.Textf("kość ma ścianki 1–%d, nie %d", "the die has faces 1–%d, not %d", len(faces), n))
	}
	f := faces[n-1]
	return one(mali.RollDie{Colour: f.Colour, Value: f.Value, Origin: origin})
}

// seatOf is the seat playing colour.
func seatOf(s mali.State, colour string) int {
	for _, p := range s.Players {
		if p.Colour == colour {
			return p.Seat
		}
	}
	return 0
}

// movementCard is a movement card ("red-3") scanned: its owner lays it.
func (g *Game) movementCard(id string) ([]gamespec.Action, []gamespec.Notice) {
	colour, n, ok := strings.Cut(id, "-")
	card, err := strconv.Atoi(n)
	seat := seatOf(g.State(), colour)
	if !ok || err != nil || seat == 0 {
		return nil, rejected("unknown_card", rules.Textf("karta ruchu %q nie należy do żadnego gracza przy stole", "movement card %q belongs to no player at this table", id))
	}
	return one(mali.PlayCard{Seat: seat, Card: card})
}

// owns says whether a player's command may move courier: their own only.
func owns(s mali.State, from gamespec.Sender, courier string) *rules.Text {
	if from.Kind != wire.Seat {
		return nil
	}
	c, ok := s.Courier(courier)
	if ok && c.Seat != from.Seat() {
		t := rules.Textf("harcerz %s nie należy do ciebie", "courier %s is not yours", courier)
		return &t
	}
	return nil
}

// command maps a named command and its arguments to an action.
func (g *Game) command(name string, args []string, from gamespec.Sender) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	need := func(n int) *rules.Text {
		if len(args) < n {
			t := rules.Textf("polecenie %s potrzebuje %d argumentów, dostało %d", "command %s needs %d arguments, got %d", name, n, len(args))
			return &t
		}
		return nil
	}
	seat := from.Seat()
	switch name {
	case "step", "jump", "pick", "drop", "place", "unit", "swap":
		n := map[string]int{"drop": 1}[name]
		if n == 0 {
			n = 2
		}
		if t := need(n); t != nil {
			return nil, rejected("bad_command", *t)
		}
		couriers := args[:1]
		if name == "swap" {
			couriers = args[:2]
		}
		for _, c := range couriers {
			if t := owns(s, from, c); t != nil {
				return nil, rejected("not_yours", *t)
			}
		}
		switch name {
		case "step":
			return one(mali.Move{Courier: args[0], To: mali.Node(args[1])})
		case "jump":
			return one(mali.Jump{Courier: args[0], To: mali.Node(args[1])})
		case "pick":
			return one(mali.PickUp{Courier: args[0], Order: args[1]})
		case "drop":
			return one(mali.Drop{Courier: args[0]})
		case "place":
			return one(mali.Place{Courier: args[0], At: mali.Node(args[1])})
		case "unit":
			return one(mali.UnitJump{Courier: args[0], To: mali.Node(args[1])})
		case "swap":
			return one(mali.SwapCouriers{A: args[0], B: args[1]})
		}
	case "swap_orders":
		if t := need(2); t != nil {
			return nil, rejected("bad_command", *t)
		}
		if t := yourTurn(s, from); t != nil {
			return nil, rejected("not_your_turn", *t)
		}
		return one(mali.SwapOrders{A: args[0], B: args[1]})
	case "next":
		if t := yourTurn(s, from); t != nil {
			return nil, rejected("not_your_turn", *t)
		}
		return one(mali.EndTurn{})
	case "card":
		if t := need(1); t != nil {
			return nil, rejected("bad_command", *t)
		}
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return nil, rejected("bad_command", rules.Textf("karta ruchu to liczba 1–5, nie %q", "a movement card is a number 1–5, not %q", args[0]))
		}
		if from.Kind != wire.Seat {
			if t := need(2); t != nil {
				return nil, rejected("bad_command", rules.Text{PL: "sędzia i przyciski stołu podają też miejsce gracza: card N MIEJSCE", EN: "the referee and the table's keys name the seat too: card N SEAT"})
			}
			if seat, err = strconv.Atoi(args[1]); err != nil {
				return nil, rejected("bad_command", rules.Textf("miejsce gracza to liczba, nie %q", "a seat is a number, not %q", args[1]))
			}
		}
		return one(mali.PlayCard{Seat: seat, Card: n})
	case "keep":
		if t := need(3); t != nil {
			return nil, rejected("bad_command", *t)
		}
		if from.Kind != wire.Seat {
			if t := need(4); t != nil {
				return nil, rejected("bad_command", rules.Text{PL: "sędzia podaje też miejsce gracza: keep CEL CEL CEL MIEJSCE", EN: "the referee names the seat too: keep GOAL GOAL GOAL SEAT"})
			}
			var err error
			if seat, err = strconv.Atoi(args[3]); err != nil {
				return nil, rejected("bad_command", rules.Textf("miejsce gracza to liczba, nie %q", "a seat is a number, not %q", args[3]))
			}
		}
		return one(mali.KeepGoals{Seat: seat, Goals: args[:3]})
	case "choose":
		if t := need(1); t != nil {
			return nil, rejected("bad_command", *t)
		}
		return g.choose(args[0], from)
	case "draw":
		return g.drawVirtual()
	case "roll":
		faces := s.Catalogue().Data.Die
		f := faces[g.shuffle.IntN(len(faces))]
		return one(mali.RollDie{Colour: f.Colour, Value: f.Value, Origin: string(dice.Virtual)})
	case "deal":
		return g.deal()
	case "rumours":
		if t := yourTurn(s, from); t != nil {
			return nil, rejected("not_your_turn", *t)
		}
		if g.physicalDeck {
			return one(mali.Rumours{})
		}
		return one(mali.Rumours{Cards: g.nextCards(s, s.NextDraw())})
	}
	return nil, rejected("unknown_command", rules.Textf("nieznane polecenie %q", "unknown command %q", name))
}

// yourTurn refuses a player's command when the game waits for someone else.
func yourTurn(s mali.State, from gamespec.Sender) *rules.Text {
	if from.Kind != wire.Seat || s.Pending == nil || s.Pending.Seat == 0 || s.Pending.Seat == from.Seat() {
		return nil
	}
	t := rules.Textf("gra czeka na gracza na miejscu %d", "the game waits for the player at seat %d", s.Pending.Seat)
	return &t
}

// choose answers what the game waits for: a courier (the soldier's target,
// the red move), a road to block, a field to be pushed to, the soldier's
// next field.
func (g *Game) choose(choice string, from gamespec.Sender) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	p := s.Pending
	if p == nil {
		return nil, rejected("nothing_to_choose", rules.Text{PL: "gra nie czeka na żaden wybór", EN: "the game waits for no choice"})
	}
	if t := yourTurn(s, from); t != nil {
		return nil, rejected("not_your_turn", *t)
	}
	switch p.Kind {
	case mali.WaitSoldierTarget, mali.WaitBonusCourier:
		return one(mali.ChooseCourier{Seat: p.Seat, Courier: choice})
	case mali.WaitBlockRoad:
		return one(mali.BlockRoad{Seat: p.Seat, Road: choice})
	case mali.WaitDisplace:
		return one(mali.Displace{Courier: p.Courier, To: mali.Node(choice)})
	case mali.WaitSoldierStep:
		return one(mali.ChooseSoldierStep{To: mali.Node(choice)})
	}
	return nil, rejected("nothing_to_choose", rules.Textf("gra czeka na %s, nie na wybór", "the game waits for %s, not a choice", p.Kind))
}

// drawn is an order card read off the deck onto the track.
func (g *Game) drawn(id string) ([]gamespec.Action, []gamespec.Notice) {
	return one(mali.DrawOrders{Cards: []string{id}})
}

// drawVirtual draws what the order phase waits for from the virtual deck.
func (g *Game) drawVirtual() ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	if g.physicalDeck {
		return nil, rejected("physical_deck", rules.Text{PL: "ten stół czyta karty rozkazów z ich tagów (deck: tags): połóż kartę na czytniku; deck: virtual pozwala rozdawać wirtualnie",
			EN: "this table reads its order cards from their tags (deck: tags): lay the card on the reader; deck: virtual lets the daemon deal"})
	}
	if s.Pending == nil || s.Pending.Kind != mali.WaitDrawOrders {
		return nil, rejected("not_now", rules.Text{PL: "teraz nie dobiera się rozkazów", EN: "no orders are drawn now"})
	}
	return one(mali.DrawOrders{Cards: g.nextCards(s, s.Pending.Count)})
}

// virtualDeck is the deck as a virtual draw deals it: the cards a player
// looked at first, then every card not yet seen in the order of a shuffle
// fixed by the table's seed (so the order never changes as cards leave),
// with the Victory card (extended) under as many cards as the state says.
// Cards read from tags are seen too, so a table may mix both.
func (g *Game) virtualDeck(s mali.State) []string {
	var ids []string
	for _, o := range s.Catalogue().Data.Orders {
		ids = append(ids, o.ID)
	}
	slices.Sort(ids)
	r := rand.New(rand.NewPCG(g.seed, 0x6f72646572))
	r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	unseen := s.Unseen()
	deck := slices.Clone(s.Deck.Peeked)
	for _, id := range ids {
		if slices.Contains(unseen, id) && !slices.Contains(deck, id) {
			deck = append(deck, id)
		}
	}
	if s.Deck.Victory {
		at := min(s.Deck.Above, len(deck))
		deck = slices.Insert(deck, at, mali.VictoryCard)
	}
	return deck[:min(len(deck), s.Deck.Left)]
}

// nextCards are the cards from the top of the virtual deck a draw of n
// takes: a card of a fallen district is discarded and replaced, so it
// comes with its replacement.
func (g *Game) nextCards(s mali.State, n int) []string {
	var out []string
	kept := 0
	for _, id := range g.virtualDeck(s) {
		if kept == n {
			break
		}
		out = append(out, id)
		if !s.FallenCard(id) {
			kept++
		}
	}
	return out
}

// deal deals six secret goals to each player from a fresh shuffle.
func (g *Game) deal() ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	if s.Pending == nil || s.Pending.Kind != mali.WaitDealGoals {
		return nil, rejected("not_now", rules.Text{PL: "teraz nie rozdaje się celów", EN: "no goals are dealt now"})
	}
	var ids []string
	for _, gl := range s.Catalogue().Data.Goals {
		ids = append(ids, gl.ID)
	}
	g.shuffle.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	var hands [][]string
	for i := range s.Players {
		if 6*(i+1) > len(ids) {
			break
		}
		hands = append(hands, ids[6*i:6*(i+1)])
	}
	return one(mali.DealGoals{Hands: hands})
}

// SampleData says the game runs on data its rulebook does not print.
func (g *Game) SampleData() bool { return g.sample }

// hidden stands for each secret the public may not know (Conceal).
const hidden = "?"

// Conceal is an action as the public may know it (gamespec.Concealer),
// what the view hides left out: the secret goals dealt and kept, the
// movement card laid face down, the cards seen on top of the deck
// ("Plotki z ulicy"); their number stays. The rest of every action is
// public. The table says an undo's or a correction's action this way.
func (g *Game) Conceal(a gamespec.Action) gamespec.Action {
	some := func(ids []string) []string { return slices.Repeat([]string{hidden}, len(ids)) }
	switch a := a.(type) {
	case mali.DealGoals:
		hands := make([][]string, len(a.Hands))
		for i, h := range a.Hands {
			hands[i] = some(h)
		}
		return mali.DealGoals{Hands: hands}
	case mali.KeepGoals:
		return mali.KeepGoals{Seat: a.Seat, Goals: some(a.Goals)}
	case mali.PlayCard:
		return mali.PlayCard{Seat: a.Seat, Card: -1} // laid, face down (the view's -1)
	case mali.Rumours:
		return mali.Rumours{Cards: some(a.Cards)}
	}
	return a
}
