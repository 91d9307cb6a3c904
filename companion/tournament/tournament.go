package tournament

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite"

	"github.com/sztab/sztab/companion/record"
)

// Round is one round: its pairings (seat 1 is Players[0]) and byes.
type Round struct {
	Number int `json:"number"`
	// Source is "swiss" (PairNext) or "import" (ImportPairings).
	Source string    `json:"source"`
	Tables []Pairing `json:"tables"`
	Byes   []string  `json:"byes,omitempty"`
}

// The states of a table's result in a round.
const (
	Awaiting  = "awaiting"
	Signed    = "signed"
	Corrected = "corrected"
	// Refused: the latest message from the table was refused and no
	// result counts yet (Refusals say why).
	Refused = "refused"
)

// Result is an accepted result.
type Result struct {
	Round   int           `json:"round"`
	Table   string        `json:"table"`
	Players []string      `json:"players"`
	Seats   []record.Seat `json:"seats"`
	Text    record.Text   `json:"text"`
	// Key is the fingerprint of the key that signed it.
	Key string `json:"key"`
	// Pairing is the id of the pairing the result was signed for
	// (record.Statement v4).
	Pairing   string `json:"pairing,omitempty"`
	FinalHash string `json:"final_hash"`
	// SampleData: the game ran on data its rulebook does not print
	// (the statement's sample_data, record.Statement v5).
	SampleData bool      `json:"sample_data,omitempty"`
	At         time.Time `json:"at"`
	// Duplicate: the same result was already accepted; nothing changed.
	Duplicate bool `json:"duplicate,omitempty"`
}

// Refusal is a result that does not count, and why.
type Refusal struct {
	Table  string `json:"table"`
	Round  int    `json:"round"`
	Reason string `json:"reason"`
	// ReasonPL is the reason in Polish, where the refusal has one.
	ReasonPL string    `json:"reason_pl,omitempty"`
	At       time.Time `json:"at"`
	// Key is the fingerprint the message named, if any.
	Key string `json:"key,omitempty"`
	// Hash identifies the message, so that one refused message delivered
	// again (it is retained) is kept once.
	Hash string `json:"hash,omitempty"`
}

// Polish is the refusal's reason in Polish ("" where it has none), for
// the venue's log.
func (r *Refusal) Polish() string { return r.ReasonPL }

func (r *Refusal) Error() string {
	return fmt.Sprintf("tournament: table %s, round %d: result refused: %s", r.Table, r.Round, r.Reason)
}

// AuditEntry is one act on the tournament: a pairing, an import, an
// accepted result, a correction, a clock start.
type AuditEntry struct {
	ID    int64     `json:"id"`
	At    time.Time `json:"at"`
	Who   string    `json:"who"`
	What  string    `json:"what"`
	Why   string    `json:"why,omitempty"`
	Round int       `json:"round,omitempty"`
	Table string    `json:"table,omitempty"`
}

// Tournament is an open tournament. Its methods are safe for concurrent use.
type Tournament struct {
	cfg Config
	// id is the tournament's own id (random, made when its database is
	// created): the tables sign it into their results, so that a result
	// of another tournament (an earlier one, the same venue, game and
	// round) never counts in this one.
	id   string
	rand io.Reader // the pairings' ids
	db   *sql.DB
	keys map[string]ed25519.PublicKey // table → key
	now  func() time.Time
	log  *slog.Logger

	mu       sync.Mutex
	rounds   []*roundState
	refusals []Refusal
	audit    []AuditEntry
}

type roundState struct {
	Round
	start   time.Time
	minutes int
	results map[string]*tableResult
}

type tableResult struct {
	signed    *Result
	corrected []record.Seat
	refused   bool
}

func (r *roundState) pairing(table string) (Pairing, bool) {
	for _, p := range r.Tables {
		if p.Table == table {
			return p, true
		}
	}
	return Pairing{}, false
}

// Open opens (or creates) the tournament stored at dbPath for cfg, read
// the tables' public keys, and restores every round, result, correction
// and refusal stored. cfg must come from ParseConfig, LoadConfig or
// Config.Check, and is checked again; a database made for
// another tournament (name, venue or game) is refused.
func Open(ctx context.Context, dbPath string, cfg Config) (*Tournament, error) {
	return OpenRand(ctx, dbPath, cfg, rand.Reader)
}

