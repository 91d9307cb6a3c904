package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/venue"
	"github.com/sztab/sztab/companion/wire"
)

// The venue's adapter over the real tournament core: pairing, a signed
// result, a refused one, a correction and the clock come out in the
// venue's View as the pages show them.
func TestVenueTournamentAdapter(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "keys"), 0o755)
	privs := map[string]ed25519.PrivateKey{}
	for _, id := range []string{"t01", "t02"} {
		privPEM, pubPEM, err := record.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "keys", id+".pub.pem"), pubPEM, 0o644)
		privs[id], _ = record.ParsePrivateKey(privPEM)
	}
	cfg := `name: Puchar
venue: hala
game: skirmish
rounds: 3
round_minutes: 90
players:
  - {id: p01, name: Anna, club: Kraków}
  - {id: p02, name: Jan}
  - {id: p03, name: Ewa}
  - {id: p04, name: Piotr}
tables:
  - {id: t01, key: keys/t01.pub.pem}
  - {id: t02, key: keys/t02.pub.pem}
`
	os.WriteFile(filepath.Join(dir, "tournament.yaml"), []byte(cfg), 0o644)
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	if _, _, err := openTournament(ctx, filepath.Join(dir, "tournament.yaml"), filepath.Join(dir, "other.db"), "klub", quiet); err == nil ||
		!strings.Contains(err.Error(), `--venue "klub"`) || !strings.Contains(err.Error(), `venue "hala"`) {
		t.Errorf("a tournament of another venue: %v", err)
	}
	tour, closer, err := openTournament(ctx, filepath.Join(dir, "tournament.yaml"), filepath.Join(dir, "venue.db"), "hala", quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	if err := tour.PairNext(ctx); err != nil {
		t.Fatal(err)
	}
	if err := tour.StartRound(ctx, 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	v := tour.View()
	if v.Round != 1 || len(v.Pairings) != 1 || len(v.Pairings[0].Tables) != 2 || v.Clock == nil || v.Clock.Minutes != 90 {
		t.Fatalf("after pairing: %+v", v)
	}
	p := v.Pairings[0].Tables[0]
	// The pairing's ids reach the venue's view: its pairing message
	// carries them to the table, whose signed result names them.
	if len(v.Tournament) != 32 || len(p.ID) != 32 || len(p.PlayerIDs) != 2 || p.PlayerIDs[0] == p.Players[0] || len(v.Tables) != 2 {
		t.Fatalf("tournament %q, pairing %q, player ids %v (names %v), tables %v", v.Tournament, p.ID, p.PlayerIDs, p.Players, v.Tables)
	}
	sign := func(table string, key ed25519.PrivateKey, seats ...record.Seat) wire.ResultMessage {
		s := record.Statement{Identity: record.Identity{Venue: "hala", Table: table, Game: "skirmish"}, FinalSeq: 9,
			FinalHash: strings.Repeat("cd", 32), Finished: true, Seats: seats}
		for _, q := range v.Pairings[0].Tables {
			if q.Table == table {
				s.Round, s.Tournament, s.Pairing, s.Players = 1, v.Tournament, q.ID, q.PlayerIDs
			}
		}
		return wire.ResultMessage{Statement: string(s.Marshal()), Signature: string(record.Sign(s, key))}
	}
	if err := tour.SubmitResult(ctx, p.Table, sign(p.Table, privs[p.Table], record.Seat{Seat: 1, Outcome: record.Win, Score: 5}, record.Seat{Seat: 2, Outcome: record.Loss})); err != nil {
		t.Fatal(err)
	}
	other := v.Pairings[0].Tables[1].Table
	if err := tour.SubmitResult(ctx, other, sign(other, privs[p.Table], record.Seat{Seat: 1, Outcome: record.Win}, record.Seat{Seat: 2, Outcome: record.Loss})); err == nil {
		t.Fatal("a result signed with another table's key was counted")
	}
	if err := tour.Correct(ctx, 1, other, []record.Seat{{Seat: 1, Outcome: record.Draw}, {Seat: 2, Outcome: record.Draw}}, "orga", "karta wyniku"); err != nil {
		t.Fatal(err)
	}
	v = tour.View()
	states := map[string]string{}
	for _, tb := range v.Pairings[0].Tables {
		states[tb.Table] = tb.State
	}
	if states[p.Table] != "signed" || states[other] != "corrected" {
		t.Errorf("states: %v", states)
	}
	if len(v.Standings) != 4 || v.Standings[0].Player != p.Players[0] || v.Standings[0].Points == 0 || len(v.Standings[0].TieBreaks) == 0 {
		t.Errorf("standings (names, not ids; tie-breaks): %+v", v.Standings)
	}
	if len(v.Refusals) != 1 || len(v.Audit) < 4 || v.Audit[len(v.Audit)-1].Why != "karta wyniku" {
		t.Errorf("refusals %+v, audit %+v", v.Refusals, v.Audit)
	}
	var buf strings.Builder
	if err := tour.WriteCSV(&buf, "standings"); err != nil || !strings.Contains(buf.String(), "Anna") {
		t.Errorf("standings.csv: %v\n%s", err, buf.String())
	}
	if _, err := json.Marshal(v); err != nil {
		t.Error(err)
	}
	var _ venue.Tournament = tour
}
