// Package box reads box packs: everything one printed box of a game holds
// (its cards, its boards, the tags stuck on its cards and the edition's
// name) as one versioned directory a club can share.
//
// A pack directory holds pack.yaml (the format version, the game's config
// id, the edition's name and the pack's own version), the game's data files
// under their shipped names (rules/<game>/data/*.yaml, in the same format)
// and optionally tags.yaml (the tag registry of the box's cards, the format
// of sztab tags). A data file the pack leaves out is the shipped one. The
// shipped data is itself a pack, the "assumed" one (Shipped): its files
// stay where the engines embed them.
//
// A table config names its pack with the top-level box: key; the game
// adapters load the pack's files instead of the shipped ones. Check
// validates a pack and lists what in it is still assumed.
package box

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/rules"
)

// Format is the pack format version this build reads (pack.yaml's format).
const Format = 1

// MetaFile and TagsFile are the pack's own files beside the data files.
const (
	MetaFile = "pack.yaml"
	TagsFile = "tags.yaml"
)

// Meta is pack.yaml.
type Meta struct {
	// Format is the pack format version (Format).
	Format int `yaml:"format"`
	// Game is the game's config id (bitwa-warszawska, …).
	Game string `yaml:"game"`
	// Edition names the printed edition, in Polish and English.
	Edition rules.Text `yaml:"edition"`
	// Version is the pack's own version, as its club numbers it.
	Version string `yaml:"version"`
}

// Pack is one box's files.
type Pack struct {
	// Dir is the pack's directory; empty for the shipped pack.
	Dir  string
	Meta Meta
	// Files are the game's data files by their shipped name; every one of
	// the game's files is here, the pack's own or the shipped one.
	Files map[string][]byte
	// Own names the data files the pack holds itself (the rest are the
	// shipped ones).
	Own map[string]bool
	// Tags is tags.yaml's text, nil when the pack has none.
	Tags []byte
}

// Name is how errors name a file of the pack: its path in the pack's
// directory, or the shipped file's name.
func (p *Pack) Name(file string) string {
	if p.Dir == "" || (!p.Own[file] && file != MetaFile && file != TagsFile) {
		return file
	}
	return filepath.Join(p.Dir, file)
}

// Shipped reports whether p is the shipped (assumed) pack.
func (p *Pack) Shipped() bool { return p.Dir == "" }

// Error is a pack refused: the file, the line (0: the whole file) and the
// reason in Polish and English.
type Error struct {
	File   string
	Line   int
	Reason rules.Text
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("box: %s:%d: %s", e.File, e.Line, e.Reason.EN)
	}
	return fmt.Sprintf("box: %s: %s", e.File, e.Reason.EN)
}

func refuse(file string, line int, pl, en string, args ...any) *Error {
	return &Error{File: file, Line: line, Reason: rules.Textf(pl, en, args...)}
}

// Shipped is the pack the engines embed for game id: the assumed data.
func Shipped(game string) (*Pack, error) {
	g, ok := lookup(game)
	if !ok {
		return nil, refuse(MetaFile, 0, "nieznana gra %[1]q; znane: %[2]s", "unknown game %[1]q; known: %[2]s", game, strings.Join(IDs(), ", "))
	}
	p := &Pack{Meta: Meta{Format: Format, Game: game, Edition: rules.Text{PL: "dane przykładowe (założone)", EN: "sample data (assumed)"}, Version: "shipped"},
		Files: cloneFiles(g.shipped()), Own: map[string]bool{}}
	return p, nil
}

// Open reads the pack in dir. It checks pack.yaml and that every file is
// one the game knows; Check validates the data itself.
func Open(dir string) (*Pack, error) {
	metaPath := filepath.Join(dir, MetaFile)
	data, err := os.ReadFile(metaPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, refuse(metaPath, 0, "to nie jest paczka pudełka: brak pliku pack.yaml", "not a box pack: no pack.yaml")
		}
		return nil, fmt.Errorf("box: %w", err)
	}
	meta, err := ParseMeta(metaPath, data)
	if err != nil {
		return nil, err
	}
	g, _ := lookup(meta.Game)
	p := &Pack{Dir: dir, Meta: meta, Files: cloneFiles(g.shipped()), Own: map[string]bool{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("box: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || name == MetaFile || strings.HasPrefix(name, ".") || strings.EqualFold(filepath.Ext(name), ".md") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("box: %w", err)
		}
		switch {
		case name == TagsFile:
			p.Tags = b
		case slices.Contains(g.Files, name):
			p.Files[name] = b
			p.Own[name] = true
		default:
			return nil, refuse(filepath.Join(dir, name), 0, "plik, którego gra %[1]s nie zna; pliki paczki: pack.yaml, tags.yaml, %[2]s",
				"a file game %[1]s does not know; a pack's files: pack.yaml, tags.yaml, %[2]s", meta.Game, strings.Join(g.Files, ", "))
		}
	}
	return p, nil
}

