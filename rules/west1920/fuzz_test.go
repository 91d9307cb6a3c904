package west1920

import (
	"os"
	"testing"
)

// BenchmarkReplay replays the 14-stage bot game (testdata/games/full-game.jsonl)
// from its journal: parse, then Apply every action. Goal: under 1 s.
func BenchmarkReplay(b *testing.B) {
	cat := defaultCat(b)
	data, err := os.ReadFile("testdata/games/full-game.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		lines, err := ParseScript(cat, "full-game.jsonl", data)
		if err != nil {
			b.Fatal(err)
		}
		final, steps := Play(lines, false)
		if final.Phase != PhaseOver || steps[len(steps)-1].Err != nil {
			b.Fatalf("the replay did not reach the end")
		}
	}
}

// FuzzParseCatalogue: any map file either loads or is refused with an
// error; never a panic. Seeds: the embedded files and small breakages.
func FuzzParseCatalogue(f *testing.F) {
	files := DefaultFiles()
	f.Add(files[MapFile], files[OOBFile], files[CardsFile])
	f.Add([]byte("columns: 2\nrows: 2\n"), files[OOBFile], files[CardsFile])
	f.Add(files[MapFile], []byte("units: [{id: x}]\n"), files[CardsFile])
	f.Add(files[MapFile], files[OOBFile], []byte("cards: [{id: 1, both: [{do: nope}]}]\n"))
	f.Add([]byte("terrain: [\"WW\"]\nrivers: [{name: r, sides: [\"0101/0909\"]}]\n"), files[OOBFile], files[CardsFile])
	f.Fuzz(func(t *testing.T, m, o, c []byte) {
		cat, err := ParseCatalogue(MapFile, m, OOBFile, o, CardsFile, c)
		if err == nil && cat == nil {
			t.Fatal("no catalogue and no error")
		}
		if err == nil {
			// A catalogue that loads starts a game.
			if _, _, err := Apply(State{}, StartGame{Data: cat.Data}); err != nil {
				t.Fatalf("loaded data refused by StartGame: %v", err)
			}
		}
	})
}

// FuzzParseScript: any script either parses or is refused with a line
// number; what parses plays without a panic.
func FuzzParseScript(f *testing.F) {
	cat := defaultCat(f)
	for _, name := range []string{"readme.jsonl", "bot-5-stages.jsonl"} {
		data, err := os.ReadFile("testdata/games/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"type":"setup","options":{"tie_combat":"x"}}`))
	f.Add([]byte("{\"type\":\"roll\",\"dice\":[7]}\n# c\n\n{\"type\":\"pass\"}"))
	f.Add([]byte(`{"type":"order","side":"polish","hex":"9999","path":["0000"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, err := ParseScript(cat, "fuzz.jsonl", data)
		if err != nil {
			return
		}
		Play(lines, true)
	})
}

// BenchmarkParseCatalogue loads the embedded data files: what every
// FuzzParseCatalogue exec that loads pays.
func BenchmarkParseCatalogue(b *testing.B) {
	files := DefaultFiles()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseCatalogue(MapFile, files[MapFile], OOBFile, files[OOBFile], CardsFile, files[CardsFile]); err != nil {
			b.Fatal(err)
		}
	}
}
