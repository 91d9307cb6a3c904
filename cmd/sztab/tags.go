package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/hardware/sim"
	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/vision"
)

func init() { register(newTagsCmd) }

func newTagsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tags",
		Short: "Enrol NFC tags and check a tag registry",
	}
	cmd.AddCommand(newTagsEnrollCmd(), newTagsCheckCmd())
	return cmd
}

// card is one card (unit, die, seat, command) of a game that should carry
// a tag.
type card = companion.Card

// loadCards reads a cards list (cards: [{id, kind, label}]) or a table
// configuration, whose game section lists the cards (the game's spec says
// how).
func loadCards(path string) ([]card, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Cards    []card               `yaml:"cards"`
		Game     string               `yaml:"game"`
		Sections map[string]yaml.Node `yaml:",inline"`
	}
	if err := yamlsafe.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	cards := f.Cards
	if f.Game != "" {
		spec, ok := games.Lookup(f.Game)
		if !ok {
			return nil, fmt.Errorf("%s: game %q is not a game this Sztab plays (%s)", path, f.Game, strings.Join(games.IDs(), ", "))
		}
		if section, ok := f.Sections[f.Game]; ok && spec.Cards != nil {
			raw, err := yaml.Marshal(&section)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			more, err := spec.Cards(raw)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			cards = append(cards, more...)
		}
	}
	if len(cards) == 0 {
		return nil, fmt.Errorf("%s: no cards (want cards: [{id, kind, label}] or a table config whose game section lists them)", path)
	}
	seen := map[string]bool{}
	for i, c := range cards {
		if c.ID == "" {
			return nil, fmt.Errorf("%s: card %d has no id", path, i+1)
		}
		switch c.Kind {
		case "unit", "card", "die", "seat", "command":
		default:
			return nil, fmt.Errorf("%s: card %s: kind %q, want unit, card, die, seat or command", path, c.ID, c.Kind)
		}
		if seen[c.Kind+"/"+c.ID] {
			return nil, fmt.Errorf("%s: card %s (%s) is listed twice", path, c.ID, c.Kind)
		}
		seen[c.Kind+"/"+c.ID] = true
		if cards[i].Label == "" {
			cards[i].Label = c.ID
		}
	}
	return cards, nil
}

// regEntry is one line of a registry, as written.
type regEntry struct {
	companion.Tag
	line int
	// unknown is a key the entry has that a tag does not (on unknownLine).
	unknown     string
	unknownLine int
}

// readRegistry reads a registry leniently: every entry, duplicates and bad
// ones included, with its line (check reports them all; the daemon's
// loader stops at the first).
func readRegistry(path string) ([]regEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Tags []yaml.Node `yaml:"tags"`
	}
	if err := yamlsafe.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []regEntry
	for _, n := range f.Tags {
		var t companion.Tag
		if err := yamlsafe.DecodeNode(&n, &t); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n.Line, err)
		}
		e := regEntry{Tag: t, line: n.Line}
		e.unknown, e.unknownLine = companion.UnknownTagKey(&n)
		out = append(out, e)
	}
	return out, nil
}

