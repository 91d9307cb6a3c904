package wotrush

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sztab/sztab/internal/fuzzseed"
)

// FuzzParseCatalogue: a data file parses or is refused with an error naming
// the file; an accepted catalogue starts a game.
func FuzzParseCatalogue(f *testing.F) {
	files := DefaultFiles()
	f.Add(files[VehiclesFile], files[ComponentsFile])
	f.Add([]byte("vehicles: []"), files[ComponentsFile])
	f.Add(files[VehiclesFile], []byte("sets: 5\nnations: []"))
	f.Add([]byte(strings.Replace(string(files[VehiclesFile]), "cost: 0", "cost: -1", 1)), files[ComponentsFile])
	for _, d := range fuzzseed.YAML("vehicles") {
		f.Add(d, files[ComponentsFile])
	}
	for _, d := range fuzzseed.YAML("nations") {
		f.Add(files[VehiclesFile], d)
	}
	f.Fuzz(func(t *testing.T, vehicles, components []byte) {
		cat, err := ParseCatalogue("v.yaml", vehicles, "c.yaml", components)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "wotrush: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		n := min(2, cat.Data.Components.Sets)
		if _, err := cat.NewGame(Setup{Players: []PlayerInfo{{1, "A"}, {2, "B"}}[:n], First: 1}); err != nil && n >= 2 {
			t.Fatalf("an accepted catalogue does not start a game: %v", err)
		}
	})
}

// FuzzParseScript: a script parses or is refused with its name and line;
// playing it twice gives the same steps.
func FuzzParseScript(f *testing.F) {
	cat, err := DefaultCatalogue()
	if err != nil {
		f.Fatal(err)
	}
	for _, game := range fuzzseed.Files(f, "testdata/games/readme.jsonl") {
		f.Add(game)
	}
	for _, d := range fuzzseed.JSON("type") {
		f.Add(d)
	}
	f.Add([]byte(`{"type":"setup","players":[{"seat":1},{"seat":2}],"first":1}` + "\n" + `{"type":"end_turn","seat":1}`))
	f.Add([]byte(`{"type":"setup","players":[{"seat":1},{"seat":2}],"first":1,"seed":18446744073709551615}` + "\n" + `{"type":"take_medals","seat":1,"doubles":-9223372036854775808}`))
	f.Add([]byte(`{"type":"buy","seat":1,"cards":["SU-01","SU-01"],"pay":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, err := ParseScript(cat, "fuzz.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "wotrush: fuzz.jsonl") {
				t.Fatalf("error does not name the script: %v", err)
			}
			return
		}
		if len(lines) > 200 {
			lines = lines[:200]
		}
		s1, steps1 := Play(lines, true)
		s2, steps2 := Play(lines, true)
		if !reflect.DeepEqual(steps1, steps2) || string(mustJSON(t, s1)) != string(mustJSON(t, s2)) {
			t.Fatal("two plays of the same script differ")
		}
	})
}
