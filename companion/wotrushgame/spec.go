package wotrushgame

import (
	_ "embed"
	"fmt"
	"github.com/sztab/sztab/companion/box"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/wotrush"
)

//go:embed panel.js
var panel []byte

// Spec registers World of Tanks: Rush with the daemon.
var Spec = gamespec.GameSpec{
	ID:       section,
	Title:    rules.Text{PL: "World of Tanks: Rush", EN: "World of Tanks: Rush"},
	New:      New,
	Commands: commands,
	Play:     play,
	Panel:    panel,
	Cards:    cards,
	Demo:     "wot-rush.yaml",
	Endings:  endings,
	Rulings:  rulings,
	// World of Tanks: Rush is 2–5 players; a pod of four is the common
	// tournament table for deck builders, and medals (the game's score)
	// rank all four, not just the winner.
	Tournament: gamespec.Tournament{Seats: 4, RoundMinutes: 60, Points: gamespec.Points{Mode: gamespec.ModeVP},
		TieBreaks: []string{gamespec.TieWins, gamespec.TieSOS},
		Why:       "pods of four, medals count, then wins, then Buchholz"},
	Box: box.Page,
}

// commands: next, confirm and cancel are the seat buttons; the rest carry
// card ids and come from the players' pages (or the referee's), each for
// the seat the game waits for.
var commands = wire.Vocabulary{
	{Name: "next", Label: rules.Text{PL: "Koniec tury", EN: "End the turn"}, From: wire.Anyone, Watch: "n"},
	{Name: "confirm", Label: rules.Text{PL: "Potwierdź (zakup, atak, jedyny wybór)", EN: "Confirm (purchase, attack, the only choice)"}, From: wire.Anyone, Watch: "c"},
	{Name: "cancel", Label: rules.Text{PL: "Anuluj wybór", EN: "Clear the selection"}, From: wire.Anyone, Watch: "x"},
	{Name: "attack", Label: rules.Text{PL: "Atak", EN: "Attack"}, From: wire.Anyone, Args: []string{"attacker…"}},
	{Name: "play", Label: rules.Text{PL: "Zagraj kartę", EN: "Play a card"}, From: wire.Seat | wire.Ref, Args: []string{"card"}},
	{Name: "defend_only", Label: rules.Text{PL: "Tylko obrona (bez zdolności)", EN: "Defend only (no abilities)"}, From: wire.Seat | wire.Ref, Args: []string{"card"}},
	{Name: "buy", Label: rules.Text{PL: "Kup", EN: "Buy"}, From: wire.Seat | wire.Ref, Args: []string{"reserve card", "paying card…"}},
	{Name: "fire", Label: rules.Text{PL: "Ogień", EN: "Fire"}, From: wire.Seat | wire.Ref, Args: []string{"attacker", "target"}},
	{Name: "defend", Label: rules.Text{PL: "Broń Bazy", EN: "Defend a base"}, From: wire.Seat | wire.Ref, Args: []string{"base"}},
	{Name: "siege", Label: rules.Text{PL: "Cel Oblężenia", EN: "Siege target"}, From: wire.Seat | wire.Ref, Args: []string{"target"}},
	{Name: "research", Label: rules.Text{PL: "Badania: weź Pojazd", EN: "Research: take a vehicle"}, From: wire.Seat | wire.Ref, Args: []string{"reserve card?"}},
	{Name: "dismantle", Label: rules.Text{PL: "Demontaż", EN: "Dismantle"}, From: wire.Seat | wire.Ref, Args: []string{"magazine card", "magazine card?"}},
	{Name: "discard", Label: rules.Text{PL: "Sabotaż: odłóż kartę", EN: "Sabotage: discard a card"}, From: wire.Seat | wire.Ref, Args: []string{"card"}},
	{Name: "medals", Label: rules.Text{PL: "Medale: ile podwójnych", EN: "Medals: how many doubles"}, From: wire.Seat | wire.Ref, Args: []string{"doubles"}},
	// A game that cannot end (nobody can attack or take a medal) is ended
	// by the referee and scored as at the normal end (AMBIGUITIES.md).
	{Name: "end_game", Label: rules.Text{PL: "Zakończ grę i policz punkty (sędzia)", EN: "End the game and score it (referee)"}, From: wire.Ref},
}

// LegalActions are the action types the engine takes now.
func (g *Game) LegalActions() []string {
	var out []string
	for _, a := range wotrush.LegalActions(g.State()) {
		if !slices.Contains(out, a.Type()) {
			out = append(out, a.Type())
		}
	}
	return out
}

// Seats are the players' seats.
func (g *Game) Seats() []int {
	var out []int
	for _, p := range g.State().Players {
		out = append(out, p.Seat)
	}
	return out
}

// ActiveSeat is the seat the game waits for (a decision's, or the turn's).
func (g *Game) ActiveSeat() int {
	s := g.State()
	if s.Phase != wotrush.PhasePlay {
		return 0
	}
	return waiting(s)
}

// medals is a player's medal points in the squad.
func medals(s wotrush.State, p wotrush.Player) int {
	n := 0
	for _, id := range s.Squad(p.Seat) {
		if c := s.Cards[id]; c.Kind == wotrush.KindMedal {
			n += c.Medals
		}
	}
	return n
}

