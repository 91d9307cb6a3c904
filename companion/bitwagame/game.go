// Package bitwagame binds a Bitwa Warszawska table to its engine
// (rules/bitwa): every card carries a tag; a card scanned on a player's
// reader (seat-N) is picked (an engine Select, so it is journaled) and
// played to the front chosen on the player's page, or scanned on a
// front's reader (front-n, front-c, front-s) it goes straight to that
// front; the dice keypad enters the dice (and, with a commander picked for
// a front, its effect 1 or 2); the seats' buttons confirm, cancel and
// pass; moves, supplies, blockades and the other answers come from the
// players' pages. The camera's unit counts per line are compared with the
// state and shown as desyncs, never written over it.
package bitwagame

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sztab/sztab/companion/box"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/bitwa"
	"github.com/sztab/sztab/vision"
)

// Config is the config file's bitwa-warszawska section.
type Config struct {
	// Players: seat, name and army (wp or acz): 2 players one each, 3 two
	// allies against one, 4 two against two.
	Players []bitwa.PlayerInfo `yaml:"players"`
	// Options are bitwa.Options by their JSON names (start_units,
	// bonus_high, funds_tie, sweep_vp, adjacent_moves, strength_when,
	// removed, ally_hands, deck_out_all).
	Options map[string]any `yaml:"options"`
	// Seed fixes the engine's shuffle of the decks the table did not give
	// in Decks (top first, as read at the table).
	Seed  uint64              `yaml:"seed"`
	Decks map[string][]string `yaml:"decks"`
	// Colours are the camera's colour names of each army's wooden units
	// (default: the army ids, wp and acz).
	Colours map[string]string `yaml:"colours"`
	Data    DataFiles         `yaml:"data"`
}

// DataFiles name edited data files, relative to the config file; empty
// ones are the embedded defaults.
type DataFiles struct {
	Cards      string `yaml:"cards"`
	Components string `yaml:"components"`
}

// LoadCatalogue reads the data files, falling back to the embedded ones;
// resolve turns a configured path into a file path.
func LoadCatalogue(files DataFiles, resolve func(string) string) (*bitwa.Catalogue, error) {
	pack, err := box.Shipped(ID)
	if err != nil {
		return nil, err
	}
	cat, _, err := LoadPackCatalogue(files, resolve, pack)
	return cat, err
}

// LoadPackCatalogue is LoadCatalogue with a box pack's files in place of
// the embedded ones; sample says the files mark something assumed.
func LoadPackCatalogue(files DataFiles, resolve func(string) string, pack *box.Pack) (cat *bitwa.Catalogue, sample bool, err error) {
	cn, c, err := pack.File(files.Cards, resolve, bitwa.CardsFile)
	if err != nil {
		return nil, false, err
	}
	pn, p, err := pack.File(files.Components, resolve, bitwa.ComponentsFile)
	if err != nil {
		return nil, false, err
	}
	cat, err = bitwa.ParseCatalogue(cn, c, pn, p)
	return cat, box.AnyAssumed(c, p), err
}

// setup turns the section into the engine's setup.
func (c Config) setup() (bitwa.Setup, error) {
	s := bitwa.Setup{Players: c.Players, Seed: c.Seed, Decks: c.Decks}
	if c.Options != nil {
		b, err := json.Marshal(c.Options)
		if err != nil {
			return s, fmt.Errorf("bitwagame: options: %w", err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s.Options); err != nil {
			return s, fmt.Errorf("bitwagame: options: %w", err)
		}
	}
	return s, nil
}

// Game is Bitwa Warszawska at one table: the engine's state in the
// adapter, the camera's last counts and the colours to read them by. Every
// choice in progress (a picked card, dice entered one by one) is in the
// engine's state.
type Game struct {
	// sample: the game's data marks something assumed (docs/box.md).
	sample bool
	gamespec.Adapter[bitwa.State, bitwa.Event]
	colours map[string]string
	snap    *vision.Snapshot
	// unsure is the last unsure reading the players were asked about.
	unsure string
}

// New reads the config's bitwa-warszawska section.
func New(cfg gamespec.TableConfig) (gamespec.Game, error) {
	var c Config
	if err := cfg.DecodeSection(ID, &c); err != nil {
		return nil, err
	}
	pack, err := box.ForConfig(cfg)
	if err != nil {
		return nil, err
	}
	cat, sample, err := LoadPackCatalogue(c.Data, cfg.Resolve, pack)
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(ID + ".data"), Msg: err.Error()}
	}
	setup, err := c.setup()
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(ID + ".options"), Msg: err.Error()}
	}
	if setup.Seed == 0 {
		setup.Seed = cfg.DiceSeed()
	}
	start, err := cat.NewGame(setup)
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(ID), Msg: err.Error()}
	}
	for k := range c.Colours {
		if k != bitwa.WP && k != bitwa.ACz {
			return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(ID + ".colours"), Msg: fmt.Sprintf("bitwagame: colours: unknown army %q (wp, acz)", k)}
		}
	}
	g := newGame(start, c.Colours)
	g.sample = sample
	return g, nil
}

