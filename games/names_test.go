package games_test

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/games"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/internal/gamestest"
)

var update = flag.Bool("update", false, "rewrite testdata/mentions.txt (the mentions of games outside their own places) and the games' printed boards")

const module = "github.com/sztab/sztab/"

// registryFiles are the registry lines' files: the binary's list and the
// tests' list (with the test-only sixth game).
var registryFiles = []string{"games/games.go", "internal/gamestest/gamestest.go"}

// A game is its own packages (its binding and the engines it imports
// under rules/), its data and docs (files and folders named by its id or
// package) and its registry line. Any other file that names its id or its
// package is a place someone must remember when a game is added or
// renamed: this test fails on each new one. testdata/mentions.txt lists the
// places that named the first five games before the registry existed; the
// list may only shrink (go test ./games -run Mentions -update rewrites it).
func TestNoGameIsNamedOutsideItsOwnPlaces(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var gs []named
	var pkgs []string
	for _, spec := range gamestest.All {
		pkg := specPackage(t, spec)
		gs = append(gs, named{id: spec.ID, pkg: path.Base(pkg), own: []string{pkg}})
		pkgs = append(pkgs, module+pkg)
	}
	// A game's engines are the packages under rules/ its binding imports.
	out, err := exec.Command("go", append([]string{"list", "-f", `{{.ImportPath}} {{join .Imports " "}}`}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(gs) {
		t.Fatalf("go list: %d lines for %d packages", len(lines), len(gs))
	}
	for _, l := range lines {
		f := strings.Fields(l)
		i := slices.Index(pkgs, f[0])
		if i < 0 {
			t.Fatalf("go list: %s, not one of %v", f[0], pkgs)
		}
		for _, imp := range f[1:] {
			if rest, ok := strings.CutPrefix(imp, module+"rules/"); ok && rest != "dice" && !strings.Contains(rest, "/") {
				gs[i].own = append(gs[i].own, "rules/"+rest)
			}
		}
	}
	if len(gs) != len(games.All)+1 {
		t.Fatalf("%d games in the tests' registry, want the %d registered and the sixth", len(gs), len(games.All))
	}
	var found []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" || d.Name() == "node_modules" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		// What the builds leave (.gitignore's build/, bin/, test-artifacts/,
		// var/: make deb's packages hold the shipped examples) is no source.
		if r, _ := filepath.Rel(root, p); d.IsDir() && slices.Contains([]string{"build", "bin", "test-artifacts", "var"}, filepath.ToSlash(r)) {
			return filepath.SkipDir
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if slices.Contains(registryFiles, rel) || rel == "games/testdata/mentions.txt" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			return nil // binary: an image, a model
		}
		for _, g := range gs {
			if g.owns(rel) || !g.names(data) {
				continue
			}
			found = append(found, g.id+"\t"+rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(found)
	const list = "testdata/mentions.txt"
	if *update {
		text := "# Files that name one of the first five games outside its own places (see\n# TestNoGameIsNamedOutsideItsOwnPlaces): each is a place to move into the\n# game's spec. The list only shrinks.\n" + strings.Join(found, "\n") + "\n"
		if err := os.WriteFile(list, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if id, _, _ := strings.Cut(l, "\t"); !slices.Contains(games.All.IDs(), id) || id == "" {
			t.Errorf("%s: %q: only the first five games may be named elsewhere, and only where they were", list, l)
		}
		known[l] = true
	}
	for _, f := range found {
		if !known[f] {
			id, file, _ := strings.Cut(f, "\t")
			t.Errorf("%s names the game %s outside its own packages, data, docs and registry line: let the game's spec carry it", file, id)
		}
		delete(known, f)
	}
	for f := range known {
		t.Logf("%s no longer names its game: drop it from %s (-update)", strings.Replace(f, "\t", ": ", 1), list)
	}
}

// named is a game as this test looks for it.
type named struct {
	id, pkg string
	// own are its folders, slash-separated, relative to the module root.
	own []string
}

// names says whether data names the game: its id or its package as a
// word of its own.
func (g named) names(data []byte) bool {
	return hasWord(data, g.id) || hasWord(data, g.pkg)
}

func hasWord(data []byte, w string) bool {
	word := func(c byte) bool {
		return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	for from := 0; ; {
		i := bytes.Index(data[from:], []byte(w))
		if i < 0 {
			return false
		}
		i += from
		end := i + len(w)
		if (i == 0 || !word(data[i-1])) && (end == len(data) || !word(data[end])) {
			return true
		}
		from = i + 1
	}
}

// owns says whether a file is the game's own: under one of its folders,
// or in a folder or file named by its id or package ("<id>.yaml",
// "<id>-tags.yaml").
func (g named) owns(rel string) bool {
	for _, dir := range g.own {
		if strings.HasPrefix(rel, dir+"/") {
			return true
		}
	}
	for _, part := range strings.Split(rel, "/") {
		for _, n := range []string{g.id, g.pkg} {
			if part == n || strings.HasPrefix(part, n+".") || strings.HasPrefix(part, n+"-") || strings.HasPrefix(part, n+"_") {
				return true
			}
		}
	}
	return false
}

// specPackage is the package that declares the spec's constructor, the
// game's binding ("companion/skirmishgame").
func specPackage(t *testing.T, spec gamespec.GameSpec) string {
	t.Helper()
	fn := runtime.FuncForPC(reflect.ValueOf(spec.New).Pointer()).Name()
	pkg, ok := strings.CutPrefix(fn, module)
	if !ok {
		t.Fatalf("%s: the constructor %s is not in this module", spec.ID, fn)
	}
	// "companion/skirmishgame.New": the package ends before the last
	// path element's first dot.
	dir, last := path.Split(pkg)
	last, _, _ = strings.Cut(last, ".")
	return dir + last
}
