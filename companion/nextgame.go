package companion

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
)

// gameConfigOf is the config the daemon plays: with journal_dir, its
// journal is the newest game's, whose players (kept by new_game) replace
// the names in the game's section.
func gameConfigOf(ctx context.Context, cfg *Config, log *slog.Logger) (*Config, error) {
	if cfg.JournalDir == "" {
		return cfg, nil
	}
	if err := os.MkdirAll(cfg.Resolve(cfg.JournalDir), 0o700); err != nil {
		return nil, fmt.Errorf("companion: journal_dir: %w", err)
	}
	path, err := cfg.JournalPath()
	if err != nil {
		return nil, err
	}
	var names []string
	if _, err := os.Stat(path); err == nil {
		j, err := OpenJournal(path, JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, log)
		if err != nil {
			return nil, err
		}
		names, err = j.Players(ctx)
		j.Close()
		if err != nil {
			return nil, err
		}
	}
	out, ok, err := cfg.withPlayers(names)
	if err != nil {
		return nil, err
	}
	if !ok {
		// A copy: the caller's config finds the newest journal again at
		// the next game.
		c := *cfg
		out = &c
	}
	out.Journal = path
	if len(names) > 0 {
		log.Info("the game's players", "journal", path, "players", names, "named_in_game", ok)
	}
	return out, nil
}

// newGame starts the next game (CmdNewGame): it makes the next journal of
// the journal_dir with the game's players and, in a tournament, the
// pairing the game is started under, notes it in this game's journal and
// asks the daemon's loop to open the table again on it.
//
// In a tournament (the venue's pairing for this table is heard) the
// players are the pairing's: other names are refused, and so is a round
// whose result the venue already has. An unfinished game is left only
// with a reason (the command's text).
func (t *table) newGame(ctx context.Context, in Input) (int64, *rules.Rejection, error) {
	if t.cfg.JournalDir == "" {
		return 0, refuse("no_journal_dir", "ten stół ma jeden dziennik (journal:); by zaczynać gry poleceniem, ustaw journal_dir:",
			"this table keeps one journal (journal:); set journal_dir: to start games by a command"), nil
	}
	if Outcome(t.game) == nil {
		if rej := needReason(in); rej != nil {
			return 0, refuse("game_not_over", "gra trwa: podaj powód (tekst polecenia), by zacząć następną",
				"the game is not over: give the reason (the command's text) to start the next one"), nil
		}
	}
	names := slices.Clone(in.Args)
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
		if names[i] == "" {
			return 0, refuse("bad_players", "gracz %d bez imienia", "player %d has no name", i+1), nil
		}
	}
	p := t.heard
	switch {
	case p != nil && p.Counted():
		return 0, refuse("round_counted", "organizator ma już wynik tego stołu z rundy %d: następna gra czeka na parowanie następnej rundy",
			"the venue has this table's result of round %d: the next game waits for the next round's pairing", p.Round), nil
	case p != nil && len(names) > 0 && !slices.Equal(names, p.Players):
		return 0, refuse("players_not_paired", "w rundzie %d przy tym stole grają %s (w kolejności miejsc), nie %s",
			"round %d pairs %s at this table (in seat order), not %s", p.Round, strings.Join(p.Players, ", "), strings.Join(names, ", ")), nil
	case p != nil:
		names = slices.Clone(p.Players)
	}
	if _, ok, err := t.cfg.withPlayers(names); err != nil {
		return 0, refuse("bad_players", "%v", "%v", err), nil
	} else if !ok && len(names) > 0 && p == nil {
		return 0, refuse("bad_players", "ta gra nazywa miejsca stronami, nie graczami: podaj polecenie bez imion",
			"this game names its seats by side, not by player: give the command without names"), nil
	}
	dir := t.cfg.Resolve(t.cfg.JournalDir)
	_, n, err := GameJournals(dir)
	if err != nil {
		return 0, nil, err
	}
	next := gameJournalPath(dir, n+1)
	if err := t.prepareGame(ctx, next, names, p); err != nil {
		os.Remove(next)
		return 0, nil, err
	}
	text := rules.Textf("następna gra: %s", "next game: %s", filepath.Base(next))
	if len(names) > 0 {
		text = rules.Textf("następna gra: %s (%s)", "next game: %s (%s)", filepath.Base(next), strings.Join(names, ", "))
	}
	if p != nil {
		text.PL += fmt.Sprintf(", runda %d", p.Round)
		text.EN += fmt.Sprintf(", round %d", p.Round)
	}
	if r := strings.TrimSpace(in.Text); r != "" {
		text.PL += "; powód: " + r
		text.EN += "; reason: " + r
	}
	t.notice(ctx, Notice{Type: wire.NoticeNextGame, Text: text}, nil)
	seq := t.seq.Load()
	t.nextGame = true
	return seq, nil, nil
}

// prepareGame makes the journal of the next game with the game's config,
// its players and, when the venue paired the table, its round and pairing:
// the game is started under that pairing and its result names it.
func (t *table) prepareGame(ctx context.Context, path string, names []string, p *wire.PairingMessage) error {
	j, err := OpenJournal(path, JournalIdentity{Venue: t.cfg.Venue, Table: t.cfg.Table, Game: t.cfg.Game}, t.log)
	if err != nil {
		return err
	}
	defer j.Close()
	// The journal is whole from its start: an export of it (its game
	// built from the kept config) works before the table reopens on it.
	gameConfig, err := t.cfg.GameConfig()
	if err != nil {
		return err
	}
	if err := j.SetGameConfig(ctx, gameConfig); err != nil {
		return err
	}
	if len(names) > 0 {
		if err := j.SetPlayers(ctx, names); err != nil {
			return err
		}
	}
	switch {
	case p == nil:
	case p.Pairing != "":
		_, _, err = j.SetPairing(ctx, p.Round, Binding{Tournament: p.Tournament, Pairing: p.Pairing, Players: p.PlayerIDs})
	default:
		_, err = j.SetRound(ctx, p.Round)
	}
	return err
}