// OpenRand is Open with the random source of the tournament's and the
// pairings' ids (crypto/rand's Reader for Open; tests give their own).
func OpenRand(ctx context.Context, dbPath string, cfg Config, random io.Reader) (*Tournament, error) {
	if cfg.games == nil {
		return nil, errors.New("tournament: the config was never checked against the games (ParseConfig, LoadConfig or Config.Check)")
	}
	if err := cfg.Check(cfg.games); err != nil {
		return nil, err
	}
	t := &Tournament{cfg: cfg, rand: random, keys: map[string]ed25519.PublicKey{}, now: time.Now, log: slog.Default()}
	byFP := map[string]string{}
	for _, tb := range cfg.Tables {
		data, err := os.ReadFile(tb.Key)
		if err != nil {
			return nil, fmt.Errorf("tournament: table %s: key: %w", tb.ID, err)
		}
		pub, err := record.ParsePublicKey(data)
		if err != nil {
			return nil, fmt.Errorf("tournament: table %s: key %s: %w", tb.ID, tb.Key, err)
		}
		fp := record.Fingerprint(pub)
		if other, ok := byFP[fp]; ok {
			return nil, fmt.Errorf("tournament: tables %s and %s have the same key %s: a result could not say which table it is from", other, tb.ID, fp)
		}
		byFP[fp] = tb.ID
		t.keys[tb.ID] = pub
	}
	dsn := "file:" + dbPath + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("tournament: %s: %w", dbPath, err)
	}
	db.SetMaxOpenConns(1)
	t.db = db
	if err := t.load(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("tournament: %s: %w", dbPath, err)
	}
	return t, nil
}

// SetClock replaces the clock (time.Now) that stamps entries; for tests
// and simulations.
func (t *Tournament) SetClock(now func() time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.now = now
}

// SetLogger replaces slog.Default for the refusals' and acts' log lines.
func (t *Tournament) SetLogger(l *slog.Logger) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.log = l
}

// ID is the tournament's id, which its pairings carry to the tables.
func (t *Tournament) ID() string { return t.id }

// newID is a fresh id: 128 random bits in hex.
func (t *Tournament) newID() (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(t.rand, b[:]); err != nil {
		return "", fmt.Errorf("tournament: an id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// issue gives each pairing of r an id of its own, which no one can guess
// before the venue publishes it: a table signs it into its result, and the
// result counts only for that pairing (t.mu held).
func (t *Tournament) issue(r *Round) error {
	seen := map[string]bool{}
	for _, rs := range t.rounds {
		for _, p := range rs.Tables {
			seen[p.ID] = true
		}
	}
	for i := range r.Tables {
		id, err := t.newID()
		if err != nil {
			return err
		}
		if seen[id] {
			return fmt.Errorf("tournament: pairing id %s issued twice: the random source repeats itself", id)
		}
		seen[id] = true
		r.Tables[i].ID = id
	}
	return nil
}

// Close closes the store.
func (t *Tournament) Close() error { return t.db.Close() }

// Config is the tournament's checked config (defaults filled in).
func (t *Tournament) Config() Config { return t.cfg }

// The kinds of stored entries.
const (
	kindRound   = "round"
	kindStart   = "start"
	kindResult  = "result"
	kindCorrect = "correct"
	kindRefused = "refused"
)

type entry struct {
	ID   int64
	At   time.Time
	Kind string
	Who  string
	Why  string
	Data json.RawMessage
}

type startData struct {
	Round   int `json:"round"`
	At      time.Time
	Minutes int `json:"minutes"`
}

type resultData struct {
	Result
	Statement string `json:"statement"`
	Signature string `json:"signature"`
}

type correctData struct {
	Round int           `json:"round"`
	Table string        `json:"table"`
	Seats []record.Seat `json:"seats"`
}

func (t *Tournament) load(ctx context.Context) error {
	for _, q := range []string{
		`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL, who TEXT NOT NULL, why TEXT NOT NULL, data TEXT NOT NULL)`,
	} {
		if _, err := t.db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	switch err := t.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'id'`).Scan(&t.id); {
	case errors.Is(err, sql.ErrNoRows):
		// A new tournament (or one stored before tournaments had ids).
		if t.id, err = t.newID(); err != nil {
			return err
		}
		if _, err := t.db.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('id', ?)`, t.id); err != nil {
			return err
		}
	case err != nil:
		return err
	}
	ident := map[string]string{"name": t.cfg.Name, "venue": t.cfg.Venue, "game": t.cfg.Game}
	for _, k := range []string{"name", "venue", "game"} {
		var v string
		err := t.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, k).Scan(&v)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if _, err := t.db.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)`, k, ident[k]); err != nil {
				return err
			}
		case err != nil:
			return err
		case v != ident[k]:
			return fmt.Errorf("the database is the tournament with %s %q, the config says %q", k, v, ident[k])
		}
	}
	rows, err := t.db.QueryContext(ctx, `SELECT id, at, kind, who, why, data FROM log ORDER BY id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var e entry
		var at, data string
		if err := rows.Scan(&e.ID, &at, &e.Kind, &e.Who, &e.Why, &data); err != nil {
			return err
		}
		if e.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return fmt.Errorf("entry %d: %w", e.ID, err)
		}
		e.Data = json.RawMessage(data)
		if err := t.apply(e); err != nil {
			return fmt.Errorf("entry %d (%s): %w", e.ID, e.Kind, err)
		}
	}
	return rows.Err()
}

