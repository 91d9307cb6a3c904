package box

import (
	"fmt"
	"maps"
	"slices"

	"github.com/sztab/sztab/rules/bitwa"
	"github.com/sztab/sztab/rules/mali"
	"github.com/sztab/sztab/rules/west1920"
	"github.com/sztab/sztab/rules/wotrush"
)

// game is what the box package knows of one game: its data files, the
// shipped ones, and how a pack of it is checked (its engine's own loader,
// then what the rulebook fixes).
type game struct {
	ID string
	// Files are the data file names, in load order.
	Files   []string
	shipped func() map[string][]byte
	// check parses the pack's files with the engine's loader and checks
	// what the rulebook fixes; errors name the file and line.
	check func(p *Pack) error
}

var games = []game{
	{ID: "bitwa-warszawska", Files: []string{bitwa.CardsFile, bitwa.ComponentsFile}, shipped: bitwa.DefaultFiles, check: checkBitwa},
	{ID: "wot-rush", Files: []string{wotrush.VehiclesFile, wotrush.ComponentsFile}, shipped: wotrush.DefaultFiles, check: checkWotrush},
	{ID: "mali-powstancy", Files: mali.DataFiles, shipped: maliFiles, check: checkMali},
	{ID: "west-1920", Files: []string{west1920.MapFile, west1920.OOBFile, west1920.CardsFile}, shipped: west1920.DefaultFiles, check: checkWest},
}

func lookup(id string) (game, bool) {
	for _, g := range games {
		if g.ID == id {
			return g, true
		}
	}
	return game{}, false
}

// IDs are the config ids of the games that have box packs.
func IDs() []string {
	out := make([]string, len(games))
	for i, g := range games {
		out[i] = g.ID
	}
	return out
}

// Files are game id's data file names, nil for a game without packs.
func Files(id string) []string {
	g, _ := lookup(id)
	return slices.Clone(g.Files)
}

func maliFiles() map[string][]byte {
	out := map[string][]byte{}
	for _, f := range mali.DefaultFiles() {
		out[f.Name] = f.Data
	}
	return out
}

func cloneFiles(m map[string][]byte) map[string][]byte { return maps.Clone(m) }

// BitwaCatalogue parses a Bitwa Warszawska pack with its engine's loader.
func BitwaCatalogue(p *Pack) (*bitwa.Catalogue, error) {
	return bitwa.ParseCatalogue(p.Name(bitwa.CardsFile), p.Files[bitwa.CardsFile], p.Name(bitwa.ComponentsFile), p.Files[bitwa.ComponentsFile])
}

// WotrushCatalogue parses a World of Tanks: Rush pack.
func WotrushCatalogue(p *Pack) (*wotrush.Catalogue, error) {
	return wotrush.ParseCatalogue(p.Name(wotrush.VehiclesFile), p.Files[wotrush.VehiclesFile], p.Name(wotrush.ComponentsFile), p.Files[wotrush.ComponentsFile])
}

// MaliCatalogue parses a Mali Powstańcy pack.
func MaliCatalogue(p *Pack) (*mali.Catalogue, error) {
	var files []mali.File
	for _, n := range mali.DataFiles {
		files = append(files, mali.File{Name: p.Name(n), Data: p.Files[n]})
	}
	return mali.Load(files...)
}

// WestCatalogue parses a How the West was Saved pack.
func WestCatalogue(p *Pack) (*west1920.Catalogue, error) {
	return west1920.ParseCatalogue(p.Name(west1920.MapFile), p.Files[west1920.MapFile], p.Name(west1920.OOBFile), p.Files[west1920.OOBFile], p.Name(west1920.CardsFile), p.Files[west1920.CardsFile])
}

// The counts the rulebooks print ("ELEMENTY GRY" and the like); a pack that
// differs is not that game's box.
var (
	// Bitwa Warszawska: "Talia Wojska Polskiego: 23 karty Oddziałów, 15 kart
	// Dowódców, 15 kart Rozkazów"; Armia Czerwona: 20, 15 and 18.
	bitwaDeck = map[string]map[string]int{
		bitwa.WP:  {bitwa.KindUnit: 23, bitwa.KindCommander: 15, bitwa.KindOrder: 15},
		bitwa.ACz: {bitwa.KindUnit: 20, bitwa.KindCommander: 15, bitwa.KindOrder: 18},
	}
	// World of Tanks: Rush: "100 kart Pojazdów, 25 kart dla każdego z państw".
	wotrushPerNation = 25
	wotrushNations   = []string{"ussr", "germany", "usa", "france"}
	// Mali Powstańcy: "talia 42 kart rozkazów", "talia 24 kart sekretnych
	// celów", a six-sided die; the places the rulebook's text names.
	maliOrders, maliGoals, maliFaces = 42, 24, 6
	maliPlaces                       = []string{"plac-wilsona", "past", "stary-mokotow", "plac-narutowicza", "port", "pwpw", "cytadela", "al-szucha", "plac-trzech-krzyzy"}
	// How the West was Saved: "40 kart zdarzeń losowych" (3.1), and the
	// cities its rules and examples name.
	westCards  = 40
	westCities = []string{"warszawa", "torun", "ostroleka", "zamosc", "lwow", "kiev", "vinnytsia", "proskurov", "zhytomyr", "ostrog", "uman", "smolensk"}
)

