package box

import (
	"sort"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/rules"
)

// Collection is one list of a game's box that a club enrols entry by
// entry (a deck of cards, the counters of an order of battle): where it
// stands in the pack and the fields its entries have. The enrolment page
// and its checks are built from these declarations; no game has page code
// of its own.
type Collection struct {
	// File is the data file, List the top-level key holding the entries
	// (a list of mappings, or a mapping of mappings keyed by name).
	File string `json:"file"`
	List string `json:"list"`
	// Title names the collection on the page.
	Title rules.Text `json:"title"`
	// Kind are the fields whose values sort the entries into the kinds
	// the rulebook counts (Bitwa: army and kind); none: one kind.
	Kind []string `json:"kind,omitempty"`
	// Fields are the entries' fields in the order the page asks them.
	Fields []Field `json:"fields"`
	// Names are the words for entries named by their key (a mapping's).
	Names []Choice `json:"-"`
}

// Field is one field of an entry.
type Field struct {
	Name  string     `json:"name"`
	Label rules.Text `json:"label"`
	// Type: "text" (what is printed, taken literally), "choice" (one of
	// Choices) or "yaml" (a number, a list: typed as YAML).
	Type string `json:"type"`
	// Choices are the allowed values of a choice, with their words.
	Choices []Choice `json:"choices,omitempty"`
	// choicesFrom gives the choices from the pack itself (Mali's map's
	// objects); the page's list is computed when it asks.
	choicesFrom func(*Pack) []Choice
	// Hint says what is allowed, in words.
	Hint rules.Text `json:"hint,omitempty"`
	// When limits the field to the entries whose field When[0] is one of
	// When[1:] (a commander's limit; a self-propelled gun's icon).
	When []string `json:"when,omitempty"`
}

// Choice is one allowed value and the words the page shows for it.
type Choice struct {
	Value string     `json:"value"`
	Text  rules.Text `json:"text"`
}

func text(name, pl, en string) Field {
	return Field{Name: name, Label: rules.Text{PL: pl, EN: en}, Type: "text"}
}

// english is the optional English of a printed (Polish) text field: left
// empty, an English page shows the Polish as printed.
func english(name, pl, en string) Field {
	f := text(name, pl, en)
	f.Hint = rules.Text{PL: "opcjonalnie; puste: strona angielska pokazuje tekst polski", EN: "optional; empty: an English page shows the Polish as printed"}
	return f
}

// englishOf are the optional English fields and the printed fields they
// translate.
var englishOf = map[string]string{"name_en": "name", "text_en": "text", "title_en": "title"}

// dropStaleEnglish removes from entry n an English field whose printed
// field was changed while the English was not (it translated the old
// text); old are the entry's values before the change.
func dropStaleEnglish(n *yaml.Node, old map[string]string) {
	for en, pl := range englishOf {
		if v := value(n, en); v != nil && v.Value == old[en] && !sameValue(value(n, pl), old[pl]) {
			drop(n, en)
		}
	}
}

func sameValue(v *yaml.Node, old string) bool {
	if v == nil {
		return old == ""
	}
	return v.Value == old
}

func number(name, pl, en, hintPL, hintEN string) Field {
	return Field{Name: name, Label: rules.Text{PL: pl, EN: en}, Type: "yaml", Hint: rules.Text{PL: hintPL, EN: hintEN}}
}

func choice(name, pl, en string, cs ...Choice) Field {
	return Field{Name: name, Label: rules.Text{PL: pl, EN: en}, Type: "choice", Choices: cs}
}

func c(value, pl, en string) Choice { return Choice{Value: value, Text: rules.Text{PL: pl, EN: en}} }

func (f Field) when(field string, values ...string) Field {
	f.When = append([]string{field}, values...)
	return f
}