// write stores an entry and applies it: the store first, then memory.
func (t *Tournament) write(ctx context.Context, kind, who, why string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("tournament: %w", err)
	}
	e := entry{At: t.now().UTC(), Kind: kind, Who: who, Why: why, Data: b}
	res, err := t.db.ExecContext(ctx, `INSERT INTO log (at, kind, who, why, data) VALUES (?, ?, ?, ?, ?)`, e.At.Format(time.RFC3339Nano), kind, who, why, string(b))
	if err != nil {
		return fmt.Errorf("tournament: store: %w", err)
	}
	if e.ID, err = res.LastInsertId(); err != nil {
		return fmt.Errorf("tournament: store: %w", err)
	}
	if err := t.apply(e); err != nil {
		return fmt.Errorf("tournament: %w", err)
	}
	return nil
}

// apply changes memory by one stored entry (live and on reopening).
func (t *Tournament) apply(e entry) error {
	audit := AuditEntry{ID: e.ID, At: e.At, Who: e.Who, Why: e.Why}
	switch e.Kind {
	case kindRound:
		var r Round
		if err := json.Unmarshal(e.Data, &r); err != nil {
			return err
		}
		rs := &roundState{Round: r, results: map[string]*tableResult{}}
		switch {
		case r.Number == len(t.rounds)+1:
			t.rounds = append(t.rounds, rs)
		case r.Number == len(t.rounds) && r.Number > 0:
			t.rounds[r.Number-1] = rs
		default:
			return fmt.Errorf("round %d after %d rounds", r.Number, len(t.rounds))
		}
		audit.Round = r.Number
		audit.What = fmt.Sprintf("round %d paired (%s): %s", r.Number, r.Source, describeRound(r))
	case kindStart:
		var s startData
		if err := json.Unmarshal(e.Data, &s); err != nil {
			return err
		}
		if s.Round < 1 || s.Round > len(t.rounds) {
			return fmt.Errorf("start of round %d of %d", s.Round, len(t.rounds))
		}
		rs := t.rounds[s.Round-1]
		rs.start, rs.minutes = s.At, s.Minutes
		audit.Round = s.Round
		audit.What = fmt.Sprintf("round %d clock started at %s, %d minutes", s.Round, s.At.UTC().Format(time.RFC3339), s.Minutes)
	case kindResult:
		var d resultData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return err
		}
		tr, err := t.result(d.Round, d.Table)
		if err != nil {
			return err
		}
		r := d.Result
		r.At = e.At
		tr.signed, tr.refused = &r, false
		audit.Round, audit.Table = d.Round, d.Table
		audit.What = fmt.Sprintf("result of table %s accepted, signed by key %s: %s", d.Table, r.Key, describeSeats(r.Players, r.Seats))
	case kindCorrect:
		var d correctData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return err
		}
		tr, err := t.result(d.Round, d.Table)
		if err != nil {
			return err
		}
		p, _ := t.rounds[d.Round-1].pairing(d.Table)
		was := "no result"
		switch {
		case tr.corrected != nil:
			was = "corrected " + describeSeats(p.Players, tr.corrected)
		case tr.signed != nil:
			was = "signed " + describeSeats(p.Players, tr.signed.Seats)
		}
		tr.corrected = d.Seats
		audit.Round, audit.Table = d.Round, d.Table
		audit.What = fmt.Sprintf("result of table %s corrected to %s (was %s)", d.Table, describeSeats(p.Players, d.Seats), was)
	case kindRefused:
		var r Refusal
		if err := json.Unmarshal(e.Data, &r); err != nil {
			return err
		}
		r.At = e.At
		t.refusals = append(t.refusals, r)
		if r.Round >= 1 && r.Round <= len(t.rounds) {
			if _, ok := t.rounds[r.Round-1].pairing(r.Table); ok {
				tr := t.rounds[r.Round-1].resultOf(r.Table)
				if tr.signed == nil && tr.corrected == nil {
					tr.refused = true
				}
			}
		}
		return nil
	default:
		return fmt.Errorf("unknown kind %q", e.Kind)
	}
	t.audit = append(t.audit, audit)
	return nil
}

