package bitwagame

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/bitwa"
)

// ActionNames are the engine's actions in words: the referee's page names
// them (what the engine takes now, the correction form; the catalogue
// carries them) and the record tells them (TellAction).
var ActionNames = map[string]rules.Text{
	"start_game":        {PL: "przygotowanie gry", EN: "setting up the game"},
	"roll":              {PL: "rzut kością", EN: "a roll of the die"},
	"play_card":         {PL: "zagranie karty", EN: "playing a card"},
	"blockade":          {PL: "Blokada", EN: "a blockade"},
	"fight":             {PL: "walka o Zasoby", EN: "a fight for a resource"},
	"activate":          {PL: "aktywacja Dowódcy", EN: "activating a commander"},
	"pass":              {PL: "pas", EN: "a pass"},
	"select":            {PL: "wybór karty", EN: "picking a card"},
	"move":              {PL: "ruch Oddziałów", EN: "moving units"},
	"remove":            {PL: "usunięcie Oddziału", EN: "removing a unit"},
	"confirm":           {PL: "potwierdzenie efektu", EN: "confirming an effect"},
	"turn_card":         {PL: "odwrócenie karty Zasobów", EN: "turning a resource card"},
	"assign_initiative": {PL: "przydział inicjatywy", EN: "assigning the initiative"},
	"supply":            {PL: "zaopatrzenie", EN: "supply"},
}

// hiddenPick stands for the card of a pick as the public may know it
// (Conceal): no card's id.
const hiddenPick = "?"

// Conceal is an action as the public may know it (gamespec.Concealer): a
// pick (Select: its card, front and effect) is its player's secret until
// the card is played (the view's Selected); the rest of every action is
// public. The table tells an undo's or a correction's action this way.
func (g *Game) Conceal(a gamespec.Action) gamespec.Action {
	if p, ok := a.(bitwa.Select); ok && p.Card != "" {
		return bitwa.Select{Seat: p.Seat, Card: hiddenPick}
	}
	return a
}

// TellAction is the action in the game's words: its name, who and what,
// cards, fronts, places and resources by their names ("rzut kością
// (Marysia): 2").
func (g *Game) TellAction(a gamespec.Action) rules.Text {
	return tell(g.State(), a)
}

