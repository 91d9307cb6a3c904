// Package west1920game binds a How the West was Saved (1920) table to its
// engine (rules/west1920). The counters stay on the paper map; the
// companion keeps the record of every counter. Event cards carry NFC tags
// and are scanned on the reader of the player's seat (seat-1 Polish,
// seat-2 Russian): drawn into the hand when the card is in the deck,
// played when it is already in that hand. The white and red keypads enter
// the dice; every counter move is entered on the referee's or a player's
// page (a hex map: click a stack, then a hex, or drag it), the binder
// finds a legal path with the engine; all other decisions are commands
// with arguments.
package west1920game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sztab/sztab/companion/box"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/rules/west1920"
)

// ID is the game's config id.
const ID = "west-1920"

// Seats: the Polish player sits at seat 1, the Russian at seat 2 (their
// readers seat-1 and seat-2, their pages /player/1 and /player/2).
const (
	PolishSeat  = 1
	RussianSeat = 2
)

// SideOfSeat is the side a seat plays, "" for no seat.
func SideOfSeat(seat int) string {
	switch seat {
	case PolishSeat:
		return west1920.Polish
	case RussianSeat:
		return west1920.Russian
	}
	return ""
}

// SeatOf is the seat of a side, 0 for none.
func SeatOf(side string) int {
	switch side {
	case west1920.Polish:
		return PolishSeat
	case west1920.Russian:
		return RussianSeat
	}
	return 0
}

// Config is the config file's west-1920 section.
type Config struct {
	// Options are west1920.Options by their JSON names (tie_combat,
	// losses_chosen_by, both_singles): the table's answers where the
	// rulebook leaves room (AMBIGUITIES.md).
	Options map[string]any `yaml:"options"`
	// Deck says where the event cards come from: "tags" (the default: each
	// card is read from its tag on the seat reader) or "virtual" (the
	// command draw deals the next card of a shuffle fixed by Seed, for a
	// table without tagged cards; tags still work).
	Deck string `yaml:"deck"`
	// Seed fixes the virtual deck's order; 0: the config's dice seed. The
	// virtual dice always come from the config's dice seed (dice.seed), so
	// that the dice, which everyone sees, never give the deck's seed away.
	Seed uint64    `yaml:"seed"`
	Data DataFiles `yaml:"data"`
}

// DataFiles name edited data files, relative to the config file; empty
// ones are the embedded defaults.
type DataFiles struct {
	Map   string `yaml:"map"`
	OOB   string `yaml:"oob"`
	Cards string `yaml:"cards"`
}

// LoadCatalogue reads the data files, falling back to the embedded ones;
// resolve turns a configured path into a file path.
func LoadCatalogue(files DataFiles, resolve func(string) string) (*west1920.Catalogue, error) {
	pack, err := box.Shipped(ID)
	if err != nil {
		return nil, err
	}
	cat, _, err := LoadPackCatalogue(files, resolve, pack)
	return cat, err
}

// LoadPackCatalogue is LoadCatalogue with a box pack's files in place of
// the embedded ones; sample says the files mark something assumed.
func LoadPackCatalogue(files DataFiles, resolve func(string) string, pack *box.Pack) (cat *west1920.Catalogue, sample bool, err error) {
	mn, m, err := pack.File(files.Map, resolve, west1920.MapFile)
	if err != nil {
		return nil, false, err
	}
	on, o, err := pack.File(files.OOB, resolve, west1920.OOBFile)
	if err != nil {
		return nil, false, err
	}
	cn, c, err := pack.File(files.Cards, resolve, west1920.CardsFile)
	if err != nil {
		return nil, false, err
	}
	cat, err = west1920.ParseCatalogue(mn, m, on, o, cn, c)
	return cat, box.AnyAssumed(m, o, c), err
}

