// Package wotrushgame binds a World of Tanks: Rush table to its engine
// (rules/wotrush): each player's NFC reader (seat-N) plays, shows and pays
// with that player's cards, the market reader picks Reserve cards, the
// seat buttons and the players' pages answer the engine's questions (which
// base to defend, what to fire at, what to research). Everything a player
// puts together (a purchase, an attack) is an engine action (Select), so a
// restart loses nothing.
package wotrushgame

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
	"github.com/sztab/sztab/rules/wotrush"
)

// Config is the config file's wot-rush section: the setup (as a script's
// setup line) and, optionally, the table's own copies of the data files.
type Config struct {
	Players []wotrush.PlayerInfo `yaml:"players"`
	First   int                  `yaml:"first"`
	// Options are wotrush.Options by their JSON names (medals, odd_medal,
	// sabotage_chooser, defenders_in_squad, medal_achievement,
	// heavy_siege, defender_of_sieged_base, turn_doubles).
	Options      map[string]any      `yaml:"options"`
	Seed         uint64              `yaml:"seed"`
	Deck         []string            `yaml:"deck"`
	Garages      []wotrush.SeatOrder `yaml:"garages"`
	Achievements []string            `yaml:"achievements"`
	Data         DataFiles           `yaml:"data"`
}

// DataFiles name edited data files, relative to the config file; empty
// ones are the embedded defaults.
type DataFiles struct {
	Vehicles   string `yaml:"vehicles"`
	Components string `yaml:"components"`
}

// LoadCatalogue reads the data files, falling back to the embedded ones;
// resolve turns a configured path into a file path.
func LoadCatalogue(files DataFiles, resolve func(string) string) (*wotrush.Catalogue, error) {
	pack, err := box.Shipped(section)
	if err != nil {
		return nil, err
	}
	cat, _, err := LoadPackCatalogue(files, resolve, pack)
	return cat, err
}

// LoadPackCatalogue is LoadCatalogue with a box pack's files in place of
// the embedded ones; sample says the files mark something assumed.
func LoadPackCatalogue(files DataFiles, resolve func(string) string, pack *box.Pack) (cat *wotrush.Catalogue, sample bool, err error) {
	vn, v, err := pack.File(files.Vehicles, resolve, wotrush.VehiclesFile)
	if err != nil {
		return nil, false, err
	}
	cn, c, err := pack.File(files.Components, resolve, wotrush.ComponentsFile)
	if err != nil {
		return nil, false, err
	}
	cat, err = wotrush.ParseCatalogue(vn, v, cn, c)
	return cat, box.AnyAssumed(v, c), err
}

// setup turns the section into the engine's setup.
func (c Config) setup() (wotrush.Setup, error) {
	s := wotrush.Setup{Players: c.Players, First: c.First, Seed: c.Seed, Deck: c.Deck, Garages: c.Garages, Achievements: c.Achievements}
	if c.Options != nil {
		b, err := json.Marshal(c.Options)
		if err != nil {
			return s, fmt.Errorf("wotrushgame: options: %w", err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s.Options); err != nil {
			return s, fmt.Errorf("wotrushgame: options: %w", err)
		}
	}
	// The medal card gives the player the choice ("może wziąć kartę z
	// dwoma Medalami zamiast dwóch kart z jednym Medalem"): a table asks
	// (a take_medals decision; its confirm key takes the most doubles, as
	// the rulebook recommends) unless the config names another rule. The
	// engine's zero value stays "doubles", so scripts and journals written
	// before replay as recorded: the journal keeps the option chosen here.
	if _, set := c.Options["medals"]; !set {
		s.Options.Medals = "choose"
	}
	return s, nil
}

// Game is World of Tanks: Rush at one table: the engine's state in the
// embedded adapter. The binder keeps nothing of its own.
type Game struct {
	// sample: the game's data marks something assumed (docs/box.md).
	sample bool
	gamespec.Adapter[wotrush.State, wotrush.Event]
}

const section = "wot-rush"

// New reads the config's wot-rush section.
func New(cfg gamespec.TableConfig) (gamespec.Game, error) {
	var c Config
	if err := cfg.DecodeSection(section, &c); err != nil {
		return nil, err
	}
	pack, err := box.ForConfig(cfg)
	if err != nil {
		return nil, err
	}
	cat, sample, err := LoadPackCatalogue(c.Data, cfg.Resolve, pack)
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(section + ".data"), Msg: err.Error()}
	}
	setup, err := c.setup()
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(section + ".options"), Msg: err.Error()}
	}
	if setup.Seed == 0 {
		setup.Seed = cfg.DiceSeed()
	}
	start, err := cat.NewGame(setup)
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line(section), Msg: err.Error()}
	}
	g := newGame(start)
	g.sample = sample
	return g, nil
}

