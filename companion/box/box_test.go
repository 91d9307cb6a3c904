package box_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/box"
)

// newPack writes game's shipped pack to a new directory, as sztab box init
// does, and returns the directory.
func newPack(t *testing.T, game string) string {
	t.Helper()
	p, err := box.Shipped(game)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "pack")
	if err := box.Write(p, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// edit replaces the first old in the pack's file with new (old "" appends
// new) and returns the line new starts on.
func edit(t *testing.T, dir, file, old, new string) int {
	t.Helper()
	path := filepath.Join(dir, file)
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	s := string(b)
	i := len(s)
	if old != "" {
		i = strings.Index(s, old)
		if i < 0 {
			t.Fatalf("%s has no %q", file, old)
		}
	}
	s = s[:i] + new + s[i+len(old):]
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return strings.Count(s[:i], "\n") + 1
}

// TestShippedPacksCheck: each game's shipped data is a pack that passes
// and says what is assumed; sztab box init's copy of it passes the same.
func TestShippedPacksCheck(t *testing.T) {
	for _, game := range box.IDs() {
		t.Run(game, func(t *testing.T) {
			p, err := box.Shipped(game)
			if err != nil {
				t.Fatal(err)
			}
			r, err := box.Check(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Assumed) == 0 || !box.IsAssumed(p) {
				t.Errorf("the shipped pack lists nothing assumed")
			}
			dir := newPack(t, game)
			q, err := box.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			r2, err := box.Check(q)
			if err != nil {
				t.Fatal(err)
			}
			if len(r2.Assumed) != len(r.Assumed) || len(r2.Shipped) != 0 {
				t.Errorf("the written pack: %d assumed, shipped files %v; want %d and none", len(r2.Assumed), r2.Shipped, len(r.Assumed))
			}
		})
	}
}

// TestMistakesRefused: every kind of mistake in a pack is refused with its
// file, its line (0: the whole file) and its reason.
func TestMistakesRefused(t *testing.T) {
	for _, tc := range []struct {
		name, game, file string
		// old is replaced with new; old "" appends new.
		old, new string
		// line: the edit's own line (-1), none (0) or a fixed line.
		line   int
		reason string
		// also are more edits: file, old, new.
		also [][3]string
	}{
		{"no pack.yaml", "wot-rush", box.MetaFile, "", "", 0, "not a box pack: no pack.yaml", nil},
		{"a newer pack format", "wot-rush", box.MetaFile, "format: 1", "format: 2", -1, "pack format 2, and this sztab reads format 1", nil},
		{"an unknown game", "wot-rush", box.MetaFile, "game: wot-rush", "game: wot-blitz", -1, `unknown game "wot-blitz"`, nil},
		{"no edition in English", "wot-rush", box.MetaFile, "    en: sample data (assumed)\n", "", 4, "edition: the edition's name is needed in Polish and English", nil},
		{"a field pack.yaml does not have", "wot-rush", box.MetaFile, "", "editor: Zbyszek\n", -1, "field editor not found", nil},
		{"a file the game does not know", "mali-powstancy", "mapa.yaml", "", "districts: []\n", 0, "a file game mali-powstancy does not know", nil},
		{"bad YAML", "bitwa-warszawska", "cards.yaml", "  - id: rozwadowski\n", "  - id: [rozwadowski\n", 0, "bad YAML", nil},
		{"a field the cards do not have (schema)", "bitwa-warszawska", "cards.yaml", "    limit: 5\n    assumed: true\n", "    limit: 5\n    colour: red\n", 86, "field colour not found", nil},
		{"a value a field does not allow", "bitwa-warszawska", "cards.yaml", "    limit: 5\n    assumed: true\n", "    limit: 50\n    assumed: true\n", 0, "limit", nil},
		{"a duplicate card", "wot-rush", "vehicles.yaml", "{id: SU-25,", "{id: SU-24,", -1, "SU-24", nil},
		{"a card naming a place that does not exist (reference)", "mali-powstancy", "orders.yaml", "{id: r42, from: past, to: cytadela", "{id: r42, from: past, to: twierdza", -1, "twierdza", nil},
		{"too few cards for the rulebook's count", "mali-powstancy", "orders.yaml", "  - {id: r42, from: past, to: cytadela, points: 10, assumed: true}\n", "", 0, "41 order cards, and the rulebook prints 42", nil},
		{"a nation short of its 25 vehicles", "wot-rush", "vehicles.yaml", "nation: ussr, class: support, cost: 2, resources: 1, firepower: 1", "nation: usa, class: support, cost: 2, resources: 1, firepower: 1", 0, "nation ussr: 24 vehicle cards, and the rulebook prints 25", nil},
		{"an army deck off the rulebook's count", "bitwa-warszawska", "cards.yaml", "  - id: rozwadowski\n    army: wp\n", "  - id: rozwadowski\n    army: acz\n", 0, "army wp: 14 cards of kind commander, and the rulebook prints 15",
			[][3]string{{"components.yaml", "deck: {unit: 23, commander: 15", "deck: {unit: 23, commander: 14"}, {"components.yaml", "deck: {unit: 20, commander: 15", "deck: {unit: 20, commander: 16"}}},
		{"a die that is not six-sided", "mali-powstancy", "die.yaml", "  - {colour: red, value: 6, assumed: true}\n", "", 0, "5 die faces, and the rulebook prints 6", nil},
		{"an event card missing", "west-1920", "cards.yaml", "  - id: 40\n", "  - id: 41\n", 0, "no random event card number 40", nil},
		{"a place the rules name missing", "west-1920", "map.yaml", `{id: uman, name: "Uman"`, `{id: human, name: "Uman"`, 0, `no city "uman"`, nil},
		{"a field cut off from the city (connectivity)", "mali-powstancy", "map.yaml", "roads:\n", "  - {id: wyspa, name: Wyspa, district: powisle, x: 600, y: 600}\nroads:\n", -1, `the map is not connected: no road leads from "plac-wilsona" to "wyspa"`, nil},
		{"a tag for a card not in the box", "wot-rush", box.TagsFile, "", "tags:\n  - {uid: \"04AA0001\", kind: card, id: SU-01}\n  - {uid: \"04AA0002\", kind: card, id: SU-99}\n", 3, `card "SU-99" is not in the pack`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newPack(t, tc.game)
			line := 0
			if tc.name == "no pack.yaml" {
				os.Remove(filepath.Join(dir, box.MetaFile))
			} else {
				line = edit(t, dir, tc.file, tc.old, tc.new)
			}
			for _, e := range tc.also {
				edit(t, dir, e[0], e[1], e[2])
			}
			switch tc.line {
			case 0:
				line = 0
			case -1:
			default:
				line = tc.line
			}
			p, err := box.Open(dir)
			if err == nil {
				_, err = box.Check(p)
			}
			if err == nil {
				t.Fatal("the pack passed")
			}
			where := filepath.Join(dir, tc.file) + ":"
			if line > 0 {
				where += strconv.Itoa(line) + ":"
			}
			if !strings.Contains(err.Error(), where) || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("refused with\n  %v\nwant %q and %q", err, where, tc.reason)
			}
		})
	}
}