func (c Config) setup() (west1920.Setup, error) {
	var s west1920.Setup
	if c.Options != nil {
		b, err := json.Marshal(c.Options)
		if err != nil {
			return s, fmt.Errorf("west1920game: options: %w", err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s.Options); err != nil {
			return s, fmt.Errorf("west1920game: options: %w", err)
		}
	}
	return s, nil
}

// Roll is the engine's roll with where each die came from (keypad, page,
// virtual), journalled as {"type":"roll","dice":[…],"rolls":[…]} so the
// fairness watch sees the physical dice after a restart too. The engine
// gets west1920.Roll.
type Roll struct {
	west1920.Roll
	Rolls []dice.Roll `json:"rolls,omitempty"`
}

func (Roll) Type() string { return "roll" }

// Actions is the table's codec: the engine's actions, with Roll in place
// of the engine's roll (a script's roll line without rolls reads the same).
var Actions = rules.NewCodec("west1920game",
	west1920.StartGame{}, west1920.DrawCard{}, west1920.PlayCard{}, Roll{}, west1920.Pass{}, west1920.BuildDepot{},
	west1920.RemoveDepot{}, west1920.AssignChit{}, west1920.Order{}, west1920.DiscardChit{}, west1920.MoveHQ{},
	west1920.Withdraw{}, west1920.Attack{}, west1920.CardBonus{}, west1920.Losses{}, west1920.Retreat{}, west1920.Pursue{}, west1920.Replace{},
	west1920.StrategicMove{}, west1920.Place{}, west1920.Choose{}, west1920.Adjust{},
)

// engineAction is what the engine takes for a table action.
func engineAction(a rules.Action) rules.Action {
	if r, ok := a.(Roll); ok {
		return r.Roll
	}
	return a
}

// step is the engine behind the adapter.
func step(s west1920.State, a rules.Action) (west1920.State, []west1920.Event, error) {
	return west1920.Apply(s, engineAction(a))
}

// stepAllowing is step with the referee's waiver (flag but allow).
func stepAllowing(s west1920.State, a rules.Action, w *rules.Waiver) (west1920.State, []west1920.Event, error) {
	return west1920.ApplyAllowing(s, engineAction(a), w)
}

// Game is How the West was Saved at one table: the engine's state in the
// adapter, the dice entered so far for the pending roll (lost on a
// restart: enter them again) and the screens' overlays, computed once per
// state.
type Game struct {
	// sample: the game's data marks something assumed (docs/box.md).
	sample bool
	gamespec.Adapter[west1920.State, west1920.Event]
	seed    uint64
	virtual bool
	rng     *rand.Rand
	// entered are the dice keyed in for the pending roll, by slot, while
	// the state is the adapter's version enteredAt (any new state drops
	// them: they were for the roll it waited for).
	entered   []dice.Roll
	enteredAt uint64
	// derived is what every view shows on top of the state, computed for
	// the adapter's version derivedAt.
	derived   *derived
	derivedAt uint64
}

// enteredDice are the dice entered for the current state's pending roll.
func (g *Game) enteredDice() []dice.Roll {
	if g.enteredAt != g.Version() {
		g.entered, g.enteredAt = nil, g.Version()
	}
	return g.entered
}

// New reads the config's west-1920 section.
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
	if c.Deck != "" && c.Deck != "tags" && c.Deck != "virtual" {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(ID + ".deck"), Msg: fmt.Sprintf("west1920game: deck %q: want tags (the tagged cards) or virtual", c.Deck)}
	}
	setup, err := c.setup()
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(ID + ".options"), Msg: err.Error()}
	}
	start, err := cat.NewGame(setup)
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(ID), Msg: err.Error()}
	}
	seed := c.Seed
	if seed == 0 {
		seed = cfg.DiceSeed()
	}
	g := newGame(start, seed, cfg.DiceSeed(), c.Deck == "virtual")
	g.sample = sample
	return g, nil
}

// newGame is a table's game: the virtual deck shuffled by seed, the
// virtual dice rolled from diceSeed.
func newGame(start west1920.StartGame, seed, diceSeed uint64, virtual bool) *Game {
	g := &Game{seed: seed, virtual: virtual, rng: rand.New(rand.NewPCG(diceSeed, 0x77657374))}
	g.Adapter = gamespec.Adapter[west1920.State, west1920.Event]{
		ID: ID, Codec: Actions, Opening: start, Step: step, Allowing: stepAllowing,
		Show: func(s west1920.State, v gamespec.Viewer) any { return show(s, v, g.overlays()) },
	}
	return g
}

// RollsIn lists the dice an action carries, for the fairness watch.
func (g *Game) RollsIn(a gamespec.Action) []dice.Roll {
	if r, ok := a.(Roll); ok {
		return r.Rolls
	}
	return nil
}

func rejected(code string, t rules.Text) []gamespec.Notice {
	return []gamespec.Notice{{Type: wire.NoticeRejected, Code: code, Text: t}}
}

func one(a rules.Action) ([]gamespec.Action, []gamespec.Notice) {
	return []gamespec.Action{a}, nil
}

// ReaderSide is the side of a seat reader or keypad (seat-1, seat-2), ""
// for another.
func ReaderSide(name string) string {
	n, err := strconv.Atoi(strings.TrimPrefix(name, "seat-"))
	if !strings.HasPrefix(name, "seat-") || err != nil {
		return ""
	}
	return SideOfSeat(n)
}