func newGame(start wotrush.StartGame) *Game {
	g := &Game{}
	g.Adapter = gamespec.Adapter[wotrush.State, wotrush.Event]{
		ID: section, Codec: wotrush.Actions, Opening: start, Step: wotrush.Apply, Show: view, Allowing: wotrush.ApplyAllowing,
	}
	return g
}

// TableView is what the screens get: the engine's view for the viewer and
// the public counts the table keeps track of anyway (every medal taken and
// every card bought is taken in front of everyone), counted over the whole
// squad, face-down Garage included, without naming a hidden card.
type TableView struct {
	wotrush.State
	Stats []SeatStats `json:"stats"`
	// Leaders are the achievements in play and who leads each now.
	Leaders []Leader `json:"leaders"`
	// The catalogue's cards (Catalogue) shadow the state's: a view names
	// cards by id and never carries them.
	NoCards *struct{} `json:"cards,omitempty"`
}

// Catalogue is what never changes during a game, sent once (the
// table's catalogue topic) and left out of every view: the card table
// (every card of the box, wherever it lies: the view says where, by id),
// the cards' abilities and vehicle classes and the engine's actions in
// words. All of it is
// printed on the cards: no viewer may not see it.
func (g *Game) Catalogue() any {
	return catalogue{Cards: g.State().Cards, Abilities: wotrush.AbilityNames, Classes: wotrush.ClassNames, ActionNames: ActionNames}
}

type catalogue struct {
	Cards       map[string]wotrush.Card `json:"cards"`
	Abilities   map[string]rules.Text   `json:"abilities"`
	Classes     map[string]rules.Text   `json:"classes"`
	ActionNames map[string]rules.Text   `json:"action_names"`
}

// SeatStats are one player's public counts.
type SeatStats struct {
	Seat int `json:"seat"`
	// Medals are medal points by nation (a double counts 2).
	Medals map[string]int `json:"medals"`
	Squad  int            `json:"squad"`
	// Captured are the enemy base cards in the squad (3 points each).
	Captured int `json:"captured"`
}

// Leader is an achievement and the seats at the top of its count now (one
// seat: it leads; more: a tie, nobody would take it).
type Leader struct {
	Card  string     `json:"card"`
	Name  rules.Text `json:"name"`
	Seats []int      `json:"seats"`
	N     int        `json:"n"`
}

// view filters hidden information: every Garage's order, the deck, the
// other players' hands (not the active one's, laid face up).
func view(s wotrush.State, v gamespec.Viewer) any {
	var out TableView
	switch v.Role {
	case gamespec.RoleReferee:
		out.State = s.View(wotrush.Viewer{Referee: true})
	case gamespec.RolePlayer:
		out.State = s.View(wotrush.Viewer{Seat: v.Seat})
	default:
		out.State = s.View(wotrush.Viewer{})
	}
	out.Stats, out.Leaders = stats(s)
	return out
}

func stats(s wotrush.State) ([]SeatStats, []Leader) {
	var st []SeatStats
	for i, p := range s.Players {
		ss := SeatStats{Seat: p.Seat, Medals: map[string]int{}}
		squad := s.Squad(p.Seat)
		ss.Squad = len(squad)
		for _, id := range squad {
			c := s.Cards[id]
			switch c.Kind {
			case wotrush.KindMedal:
				ss.Medals[c.Nation] += c.Medals
			case wotrush.KindBase:
				if c.Set != i+1 {
					ss.Captured++
				}
			}
		}
		st = append(st, ss)
	}
	var leaders []Leader
	for _, id := range s.Achievements {
		c := s.Cards[id]
		if c.Achievement == nil {
			continue
		}
		l := Leader{Card: id, Name: c.Name, N: -1, Seats: []int{}}
		for _, p := range s.Players {
			n := s.AchievementCount(p.Seat, *c.Achievement)
			switch {
			case n > l.N:
				l.N, l.Seats = n, []int{p.Seat}
			case n == l.N:
				l.Seats = append(l.Seats, p.Seat)
			}
		}
		leaders = append(leaders, l)
	}
	return st, leaders
}

