package companion

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sztab/sztab/companion/wire"
)

// The head a table publishes (wire.ChainHead) is what catches a cut tail:
// entries deleted from the journal's end, with SQLite's seq counter and the
// published mark set back, leave a chain that checks on its own. Checked
// against a head the table published earlier, and a hub or venue kept, the
// journal is short of it.
//
// The head's hash is not published as it is (it covers the hidden
// information, see wire.ChainHead): the mark is HMAC-SHA256 of the seq and
// the hash under a random key of the journal's own, kept in its meta
// ('head_key', made when the daemon first opens the journal, never
// exported). Whoever checks a journal against a mark reads the key from the
// journal itself: a forger with the file cannot make another chain reach a
// mark already published, with this key or another one.

// headKeyMeta is the meta key of the journal's head key.
const headKeyMeta = "head_key"

// ensureHeadKey gives the journal its head key if it has none (tx: the
// open's transaction).
func ensureHeadKey(tx *sql.Tx) error {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return err
	}
	_, err := tx.Exec(`INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)`, headKeyMeta, hex.EncodeToString(k))
	return err
}

// readHeadKey reads the head key from meta: nil if the journal has none.
func readHeadKey(ctx context.Context, tx *sql.Tx) ([]byte, error) {
	var v string
	switch err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, headKeyMeta).Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, err
	}
	k, err := hex.DecodeString(v)
	if err != nil || len(k) != 32 {
		return nil, fmt.Errorf("meta %s is not a key (32 bytes in hex)", headKeyMeta)
	}
	return k, nil
}

// journalID names the journal whose head key is key: the first 8 bytes of
// a digest of it, in hex.
func journalID(key []byte) string {
	s := sha256.Sum256(append([]byte("sztab journal id\n"), key...))
	return hex.EncodeToString(s[:8])
}

// headMark is the published mark of entry seq whose hash is hash.
func headMark(key []byte, seq int64, hash string) string {
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "sztab head v1\n%d\n%s", seq, hash)
	return hex.EncodeToString(m.Sum(nil))
}

// PublishedHead is the journal's head as the table publishes it in its
// status, or nil if the journal has no head key (a journal read by a tool
// that found none).
func (j *Journal) PublishedHead() *wire.ChainHead {
	if j.headKey == nil {
		return nil
	}
	seq, hash := j.Head()
	return &wire.ChainHead{Journal: journalID(j.headKey), Seq: seq, Mark: headMark(j.headKey, seq, hash)}
}

// JournalID names the journal in published heads ("" if it has no head
// key).
func (j *Journal) JournalID() string {
	if j.headKey == nil {
		return ""
	}
	return journalID(j.headKey)
}

// RecordedHead is a head recorded outside the table: one its status
// published (Mark, with Journal naming the journal), or the final hash an
// export or a signed result names (Hash).
type RecordedHead struct {
	Journal string
	Seq     int64
	Mark    string
	Hash    string
	// From says who named it, for the messages ("the table published",
	// the default); Where where it was kept ("as the hub saw it at …").
	From, Where string
}

// ParseHead reads "SEQ:VALUE": the seq and, as a table publishes them, the
// mark (or the entry's hash, as an export or a signed result names it: the
// check takes either).
func ParseHead(s string) (RecordedHead, error) {
	seqS, v, ok := strings.Cut(strings.TrimSpace(s), ":")
	seq, err := strconv.ParseInt(seqS, 10, 64)
	if !ok || err != nil || seq < 0 {
		return RecordedHead{}, fmt.Errorf("head %q: want SEQ:HASH (the seq and the mark a table published, or an entry's hash)", s)
	}
	if b, err := hex.DecodeString(v); err != nil || len(b) != sha256.Size {
		return RecordedHead{}, fmt.Errorf("head %q: %q is not a hash (64 hex digits)", s, v)
	}
	v = strings.ToLower(v)
	return RecordedHead{Seq: seq, Mark: v, Hash: v}, nil
}

// HeadError says a journal is not the one a recorded head was taken from:
// it ends before the head (a cut tail), or its entry at the head's seq is
// not the one the head names (a rewritten journal).
type HeadError struct {
	// Last is the journal's last seq; Head the recorded head.
	Last int64
	Head RecordedHead
	// Missing is how many entries are missing from the end (0: the entry
	// is there but differs).
	Missing int64
	Detail  string
}

func (e *HeadError) Error() string { return e.Detail }

// ErrJournalShort: the journal does not reach, or does not hold, a head
// recorded elsewhere; a *HeadError in the same error says how.
var ErrJournalShort = errors.New("not the journal a recorded head was taken from")

// CheckHead checks the journal against a head recorded elsewhere: the
// journal must hold the entry h.Seq, and that entry's hash (or its mark
// under the journal's head key) must be h's. A head of another journal
// (h.Journal set and not this one's) is refused as such.
func (j *Journal) CheckHead(ctx context.Context, h RecordedHead) error {
	from := h.From
	if from == "" {
		from = "the table published"
	}
	fail := func(missing int64, detail string) error {
		return fmt.Errorf("%w: %w", ErrJournalShort, &HeadError{Last: j.chain.LastSeq, Head: h, Missing: missing, Detail: detail})
	}
	if h.Journal != "" && j.headKey != nil && h.Journal != journalID(j.headKey) {
		return fail(0, fmt.Sprintf("the head %s entry %d of journal %s; this journal is %s (another journal of the table, or its head key was replaced)", from, h.Seq, h.Journal, journalID(j.headKey)))
	}
	last := j.chain.LastSeq
	if h.Seq > last {
		return fail(h.Seq-last, fmt.Sprintf("the journal ends at entry %d but %s entry %d (%s): %d entries are missing from its end", last, from, h.Seq, h.shown(), h.Seq-last))
	}
	if h.Seq == 0 {
		return nil
	}
	var hash string
	switch err := j.db.QueryRowContext(ctx, `SELECT hash FROM journal WHERE seq = ?`, h.Seq).Scan(&hash); {
	case errors.Is(err, sql.ErrNoRows):
		return fail(0, fmt.Sprintf("%s entry %d; the journal has no entry %d", from, h.Seq, h.Seq))
	case err != nil:
		return err
	}
	if h.Hash != "" && hash == h.Hash {
		return nil
	}
	if h.Mark != "" && j.headKey != nil && hmac.Equal([]byte(headMark(j.headKey, h.Seq, hash)), []byte(h.Mark)) {
		return nil
	}
	if j.headKey == nil && h.Hash == "" {
		return fail(0, fmt.Sprintf("%s entry %d with a mark, and the journal has no head key to check it with (deleted from its meta?)", from, h.Seq))
	}
	return fail(0, fmt.Sprintf("the journal's entry %d is not the one %s (%s): the journal was rewritten at or before entry %d", h.Seq, from, h.shown(), h.Seq))
}

// shown is the head's hash or mark for a message.
func (h RecordedHead) shown() string {
	v, what := h.Mark, "mark"
	if h.Hash != "" {
		v, what = h.Hash, "hash"
	}
	if len(v) > 16 {
		v = v[:16] + "…"
	}
	if h.Where != "" {
		return what + " " + v + ", " + h.Where
	}
	return what + " " + v
}

// String says which head it is: "entry 47 (mark …, as the hub saw it …)".
func (h RecordedHead) String() string { return fmt.Sprintf("entry %d (%s)", h.Seq, h.shown()) }