var (
	sides     = []Choice{c("polish", "strona polska", "the Polish side"), c("russian", "strona rosyjska", "the Russian side")}
	nations   = []Choice{c("polish", "polskie", "Polish"), c("russian", "rosyjskie", "Russian"), c("lithuanian", "litewskie", "Lithuanian"), c("ukrainian", "ukraińskie", "Ukrainian")}
	unitTypes = []Choice{c("infantry", "piechota", "infantry"), c("cavalry", "kawaleria", "cavalry"), c("artillery", "artyleria", "artillery")}
	facings   = []Choice{c("N", "północ", "north"), c("NE", "północny wschód", "north-east"), c("SE", "południowy wschód", "south-east"),
		c("S", "południe", "south"), c("SW", "południowy zachód", "south-west"), c("NW", "północny zachód", "north-west")}
	fronts = []Choice{c("any", "dowolny", "any"), c("N", "północny", "north"), c("C", "centralny", "centre"), c("S", "południowy", "south"),
		c("NC", "północny lub centralny", "north or centre"), c("CS", "centralny lub południowy", "centre or south"), c("NS", "północny lub południowy", "north or south")}
	vehicleClasses = []Choice{c("light", "czołg lekki", "light tank"), c("medium", "czołg średni", "medium tank"), c("spg", "działo samobieżne", "self-propelled gun"),
		c("heavy", "czołg ciężki", "heavy tank")}
	hexHint = rules.Text{PL: "heks CCRR (kolumna, rząd), pusty: przybywa później", EN: "hex CCRR (column, row); empty: arrives later"}
	cfHint  = rules.Text{PL: "[front, skrzydło], np. [3, 2]", EN: "[front, flank], e.g. [3, 2]"}
)