// waiting is the seat the game waits for: the one a decision is asked of,
// or the active player.
func waiting(s wotrush.State) int {
	if s.Pending != nil {
		return s.Pending.Seat
	}
	return s.Active
}

func rejected(code string, t rules.Text) []gamespec.Notice {
	return []gamespec.Notice{{Type: wire.NoticeRejected, Code: code, Text: t}}
}

// readerSeat is the seat of a reader or keypad named seat-N, 0 otherwise.
func readerSeat(name string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(name, "seat-"))
	if !strings.HasPrefix(name, "seat-") || err != nil || n < 1 {
		return 0
	}
	return n
}

// Market is the name of the reader the Reserve cards are scanned on.
const Market = "market"

func (g *Game) Bind(in gamespec.Input) ([]gamespec.Action, []gamespec.Notice) {
	switch {
	case in.Tag != nil && in.Tag.Present && in.TagInfo != nil:
		switch in.TagInfo.Kind {
		case "card":
			if in.Tag.Reader == Market {
				return g.market(in.TagInfo.ID)
			}
			if seat := readerSeat(in.Tag.Reader); seat > 0 {
				return g.seatCard(seat, in.TagInfo.ID)
			}
			return nil, rejected("unknown_reader", rules.Textf("czytnik %q nie jest ani miejscem gracza (seat-N), ani rynkiem (market)",
				"reader %q is neither a player's seat (seat-N) nor the market", in.Tag.Reader))
		case "command":
			return g.command(in.TagInfo.ID, nil, readerSeat(in.Tag.Reader))
		}
		return nil, []gamespec.Notice{{Type: wire.NoticeTagIgnored, UID: in.Tag.UID, Device: in.Tag.Reader,
			Text: rules.Textf("karta %s (%s) nie ma znaczenia w tej grze", "card %s (%s) means nothing in this game", in.TagInfo.ID, in.TagInfo.Kind)}}
	case in.Key != nil:
		// A player's page or topic acts for their seat; a seat's buttons
		// (keypad seat-N) for that seat; the table's other keys and the
		// referee for whoever the game waits for.
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

// mine refuses a seat acting when the game waits for another.
func mine(s wotrush.State, seat int) []gamespec.Notice {
	if s.Phase != wotrush.PhasePlay {
		return rejected("game_over", rules.Textf("gra się skończyła", "the game is over"))
	}
	w := waiting(s)
	if seat == 0 || seat == w {
		return nil
	}
	name := func(n int) string {
		if p := s.Player(n); p != nil {
			return p.Name
		}
		return fmt.Sprintf("#%d", n)
	}
	return rejected("not_your_turn", rules.Textf("miejsce %[1]d (%[2]s) nie może działać za gracza %[3]s: teraz czekamy na niego",
		"seat %[1]d (%[2]s) cannot act for %[3]s: the game waits for them", seat, name(seat), name(w)))
}

// inHand returns the actions that make card part of seat's hand: none when
// the engine has it there, a RevealHand when its guess put it in the
// Garage (the player holds it: the physical draw wins).
func inHand(s wotrush.State, seat int, card string) []gamespec.Action {
	p := s.Player(seat)
	if p != nil && !slices.Contains(p.Hand, card) && slices.Contains(p.Garage, card) {
		return []gamespec.Action{wotrush.RevealHand{Seat: seat, Cards: []string{card}}}
	}
	return nil
}

// after applies pre to s, for a dry run of what follows them.
func after(s wotrush.State, pre []gamespec.Action) wotrush.State {
	for _, a := range pre {
		if next, _, err := wotrush.Apply(s, a); err == nil {
			s = next
		}
	}
	return s
}

func unknownCard(id string) []gamespec.Notice {
	return rejected("unknown_card", rules.Textf("karta %q nie należy do tej gry", "card %q is not in this game", id))
}

// seatCard is a card scanned on seat's reader: the answer to a decision
// waiting for that seat, a card added to a purchase or an attack being put
// together, a card of the hand laid face up (turn step I) or a card played.
func (g *Game) seatCard(seat int, id string) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	if n := mine(s, seat); n != nil {
		return nil, n
	}
	if _, ok := s.Cards[id]; !ok {
		return nil, unknownCard(id)
	}
	if pd := s.Pending; pd != nil {
		switch pd.Kind {
		case wotrush.DecideDefend:
			return []gamespec.Action{wotrush.Defend{Seat: seat, Base: id}}, nil
		case wotrush.DecideSiege:
			return []gamespec.Action{wotrush.Siege{Seat: seat, Target: id}}, nil
		case wotrush.DecideResearch:
			return []gamespec.Action{wotrush.Research{Seat: seat, Take: id}}, nil
		case wotrush.DecideDismantle:
			return []gamespec.Action{wotrush.Dismantle{Seat: seat, Cards: []string{id}}}, nil
		case wotrush.DecideDiscard:
			// The card scanned is the victim's, whoever picked it (the
			// saboteur, with sabotage_chooser active, draws it blind
			// from the face-down hand): the physical hand wins.
			return append(inHand(s, pd.Victim, id), wotrush.Discard{Seat: seat, Card: id}), nil
		case wotrush.DecideFire:
			return []gamespec.Action{fireAt(s, id)}, nil
		case wotrush.DecideTakeMedals:
			return nil, rejected("answer_on_page", rules.Textf("ile kart z dwoma Medalami: odpowiedz na stronie gracza lub przyciskiem potwierdź",
				"how many double medal cards: answer on the player's page or with the confirm button"))
		}
	}
	p := s.Player(seat)
	pre := inHand(s, seat, id)
	if sel := s.Selection; sel != nil {
		switch sel.Mode {
		case wotrush.SelectBuy:
			pay := toggle(sel.Pay, id)
			buy := wotrush.Buy{Seat: seat, Cards: sel.Cards, Pay: pay}
			if len(sel.Cards) > 0 && len(pay) > len(sel.Pay) {
				if _, _, err := wotrush.Apply(after(s, pre), buy); err == nil {
					return append(pre, buy), nil
				}
			}
			return append(pre, wotrush.Select{Seat: seat, Mode: sel.Mode, Cards: sel.Cards, Pay: pay}), nil
		case wotrush.SelectAttack:
			return append(pre, wotrush.Select{Seat: seat, Mode: sel.Mode, Cards: toggle(sel.Cards, id)}), nil
		}
	}
	// Turn step I: the hand is laid face up, each card scanned once; from
	// the first purchase, play or attack on (or a card scanned twice) a
	// scan plays the card.
	if !s.Acted && (slices.Contains(p.Hand, id) || len(pre) > 0) && !slices.Contains(p.Shown, id) {
		return []gamespec.Action{wotrush.RevealHand{Seat: seat, Cards: []string{id}}}, nil
	}
	return append(pre, wotrush.PlayCard{Seat: seat, Card: id}), nil
}

// fireAt: a target scanned during an attack is fired at by the first
// declared attacker that may hit it (the page names both when it matters).
func fireAt(s wotrush.State, target string) wotrush.Fire {
	f := wotrush.Fire{Seat: s.Active, Target: target}
	if s.Attack == nil || len(s.Attack.Attackers) == 0 {
		return f
	}
	f.Attacker = s.Attack.Attackers[0]
	for _, at := range s.Attack.Attackers {
		try := wotrush.Fire{Seat: s.Active, Attacker: at, Target: target}
		if _, _, err := wotrush.Apply(s, try); err == nil {
			return try
		}
	}
	return f
}

func toggle(list []string, id string) []string {
	if i := slices.Index(list, id); i >= 0 {
		return slices.Delete(slices.Clone(list), i, i+1)
	}
	return append(slices.Clone(list), id)
}

// market is a card scanned on the market reader: the vehicle a Research
// takes, or a Reserve card to buy (without Recruitment it replaces the one
// picked before; with it, it is added or, scanned again, removed). A card
// the engine thought was still in the deck is shown first.
func (g *Game) market(id string) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	if n := mine(s, 0); n != nil {
		return nil, n
	}
	if _, ok := s.Cards[id]; !ok {
		return nil, unknownCard(id)
	}
	seat := waiting(s)
	var pre []gamespec.Action
	if !slices.Contains(s.Reserve, id) && slices.Contains(s.Deck, id) {
		pre = []gamespec.Action{wotrush.RevealReserve{Seat: s.Active, Cards: []string{id}}}
	}
	if pd := s.Pending; pd != nil {
		if pd.Kind == wotrush.DecideResearch {
			return append(pre, wotrush.Research{Seat: seat, Take: id}), nil
		}
		return nil, rejected("awaiting_decision", rules.Textf("najpierw: %[1]s", "first: %[2]s", pd.Text.PL, pd.Text.EN))
	}
	cards, pay := []string{id}, []string(nil)
	if sel := s.Selection; sel != nil && sel.Mode == wotrush.SelectBuy {
		pay = sel.Pay
		if s.Recruitment {
			cards = toggle(sel.Cards, id)
		}
	}
	if len(pay) > 0 && len(cards) > 0 {
		buy := wotrush.Buy{Seat: seat, Cards: cards, Pay: pay}
		if _, _, err := wotrush.Apply(after(s, pre), buy); err == nil {
			return append(pre, buy), nil
		}
	}
	return append(pre, wotrush.Select{Seat: seat, Mode: wotrush.SelectBuy, Cards: cards, Pay: pay}), nil
}

