package main

// This file wires the tournament core (companion/tournament) into
// `sztab venue`: the venue's small interface over *tournament.Tournament.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/tournament"
	"github.com/sztab/sztab/companion/venue"
	"github.com/sztab/sztab/companion/wire"
)

// openTournament opens the tournament file and its database for the venue
// (--venue must be the file's venue: else every table's result would be
// refused as another venue's, and the night would start without a word).
func openTournament(ctx context.Context, configPath, dbPath, venueID string, log *slog.Logger) (venue.Tournament, io.Closer, error) {
	cfg, err := tournament.LoadConfig(configPath, games)
	if err != nil {
		return nil, nil, err
	}
	if cfg.Venue != venueID {
		return nil, nil, fmt.Errorf("sztab venue: --venue %q, but %s is a tournament at venue %q", venueID, configPath, cfg.Venue)
	}
	t, err := tournament.Open(ctx, dbPath, cfg)
	if err != nil {
		return nil, nil, err
	}
	t.SetLogger(log)
	return tournamentAdapter{t}, t, nil
}

// tournamentAdapter is the venue's view of a *tournament.Tournament.
type tournamentAdapter struct{ t *tournament.Tournament }

func (a tournamentAdapter) PairNext(ctx context.Context) error {
	_, err := a.t.PairNext(ctx)
	return err
}

func (a tournamentAdapter) ForcePairNext(ctx context.Context, by, why string) error {
	_, err := a.t.ForcePairNext(ctx, by, why)
	return err
}

func (a tournamentAdapter) ImportPairings(ctx context.Context, round int, r io.Reader) error {
	_, err := a.t.ImportPairings(ctx, round, r)
	return err
}

func (a tournamentAdapter) SubmitResult(ctx context.Context, table string, m wire.ResultMessage) error {
	_, err := a.t.SubmitResult(ctx, table, m)
	return err
}

func (a tournamentAdapter) Correct(ctx context.Context, round int, table string, seats []record.Seat, by, why string) error {
	return a.t.Correct(ctx, round, table, seats, by, why)
}

func (a tournamentAdapter) StartRound(ctx context.Context, round int, at time.Time) error {
	return a.t.StartRound(ctx, round, at)
}

func (a tournamentAdapter) WriteCSV(w io.Writer, what string) error { return a.t.WriteCSV(w, what) }

func (a tournamentAdapter) View() venue.View {
	tv := a.t.View()
	v := venue.View{Tournament: tv.ID, Tables: tv.Tables, Name: tv.Name, Venue: tv.Venue, Game: tv.Game, Rounds: tv.Rounds, Round: tv.Current,
		Pairings: []venue.Round{}, Standings: []venue.Standing{}, Refusals: []venue.Refusal{}, Audit: []venue.AuditNote{}}
	if tv.Clock.Start != nil {
		v.Clock = &venue.Clock{Round: tv.Clock.Round, Start: *tv.Clock.Start, Minutes: tv.Clock.Minutes}
	}
	names := map[string]string{}
	for _, p := range tv.Players {
		names[p.ID] = p.Name
	}
	for _, r := range tv.Paired {
		vr := venue.Round{Number: r.Number}
		for _, t := range r.Results {
			players := t.Names
			if len(players) != len(t.Players) {
				players = t.Players
			}
			vr.Tables = append(vr.Tables, venue.Pairing{Table: t.Table, Players: players, ID: t.Pairing, PlayerIDs: t.Players, State: t.State, Seats: t.Seats,
				SampleData: t.Signed != nil && t.Signed.SampleData})
		}
		for _, id := range r.Byes {
			name := names[id]
			if name == "" {
				name = id
			}
			vr.Tables = append(vr.Tables, venue.Pairing{Players: []string{name}, Bye: true, State: tournament.Signed})
		}
		v.Pairings = append(v.Pairings, vr)
	}
	for _, s := range tv.Standings {
		vs := venue.Standing{Rank: s.Rank, Tie: s.Tied, Player: s.Name, Club: s.Club, Points: s.Points, Played: s.Played, SampleData: s.SampleData}
		if vs.Player == "" {
			vs.Player = s.Player
		}
		for _, tb := range tv.TieBreaks {
			if tb == tournament.TieHeadToHead && s.HeadToHead == nil {
				continue // not worked out for this player: not tied so far
			}
			vs.TieBreaks = append(vs.TieBreaks, venue.TieBreak{Name: tb, Value: s.TieBreak(tb)})
		}
		v.Standings = append(v.Standings, vs)
	}
	for _, r := range tv.Refusals {
		v.Refusals = append(v.Refusals, venue.Refusal{At: r.At, Table: r.Table, Round: r.Round, Reason: r.Reason, ReasonPL: r.ReasonPL})
	}
	for _, e := range tv.Audit {
		what := e.What
		if e.Table != "" && e.Round > 0 {
			what = fmt.Sprintf("%s (round %d, table %s)", what, e.Round, e.Table)
		}
		v.Audit = append(v.Audit, venue.AuditNote{At: e.At, Who: e.Who, What: what, Why: e.Why})
	}
	return v
}