func newGame(start bitwa.StartGame, colours map[string]string) *Game {
	g := &Game{colours: map[string]string{bitwa.WP: bitwa.WP, bitwa.ACz: bitwa.ACz}}
	for k, v := range colours {
		g.colours[k] = v
	}
	g.Adapter = gamespec.Adapter[bitwa.State, bitwa.Event]{
		ID: ID, Codec: bitwa.Actions, Opening: start, Step: bitwa.Apply, Show: view, Allowing: bitwa.ApplyAllowing,
	}
	return g
}

func rejected(code string, t rules.Text) []gamespec.Notice {
	return []gamespec.Notice{{Type: wire.NoticeRejected, Code: code, Text: t}}
}

func one(a bitwa.Action) ([]gamespec.Action, []gamespec.Notice) {
	return []gamespec.Action{a}, nil
}

// readerSeat is the seat of a reader or keypad named seat-N, 0 otherwise.
func readerSeat(name string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(name, "seat-"))
	if !strings.HasPrefix(name, "seat-") || err != nil || n < 1 {
		return 0
	}
	return n
}

// readerFront is the front of a reader named front-n, front-c or front-s
// (the readers beside each front's fields), "" otherwise.
func readerFront(name string) string {
	f, ok := strings.CutPrefix(name, "front-")
	if !ok {
		return ""
	}
	f = strings.ToUpper(f)
	if slices.Contains(bitwa.Fronts, f) {
		return f
	}
	return ""
}

// Bind turns the table's inputs into the engine's actions.
func (g *Game) Bind(in gamespec.Input) ([]gamespec.Action, []gamespec.Notice) {
	switch {
	case in.Snapshot != nil:
		g.snap = in.Snapshot
		return nil, g.unsureNotice()
	case in.Tag != nil && in.Tag.Present && in.TagInfo != nil:
		switch in.TagInfo.Kind {
		case "card":
			if seat := readerSeat(in.Tag.Reader); seat > 0 {
				return g.seatCard(seat, in.TagInfo.ID)
			}
			if f := readerFront(in.Tag.Reader); f != "" {
				return g.frontCard(f, in.TagInfo.ID)
			}
			return nil, rejected("unknown_reader", rules.Textf("czytnik %q nie jest ani miejscem gracza (seat-N), ani Frontem (front-n, front-c, front-s)",
				"reader %q is neither a player's seat (seat-N) nor a front (front-n, front-c, front-s)", in.Tag.Reader))
		case "command":
			return g.command(in.TagInfo.ID, nil, readerSeat(in.Tag.Reader))
		}
		return nil, []gamespec.Notice{{Type: wire.NoticeTagIgnored, UID: in.Tag.UID, Device: in.Tag.Reader,
			Text: rules.Textf("karta %s (%s) nie ma znaczenia w tej grze", "card %s (%s) means nothing in this game", in.TagInfo.ID, in.TagInfo.Kind)}}
	case in.Key != nil:
		// A player's page acts for their seat; a seat's buttons (keypad
		// seat-N) for that seat; the dice keypad, the table's other keys
		// and the referee for whoever the game waits for.
		seat := 0
		if in.From.Kind == wire.Seat {
			seat = in.From.Seat()
		} else if in.From.Kind == wire.Keys {
			seat = readerSeat(in.Key.Keypad)
		}
		return g.command(in.Key.Key, in.Args, seat)
	}
	return nil, nil
}

func isRoll(pd *bitwa.Pending) bool {
	return pd != nil && (pd.Kind == bitwa.DecideRollInitiative || pd.Kind == bitwa.DecideRollBonus)
}

