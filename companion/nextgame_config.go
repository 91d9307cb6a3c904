package companion

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"
)

// gameJournal names the journals of a journal_dir: game-0001.db, …
var gameJournal = regexp.MustCompile(`^game-([0-9]{4,9})\.db$`)

// GameJournals lists the game journals of dir, oldest first, and the
// number of the newest (0: none).
func GameJournals(dir string) (paths []string, newest int, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("companion: journal_dir: %w", err)
	}
	for _, e := range entries { // ReadDir sorts by name: oldest first
		m := gameJournal.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		paths = append(paths, filepath.Join(dir, e.Name()))
		newest = max(newest, n)
	}
	return paths, newest, nil
}

// gameJournalPath is the journal of game n in dir.
func gameJournalPath(dir string, n int) string {
	return filepath.Join(dir, fmt.Sprintf("game-%04d.db", n))
}

// JournalPath is the journal the table plays on: the journal file, or
// with journal_dir the newest game's (the first game's in an empty or
// missing directory).
func (c *Config) JournalPath() (string, error) {
	if c.JournalDir == "" {
		return c.Resolve(c.Journal), nil
	}
	dir := c.Resolve(c.JournalDir)
	_, n, err := GameJournals(dir)
	if err != nil {
		return "", err
	}
	return gameJournalPath(dir, max(n, 1)), nil
}

// withPlayers is the config with the players' names of the game's section
// (its players list, each item's name by its seat) replaced by names,
// seat 1 first. A game whose section lists no players (its seats are
// sides) keeps its section: ok is false.
func (c *Config) withPlayers(names []string) (out *Config, ok bool, err error) {
	if len(names) == 0 {
		return c, false, nil
	}
	doc := cloneNode(c.doc)
	section := mapValue(doc.Content[0], c.Game)
	players := mapValue(section, "players")
	if players == nil || players.Kind != yaml.SequenceNode {
		return c, false, nil
	}
	if len(players.Content) != len(names) {
		return nil, false, fmt.Errorf("companion: %d players named for the %d seats of %s's %s section", len(names), len(players.Content), c.path, c.Game)
	}
	for i, p := range players.Content {
		seat := i + 1
		if v := mapValue(p, "seat"); v != nil {
			if seat, err = strconv.Atoi(v.Value); err != nil || seat < 1 || seat > len(names) {
				return nil, false, fmt.Errorf("companion: %s: %s.players item %d: seat %q is not one of 1 to %d", c.path, c.Game, i+1, v.Value, len(names))
			}
		}
		name := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: names[seat-1]}
		if v := mapValue(p, "name"); v != nil {
			*v = *name
		} else if p.Kind == yaml.MappingNode {
			p.Content = append(p.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "name"}, name)
		}
	}
	data, err := yaml.Marshal(doc)
	if err != nil {
		return nil, false, fmt.Errorf("companion: %s with the new game's players: %w", c.path, err)
	}
	out, err = ParseConfig(c.path, data)
	if err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// mapValue is the value of key in mapping n, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func cloneNode(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = cloneNode(k)
	}
	return &c
}