// collections are what each game's box enrols, by config id.
var collections = map[string][]Collection{
	"bitwa-warszawska": {{
		File: "cards.yaml", List: "cards", Title: rules.Text{PL: "Karty talii", EN: "Deck cards"}, Kind: []string{"army", "kind"},
		Fields: []Field{
			text("name", "Nazwa", "Name"),
			choice("army", "Armia", "Army", c("wp", "Wojsko Polskie", "Polish Army"), c("acz", "Armia Czerwona", "Red Army")),
			choice("kind", "Rodzaj", "Kind", c("unit", "Oddział", "unit"), c("commander", "Dowódca", "commander"), c("order", "Rozkaz", "order")),
			choice("front", "Front", "Front", fronts...).when("kind", "unit", "order"),
			number("limit", "Dozwolona liczba Oddziałów na 2. linii", "Units allowed on the 2nd line", "1–21", "1–21").when("kind", "commander"),
			text("text", "Tekst karty", "Card text"),
			english("name_en", "Nazwa po angielsku", "Name in English"),
			english("text_en", "Tekst karty po angielsku", "Card text in English"),
			text("note", "Notka historyczna", "Historical note"),
			number("effects", "Efekty", "Effects", "lista YAML, np. [{do: move, n: 3}] (cards.yaml)", "a YAML list, e.g. [{do: move, n: 3}] (cards.yaml)").when("kind", "unit", "order"),
			number("choose", "Wybór (lub)", "Choice (or)", "lista opcji YAML (cards.yaml)", "a YAML list of options (cards.yaml)").when("kind", "commander"),
		}}},
	"wot-rush": {{
		File: "vehicles.yaml", List: "classes", Title: rules.Text{PL: "Klasy pojazdów", EN: "Vehicle classes"}, Names: vehicleClasses,
		Fields: []Field{
			number("firepower", "Siła ognia", "Firepower", "0–2", "0–2"),
			number("armour", "Pancerz", "Armour", "0–2", "0–2"),
		}}, {
		File: "vehicles.yaml", List: "vehicles", Title: rules.Text{PL: "Karty Pojazdów", EN: "Vehicle cards"}, Kind: []string{"nation"},
		Fields: []Field{
			text("name", "Nazwa", "Name"),
			choice("nation", "Państwo", "Nation", c("ussr", "ZSRR", "USSR"), c("germany", "Niemcy", "Germany"), c("usa", "USA", "USA"), c("france", "Francja", "France")),
			choice("class", "Klasa", "Class", append(vehicleClasses, c("support", "wsparcie", "support"))...),
			choice("icon", "Ikona", "Icon", c("tank_destroyer", "niszczyciel czołgów", "tank destroyer"), c("artillery", "artyleria", "artillery")).when("class", "spg"),
			number("cost", "Koszt", "Cost", "0–20", "0–20"),
			number("resources", "Zasoby", "Resources", "0–6", "0–6"),
			number("firepower", "Siła ognia", "Firepower", "0–2", "0–2").when("class", "support"),
			number("armour", "Pancerz", "Armour", "0–2", "0–2").when("class", "support"),
			number("abilities", "Zdolności", "Abilities", "lista YAML, np. [{id: scout}, {id: reinforcements, n: 1}]", "a YAML list, e.g. [{id: scout}, {id: reinforcements, n: 1}]"),
		}}},
	"mali-powstancy": {{
		File: "orders.yaml", List: "orders", Title: rules.Text{PL: "Karty rozkazów", EN: "Order cards"},
		Fields: []Field{
			{Name: "from", Label: rules.Text{PL: "Skąd", EN: "From"}, Type: "choice", choicesFrom: maliObjects},
			{Name: "to", Label: rules.Text{PL: "Dokąd", EN: "To"}, Type: "choice", choicesFrom: maliObjects},
			number("points", "Punkty", "Points", "co najmniej 1", "at least 1"),
		}}, {
		File: "goals.yaml", List: "goals", Title: rules.Text{PL: "Karty sekretnych celów", EN: "Secret goal cards"},
		Fields: []Field{
			choice("kind", "Rodzaj celu", "Kind of goal", c("most_from_district", "najwięcej rozkazów z dzielnicy", "most orders from a district"),
				c("most_orders", "najwięcej rozkazów", "most orders"), c("districts", "rozkazy do N dzielnic", "orders to N districts"),
				c("most_important", "najcenniejszy rozkaz", "the most valuable order")),
			{Name: "param", Label: rules.Text{PL: "Dzielnica lub liczba dzielnic", EN: "District or number of districts"}, Type: "text",
				Hint: rules.Text{PL: "dzielnica z mapy albo liczba; pusty przy innych rodzajach", EN: "a district of the map or a number; empty for the other kinds"}},
			text("colour", "Kolor", "Colour"),
			number("points", "Punkty", "Points", "0 lub więcej", "0 or more"),
		}}},
	"west-1920": {{
		File: "oob.yaml", List: "units", Title: rules.Text{PL: "Żetony jednostek", EN: "Unit counters"},
		Fields: []Field{
			text("name", "Nazwa", "Name"),
			choice("side", "Strona", "Side", sides...),
			choice("nation", "Narodowość", "Nation", nations...),
			choice("type", "Rodzaj", "Type", unitTypes...),
			{Name: "hex", Label: rules.Text{PL: "Heks startowy", EN: "Start hex"}, Type: "text", Hint: hexHint},
			choice("facing", "Kierunek", "Facing", facings...),
			choice("one_sided", "Jednostronny", "One-sided", c("true", "tak", "yes"), c("false", "nie", "no")),
		}}, {
		File: "oob.yaml", List: "hqs", Title: rules.Text{PL: "Dowództwa", EN: "Headquarters"},
		Fields: []Field{
			text("name", "Nazwa", "Name"),
			choice("side", "Strona", "Side", sides...),
			choice("nation", "Narodowość", "Nation", nations...),
			choice("zone", "Strefa", "Zone", c("N", "północ", "north"), c("S", "południe", "south")).when("side", "russian"),
			{Name: "hex", Label: rules.Text{PL: "Heks startowy", EN: "Start hex"}, Type: "text", Hint: hexHint},
		}}, {
		File: "oob.yaml", List: "types", Title: rules.Text{PL: "Siła bojowa rodzajów jednostek", EN: "Combat factors of unit types"},
		Fields: []Field{
			choice("side", "Strona", "Side", sides...),
			choice("nation", "Narodowość", "Nation", nations...),
			choice("type", "Rodzaj", "Type", unitTypes...),
			{Name: "full", Label: rules.Text{PL: "Pełna siła", EN: "Full strength"}, Type: "yaml", Hint: cfHint},
			{Name: "weak", Label: rules.Text{PL: "Osłabiona", EN: "Weakened"}, Type: "yaml", Hint: cfHint},
		}}, {
		File: "oob.yaml", List: "reinforcements", Title: rules.Text{PL: "Posiłki", EN: "Reinforcements"},
		Fields: []Field{
			number("stage", "Etap", "Stage", "1–14", "1–14"),
			choice("side", "Strona", "Side", sides...),
			{Name: "hex", Label: rules.Text{PL: "Heks przybycia", EN: "Arrival hex"}, Type: "text", Hint: rules.Text{PL: "heks CCRR", EN: "hex CCRR"}},
			number("units", "Jednostki", "Units", "lista YAML nazw z żetonów, np. [ru-5sd]", "a YAML list of the counters' entries, e.g. [ru-5sd]"),
		}}},
}