// ReaderName is a seat's reader in words (companion.ReaderNamer): the
// Polish or the Russian player's.
func (g *Game) ReaderName(reader string) (rules.Text, bool) {
	switch ReaderSide(reader) {
	case west1920.Polish:
		return rules.Text{PL: "czytniku gracza polskiego", EN: "the Polish player's reader"}, true
	case west1920.Russian:
		return rules.Text{PL: "czytniku gracza rosyjskiego", EN: "the Russian player's reader"}, true
	}
	return rules.Text{}, false
}

// CardID is an event card's tag id: "event-12".
func CardID(n int) string { return fmt.Sprintf("event-%02d", n) }

// parseCard reads a card number ("12") or tag id ("event-12").
func parseCard(s west1920.State, arg string) (int, *rules.Text) {
	n, err := strconv.Atoi(strings.TrimPrefix(arg, "event-"))
	if err == nil {
		if cat := s.Catalogue(); cat != nil {
			if _, ok := cat.Cards[n]; ok {
				return n, nil
			}
		}
	}
	t := rules.Textf("%q nie jest kartą zdarzeń tej gry (1–40 albo event-NN)", "%q is not an event card of this game (1–40 or event-NN)", arg)
	return 0, &t
}

// Bind turns the table's inputs into the engine's actions.
func (g *Game) Bind(in gamespec.Input) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	if s.Catalogue() == nil {
		return nil, rejected("not_started", rules.Textf("gra się jeszcze nie zaczęła", "the game has not started"))
	}
	switch {
	case in.Tag != nil && in.Tag.Present && in.TagInfo != nil:
		if in.TagInfo.Kind != "card" {
			return nil, []gamespec.Notice{{Type: wire.NoticeTagIgnored, UID: in.Tag.UID, Device: in.Tag.Reader,
				Text: rules.Textf("karta %s (%s) nie ma znaczenia w tej grze", "card %s (%s) means nothing in this game", in.TagInfo.ID, in.TagInfo.Kind)}}
		}
		side := ReaderSide(in.Tag.Reader)
		if side == "" {
			return nil, rejected("unknown_reader", rules.Textf("czytnik %q nie jest miejscem gracza (seat-1 polski, seat-2 rosyjski)",
				"reader %q is not a player's seat (seat-1 Polish, seat-2 Russian)", in.Tag.Reader))
		}
		n, bad := parseCard(s, in.TagInfo.ID)
		if bad != nil {
			return nil, rejected("unknown_card", *bad)
		}
		return g.scanned(s, side, n)
	case in.Key != nil:
		for _, a := range in.Args {
			if !utf8.ValidString(a) {
				return nil, rejected("bad_args", rules.Textf("%s: argument %q nie jest tekstem UTF-8", "%s: argument %q is not UTF-8 text", in.Key.Key, a))
			}
		}
		who := ""
		switch in.From.Kind {
		case wire.Seat:
			who = SideOfSeat(in.From.Seat())
			if who == "" {
				return nil, rejected("no_side", rules.Textf("miejsce %d nie gra żadną stroną (1 polska, 2 rosyjska)", "seat %d plays no side (1 Polish, 2 Russian)", in.From.Seat()))
			}
		case wire.Keys:
			who = ReaderSide(in.Key.Keypad)
		}
		if v, err := strconv.Atoi(in.Key.Key); err == nil && len(in.Key.Key) == 1 && len(in.Args) == 0 {
			return g.die(s, v, in.Key.Keypad, in.From, who)
		}
		return g.command(s, in.Key.Key, in.Args, in.Key.Keypad, who, in.From)
	case len(in.Dice) > 0:
		return g.cameraRoll(s, in.Dice)
	}
	return nil, nil
}

// cameraRoll is a throw the camera read in its tray: every die the
// engine waits for at once. Two dice go white first, red second by their
// colour, as the white and red keypads do; the rulebook's two dice differ
// only by colour, so a throw of two dice the camera does not see as one
// white and one red is refused (roll dice of those colours, or key them
// in) rather than ordered by a guess.
func (g *Game) cameraRoll(s west1920.State, ds []gamespec.CameraDie) ([]gamespec.Action, []gamespec.Notice) {
	p := s.Pending
	if p == nil || p.Action != "roll" {
		return nil, rejected("no_roll", rules.Textf("teraz nikt nie rzuca kośćmi", "no roll is awaited now"))
	}
	if n := mayAct(s, ""); n != nil {
		return nil, n
	}
	if len(ds) != p.Dice {
		return nil, rejected("dice_count", rules.Textf("silnik czeka na %d kości, w tacce leży %d", "the engine waits for %d dice, the tray shows %d", p.Dice, len(ds)))
	}
	rolls := gamespec.CameraRolls(ds)
	if p.Dice == 2 {
		rolls = make([]dice.Roll, 2)
		for _, d := range ds {
			i := slot(d.Colour, rolls, 2)
			if (d.Colour != "white" && d.Colour != "red") || rolls[i].Value != 0 {
				return nil, rejected("dice_colours", rules.Textf("kamera widzi kości %s i %s, a dwie kości rozróżnia kolor (biała pierwsza, czerwona druga): rzućcie białą i czerwoną albo wpiszcie wynik",
					"the camera sees %s and %s dice, and the two dice are told apart by colour (white first, red second): throw a white and a red die, or key the result in", ds[0].Colour, ds[1].Colour))
			}
			rolls[i] = d.Roll
		}
	}
	g.entered = nil
	return one(rollOf(rolls))
}

