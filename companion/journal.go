package companion

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite"

	rec "github.com/sztab/sztab/companion/record"
)

// Entry kinds in the journal.
const (
	// KindAction is an accepted action: replayed on start.
	KindAction = "action"
	// KindNotice is something published that changed nothing (a rejected
	// action, an unknown tag): kept for the record, never replayed.
	KindNotice = "notice"
	// KindUndo is the referee taking back an accepted action (body: Undo);
	// KindCorrection the referee replacing one by another (Correction);
	// KindAllowed an action the rules refused that the referee let stand,
	// flagged (Allowed). Replay reads all three.
	KindUndo       = "undo"
	KindCorrection = "correction"
	KindAllowed    = "allowed"
	// KindCall is a referee call opened for a seat (Call), KindAnswer the
	// referee's answer that closes it (Answer): the seat's input waits
	// between them.
	KindCall   = "call"
	KindAnswer = "answer"
)

// journalKinds are the kinds an entry may have: they are entries of the
// same chain, and the table, not a CHECK in the schema, says which exist
// (schema 2 has no CHECK on kinds, so the referee's kinds need no
// migration).
var journalKinds = map[string]bool{KindAction: true, KindNotice: true,
	KindUndo: true, KindCorrection: true, KindAllowed: true, KindCall: true, KindAnswer: true}

// Entry is one journal row. Hash is its link in the journal's hash chain
// (see rec.EntryHash), Prev the link before it; both lower-case hex.
type Entry struct {
	Seq    int64
	At     time.Time
	Kind   string
	Game   string
	Body   json.RawMessage
	Events json.RawMessage
	Prev   string
	Hash   string
}

// Journal is the session's durable log in SQLite (WAL, synchronous=FULL):
// an entry is on disk when Append returns. One process holds it at a time,
// and it belongs to one table (see JournalIdentity).
type Journal struct {
	db       *sql.DB
	path     string
	lock     *os.File
	recovery JournalRecovery
	id       JournalIdentity
	chain    ChainStatus

	// mu guards the chain's head: the last entry's seq and hash, which
	// the next Append links to.
	mu      sync.Mutex
	headSeq int64
	head    rec.Hash
	// headKey keys the marks of the heads the table publishes (see
	// journal_head.go); nil in a journal read by a tool that has none.
	headKey []byte
	// answers counts Answered calls, to prune the command ids now and then.
	answers atomic.Int64
}

// JournalIdentity is the table a journal belongs to. It is written into the
// journal when the journal is made and checked at every open, so that a
// daemon for one table cannot play on another table's journal.
type JournalIdentity struct {
	Venue, Table, Game string
}

func (id JournalIdentity) String() string {
	return fmt.Sprintf("venue %q, table %q, game %q", id.Venue, id.Table, id.Game)
}

// Errors a JournalError may wrap, for errors.Is.
var (
	// ErrJournalInUse: another open journal (another daemon) holds the lock.
	ErrJournalInUse = errors.New("in use by another Sztab daemon")
	// ErrJournalIdentity: the journal was made for another venue, table or game.
	ErrJournalIdentity = errors.New("made for another venue, table or game")
	// ErrJournalTampered: the hash chain over the entries is broken: an
	// entry was changed, deleted or reordered after it was written. A
	// *rec.BreakError in the same error names the entry and the reason.
	ErrJournalTampered = errors.New("changed after it was written (its hash chain is broken)")
	// ErrJournalUnchained: a journal made before journals were chained,
	// read by a tool that does not change it (the daemon chains it).
	ErrJournalUnchained = errors.New("made before journals were chained; start the daemon on it once to chain it")
)

// errLocked is lockFile's answer when the lock is held elsewhere.
var errLocked = errors.New("locked")

// journalSchemaVersion is the schema this Sztab writes: version 2 chains
// the entries (prev, hash) and leaves the kinds to journalKinds. Version 1
// journals are chained once when the daemon opens them (migrateJournal).
const journalSchemaVersion = "2"

// JournalSchema is the journal schema this Sztab writes (sztab version).
const JournalSchema = journalSchemaVersion