func checkBitwa(p *Pack) error {
	cat, err := BitwaCatalogue(p)
	if err != nil {
		return fmt.Errorf("box: %w", err)
	}
	got := map[string]map[string]int{bitwa.WP: {}, bitwa.ACz: {}}
	for _, c := range cat.Data.Cards {
		got[c.Army][c.Kind]++
	}
	for _, army := range []string{bitwa.WP, bitwa.ACz} {
		for _, kind := range []string{bitwa.KindUnit, bitwa.KindCommander, bitwa.KindOrder} {
			if want := bitwaDeck[army][kind]; got[army][kind] != want {
				return refuse(p.Name(bitwa.CardsFile), 0, "armia %[1]s: %[2]d kart rodzaju %[3]s, a instrukcja drukuje %[4]d", "army %[1]s: %[2]d cards of kind %[3]s, and the rulebook prints %[4]d",
					army, got[army][kind], kind, want)
			}
		}
	}
	return nil
}

func checkWotrush(p *Pack) error {
	cat, err := WotrushCatalogue(p)
	if err != nil {
		return fmt.Errorf("box: %w", err)
	}
	n := map[string]int{}
	for _, v := range cat.Data.Vehicles {
		n[v.Nation]++
	}
	for _, nation := range wotrushNations {
		if n[nation] != wotrushPerNation {
			return refuse(p.Name(wotrush.VehiclesFile), 0, "państwo %[1]s: %[2]d kart Pojazdów, a instrukcja drukuje %[3]d", "nation %[1]s: %[2]d vehicle cards, and the rulebook prints %[3]d",
				nation, n[nation], wotrushPerNation)
		}
	}
	return nil
}

func checkMali(p *Pack) error {
	cat, err := MaliCatalogue(p)
	if err != nil {
		return fmt.Errorf("box: %w", err)
	}
	for _, c := range []struct {
		file     string
		got, out int
		pl, en   string
	}{
		{"orders.yaml", len(cat.Data.Orders), maliOrders, "kart rozkazów", "order cards"},
		{"goals.yaml", len(cat.Data.Goals), maliGoals, "kart sekretnych celów", "secret goal cards"},
		{"die.yaml", len(cat.Data.Die), maliFaces, "ścianek kostki", "die faces"},
	} {
		if c.got != c.out {
			return refuse(p.Name(c.file), 0, "%[1]d "+c.pl+", a instrukcja drukuje %[2]d", "%[1]d "+c.en+", and the rulebook prints %[2]d", c.got, c.out)
		}
	}
	for _, id := range maliPlaces {
		if _, ok := cat.Objects[id]; !ok {
			return refuse(p.Name("map.yaml"), 0, "brak obiektu %[1]q, który instrukcja wymienia", "no object %[1]q, which the rulebook names", id)
		}
	}
	// The loader checks the city is connected.
	return nil
}

func checkWest(p *Pack) error {
	cat, err := WestCatalogue(p)
	if err != nil {
		return fmt.Errorf("box: %w", err)
	}
	if len(cat.Cards) != westCards {
		return refuse(p.Name(west1920.CardsFile), 0, "%[1]d kart zdarzeń losowych, a instrukcja drukuje %[2]d", "%[1]d random event cards, and the rulebook prints %[2]d", len(cat.Cards), westCards)
	}
	for i := 1; i <= westCards; i++ {
		if _, ok := cat.Cards[i]; !ok {
			return refuse(p.Name(west1920.CardsFile), 0, "brak karty zdarzenia numer %[1]d (numery 1–%[2]d)", "no random event card number %[1]d (numbers 1–%[2]d)", i, westCards)
		}
	}
	for _, id := range westCities {
		if _, ok := cat.Cities[id]; !ok {
			return refuse(p.Name(west1920.MapFile), 0, "brak miasta %[1]q, które instrukcja wymienia", "no city %[1]q, which the rulebook names", id)
		}
	}
	return nil
}