// scanned is an event card laid on side's reader: played when it is in
// that side's hand, drawn when it is in the deck (the engine checks that
// the side may draw or play now).
func (g *Game) scanned(s west1920.State, side string, n int) ([]gamespec.Action, []gamespec.Notice) {
	mine, theirs := s.Player(side), s.Player(other(side))
	switch {
	case slices.Contains(mine.Hand, n):
		return one(west1920.PlayCard{Side: side, Card: n})
	case slices.Contains(s.Deck, n):
		return one(west1920.DrawCard{Side: side, Card: n})
	}
	var title rules.Text
	if cat := s.Catalogue(); cat != nil {
		title = cat.Cards[n].Titles()
	}
	if slices.Contains(theirs.Hand, n) {
		return nil, rejected("wrong_side", rules.Textf("karta %d (%s) jest na ręce przeciwnika: nie na tym czytniku", "card %d (%s) is in the opponent's hand: not on this reader", n, title))
	}
	return nil, rejected("not_in_play", rules.Textf("karta %d (%s) nie jest ani w talii, ani na ręce (zagrana lub odłożona)", "card %d (%s) is neither in the deck nor in a hand (played or put aside)", n, title))
}

func other(side string) string {
	if side == west1920.Polish {
		return west1920.Russian
	}
	return west1920.Polish
}

// waiting is the side the game waits for: the pending decision's, or the
// turn's; "" for both (a combat roll) or nobody.
func waiting(s west1920.State) string {
	if p := s.Pending; p != nil {
		return p.Side
	}
	return s.Turn
}

func sideName(side string) rules.Text {
	if side == west1920.Polish {
		return rules.Text{PL: "gracz polski", EN: "the Polish player"}
	}
	return rules.Text{PL: "gracz rosyjski", EN: "the Russian player"}
}

// mayAct refuses a player acting when the game waits for the other side
// (the replacement phase lets both act).
func mayAct(s west1920.State, who string) []gamespec.Notice {
	if s.Phase == west1920.PhaseOver {
		return rejected("game_over", rules.Textf("gra się skończyła", "the game is over"))
	}
	w := waiting(s)
	if who == "" || w == "" || w == who || (s.Pending == nil && s.Phase == west1920.PhaseReplacement) {
		return nil
	}
	return rejected("not_your_turn", rules.Textf("%[1]s nie może działać za przeciwnika: teraz decyduje %[3]s",
		"%[2]s cannot act for the opponent: %[4]s decides now", sideName(who).PL, sideName(who).EN, sideName(w).PL, sideName(w).EN))
}

// slot is where a die from keypad goes in a roll of n dice: white first,
// red second (resource roll: white − red; combat: attacker, defender;
// first roll: Polish, Russian); other keypads fill the next empty slot.
func slot(keypad string, entered []dice.Roll, n int) int {
	if n == 2 {
		switch keypad {
		case "white":
			return 0
		case "red":
			return 1
		}
	}
	for i, r := range entered {
		if r.Value == 0 {
			return i
		}
	}
	return -1
}

