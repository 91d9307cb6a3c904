package tournament

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
)

func TestResultsRefused(t *testing.T) {
	f := newFixture(t, "skirmish", 4, 3)
	var logged bytes.Buffer
	f.tr.SetLogger(slog.New(slog.NewTextHandler(&logged, nil)))
	ctx := context.Background()
	r1, err := f.tr.PairNext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(r1.Tables) != 2 {
		t.Fatalf("round 1: %d tables, want 2", len(r1.Tables))
	}
	// t01 reports properly first: its result is then a duplicate or a
	// different one.
	good := f.message(f.statement("t01", seat(1, record.Win, 12), seat(2, record.Loss, 3)), "t01")
	if _, err := f.tr.SubmitResult(ctx, "t01", good); err != nil {
		t.Fatal(err)
	}
	other := f.statement("t02", seat(1, record.Win, 5), seat(2, record.Loss, 1))
	mod := func(s record.Statement, change func(*record.Statement)) record.Statement {
		change(&s)
		return s
	}
	tampered := f.message(other, "t02")
	tampered.Statement = strings.Replace(tampered.Statement, `"score":5`, `"score":50`, 1)
	cases := []struct {
		name, table string
		m           wire.ResultMessage
		reason      string
	}{
		{"unsigned", "t02", wire.ResultMessage{Statement: string(other.Marshal())}, "unsigned"},
		{"bad signature", "t02", tampered, "does not verify with table t02's key"},
		{"key of another table", "t02", f.message(other, "t01"), "signed with the key of table t01"},
		{"unknown table", "t99", f.message(other, "t02"), `"t99" is not a table of this tournament`},
		{"table not paired", "t03", f.message(mod(other, func(s *record.Statement) { s.Table = "t03" }), "t03"), "pairing " + other.Pairing + " was issued to table t02, not table t03"},
		{"another venue", "t02", f.message(mod(other, func(s *record.Statement) { s.Venue = "inna" }), "t02"), `venue "inna"`},
		{"another game", "t02", f.message(mod(other, func(s *record.Statement) { s.Game = "wot-rush" }), "t02"), `game "wot-rush"`},
		{"another table's statement", "t02", f.message(mod(other, func(s *record.Statement) { s.Table = "t01" }), "t02"), `table "t01"'s, sent as table "t02"`},
		{"not finished", "t02", f.message(mod(other, func(s *record.Statement) { s.Finished = false }), "t02"), "not finished"},
		{"v1 statement", "t02", f.message(mod(other, func(s *record.Statement) {
			s.Seats, s.Round, s.Tournament, s.Pairing, s.Players = nil, 0, "", "", nil
		}), "t02"), "v1 statement"},
		{"too many seats", "t02", f.message(mod(other, func(s *record.Statement) {
			s.Seats = append(s.Seats, seat(3, record.Loss, 0))
		}), "t02"), "3 seats in the result, the pairing has 2"},
		{"seat twice", "t02", f.message(mod(other, func(s *record.Statement) {
			s.Seats = []record.Seat{seat(1, record.Win, 1), seat(1, record.Loss, 0)}
		}), "t02"), "want each seat once"},
		{"bad outcome", "t02", f.message(mod(other, func(s *record.Statement) {
			s.Seats = []record.Seat{seat(1, "won", 1), seat(2, record.Loss, 0)}
		}), "t02"), `outcome "won"`},
		{"a different result for a reported table", "t01", f.message(f.statement("t01", seat(1, record.Loss, 0), seat(2, record.Win, 9)), "t01"), "already has a result for round 1"},
		{"no statement", "t02", wire.ResultMessage{Signature: "ed25519 AAAA\n"}, "no statement"},
		{"garbage statement", "t02", wire.ResultMessage{Statement: "hello\n", Signature: good.Signature}, "record: statement"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, _ := json.Marshal(f.tr.Standings())
			nref := len(f.tr.Refusals())
			_, err := f.tr.SubmitResult(ctx, c.table, c.m)
			var ref *Refusal
			if !errors.As(err, &ref) {
				t.Fatalf("got %v, want a *Refusal", err)
			}
			if !strings.Contains(ref.Reason, c.reason) || ref.Table != c.table || ref.Round != 1 {
				t.Errorf("got %+v, want table %s round 1 reason with %q", ref, c.table, c.reason)
			}
			after, _ := json.Marshal(f.tr.Standings())
			if string(before) != string(after) {
				t.Errorf("standings changed:\n%s\n%s", before, after)
			}
			if !strings.Contains(logged.String(), "table="+c.table) || !strings.Contains(logged.String(), "result refused") {
				t.Errorf("not logged: %s", logged.String())
			}
			// A table not of the tournament is refused and not kept
			// (anyone may publish one: the venue keeps a bounded list).
			want := nref + 1
			if c.table == "t99" {
				want = nref
			}
			if got := len(f.tr.Refusals()); got != want {
				t.Errorf("%d refusals, want %d", got, want)
			}
			// The same refused message again (retained, redelivered) is kept once.
			if _, err := f.tr.SubmitResult(ctx, c.table, c.m); !errors.As(err, &ref) {
				t.Fatalf("again: got %v", err)
			}
			if got := len(f.tr.Refusals()); got != want {
				t.Errorf("again: %d refusals, want %d", got, want)
			}
		})
	}
	v := f.tr.View()
	if got := v.Paired[0].Results[1].State; got != Refused {
		t.Errorf("t02 state %q, want %q", got, Refused)
	}
	// Refusals survive a restart.
	n := len(f.tr.Refusals())
	f.reopen()
	if got := len(f.tr.Refusals()); got != n {
		t.Errorf("after reopening: %d refusals, want %d", got, n)
	}
}

