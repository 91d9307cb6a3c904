// Package skirmishgame binds the table's sensors to the skirmish engine
// (rules/skirmish): unit cards deploy units and select shooter and target,
// the camera snapshot gives positions, distances, cover (from its terrain
// polygons), template and objective markers and jumps, the keypad gives the
// dice, order cards are read from their tags. Every call the camera cannot
// make within its uncertainty goes to the engine as unsure and waits for a
// ruling, as distances do.
//
// ModelPosition.Cover is not read: cover comes from the snapshot's terrain
// (vision.CoverMap), and no simulated script sets per-model cover. A
// snapshot without terrain gives no cover.
package skirmishgame

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/rules/skirmish"
	"github.com/sztab/sztab/vision"
)

// Config is the config file's skirmish section: the game's Setup and,
// optionally, the table's own copies of the data files and how the camera's
// template markers are read.
type Config struct {
	skirmish.Setup `yaml:",inline"`
	Data           DataFiles `yaml:"data"`
	// Template: "touch" (default: a base partly under the orange marker is
	// hit) or "centre" (only bases whose centre is under it). The rulebook
	// does not say; see rules/skirmish/camera.go.
	Template skirmish.TemplateRule `yaml:"template"`
}

// DataFiles name edited data files, relative to the config file; empty ones
// are the embedded defaults.
type DataFiles struct {
	Weapons string `yaml:"weapons"`
	Units   string `yaml:"units"`
	Orders  string `yaml:"orders"`
}

// LoadCatalogue reads the data files, falling back to the embedded ones;
// resolve turns a configured path into a file path.
func LoadCatalogue(files DataFiles, resolve func(string) string) (*skirmish.Catalogue, error) {
	def := skirmish.DefaultFiles()
	_, w, err := gamespec.DataFile(files.Weapons, resolve, "weapons.yaml", def)
	if err != nil {
		return nil, err
	}
	_, u, err := gamespec.DataFile(files.Units, resolve, "units.yaml", def)
	if err != nil {
		return nil, err
	}
	_, o, err := gamespec.DataFile(files.Orders, resolve, "orders.yaml", def)
	if err != nil {
		return nil, err
	}
	return skirmish.ParseCatalogue(w, u, o)
}

// Game is the skirmish game at one table: the engine's state (in the
// embedded adapter), and what the binder needs beyond it: the camera's
// latest snapshot and the virtual dice. Everything the players select is
// in the state, so the journal holds it.
type Game struct {
	gamespec.Adapter[skirmish.State, skirmish.Event]
	krokMM  float64
	virtual dice.Source
	// decks draw virtual order cards, one generator per seat, so the cards
	// one seat draws say nothing of another's; the cards drawn are
	// journaled, so replays do not depend on them.
	decks    map[int]*rand.Rand
	deckSeed uint64
	snap     *vision.Snapshot
	// template is which bases count as under a template marker.
	template skirmish.TemplateRule
}

// New reads the config's skirmish section.
func New(cfg gamespec.TableConfig) (gamespec.Game, error) {
	var c Config
	if err := cfg.DecodeSection("skirmish", &c); err != nil {
		return nil, err
	}
	cat, err := LoadCatalogue(c.Data, cfg.Resolve)
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line("skirmish.data"), Msg: err.Error()}
	}
	start, err := cat.NewGame(c.Setup)
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line("skirmish"), Msg: err.Error()}
	}
	switch c.Template {
	case "", skirmish.TemplateTouch, skirmish.TemplateCentre:
	default:
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line("skirmish.template"),
			Msg: fmt.Sprintf("skirmishgame: template %q, want %q or %q", c.Template, skirmish.TemplateTouch, skirmish.TemplateCentre)}
	}
	g := &Game{krokMM: cfg.KrokMM(), virtual: dice.NewSeeded(cfg.DiceSeed()),
		decks: map[int]*rand.Rand{}, deckSeed: cfg.DiceSeed(),
		template: c.Template}
	g.Adapter = gamespec.Adapter[skirmish.State, skirmish.Event]{
		ID: "skirmish", Codec: skirmish.Actions, Opening: start, Step: skirmish.Apply, Show: view, Allowing: skirmish.ApplyAllowing,
	}
	return g, nil
}

