package bitwa

import (
	"strings"
	"testing"

	"github.com/sztab/sztab/internal/fuzzseed"
)

// FuzzParseCatalogue: a data file parses or is refused with an error
// prefixed "bitwa: "; an accepted catalogue starts a game.
func FuzzParseCatalogue(f *testing.F) {
	files := DefaultFiles()
	f.Add(files[CardsFile], files[ComponentsFile])
	f.Add([]byte("cards: []"), files[ComponentsFile])
	f.Add([]byte(strings.Replace(string(files[CardsFile]), "limit: 6", "limit: 0", 1)), files[ComponentsFile])
	f.Add([]byte(strings.Replace(string(files[CardsFile]), "do: \"move\"", "do: \"fly\"", 1)), files[ComponentsFile])
	f.Add(files[CardsFile], []byte(strings.Replace(string(files[ComponentsFile]), "units: 21", "units: -1", 1)))
	for _, d := range fuzzseed.YAML("cards") {
		f.Add(d, files[ComponentsFile])
	}
	for _, d := range fuzzseed.YAML("armies") {
		f.Add(files[CardsFile], d)
	}
	f.Fuzz(func(t *testing.T, cards, components []byte) {
		cat, err := ParseCatalogue("c.yaml", cards, "k.yaml", components)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "bitwa: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		if _, err := cat.NewGame(Setup{Players: players(2), Seed: 1}); err != nil {
			t.Fatalf("an accepted catalogue does not start a game: %v", err)
		}
	})
}

// FuzzParseScript: a script parses or is refused with its name and line;
// a parsed script plays without panicking.
func FuzzParseScript(f *testing.F) {
	for _, d := range fuzzseed.Files(f, "testdata/games/*.jsonl") {
		f.Add(d)
	}
	f.Add([]byte(`{"type":"setup","players":[{"seat":1,"name":"A","army":"wp"},{"seat":2,"name":"B","army":"acz"}],"seed":1}` + "\n" + `{"type":"pass","seat":1}`))
	f.Add([]byte(`{"type":"move","seat":1,"moves":[{"from":"N9","to":"C1","n":-1}]}`))
	f.Add([]byte("{\"type\":\"roll\"}\n# c\n\n{"))
	for _, d := range fuzzseed.JSON("type") {
		f.Add(d)
	}
	cat, err := DefaultCatalogue()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, err := ParseScript(cat, "f.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "bitwa: f.jsonl") {
				t.Fatalf("error without the script's name: %v", err)
			}
			return
		}
		Play(lines, true)
	})
}