func tell(s bitwa.State, a gamespec.Action) rules.Text {
	name, ok := ActionNames[a.Type()]
	if !ok {
		name = rules.Text{PL: a.Type(), EN: a.Type()}
	}
	var who string
	var what []rules.Text
	add := func(t ...rules.Text) { what = append(what, t...) }
	word := func(pl, en string) rules.Text { return rules.Text{PL: pl, EN: en} }
	same := func(x string) rules.Text { return rules.Text{PL: x, EN: x} }
	card := func(id string) rules.Text {
		if c, ok := s.Cards[id]; ok {
			return c.Names()
		}
		return same(id)
	}
	effect := func(card string, choice int) {
		if c, ok := s.Cards[card]; ok && len(c.Choose) > 1 {
			add(rules.Textf("efekt %d", "effect %d", choice+1))
		}
	}
	switch a := a.(type) {
	case bitwa.Roll:
		who = seatName(s, a.Seat)
		d := make([]string, len(a.Dice))
		for i, x := range a.Dice {
			d[i] = strconv.Itoa(x)
		}
		add(same(strings.Join(d, ", ")))
	case bitwa.PlayCard:
		who = seatName(s, a.Seat)
		add(card(a.Card))
		if a.Front != "" {
			add(frontName(s, a.Front))
		}
		effect(a.Card, a.Choice)
	case bitwa.Select:
		who = seatName(s, a.Seat)
		if a.Card == hiddenPick {
			add(word("zakryta karta", "a hidden card"))
			break
		}
		if a.Card == "" {
			add(word("bez karty", "no card"))
			break
		}
		add(card(a.Card))
		if a.Front != "" {
			add(frontName(s, a.Front))
		}
		effect(a.Card, a.Choice)
	case bitwa.Activate:
		who = seatName(s, a.Seat)
		add(card(a.Card), frontName(s, a.Front))
		if p, fi := s.Player(a.Seat), slices.Index(bitwa.Fronts, a.Front); p != nil && fi >= 0 {
			if ar := s.Army(p.Army); ar != nil && ar.Commanders[fi] != nil {
				effect(ar.Commanders[fi].Card, a.Choice)
			}
		}
	case bitwa.Blockade:
		who = seatName(s, a.Seat)
		if a.Skip {
			add(word("bez Blokady", "no blockade"))
			break
		}
		if a.Card != "" {
			add(rules.Textf("odrzuca %s", "discards %s", card(a.Card)))
		}
		if a.Marker != "" {
			add(markerName(s, a.Marker))
		}
		if p, ok := Places[a.Place]; ok {
			add(p)
		}
		if a.Front != "" && a.Place != "line2" {
			add(frontName(s, a.Front))
		}
	case bitwa.Fight:
		who = seatName(s, a.Seat)
		add(rules.Textf("odrzuca %s", "discards %s", card(a.Card)), resourceName(s, a.Resource))
	case bitwa.Pass:
		who = seatName(s, a.Seat)
	case bitwa.Move:
		who = seatName(s, a.Seat)
		if len(a.Moves) == 0 {
			add(word("bez ruchu", "no move"))
		} else {
			add(movesText(s, a.Moves))
		}
	case bitwa.Remove:
		who = seatName(s, a.Seat)
		add(frontName(s, a.Front), rules.Textf("%d. linia", "line %d", a.Line))
	case bitwa.Confirm:
		who = seatName(s, a.Seat)
		if a.Yes {
			add(word("tak", "yes"))
		} else {
			add(word("nie", "no"))
		}
	case bitwa.TurnCard:
		who = seatName(s, a.Seat)
		add(rules.Textf("strona %d", "side %d", a.Face+1))
	case bitwa.AssignInitiative:
		who = seatName(s, a.Seat)
		order := make([]string, len(a.Order))
		for i, seat := range a.Order {
			order[i] = fmt.Sprintf("%d: %s", i+1, seatName(s, seat))
		}
		add(same(strings.Join(order, ", ")))
	case bitwa.Supply:
		who = seatName(s, a.Seat)
		for _, f := range a.Add {
			add(rules.Textf("+1 Oddz. na 2. linię: %s", "+1 unit to the 2nd line: %s", frontName(s, f)))
		}
		if len(a.Moves) > 0 {
			add(movesText(s, a.Moves))
		}
	}
	out := name
	if who != "" {
		out = rules.Textf("%s (%s)", "%s (%s)", name, who)
	}
	if len(what) > 0 {
		pl, en := make([]string, len(what)), make([]string, len(what))
		for i, w := range what {
			pl[i], en[i] = w.PL, w.EN
		}
		out = rules.Text{PL: out.PL + ": " + strings.Join(pl, ", "), EN: out.EN + ": " + strings.Join(en, ", ")}
	}
	return out
}

// markerName is a blockade marker in words: an army's, the special one.
func markerName(s bitwa.State, m string) rules.Text {
	for _, a := range s.Comp.Armies {
		if a.Blockade == m {
			return rules.Textf("znacznik Blokady %s", "the blockade marker of %s", a.Name)
		}
	}
	if m == s.Comp.SpecialBlockade {
		return rules.Text{PL: "znacznik Blokady Specjalnej", EN: "the special blockade marker"}
	}
	if c, ok := s.Cards[m]; ok {
		return rules.Text{PL: c.Name, EN: c.Name}
	}
	return rules.Text{PL: "znacznik Blokady", EN: "a blockade marker"}
}

// resourceName is a resource card's name from the game data.
func resourceName(s bitwa.State, r string) rules.Text {
	for _, rc := range s.Comp.Resources {
		if rc.ID == r {
			return rc.Name
		}
	}
	return rules.Text{PL: r, EN: r}
}
