package companion

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/fuzzseed"
)

// The fuzz targets of the table's own files: the configuration and the
// tag registry.

// fuzzTableDir is a directory laid out as a table's /etc/sztab: the demo's
// files, the layouts and the board profiles, so that the files a config
// names (the simulated script, a layout) are there to be found.
func fuzzTableDir(f *testing.F) string {
	dir := f.TempDir()
	src := filepath.Join("..", "firmware-config")
	for _, pattern := range []string{"demo/*", "layouts/*.yaml", "boards/*.yaml", "tags/*.yaml", "markers.yaml", "camera.example.yaml"} {
		names, err := filepath.Glob(filepath.Join(src, pattern))
		if err != nil || len(names) == 0 {
			f.Fatalf("no %s in %s (%v)", pattern, src, err)
		}
		for _, n := range names {
			rel, _ := filepath.Rel(src, n)
			if strings.HasPrefix(rel, "demo"+string(filepath.Separator)) {
				rel = filepath.Base(rel)
			}
			data, err := os.ReadFile(n)
			if err != nil {
				f.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
				f.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
				f.Fatal(err)
			}
		}
	}
	return dir
}

// yamlSeeds are fuzzseed.YAML(key), yaml.v3's merge-key panic
// (go-yaml/yaml#895) among them: ParseConfig and ParseTags decode through
// internal/yamlsafe.
func yamlSeeds(key string) [][]byte { return fuzzseed.YAML(key) }

// fuzzParseConfig is the entry point under test, kept thin so that a
// change of ParseConfig's signature is one line here.
func fuzzParseConfig(path string, data []byte) (*Config, error) { return ParseConfig(path, data) }

// FuzzParseConfig: a table configuration parses and checks, or is refused
// with a *ConfigError naming the file and a line of it (or none). One
// accepted parses again from its own text to the same config, and checks
// again.
func FuzzParseConfig(f *testing.F) {
	for _, d := range fuzzseed.Files(f, "../firmware-config/table.example.yaml", "../firmware-config/demo/skirmish.yaml") {
		f.Add(d)
	}
	for _, d := range yamlSeeds("venue") {
		f.Add(d)
	}
	for _, d := range yamlSeeds("skirmish") {
		f.Add(append([]byte("venue: v\ntable: t\ngame: skirmish\ntags: tags.yaml\n"), d...))
	}
	base := "venue: v\ntable: t\ngame: skirmish\ntags: tags.yaml\n"
	for _, n := range fuzzseed.Numbers {
		f.Add([]byte(base + "measure: {krok_mm: " + n + "}\ndice: {seed: " + n + ", fairness: {significance: 0.01, min_rolls: " + n + "}}\nmqtt: {listen: \":" + n + "\"}\n"))
		f.Add([]byte(base + "display:\n  listen: \":8080\"\n  players:\n    - {seat: " + n + ", user: a, password: a}\n"))
	}
	f.Add([]byte(base + "hardware: {simulated: skirmish-demo.jsonl, board: rpi4, layout: layouts/mali-powstancy.yaml}\n"))
	f.Add([]byte(base + "camera: {source: /dev/video0, calibration: c.yaml, markers: markers.yaml, fps: 10}\n"))
	f.Add([]byte(base + "mqtt: {broker: \"ssl://h:8883\", tls: {ca_file: tags.yaml, cert_file: /nonexistent}}\n"))
	f.Add([]byte(base + "x: &a {y: *a}\n"))
	dir := fuzzTableDir(f)
	path := filepath.Join(dir, "table.yaml")
	// YAML breaks lines at CR, LF, CR LF, NEL, LS and PS.
	lines := func(data []byte) int {
		text := strings.ReplaceAll(string(data), "\r\n", "\n")
		n := 1
		for _, r := range text {
			switch r {
			case '\n', '\r', '\u0085', '\u2028', '\u2029':
				n++
			}
		}
		return n
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := fuzzParseConfig(path, data)
		if err != nil {
			var ce *ConfigError
			switch {
			case cfg != nil:
				t.Fatalf("a config and an error: %v", err)
			case !errors.As(err, &ce):
				t.Fatalf("%T is not a *ConfigError: %v", err, err)
			case ce.File != path:
				t.Fatalf("the error names %q, not the file: %v", ce.File, err)
			case ce.Line < 0 || ce.Line > lines(data):
				t.Fatalf("the error names line %d of a file of %d: %v", ce.Line, lines(data), err)
			}
			return
		}
		if cfg.Path() != path || !bytes.Equal(cfg.Raw(), data) {
			t.Fatalf("the config does not keep its file and text")
		}
		if err := cfg.check(); err != nil {
			t.Fatalf("an accepted config checks no more: %v", err)
		}
		again, err := fuzzParseConfig(path, cfg.Raw())
		if err != nil {
			t.Fatalf("the same text is refused the second time: %v", err)
		}
		if !reflect.DeepEqual(again, cfg) {
			t.Fatalf("the same text parses to another config:\n got  %+v\n want %+v", again, cfg)
		}
	})
}

