package tournament

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
)

// A result counts only for the pairing the tournament issued to that
// table, with those players, once (issue #28, item 2). Each case is a
// signed, finished game of this venue and game from table t01, which is
// paired in round 1: before pairings had ids, every one of them but the
// last counted in round 1, for the players paired there.
func TestResultBoundToItsPairing(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "mali-powstancy", 4, 2)
	f.cfg.Seats = 2 // tables of two, like the Mali demo's game
	f.reopen()
	r1, err := f.tr.PairNext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var mine, theirs Pairing
	for _, p := range r1.Tables {
		if p.Table == "t01" {
			mine = p
		} else {
			theirs = p
		}
	}
	if len(mine.ID) != 32 || len(theirs.ID) != 32 || mine.ID == theirs.ID || len(f.tr.ID()) != 32 {
		t.Fatalf("ids: tournament %q, pairings %q and %q: want 32 hex digits each, all different", f.tr.ID(), mine.ID, theirs.ID)
	}
	// An earlier tournament at the same venue, same game, same tables
	// (their keys): its round 1, t01 with the same players.
	earlier, err := OpenRand(ctx, filepath.Join(f.dir, "earlier.db"), f.cfg, f.rand)
	if err != nil {
		t.Fatal(err)
	}
	defer earlier.Close()
	earlier.SetLogger(slog.New(slog.DiscardHandler))
	if _, err := earlier.ImportPairings(ctx, 1, strings.NewReader("table,seat,player\nt01,1,"+mine.Players[0]+"\nt01,2,"+mine.Players[1]+"\n")); err != nil {
		t.Fatal(err)
	}
	earlierID := earlier.View().Paired[0].Tables[0].ID

	// The Mali demo's game at t01 (README: Bartek 9, Ania 5), over before
	// the table heard any pairing: a v2 statement naming Ania and Bartek.
	demo := f.statement("t01", record.Seat{Seat: 1, Name: "Ania", Side: "red", Outcome: record.Loss, Score: 5},
		record.Seat{Seat: 2, Name: "Bartek", Side: "green", Outcome: record.Win, Score: 9})
	demo.Round, demo.Tournament, demo.Pairing, demo.Players = 0, "", "", nil
	bound := f.statement("t01", seat(1, record.Win, 9), seat(2, record.Loss, 2))
	with := func(change func(s *record.Statement)) record.Statement {
		s := bound
		s.Players = append([]string(nil), bound.Players...)
		change(&s)
		return s
	}
	for _, tc := range []struct {
		name string
		s    record.Statement
		// en and pl are in the refusal's reason.
		en, pl string
	}{
		{"the Mali demo's Ania–Bartek result, made before any pairing", demo,
			"the result names no pairing (v2)", "wynik nie wskazuje parowania (v2)"},
		{"a result naming round 1 but no pairing (a table that heard only the round)", with(func(s *record.Statement) { s.Tournament, s.Pairing, s.Players = "", "", nil }),
			"the result names no pairing (v3)", "wynik nie wskazuje parowania (v3)"},
		{"an earlier tournament's round 1", with(func(s *record.Statement) { s.Tournament, s.Pairing = earlier.ID(), earlierID }),
			"a result of another tournament (" + earlier.ID() + ")", "wynik innego turnieju"},
		{"a leftover result of a venue restarted with a new database", with(func(s *record.Statement) { s.Tournament = strings.Repeat("0a", 16) }),
			"a result of another tournament", "wynik innego turnieju"},
		{"a pairing never issued", with(func(s *record.Statement) { s.Pairing = strings.Repeat("5e", 16) }),
			"was never issued by this tournament", "nie zostało wydane"},
		{"another table's pairing", with(func(s *record.Statement) { s.Pairing, s.Players = theirs.ID, theirs.Players }),
			"pairing " + theirs.ID + " was issued to table " + theirs.Table + ", not table t01", "wydano stołowi " + theirs.Table},
		{"another round", with(func(s *record.Statement) { s.Round = 2 }),
			"the result names round 2, pairing " + mine.ID + " is round 1's", "podaje rundę 2"},
		{"other players", with(func(s *record.Statement) { s.Players = []string{"ania", "bartek"} }),
			"the result names players ania, bartek, table t01's pairing in round 1 is " + strings.Join(mine.Players, ", "), "podaje graczy ania, bartek"},
		{"the players in other seats", with(func(s *record.Statement) { s.Players = []string{mine.Players[1], mine.Players[0]} }),
			"the result names players " + mine.Players[1] + ", " + mine.Players[0], "podaje graczy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := json.Marshal(f.tr.Standings())
			_, err := f.tr.SubmitResult(ctx, "t01", f.message(tc.s, "t01"))
			var ref *Refusal
			if !errors.As(err, &ref) {
				t.Fatalf("got %v, want a refusal", err)
			}
			if !strings.Contains(ref.Reason, tc.en) || !strings.Contains(ref.ReasonPL, tc.pl) || ref.Round != 1 {
				t.Errorf("refused in round %d:\n%q\n%q\nwant round 1 and %q, %q", ref.Round, ref.Reason, ref.ReasonPL, tc.en, tc.pl)
			}
			if after, _ := json.Marshal(f.tr.Standings()); !bytes.Equal(before, after) {
				t.Errorf("the standings changed:\n%s\n%s", before, after)
			}
			if st := f.tr.View().Paired[0].Results[tableIndex(f.tr.View().Paired[0], "t01")].State; st != Refused {
				t.Errorf("t01 in round 1: %q, want %q", st, Refused)
			}
		})
	}
	// The table's own result, bound to its pairing, counts, once.
	res, err := f.tr.SubmitResult(ctx, "t01", f.message(bound, "t01"))
	if err != nil || res.Round != 1 || res.Pairing != mine.ID {
		t.Fatalf("the bound result: %+v, %v", res, err)
	}
	if again, err := f.tr.SubmitResult(ctx, "t01", f.message(bound, "t01")); err != nil || !again.Duplicate {
		t.Fatalf("the same result again: %+v, %v", again, err)
	}
	other := with(func(s *record.Statement) { s.FinalHash = strings.Repeat("77", 32) })
	var ref *Refusal
	if _, err := f.tr.SubmitResult(ctx, "t01", f.message(other, "t01")); !errors.As(err, &ref) || !strings.Contains(ref.Reason, "already has a result for round 1") {
		t.Fatalf("another game for the same pairing: %v", err)
	}
	// Across a restart of the venue (the same database): the ids stay.
	id := f.tr.ID()
	f.reopen()
	if f.tr.ID() != id || f.tr.View().Paired[0].Tables[0].ID != r1.Tables[0].ID {
		t.Fatalf("after reopening: tournament %s, pairing %s; want %s, %s", f.tr.ID(), f.tr.View().Paired[0].Tables[0].ID, id, r1.Tables[0].ID)
	}
	if again, err := f.tr.SubmitResult(ctx, "t01", f.message(bound, "t01")); err != nil || !again.Duplicate {
		t.Fatalf("the same result after reopening: %+v, %v", again, err)
	}
}