// Headline: the round and whose turn, or the result.
func (g *Game) Headline() rules.Text {
	s := g.State()
	if s.Result != nil {
		return gamespec.ResultText(gamespec.Outcome(g), s.Result.Text)
	}
	p := s.Player(s.Active)
	if p == nil {
		return rules.Textf("przygotowanie", "setup")
	}
	var sc []string
	for _, q := range s.Players {
		sc = append(sc, fmt.Sprintf("%s %d", q.Name, medals(s, q)))
	}
	return rules.Textf("runda %d · tura: %s · medale: %s", "round %d · turn: %s · medals: %s", s.Round, p.Name, strings.Join(sc, ", "))
}

// Summary is the game in a few lines for the watch and text displays.
func (g *Game) Summary(gamespec.Viewer) []rules.Text {
	s := g.State()
	out := []rules.Text{g.Headline()}
	if s.Result != nil {
		return out
	}
	for _, p := range s.Players {
		def, dmg := 0, 0
		for _, b := range p.Bases {
			if b.Defender != "" {
				def++
			}
			if b.Damaged {
				dmg++
			}
		}
		out = append(out, rules.Textf("%s: Bazy %d (bronione %d, uszkodzone %d), medale %d, oddział %d",
			"%s: bases %d (defended %d, damaged %d), medals %d, squad %d", p.Name, len(p.Bases), def, dmg, medals(s, p), len(s.Squad(p.Seat))))
	}
	if pd := s.Pending; pd != nil {
		out = append(out, rules.Text{PL: "Czeka: " + pd.Text.PL, EN: "Waiting: " + pd.Text.EN})
	}
	if sel := s.Selection; sel != nil {
		names := func(ids []string) rules.Text {
			var pl, en []string
			for _, id := range ids {
				pl, en = append(pl, s.Cards[id].Name.PL), append(en, s.Cards[id].Name.EN)
			}
			if len(pl) == 0 {
				return rules.Text{PL: "—", EN: "—"}
			}
			return rules.Text{PL: strings.Join(pl, ", "), EN: strings.Join(en, ", ")}
		}
		mode, cs, pay := wotrush.SelectNames[sel.Mode], names(sel.Cards), names(sel.Pay)
		out = append(out, rules.Text{PL: fmt.Sprintf("Wybrane do %s: %s; płaci %s", mode.PL, cs.PL, pay.PL),
			EN: fmt.Sprintf("Selected for %s: %s; paying %s", mode.EN, cs.EN, pay.EN)})
	}
	return out
}

// Scoreboard: two players' medals on a 4-digit display; a line a player
// on a text display.
func (g *Game) Scoreboard() hardware.Scoreboard {
	s := g.State()
	var sb hardware.Scoreboard
	if len(s.Players) == 2 {
		if d := fmt.Sprintf("%d-%d", medals(s, s.Players[0]), medals(s, s.Players[1])); len(d) <= 4 {
			sb.Digits = d
		}
	}
	sb.Lines = append(sb.Lines, fmt.Sprintf("R%d T%d", s.Round, s.Turn))
	for _, p := range s.Players {
		sb.Lines = append(sb.Lines, fmt.Sprintf("%.8s M%d B%d", p.Name, medals(s, p), len(p.Bases)))
	}
	return sb
}

// Desyncs: the cards the engine only guesses — the active player's hand
// cards not scanned once the turn is under way.
func (g *Game) Desyncs() []rules.Text {
	s := g.State()
	p := s.Player(s.Active)
	if s.Phase != wotrush.PhasePlay || p == nil || !s.Acted {
		return nil
	}
	n := 0
	for _, id := range p.Hand {
		if !slices.Contains(p.Shown, id) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return []rules.Text{rules.Textf("%[1]s: %[2]d kart(y) ręki nie zeskanowano — silnik zakłada, że to te dobrane z Garażu",
		"%[1]s: %[2]d hand card(s) not scanned — the engine assumes the ones drawn from the Garage", p.Name, n)}
}

// cards lists every card of the configured game that carries a tag:
// vehicles, barracks and bases of each player's set, medals (not the
// achievements: they are never scanned).
func cards(sectionYAML []byte) ([]gamespec.Card, error) {
	var c Config
	if err := yaml.Unmarshal(sectionYAML, &c); err != nil {
		return nil, fmt.Errorf("wotrushgame: %w", err)
	}
	cat, err := LoadCatalogue(c.Data, func(p string) string { return p })
	if err != nil {
		return nil, err
	}
	setup, err := c.setup()
	if err != nil {
		return nil, err
	}
	start, err := cat.NewGame(setup)
	if err != nil {
		return nil, err
	}
	s, _, err := wotrush.Apply(wotrush.State{}, start)
	if err != nil {
		return nil, fmt.Errorf("wotrushgame: %w", err)
	}
	ids := make([]string, 0, len(s.Cards))
	for id, card := range s.Cards {
		if card.Kind != wotrush.KindAchievement {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	out := make([]gamespec.Card, 0, len(ids))
	for _, id := range ids {
		out = append(out, gamespec.Card{ID: id, Kind: "card", Label: s.Cards[id].Name.PL})
	}
	return out, nil
}