// journalTable is the journal table of schema 2 (%s is its name).
const journalTable = `
CREATE TABLE %s (
	seq    INTEGER PRIMARY KEY AUTOINCREMENT,
	at     TEXT NOT NULL,
	kind   TEXT NOT NULL,
	game   TEXT NOT NULL,
	body   TEXT NOT NULL,
	events TEXT NOT NULL,
	prev   TEXT NOT NULL,
	hash   TEXT NOT NULL
);`

var journalSchema = fmt.Sprintf(journalTable, "journal") + `
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
INSERT INTO meta (key, value) VALUES ('schema', '2'), ('published_through', '0');
`

// JournalError is a journal that cannot be used; the daemon refuses to start.
type JournalError struct {
	Path string
	Err  error
}

func (e *JournalError) Error() string { return fmt.Sprintf("companion: journal %s: %v", e.Path, e.Err) }
func (e *JournalError) Unwrap() error { return e.Err }

// OpenJournal opens (or creates) the journal of the table id, checks it is
// whole and that it is that table's, and holds it exclusively until Close.
// A second open of the same journal, in this process or another, fails at
// once with ErrJournalInUse. A journal made before journals carried their
// identity adopts id. If the last run did not close the journal (a crash, a
// power cut), SQLite recovers it from its write-ahead log to the last whole
// entry; OpenJournal says so on log (nil: slog.Default()) and in Recovery.
func OpenJournal(path string, id JournalIdentity, log *slog.Logger) (*Journal, error) {
	fail := func(err error) (*Journal, error) { return nil, &JournalError{Path: path, Err: err} }
	if log == nil {
		log = slog.Default()
	}
	if id.Venue == "" || id.Table == "" || id.Game == "" {
		return fail(fmt.Errorf("incomplete identity (%s): a journal belongs to one venue, table and game", id))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fail(err)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fail(errors.New("is a directory"))
	}
	lock, err := lockJournal(path)
	if err != nil {
		return fail(err)
	}
	if !journalLockHeld {
		log.Warn("journal: this system cannot lock the journal; make sure no other daemon uses it", "journal", path)
	}
	// Read the write-ahead log before SQLite does: its recovery is silent.
	wal, err := scanWAL(path + "-wal")
	if err != nil {
		lock.Close()
		return fail(err)
	}
	dsn := "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		lock.Close()
		return fail(err)
	}
	db.SetMaxOpenConns(1)
	j := &Journal{db: db, path: path, lock: lock, id: id}
	adopted, err := j.check(id)
	if err == nil {
		err = j.verify(context.Background())
	}
	if err == nil {
		err = j.db.QueryRow(`SELECT count(*), coalesce(max(seq), 0) FROM journal`).Scan(&wal.Entries, &wal.LastSeq)
	}
	if err != nil {
		j.Close()
		return fail(err)
	}
	j.recovery = wal
	if adopted {
		log.Info("journal: made before journals named their table; it now belongs to this one", "journal", path, "venue", id.Venue, "table", id.Table, "game", id.Game)
	}
	if j.chain.WasMigrated {
		log.Warn("journal: made before journals were chained; its entries are chained now, as they are in the file: the chain vouches for them from this open on, not for what happened to the file before",
			"journal", path, "entries", j.chain.Migrated, "last_hash", j.chain.LastHash)
	}
	switch {
	case wal.Torn:
		log.Warn("journal: the last run stopped in the middle of a write; that unfinished write was dropped and the journal recovered to its last whole entry",
			"journal", path, "entries", wal.Entries, "last_seq", wal.LastSeq, "wal_bytes", wal.WALBytes, "wal_frames", wal.Frames, "dropped_bytes", wal.Ignored)
	case wal.WALBytes > 0:
		log.Info("journal: the last run did not close the journal; recovered from its write-ahead log",
			"journal", path, "entries", wal.Entries, "last_seq", wal.LastSeq, "wal_bytes", wal.WALBytes, "wal_frames", wal.Frames)
	}
	return j, nil
}

// lockJournal holds path+".lock" exclusively and writes this process's id
// into it, so that a refused second daemon can say who holds the journal.
// The file stays when the lock goes: the lock is the kernel's, not the file's.
func lockJournal(path string) (*os.File, error) {
	name := path + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if !errors.Is(err, errLocked) {
			return nil, fmt.Errorf("lock %s: %w", name, err)
		}
		holder := "another process"
		if b, _ := os.ReadFile(name); len(b) > 0 {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				holder = "process " + strconv.Itoa(pid)
			}
		}
		return nil, fmt.Errorf("%w: %s holds %s; stop that daemon, or give this table its own journal file", ErrJournalInUse, holder, name)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