func (r *roundState) resultOf(table string) *tableResult {
	tr := r.results[table]
	if tr == nil {
		tr = &tableResult{}
		r.results[table] = tr
	}
	return tr
}

func (t *Tournament) result(round int, table string) (*tableResult, error) {
	if round < 1 || round > len(t.rounds) {
		return nil, fmt.Errorf("round %d: there are %d rounds", round, len(t.rounds))
	}
	rs := t.rounds[round-1]
	if _, ok := rs.pairing(table); !ok {
		return nil, fmt.Errorf("round %d: table %s is not paired", round, table)
	}
	return rs.resultOf(table), nil
}

func describeRound(r Round) string {
	var parts []string
	for _, p := range r.Tables {
		parts = append(parts, p.Table+" "+strings.Join(p.Players, "–"))
	}
	if len(r.Byes) > 0 {
		parts = append(parts, "bye "+strings.Join(r.Byes, ", "))
	}
	return strings.Join(parts, "; ")
}

func describeSeats(players []string, seats []record.Seat) string {
	var parts []string
	for _, s := range seats {
		who := fmt.Sprintf("seat %d", s.Seat)
		if s.Seat >= 1 && s.Seat <= len(players) {
			who = players[s.Seat-1]
		}
		parts = append(parts, fmt.Sprintf("%s %s %d", who, s.Outcome, s.Score))
	}
	return strings.Join(parts, ", ")
}

// current is the latest round, nil before the first.
func (t *Tournament) current() *roundState {
	if len(t.rounds) == 0 {
		return nil
	}
	return t.rounds[len(t.rounds)-1]
}

// missing are the tables of a round without a counted result.
func (r *roundState) missing() []string {
	var out []string
	for _, p := range r.Tables {
		tr := r.results[p.Table]
		if tr == nil || (tr.signed == nil && tr.corrected == nil) {
			out = append(out, p.Table)
		}
	}
	return out
}

// counted is the effective seats of a table: the correction, else the
// signed result, else nil.
func (tr *tableResult) counted() []record.Seat {
	switch {
	case tr == nil:
		return nil
	case tr.corrected != nil:
		return tr.corrected
	case tr.signed != nil:
		return tr.signed.Seats
	}
	return nil
}

// ErrRoundOpen: the current round has results missing.
var ErrRoundOpen = errors.New("the current round has results missing")

// PairNext pairs the next round by Swiss (Pair) from the standings. It is
// refused (ErrRoundOpen, naming the tables) while the current round has
// tables without a counted result: the organiser enters those with
// Correct, or pairs anyway with ForcePairNext. It is refused past
// Config.Rounds.
func (t *Tournament) PairNext(ctx context.Context) (Round, error) {
	return t.pairNext(ctx, false, "organiser", "")
}

// ForcePairNext pairs the next round although results are missing (a
// table that never reports): those tables count nothing until the
// organiser corrects them. by and why go to the audit trail.
func (t *Tournament) ForcePairNext(ctx context.Context, by, why string) (Round, error) {
	if strings.TrimSpace(by) == "" || strings.TrimSpace(why) == "" {
		return Round{}, errors.New("tournament: forcing a round needs who and why, for the audit trail")
	}
	return t.pairNext(ctx, true, by, why)
}