// view filters hidden information: army lists before deployment and order
// cards in other players' hands.
func view(s skirmish.State, v gamespec.Viewer) any {
	switch v.Role {
	case gamespec.RoleReferee:
		return s.View(skirmish.Viewer{Referee: true})
	case gamespec.RolePlayer:
		return s.View(skirmish.Viewer{Seat: v.Seat})
	}
	return s.View(skirmish.Viewer{})
}

// LegalActions are the action types the engine may take now.
func (g *Game) LegalActions() []string { return skirmish.LegalActions(g.State()) }

func (g *Game) Bind(in gamespec.Input) ([]gamespec.Action, []gamespec.Notice) {
	switch {
	case in.Snapshot != nil:
		g.snap = in.Snapshot
		return g.jumps(*in.Snapshot)
	case in.Tag != nil && in.Tag.Present && in.TagInfo != nil:
		switch in.TagInfo.Kind {
		case "unit":
			return g.unitCard(in.TagInfo.ID)
		case "card":
			return g.orderCard(in.TagInfo.ID, in.Tag.Reader)
		case "command":
			return g.command(in.TagInfo.ID, "nfc")
		}
		return nil, []gamespec.Notice{{Type: wire.NoticeTagIgnored, UID: in.Tag.UID, Device: in.Tag.Reader,
			Text: rules.Textf("karta %s (%s) nie ma znaczenia w tej grze", "card %s (%s) means nothing in this game", in.TagInfo.ID, in.TagInfo.Kind)}}
	case in.Key != nil && in.Key.Key == "end_game":
		return g.endGame(in)
	case in.Key != nil:
		if s := g.State(); in.From.Kind == wire.Seat && in.From.Seat() != s.ActiveSeat() {
			// A player's page or topic acts for their seat, on their turn;
			// the table's keys and the referee act for whoever's turn it is.
			return nil, rejected("not_your_turn", rules.Textf("teraz tura gracza %s", "it is %s's turn", s.Players[s.Active].Name))
		}
		if v, err := strconv.Atoi(in.Key.Key); err == nil {
			return []gamespec.Action{skirmish.Dice{Rolls: []dice.Roll{{Value: v, Origin: dice.Keypad, Device: in.Key.Keypad}}}}, nil
		}
		return g.command(in.Key.Key, in.Key.Keypad)
	case len(in.Dice) > 0:
		// a throw the camera read in its tray: the dice of the stage the
		// shot waits for, as keypad digits are, all at once
		return []gamespec.Action{skirmish.Dice{Rolls: gamespec.CameraRolls(in.Dice)}}, nil
	}
	return nil, nil
}

// jumps notes the models the camera saw cross an obstacle in the movement
// phase, on the straight line from where the state last placed them (the
// phase's start, or the last move) to where the snapshot sees them; the
// move that ends the phase carries them. A path within the uncertainty of
// an outline goes as unsure: the players or the referee rule on it once.
func (g *Game) jumps(sn vision.Snapshot) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	if !skirmish.Legal(s, "note_jumps") || len(sn.Terrain) == 0 {
		return nil, nil
	}
	start := vision.Snapshot{Terrain: sn.Terrain}
	mine := map[string]bool{}
	for _, u := range s.Units {
		if u.Owner != s.ActiveSeat() || !u.Deployed {
			continue
		}
		for _, m := range u.Models {
			if m.Removed || m.At == nil {
				continue
			}
			mine[m.ID] = true
			start.Models = append(start.Models, vision.ModelPosition{ID: m.ID, Unit: u.ID,
				X: m.At.X * g.krokMM, Y: m.At.Y * g.krokMM, SigmaMM: m.At.Sigma * g.krokMM})
		}
	}
	var sel skirmish.Selection
	if s.Selection != nil {
		sel = *s.Selection
	}
	var nj skirmish.NoteJumps
	for _, mv := range vision.Moves(start, sn) {
		if !mine[mv.Model] || slices.Contains(sel.Jumps, mv.Model) || slices.Contains(sel.NotJumped, mv.Model) {
			continue
		}
		jumped, unsure := skirmish.Jumped(skirmish.Path{MovedMM: mv.Distance.MM, MovedBoundMM: mv.Distance.BoundMM,
			DepthMM: mv.DepthMM, DepthBoundMM: mv.DepthBoundMM})
		switch {
		case unsure:
			nj.Unsure = append(nj.Unsure, mv.Model)
		case jumped:
			nj.Models = append(nj.Models, mv.Model)
		}
	}
	if len(nj.Models)+len(nj.Unsure) == 0 {
		return nil, nil
	}
	return []gamespec.Action{nj}, nil
}