// check makes sure the database is a whole journal of the table id (making
// it if the file is new); adopted says an older journal took on id.
func (j *Journal) check(id JournalIdentity) (adopted bool, err error) {
	var res string
	if err := j.db.QueryRow("PRAGMA quick_check").Scan(&res); err != nil {
		return false, fmt.Errorf("not a readable SQLite database: %w", err)
	}
	if res != "ok" {
		return false, fmt.Errorf("damaged: %s", res)
	}
	var tables int
	if err := j.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).Scan(&tables); err != nil {
		return false, err
	}
	var ours int
	if err := j.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('journal', 'meta')`).Scan(&ours); err != nil {
		return false, err
	}
	if tables > 0 && ours != 2 {
		return false, errors.New("a SQLite database, but not a Sztab journal")
	}
	tx, err := j.db.Begin()
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if tables == 0 {
		if _, err := tx.Exec(journalSchema); err != nil {
			return false, err
		}
	}
	var schema string
	if err := tx.QueryRow(`SELECT value FROM meta WHERE key = 'schema'`).Scan(&schema); err != nil {
		return false, err
	}
	if schema != "1" && schema != journalSchemaVersion {
		return false, fmt.Errorf("schema version %s, this Sztab reads versions 1 and 2", schema)
	}
	if adopted, err = checkIdentity(tx, j.path, id, tables == 0); err != nil {
		return false, err
	}
	if tables == 0 {
		if _, err := tx.Exec(`INSERT INTO meta (key, value) VALUES ('chained', 'since it was made')`); err != nil {
			return false, err
		}
	}
	if err := ensureHeadKey(tx); err != nil {
		return false, err
	}
	if schema == "1" {
		if j.chain.Migrated, err = migrateJournal(tx, rec.Identity(id), time.Now()); err != nil {
			return false, fmt.Errorf("chaining a journal made before journals were chained: %w", err)
		}
		j.chain.WasMigrated = true
	}
	if err := tx.Commit(); err != nil {
		return false, err
	}
	var mode string
	if err := j.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		return false, fmt.Errorf("journal_mode %q, want wal (%v)", mode, err)
	}
	return adopted, nil
}

// checkIdentity compares the venue, table and game in meta with id, writing
// those missing: all of them in a new journal; in an older one (made before
// journals carried them) only if its entries are of id's game.
func checkIdentity(tx *sql.Tx, path string, id JournalIdentity, created bool) (adopted bool, err error) {
	rows, err := tx.Query(`SELECT key, value FROM meta WHERE key IN ('venue', 'table', 'game')`)
	if err != nil {
		return false, err
	}
	stored := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return false, err
		}
		stored[k] = v
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, err
	}
	if len(stored) < 3 && !created {
		var other string
		switch err := tx.QueryRow(`SELECT game FROM journal WHERE game != ? LIMIT 1`, id.Game).Scan(&other); {
		case err == nil:
			return false, fmt.Errorf("%w: its entries are of a %s game and the config plays %s; use another journal file", ErrJournalIdentity, other, id.Game)
		case !errors.Is(err, sql.ErrNoRows):
			return false, err
		}
		adopted = true
	}
	want := map[string]string{"venue": id.Venue, "table": id.Table, "game": id.Game}
	for _, k := range []string{"venue", "table", "game"} {
		if _, ok := stored[k]; !ok {
			if _, err := tx.Exec(`INSERT INTO meta (key, value) VALUES (?, ?)`, k, want[k]); err != nil {
				return false, err
			}
			stored[k] = want[k]
		}
	}
	if have := (JournalIdentity{Venue: stored["venue"], Table: stored["table"], Game: stored["game"]}); have != id {
		hint := "another journal file"
		if own := filepath.Join(filepath.Dir(path), id.Table+".journal.db"); own != path {
			hint = fmt.Sprintf("another journal file (journal: %s.journal.db in its config)", id.Table)
		}
		return false, fmt.Errorf("%w: it belongs to %s and the config says %s; give this table %s", ErrJournalIdentity, have, id, hint)
	}
	return adopted, nil
}

// Recovery is what OpenJournal found of the last run: its write-ahead log,
// and the entries the journal holds now.
func (j *Journal) Recovery() JournalRecovery { return j.recovery }

// Path is the journal's file.
func (j *Journal) Path() string { return j.path }

// Append writes one entry, chained to the one before it, and returns its
// sequence number once it is committed to disk. Body and events must be
// JSON (the chain hashes them compacted; see rec.EntryHash).
func (j *Journal) Append(ctx context.Context, kind, game string, at time.Time, body, events []byte) (int64, error) {
	return j.AppendFor(ctx, "", kind, game, at, body, events)
}

// AppendFor is Append for an entry that a command with an id produced: in
// the same transaction it notes the id in meta ('command/<id>' → the
// entry's seq and kind), so that the command, delivered again after a
// restart, is not carried out twice (see CommandSeen). The id is the
// table's key of the command, its sender's and its own ("referee/r-17":
// senderKey), so that two senders' ids never meet. The ids are not
// in the hash chain: they guard against redelivery, they are no evidence.
func (j *Journal) AppendFor(ctx context.Context, command, kind, game string, at time.Time, body, events []byte) (int64, error) {
	if !journalKinds[kind] {
		return 0, &JournalError{Path: j.path, Err: fmt.Errorf("entry kind %q is not one this Sztab writes", kind)}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	e := rec.Entry{Seq: j.headSeq + 1, At: at.UTC().Format(time.RFC3339Nano), Kind: kind, Game: game, Body: body, Events: events}
	hash, err := rec.EntryHash(e, j.head)
	if err != nil {
		return 0, &JournalError{Path: j.path, Err: fmt.Errorf("entry %d (%s): %w", e.Seq, kind, err)}
	}
	if err := j.insert(ctx, e, hash, command); err != nil {
		// Whether it was written or not, the head is what the file says.
		j.reloadHead()
		return 0, &JournalError{Path: j.path, Err: err}
	}
	j.headSeq, j.head = e.Seq, hash
	return e.Seq, nil
}

func (j *Journal) insert(ctx context.Context, e rec.Entry, hash rec.Hash, command string) error {
	const q = `INSERT INTO journal (seq, at, kind, game, body, events, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
	args := []any{e.Seq, e.At, e.Kind, e.Game, string(e.Body), string(e.Events), j.head.String(), hash.String()}
	if command == "" {
		_, err := j.db.ExecContext(ctx, q, args...)
		return err
	}
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, q, args...); err != nil {
		return err
	}
	seen, _ := json.Marshal(CommandSeen{Seq: e.Seq, Kind: e.Kind})
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`, commandKey(command), string(seen)); err != nil {
		return err
	}
	return tx.Commit()
}

// CommandSeen is what the journal keeps of a command with an id: the last
// entry it produced, and once it was answered, the answer.
type CommandSeen struct {
	Seq    int64           `json:"seq"`
	Kind   string          `json:"kind,omitempty"`
	Answer json.RawMessage `json:"answer,omitempty"`
}

// keptCommands is how many command ids the journal remembers.
const keptCommands = 1024

func commandKey(id string) string { return "command/" + id }

// Command is what the journal remembers of the command with this id, if
// it remembers it.
func (j *Journal) Command(ctx context.Context, id string) (CommandSeen, bool, error) {
	var v string
	switch err := j.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, commandKey(id)).Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		return CommandSeen{}, false, nil
	case err != nil:
		return CommandSeen{}, false, &JournalError{Path: j.path, Err: err}
	}
	var c CommandSeen
	if err := json.Unmarshal([]byte(v), &c); err != nil {
		return CommandSeen{}, false, &JournalError{Path: j.path, Err: fmt.Errorf("command %q: %w", id, err)}
	}
	return c, true, nil
}

// Answered keeps a command's answer beside its id, and forgets all but
// the last keptCommands ids.
func (j *Journal) Answered(ctx context.Context, id string, seq int64, answer []byte) error {
	seen, _ := json.Marshal(CommandSeen{Seq: seq, Answer: answer})
	if _, err := j.db.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`, commandKey(id), string(seen)); err != nil {
		return &JournalError{Path: j.path, Err: err}
	}
	// Pruned now and then, not at every answer: each write is a sync.
	if j.answers.Add(1)%64 != 0 {
		return nil
	}
	if _, err := j.db.ExecContext(ctx, `DELETE FROM meta WHERE key LIKE 'command/%' AND rowid NOT IN
		(SELECT rowid FROM meta WHERE key LIKE 'command/%' ORDER BY rowid DESC LIMIT ?)`, keptCommands); err != nil {
		return &JournalError{Path: j.path, Err: err}
	}
	return nil
}

