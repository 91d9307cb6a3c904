package box_test

import (
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/box"
	"github.com/sztab/sztab/internal/fuzzseed"
)

// FuzzPack feeds the pack parser a pack.yaml and one data file of one game
// (the shipped files and the club's test boxes, then hostile YAML): it
// never panics, a refused pack names a file, and a pack that passes reads
// its report back.
func FuzzPack(f *testing.F) {
	metas := fuzzseed.Files(f, "testdata/*/pack.yaml")
	datas := fuzzseed.Files(f, "testdata/*/*.yaml", "../../rules/mali/data/*.yaml")
	for i, d := range append(datas, fuzzseed.YAML("cards")...) {
		f.Add(metas[i%len(metas)], d, uint8(i))
	}
	for _, m := range fuzzseed.YAML("format") {
		f.Add(m, []byte{}, uint8(0))
	}
	f.Fuzz(func(t *testing.T, meta, data []byte, which uint8) {
		m, err := box.ParseMeta("pack.yaml", meta)
		if err != nil {
			if !strings.Contains(err.Error(), "pack.yaml") {
				t.Fatalf("a refusal that names no file: %v", err)
			}
			return
		}
		p, err := box.Shipped(m.Game)
		if err != nil {
			t.Fatalf("ParseMeta passed game %q that has no shipped pack: %v", m.Game, err)
		}
		p.Meta = m
		files := box.Files(m.Game)
		name := files[int(which)%len(files)]
		p.Files[name] = data
		r, err := box.Check(p)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty refusal")
			}
			return
		}
		if r.Game != m.Game {
			t.Fatalf("report of %q for a pack of %q", r.Game, m.Game)
		}
	})
}