// die is one die keyed in (a keypad's 1–6, or a page's die key): the roll
// is sent when every die the engine waits for is in.
func (g *Game) die(s west1920.State, v int, keypad string, from gamespec.Sender, who string) ([]gamespec.Action, []gamespec.Notice) {
	p := s.Pending
	if p == nil || p.Action != "roll" {
		return nil, rejected("no_roll", rules.Textf("teraz nikt nie rzuca kośćmi", "no roll is awaited now"))
	}
	if n := mayAct(s, who); n != nil {
		return nil, n
	}
	if len(g.enteredDice()) != p.Dice {
		g.entered = make([]dice.Roll, p.Dice)
	}
	i := slot(keypad, g.entered, p.Dice)
	if i < 0 {
		g.entered = make([]dice.Roll, p.Dice)
		i = slot(keypad, g.entered, p.Dice)
	}
	r := dice.Roll{Value: v, Origin: dice.Keypad, Device: keypad}
	if from.Kind == wire.Ref {
		r = dice.Roll{Value: v, Origin: dice.Referee}
	}
	if err := r.Validate(); err != nil {
		return nil, rejected("bad_die", rules.Textf("kość %d: ścianki 1–6", "die %d: faces 1–6", v))
	}
	g.entered[i] = r
	for _, e := range g.entered {
		if e.Value == 0 {
			return nil, []gamespec.Notice{{Type: wire.NoticeDieEntered, Device: keypad,
				Text: rules.Textf("kość %d z %d: %d; czekam na resztę", "die %d of %d: %d; waiting for the rest", i+1, p.Dice, v)}}
		}
	}
	rolls := g.entered
	g.entered = nil
	return one(rollOf(rolls))
}

func rollOf(rolls []dice.Roll) Roll {
	r := Roll{Rolls: slices.Clone(rolls)}
	for _, d := range rolls {
		r.Dice = append(r.Dice, d.Value)
	}
	return r
}

// argErr is a command's arguments that do not fit.
func argErr(cmd, pl, en string) []gamespec.Notice {
	return rejected("bad_args", rules.Text{PL: cmd + ": " + pl, EN: cmd + ": " + en})
}

// parseHex reads a hex of the map (CCRR).
func parseHex(s west1920.State, arg string) (west1920.Hex, *rules.Text) {
	h := west1920.Hex(arg)
	if s.Catalogue().Board.Index(h) < 0 {
		t := rules.Textf("%q nie jest heksem mapy (CCRR)", "%q is not a hex of the map (CCRR)", arg)
		return "", &t
	}
	return h, nil
}

func parseFacing(arg string) *rules.Text {
	if _, ok := west1920.ParseDir(arg); ok {
		return nil
	}
	t := rules.Textf("kierunek %q: N, NE, SE, S, SW albo NW", "facing %q: N, NE, SE, S, SW or NW", arg)
	return &t
}

