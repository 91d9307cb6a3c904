package companion

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/rules/dice"
)

// chainedJournal writes n actions (a die each: 1…6 round) and returns the
// closed journal's path.
func chainedJournal(t testing.TB, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t1.journal.db")
	j, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC)
	for i := range n {
		body := fmt.Sprintf(`{"type":"add","rolls":[{"value":%d,"origin":"keypad"}]}`, i%6+1)
		if _, err := j.Append(context.Background(), KindAction, "skirmish", at.Add(time.Duration(i)*time.Second), []byte(body), []byte(`[]`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// editJournal changes the journal's file behind Sztab's back, as someone
// with sqlite3 would.
func editJournal(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		res, err := db.Exec(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if n, _ := res.RowsAffected(); n == 0 && !strings.HasPrefix(q, "PRAGMA") {
			t.Fatalf("%s changed nothing", q)
		}
	}
}

// A journal whose chain breaks is refused at open (and by ReadJournal,
// which `sztab verify` uses) with the first entry that does not match and
// why: a die changed in the middle, a row deleted, an entry changed and
// re-hashed (the next one's link breaks), rows deleted from the end.
func TestJournalRefusesABrokenChain(t *testing.T) {
	for _, tc := range []struct {
		name    string
		edit    []string
		seq     int64
		reason  string
		message string
	}{{
		name: "a die changed in the middle",
		edit: []string{`UPDATE journal SET body = replace(body, '"value":3', '"value":6') WHERE seq = 3`},
		seq:  3, reason: rec.ReasonHash, message: "entry 3: hash mismatch",
	}, {
		name: "a row deleted in the middle",
		edit: []string{`DELETE FROM journal WHERE seq = 4`},
		seq:  5, reason: rec.ReasonMissing, message: "entry 5: missing seq: entry 4 is not there",
	}, {
		name: "an entry's hash overwritten",
		edit: []string{`UPDATE journal SET hash = '` + strings.Repeat("ab", 32) + `' WHERE seq = 3`},
		seq:  3, reason: rec.ReasonHash,
	}, {
		name: "a link rewritten",
		edit: []string{`UPDATE journal SET prev = (SELECT hash FROM journal WHERE seq = 1) WHERE seq = 3`},
		seq:  3, reason: rec.ReasonLink, message: "entry 3: bad previous link",
	}, {
		name: "the last two rows deleted",
		edit: []string{`DELETE FROM journal WHERE seq > 4`},
		seq:  5, reason: rec.ReasonMissing, message: "entries 5 to 6 were deleted from the end",
	}, {
		name: "the first row deleted",
		edit: []string{`DELETE FROM journal WHERE seq = 1`},
		seq:  2, reason: rec.ReasonMissing, message: "entry 1 is not there",
	}, {
		name: "a body that is no longer JSON",
		edit: []string{`UPDATE journal SET body = 'nonsense' WHERE seq = 2`},
		seq:  2, reason: rec.ReasonUnreadable,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			path := chainedJournal(t, 6)
			editJournal(t, path, tc.edit...)
			for name, open := range map[string]func() (*Journal, error){
				"OpenJournal": func() (*Journal, error) { return OpenJournal(path, testJournal, quietLog) },
				"ReadJournal": func() (*Journal, error) { return ReadJournal(path) },
			} {
				j, err := open()
				if err == nil {
					j.Close()
				}
				var je *JournalError
				var be *rec.BreakError
				if !errors.As(err, &je) || je.Path != path || !errors.Is(err, ErrJournalTampered) || !errors.As(err, &be) {
					t.Fatalf("%s: got %v, want a JournalError wrapping ErrJournalTampered and a BreakError", name, err)
				}
				if be.Seq != tc.seq || be.Reason != tc.reason || !strings.Contains(err.Error(), tc.message) {
					t.Errorf("%s: got %q (seq %d, %s), want seq %d, %s, saying %q", name, err, be.Seq, be.Reason, tc.seq, tc.reason, tc.message)
				}
			}
		})
	}
	t.Run("a die changed and its hash recomputed", func(t *testing.T) {
		// The forger re-hashes entry 3 as Sztab would; entry 4 still
		// names entry 3's old hash.
		path := chainedJournal(t, 6)
		j, err := ReadJournal(path)
		if err != nil {
			t.Fatal(err)
		}
		var e3 Entry
		j.Entries(context.Background(), 2, func(e Entry) error {
			if e.Seq == 3 {
				e3 = e
			}
			return nil
		})
		j.Close()
		body := strings.Replace(string(e3.Body), `"value":3`, `"value":6`, 1)
		prev, _ := rec.ParseHash(e3.Prev)
		h, err := rec.EntryHash(rec.Entry{Seq: 3, At: e3.At.UTC().Format(time.RFC3339Nano), Kind: e3.Kind, Game: e3.Game, Body: []byte(body), Events: e3.Events}, prev)
		if err != nil {
			t.Fatal(err)
		}
		editJournal(t, path, fmt.Sprintf(`UPDATE journal SET body = '%s', hash = '%s' WHERE seq = 3`, body, h))
		_, err = OpenJournal(path, testJournal, quietLog)
		var be *rec.BreakError
		if !errors.As(err, &be) || be.Seq != 4 || be.Reason != rec.ReasonLink {
			t.Fatalf("got %v, want entry 4's previous link reported", err)
		}
	})
	t.Run("the published mark past the last entry", func(t *testing.T) {
		path := chainedJournal(t, 6)
		editJournal(t, path, `DELETE FROM journal WHERE seq = 6`, `UPDATE sqlite_sequence SET seq = 5 WHERE name = 'journal'`,
			`UPDATE meta SET value = '6' WHERE key = 'published_through'`)
		_, err := OpenJournal(path, testJournal, quietLog)
		if !errors.Is(err, ErrJournalTampered) || !strings.Contains(err.Error(), "entry 6: missing seq") {
			t.Fatalf("got %v, want entry 6 reported missing", err)
		}
	})
	t.Run("untouched", func(t *testing.T) {
		path := chainedJournal(t, 6)
		j, err := ReadJournal(path)
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		if c := j.Chain(); c.Entries != 6 || c.LastSeq != 6 || c.Since != "since it was made" {
			t.Errorf("got %+v, want 6 entries chained since the journal was made", c)
		}
	})
}

// The chain goes on across opens, and every entry links to the one before:
// the first to the journal's identity.
func TestJournalChainLinksEveryEntry(t *testing.T) {
	path := chainedJournal(t, 3)
	j, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if _, err := j.Append(context.Background(), KindNotice, "skirmish", time.Now(), []byte(`{"type":"unknown_tag"}`), []byte(`[]`)); err != nil {
		t.Fatal(err)
	}
	prev := rec.Identity(testJournal).Genesis().String()
	var n int64
	if err := j.Entries(context.Background(), 0, func(e Entry) error {
		n++
		if e.Prev != prev || len(e.Hash) != 64 {
			t.Errorf("entry %d: prev %s hash %s, want prev %s", e.Seq, e.Prev, e.Hash, prev)
		}
		prev = e.Hash
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if seq, head := j.Head(); seq != 4 || head != prev || n != 4 {
		t.Errorf("head %d %s after %d entries, want 4 %s", seq, head, n, prev)
	}
	for _, tc := range []struct{ kind, body string }{{"ruling", `{}`}, {KindAction, `not json`}} {
		if _, err := j.Append(context.Background(), tc.kind, "skirmish", time.Now(), []byte(tc.body), []byte(`[]`)); err == nil {
			t.Errorf("Append(%s, %s) taken, want refused", tc.kind, tc.body)
		}
	}
	if seq, _ := j.Head(); seq != 4 {
		t.Errorf("refused appends moved the head to %d", seq)
	}
}

// A chain cut at the end by a torn write (the power went in the middle of
// an Append) is recovered, never reported as tampering, and goes on from
// the last whole entry.
func TestJournalTornTailIsRecoveredNotTampering(t *testing.T) {
	const entries = 5
	s := openJournalSnapshot(t, entries, 0)
	path := filepath.Join(t.TempDir(), "t1.journal.db")
	os.WriteFile(path, s.db, 0o644)
	os.WriteFile(path+"-wal", s.wal[:len(s.wal)-walFrameSize(s.wal)/2], 0o644)
	j, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatalf("got %v, want the torn journal recovered", err)
	}
	if c, r := j.Chain(), j.Recovery(); !r.Torn || c.LastSeq != entries-1 || c.Entries != entries-1 {
		t.Errorf("got chain %+v, recovery %+v: want a torn log and %d chained entries", c, r, entries-1)
	}
	if seq, err := j.Append(context.Background(), KindAction, "skirmish", time.Now(), []byte(`{}`), []byte(`[]`)); err != nil || seq != entries {
		t.Fatalf("Append after recovery: seq %d, %v", seq, err)
	}
	j.Close()
	j, err = ReadJournal(path)
	if err != nil {
		t.Fatalf("recovered journal after a new entry: %v", err)
	}
	if c := j.Chain(); c.LastSeq != entries {
		t.Errorf("got %+v, want the chain through %d", c, entries)
	}
	j.Close()
}

// A journal made before journals were chained is chained once, when the
// daemon opens it, says so on the log and in meta, and from then on is
// checked like any other. Tools that only read refuse it until then.
func TestJournalWithoutChainIsChainedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	oldJournal(t, path, "skirmish")
	if _, err := ReadJournal(path); !errors.Is(err, ErrJournalUnchained) {
		t.Fatalf("ReadJournal of an unchained journal: got %v, want ErrJournalUnchained", err)
	}
	var logged bytes.Buffer
	j, err := OpenJournal(path, testJournal, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	c := j.Chain()
	if !c.WasMigrated || c.Migrated != 1 || c.LastSeq != 1 || !strings.Contains(c.Since, "made before journals were chained; 1 entries chained") {
		t.Errorf("got %+v, want 1 entry chained now", c)
	}
	if !strings.Contains(logged.String(), "made before journals were chained") {
		t.Errorf("log %q does not say the journal was chained", logged.String())
	}
	if seq, err := j.Append(context.Background(), KindAction, "skirmish", time.Now(), []byte(`{}`), []byte(`[]`)); err != nil || seq != 2 {
		t.Fatalf("Append: %d, %v", seq, err)
	}
	j.Close()
	j, err = OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	if c := j.Chain(); c.WasMigrated || c.LastSeq != 2 || !strings.Contains(c.Since, "made before") {
		t.Errorf("second open: got %+v, want the chain through 2, not chained again", c)
	}
	j.Close()
	editJournal(t, path, `UPDATE journal SET body = '{"x":1}' WHERE seq = 1`)
	if _, err := OpenJournal(path, testJournal, quietLog); !errors.Is(err, ErrJournalTampered) {
		t.Errorf("migrated journal edited: got %v, want ErrJournalTampered", err)
	}
}

// `sztab verify` reads a journal a daemon is playing on.
func TestReadJournalWhileTheDaemonHoldsIt(t *testing.T) {
	path := chainedJournal(t, 3)
	j, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	j.Append(context.Background(), KindAction, "skirmish", time.Now(), []byte(`{}`), []byte(`[]`))
	r, err := ReadJournal(path)
	if err != nil {
		t.Fatalf("got %v, want the journal read beside the daemon", err)
	}
	defer r.Close()
	if c := r.Chain(); c.LastSeq != 4 {
		t.Errorf("got %+v, want 4 entries", c)
	}
	if r.Identity() != testJournal {
		t.Errorf("identity %s, want %s", r.Identity(), testJournal)
	}
}

// BenchmarkJournalVerify10k is the chain's check at start on a journal of
// 10,000 entries (OpenJournal's whole cost: the lock, SQLite's checks and
// the chain).
func BenchmarkJournalVerify10k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "t1.journal.db")
	j, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		b.Fatal(err)
	}
	// One transaction for the set-up, not 10,000 synchronous commits.
	tx, _ := j.db.Begin()
	prev := rec.Identity(testJournal).Genesis()
	body := `{"type":"shot","shooter":"u1","target":"u7","rolls":[{"value":4,"origin":"keypad"},{"value":2,"origin":"keypad"},{"value":6,"origin":"camera","confidence":0.93}]}`
	events := `[{"type":"hit","text":{"pl":"trafienie","en":"hit"}},{"type":"wound","text":{"pl":"rana","en":"wound"}}]`
	for i := int64(1); i <= 10000; i++ {
		e := rec.Entry{Seq: i, At: time.Unix(1_790_000_000+i, 0).UTC().Format(time.RFC3339Nano), Kind: KindAction, Game: "skirmish", Body: []byte(body), Events: []byte(events)}
		h, _ := rec.EntryHash(e, prev)
		if _, err := tx.Exec(`INSERT INTO journal (seq, at, kind, game, body, events, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			e.Seq, e.At, e.Kind, e.Game, body, events, prev.String(), h.String()); err != nil {
			b.Fatal(err)
		}
		prev = h
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	j.Close()
	b.ResetTimer()
	for b.Loop() {
		j, err := OpenJournal(path, testJournal, quietLog)
		if err != nil {
			b.Fatal(err)
		}
		if j.Chain().Entries != 10000 {
			b.Fatalf("chain %+v", j.Chain())
		}
		j.Close()
	}
}

// ReplayJournal, the seam `sztab export` uses: the journal replayed
// through the game's registered spec as the daemon does, its counts, its
// physical dice fed to the fairness watch (a die that only shows 6 is
// flagged), the game's own summary; and stopped at a seq when asked.
func TestReplayJournalForTheRecord(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t1.journal.db")
	id := JournalIdentity{Venue: "v", Table: "t1", Game: "tally"}
	j, err := OpenJournal(path, id, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	at := time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC)
	for i := range 80 {
		body := `{"type":"add","rolls":[{"value":6,"origin":"keypad","device":"kp1"}]}`
		if i%10 == 9 {
			body = `{"type":"add","rolls":[{"value":3,"origin":"virtual"}]}`
		}
		if _, err := j.Append(ctx, KindAction, "tally", at.Add(time.Duration(i)*time.Minute), []byte(body), []byte(`[]`)); err != nil {
			t.Fatal(err)
		}
	}
	j.Append(ctx, KindNotice, "tally", at.Add(2*time.Hour), []byte(`{"type":"rejected","code":"bad_die"}`), []byte(`[]`))
	j.Append(ctx, KindNotice, "tally", at.Add(2*time.Hour), []byte(`{"type":"unknown_tag"}`), []byte(`[]`))
	g, _ := tallySpec.New(&Config{})
	r, err := ReplayJournal(ctx, j, g, "t1", dice.WatchConfig{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Entries != 82 || r.Actions != 80 || r.Notices != 2 || r.Refusals != 1 || !r.First.Equal(at) || !r.Last.Equal(at.Add(2*time.Hour)) {
		t.Errorf("got %d entries, %d actions, %d notices, %d refusals, %v…%v", r.Entries, r.Actions, r.Notices, r.Refusals, r.First, r.Last)
	}
	if len(r.Dice) != 1 || r.Dice[0].Rolls != 72 || !r.Dice[0].Loaded {
		t.Errorf("got dice %+v, want one keypad die of 72 rolls flagged", r.Dice)
	}
	if len(r.Standing) != 1 || r.Standing[0].EN != "total 456 of 80 dice" || r.Finished {
		t.Errorf("got standing %v, finished %v", r.Standing, r.Finished)
	}
	g, _ = tallySpec.New(&Config{})
	if r, err := ReplayJournal(ctx, j, g, "t1", dice.WatchConfig{}, 10); err != nil || r.Entries != 10 || r.Actions != 10 {
		t.Errorf("through seq 10: %+v, %v", r, err)
	}
	g, _ = newTally("other")(&Config{})
	if _, err := ReplayJournal(ctx, j, g, "t1", dice.WatchConfig{}, 0); err == nil || !strings.Contains(err.Error(), "entry 1 belongs to a tally game") {
		t.Errorf("another game: got %v", err)
	}
}

// The daemon refuses to start on a journal whose chain is broken, with the
// entry and the reason, before it connects anything.
func TestDaemonRefusesATamperedJournal(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644)
	cfgPath := filepath.Join(dir, "t.yaml")
	os.WriteFile(cfgPath, []byte("venue: v\ntable: t1\ngame: tally\ntags: tags.yaml\njournal: j.db\ndice:\n  seed: 7\nmqtt:\n  listen: 127.0.0.1:0\n"), 0o644)
	cfg, err := LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	j, err := OpenJournal(filepath.Join(dir, "j.db"), JournalIdentity{Venue: "v", Table: "t1", Game: "tally"}, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	for v := 1; v <= 5; v++ {
		j.Append(context.Background(), KindAction, "tally", time.Now(), []byte(fmt.Sprintf(`{"type":"add","rolls":[{"value":%d,"origin":"keypad"}]}`, v)), []byte(`[]`))
	}
	j.Close()
	editJournal(t, filepath.Join(dir, "j.db"), `UPDATE journal SET body = replace(body, '"value":3', '"value":6') WHERE seq = 3`)
	d, err := Open(context.Background(), cfg, Options{Games: tallyGames, Log: quietLog})
	if err == nil {
		d.Close()
	}
	if !errors.Is(err, ErrJournalTampered) || !strings.Contains(err.Error(), "entry 3: hash mismatch") {
		t.Fatalf("got %v, want the daemon refused naming entry 3", err)
	}
}