// Entries calls fn for every entry after seq `after`, in order.
func (j *Journal) Entries(ctx context.Context, after int64, fn func(Entry) error) error {
	rows, err := j.db.QueryContext(ctx, `SELECT seq, at, kind, game, body, events, prev, hash FROM journal WHERE seq > ? ORDER BY seq`, after)
	if err != nil {
		return &JournalError{Path: j.path, Err: err}
	}
	defer rows.Close()
	for rows.Next() {
		var e Entry
		var at, body, events string
		if err := rows.Scan(&e.Seq, &at, &e.Kind, &e.Game, &body, &events, &e.Prev, &e.Hash); err != nil {
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

// Entry is the entry seq, if the journal has it.
func (j *Journal) Entry(ctx context.Context, seq int64) (Entry, bool, error) {
	var out Entry
	found := false
	err := j.Entries(ctx, seq-1, func(e Entry) error {
		if e.Seq == seq {
			out, found = e, true
		}
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return Entry{}, false, err
	}
	return out, found, nil
}

var errStop = errors.New("stop")

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

// Close closes the database and lets the journal go.
func (j *Journal) Close() error {
	if j == nil {
		return nil
	}
	err := j.db.Close()
	if j.lock != nil {
		j.lock.Close()
	}
	return err
}

// The round of the journal's game is the tournament round the venue
// paired the table in when the game was on (wire.PairingMessage), which
// the table's result statement names (v3). It is kept in the meta table
// under 'round', like the dice seeds and not as a chained entry: the
// venue's word is not an act at the table, a game played away from any
// venue has none, and a journal's entries (and the golden games) are the
// same with or without it. It is set once per journal: a table mid-game
// when a later round is paired keeps the round its game began in. Round 0
// set is a decision too: the game names no round (the table could not
// tell which round it is; see Daemon.handlePairing).

// SetRound keeps round (0: none) as the game's round unless the journal
// has one already, and returns the round kept.
func (j *Journal) SetRound(ctx context.Context, round int) (int, error) {
	if round < 0 {
		return 0, &JournalError{Path: j.path, Err: fmt.Errorf("round %d: want 0 (none) or more", round)}
	}
	if _, err := j.db.ExecContext(ctx, `INSERT OR IGNORE INTO meta (key, value) VALUES ('round', ?)`, strconv.Itoa(round)); err != nil {
		return 0, &JournalError{Path: j.path, Err: err}
	}
	n, _, err := j.Round(ctx)
	return n, err
}

// Binding is the pairing a journal's game was played in, as the venue
// issued it (wire.PairingMessage): the tournament's and the pairing's ids
// and the players' ids, seat 1 first. The table signs them with the round
// into its result (record.Statement v4), and the venue counts the result
// for that pairing alone. It is kept in meta ('pairing', JSON) with the
// round, set once with it.
type Binding struct {
	Tournament string   `json:"tournament"`
	Pairing    string   `json:"pairing"`
	Players    []string `json:"players"`
}

// SetPairing keeps round and its pairing b as the game's unless the
// journal has a round already (SetRound, SetPairing), in one transaction,
// and returns the round and pairing kept (b zero: the round kept has
// none).
func (j *Journal) SetPairing(ctx context.Context, round int, b Binding) (int, Binding, error) {
	if round < 1 || b.Pairing == "" {
		return 0, Binding{}, &JournalError{Path: j.path, Err: fmt.Errorf("round %d, pairing %q: want a round and its pairing", round, b.Pairing)}
	}
	data, err := json.Marshal(b)
	if err != nil {
		return 0, Binding{}, &JournalError{Path: j.path, Err: err}
	}
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, Binding{}, &JournalError{Path: j.path, Err: err}
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO meta (key, value) VALUES ('round', ?)`, strconv.Itoa(round))
	if err != nil {
		return 0, Binding{}, &JournalError{Path: j.path, Err: err}
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, Binding{}, &JournalError{Path: j.path, Err: err}
	} else if n == 1 {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value) VALUES ('pairing', ?)`, string(data)); err != nil {
			return 0, Binding{}, &JournalError{Path: j.path, Err: err}
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, Binding{}, &JournalError{Path: j.path, Err: err}
	}
	n, _, err := j.Round(ctx)
	if err != nil {
		return 0, Binding{}, err
	}
	kept, err := j.Pairing(ctx)
	return n, kept, err
}

// Pairing is the game's pairing (SetPairing); zero when it has none.
func (j *Journal) Pairing(ctx context.Context) (Binding, error) {
	var v string
	switch err := j.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'pairing'`).Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		return Binding{}, nil
	case err != nil:
		return Binding{}, &JournalError{Path: j.path, Err: err}
	}
	var b Binding
	if err := json.Unmarshal([]byte(v), &b); err != nil || b.Pairing == "" {
		return Binding{}, &JournalError{Path: j.path, Err: fmt.Errorf("pairing %q in meta: want the pairing the game was played in", v)}
	}
	return b, nil
}

// Round is the game's round (SetRound; 0: none) and whether it is set.
func (j *Journal) Round(ctx context.Context) (round int, set bool, err error) {
	var v string
	switch err := j.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'round'`).Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, &JournalError{Path: j.path, Err: err}
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, false, &JournalError{Path: j.path, Err: fmt.Errorf("round %q in meta: want a round, or 0 for none", v)}
	}
	return n, true, nil
}

// RecordSeed keeps the virtual dice's seed of one start in the journal's
// meta table, for the referee: it is never published. Seeds are not in the
// hash chain (see the README's "The referee's record"): no entry depends
// on them — every value they gave is in a chained action's body, and
// replay never reads them.
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

// SetGameConfig keeps the table config's game part (Config.GameConfig) in
// the journal's meta table, replacing an older one: the config the daemon
// last opened the journal with. Like the seeds it is not in the hash chain:
// review and export build the game with it, and the replay takes the game's
// setup from the journal's opening action.
func (j *Journal) SetGameConfig(ctx context.Context, text []byte) error {
	if _, err := j.db.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value) VALUES ('game_config', ?)`, string(text)); err != nil {
		return &JournalError{Path: j.path, Err: fmt.Errorf("keeping the game's config: %w", err)}
	}
	return nil
}

// GameConfig is what SetGameConfig kept; ok is false for a journal made
// before journals kept it.
func (j *Journal) GameConfig(ctx context.Context) (text []byte, ok bool, err error) {
	var v string
	switch err := j.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'game_config'`).Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, &JournalError{Path: j.path, Err: fmt.Errorf("reading the game's config: %w", err)}
	}
	return []byte(v), true, nil
}

// SetPlayers keeps the players' names a game was started with (seat 1
// first: the referee's new_game command, or the venue's pairing) in the
// journal's meta, before its first entry: the daemon builds the game with
// them (Config.withPlayers). Like the seeds it is not in the hash chain:
// the game's opening action, which is, holds the setup.
func (j *Journal) SetPlayers(ctx context.Context, names []string) error {
	data, err := json.Marshal(names)
	if err == nil {
		_, err = j.db.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value) VALUES ('players', ?)`, string(data))
	}
	if err != nil {
		return &JournalError{Path: j.path, Err: fmt.Errorf("keeping the game's players: %w", err)}
	}
	return nil
}

// Players are the names SetPlayers kept; nil when none were.
func (j *Journal) Players(ctx context.Context) ([]string, error) {
	var v string
	switch err := j.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'players'`).Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, &JournalError{Path: j.path, Err: fmt.Errorf("reading the game's players: %w", err)}
	}
	var names []string
	if err := json.Unmarshal([]byte(v), &names); err != nil {
		return nil, &JournalError{Path: j.path, Err: fmt.Errorf("players %q in meta: %w", v, err)}
	}
	return names, nil
}