// writeRegistry writes the registry atomically, one tag a line, in the
// format companion.LoadTags reads.
func writeRegistry(path string, tags []companion.Tag) error {
	var b bytes.Buffer
	b.WriteString("# Tag registry: UID (as the reader reports it) → what the tag is.\n")
	b.WriteString("# Written by `sztab tags enroll`; several UIDs may name the same card.\n")
	b.WriteString("tags:\n")
	for _, t := range tags {
		fmt.Fprintf(&b, "  - {uid: %q, kind: %s, id: %s, label: %s}\n", t.UID, t.Kind, yamlScalar(t.ID), yamlScalar(t.Label))
	}
	if _, err := companion.ParseTags(path, b.Bytes()); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tags-*.yaml")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b.Bytes()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func yamlScalar(s string) string { return strconv.Quote(s) }

type tagsText struct{ pl, en string }

func (t tagsText) in(lang string) string {
	if lang == "en" {
		return t.en
	}
	return t.pl
}

func newTagsEnrollCmd() *cobra.Command {
	var registry, cardsPath, config, reader, simulate, lang string
	var copies int
	var all bool
	cmd := &cobra.Command{
		Use:   "enroll",
		Short: "Walk through the cards of a game and write the tag registry",
		Long: `Asks for each card in turn ("place the card Józef Piłsudski on reader
front-1"), reads its tag and writes the registry after each card, so an
interrupted enrolment keeps what it has. Cards that already have a tag in the
registry are skipped unless --all is given. The tags come from a real reader
(the table config's hardware section, --config, and --reader) or from a
simulated script (--simulate, the hardware/sim format: tag and untag steps).`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if lang != "pl" && lang != "en" {
				return fmt.Errorf("--lang %q: want pl or en", lang)
			}
			if copies < 1 {
				return fmt.Errorf("--copies %d: want 1 or more", copies)
			}
			cards, err := loadCards(cardsPath)
			if err != nil {
				return fmt.Errorf("tags enroll: %w", err)
			}
			var tags []companion.Tag
			if _, err := os.Stat(registry); err == nil {
				if _, err := companion.LoadTags(registry); err != nil {
					return fmt.Errorf("tags enroll: %w (run sztab tags check)", err)
				}
				entries, err := readRegistry(registry)
				if err != nil {
					return fmt.Errorf("tags enroll: %w", err)
				}
				for _, e := range entries {
					e.UID, _ = hardware.NormalizeUID(e.UID)
					tags = append(tags, e.Tag)
				}
			}
			ctx, cancel := context.WithCancel(cmd.Context())
			defer cancel()
			events := make(chan hardware.TagEvent, 16)
			done := make(chan error, 1)
			switch {
			case simulate != "":
				script, err := sim.Load(simulate)
				if err != nil {
					return fmt.Errorf("tags enroll: %w", err)
				}
				go func() {
					err := sim.Player{Speed: 0}.Play(ctx, script, tagSink{ctx: ctx, ch: events})
					close(events)
					done <- err
				}()
			default:
				r, name, closer, err := openEnrolReader(config, reader)
				if err != nil {
					return fmt.Errorf("tags enroll: %w", err)
				}
				defer closer()
				reader = name
				go func() {
					err := r.Run(ctx, func(e hardware.TagEvent) {
						select {
						case events <- e:
						case <-ctx.Done():
						}
					})
					close(events)
					done <- err
				}()
			}
			e := &enroller{out: cmd.OutOrStdout(), lang: lang, reader: reader, events: events, tags: tags, path: registry}
			err = e.run(cards, copies, all)
			cancel()
			if perr := <-done; err == nil && perr != nil && !errors.Is(perr, context.Canceled) {
				err = perr
			}
			if err != nil {
				return fmt.Errorf("tags enroll: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&registry, "registry", "", "tag registry file to write (kept and extended when it exists)")
	cmd.Flags().StringVar(&cardsPath, "cards", "", "cards list (cards: [{id, kind, label}]) or a table config whose skirmish units are the cards")
	cmd.Flags().StringVar(&config, "config", "/etc/sztab/table.yaml", "table config whose hardware section names the reader")
	cmd.Flags().StringVar(&reader, "reader", "", "reader to enrol on (default: the config's first reader)")
	cmd.Flags().StringVar(&simulate, "simulate", "", "take the tags from a simulated script instead of a reader")
	cmd.Flags().StringVar(&lang, "lang", "pl", "language of the prompts: pl or en")
	cmd.Flags().IntVar(&copies, "copies", 1, "tags per card (a card printed several times)")
	cmd.Flags().BoolVar(&all, "all", false, "ask for every card, also those that have a tag already")
	_ = cmd.MarkFlagRequired("registry")
	_ = cmd.MarkFlagRequired("cards")
	return cmd
}

// openEnrolReader opens the table config's hardware and the named reader.
func openEnrolReader(config, name string) (hardware.TagReader, string, func(), error) {
	data, err := os.ReadFile(config)
	if err != nil {
		return nil, "", nil, err
	}
	var f struct {
		Hardware yaml.Node `yaml:"hardware"`
	}
	if err := yamlsafe.Unmarshal(data, &f); err != nil {
		return nil, "", nil, fmt.Errorf("%s: %w", config, err)
	}
	var hw hardware.Config
	if f.Hardware.Kind != 0 {
		if err := yamlsafe.DecodeNode(&f.Hardware, &hw); err != nil {
			return nil, "", nil, fmt.Errorf("%s: hardware: %w", config, err)
		}
	}
	hw.BaseDir = filepath.Dir(config)
	if !hw.Real() {
		return nil, "", nil, fmt.Errorf("%s lists no readers under hardware: (or use --simulate)", config)
	}
	devs, err := hardware.Open(hw, slog.Default())
	if err != nil {
		return nil, "", nil, err
	}
	closer := func() { _ = devs.Close() }
	names := devs.ReaderNames()
	if name == "" {
		if len(names) == 0 {
			closer()
			return nil, "", nil, fmt.Errorf("no reader could be opened: %v", devs.Missing())
		}
		name = names[0]
	}
	r, ok := devs.Reader(name)
	if !ok {
		closer()
		return nil, "", nil, fmt.Errorf("reader %q is not open (open: %s; missing: %v)", name, strings.Join(names, ", "), devs.Missing())
	}
	return r, name, closer, nil
}

// tagSink passes a simulated script's tag events on.
type tagSink struct {
	ctx context.Context
	ch  chan<- hardware.TagEvent
}

func (s tagSink) Tag(e hardware.TagEvent) {
	select {
	case s.ch <- e:
	case <-s.ctx.Done():
	}
}
func (tagSink) Key(hardware.KeyEvent)    {}
func (tagSink) Snapshot(vision.Snapshot) {}

type enroller struct {
	out    io.Writer
	lang   string
	reader string // "" accepts any reader
	events <-chan hardware.TagEvent
	tags   []companion.Tag
	path   string
}

var errScriptEnded = errors.New("the tags ran out before every card had one")

func (e *enroller) say(t tagsText, args ...any) {
	fmt.Fprintf(e.out, t.in(e.lang)+"\n", args...)
}

func (e *enroller) on() string {
	if e.reader == "" {
		return tagsText{"na czytniku", "on the reader"}.in(e.lang)
	}
	return tagsText{"na czytniku " + e.reader, "on reader " + e.reader}.in(e.lang)
}

func (e *enroller) owner(uid string) (companion.Tag, bool) {
	for _, t := range e.tags {
		if t.UID == uid {
			return t, true
		}
	}
	return companion.Tag{}, false
}

func (e *enroller) count(c card) int {
	n := 0
	for _, t := range e.tags {
		if t.Kind == c.Kind && t.ID == c.ID {
			n++
		}
	}
	return n
}

func (e *enroller) run(cards []card, copies int, all bool) error {
	todo := 0
	for _, c := range cards {
		if all || e.count(c) < copies {
			todo++
		}
	}
	e.say(tagsText{"Zapis kart: %d do zrobienia, rejestr %s.", "Enrolment: %d cards to do, registry %s."}, todo, e.path)
	n := 0
	for _, c := range cards {
		have := e.count(c)
		if !all && have >= copies {
			continue
		}
		n++
		want := copies
		if !all {
			want = copies - have
		}
		for i := 0; i < want; i++ {
			e.say(tagsText{"[%d/%d] Połóż kartę %s %s.", "[%d/%d] Place the card %s %s."}, n, todo, c.Label, e.on())
			uid, err := e.next(c)
			if err != nil {
				return err
			}
			if uid == "" {
				continue // already this card's
			}
			e.tags = append(e.tags, companion.Tag{UID: uid, Kind: c.Kind, ID: c.ID, Label: c.Label})
			if err := writeRegistry(e.path, e.tags); err != nil {
				return err
			}
			e.say(tagsText{"  zapisano: %s → %s. Zdejmij kartę.", "  saved: %s → %s. Take the card off."}, uid, c.Label)
			if err := e.removed(uid); err != nil {
				return err
			}
		}
	}
	e.say(tagsText{"Gotowe: %d tagów w %s.", "Done: %d tags in %s."}, len(e.tags), e.path)
	return nil
}

// next waits for a tag for c; "" when the tag already names c.
func (e *enroller) next(c card) (string, error) {
	for ev := range e.events {
		if e.reader != "" && ev.Reader != e.reader {
			continue
		}
		if ev.Fault != nil {
			pl, en := ev.Fault.Text(ev.Reader)
			e.say(tagsText{"  " + pl, "  " + en})
			continue
		}
		if !ev.Present {
			continue
		}
		uid, err := hardware.NormalizeUID(ev.UID)
		if err != nil {
			e.say(tagsText{"  nieczytelny UID %q, połóż kartę jeszcze raz", "  unreadable UID %q, place the card again"}, ev.UID)
			continue
		}
		if t, ok := e.owner(uid); ok {
			if t.Kind == c.Kind && t.ID == c.ID {
				e.say(tagsText{"  ten tag (%s) już oznacza tę kartę. Zdejmij ją.", "  this tag (%s) already names this card. Take it off."}, uid)
				return "", e.removed(uid)
			}
			e.say(tagsText{"  ten tag (%s) oznacza już %s; zdejmij go i połóż kartę %s.", "  this tag (%s) already names %s; take it off and place the card %s."}, uid, t.Label, c.Label)
			if err := e.removed(uid); err != nil {
				return "", err
			}
			continue
		}
		return uid, nil
	}
	return "", errScriptEnded
}

// removed waits until uid leaves the reader, so a card left lying there is
// not taken for the next one.
func (e *enroller) removed(uid string) error {
	for ev := range e.events {
		if (e.reader == "" || ev.Reader == e.reader) && ev.Fault == nil && !ev.Present && ev.UID == uid {
			return nil
		}
	}
	return errScriptEnded
}

// problems is the exit status of a check that found problems.
type problems int

func (p problems) Error() string { return fmt.Sprintf("tags check: %d problems", int(p)) }
func (p problems) ExitCode() int { return 1 }

func newTagsCheckCmd() *cobra.Command {
	var registry, cardsPath string
	cmd := &cobra.Command{
		Use:   "check",
		Short: "List duplicate tags, bad entries and cards without tags",
		Long: `Reads the registry and lists every problem: a UID registered twice, an
entry the daemon would refuse (bad UID, kind or id, a key a tag does not
have), and with --cards the cards
that have no tag and the tags that name no card on the list. Exits non-zero
when it finds any.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			entries, err := readRegistry(registry)
			if err != nil {
				return fmt.Errorf("tags check: %w", err)
			}
			n := 0
			report := func(format string, args ...any) {
				n++
				fmt.Fprintf(out, format+"\n", args...)
			}
			byUID := map[string][]regEntry{}
			var uids []string
			valid := map[string]bool{"unit": true, "card": true, "die": true, "seat": true, "command": true}
			for _, e := range entries {
				if e.unknown != "" {
					report("%v", strings.TrimPrefix(companion.UnknownTagKeyError(registry, e.unknownLine, e.unknown).Error(), "companion: "))
				}
				uid, err := hardware.NormalizeUID(e.UID)
				if err != nil {
					report("%s:%d: %v", registry, e.line, err)
					continue
				}
				if !valid[e.Kind] {
					report("%s:%d: tag %s: kind %q, want unit, card, die, seat or command", registry, e.line, uid, e.Kind)
				}
				if e.ID == "" {
					report("%s:%d: tag %s: no id", registry, e.line, uid)
				}
				if len(byUID[uid]) == 0 {
					uids = append(uids, uid)
				}
				byUID[uid] = append(byUID[uid], e)
			}
			for _, uid := range uids {
				es := byUID[uid]
				if len(es) < 2 {
					continue
				}
				var where []string
				for _, e := range es {
					where = append(where, fmt.Sprintf("line %d (%s %s)", e.line, e.Kind, e.ID))
				}
				report("%s: duplicate tag %s: %s", registry, uid, strings.Join(where, ", "))
			}
			if cardsPath != "" {
				cards, err := loadCards(cardsPath)
				if err != nil {
					return fmt.Errorf("tags check: %w", err)
				}
				tagged := map[string]int{}
				for _, e := range entries {
					tagged[e.Kind+"/"+e.ID]++
				}
				known := map[string]bool{}
				for _, c := range cards {
					known[c.Kind+"/"+c.ID] = true
					if tagged[c.Kind+"/"+c.ID] == 0 {
						report("card without a tag: %s %s (%s)", c.Kind, c.ID, c.Label)
					}
				}
				var stray []string
				for k := range tagged {
					if !known[k] {
						stray = append(stray, k)
					}
				}
				sort.Strings(stray)
				for _, k := range stray {
					kind, id, _ := strings.Cut(k, "/")
					report("tag for a card not on the list: %s %s", kind, id)
				}
			}
			if n > 0 {
				return problems(n)
			}
			fmt.Fprintf(out, "%s: %d tags, no problems\n", registry, len(entries))
			return nil
		},
	}
	cmd.Flags().StringVar(&registry, "registry", "", "tag registry file")
	cmd.Flags().StringVar(&cardsPath, "cards", "", "cards list (or table config) the registry should cover")
	_ = cmd.MarkFlagRequired("registry")
	return cmd
}