func TestResultAcceptedOnce(t *testing.T) {
	f := newFixture(t, "skirmish", 4, 2)
	ctx := context.Background()
	r, err := f.tr.PairNext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := f.message(f.statement("t01", seat(1, record.Win, 12), seat(2, record.Loss, 3)), "t01")
	res, err := f.tr.SubmitResult(ctx, "t01", m)
	if err != nil {
		t.Fatal(err)
	}
	if res.Duplicate || res.Round != 1 || res.Players[0] != r.Tables[0].Players[0] {
		t.Errorf("first: %+v", res)
	}
	naudit := len(f.tr.View().Audit)
	res2, err := f.tr.SubmitResult(ctx, "t01", m)
	if err != nil || !res2.Duplicate {
		t.Fatalf("again: %+v, %v; want a duplicate", res2, err)
	}
	if got := len(f.tr.View().Audit); got != naudit {
		t.Errorf("a duplicate wrote an audit entry: %d, want %d", got, naudit)
	}
	st := f.tr.Standings()
	winner := r.Tables[0].Players[0]
	if st[0].Player != winner || st[0].Points != 3 || st[0].Score != 12 || st[0].Wins != 1 {
		t.Errorf("standings[0] = %+v, want %s with 3 points", st[0], winner)
	}
	// The next round cannot be paired while t02 is awaited.
	if _, err := f.tr.PairNext(ctx); !errors.Is(err, ErrRoundOpen) || !strings.Contains(err.Error(), "t02") {
		t.Fatalf("PairNext with t02 missing: %v, want ErrRoundOpen naming t02", err)
	}
	if _, err := f.tr.ForcePairNext(ctx, "", ""); err == nil {
		t.Fatal("forced without who and why")
	}
	r2, err := f.tr.ForcePairNext(ctx, "sędzia Ola", "t02 left early")
	if err != nil {
		t.Fatal(err)
	}
	// The round-1 result arriving again in round 2 (retained) is the same
	// result, not a new one for round 2.
	if res3, err := f.tr.SubmitResult(ctx, "t01", m); err != nil || !res3.Duplicate || res3.Round != 1 {
		t.Fatalf("round 1's result in round 2: %+v, %v", res3, err)
	}
	if r2.Number != 2 {
		t.Errorf("round %d", r2.Number)
	}
}

func TestCorrectKeepsOriginal(t *testing.T) {
	f := newFixture(t, "skirmish", 2, 1)
	ctx := context.Background()
	r, _ := f.tr.PairNext(ctx)
	if _, err := f.submit("t01", seat(1, record.Win, 12), seat(2, record.Loss, 3)); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name      string
		round     int
		table     string
		seats     []record.Seat
		by, why   string
		wantError string
	}{
		{"no who", 1, "t01", []record.Seat{seat(1, record.Draw, 5), seat(2, record.Draw, 5)}, "", "x", "who and why"},
		{"no round", 2, "t01", []record.Seat{seat(1, record.Draw, 5), seat(2, record.Draw, 5)}, "o", "x", "1 rounds are paired"},
		{"unpaired table", 1, "t02", []record.Seat{seat(1, record.Draw, 5), seat(2, record.Draw, 5)}, "o", "x", "not paired"},
		{"a seat missing", 1, "t01", []record.Seat{seat(1, record.Draw, 5)}, "o", "x", "1 seats in the result"},
	}
	for _, c := range bad {
		if err := f.tr.Correct(ctx, c.round, c.table, c.seats, c.by, c.why); err == nil || !strings.Contains(err.Error(), c.wantError) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.wantError)
		}
	}
	if err := f.tr.Correct(ctx, 1, "t01", []record.Seat{seat(2, record.Draw, 5), seat(1, record.Draw, 5)}, "sędzia Ola", "both agreed the last shot was out of range"); err != nil {
		t.Fatal(err)
	}
	f.reopen()
	v := f.tr.View()
	tv := v.Paired[0].Results[0]
	if tv.State != Corrected || tv.Seats[0].Outcome != record.Draw || tv.Signed == nil || tv.Signed.Seats[0].Outcome != record.Win {
		t.Fatalf("after correction: %+v", tv)
	}
	last := v.Audit[len(v.Audit)-1]
	if last.Who != "sędzia Ola" || !strings.Contains(last.What, "was signed "+r.Tables[0].Players[0]+" win 12") || last.Why == "" {
		t.Errorf("audit: %+v", last)
	}
	for _, s := range v.Standings {
		if s.Points != 1 || !s.Tied || s.Rank != 1 {
			t.Errorf("standing %+v, want 1 point tied first", s)
		}
	}
}

