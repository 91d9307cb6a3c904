package west1920

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/sztab/sztab/internal/yamlsafe"
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

// FuzzParseCatalogue: any data file either loads or is refused with an
// error; never a panic. One file (which%3: map, order of battle, cards)
// is fuzzed at a time, the other two are the embedded ones: with three
// 10 KB inputs the fuzzer spent its time minimising (60 s per new input at
// ~3 ms an exec) and ran 8 execs in 15 s. Seeds: the embedded files and
// small breakages.
func FuzzParseCatalogue(f *testing.F) {
	files := DefaultFiles()
	names := []string{MapFile, OOBFile, CardsFile}
	for k, n := range names {
		f.Add(uint8(k), files[n])
	}
	f.Add(uint8(0), []byte("columns: 2\nrows: 2\n"))
	f.Add(uint8(1), []byte("units: [{id: x}]\n"))
	f.Add(uint8(2), []byte("cards: [{id: 1, both: [{do: nope}]}]\n"))
	f.Add(uint8(0), []byte("terrain: [\"WW\"]\nrivers: [{name: r, sides: [\"0101/0909\"]}]\n"))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		in := DefaultFiles()
		in[names[int(which)%3]] = data
		cat, err := ParseCatalogue(MapFile, in[MapFile], OOBFile, in[OOBFile], CardsFile, in[CardsFile])
		if err == nil && cat == nil {
			t.Fatal("no catalogue and no error")
		}
		// A check that fails names the file and says why in both languages.
		var de *DataError
		if errors.As(err, &de) && (!slices.Contains(names, de.File) || de.Line <= 0 || de.Reason.PL == "" || de.Reason.EN == "") {
			t.Fatalf("data error %#v: want the file and a reason in Polish and English", de)
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

// The decode cache hands out the same data as a fresh decode, and a copy:
// changing one catalogue's data does not change the next one's.
func TestDecodeCacheCopies(t *testing.T) {
	files := DefaultFiles()
	var direct Data
	if err := yamlsafe.Strict(files[MapFile], &direct.Map); err != nil {
		t.Fatal(err)
	}
	if err := yamlsafe.Strict(files[OOBFile], &direct.OOB); err != nil {
		t.Fatal(err)
	}
	if err := yamlsafe.Strict(files[CardsFile], &direct.Cards); err != nil {
		t.Fatal(err)
	}
	a := defaultCat(t)
	a.Data.Map.Cities[0].Name = "changed"
	a.Data.OOB.Units[0].Name = "changed"
	a.Data.Cards.Cards[0].Polish[0].N = 99
	b := defaultCat(t)
	if !reflect.DeepEqual(b.Data, direct) {
		t.Fatal("a cached decode differs from a fresh one (or a change leaked into the cache)")
	}
}

// BenchmarkParseCatalogue: what each FuzzParseCatalogue exec pays to load
// three files. before: no decode cache (every file decoded from YAML, as
// before the cache); warm: the same three files again; one_changed: one
// file new, two seen (the fuzzer's usual case); cold: all three new.
func BenchmarkParseCatalogue(b *testing.B) {
	files := DefaultFiles()
	variant := func(i int, f string) []byte { return append([]byte(fmt.Sprintf("# %d\n", i)), files[f]...) }
	for _, c := range []struct {
		name    string
		cache   bool
		changed int // how many files change each time
	}{{"before", false, 0}, {"warm", true, 0}, {"one_changed", true, 1}, {"cold", true, 3}} {
		b.Run(c.name, func(b *testing.B) {
			useDecodeCache = c.cache
			defer func() { useDecodeCache = true }()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				m, o, cd := files[MapFile], files[OOBFile], files[CardsFile]
				if c.changed >= 1 {
					m = variant(i, MapFile)
				}
				if c.changed >= 3 {
					o, cd = variant(i, OOBFile), variant(i, CardsFile)
				}
				if _, err := ParseCatalogue(MapFile, m, OOBFile, o, CardsFile, cd); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
