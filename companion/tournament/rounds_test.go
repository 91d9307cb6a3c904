package tournament

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/record"
)

// roundStatement is table's finished game with seat 1 winning, bound to
// its pairing in the current round but naming round (0: a v2 statement,
// without a pairing).
func (f *fixture) roundStatement(table string, round int) record.Statement {
	s := f.statement(table, seat(1, record.Win, 9), seat(2, record.Loss, 2))
	s.Round = round
	if round == 0 {
		s.Tournament, s.Pairing, s.Players = "", "", nil
	}
	return s
}

// The late result of a table that was away (issue #18): table t01 is off
// the venue network in round 1, the organiser enters its result from the
// paper card and pairs round 2 (or forces round 2 without it). When t01
// comes back, its retained round-1 result is published again: it must not
// count as round 2's, for other players.
func TestLateResultNeverCountsInTheWrongRound(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// away ends round 1 for t01 by the organiser: a correction and
		// PairNext, or ForcePairNext without a result.
		away func(f *fixture) (Round, error)
		// why is what the refusal of the late v3 result says about round 1.
		why string
	}{
		{"corrected", func(f *fixture) (Round, error) {
			if err := f.tr.Correct(ctx, 1, "t01", []record.Seat{seat(1, record.Loss, 1), seat(2, record.Win, 5)}, "sedzia", "karta wyników"); err != nil {
				return Round{}, err
			}
			return f.tr.PairNext(ctx)
		}, "round 1's result of table t01 was entered by the organiser; this late signed result is not counted: correct round 1 if it should count"},
		{"forced", func(f *fixture) (Round, error) {
			return f.tr.ForcePairNext(ctx, "sedzia", "stół t01 milczy")
		}, "round 1 has no result of table t01 (round 2 was paired without it); this late signed result is not counted: correct round 1 if it should count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "skirmish", 4, 2)
			var logged bytes.Buffer
			f.tr.SetLogger(slog.New(slog.NewTextHandler(&logged, nil)))
			if _, err := f.tr.PairNext(ctx); err != nil {
				t.Fatal(err)
			}
			// t02 reports round 1 (v3); t01's round-1 game is played
			// while it is away, and signed, naming round 1.
			if _, err := f.tr.SubmitResult(ctx, "t02", f.message(f.roundStatement("t02", 1), "t02")); err != nil {
				t.Fatal(err)
			}
			late := f.roundStatement("t01", 1)
			r2, err := tc.away(f)
			if err != nil {
				t.Fatal(err)
			}
			if r2.Number != 2 || len(r2.Tables) != 2 {
				t.Fatalf("round 2: %+v", r2)
			}
			refused := func(name string, s record.Statement, want string, round int) {
				t.Helper()
				before, _ := json.Marshal(f.tr.Standings())
				_, err := f.tr.SubmitResult(ctx, "t01", f.message(s, "t01"))
				var ref *Refusal
				if !errors.As(err, &ref) {
					t.Fatalf("%s: got %v, want a refusal", name, err)
				}
				if !strings.Contains(ref.Reason, want) || ref.Round != round {
					t.Errorf("%s: refused in round %d: %q\nwant round %d and %q", name, ref.Round, ref.Reason, round, want)
				}
				if after, _ := json.Marshal(f.tr.Standings()); !bytes.Equal(before, after) {
					t.Errorf("%s: the standings changed:\n%s\n%s", name, before, after)
				}
				if !strings.Contains(logged.String(), want) {
					t.Errorf("%s: the reason is not in the log:\n%s", name, logged.String())
				}
			}
			refused("the late round-1 result", late, "a result for round 1; round 2 is being played; "+tc.why, 1)
			// The same game as a v2 statement (a table without the round
			// and the pairing): it could be any round's, or none's.
			v2 := late
			v2.Round, v2.Tournament, v2.Pairing, v2.Players = 0, "", "", nil
			refused("a v2 result", v2, "the result names no pairing (v2)", 2)
			refused("a result for a round not paired", f.roundStatement("t01", 5), "the result names round 5, pairing", 2)
			v := f.tr.View()
			if got := v.Paired[1].Results[tableIndex(v.Paired[1], "t01")].State; got != Awaiting && got != Refused {
				t.Errorf("t01 in round 2: %q", got)
			}
			// The refusals are on the organiser's page (View) and survive
			// a restart.
			n := 0
			for _, r := range f.tr.View().Refusals {
				if r.Table == "t01" && strings.Contains(r.Reason, "round 1; round 2 is being played") {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d refusals of the late result in the view, want 1", n)
			}
			f.reopen()
			// Delivered again after the venue restarts: refused again, kept once.
			refused("the late result again", late, "a result for round 1; round 2 is being played", 1)
			if got := len(f.tr.Refusals()); got != 3 {
				t.Errorf("%d refusals after the same late result again, want 3", got)
			}
			// t01's real round-2 game counts.
			res, err := f.tr.SubmitResult(ctx, "t01", f.message(f.roundStatement("t01", 2), "t01"))
			if err != nil || res.Round != 2 {
				t.Fatalf("t01's round-2 result: %+v, %v", res, err)
			}
			// So does t02's.
			if res, err := f.tr.SubmitResult(ctx, "t02", f.message(f.roundStatement("t02", 2), "t02")); err != nil || res.Round != 2 {
				t.Fatalf("t02's round-2 result: %+v, %v", res, err)
			}
		})
	}
}

func tableIndex(r RoundView, table string) int {
	for i, tv := range r.Results {
		if tv.Table == table {
			return i
		}
	}
	return -1
}
