package companion

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	_ "modernc.org/sqlite"
)

// Entry kinds in the journal.
const (
	// KindAction is an accepted action: replayed on start.
	KindAction = "action"
	// KindNotice is something published that changed nothing (a rejected
	// action, an unknown tag): kept for the record, never replayed.
	KindNotice = "notice"
)

// Entry is one journal row.
type Entry struct {
	Seq    int64
	At     time.Time
	Kind   string
	Game   string
	Body   json.RawMessage
	Events json.RawMessage
}

// Journal is the session's durable log in SQLite (WAL, synchronous=FULL):
// an entry is on disk when Append returns.
type Journal struct {
	db   *sql.DB
	path string
}

const journalSchema = `
CREATE TABLE IF NOT EXISTS journal (
	seq    INTEGER PRIMARY KEY AUTOINCREMENT,
	at     TEXT NOT NULL,
	kind   TEXT NOT NULL CHECK (kind IN ('action', 'notice')),
	game   TEXT NOT NULL,
	body   TEXT NOT NULL,
	events TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', '1'), ('published_through', '0');
`

// JournalError is a journal that cannot be used; the daemon refuses to start.
type JournalError struct {
	Path string
	Err  error
}

func (e *JournalError) Error() string { return fmt.Sprintf("companion: journal %s: %v", e.Path, e.Err) }
func (e *JournalError) Unwrap() error { return e.Err }

// OpenJournal opens (or creates) a journal and checks it is whole.
func OpenJournal(path string) (*Journal, error) {
	fail := func(err error) (*Journal, error) { return nil, &JournalError{Path: path, Err: err} }
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fail(err)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fail(errors.New("is a directory"))
	}
	dsn := "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return fail(err)
	}
	db.SetMaxOpenConns(1)
	j := &Journal{db: db, path: path}
	if err := j.check(); err != nil {
		db.Close()
		return fail(err)
	}
	return j, nil
}

func (j *Journal) check() error {
	var res string
	if err := j.db.QueryRow("PRAGMA quick_check").Scan(&res); err != nil {
		return fmt.Errorf("not a readable SQLite database: %w", err)
	}
	if res != "ok" {
		return fmt.Errorf("damaged: %s", res)
	}
	var tables int
	if err := j.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).Scan(&tables); err != nil {
		return err
	}
	var ours int
	if err := j.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('journal', 'meta')`).Scan(&ours); err != nil {
		return err
	}
	if tables > 0 && ours != 2 {
		return errors.New("a SQLite database, but not a Sztab journal")
	}
	if _, err := j.db.Exec(journalSchema); err != nil {
		return err
	}
	var schema string
	if err := j.db.QueryRow(`SELECT value FROM meta WHERE key = 'schema'`).Scan(&schema); err != nil {
		return err
	}
	if schema != "1" {
		return fmt.Errorf("schema version %s, this Sztab reads version 1", schema)
	}
	var mode string
	if err := j.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		return fmt.Errorf("journal_mode %q, want wal (%v)", mode, err)
	}
	return nil
}

// Path is the journal's file.
func (j *Journal) Path() string { return j.path }

// Append writes one entry and returns its sequence number once it is
// committed to disk.
func (j *Journal) Append(ctx context.Context, kind, game string, at time.Time, body, events []byte) (int64, error) {
	res, err := j.db.ExecContext(ctx,
		`INSERT INTO journal (at, kind, game, body, events) VALUES (?, ?, ?, ?, ?)`,
		at.UTC().Format(time.RFC3339Nano), kind, game, string(body), string(events))
	if err != nil {
		return 0, &JournalError{Path: j.path, Err: err}
	}
	seq, err := res.LastInsertId()
	if err != nil {
		return 0, &JournalError{Path: j.path, Err: err}
	}
	return seq, nil
}

// Entries calls fn for every entry after seq `after`, in order.
func (j *Journal) Entries(ctx context.Context, after int64, fn func(Entry) error) error {
	rows, err := j.db.QueryContext(ctx, `SELECT seq, at, kind, game, body, events FROM journal WHERE seq > ? ORDER BY seq`, after)
	if err != nil {
		return &JournalError{Path: j.path, Err: err}
	}
	defer rows.Close()
	for rows.Next() {
		var e Entry
		var at, body, events string
		if err := rows.Scan(&e.Seq, &at, &e.Kind, &e.Game, &body, &events); err != nil {
			return &JournalError{Path: j.path, Err: err}
		}
		if e.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return &JournalError{Path: j.path, Err: fmt.Errorf("entry %d: time %q: %w", e.Seq, at, err)}
		}
		e.Body, e.Events = json.RawMessage(body), json.RawMessage(events)
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return &JournalError{Path: j.path, Err: err}
	}
	return nil
}

// PublishedThrough is the last seq whose events are known to be published.
func (j *Journal) PublishedThrough(ctx context.Context) (int64, error) {
	var v string
	if err := j.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'published_through'`).Scan(&v); err != nil {
		return 0, &JournalError{Path: j.path, Err: err}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, &JournalError{Path: j.path, Err: fmt.Errorf("published_through %q: %w", v, err)}
	}
	return n, nil
}

// MarkPublished records that events through seq reached the broker.
func (j *Journal) MarkPublished(ctx context.Context, seq int64) error {
	if _, err := j.db.ExecContext(ctx, `UPDATE meta SET value = ? WHERE key = 'published_through'`, strconv.FormatInt(seq, 10)); err != nil {
		return &JournalError{Path: j.path, Err: err}
	}
	return nil
}

// Close closes the database.
func (j *Journal) Close() error { return j.db.Close() }

// RecordSeed keeps the virtual dice's seed of one start in the journal's
// meta table, for the referee: it is never published.
func (j *Journal) RecordSeed(ctx context.Context, at time.Time, seed uint64) error {
	if _, err := j.db.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`,
		"dice_seed/"+at.UTC().Format(time.RFC3339Nano), strconv.FormatUint(seed, 10)); err != nil {
		return &JournalError{Path: j.path, Err: err}
	}
	return nil
}

// Seeds are the seeds recorded by RecordSeed, oldest first.
func (j *Journal) Seeds(ctx context.Context) ([]uint64, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT value FROM meta WHERE key LIKE 'dice\_seed/%' ESCAPE '\' ORDER BY key`)
	if err != nil {
		return nil, &JournalError{Path: j.path, Err: err}
	}
	defer rows.Close()
	var out []uint64
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, &JournalError{Path: j.path, Err: err}
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return nil, &JournalError{Path: j.path, Err: fmt.Errorf("dice seed %q: %w", v, err)}
		}
		out = append(out, n)
	}
	return out, rows.Err()
}