// command maps a command (a key, a page's button) to actions; who is the
// side of the player who sent it, "" for the referee or the table's keys
// (they act for whoever the game waits for).
func (g *Game) command(s west1920.State, name string, args []string, keypad, who string, from gamespec.Sender) ([]gamespec.Action, []gamespec.Notice) {
	if name == "undo" {
		g.entered = nil
		return nil, []gamespec.Notice{{Type: wire.NoticeDiceCleared, Text: rules.Textf("wpisane kości wyczyszczone", "the dice entered are cleared")}}
	}
	if n := mayAct(s, who); n != nil && name != "adjust" {
		return nil, n
	}
	side := who
	if side == "" {
		side = waiting(s)
	}
	need := func(min, max int, pl, en string) []gamespec.Notice {
		if len(args) < min || len(args) > max {
			return argErr(name, pl, en)
		}
		return nil
	}
	hexes := func(from int) ([]west1920.Hex, []gamespec.Notice) {
		var out []west1920.Hex
		for _, a := range args[from:] {
			h, bad := parseHex(s, a)
			if bad != nil {
				return nil, rejected("bad_hex", *bad)
			}
			out = append(out, h)
		}
		return out, nil
	}
	switch name {
	case "pass":
		if n := need(0, 1, "bez argumentów albo strona (polish, russian)", "no arguments or a side (polish, russian)"); n != nil {
			return nil, n
		}
		if len(args) == 1 {
			if who != "" && args[0] != who {
				return nil, rejected("not_your_side", rules.Textf("gracz działa tylko za swoją stronę", "a player acts for their own side only"))
			}
			side = args[0]
		}
		if side == "" && s.Pending == nil && s.Phase == west1920.PhaseReplacement {
			// 10.0: both may act; the referee's pass is the first side's
			// that has not passed yet (Polish first).
			for _, sd := range []string{west1920.Polish, west1920.Russian} {
				if p := s.Player(sd); p != nil && !p.Passed {
					side = sd
					break
				}
			}
		}
		if s.Pending != nil && s.Pending.Action == "pursue" {
			return one(west1920.Pursue{Side: s.Pending.Side, Units: []string{}})
		}
		return one(west1920.Pass{Side: side})
	case "roll":
		return g.roll(s, args, keypad, from)
	case "draw":
		if n := need(0, 1, "bez argumentów (talia wirtualna) albo numer karty", "no arguments (virtual deck) or a card number"); n != nil {
			return nil, n
		}
		if len(args) == 1 {
			c, bad := parseCard(s, args[0])
			if bad != nil {
				return nil, rejected("unknown_card", *bad)
			}
			return one(west1920.DrawCard{Side: side, Card: c})
		}
		return g.drawVirtual(s, side)
	case "play":
		if n := need(1, 1, "podaj numer karty z ręki", "name a card of the hand"); n != nil {
			return nil, n
		}
		c, bad := parseCard(s, args[0])
		if bad != nil {
			return nil, rejected("unknown_card", *bad)
		}
		return one(west1920.PlayCard{Side: side, Card: c})
	case "depot", "remove_depot", "chit", "discard":
		if n := need(1, 1, "podaj heks", "name a hex"); n != nil {
			return nil, n
		}
		hs, n := hexes(0)
		if n != nil {
			return nil, n
		}
		switch name {
		case "depot":
			return one(west1920.BuildDepot{Side: side, Hex: hs[0]})
		case "remove_depot":
			return one(west1920.RemoveDepot{Side: side, Hex: hs[0]})
		case "chit":
			return one(west1920.AssignChit{Side: side, Hex: hs[0]})
		}
		return one(west1920.DiscardChit{Side: side, Hex: hs[0]})
	case "turn":
		if n := need(2, 2, "podaj heks stosu i kierunek", "name the stack's hex and a facing"); n != nil {
			return nil, n
		}
		h, bad := parseHex(s, args[0])
		if bad == nil {
			bad = parseFacing(args[1])
		}
		if bad != nil {
			return nil, rejected("bad_args", *bad)
		}
		return one(west1920.Order{Side: side, Hex: h, Facing: args[1]})
	case "move":
		if n := need(2, 3, "podaj stos (heks lub jednostkę), heks docelowy i opcjonalnie kierunek", "name the stack (a hex or a unit), the destination hex and optionally a facing"); n != nil {
			return nil, n
		}
		facing := ""
		if len(args) == 3 {
			if bad := parseFacing(args[2]); bad != nil {
				return nil, rejected("bad_args", *bad)
			}
			facing = args[2]
		}
		to, bad := parseHex(s, args[1])
		if bad != nil {
			return nil, rejected("bad_hex", *bad)
		}
		return g.move(s, side, args[0], to, facing)
	case "attack":
		return attack(s, side, args)
	case "losses":
		if n := need(1, wire.MaxCommandArgs, "podaj jednostki, po jednej na stratę", "name the units, one per loss"); n != nil {
			return nil, n
		}
		return one(west1920.Losses{Side: side, Units: slices.Clone(args)})
	case "retreat":
		if n := need(0, wire.MaxCommandArgs, "", ""); n != nil {
			return nil, n
		}
		// retreat H1 H2 [FACING] [eliminate UNIT…]; no hexes: no path
		// (the stack is eliminated, 9.5b).
		r := west1920.Retreat{Side: side}
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "eliminate":
				r.Eliminate = slices.Clone(args[i+1:])
				i = len(args)
			case parseFacing(a) == nil:
				r.Facing = a
			default:
				h, bad := parseHex(s, a)
				if bad != nil {
					return nil, rejected("bad_hex", *bad)
				}
				r.Path = append(r.Path, h)
			}
		}
		return one(r)
	case "pursue":
		p := west1920.Pursue{Side: side, Units: []string{}}
		for _, a := range args {
			unit, hex, ok := strings.Cut(a, "@")
			if !ok {
				p.Units = append(p.Units, a)
				continue
			}
			h, bad := parseHex(s, hex)
			if bad != nil {
				return nil, rejected("bad_hex", *bad)
			}
			p.Further = append(p.Further, west1920.PursuitStep{Unit: unit, Hex: h})
		}
		return one(p)
	case "replace":
		if n := need(1, 1, "podaj osłabioną jednostkę", "name a weakened unit"); n != nil {
			return nil, n
		}
		if who == "" {
			for _, u := range s.Units {
				if u.ID == args[0] {
					side = u.Side
				}
			}
		}
		return one(west1920.Replace{Side: side, Unit: args[0]})
	case "hq":
		if n := need(2, 2, "podaj dowództwo i heks docelowy", "name the HQ and the destination hex"); n != nil {
			return nil, n
		}
		to, bad := parseHex(s, args[1])
		if bad != nil {
			return nil, rejected("bad_hex", *bad)
		}
		return g.move(s, side, args[0], to, "")
	case "strategic":
		if n := need(2, 3, "podaj jednostkę, heks docelowy i opcjonalnie kierunek", "name the unit, the destination hex and optionally a facing"); n != nil {
			return nil, n
		}
		to, bad := parseHex(s, args[1])
		if bad == nil && len(args) == 3 {
			bad = parseFacing(args[2])
		}
		if bad != nil {
			return nil, rejected("bad_args", *bad)
		}
		facing := ""
		if len(args) == 3 {
			facing = args[2]
		}
		return strategic(s, side, args[0], to, facing)
	case "place":
		if n := need(1, 3, "podaj heks (albo jednostkę i heks) i opcjonalnie kierunek", "name the hex (or the unit and the hex) and optionally a facing"); n != nil {
			return nil, n
		}
		pl := west1920.Place{Side: side}
		if s.Pending != nil {
			pl.Unit = s.Pending.Unit
		}
		rest := args
		if _, bad := parseHex(s, rest[0]); bad != nil && len(rest) > 1 {
			pl.Unit, rest = rest[0], rest[1:]
		}
		h, bad := parseHex(s, rest[0])
		if bad != nil {
			return nil, rejected("bad_hex", *bad)
		}
		pl.Hex = h
		if len(rest) > 1 {
			if bad := parseFacing(rest[1]); bad != nil {
				return nil, rejected("bad_args", *bad)
			}
			pl.Facing = rest[1]
		}
		return one(pl)
	case "choose":
		return one(west1920.Choose{Side: side, Targets: slices.Clone(args)})
	case "card_bonus":
		// card_bonus [CARD@HEX…]: the defender's card bonuses before the
		// combat roll (9.3); none: no bonus.
		cb := west1920.CardBonus{Side: side, Bonuses: []west1920.Bonus{}}
		for _, arg := range args {
			bo, n := parseBonus(s, arg)
			if n != nil {
				return nil, n
			}
			cb.Bonuses = append(cb.Bonuses, bo)
		}
		return one(cb)
	case "adjust":
		if from.Kind != wire.Ref {
			return nil, rejected("referee_only", rules.Textf("poprawki robi tylko sędzia", "only the referee adjusts counters"))
		}
		return adjust(s, args)
	}
	return nil, rejected("unknown_command", rules.Textf("polecenie %q nic tu nie robi", "command %q does nothing here", name))
}