func maliObjects(p *Pack) []Choice {
	cat, err := MaliCatalogue(p)
	if err != nil {
		return nil
	}
	var out []Choice
	for id, o := range cat.Objects {
		out = append(out, Choice{Value: id, Text: rules.Text{PL: o.Name, EN: o.Name}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Text.PL < out[j].Text.PL })
	return out
}

// facts are what the rulebook fixes of a game's box, for the page's
// header: the counts of each kind and the fields of each kind.
func facts(game string) []rules.Text {
	switch game {
	case "bitwa-warszawska":
		return []rules.Text{
			rules.Textf("Talia Wojska Polskiego: %[1]d karty Oddziałów, %[2]d kart Dowódców, %[3]d kart Rozkazów; Armii Czerwonej: %[4]d, %[5]d i %[6]d.",
				"The Polish Army's deck: %[1]d unit cards, %[2]d commander cards, %[3]d order cards; the Red Army's: %[4]d, %[5]d and %[6]d.",
				bitwaDeck["wp"]["unit"], bitwaDeck["wp"]["commander"], bitwaDeck["wp"]["order"], bitwaDeck["acz"]["unit"], bitwaDeck["acz"]["commander"], bitwaDeck["acz"]["order"]),
			{PL: "Dowódca ma dozwoloną liczbę Oddziałów na 2. linii i wybór działań („lub”); Oddział i Rozkaz mają front i efekty.",
				EN: "A commander has the units allowed on the 2nd line and a choice of actions (\"or\"); a unit and an order have a front and effects."},
		}
	case "wot-rush":
		return []rules.Text{
			rules.Textf("%[1]d kart Pojazdów, po %[2]d dla każdego z %[3]d państw.", "%[1]d vehicle cards, %[2]d for each of the %[3]d nations.",
				wotrushPerNation*len(wotrushNations), wotrushPerNation, len(wotrushNations)),
			{PL: "Działo samobieżne ma ikonę (niszczyciel czołgów albo artyleria); wsparcie ma własną siłę ognia i pancerz, czołgi jednej klasy mają wspólne.",
				EN: "A self-propelled gun has an icon (tank destroyer or artillery); a support unit has its own firepower and armour, the tanks of a class share theirs."},
		}
	case "mali-powstancy":
		return []rules.Text{
			rules.Textf("Talia %[1]d kart rozkazów (skąd, dokąd, punkty) i %[2]d kart sekretnych celów; kostka o %[3]d ściankach.",
				"A deck of %[1]d order cards (from, to, points) and %[2]d secret goal cards; a die of %[3]d faces.", maliOrders, maliGoals, maliFaces),
		}
	case "west-1920":
		return []rules.Text{
			rules.Textf("%[1]d kart zdarzeń losowych; żetony jednostek z siłą bojową [front, skrzydło], pełną i osłabioną.",
				"%[1]d random event cards; unit counters with combat factors [front, flank], full and weakened.", westCards),
			{PL: "Jednostronne (1.2): 13. pułk ułanów, 41. pułk piechoty, 6. dywizja ukraińska; artyleria ma 1, osłabiona 0.",
				EN: "One-sided (1.2): the 13th uhlan regiment, the 41st infantry regiment, the 6th Ukrainian division; artillery is 1, weakened 0."},
		}
	}
	return nil
}

// Collections are game id's enrolled collections (nil: none).
func Collections(game string) []Collection { return collections[game] }

func (c Collection) applies(f Field, values map[string]string) bool {
	if len(f.When) == 0 {
		return true
	}
	v := values[f.When[0]]
	for _, w := range f.When[1:] {
		if v == w {
			return true
		}
	}
	return false
}

func (c Collection) kindOf(values map[string]string) string {
	s := ""
	for i, k := range c.Kind {
		if i > 0 {
			s += " "
		}
		s += values[k]
	}
	return s
}

func (c Collection) field(name string) (Field, bool) {
	for _, f := range c.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}