// waiting is the seat the game waits for: the decision's, or the active
// player's.
func waiting(s bitwa.State) int {
	if s.Pending != nil {
		return s.Pending.Seat
	}
	return s.Active
}

func name(s bitwa.State, seat int) string {
	if p := s.Player(seat); p != nil {
		return p.Name
	}
	return fmt.Sprintf("#%d", seat)
}

// actor checks that seat may act now and returns the seat the action is
// for: seat itself for a player (a decision any player of an army may
// answer takes their own seat), the seat the game waits for when seat is
// 0 (the referee, the table's keys).
func actor(s bitwa.State, seat int) (int, []gamespec.Notice) {
	switch {
	case s.Phase == bitwa.PhaseOver:
		return 0, rejected("game_over", rules.Textf("gra się skończyła", "the game is over"))
	case s.Phase == "":
		return 0, rejected("not_started", rules.Textf("gra się jeszcze nie zaczęła", "the game has not started"))
	}
	w := waiting(s)
	if seat == 0 || seat == w {
		return w, nil
	}
	if pd := s.Pending; pd != nil {
		if isRoll(pd) {
			return seat, nil // dice are read at the table
		}
		if p := s.Player(seat); p != nil && pd.Army != "" && p.Army == pd.Army {
			return seat, nil // allies decide together
		}
	}
	return 0, rejected("not_your_turn", rules.Textf("miejsce %[1]d (%[2]s) nie może działać za gracza %[3]s: teraz czekamy na niego",
		"seat %[1]d (%[2]s) cannot act for %[3]s: the game waits for them", seat, name(s, seat), name(s, w)))
}

// military refuses a card played or picked while a decision waits or
// outside the military stage.
func military(s bitwa.State) []gamespec.Notice {
	if pd := s.Pending; pd != nil {
		return rejected("awaiting_decision", rules.Textf("najpierw: %[1]s", "first: %[2]s", pd.Text.PL, pd.Text.EN))
	}
	if s.Stage != bitwa.StageMilitary || s.Active == 0 {
		return rejected("not_military", rules.Textf("karty zagrywa się w etapie Działań militarnych", "cards are played in the military stage"))
	}
	return nil
}

func unknownCard(id string) []gamespec.Notice {
	return rejected("unknown_card", rules.Textf("karta %q nie należy do tej gry", "card %q is not in this game", id))
}

// seatCard is a card scanned on seat's reader: it is picked (Select); the
// front and effect follow from the page, a front's reader or the dice
// keypad. The engine refuses a card not in the player's hand.
func (g *Game) seatCard(seat int, id string) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	if _, ok := s.Cards[id]; !ok {
		return nil, unknownCard(id)
	}
	who, n := actor(s, seat)
	if n != nil {
		return nil, n
	}
	if n := military(s); n != nil {
		return nil, n
	}
	return one(bitwa.Select{Seat: who, Card: id})
}

// frontCard is a card scanned on a front's reader: played there for the
// active player; a commander with two effects is picked for that front
// and its effect comes next (1 or 2 on the keypad, or the page).
func (g *Game) frontCard(f, id string) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	c, ok := s.Cards[id]
	if !ok {
		return nil, unknownCard(id)
	}
	who, n := actor(s, 0)
	if n != nil {
		return nil, n
	}
	if n := military(s); n != nil {
		return nil, n
	}
	if len(c.Options()) > 1 {
		return one(bitwa.Select{Seat: who, Card: id, Front: f})
	}
	return one(bitwa.PlayCard{Seat: who, Card: id, Front: f})
}

// argErr is a command's arguments that do not fit, in both languages.
func argErr(cmd, pl, en string) []gamespec.Notice {
	return rejected("bad_args", rules.Text{PL: cmd + ": " + pl, EN: cmd + ": " + en})
}

// front reads a front argument: N, C, S (any case).
func front(a string) (string, bool) {
	f := strings.ToUpper(a)
	return f, slices.Contains(bitwa.Fronts, f)
}

// effectArg reads a 1-based effect or face number (1 or 2).
func effectArg(a string) (int, bool) {
	n, err := strconv.Atoi(a)
	if err != nil || n < 1 || n > 2 {
		return 0, false
	}
	return n - 1, true
}

