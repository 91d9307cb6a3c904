package companion

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	rec "github.com/sztab/sztab/companion/record"
)

// ChainStatus is what the check of a journal's hash chain found.
type ChainStatus struct {
	// Entries is how many entries the chain holds; LastSeq and LastHash
	// are its last entry's (LastHash is the identity's genesis hash in an
	// empty journal).
	Entries  int64
	LastSeq  int64
	LastHash string
	// Since is how the journal came to be chained (meta 'chained'): "since
	// it was made", or when a journal made before chains was chained.
	Since string
	// WasMigrated says this open chained an older journal's Migrated
	// entries.
	WasMigrated bool
	Migrated    int64
}

// Chain is what the check of the hash chain at open found.
func (j *Journal) Chain() ChainStatus { return j.chain }

// Identity is the table the journal belongs to.
func (j *Journal) Identity() JournalIdentity { return j.id }

// Head is the last entry's seq and hash (0 and the identity's genesis hash
// in an empty journal): what the next entry links to.
func (j *Journal) Head() (int64, string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.headSeq, j.head.String()
}

// migrateJournal turns a schema 1 journal into a schema 2 one: the journal
// table is made again with the chain's columns (and without the CHECK on
// kinds), every entry chained in seq order as it is in the file, and meta
// says when and over how many entries. The chain vouches for the entries
// from then on: what happened to the file before, it cannot say.
func migrateJournal(tx *sql.Tx, id rec.Identity, now time.Time) (int64, error) {
	rows, err := tx.Query(`SELECT seq, at, kind, game, body, events FROM journal ORDER BY seq`)
	if err != nil {
		return 0, err
	}
	var entries []rec.Entry
	for rows.Next() {
		var e rec.Entry
		var body, events string
		if err := rows.Scan(&e.Seq, &e.At, &e.Kind, &e.Game, &body, &events); err != nil {
			rows.Close()
			return 0, err
		}
		e.Body, e.Events = []byte(body), []byte(events)
		entries = append(entries, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if _, err := tx.Exec(fmt.Sprintf(journalTable, "journal_v2")); err != nil {
		return 0, err
	}
	prev := id.Genesis()
	for _, e := range entries {
		h, err := rec.EntryHash(e, prev)
		if err != nil {
			return 0, fmt.Errorf("entry %d: %w", e.Seq, err)
		}
		if _, err := tx.Exec(`INSERT INTO journal_v2 (seq, at, kind, game, body, events, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			e.Seq, e.At, e.Kind, e.Game, string(e.Body), string(e.Events), prev.String(), h.String()); err != nil {
			return 0, err
		}
		prev = h
	}
	for _, q := range []string{
		`DROP TABLE journal`,
		`ALTER TABLE journal_v2 RENAME TO journal`,
		`UPDATE meta SET value = '2' WHERE key = 'schema'`,
	} {
		if _, err := tx.Exec(q); err != nil {
			return 0, err
		}
	}
	stamp := fmt.Sprintf("%s: made before journals were chained; %d entries chained as they were in the file", now.UTC().Format(time.RFC3339), len(entries))
	if _, err := tx.Exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('chained', ?)`, stamp); err != nil {
		return 0, err
	}
	return int64(len(entries)), nil
}

// verify checks the whole chain, once, in one read of the journal (a
// consistent snapshot even while a daemon writes it), and sets the head.
// Besides each entry's link and hash it checks the journal's own counters:
// SQLite's seq counter and the published mark never run past the last
// entry, so entries deleted from the end are caught too. (A torn write at
// the end is not: SQLite drops the counter's update with the entry's.)
func (j *Journal) verify(ctx context.Context) error {
	tamper := func(err error) error { return fmt.Errorf("%w: %w", ErrJournalTampered, err) }
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM meta WHERE key = 'chained'), '')`).Scan(&j.chain.Since); err != nil {
		return err
	}
	if j.headKey, err = readHeadKey(ctx, tx); err != nil {
		return err
	}
	chain := rec.NewChain(rec.Identity(j.id))
	rows, err := tx.QueryContext(ctx, `SELECT seq, at, kind, game, body, events, prev, hash FROM journal ORDER BY seq`)
	if err != nil {
		return err
	}
	var body, events, prev, hash string
	for rows.Next() {
		var e rec.Entry
		if err := rows.Scan(&e.Seq, &e.At, &e.Kind, &e.Game, &body, &events, &prev, &hash); err != nil {
			rows.Close()
			return err
		}
		e.Body, e.Events = []byte(body), []byte(events)
		if _, err := chain.Next(e, prev, hash); err != nil {
			rows.Close()
			return tamper(err)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	last := chain.LastSeq()
	var counter int64
	switch err := tx.QueryRowContext(ctx, `SELECT seq FROM sqlite_sequence WHERE name = 'journal'`).Scan(&counter); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	}
	var published string
	if err := tx.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM meta WHERE key = 'published_through'), '0')`).Scan(&published); err != nil {
		return err
	}
	pub, err := strconv.ParseInt(published, 10, 64)
	if err != nil {
		return fmt.Errorf("published_through %q: %w", published, err)
	}
	switch {
	case counter > last:
		return tamper(&rec.BreakError{Seq: last + 1, Reason: rec.ReasonMissing,
			Detail: fmt.Sprintf("entries %d to %d were deleted from the end (the journal had numbered its entries through %d)", last+1, counter, counter)})
	case pub > last:
		return tamper(&rec.BreakError{Seq: last + 1, Reason: rec.ReasonMissing,
			Detail: fmt.Sprintf("entries %d to %d were deleted from the end (their events were published)", last+1, pub)})
	}
	j.mu.Lock()
	j.headSeq, j.head = last, chain.Last()
	j.mu.Unlock()
	j.chain.Entries, j.chain.LastSeq, j.chain.LastHash = chain.Entries(), last, chain.Last().String()
	return nil
}

