// Package fleet runs many simulated tables in one process against an
// outside venue broker (`sztab sim`): each table is a real
// companion.Daemon with its game's demo table config, its own journal and
// the simulated hardware playing the game's demo script, connected as a
// client to the venue's broker (Mosquitto, or every node of a NATS
// cluster). It is the load and the failover drill's venue.
package fleet

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
)

// Options configure a fleet.
type Options struct {
	// Tables is how many tables to run (1 or more); their ids are t001,
	// t002, … and their games the chosen ones, round robin.
	Tables int
	// Broker is the venue broker's URL, or several comma-separated (every
	// node of a NATS cluster).
	Broker string
	// Username and Password log every table in (leave them empty for a
	// broker without logins). With TableLogins each table logs in as its
	// table id instead, with Password: a Mosquitto with the venue ACL
	// (firmware-config/mosquitto) gives each table its own login, and one
	// login is one connection.
	Username, Password string
	TableLogins        bool
	// Venue is the venue id (default "sim").
	Venue string
	// Dir holds one directory per table (its config, tag registry, script
	// and journal). A table's journal there is played on: a second run on
	// the same Dir goes on from where the first stopped.
	Dir string
	// Speed scales the scripts' pauses (1 real time, 0 none).
	Speed float64
	// Games are the games the binary plays; Only, when set, the ids of
	// those to run (default: every game with a demo, in registry order).
	Games companion.Games
	Only  []string
	// Demo holds the demo tables' files under demo/ (firmware-config's
	// embedded Demo).
	Demo fs.FS
	// Screens serves each table's screens on a free loopback port.
	Screens bool
	// NoLive turns the tables' live copies over two cluster nodes off
	// (mqtt.live: false): the failover drill's control.
	NoLive bool
	Log    *slog.Logger
}

// Table is one table of the fleet.
type Table struct {
	ID, Game string
	// Dir is the table's directory, Config its config file, Journal its
	// journal.
	Dir, Config, Journal string
	Daemon               *companion.Daemon
}

// Failure is a table that did not start, and why.
type Failure struct {
	ID, Game string
	Err      error
}

func (f Failure) Error() string { return fmt.Sprintf("table %s (%s): %v", f.ID, f.Game, f.Err) }

// Fleet is the tables that opened.
type Fleet struct {
	Tables []*Table
	// Failed are the tables that did not open, by id, with the reason.
	Failed []Failure
	opts   Options
}