func TestReopenRestores(t *testing.T) {
	f := newFixture(t, "skirmish", 7, 4)
	ctx := context.Background()
	for range 3 {
		r, err := f.tr.PairNext(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.tr.StartRound(ctx, r.Number, f.now); err != nil {
			t.Fatal(err)
		}
		f.playRound(r)
	}
	before, _ := json.Marshal(f.tr.View())
	f.reopen()
	after, _ := json.Marshal(f.tr.View())
	if string(before) != string(after) {
		t.Errorf("reopened view differs:\n%s\n%s", before, after)
	}
	// Another tournament's config on the same file is refused.
	f.tr.Close()
	cfg := f.cfg
	cfg.Name = "Inny"
	if _, err := Open(ctx, f.dir+"/t.db", cfg); err == nil || !strings.Contains(err.Error(), `name "Puchar"`) {
		t.Errorf("another tournament's config: %v", err)
	}
	f.open()
}

func TestRoundClock(t *testing.T) {
	f := newFixture(t, "west-1920", 2, 1)
	ctx := context.Background()
	if err := f.tr.StartRound(ctx, 1, f.now); err == nil {
		t.Error("started an unpaired round")
	}
	f.tr.PairNext(ctx)
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	if err := f.tr.StartRound(ctx, 1, at); err != nil {
		t.Fatal(err)
	}
	c := f.tr.View().Clock
	if c.Round != 1 || c.Minutes != 180 || !c.Start.Equal(at) || !c.Ends.Equal(at.Add(3*time.Hour)) {
		t.Errorf("clock %+v", c)
	}
}

func TestRoundsLimit(t *testing.T) {
	f := newFixture(t, "skirmish", 2, 1)
	f.cfg.Rounds = 1
	f.reopen()
	ctx := context.Background()
	r, _ := f.tr.PairNext(ctx)
	f.playRound(r)
	if _, err := f.tr.PairNext(ctx); err == nil || !strings.Contains(err.Error(), "has 1 rounds") {
		t.Errorf("round 2 of 1: %v", err)
	}
}

func TestOpenRefusesSharedKey(t *testing.T) {
	f := newFixture(t, "skirmish", 2, 2)
	cfg := f.cfg
	cfg.Tables = append([]Table(nil), cfg.Tables...)
	cfg.Tables[1].Key = cfg.Tables[0].Key
	if _, err := Open(context.Background(), t.TempDir()+"/x.db", cfg); err == nil || !strings.Contains(err.Error(), "same key") {
		t.Errorf("two tables with one key: %v", err)
	}
}

func TestRefusalsBounded(t *testing.T) {
	f := newFixture(t, "skirmish", 2, 1)
	ctx := context.Background()
	f.tr.PairNext(ctx)
	for i := range MaxRefusalsKept + 5 {
		s := f.statement("t01", seat(1, record.Win, i), seat(2, record.Loss, 0))
		s.Finished = false
		if _, err := f.tr.SubmitResult(ctx, "t01", f.message(s, "t01")); err == nil {
			t.Fatal("an unfinished game accepted")
		}
	}
	if got := len(f.tr.Refusals()); got != MaxRefusalsKept {
		t.Errorf("%d refusals kept, want %d", got, MaxRefusalsKept)
	}
}

// TestConcurrentUse: results, views and exports from several goroutines
// (the broker's callbacks and the pages); run with -race.
func TestConcurrentUse(t *testing.T) {
	f := newFixture(t, "skirmish", 8, 4)
	ctx := context.Background()
	r, _ := f.tr.PairNext(ctx)
	msgs := map[string]wire.ResultMessage{}
	for _, p := range r.Tables {
		msgs[p.Table] = f.message(f.statement(p.Table, seat(1, record.Win, 3), seat(2, record.Loss, 1)), p.Table)
	}
	done := make(chan error)
	for table, m := range msgs {
		go func() {
			var err error
			for range 3 {
				if _, e := f.tr.SubmitResult(ctx, table, m); e != nil {
					err = e
				}
				f.tr.View()
				f.tr.WriteCSV(io.Discard, "results")
			}
			done <- err
		}()
	}
	for range msgs {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	if m := f.tr.View().Paired[0].Missing; len(m) != 0 {
		t.Errorf("missing %v", m)
	}
}