// reloadHead reads the head back from the file, after an Append whose
// outcome is not known.
func (j *Journal) reloadHead() {
	var seq int64
	var hash string
	err := j.db.QueryRow(`SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1`).Scan(&seq, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		j.headSeq, j.head = 0, rec.Identity(j.id).Genesis()
		return
	}
	if h, perr := rec.ParseHash(hash); err == nil && perr == nil {
		j.headSeq, j.head = seq, h
	}
}

// ReadJournal opens a journal to read it and nothing else (`sztab verify`,
// `sztab export`): it takes no lock (a daemon may be playing on it),
// changes nothing, and checks that it is whole and its chain unbroken,
// like OpenJournal. A journal made before journals were chained is refused
// with ErrJournalUnchained; the daemon chains it when it next opens it.
func ReadJournal(path string) (*Journal, error) {
	fail := func(err error) (*Journal, error) { return nil, &JournalError{Path: path, Err: err} }
	fi, err := os.Stat(path)
	if err != nil {
		return fail(err)
	}
	if fi.IsDir() {
		return fail(errors.New("is a directory"))
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return fail(err)
	}
	db.SetMaxOpenConns(1)
	j := &Journal{db: db, path: path}
	if err := j.readCheck(); err != nil {
		db.Close()
		return fail(err)
	}
	return j, nil
}

func (j *Journal) readCheck() error {
	var res string
	if err := j.db.QueryRow("PRAGMA quick_check").Scan(&res); err != nil {
		return fmt.Errorf("not a readable SQLite database: %w", err)
	}
	if res != "ok" {
		return fmt.Errorf("damaged: %s", res)
	}
	var ours int
	if err := j.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('journal', 'meta')`).Scan(&ours); err != nil {
		return err
	}
	if ours != 2 {
		return errors.New("not a Sztab journal")
	}
	meta := map[string]string{}
	rows, err := j.db.Query(`SELECT key, value FROM meta WHERE key IN ('schema', 'venue', 'table', 'game')`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return err
		}
		meta[k] = v
	}
	rows.Close()
	switch meta["schema"] {
	case journalSchemaVersion:
	case "1":
		return ErrJournalUnchained
	default:
		return fmt.Errorf("schema version %q, this Sztab reads versions 1 and 2", meta["schema"])
	}
	j.id = JournalIdentity{Venue: meta["venue"], Table: meta["table"], Game: meta["game"]}
	if j.id.Venue == "" || j.id.Table == "" || j.id.Game == "" {
		return fmt.Errorf("its identity is incomplete (%s)", j.id)
	}
	return j.verify(context.Background())
}
