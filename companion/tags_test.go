package companion

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// A key a tag does not have (a misspelt label, a kind written twice
// over) is refused with the file, the key's line and the key; before, it
// was dropped without a word. Merged entries (<<) are checked the same.
func TestTagRegistryRefusesUnknownKeys(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		line       int
		key        string
	}{
		{"flow entry", "tags:\n  - {uid: 04A1B2C3, kind: unit, id: ak}\n  - {uid: 04A1B2C4, kind: unit, id: ak, lable: \"AK pluton\"}\n", 3, "lable"},
		{"block entry", "tags:\n  - uid: 04A1B2C3\n    kind: card\n    id: pilsudski\n    colour: red\n", 5, "colour"},
		{"merging an entry with one", "tags:\n  - &b {uid: 04A1B2C3, kind: card, id: a}\n  - {<<: *b, uid: 04A1B2C4, knid: x}\n", 3, "knid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTags("reg/tags.yaml", []byte(tc.data))
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.File != "reg/tags.yaml" || ce.Line != tc.line || !strings.Contains(err.Error(), `unknown key "`+tc.key+`"`) {
				t.Fatalf("got %v, want reg/tags.yaml:%d unknown key %q", err, tc.line, tc.key)
			}
		})
	}
	// Every key a tag has, merged from another entry, is taken.
	r, err := ParseTags("tags.yaml", []byte("tags:\n  - &b {uid: 04A1B2C4, kind: card, id: b, label: L}\n  - {<<: *b, uid: 04A1B2C3, id: a}\n  - *b\n"))
	if err == nil || !strings.Contains(err.Error(), "already registered on line 2") {
		t.Fatalf("an entry repeated by its alias: got %v, want a duplicate on line 2", err)
	}
	r, err = ParseTags("tags.yaml", []byte("tags:\n  - &b {uid: 04A1B2C4, kind: card, id: b, label: L}\n  - {<<: *b, uid: 04A1B2C3, id: a}\n"))
	if err != nil || r.Len() != 2 {
		t.Fatalf("known keys: %v", err)
	}
	if tag, _ := r.Lookup("04A1B2C3"); tag.Label != "L" || tag.Kind != "card" {
		t.Errorf("merged tag: %+v", tag)
	}
}

// Every tag registry the project ships loads: the example and the demos'.
func TestShippedTagRegistriesLoad(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../firmware-config/tags/*.yaml", "../firmware-config/demo/*tags.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 6 {
		t.Fatalf("found %d shipped registries (%v), want the example and the demos' (6 or more)", len(files), files)
	}
	for _, f := range files {
		r, err := LoadTags(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if r.Len() == 0 {
			t.Errorf("%s: no tags", f)
		}
	}
}