// roll is a roll command: the dice it names (the physical dice read off
// the table on a keypad or a player's page, or the referee's entry), or
// with none the virtual dice.
func (g *Game) roll(s west1920.State, args []string, keypad string, from gamespec.Sender) ([]gamespec.Action, []gamespec.Notice) {
	p := s.Pending
	if p == nil || p.Action != "roll" {
		return nil, rejected("no_roll", rules.Textf("teraz nikt nie rzuca kośćmi", "no roll is awaited now"))
	}
	var rolls []dice.Roll
	if len(args) == 0 {
		for range p.Dice {
			rolls = append(rolls, dice.Roll{Value: 1 + g.rng.IntN(6), Origin: dice.Virtual})
		}
		return one(rollOf(rolls))
	}
	if len(args) != p.Dice {
		return nil, argErr("roll", fmt.Sprintf("silnik czeka na %d kości, podano %d", p.Dice, len(args)), fmt.Sprintf("the engine waits for %d dice, got %d", p.Dice, len(args)))
	}
	for _, a := range args {
		v, err := strconv.Atoi(a)
		r := dice.Roll{Value: v, Origin: dice.Keypad, Device: keypad}
		if from.Kind == wire.Ref {
			r = dice.Roll{Value: v, Origin: dice.Referee}
		}
		if err != nil || r.Validate() != nil {
			return nil, argErr("roll", fmt.Sprintf("kość %q: ścianki 1–6", a), fmt.Sprintf("die %q: faces 1–6", a))
		}
		rolls = append(rolls, r)
	}
	return one(rollOf(rolls))
}