func selectedJumps(s skirmish.State) []string {
	if s.Selection == nil {
		return nil
	}
	return s.Selection.Jumps
}

func rejected(code string, t rules.Text) []gamespec.Notice {
	return []gamespec.Notice{{Type: wire.NoticeRejected, Code: code, Text: t}}
}

// command maps a named key (or a command card) to an action.
func (g *Game) command(name, device string) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	shot := s.Shot
	ruling := skirmish.Legal(s, "ruling")
	switch name {
	case "next":
		switch s.Phase {
		case skirmish.PhaseMovement:
			return g.endMovement()
		case skirmish.PhaseObjectives:
			return g.placeObjective()
		}
		return []gamespec.Action{skirmish.EndPhase{}}, nil
	case "undo":
		return []gamespec.Action{skirmish.UndoDie{}}, nil
	case "confirm":
		if ruling {
			return []gamespec.Action{skirmish.Ruling{InRange: true, By: device}}, nil
		}
	case "cancel":
		if ruling {
			return []gamespec.Action{skirmish.Ruling{InRange: false, By: device}}, nil
		}
		if shot != nil {
			return []gamespec.Action{skirmish.CancelShot{}}, nil
		}
		if s.Selection != nil {
			return []gamespec.Action{skirmish.SelectShooter{}}, nil
		}
		return nil, []gamespec.Notice{{Type: wire.NoticeSelectionCleared, Text: rules.Textf("wybór anulowany", "selection cleared")}}
	case "roll":
		if !skirmish.Legal(s, "dice") {
			return nil, rejected("no_roll_needed", rules.Textf("nic nie czeka na rzut", "nothing is waiting for a roll"))
		}
		rolls, err := g.virtual.Roll(shot.Need - len(shot.Entered))
		if err != nil {
			return nil, rejected("virtual_dice", rules.Textf("wirtualne kości: %v", "virtual dice: %v", err))
		}
		return []gamespec.Action{skirmish.Dice{Rolls: rolls}}, nil
	case "discard":
		return []gamespec.Action{skirmish.ArmDiscard{}}, nil
	case "draw":
		return g.virtualDraw()
	}
	return nil, rejected("unknown_key", rules.Textf("klawisz %q nic tu nie robi", "key %q does nothing here", name))
}

// kroki converts a camera measurement to the engine's units, rounded so the
// journal stays short and the same on every platform.
func (g *Game) kroki(mm float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(mm/g.krokMM, 'f', 3, 64), 64)
	return v
}

func (g *Game) placement(m vision.ModelPosition) skirmish.Placement {
	return skirmish.Placement{Model: m.ID, X: g.kroki(m.X), Y: g.kroki(m.Y), Base: g.kroki(m.BaseMM), Sigma: g.kroki(m.SigmaMM)}
}

func (g *Game) noSnapshot() []gamespec.Notice {
	return rejected("no_measurement", rules.Textf("kamera jeszcze nie widziała stołu; nie ma pomiaru", "the camera has not seen the table yet; no measurement"))
}

// endMovement closes the movement phase: the active player's models whose
// position changed since the state last recorded it move, as the latest
// snapshot shows them, with the jumps the camera saw; the engine ends the
// phase once the move is taken, unless it needs a ruling first.
func (g *Game) endMovement() ([]gamespec.Action, []gamespec.Notice) {
	end := []gamespec.Action{skirmish.EndPhase{}}
	if g.snap == nil {
		return end, nil
	}
	s := g.State()
	mv := skirmish.Move{EndPhase: true}
	for _, vm := range g.snap.Models {
		u, ok := s.Unit(vm.Unit)
		if !ok || u.Owner != s.ActiveSeat() || !u.Deployed {
			continue
		}
		i := slices.IndexFunc(u.Models, func(m skirmish.Model) bool { return m.ID == vm.ID })
		if i < 0 || u.Models[i].Removed || u.Models[i].At == nil {
			continue
		}
		p := g.placement(vm)
		if at := u.Models[i].At; at.X == p.X && at.Y == p.Y {
			continue
		}
		mv.Models = append(mv.Models, p)
		if slices.Contains(selectedJumps(s), vm.ID) {
			mv.Jumped = append(mv.Jumped, vm.ID)
		}
	}
	if len(mv.Models) == 0 {
		return end, nil
	}
	return []gamespec.Action{mv}, nil
}

