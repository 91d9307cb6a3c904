package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/review"
	"github.com/sztab/sztab/rules/dice"
)

func init() { register(newReviewCmd) }

func newReviewCmd() *cobra.Command {
	var journal, config, at, serve, lang string
	cmd := &cobra.Command{
		Use:   "review",
		Short: "Review a journal: the state, the evidence and the rulings at an entry, or step through it in the browser",
		Long: `review --journal FILE --at SEQ prints the game's state after entry SEQ (the
journal replayed through the game as far as SEQ, as the daemon does at start),
the entry with what the sensors saw for it (tag and reader, keys, dice with
their origin, device and confidence, the camera's snapshot and whether its
picture is still beside the journal, unchanged), and the rulings and
corrections made up to it (kinds of entry this Sztab does not know are shown
as they are). SEQ is a number, first or last.

review --journal FILE --serve ADDR serves a page on ADDR (127.0.0.1:8090)
that steps through the game entry by entry, with the table's picture of each
moment. Both only read the journal, without its lock: they may run beside
the daemon playing on it, and show it as it was when they opened it.
Without --config the game is built from the journal alone: its identity and
the game's section the daemon keeps in it; --config names the table's config
for a journal made before journals kept it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (at == "") == (serve == "") {
				return errors.New("review: give --at SEQ or --serve ADDR")
			}
			if lang != "en" && lang != "pl" {
				return fmt.Errorf("review: --lang %q: want en or pl", lang)
			}
			var cfg *companion.Config
			if config != "" {
				var err error
				if cfg, err = companion.LoadConfig(config); err != nil {
					return fmt.Errorf("review: %w", err)
				}
				if journal == "" {
					if journal, err = cfg.JournalPath(); err != nil {
						return err
					}
				}
			}
			if journal == "" {
				return errors.New("review: give --journal FILE (or --config with the table's journal)")
			}
			j, err := companion.ReadJournal(journal)
			if err != nil {
				return fmt.Errorf("review: %w", err)
			}
			defer j.Close()
			build, cfg, err := gameBuilder(j, cfg)
			if err != nil {
				return err
			}
			r := review.New(j, build, dice.WatchConfig{Significance: cfg.Dice.Fairness.Significance, MinRolls: cfg.Dice.Fairness.MinRolls})
			if at != "" {
				seq, err := review.ParseSeq(at, r.Last())
				if err != nil {
					return fmt.Errorf("%w (--at)", err)
				}
				m, err := r.At(cmd.Context(), seq)
				if err != nil {
					return err
				}
				return review.WriteText(cmd.OutOrStdout(), j.Identity(), m, lang)
			}
			return serveReview(cmd.Context(), cmd, r, serve)
		},
	}
	cmd.Flags().StringVar(&journal, "journal", "", "journal (SQLite file) to review")
	cmd.Flags().StringVar(&config, "config", "", "the table's config, when its game needs it to be built")
	cmd.Flags().StringVar(&at, "at", "", "the entry to show: its seq, first or last")
	cmd.Flags().StringVar(&serve, "serve", "", "serve the review page on this address (127.0.0.1:8090)")
	cmd.Flags().StringVar(&lang, "lang", "en", "language of the printed state: en or pl")
	return cmd
}

// gameBuilder makes fresh games of the journal's game, from cfg or, without
// one, from the journal's identity and the game's defaults (as export does).
func gameBuilder(j *companion.Journal, cfg *companion.Config) (func() (companion.Game, error), *companion.Config, error) {
	id := j.Identity()
	spec, ok := games.Lookup(id.Game)
	if !ok {
		return nil, nil, fmt.Errorf("review: the journal's game %q is not one this Sztab plays", id.Game)
	}
	given := cfg != nil
	if !given {
		var err error
		if cfg, err = journalConfig(j); err != nil {
			return nil, nil, fmt.Errorf("review: %w", err)
		}
	} else if cfg.Venue != id.Venue || cfg.Table != id.Table || cfg.Game != id.Game {
		return nil, nil, fmt.Errorf("review: --config is for venue %q, table %q, game %q; the journal is %s", cfg.Venue, cfg.Table, cfg.Game, id)
	}
	if _, err := spec.New(cfg); err != nil {
		return nil, nil, fmt.Errorf("review: %w", buildError(j, given, err))
	}
	return func() (companion.Game, error) { return spec.New(cfg) }, cfg, nil
}

// journalConfig is the config review and export build the journal's game
// with when no --config is given: the journal's identity and the game's
// part of the table's config the daemon kept in it (none in a journal made
// before; the game's defaults then).
func journalConfig(j *companion.Journal) (*companion.Config, error) {
	id := j.Identity()
	text := fmt.Appendf(nil, "venue: %q\ntable: %q\ngame: %q\ntags: tags.yaml\n", id.Venue, id.Table, id.Game)
	kept, _, err := j.GameConfig(context.Background())
	if err != nil {
		return nil, err
	}
	cfg, err := companion.ParseConfig(j.Path(), append(text, kept...))
	if err != nil {
		return nil, fmt.Errorf("the config kept in the journal %s: %w; give --config with the table's config", j.Path(), err)
	}
	return cfg, nil
}

// buildError says why the journal's game was not built and what to give.
func buildError(j *companion.Journal, given bool, err error) error {
	id := j.Identity()
	if given {
		return fmt.Errorf("building the %s game from --config: %w", id.Game, err)
	}
	if _, kept, _ := j.GameConfig(context.Background()); !kept {
		return fmt.Errorf("building the %s game: %w; the journal %s was made before journals kept their table's %s section: give --config with the table's config", id.Game, err, j.Path(), id.Game)
	}
	return fmt.Errorf("building the %s game from the config kept in the journal %s: %w; give --config with the table's config (the kept section's paths are read relative to the journal's directory)", id.Game, j.Path(), err)
}

// serveReview serves the review page until ctx ends.
func serveReview(ctx context.Context, cmd *cobra.Command, r *review.Reviewer, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("review: --serve: %w", err)
	}
	srv := &http.Server{Handler: r.Handler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(cmd.OutOrStdout(), "reviewing %s (%s), entries 1 to %d: http://%s/\n", r.Journal().Path(), r.Journal().Identity(), r.Last(), ln.Addr())
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		fmt.Fprintf(cmd.ErrOrStderr(), "review: the page has no sign-in and shows what the referee sees (hidden cards, the sensors' readings) to anyone who reaches %s; serve it on 127.0.0.1 unless that is meant\n", ln.Addr())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		return nil
	case err := <-done:
		return fmt.Errorf("review: %w", err)
	}
}

// writeImageCheck says what `verify` found of the evidence images.
func writeImageCheck(w io.Writer, c companion.ImageCheck) {
	switch {
	case c.Referenced == 0:
	case c.NoDir:
		fmt.Fprintf(w, "images: %d named by entries; no image directory beside the journal (%s): not checked\n", c.Referenced, c.Dir)
	default:
		fmt.Fprintf(w, "images: %d named by entries: %d beside the journal and unchanged (%d pinned by rulings), %d pruned by the storage policy\n", c.Referenced, c.Present, c.Pinned, c.Pruned)
	}
}