// ParseMeta reads pack.yaml; path names it in errors.
func ParseMeta(path string, data []byte) (Meta, error) {
	var m Meta
	var root yaml.Node
	if err := yamlsafe.Unmarshal(data, &root); err != nil {
		return m, refuse(path, yamlLine(err), "błędny YAML: %[1]v", "bad YAML: %[1]v", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &m); err != nil {
		return m, refuse(path, yamlLine(err), "błędne pole: %[1]v", "bad field: %[1]v", err)
	}
	line := func(key string) int {
		if len(root.Content) == 1 && root.Content[0].Kind == yaml.MappingNode {
			c := root.Content[0].Content
			for i := 0; i+1 < len(c); i += 2 {
				if c[i].Value == key {
					return c[i].Line
				}
			}
		}
		return 0
	}
	switch {
	case m.Format == 0:
		return m, refuse(path, 0, "brak format: (wersja formatu paczki, obecna %[1]d)", "no format: (the pack format version, this build's is %[1]d)", Format)
	case m.Format != Format:
		return m, refuse(path, line("format"), "format paczki %[1]d, a ta wersja sztab czyta format %[2]d", "pack format %[1]d, and this sztab reads format %[2]d", m.Format, Format)
	}
	if _, ok := lookup(m.Game); !ok {
		return m, refuse(path, line("game"), "nieznana gra %[1]q; znane: %[2]s", "unknown game %[1]q; known: %[2]s", m.Game, strings.Join(IDs(), ", "))
	}
	if strings.TrimSpace(m.Edition.PL) == "" || strings.TrimSpace(m.Edition.EN) == "" {
		return m, refuse(path, max(line("edition"), 1), "edition: potrzebna nazwa wydania po polsku i angielsku (pl, en)", "edition: the edition's name is needed in Polish and English (pl, en)")
	}
	if strings.TrimSpace(m.Version) == "" {
		return m, refuse(path, max(line("version"), 1), "brak version: (wersja paczki)", "no version: (the pack's version)")
	}
	return m, nil
}

// yamlLine is the line a yaml.v3 error names ("yaml: line 3: …"), or 0.
func yamlLine(err error) int {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if i := strings.Index(msg, "line "); i >= 0 {
		n := 0
		for _, r := range msg[i+5:] {
			if r < '0' || r > '9' {
				break
			}
			n = n*10 + int(r-'0')
		}
		return n
	}
	return 0
}

// Write writes p as a pack directory dir (created; files already there
// are refused): pack.yaml and every data file, so a club starts its
// enrolment from a full copy.
func Write(p *Pack, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("box: %w", err)
	}
	meta, err := yaml.Marshal(p.Meta)
	if err != nil {
		return fmt.Errorf("box: %w", err)
	}
	files := map[string][]byte{MetaFile: append([]byte("# A Sztab box pack (docs/box.md).\n"), meta...)}
	for name, b := range p.Files {
		files[name] = b
	}
	if p.Tags != nil {
		files[TagsFile] = p.Tags
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f, err := os.OpenFile(filepath.Join(dir, n), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("box: %w", err)
		}
		if _, err := f.Write(files[n]); err != nil {
			f.Close()
			return fmt.Errorf("box: %w", err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("box: %w", err)
		}
	}
	return nil
}

// ForConfig is the pack a table config names (box:), or the shipped pack
// of its game when it names none. A pack of another game, or one that does
// not open, is a config error at the box: line.
func ForConfig(cfg gamespec.TableConfig) (*Pack, error) {
	game, box := cfg.GameID(), cfg.BoxPack()
	if box == "" {
		return Shipped(game)
	}
	p, err := Open(cfg.Resolve(box))
	if err != nil {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line("box"), Msg: err.Error()}
	}
	if p.Meta.Game != game {
		return nil, &gamespec.ConfigError{File: cfg.Path(), Line: cfg.Line("box"),
			Msg: fmt.Sprintf("box: the pack %s is game %s, the table plays %s (paczka jest grą %s, stół gra w %s)", box, p.Meta.Game, game, p.Meta.Game, game)}
	}
	return p, nil
}

// File is one data file for the engine: the file a game section's data:
// names (path, through resolve), else the pack's. It returns the name
// errors give it and its bytes.
func (p *Pack) File(path string, resolve func(string) string, name string) (string, []byte, error) {
	if path != "" {
		b, err := os.ReadFile(resolve(path))
		if err != nil {
			return "", nil, fmt.Errorf("box: data file %s: %w", name, err)
		}
		return path, b, nil
	}
	return p.Name(name), p.Files[name], nil
}