// cardArg takes the leading card argument, or the picked card when the
// first argument is not a card.
func cardArg(s bitwa.State, args []string) (string, []string, []gamespec.Notice) {
	if len(args) > 0 {
		if _, ok := s.Cards[args[0]]; ok {
			return args[0], args[1:], nil
		}
	}
	if s.Selected != nil {
		return s.Selected.Card, args, nil
	}
	return "", nil, rejected("no_card", rules.Textf("podaj kartę albo zeskanuj ją na swoim czytniku", "name a card or scan it on your reader"))
}

// marker reads a blockade marker argument: wp, acz or a marker id.
func marker(s bitwa.State, a string) (string, bool) {
	for _, ar := range s.Comp.Armies {
		if a == ar.ID || a == ar.Blockade {
			return ar.Blockade, true
		}
	}
	return "", false
}

// unitMoves reads moves written FROM>TO or FROM>TO:N ("C2>C1:2").
func unitMoves(args []string) ([]bitwa.UnitMove, bool) {
	var out []bitwa.UnitMove
	for _, a := range args {
		m, ok := unitMove(a)
		if !ok {
			return nil, false
		}
		out = append(out, m)
	}
	return out, true
}

func unitMove(a string) (bitwa.UnitMove, bool) {
	from, to, ok := strings.Cut(strings.ToUpper(a), ">")
	if !ok {
		return bitwa.UnitMove{}, false
	}
	n := 1
	if t, k, ok := strings.Cut(to, ":"); ok {
		v, err := strconv.Atoi(k)
		if err != nil || v < 1 {
			return bitwa.UnitMove{}, false
		}
		to, n = t, v
	}
	return bitwa.UnitMove{From: from, To: to, N: n}, true
}