// virtualOrder is the virtual deck: every card in the order of a shuffle
// fixed by the seed; a draw takes the first one still in the engine's deck,
// so the order never changes as cards leave (or come back).
func (g *Game) virtualOrder(s west1920.State) []int {
	var ids []int
	for id := range s.Catalogue().Cards {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	r := rand.New(rand.NewPCG(g.seed, 0x6576656e74))
	r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids
}

func (g *Game) drawVirtual(s west1920.State, side string) ([]gamespec.Action, []gamespec.Notice) {
	if !g.virtual {
		return nil, rejected("physical_deck", rules.Text{PL: "ten stół czyta karty zdarzeń z ich tagów (deck: tags): połóż kartę na czytniku gracza albo podaj jej numer; deck: virtual pozwala rozdawać wirtualnie",
			EN: "this table reads its event cards from their tags (deck: tags): lay the card on the player's reader or name its number; deck: virtual lets the daemon deal"})
	}
	for _, id := range g.virtualOrder(s) {
		if slices.Contains(s.Deck, id) {
			return one(west1920.DrawCard{Side: side, Card: id})
		}
	}
	return nil, rejected("deck_empty", rules.Textf("talia jest pusta", "the deck is empty"))
}

// parseBonus reads a card bonus CARD@HEX (9.3).
func parseBonus(s west1920.State, arg string) (west1920.Bonus, []gamespec.Notice) {
	card, hex, ok := strings.Cut(arg, "@")
	if !ok {
		return west1920.Bonus{}, argErr("card_bonus", fmt.Sprintf("%q: premia to KARTA@HEKS", arg), fmt.Sprintf("%q: a bonus is CARD@HEX", arg))
	}
	n, bad := parseCard(s, card)
	if bad != nil {
		return west1920.Bonus{}, rejected("unknown_card", *bad)
	}
	h, bad := parseHex(s, hex)
	if bad != nil {
		return west1920.Bonus{}, rejected("bad_hex", *bad)
	}
	return west1920.Bonus{Card: n, Hex: h}, nil
}

// attack: attack FROM TARGET [SUPPORT|-] [CARD@HEX…] (a card bonus: the
// card played this stage and the stack it helps or hinders, 9.3).
func attack(s west1920.State, side string, args []string) ([]gamespec.Action, []gamespec.Notice) {
	if len(args) < 2 {
		return nil, argErr("attack", "podaj stos atakujący, heks celu, opcjonalnie stos wspierający (albo -) i premie kart KARTA@HEKS",
			"name the attacking stack, the target hex, optionally a supporting stack (or -) and card bonuses CARD@HEX")
	}
	a := west1920.Attack{Side: side}
	for i, arg := range args {
		if strings.Contains(arg, "@") && i >= 2 {
			bo, n := parseBonus(s, arg)
			if n != nil {
				return nil, n
			}
			a.Bonuses = append(a.Bonuses, bo)
			continue
		}
		if i == 2 && arg == "-" {
			continue
		}
		if i > 2 {
			return nil, argErr("attack", fmt.Sprintf("%q: po stosie wspierającym tylko premie KARTA@HEKS", arg), fmt.Sprintf("%q: after the supporting stack only CARD@HEX bonuses", arg))
		}
		h, bad := parseHex(s, arg)
		if bad != nil {
			return nil, rejected("bad_hex", *bad)
		}
		switch i {
		case 0:
			a.From = h
		case 1:
			a.Target = h
		default:
			a.Support = h
		}
	}
	return one(a)
}

// adjust: adjust UNIT [hex=H] [weak=true|false] [status=S] [facing=F]
// [note=TEXT] — the referee's correction of one counter.
func adjust(s west1920.State, args []string) ([]gamespec.Action, []gamespec.Notice) {
	if len(args) < 2 {
		return nil, argErr("adjust", "podaj jednostkę i co najmniej jedną zmianę klucz=wartość (hex, weak, status, facing, note)",
			"name the unit and at least one key=value change (hex, weak, status, facing, note)")
	}
	a := west1920.Adjust{Unit: args[0]}
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, argErr("adjust", fmt.Sprintf("%q nie jest klucz=wartość", kv), fmt.Sprintf("%q is not key=value", kv))
		}
		switch k {
		case "hex":
			h, bad := parseHex(s, v)
			if bad != nil {
				return nil, rejected("bad_hex", *bad)
			}
			a.Hex = h
		case "weak":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, argErr("adjust", fmt.Sprintf("weak=%q: true albo false", v), fmt.Sprintf("weak=%q: true or false", v))
			}
			a.Weak = &b
		case "status":
			a.Status = v
		case "facing":
			if bad := parseFacing(v); bad != nil {
				return nil, rejected("bad_args", *bad)
			}
			a.Facing = v
		case "note":
			a.Note = v
		default:
			return nil, argErr("adjust", fmt.Sprintf("nieznany klucz %q", k), fmt.Sprintf("unknown key %q", k))
		}
	}
	return one(a)
}

// Conceal is an action as the public may know it (gamespec.Concealer):
// the card of a draw is its holder's secret until played (3.1); the rest
// of every action is public.
func (g *Game) Conceal(a gamespec.Action) gamespec.Action {
	if d, ok := a.(west1920.DrawCard); ok {
		return west1920.DrawCard{Side: d.Side}
	}
	return a
}

// SampleData says the game runs on data its rulebook does not print.
func (g *Game) SampleData() bool { return g.sample }