// Whatever statement table t01 signs with its own key, the tournament
// never panics, and it counts one only when it is bound to t01's pairing
// in the current round, with this tournament's id, that round and those
// players.
func FuzzSubmitResult(f *testing.F) {
	fx := newFixture(f, "skirmish", 4, 2)
	ctx := context.Background()
	if _, err := fx.tr.PairNext(ctx); err != nil {
		f.Fatal(err)
	}
	bound := fx.statement("t01", seat(1, record.Win, 9), seat(2, record.Loss, 2))
	f.Add(bound.Marshal())
	v2 := bound
	v2.Round, v2.Tournament, v2.Pairing, v2.Players = 0, "", "", nil
	f.Add(v2.Marshal())
	other := bound
	other.Players = []string{"ania", "bartek"}
	f.Add(other.Marshal())
	other = bound
	other.Tournament = strings.Repeat("0a", 16)
	f.Add(other.Marshal())
	f.Add([]byte("sztab result statement v4\n"))
	cur := fx.tr.View().Paired[0]
	mine := cur.Tables[slices.IndexFunc(cur.Tables, func(p Pairing) bool { return p.Table == "t01" })]
	f.Fuzz(func(t *testing.T, data []byte) {
		// Signed as the table signs: the canonical bytes of what it read
		// (a statement that does not parse is signed as an empty one).
		st, perr := record.ParseStatement(data)
		m := wire.ResultMessage{Statement: string(data), Signature: string(record.Sign(st, fx.priv["t01"]))}
		res, err := fx.tr.SubmitResult(ctx, "t01", m)
		if err != nil {
			return
		}
		if perr != nil || st.Tournament != fx.tr.ID() || st.Pairing != mine.ID || st.Round != 1 || !slices.Equal(st.Players, mine.Players) || res.Round != 1 {
			t.Fatalf("counted a statement not bound to t01's pairing %s of round 1 (%v): %+v\n%s", mine.ID, mine.Players, res, data)
		}
	})
}