// FuzzParseTags: a tag registry parses and checks, or is refused with a
// *ConfigError naming the file. LoadTags is ParseTags of the file's bytes,
// so the bytes are fuzzed. Every tag accepted is found under its UID
// however the UID is written, has a known kind and an id; written back out
// the registry parses to the same tags.
func FuzzParseTags(f *testing.F) {
	for _, d := range fuzzseed.Files(f, "../firmware-config/tags/*.yaml", "../firmware-config/demo/tags.yaml") {
		f.Add(d)
	}
	for _, d := range yamlSeeds("tags") {
		f.Add(d)
	}
	for _, n := range fuzzseed.Numbers {
		f.Add([]byte("tags:\n  - {uid: " + n + ", kind: unit, id: " + n + "}\n"))
	}
	f.Add([]byte("tags:\n  - {uid: \"04:a1:b2:c3\", kind: unit, id: a}\n  - {uid: \"04A1B2C3\", kind: card, id: b}\n"))
	f.Add([]byte("tags:\n  - &t {uid: \"04A1B2C3\", kind: unit, id: a}\n  - *t\n"))
	f.Add([]byte("tags:\n  - {uid: \"04 10 20 30 40 50 60 70 80 90\", kind: die, id: \"\xff\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseTags("tags.yaml", data)
		if err != nil {
			var ce *ConfigError
			if r != nil || !errors.As(err, &ce) || ce.File != "tags.yaml" {
				t.Fatalf("the error is not a *ConfigError naming the file (registry %v): %v", r, err)
			}
			return
		}
		var tags []Tag
		for uid, tag := range r.byUID {
			if tag.UID != uid || !tagKinds[tag.Kind] || tag.ID == "" {
				t.Fatalf("registered under %s: %+v", uid, tag)
			}
			if u, err := hardware.NormalizeUID(uid); err != nil || u != uid {
				t.Fatalf("UID %s is not normalised: %v", uid, err)
			}
			var sep []string
			for i := 0; i < len(uid); i += 2 {
				sep = append(sep, strings.ToLower(uid[i:i+2]))
			}
			if got, ok := r.Lookup(strings.Join(sep, ":")); !ok || got != tag {
				t.Fatalf("Lookup(%s) = %+v, %v; want %+v", strings.Join(sep, ":"), got, ok, tag)
			}
			tags = append(tags, tag)
		}
		if r.Len() != len(tags) {
			t.Fatalf("Len() %d, %d tags", r.Len(), len(tags))
		}
		sort.Slice(tags, func(i, j int) bool { return r.lines[tags[i].UID] < r.lines[tags[j].UID] })
		out, err := yaml.Marshal(map[string][]Tag{"tags": tags})
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseTags("again.yaml", out)
		if err != nil {
			t.Fatalf("the registry written back is refused: %v\n%s", err, out)
		}
		if back.Len() != r.Len() {
			t.Fatalf("the registry written back has %d tags, not %d", back.Len(), r.Len())
		}
		for uid, tag := range r.byUID {
			got, ok := back.Lookup(uid)
			if !ok || got != tag {
				t.Fatalf("written back, %s is %+v, not %+v", uid, got, tag)
			}
		}
	})
}

// FuzzParseHead: any --head value is a head with a seq and a 64-digit hash,
// or an error that quotes it.
func FuzzParseHead(f *testing.F) {
	f.Add("47:" + strings.Repeat("ab", 32))
	f.Add("47:" + strings.Repeat("AB", 32))
	f.Add("-1:" + strings.Repeat("ab", 32))
	f.Add("47")
	f.Add(":")
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHead(s)
		if err != nil {
			if !strings.Contains(err.Error(), "head") {
				t.Fatalf("an error that does not say what: %v", err)
			}
			return
		}
		if h.Seq < 0 || len(h.Hash) != 64 || h.Hash != strings.ToLower(h.Hash) {
			t.Fatalf("%q read as %+v", s, h)
		}
	})
}