func (t *Tournament) pairNext(ctx context.Context, force bool, by, why string) (Round, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	next := len(t.rounds) + 1
	if t.cfg.Rounds > 0 && next > t.cfg.Rounds {
		return Round{}, fmt.Errorf("tournament: round %d: the tournament has %d rounds", next, t.cfg.Rounds)
	}
	if cur := t.current(); cur != nil && !force {
		if m := cur.missing(); len(m) > 0 {
			return Round{}, fmt.Errorf("tournament: round %d: tables %s: %w (correct them, or force the pairing)", cur.Number, strings.Join(m, ", "), ErrRoundOpen)
		}
	}
	in := t.pairInput(next)
	tables, byes, err := Pair(in)
	if err != nil {
		return Round{}, err
	}
	r := Round{Number: next, Source: "swiss", Tables: tables, Byes: byes}
	if err := t.issue(&r); err != nil {
		return Round{}, err
	}
	if force {
		why = "forced: " + why
	}
	if err := t.write(ctx, kindRound, by, why, r); err != nil {
		return Round{}, err
	}
	t.log.Info("tournament: round paired", "round", next, "tables", len(tables), "byes", byes, "forced", force)
	return r, nil
}

// pairInput gathers the standings and history for pairing round next.
func (t *Tournament) pairInput(next int) PairInput {
	st := t.standings()
	in := PairInput{
		Points: map[string]float64{}, Met: map[[2]string]int{}, Byes: map[string]int{},
		SeatsHad: map[string][]int{}, LastSeat: map[string]int{}, Seats: t.cfg.Seats,
	}
	for _, tb := range t.cfg.Tables {
		in.Tables = append(in.Tables, tb.ID)
	}
	active := map[string]bool{}
	for _, p := range t.cfg.Players {
		active[p.ID] = true
	}
	for _, s := range st {
		in.Points[s.Player] = s.Points
		if active[s.Player] {
			in.Ranked = append(in.Ranked, s.Player)
		}
	}
	rank := map[string]int{}
	for _, s := range st {
		rank[s.Player] = s.Rank
	}
	slices.SortStableFunc(in.Ranked, func(a, b string) int {
		if rank[a] != rank[b] {
			return rank[a] - rank[b]
		}
		return SeededOrder(t.cfg.Seed, next, a, b)
	})
	for _, r := range t.rounds {
		for _, b := range r.Byes {
			in.Byes[b]++
		}
		for _, p := range r.Tables {
			for i, a := range p.Players {
				in.LastSeat[a] = i + 1
				in.SeatsHad[a] = countSeat(in.SeatsHad[a], i)
				for _, b := range p.Players[i+1:] {
					in.Met[PairKey(a, b)]++
				}
			}
		}
	}
	return in
}

// players are the config's players and any no longer in it who played.
func (t *Tournament) players() []Player {
	out := slices.Clone(t.cfg.Players)
	known := map[string]bool{}
	for _, p := range out {
		known[p.ID] = true
	}
	for _, r := range t.rounds {
		for _, p := range r.Tables {
			for _, id := range p.Players {
				if !known[id] {
					known[id] = true
					out = append(out, Player{ID: id, Name: id})
				}
			}
		}
		for _, id := range r.Byes {
			if !known[id] {
				known[id] = true
				out = append(out, Player{ID: id, Name: id})
			}
		}
	}
	return out
}

func (t *Tournament) standings() []Standing {
	var games []game
	var byes []string
	for _, r := range t.rounds {
		byes = append(byes, r.Byes...)
		for _, p := range r.Tables {
			tr := r.results[p.Table]
			if seats := tr.counted(); seats != nil {
				games = append(games, game{players: p.Players, seats: seats, sample: tr.signed != nil && tr.signed.SampleData})
			}
		}
	}
	return standings(&t.cfg, t.players(), games, byes)
}

// StartRound starts a paired round's clock at at (Config.RoundMinutes).
// Starting it again restarts it (a late start, a delay), with an entry.
func (t *Tournament) StartRound(ctx context.Context, round int, at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if round < 1 || round > len(t.rounds) {
		return fmt.Errorf("tournament: start round %d: %d rounds are paired", round, len(t.rounds))
	}
	if at.IsZero() {
		return fmt.Errorf("tournament: start round %d: no start time", round)
	}
	return t.write(ctx, kindStart, "organiser", "", startData{Round: round, At: at.UTC(), Minutes: t.cfg.RoundMinutes})
}