// command maps a command (a key, a page's button, a command card) to
// actions; seat is the player it comes from, 0 for the table or referee.
func (g *Game) command(name string, args []string, seat int) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	who, n := actor(s, seat)
	if n != nil {
		return nil, n
	}
	pd := s.Pending
	need := func(min, max int, pl, en string) []gamespec.Notice {
		if len(args) < min || len(args) > max {
			return argErr(name, pl, en)
		}
		return nil
	}
	if d, err := strconv.Atoi(name); err == nil && len(name) == 1 {
		return g.digit(s, who, d)
	}
	switch name {
	case "confirm":
		return g.confirm(s, who)
	case "cancel":
		return g.cancel(s, who)
	case "pass":
		if n := need(0, 0, "bez argumentów", "takes no arguments"); n != nil {
			return nil, n
		}
		return one(bitwa.Pass{Seat: who})
	case "select":
		if n := need(1, 1, "podaj jedną kartę z ręki", "name one card of the hand"); n != nil {
			return nil, n
		}
		if _, ok := s.Cards[args[0]]; !ok {
			return nil, unknownCard(args[0])
		}
		return one(bitwa.Select{Seat: who, Card: args[0]})
	case "play", "activate":
		card, rest, n := cardArg(s, args)
		if n != nil {
			return nil, n
		}
		if len(rest) < 1 || len(rest) > 2 {
			return nil, argErr(name, "podaj Front (N, C, S) i, dla Dowódcy, efekt (1, 2)", "name the front (N, C, S) and, for a commander, the effect (1, 2)")
		}
		f, ok := front(rest[0])
		if !ok {
			return nil, argErr(name, "Front to N, C albo S", "the front is N, C or S")
		}
		choice := 0
		if len(rest) == 2 {
			if choice, ok = effectArg(rest[1]); !ok {
				return nil, argErr(name, "efekt to 1 albo 2", "the effect is 1 or 2")
			}
		}
		if name == "activate" {
			return one(bitwa.Activate{Seat: who, Card: card, Front: f, Choice: choice})
		}
		if c := s.Cards[card]; len(c.Options()) > 1 && len(rest) == 1 {
			// The effect is still open: keep the card picked for this front.
			return one(bitwa.Select{Seat: who, Card: card, Front: f})
		}
		return one(bitwa.PlayCard{Seat: who, Card: card, Front: f, Choice: choice})
	case "effect":
		if n := need(1, 1, "podaj efekt 1 albo 2", "give the effect, 1 or 2"); n != nil {
			return nil, n
		}
		ch, ok := effectArg(args[0])
		if !ok {
			return nil, argErr(name, "efekt to 1 albo 2", "the effect is 1 or 2")
		}
		return g.effect(s, who, ch)
	case "fight":
		card, rest, n := cardArg(s, args)
		if n != nil {
			return nil, n
		}
		if len(rest) != 1 || !slices.Contains(bitwa.ResourceIDs, rest[0]) {
			return nil, argErr(name, "podaj Zasób: funds, supply albo support", "name the resource: funds, supply or support")
		}
		return one(bitwa.Fight{Seat: who, Card: card, Resource: rest[0]})
	case "blockade":
		return g.blockade(s, who, args)
	case "move":
		ms, ok := unitMoves(args)
		if !ok {
			return nil, argErr(name, "ruchy zapisuje się SKĄD>DOKĄD[:ile], np. C2>C1:2", "moves are written FROM>TO[:n], e.g. C2>C1:2")
		}
		return one(bitwa.Move{Seat: who, Moves: ms})
	case "supply":
		sp := bitwa.Supply{Seat: who}
		for _, a := range args {
			if f, ok := front(a); ok {
				sp.Add = append(sp.Add, f)
				continue
			}
			m, ok := unitMove(a)
			if !ok {
				return nil, argErr(name, "dołóż: N, C, S; porusz: SKĄD>DOKĄD[:ile]", "add: N, C, S; move: FROM>TO[:n]")
			}
			sp.Moves = append(sp.Moves, m)
		}
		return one(sp)
	case "remove":
		if n := need(1, 2, "podaj linię (1, 2), opcjonalnie Front przed nią", "give the line (1, 2), optionally the front before it"); n != nil {
			return nil, n
		}
		f := ""
		if pd != nil {
			f = pd.Front
		}
		if len(args) == 2 {
			var ok bool
			if f, ok = front(args[0]); !ok {
				return nil, argErr(name, "Front to N, C albo S", "the front is N, C or S")
			}
		}
		line, err := strconv.Atoi(args[len(args)-1])
		if err != nil {
			return nil, argErr(name, "linia to 1 albo 2", "the line is 1 or 2")
		}
		return one(bitwa.Remove{Seat: who, Front: f, Line: line})
	case "turn":
		if n := need(1, 1, "podaj stronę 1 albo 2", "give the face, 1 or 2"); n != nil {
			return nil, n
		}
		face, ok := effectArg(args[0])
		if !ok {
			return nil, argErr(name, "strona to 1 albo 2", "the face is 1 or 2")
		}
		return one(bitwa.TurnCard{Seat: who, Face: face})
	case "assign":
		var order []int
		for _, a := range args {
			v, err := strconv.Atoi(a)
			if err != nil {
				return nil, argErr(name, "podaj miejsca w kolejności znaczników 1, 2, 3…", "give the seats in the order of the tokens 1, 2, 3…")
			}
			order = append(order, v)
		}
		return one(bitwa.AssignInitiative{Seat: who, Order: order})
	case "roll":
		var dice []int
		for _, a := range args {
			v, err := strconv.Atoi(a)
			if err != nil {
				return nil, argErr(name, "podaj wyniki kości (1–6)", "give the dice (1–6)")
			}
			dice = append(dice, v)
		}
		if len(dice) == 0 {
			return nil, argErr(name, "podaj wyniki kości (1–6)", "give the dice (1–6)")
		}
		return one(bitwa.Roll{Seat: who, Dice: dice})
	}
	return nil, rejected("unknown_key", rules.Textf("polecenie %q nic tu nie robi", "command %q does nothing here", name))
}

// digit is a key 1–6: a die when the game waits for a roll; with a card
// picked for a front, its effect (1 or 2).
func (g *Game) digit(s bitwa.State, who, d int) ([]gamespec.Action, []gamespec.Notice) {
	if isRoll(s.Pending) {
		return one(bitwa.Roll{Seat: who, Dice: []int{d}})
	}
	if s.Selected != nil && d <= 2 {
		return g.effect(s, who, d-1)
	}
	return nil, rejected("no_roll", rules.Textf("nikt teraz nie rzuca kością", "nobody is rolling a die now"))
}

// effect chooses the picked card's effect: with its front known the card
// is played, otherwise the choice is kept with the card.
func (g *Game) effect(s bitwa.State, who, ch int) ([]gamespec.Action, []gamespec.Notice) {
	sel := s.Selected
	if sel == nil {
		return nil, rejected("nothing_selected", rules.Textf("najpierw zeskanuj kartę na swoim czytniku", "scan a card on your reader first"))
	}
	if sel.Front != "" {
		return one(bitwa.PlayCard{Seat: who, Card: sel.Card, Front: sel.Front, Choice: ch})
	}
	return one(bitwa.Select{Seat: who, Card: sel.Card, Choice: ch})
}

