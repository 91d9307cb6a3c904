package west1920game

import (
	"strconv"
	"strings"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/west1920"
)

// ActionNames are the engine's actions in words: the referee's page names
// them (what the engine takes now, the correction form; the catalogue
// carries them) and the record tells them (TellAction).
var ActionNames = map[string]rules.Text{
	"start_game":     {PL: "początek gry", EN: "start of the game"},
	"draw_card":      {PL: "dobranie karty", EN: "drawing a card"},
	"play_card":      {PL: "zagranie karty", EN: "playing a card"},
	"roll":           {PL: "rzut kośćmi", EN: "a roll of the dice"},
	"pass":           {PL: "pas", EN: "a pass"},
	"build_depot":    {PL: "budowa magazynu", EN: "building a depot"},
	"remove_depot":   {PL: "usunięcie magazynu", EN: "removing a depot"},
	"assign_chit":    {PL: "żeton aktywacji", EN: "an activation chit"},
	"order":          {PL: "rozkaz", EN: "an order"},
	"discard_chit":   {PL: "odrzucenie żetonu", EN: "discarding a chit"},
	"move_hq":        {PL: "ruch dowództwa", EN: "moving an HQ"},
	"withdraw":       {PL: "wycofanie przed walką", EN: "a withdrawal before combat"},
	"attack":         {PL: "atak", EN: "an attack"},
	"card_bonus":     {PL: "premia z karty", EN: "a card's bonus"},
	"losses":         {PL: "straty", EN: "losses"},
	"retreat":        {PL: "odwrót", EN: "a retreat"},
	"pursue":         {PL: "pościg", EN: "a pursuit"},
	"replace":        {PL: "uzupełnienie", EN: "a replacement"},
	"strategic_move": {PL: "ruch strategiczny", EN: "a strategic move"},
	"place":          {PL: "wystawienie", EN: "a placement"},
	"choose":         {PL: "wybór", EN: "a choice"},
	"adjust":         {PL: "poprawka licznika", EN: "a counter's correction"},
}

// sideWords are the sides as the screens name them.
var sideWords = map[string]rules.Text{west1920.Polish: {PL: "Polacy", EN: "Poles"}, west1920.Russian: {PL: "Rosjanie", EN: "Russians"}}

// TellAction is the action in the game's words: its name, the side, the
// dice, hexes by their printed numbers, units, HQs and cards by name
// ("rzut kośćmi: 5, 2").
func (g *Game) TellAction(a gamespec.Action) rules.Text {
	if r, ok := a.(Roll); ok {
		a = r.Roll // the dice as read; where they came from is no part of the words
	}
	return tell(g.State(), a)
}

func tell(s west1920.State, a gamespec.Action) rules.Text {
	name, ok := ActionNames[a.Type()]
	if !ok {
		name = rules.Text{PL: a.Type(), EN: a.Type()}
	}
	var who rules.Text
	var what []rules.Text
	same := func(x string) rules.Text { return rules.Text{PL: x, EN: x} }
	add := func(t ...rules.Text) { what = append(what, t...) }
	side := func(sd string) {
		if w, ok := sideWords[sd]; ok {
			who = w
		}
	}
	unit := func(id string) string {
		for _, u := range s.Units {
			if u.ID == id {
				return u.Name
			}
		}
		for _, q := range s.HQs {
			if q.ID == id {
				return q.Name
			}
		}
		return id
	}
	units := func(ids []string) rules.Text {
		n := make([]string, len(ids))
		for i, id := range ids {
			n[i] = unit(id)
		}
		return same(strings.Join(n, ", "))
	}
	hexes := func(hs []west1920.Hex) rules.Text {
		n := make([]string, len(hs))
		for i, h := range hs {
			n[i] = string(h)
		}
		return rules.Textf("droga %s", "path %s", strings.Join(n, "–"))
	}
	card := func(n int) rules.Text {
		if n == 0 {
			return rules.Text{PL: "zakryta karta", EN: "a hidden card"}
		}
		if cat := s.Catalogue(); cat != nil {
			if c, ok := cat.Cards[n]; ok {
				return rules.Textf("karta %d „%s”", "card %d “%s”", n, c.Title)
			}
		}
		return rules.Textf("karta %d", "card %d", n)
	}
	hex := func(h west1920.Hex) rules.Text { return rules.Textf("heks %s", "hex %s", string(h)) }
	switch a := a.(type) {
	case west1920.DrawCard:
		side(a.Side)
		add(card(a.Card))
	case west1920.PlayCard:
		side(a.Side)
		add(card(a.Card))
	case west1920.Roll:
		d := make([]string, len(a.Dice))
		for i, x := range a.Dice {
			d[i] = strconv.Itoa(x)
		}
		add(same(strings.Join(d, ", ")))
	case west1920.Pass:
		side(a.Side)
	case west1920.BuildDepot:
		side(a.Side)
		add(hex(a.Hex))
	case west1920.RemoveDepot:
		side(a.Side)
		add(hex(a.Hex))
	case west1920.AssignChit:
		side(a.Side)
		add(hex(a.Hex))
	case west1920.DiscardChit:
		side(a.Side)
		add(hex(a.Hex))
	case west1920.Order:
		side(a.Side)
		add(hex(a.Hex))
		if len(a.Units) > 0 {
			add(units(a.Units))
		}
		if len(a.Path) > 0 {
			add(hexes(a.Path))
		}
		if a.Facing != "" {
			add(rules.Textf("zwrot %s", "facing %s", a.Facing))
		}
	case west1920.MoveHQ:
		side(a.Side)
		add(same(unit(a.HQ)), hexes(a.Path))
	case west1920.Withdraw:
		side(a.Side)
		add(hex(a.Hex), hexes(a.Path))
	case west1920.Attack:
		side(a.Side)
		add(rules.Textf("z %s na %s", "from %s on %s", string(a.From), string(a.Target)))
		if a.Support != "" {
			add(rules.Textf("wsparcie z %s", "support from %s", string(a.Support)))
		}
		for _, b := range a.Bonuses {
			add(rules.Textf("%s dla %s", "%s for %s", card(b.Card), string(b.Hex)))
		}
	case west1920.CardBonus:
		side(a.Side)
		for _, b := range a.Bonuses {
			add(rules.Textf("%s dla %s", "%s for %s", card(b.Card), string(b.Hex)))
		}
	case west1920.Losses:
		side(a.Side)
		add(units(a.Units))
	case west1920.Retreat:
		side(a.Side)
		add(hexes(a.Path))
		if len(a.Eliminate) > 0 {
			add(rules.Textf("eliminuje %s", "eliminates %s", units(a.Eliminate)))
		}
	case west1920.Pursue:
		side(a.Side)
		add(units(a.Units))
	case west1920.Replace:
		side(a.Side)
		add(same(unit(a.Unit)))
	case west1920.StrategicMove:
		side(a.Side)
		add(same(unit(a.Unit)), hexes(a.Path))
	case west1920.Place:
		side(a.Side)
		add(same(unit(a.Unit)), hex(a.Hex))
	case west1920.Choose:
		side(a.Side)
		add(units(a.Targets)) // units by name; a hex is its number
	case west1920.Adjust:
		add(same(unit(a.Unit)))
		if a.Hex != "" {
			add(hex(a.Hex))
		}
	}
	out := name
	if who.PL != "" {
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

// Catalogue is what never changes during a game, sent once (the table's
// catalogue topic) and left out of every view: the engine's actions in
// words, for the referee's page.
func (g *Game) Catalogue() any {
	return struct {
		ActionNames map[string]rules.Text `json:"action_names"`
	}{ActionNames}
}