// argErr is a command's arguments that do not fit, in both languages.
func argErr(cmd, pl, en string) []gamespec.Notice {
	return rejected("bad_args", rules.Text{PL: cmd + ": " + pl, EN: cmd + ": " + en})
}

// command maps a command (a key, a page's button, a command card) to
// actions; seat is the player it comes from, 0 for the table or referee.
func (g *Game) command(name string, args []string, seat int) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	if n := mine(s, seat); n != nil {
		return nil, n
	}
	w := waiting(s)
	for _, a := range args {
		if _, ok := s.Cards[a]; !ok && name != "medals" {
			return nil, unknownCard(a)
		}
	}
	need := func(min, max int, pl, en string) []gamespec.Notice {
		if len(args) < min || len(args) > max {
			return argErr(name, pl, en)
		}
		return nil
	}
	switch name {
	case "next":
		if n := need(0, 0, "bez argumentów", "takes no arguments"); n != nil {
			return nil, n
		}
		return []gamespec.Action{wotrush.EndTurn{Seat: s.Active}}, nil
	case "end_game":
		return []gamespec.Action{wotrush.DeclareEnd{Reason: "sędzia / referee"}}, nil
	case "cancel":
		if s.Selection == nil {
			return nil, []gamespec.Notice{{Type: wire.NoticeSelectionCleared, Text: rules.Textf("nic nie jest wybrane", "nothing is selected")}}
		}
		return []gamespec.Action{wotrush.Select{Seat: s.Active}}, nil
	case "confirm":
		return g.confirm(s)
	case "play", "defend_only":
		if n := need(1, 1, "podaj jedną kartę z ręki", "name one card of the hand"); n != nil {
			return nil, n
		}
		return append(inHand(s, w, args[0]), wotrush.PlayCard{Seat: w, Card: args[0], Skip: name == "defend_only"}), nil
	case "buy":
		if n := need(2, wire.MaxCommandArgs, "podaj kartę z Rezerwy, potem karty, którymi płacisz", "name the Reserve card, then the cards that pay"); n != nil {
			return nil, n
		}
		return []gamespec.Action{wotrush.Buy{Seat: w, Cards: args[:1], Pay: args[1:]}}, nil
	case "attack":
		if len(args) == 0 {
			// Armed from a seat button: the attackers are scanned next.
			return []gamespec.Action{wotrush.Select{Seat: w, Mode: wotrush.SelectAttack}}, nil
		}
		return []gamespec.Action{wotrush.Attack{Seat: w, Cards: args}}, nil
	case "fire":
		if n := need(2, 2, "podaj atakujący Pojazd i cel", "name the attacker and the target"); n != nil {
			return nil, n
		}
		return []gamespec.Action{wotrush.Fire{Seat: w, Attacker: args[0], Target: args[1]}}, nil
	case "defend":
		if n := need(1, 1, "podaj jedną Bazę", "name one base"); n != nil {
			return nil, n
		}
		return []gamespec.Action{wotrush.Defend{Seat: w, Base: args[0]}}, nil
	case "siege":
		if n := need(1, 1, "podaj jeden cel", "name one target"); n != nil {
			return nil, n
		}
		return []gamespec.Action{wotrush.Siege{Seat: w, Target: args[0]}}, nil
	case "research":
		if n := need(0, 1, "podaj jeden Pojazd z Rezerwy albo nic", "name one Reserve vehicle or none"); n != nil {
			return nil, n
		}
		r := wotrush.Research{Seat: w}
		if len(args) == 1 {
			r.Take = args[0]
		}
		return []gamespec.Action{r}, nil
	case "dismantle":
		if n := need(1, 2, "podaj jedną lub dwie karty z Magazynu", "name one or two Magazine cards"); n != nil {
			return nil, n
		}
		return []gamespec.Action{wotrush.Dismantle{Seat: w, Cards: args}}, nil
	case "discard":
		if n := need(1, 1, "podaj jedną kartę z ręki", "name one card of the hand"); n != nil {
			return nil, n
		}
		// The card named is the victim's: a card the engine guessed in
		// their Garage is in the hand (the physical hand wins), so a
		// command is never refused for what only the hand could tell.
		var pre []gamespec.Action
		if pd := s.Pending; pd != nil && pd.Kind == wotrush.DecideDiscard {
			pre = inHand(s, pd.Victim, args[0])
		}
		return append(pre, wotrush.Discard{Seat: w, Card: args[0]}), nil
	case "medals":
		d, err := strconv.Atoi(strings.Join(args, ""))
		if len(args) != 1 || err != nil {
			return nil, argErr(name, "podaj liczbę kart z dwoma Medalami", "give the number of double medal cards")
		}
		return []gamespec.Action{wotrush.TakeMedals{Seat: w, Doubles: d}}, nil
	}
	return nil, rejected("unknown_key", rules.Textf("polecenie %q nic tu nie robi", "command %q does nothing here", name))
}