// unitCard: in deployment the card deploys its unit where the camera sees
// it; in the shooting phase the first card picks the shooter, the second the
// target. Scanning the shooter again picks its next weapon.
func (g *Game) unitCard(unit string) ([]gamespec.Action, []gamespec.Notice) {
	// A unit not on the table is known to its owner only: the refusals of
	// its card, scanned by anyone, are public, so they are those of a card
	// of no unit (in deployment the engine's, whose turn it is).
	s := g.State()
	switch s.Phase {
	case skirmish.PhaseDeployment:
		return g.deploy(unit)
	case skirmish.PhaseShooting:
	default:
		return nil, rejected("not_now", rules.Textf("karta oddziału %q: teraz nie rozmieszczamy ani nie strzelamy", "card of unit %q: nobody deploys or shoots now", unit))
	}
	u, ok := s.Unit(unit)
	if !ok || !u.Deployed {
		return nil, rejected("unknown_unit", rules.Textf("karta oddziału %q, którego nie ma na stole", "card of unit %q, which is not on the table", unit))
	}
	weapons := carried(u)
	var sel skirmish.Selection
	if s.Selection != nil {
		sel = *s.Selection
	}
	switch sel.Shooter {
	case "":
		return []gamespec.Action{skirmish.SelectShooter{Unit: unit, Weapon: weapons[0]}}, nil
	case unit:
		i := slices.Index(weapons, sel.Weapon)
		if len(weapons) > 1 && i+1 < len(weapons) {
			return []gamespec.Action{skirmish.SelectShooter{Unit: unit, Weapon: weapons[i+1]}}, nil
		}
		return []gamespec.Action{skirmish.SelectShooter{}}, nil
	}
	if g.snap == nil {
		return nil, g.noSnapshot()
	}
	return g.declareShot(sel.Shooter, sel.Weapon, u)
}

// carried lists a unit's weapons, the one most models carry first.
func carried(u skirmish.Unit) []string {
	var ws []string
	count := map[string]int{}
	for _, m := range u.Models {
		if m.Removed {
			continue
		}
		if count[m.Weapon] == 0 {
			ws = append(ws, m.Weapon)
		}
		count[m.Weapon]++
	}
	slices.SortStableFunc(ws, func(a, b string) int { return count[b] - count[a] })
	if len(ws) == 0 {
		ws = []string{""}
	}
	return ws
}

func (g *Game) deploy(unit string) ([]gamespec.Action, []gamespec.Notice) {
	if g.snap == nil {
		return nil, g.noSnapshot()
	}
	d := skirmish.Deploy{Unit: unit}
	for _, vm := range g.snap.Models {
		if vm.Unit == unit {
			d.Models = append(d.Models, g.placement(vm))
		}
	}
	return []gamespec.Action{d}, nil
}