// Open checks the options, writes every table's files and opens its
// daemon (its journal, its connection to the broker). A table that cannot
// open is listed in Failed and the others run; Open fails only when the
// options are wrong or no table opened.
func Open(ctx context.Context, o Options) (*Fleet, error) {
	if o.Tables < 1 {
		return nil, fmt.Errorf("fleet: --tables %d, want 1 or more", o.Tables)
	}
	if o.Tables > 999 {
		return nil, fmt.Errorf("fleet: --tables %d, at most 999 (ids t001…t999)", o.Tables)
	}
	if _, err := wire.ParseBrokers(o.Broker); err != nil {
		return nil, fmt.Errorf("fleet: --broker: %w", err)
	}
	if o.Venue == "" {
		o.Venue = "sim"
	}
	if strings.ContainsAny(o.Venue, "+#/") || strings.ToLower(o.Venue) != o.Venue {
		return nil, fmt.Errorf("fleet: --venue %q is not a venue id (lower-case letters, digits, - and _)", o.Venue)
	}
	if o.Dir == "" {
		return nil, errors.New("fleet: no directory for the tables' journals")
	}
	if o.Speed < 0 {
		return nil, fmt.Errorf("fleet: --speed %v, want 0 (no pauses) or more", o.Speed)
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	games, err := choose(o.Games, o.Only)
	if err != nil {
		return nil, err
	}
	f := &Fleet{opts: o}
	for i := range o.Tables {
		spec := games[i%len(games)]
		t := &Table{ID: fmt.Sprintf("t%03d", i+1), Game: spec.ID}
		if err := f.open(ctx, t, spec); err != nil {
			if ctx.Err() != nil {
				f.Close()
				return nil, ctx.Err()
			}
			o.Log.Error("fleet: table did not start", "table", t.ID, "game", t.Game, "err", err)
			f.Failed = append(f.Failed, Failure{ID: t.ID, Game: t.Game, Err: err})
			continue
		}
		f.Tables = append(f.Tables, t)
	}
	if len(f.Tables) == 0 {
		return nil, fmt.Errorf("fleet: no table started; the first: %w", f.Failed[0])
	}
	return f, nil
}

// choose is the games to run: only (ids) or every game with a demo.
func choose(games companion.Games, only []string) ([]companion.GameSpec, error) {
	var out []companion.GameSpec
	if len(only) == 0 {
		for _, g := range games {
			if g.Demo != "" {
				out = append(out, g)
			}
		}
		if len(out) == 0 {
			return nil, errors.New("fleet: no game has a demo table")
		}
		return out, nil
	}
	for _, id := range only {
		g, ok := games.Lookup(strings.TrimSpace(id))
		if !ok || g.Demo == "" {
			var with []string
			for _, g := range games {
				if g.Demo != "" {
					with = append(with, g.ID)
				}
			}
			return nil, fmt.Errorf("fleet: --games: %q is not a game with a demo table (%s)", id, strings.Join(with, ", "))
		}
		out = append(out, g)
	}
	return out, nil
}

// open writes the table's files and opens its daemon.
func (f *Fleet) open(ctx context.Context, t *Table, spec companion.GameSpec) error {
	o := f.opts
	t.Dir = filepath.Join(o.Dir, t.ID)
	if err := os.MkdirAll(t.Dir, 0o755); err != nil {
		return err
	}
	if err := copyDemo(o.Demo, t.Dir); err != nil {
		return err
	}
	t.Config = filepath.Join(t.Dir, spec.Demo)
	data, err := os.ReadFile(t.Config)
	if err != nil {
		return err
	}
	user := o.Username
	if o.TableLogins {
		user = t.ID
	}
	text, err := tableConfig(data, o.Venue, t.ID, o.Broker, user, o.Password, o.Screens, o.NoLive)
	if err != nil {
		return fmt.Errorf("%s: %w", spec.Demo, err)
	}
	if err := os.WriteFile(t.Config, text, 0o644); err != nil {
		return err
	}
	cfg, err := companion.ParseConfig(t.Config, text)
	if err != nil {
		return err
	}
	if t.Journal, err = cfg.JournalPath(); err != nil {
		return err
	}
	d, err := companion.Open(ctx, cfg, companion.Options{Games: o.Games, Log: o.Log.With("table", t.ID), SimSpeed: o.Speed})
	if err != nil {
		return err
	}
	t.Daemon = d
	return nil
}

// copyDemo writes the demo files (demo/*) into dir, keeping a journal
// that is there.
func copyDemo(demo fs.FS, dir string) error {
	if demo == nil {
		return errors.New("fleet: no demo files")
	}
	return fs.WalkDir(demo, "demo", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(demo, p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, path.Base(p)), data, 0o644)
	})
}

// tableConfig turns a demo table's config into a fleet table's: its venue
// and id, the venue broker instead of the embedded one, and screens on a
// free loopback port or none.
func tableConfig(data []byte, venue, table, broker, user, pass string, screens, noLive bool) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("not a table config")
	}
	root := doc.Content[0]
	set(root, "venue", scalar(venue))
	set(root, "table", scalar(table))
	mqtt := &yaml.Node{Kind: yaml.MappingNode}
	set(mqtt, "broker", scalar(broker))
	if user != "" {
		set(mqtt, "username", scalar(user))
		set(mqtt, "password", scalar(pass))
	}
	if noLive {
		set(mqtt, "live", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"})
	}
	set(root, "mqtt", mqtt)
	if disp := get(root, "display"); disp != nil {
		if screens {
			set(disp, "listen", scalar("127.0.0.1:0"))
		} else {
			del(disp, "listen")
		}
	}
	return yaml.Marshal(&doc)
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v, Tag: "!!str"} }

func get(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func set(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, scalar(key), v)
}

func del(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// Serve runs every table until ctx ends, then closes them all. A table
// whose Serve fails is logged by id and the others play on; the error
// names every table that stopped early.
func (f *Fleet) Serve(ctx context.Context) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for _, t := range f.Tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := t.Daemon.Serve(ctx); err != nil {
				f.opts.Log.Error("fleet: table stopped", "table", t.ID, "game", t.Game, "err", err)
				mu.Lock()
				errs = append(errs, fmt.Errorf("table %s (%s): %w", t.ID, t.Game, err))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(append(errs, f.Close())...)
}

// Close closes every table's daemon (it publishes "offline" and closes
// its journal); Serve does it when it ends.
func (f *Fleet) Close() error {
	var errs []error
	for _, t := range f.Tables {
		if t.Daemon == nil {
			continue
		}
		if err := t.Daemon.Close(); err != nil {
			errs = append(errs, fmt.Errorf("table %s: %w", t.ID, err))
		}
		t.Daemon = nil
	}
	return errors.Join(errs...)
}
