package mali

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoad: any map, orders, goals or die file loads or is refused with a
// *DataError naming the file; never a panic.
func FuzzLoad(f *testing.F) {
	for _, df := range DefaultFiles() {
		f.Add(df.Name, df.Data)
	}
	f.Add("map.yaml", []byte("roads:\n  - {id: a, a: x, b: y}\n"))
	f.Add("die.yaml", []byte("faces: []\n"))
	f.Add("goals.yaml", []byte("<<:\n{a}: 1\n"))
	f.Add("orders.yaml", []byte(""))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		base := DataFiles[len(name)%len(DataFiles)]
		_, err := Load(File{Name: base, Data: data})
		if err == nil {
			return
		}
		var de *DataError
		if !errors.As(err, &de) || de.File != base || !strings.HasPrefix(err.Error(), "mali: "+base) {
			t.Fatalf("error %v does not name %s", err, base)
		}
	})
}

// FuzzParseScript: a script parses or is refused with its name and line,
// and playing it never panics and is deterministic.
func FuzzParseScript(f *testing.F) {
	cat, err := DefaultCatalogue()
	if err != nil {
		f.Fatal(err)
	}
	paths, _ := filepath.Glob("testdata/games/*.jsonl")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"type":"step","courier":"red-1","to":"nowhere"}`))
	f.Add([]byte(`{"type":"setup","variant":"basic","players":[{"seat":1,"colour":"red"}],"starter":1}`))
	f.Add([]byte("# c\n\n{\"type\":\"end_turn\"}\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, err := ParseScript(cat, "fuzz.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mali: fuzz.jsonl") {
				t.Fatalf("error does not name the script: %v", err)
			}
			return
		}
		a, s1 := Play(lines, true)
		b, s2 := Play(lines, true)
		if len(s1) != len(s2) || a.Round != b.Round || a.Phase != b.Phase {
			t.Fatal("two plays differ")
		}
	})
}