func (g *Game) declareShot(shooter, weapon string, target skirmish.Unit) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	su, _ := s.Unit(shooter)
	w, _ := su.Weapon(weapon)
	firing := map[string]vision.ModelPosition{}
	var targets []vision.ModelPosition
	for _, vm := range g.snap.Models {
		if vm.Unit == shooter {
			for _, m := range su.Models {
				if m.ID == vm.ID && !m.Removed && m.Weapon == weapon {
					firing[vm.ID] = vm
				}
			}
		}
		if vm.Unit == target.ID && slices.ContainsFunc(target.Models, func(m skirmish.Model) bool { return m.ID == vm.ID && !m.Removed }) {
			targets = append(targets, vm)
		}
	}
	if len(firing) == 0 || len(targets) == 0 {
		return nil, rejected("no_measurement", rules.Textf("kamera nie widzi modeli %s albo %s", "the camera does not see the models of %s or %s", su.Name, target.Name))
	}
	ids := sortedKeys(firing)
	var shooters []vision.ModelPosition
	for _, id := range ids {
		shooters = append(shooters, firing[id])
	}
	// Cover: the rules count the target models behind cover from every
	// firing model on the lines of fire the camera measures over the
	// snapshot's terrain (vision/sight.go); a close call goes as the
	// favourable reading, and the engine asks for a ruling. Nothing blocks
	// a line of fire in the rulebook, so NoLineOfFire stays empty.
	a := skirmish.DeclareShot{Shooter: shooter, Target: target.ID, Weapon: weapon, InCover: coverOf(g.snap.Terrain, shooters, targets)}
	if w.Template == "" {
		best := vision.Distance{MM: math.Inf(1)}
		for _, id := range ids {
			for _, t := range targets {
				if d := vision.EdgeDistance(firing[id], t); d.MM < best.MM {
					best = d
				}
			}
		}
		a.Distance = &skirmish.Measure{Kroki: g.kroki(best.MM), Uncertainty: g.kroki(best.BoundMM)}
		return []gamespec.Action{a}, nil
	}
	// Template weapons: each orange marker with a target model under it
	// (or at its edge, unsure) is one shot's marker.
	for _, mk := range g.snap.MarkersOf(vision.MarkerTemplate) {
		var gaps []skirmish.MarkerGap
		for _, gap := range vision.MarkerGaps(mk, targets) {
			gaps = append(gaps, skirmish.MarkerGap(gap))
		}
		under, unsure := skirmish.UnderTemplate(gaps, g.template)
		if len(under)+len(unsure) == 0 {
			continue
		}
		m := skirmish.Marker{Models: under, Unsure: unsure}
		if w.Range > 0 {
			best := vision.Distance{MM: math.Inf(1)}
			for _, id := range ids {
				f := firing[id]
				d := math.Max(0, math.Hypot(f.X-mk.X, f.Y-mk.Y)-f.BaseMM/2)
				if d < best.MM {
					best = vision.Distance{MM: d, BoundMM: 2 * math.Hypot(f.SigmaMM, mk.SigmaMM)}
				}
			}
			m.Distance = &skirmish.Measure{Kroki: g.kroki(best.MM), Uncertainty: g.kroki(best.BoundMM)}
		}
		a.Markers = append(a.Markers, m)
	}
	return []gamespec.Action{a}, nil
}

// coverOf is the rules' count of the target models behind cover from the
// shooters, on the lines of fire the camera measures over the terrain.
func coverOf(terrain []vision.Terrain, shooters, targets []vision.ModelPosition) skirmish.InCover {
	sights := vision.NewCoverMap(terrain).Sights(shooters, targets)
	seen := make([][]skirmish.Sighting, len(sights))
	for t, from := range sights {
		for _, sg := range from {
			seen[t] = append(seen[t], skirmish.Sighting{Low: sg.Low, High: sg.High})
		}
	}
	return skirmish.CoverFromSightings(seen)
}

func sortedKeys(m map[string]vision.ModelPosition) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// orderCard: a scanned order card is drawn into the hand of the player it
// belongs to, or put away after the "discard" key.
func (g *Game) orderCard(card, reader string) ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	if s.Phase != skirmish.PhaseOrders {
		return nil, rejected("not_now", rules.Textf("karty rozkazów dobiera się w fazie rozkazów", "order cards are drawn in the orders phase"))
	}
	seat := s.ActiveSeat()
	if s.Selection != nil && s.Selection.Discard {
		return []gamespec.Action{skirmish.DiscardOrder{Seat: seat, Card: card}}, nil
	}
	if s.Round == 0 {
		// Before turn 1 everyone draws: the card's deck says whose it is.
		if oc, ok := s.Data().Orders[card]; ok {
			for _, p := range s.Players {
				ps := seatState(s, p.Seat)
				if p.Faction == oc.Faction && ps != nil && len(ps.Hand) < s.Options.HandSize {
					seat = p.Seat
					break
				}
			}
		}
	}
	return []gamespec.Action{skirmish.DrawOrders{Seat: seat, Cards: []string{card}, Origin: dice.NFC, Device: reader}}, nil
}