// confirm completes what is selected (the purchase, the attack) or answers
// a decision that has one answer (a single base, a single target; medals:
// the most doubles, as the rulebook recommends).
func (g *Game) confirm(s wotrush.State) ([]gamespec.Action, []gamespec.Notice) {
	w := waiting(s)
	if pd := s.Pending; pd != nil {
		if pd.Kind == wotrush.DecideTakeMedals {
			return []gamespec.Action{wotrush.TakeMedals{Seat: w, Doubles: pd.Max}}, nil
		}
		if only := wotrush.LegalActions(s); len(only) == 1 {
			return []gamespec.Action{only[0]}, nil
		}
		if pd.Kind == wotrush.DecideDiscard {
			// The choices are the victim's hand: a refusal is read by
			// everyone, so it does not list them.
			return nil, rejected("choose", rules.Textf("%[1]s — zeskanuj kartę z ręki lub wybierz na stronie gracza", "%[2]s — scan a card of the hand or choose on the player's page",
				pd.Text.PL, pd.Text.EN))
		}
		return nil, rejected("choose", rules.Textf("%[1]s — wybierz na stronie gracza lub zeskanuj kartę (%[3]s)", "%[2]s — choose on the player's page or scan the card (%[3]s)",
			pd.Text.PL, pd.Text.EN, strings.Join(pd.Options, ", ")))
	}
	if sel := s.Selection; sel != nil {
		switch sel.Mode {
		case wotrush.SelectBuy:
			return []gamespec.Action{wotrush.Buy{Seat: w, Cards: sel.Cards, Pay: sel.Pay}}, nil
		case wotrush.SelectAttack:
			return []gamespec.Action{wotrush.Attack{Seat: w, Cards: sel.Cards}}, nil
		}
	}
	return nil, rejected("nothing_to_confirm", rules.Textf("nie ma czego potwierdzić", "nothing to confirm"))
}

// SampleData says the game runs on data its rulebook does not print.
func (g *Game) SampleData() bool { return g.sample }
