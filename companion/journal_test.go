package companion

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// testJournal is the table of tallyDaemon's config.
var testJournal = JournalIdentity{Venue: "v", Table: "t1", Game: "skirmish"}

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestJournalAppendAndRead(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "t.db")
	j, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC)
	for i, kind := range []string{KindAction, KindNotice, KindAction} {
		seq, err := j.Append(ctx, kind, "skirmish", at, []byte(`{"n":`+string(rune('0'+i))+`}`), []byte(`[]`))
		if err != nil || seq != int64(i+1) {
			t.Fatalf("Append %d: seq %d, %v", i, seq, err)
		}
	}
	if err := j.MarkPublished(ctx, 2); err != nil {
		t.Fatal(err)
	}
	j.Close()

	j, err = OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var kinds []string
	if err := j.Entries(ctx, 1, func(e Entry) error {
		kinds = append(kinds, e.Kind)
		if !e.At.Equal(at) {
			t.Errorf("entry %d at %v, want %v", e.Seq, e.At, at)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(kinds, ",") != "notice,action" {
		t.Errorf("entries after 1: %v", kinds)
	}
	if p, err := j.PublishedThrough(ctx); err != nil || p != 2 {
		t.Errorf("PublishedThrough: %d, %v", p, err)
	}
}

func TestJournalRefusesWhatIsNotAJournal(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, []byte(strings.Repeat("this is not sqlite ", 400)), 0o644)

	other := filepath.Join(dir, "other.db")
	j, err := OpenJournal(other, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	j.db.Exec(`CREATE TABLE photos (id INTEGER)`)
	j.db.Exec(`DROP TABLE journal`)
	j.Close()

	// A real journal with its middle pages overwritten.
	damaged := filepath.Join(dir, "damaged.db")
	j, err = OpenJournal(damaged, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	big := []byte(`{"pad":"` + strings.Repeat("x", 3000) + `"}`)
	for range 50 {
		if _, err := j.Append(context.Background(), KindAction, "skirmish", time.Now(), big, []byte(`[]`)); err != nil {
			t.Fatal(err)
		}
	}
	j.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	j.Close()
	f, _ := os.OpenFile(damaged, os.O_RDWR, 0)
	f.WriteAt([]byte(strings.Repeat("\xff", 8192)), 4096*3)
	f.Close()

	for name, path := range map[string]string{"garbage": garbage, "another database": other, "damaged": damaged, "a directory": dir} {
		t.Run(name, func(t *testing.T) {
			_, err := OpenJournal(path, testJournal, quietLog)
			var je *JournalError
			if !errors.As(err, &je) || je.Path != path {
				t.Fatalf("got %v, want a JournalError naming %s", err, path)
			}
		})
	}
}

// A journal belongs to the venue, table and game it was made for: opened
// for another, it is refused, saying whose it is, what the config says and
// what to do.
func TestJournalIdentityIsChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t1.journal.db")
	j, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	for _, tc := range []struct {
		name string
		id   JournalIdentity
	}{
		{"another venue", JournalIdentity{Venue: "w", Table: "t1", Game: "skirmish"}},
		{"another table", JournalIdentity{Venue: "v", Table: "t2", Game: "skirmish"}},
		{"another game", JournalIdentity{Venue: "v", Table: "t1", Game: "bitwa-warszawska"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := OpenJournal(path, tc.id, quietLog)
			if err == nil {
				j.Close()
			}
			var je *JournalError
			if !errors.As(err, &je) || je.Path != path || !errors.Is(err, ErrJournalIdentity) {
				t.Fatalf("got %v, want a JournalError for %s wrapping ErrJournalIdentity", err, path)
			}
			for _, want := range []string{"belongs to " + testJournal.String(), "the config says " + tc.id.String(), "another journal file"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("got %q, want it to say %q", err, want)
				}
			}
		})
	}
	t.Run("its own table", func(t *testing.T) {
		j, err := OpenJournal(path, testJournal, quietLog)
		if err != nil {
			t.Fatalf("got %v, want the journal", err)
		}
		j.Close()
	})
	t.Run("an incomplete identity", func(t *testing.T) {
		if _, err := OpenJournal(path, JournalIdentity{Venue: "v", Game: "skirmish"}, quietLog); err == nil || !strings.Contains(err.Error(), "incomplete identity") {
			t.Errorf("got %v, want an incomplete identity refused", err)
		}
	})
}

// oldJournalSchema is the journal as Sztab made it before journals named
// their table.
const oldJournalSchema = `
CREATE TABLE journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL,
	kind TEXT NOT NULL CHECK (kind IN ('action', 'notice')), game TEXT NOT NULL, body TEXT NOT NULL, events TEXT NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta (key, value) VALUES ('schema', '1'), ('published_through', '0');
`

func oldJournal(t *testing.T, path, game string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(oldJournalSchema); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO journal (at, kind, game, body, events) VALUES ('2026-08-01T17:00:00Z', 'action', ?, '{}', '[]')`, game); err != nil {
		t.Fatal(err)
	}
}

// A journal made before journals named their table takes on the table that
// opens it (and says so), unless its entries are of another game; from then
// on it is that table's.
func TestJournalWithoutIdentityAdoptsTheTable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "old.db")
	oldJournal(t, path, "skirmish")
	var logged bytes.Buffer
	j, err := OpenJournal(path, testJournal, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatalf("got %v, want the old journal adopted", err)
	}
	if n := countEntries(t, j); n != 1 {
		t.Errorf("got %d entries, want the old journal's 1", n)
	}
	j.Close()
	if want := "now belongs to this one"; !strings.Contains(logged.String(), want) {
		t.Errorf("log %q does not say %q", logged.String(), want)
	}
	if _, err := OpenJournal(path, JournalIdentity{Venue: "v", Table: "t2", Game: "skirmish"}, quietLog); !errors.Is(err, ErrJournalIdentity) {
		t.Errorf("adopted journal opened for table t2: got %v, want ErrJournalIdentity", err)
	}

	other := filepath.Join(dir, "other-game.db")
	oldJournal(t, other, "bitwa-warszawska")
	_, err = OpenJournal(other, testJournal, quietLog)
	if !errors.Is(err, ErrJournalIdentity) || !strings.Contains(err.Error(), "entries are of a bitwa-warszawska game") {
		t.Fatalf("old journal of another game: got %v, want ErrJournalIdentity naming its game", err)
	}
	// Refused, it adopted nothing: it still opens for its own game.
	j, err = OpenJournal(other, JournalIdentity{Venue: "v", Table: "t1", Game: "bitwa-warszawska"}, quietLog)
	if err != nil {
		t.Fatalf("old journal opened for its own game: got %v", err)
	}
	j.Close()
}

func countEntries(t *testing.T, j *Journal) (n int) {
	t.Helper()
	if err := j.Entries(context.Background(), 0, func(Entry) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

// The pairing a game was played in is kept with its round, once per
// journal, across a reopening; a round kept without a pairing (an older
// venue's, or none) gets none later.
func TestJournalKeepsThePairing(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	j, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := j.Pairing(ctx); err != nil || b.Pairing != "" {
		t.Fatalf("a new journal's pairing: %+v, %v", b, err)
	}
	first := Binding{Tournament: strings.Repeat("1f", 16), Pairing: strings.Repeat("a0", 16), Players: []string{"ania", "bartek"}}
	if n, b, err := j.SetPairing(ctx, 2, first); err != nil || n != 2 || !reflect.DeepEqual(b, first) {
		t.Fatalf("SetPairing: round %d, %+v, %v", n, b, err)
	}
	later := Binding{Tournament: first.Tournament, Pairing: strings.Repeat("b1", 16), Players: []string{"celina", "darek"}}
	if n, b, err := j.SetPairing(ctx, 3, later); err != nil || n != 2 || !reflect.DeepEqual(b, first) {
		t.Fatalf("a later pairing: round %d, %+v, %v; want round 2 and the first pairing", n, b, err)
	}
	if _, _, err := j.SetPairing(ctx, 1, Binding{}); err == nil {
		t.Error("a pairing without its id was taken")
	}
	j.Close()
	j, err = OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := j.Pairing(ctx); err != nil || !reflect.DeepEqual(b, first) {
		t.Fatalf("after reopening: %+v, %v", b, err)
	}
	j.Close()

	j, err = OpenJournal(filepath.Join(t.TempDir(), "t.db"), testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if _, err := j.SetRound(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if n, b, err := j.SetPairing(ctx, 1, first); err != nil || n != 1 || b.Pairing != "" {
		t.Fatalf("a pairing after a round without one: round %d, %+v, %v", n, b, err)
	}
}