// deck is seat's generator of virtual draws.
func (g *Game) deck(seat int) *rand.Rand {
	d, ok := g.decks[seat]
	if !ok {
		d = rand.New(rand.NewPCG(g.deckSeed, 0x6b617274<<8|uint64(seat)))
		g.decks[seat] = d
	}
	return d
}

func seatState(s skirmish.State, seat int) *skirmish.PlayerState {
	for i := range s.Seats {
		if s.Seats[i].Seat == seat {
			return &s.Seats[i]
		}
	}
	return nil
}

// virtualDraw deals the cards a player is missing from the part of the
// deck not yet drawn, in a seeded order (tables without card tags).
func (g *Game) virtualDraw() ([]gamespec.Action, []gamespec.Notice) {
	s := g.State()
	if s.Phase != skirmish.PhaseOrders {
		return nil, rejected("not_now", rules.Textf("karty rozkazów dobiera się w fazie rozkazów", "order cards are drawn in the orders phase"))
	}
	var out []gamespec.Action
	for _, p := range s.Players {
		if s.Round > 0 && p.Seat != s.ActiveSeat() {
			continue
		}
		ps := seatState(s, p.Seat)
		var left []string
		for _, c := range s.Data().Deck(p.Faction) {
			if !slices.Contains(ps.Drawn, c.ID) {
				left = append(left, c.ID)
			}
		}
		n := min(s.Options.HandSize-len(ps.Hand), len(left))
		if n <= 0 {
			continue
		}
		var cards []string
		for range n {
			i := g.deck(p.Seat).IntN(len(left))
			cards = append(cards, left[i])
			left = slices.Delete(left, i, i+1)
		}
		out = append(out, skirmish.DrawOrders{Seat: p.Seat, Cards: cards, Origin: dice.Virtual})
	}
	return out, nil
}

// placeObjective: "next" in the objectives phase places the marker the
// camera sees that is not an objective yet, for the player whose turn it is.
func (g *Game) placeObjective() ([]gamespec.Action, []gamespec.Notice) {
	if g.snap == nil {
		return nil, g.noSnapshot()
	}
	s := g.State()
	for _, c := range g.snap.MarkersOf(vision.MarkerObjective) {
		at := skirmish.Point{X: g.kroki(c.X), Y: g.kroki(c.Y), Sigma: g.kroki(c.SigmaMM)}
		known := slices.ContainsFunc(s.Objectives, func(o skirmish.Objective) bool {
			return math.Hypot(o.At.X-at.X, o.At.Y-at.Y) < 1
		})
		if !known {
			return []gamespec.Action{skirmish.PlaceObjective{Seat: s.ActiveSeat(), At: at}}, nil
		}
	}
	return nil, rejected("no_new_marker", rules.Textf("kamera nie widzi nowego znacznika punktu celu", "the camera sees no new objective marker"))
}

// endGame is the referee's end of the game: its argument names the
// winning faction or a player of it (none: no winner), its text is the
// reason.
func (g *Game) endGame(in gamespec.Input) ([]gamespec.Action, []gamespec.Notice) {
	if in.From.Kind != wire.Ref {
		return nil, rejected("referee_only", rules.Textf("grę kończy sędzia", "only the referee ends the game"))
	}
	s := g.State()
	end := skirmish.EndGame{By: "referee", Reason: strings.TrimSpace(in.Text)}
	if len(in.Args) > 1 {
		return nil, rejected("bad_args", rules.Textf("end_game: podaj jednego zwycięzcę (frakcję lub gracza) albo nikogo", "end_game: name one winner (a faction or a player) or none"))
	}
	if len(in.Args) == 1 {
		who := strings.TrimSpace(in.Args[0])
		for _, p := range s.Players {
			if strings.EqualFold(who, p.Faction) || strings.EqualFold(who, p.Name) {
				end.Winner = p.Faction
			}
		}
		if end.Winner == "" {
			return nil, rejected("unknown_winner", rules.Textf("end_game: %q nie jest frakcją ani graczem tej gry", "end_game: %q is neither a faction nor a player of this game", who))
		}
	}
	return []gamespec.Action{end}, nil
}