// blockade reads [card] [marker] place front: moving a marker in the
// military stage discards the card (named or picked); answering the
// opening or the public-support decision takes no card.
func (g *Game) blockade(s bitwa.State, who int, args []string) ([]gamespec.Action, []gamespec.Notice) {
	b := bitwa.Blockade{Seat: who}
	pd := s.Pending
	answering := pd != nil && (pd.Kind == bitwa.DecideOpeningBlockade || pd.Kind == bitwa.DecideSupport)
	if !answering {
		card, rest, n := cardArg(s, args)
		if n != nil {
			return nil, n
		}
		b.Card, args = card, rest
	}
	if len(args) == 3 {
		m, ok := marker(s, args[0])
		if !ok {
			return nil, argErr("blockade", "znacznik to wp albo acz", "the marker is wp or acz")
		}
		b.Marker, args = m, args[1:]
	} else if answering {
		b.Marker = pd.Marker
	}
	if len(args) != 2 || !slices.Contains(bitwa.BlockPlaces, args[0]) {
		return nil, argErr("blockade", "podaj miejsce ("+strings.Join(bitwa.BlockPlaces, ", ")+") i Front", "name the place ("+strings.Join(bitwa.BlockPlaces, ", ")+") and the front")
	}
	f, ok := front(args[1])
	if !ok {
		return nil, argErr("blockade", "Front to N, C albo S", "the front is N, C or S")
	}
	if b.Marker == "" {
		return nil, argErr("blockade", "podaj znacznik (wp albo acz)", "name the marker (wp or acz)")
	}
	b.Place, b.Front = args[0], f
	return one(b)
}

// confirm says yes to a "you may" effect, plays the picked card when its
// front (and effect) are known, or gives the only answer a decision has.
func (g *Game) confirm(s bitwa.State, who int) ([]gamespec.Action, []gamespec.Notice) {
	if pd := s.Pending; pd != nil {
		if pd.Kind == bitwa.DecideConfirm {
			return one(bitwa.Confirm{Seat: who, Yes: true})
		}
		if only := bitwa.LegalActions(s); len(only) == 1 {
			return one(only[0])
		}
		return nil, rejected("choose", rules.Textf("%[1]s — wybierz na stronie gracza", "%[2]s — choose on the player's page", pd.Text.PL, pd.Text.EN))
	}
	if sel := s.Selected; sel != nil {
		c := s.Cards[sel.Card]
		f := sel.Front
		if fs := c.Fronts(); f == "" && len(fs) == 1 {
			f = fs[0]
		}
		if f == "" {
			// Everyone sees a refusal: the picked card stays unnamed.
			return nil, rejected("choose_front", rules.Textf("wybrana karta: wybierz Front (czytnik Frontu albo strona gracza)", "the picked card: choose the front (a front's reader or the player's page)"))
		}
		return one(bitwa.PlayCard{Seat: who, Card: sel.Card, Front: f, Choice: sel.Choice})
	}
	return nil, rejected("nothing_to_confirm", rules.Textf("nie ma czego potwierdzić", "nothing to confirm"))
}

// cancel puts the picked card back, or declines what may be declined: a
// "you may" effect, a move, a supply, the special blockade.
func (g *Game) cancel(s bitwa.State, who int) ([]gamespec.Action, []gamespec.Notice) {
	if pd := s.Pending; pd != nil {
		switch pd.Kind {
		case bitwa.DecideConfirm:
			return one(bitwa.Confirm{Seat: who})
		case bitwa.DecideMove:
			return one(bitwa.Move{Seat: who})
		case bitwa.DecideSupply:
			return one(bitwa.Supply{Seat: who})
		case bitwa.DecideSupport:
			return one(bitwa.Blockade{Seat: who, Skip: true})
		}
		return nil, rejected("cannot_decline", rules.Textf("tego nie można pominąć: %[1]s", "this cannot be skipped: %[2]s", pd.Text.PL, pd.Text.EN))
	}
	if s.Selected != nil {
		return one(bitwa.Select{Seat: who})
	}
	return nil, rejected("nothing_to_cancel", rules.Textf("nie ma czego anulować", "nothing to cancel"))
}

// SampleData says the game runs on data its rulebook does not print.
func (g *Game) SampleData() bool { return g.sample }
