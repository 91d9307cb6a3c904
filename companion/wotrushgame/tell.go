package wotrushgame

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/wotrush"
)

// ActionNames are the engine's actions in words: the referee's page names
// them (what the engine takes now, the correction form; the catalogue
// carries them) and the record tells them (TellAction).
var ActionNames = map[string]rules.Text{
	"start_game":     {PL: "przygotowanie gry", EN: "setting up the game"},
	"buy":            {PL: "zakup", EN: "a purchase"},
	"play_card":      {PL: "zagranie karty", EN: "playing a card"},
	"defend":         {PL: "obrona Bazy", EN: "defending a base"},
	"research":       {PL: "Badania", EN: "Research"},
	"dismantle":      {PL: "Demontaż", EN: "Dismantle"},
	"siege":          {PL: "Oblężenie", EN: "Siege"},
	"discard":        {PL: "Sabotaż", EN: "Sabotage"},
	"attack":         {PL: "atak", EN: "an attack"},
	"fire":           {PL: "ogień", EN: "fire"},
	"take_medals":    {PL: "Medale", EN: "Medals"},
	"end_turn":       {PL: "koniec tury", EN: "end of the turn"},
	"reveal_hand":    {PL: "odkrycie ręki", EN: "showing the hand"},
	"reveal_reserve": {PL: "odkrycie Rezerwy", EN: "showing the Reserve"},
	"select":         {PL: "wybór kart", EN: "picking cards"},
	"declare_end":    {PL: "koniec gry ogłoszony przez sędziego", EN: "the referee ends the game"},
}

// TellAction is the action in the game's words: its name, who and which
// cards by their names ("zakup (Ania): Opel Blitz, płaci: Inżynierowie,
// Inżynierowie").
func (g *Game) TellAction(a gamespec.Action) rules.Text {
	return tell(g.State(), a)
}

// copyNo is a barracks card id's set and copy ("ENG-1-3": 1, 3).
var copyNo = regexp.MustCompile(`-(\d+)-(\d+)$`)

func tell(s wotrush.State, a gamespec.Action) rules.Text {
	name, ok := ActionNames[a.Type()]
	if !ok {
		name = rules.Text{PL: a.Type(), EN: a.Type()}
	}
	who := ""
	var what []rules.Text
	cards := func(ids []string) rules.Text {
		if len(ids) == 0 {
			return rules.Text{PL: "nic", EN: "nothing"}
		}
		pl, en := make([]string, len(ids)), make([]string, len(ids))
		for i, id := range ids {
			pl[i], en[i] = id, id
			if c, ok := s.Cards[id]; ok {
				pl[i], en[i] = c.Name.PL, c.Name.EN
				// Copies of a barracks card by their set and number (as
				// the correction form lists them).
				if m := copyNo.FindStringSubmatch(id); c.Kind == wotrush.KindBarracks && m != nil {
					pl[i] += " (zestaw " + m[1] + ", nr " + m[2] + ")"
					en[i] += " (set " + m[1] + ", no. " + m[2] + ")"
				}
			}
		}
		return rules.Text{PL: strings.Join(pl, ", "), EN: strings.Join(en, ", ")}
	}
	card := func(id string) rules.Text { return cards([]string{id}) }
	seat := func(n int) {
		who = "#" + strconv.Itoa(n)
		for _, p := range s.Players {
			if p.Seat == n {
				who = p.Name
			}
		}
	}
	switch a := a.(type) {
	case wotrush.Buy:
		seat(a.Seat)
		what = append(what, cards(a.Cards), rules.Textf("płaci: %s", "paying: %s", cards(a.Pay)))
	case wotrush.PlayCard:
		seat(a.Seat)
		what = append(what, card(a.Card))
		if a.Skip {
			what = append(what, rules.Text{PL: "bez zdolności", EN: "no abilities"})
		}
	case wotrush.Defend:
		seat(a.Seat)
		what = append(what, card(a.Base))
	case wotrush.Research:
		seat(a.Seat)
		if a.Take == "" {
			what = append(what, cards(nil))
		} else {
			what = append(what, card(a.Take))
		}
	case wotrush.Dismantle:
		seat(a.Seat)
		what = append(what, cards(a.Cards))
	case wotrush.Siege:
		seat(a.Seat)
		what = append(what, card(a.Target))
	case wotrush.Discard:
		seat(a.Seat)
		what = append(what, card(a.Card))
	case wotrush.Attack:
		seat(a.Seat)
		what = append(what, cards(a.Cards))
	case wotrush.Fire:
		seat(a.Seat)
		what = append(what, rules.Textf("%s w %s", "%s at %s", card(a.Attacker), card(a.Target)))
	case wotrush.TakeMedals:
		seat(a.Seat)
		what = append(what, rules.Textf("podwójne: %d", "doubles: %d", a.Doubles))
	case wotrush.EndTurn:
		seat(a.Seat)
	case wotrush.RevealHand:
		seat(a.Seat)
		what = append(what, cards(a.Cards))
	case wotrush.RevealReserve:
		seat(a.Seat)
		what = append(what, cards(a.Cards))
	case wotrush.Select:
		seat(a.Seat)
		if m, ok := wotrush.SelectNames[a.Mode]; ok {
			what = append(what, rules.Textf("do %s: %s", "for %s: %s", m, cards(a.Cards)))
			if len(a.Pay) > 0 {
				what = append(what, rules.Textf("płaci: %s", "paying: %s", cards(a.Pay)))
			}
		} else {
			what = append(what, rules.Text{PL: "bez wyboru", EN: "nothing picked"})
		}
	case wotrush.DeclareEnd:
		if a.Reason != "" {
			what = append(what, rules.Text{PL: a.Reason, EN: a.Reason})
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
