// Package record is the referee's record of a table's game, outside the
// daemon: the hash chain over the journal's entries (its canonical bytes),
// the exported record (JSONL), its human-readable summary (Markdown and
// HTML), and the table's signed result statement (Ed25519). It is pure: it
// reads and writes bytes, never a journal or a network.
package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// Hash is a SHA-256 hash of the chain.
type Hash [sha256.Size]byte

func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// ParseHash reads a hash as the chain writes it: 64 lower-case hex digits.
func ParseHash(s string) (Hash, error) {
	var h Hash
	if len(s) != 2*len(h) {
		return h, fmt.Errorf("record: hash %q: want %d hex digits", clip(s), 2*len(h))
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil || hex.EncodeToString(h[:]) != s {
		return Hash{}, fmt.Errorf("record: hash %q: want lower-case hex digits", clip(s))
	}
	return h, nil
}

// Identity is the table a journal belongs to; the first entry chains to
// its hash (Genesis).
type Identity struct {
	Venue string `json:"venue"`
	Table string `json:"table"`
	Game  string `json:"game"`
}

func (id Identity) String() string {
	return fmt.Sprintf("venue %q, table %q, game %q", id.Venue, id.Table, id.Game)
}

// Domain tags: the first bytes of every hashed message, so that no entry's
// bytes can be taken for an identity's or a statement's.
const (
	identityTag = "sztab/journal-identity/v1\n"
	entryTag    = "sztab/journal-entry/v1\n"
)

// Genesis is what the first entry's previous hash is: SHA-256 over
//
//	"sztab/journal-identity/v1\n" str(venue) str(table) str(game)
//
// where str(s) is s's length as 4 bytes big-endian, then its bytes.
func (id Identity) Genesis() Hash {
	b := []byte(identityTag)
	b = appendStr(b, id.Venue)
	b = appendStr(b, id.Table)
	b = appendStr(b, id.Game)
	return sha256.Sum256(b)
}

// Entry is one journal entry as the chain covers it. At is the time exactly
// as the journal stores it (RFC 3339, UTC, nanoseconds without trailing
// zeros); Body and Events are JSON.
type Entry struct {
	Seq    int64
	At     string
	Kind   string
	Game   string
	Body   []byte
	Events []byte
}

// EntryHash is the entry's hash given the previous one: SHA-256 over its
// canonical bytes,
//
//	"sztab/journal-entry/v1\n" u64(seq) str(at) str(kind) str(game)
//	str(compact(body)) str(compact(events)) prev
//
// where u64 is 8 bytes big-endian, str(s) is s's length as 4 bytes
// big-endian then its bytes, compact(j) is the JSON text j without its
// insignificant white space (RFC 8259; strings and numbers byte for byte
// as written), and prev is the previous entry's hash (32 bytes; for the
// first entry the identity's Genesis). A body or events that is not JSON
// has no hash.
func EntryHash(e Entry, prev Hash) (Hash, error) {
	b := make([]byte, 0, len(entryTag)+8+5*4+len(e.At)+len(e.Kind)+len(e.Game)+len(e.Body)+len(e.Events)+len(prev))
	b = append(b, entryTag...)
	b = binary.BigEndian.AppendUint64(b, uint64(e.Seq))
	b = appendStr(b, e.At)
	b = appendStr(b, e.Kind)
	b = appendStr(b, e.Game)
	var err error
	if b, err = appendJSON(b, e.Body); err != nil {
		return Hash{}, fmt.Errorf("body: %w", err)
	}
	if b, err = appendJSON(b, e.Events); err != nil {
		return Hash{}, fmt.Errorf("events: %w", err)
	}
	b = append(b, prev[:]...)
	return sha256.Sum256(b), nil
}

func appendStr(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

// appendJSON appends str(compact(j)).
func appendJSON(b, j []byte) ([]byte, error) {
	at := len(b)
	b = append(b, 0, 0, 0, 0)
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, j); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	b = buf.Bytes()
	binary.BigEndian.PutUint32(b[at:], uint32(len(b)-at-4))
	return b, nil
}

// Compact is j without its insignificant white space, as the chain hashes
// it (and as an exported record carries it).
func Compact(j []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, j); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Why an entry breaks the chain.
const (
	// ReasonHash: the entry's bytes do not give the hash it carries (it
	// was changed after it was written).
	ReasonHash = "hash mismatch"
	// ReasonMissing: the entry before it is missing (deleted), or it is
	// not numbered after the one before.
	ReasonMissing = "missing seq"
	// ReasonLink: the previous hash it names is not the previous entry's
	// hash (an entry before it was changed, replaced or reordered).
	ReasonLink = "bad previous link"
	// ReasonUnreadable: its body or events are not JSON, or its hashes not
	// hashes.
	ReasonUnreadable = "unreadable"
)

// ErrBroken is what every BreakError wraps, for errors.Is.
var ErrBroken = errors.New("the chain is broken")

// BreakError names the first entry that does not match and why.
type BreakError struct {
	Seq    int64
	Reason string
	Detail string
}

func (e *BreakError) Error() string {
	s := fmt.Sprintf("entry %d: %s", e.Seq, e.Reason)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e *BreakError) Unwrap() error { return ErrBroken }

// Chain checks entries in order, one at a time: linear in the entries,
// holding only the last hash.
type Chain struct {
	id      Identity
	last    Hash
	lastSeq int64
	n       int64
}

// NewChain starts a check of the chain of the journal id.
func NewChain(id Identity) *Chain { return &Chain{id: id, last: id.Genesis()} }

// Next checks the next entry, given the previous and own hash it carries
// (hex), and returns its hash. The first failure is a *BreakError.
func (c *Chain) Next(e Entry, prev, hash string) (Hash, error) {
	brk := func(reason, detail string, args ...any) (Hash, error) {
		return Hash{}, &BreakError{Seq: e.Seq, Reason: reason, Detail: fmt.Sprintf(detail, args...)}
	}
	if e.Seq != c.lastSeq+1 {
		if e.Seq > c.lastSeq+1 {
			if c.lastSeq+1 == e.Seq-1 {
				return brk(ReasonMissing, "entry %d is not there", c.lastSeq+1)
			}
			return brk(ReasonMissing, "entries %d to %d are not there", c.lastSeq+1, e.Seq-1)
		}
		return brk(ReasonMissing, "numbered after entry %d", c.lastSeq)
	}
	p, err := ParseHash(prev)
	if err != nil {
		return brk(ReasonUnreadable, "previous hash: %v", err)
	}
	h, err := ParseHash(hash)
	if err != nil {
		return brk(ReasonUnreadable, "hash: %v", err)
	}
	if p != c.last {
		what := "entry " + fmt.Sprint(c.lastSeq) + "'s hash"
		if c.lastSeq == 0 {
			what = "the journal identity's hash (" + c.id.String() + ")"
		}
		return brk(ReasonLink, "it names %s as the previous hash, %s is %s", short(p), what, short(c.last))
	}
	got, err := EntryHash(e, p)
	if err != nil {
		return brk(ReasonUnreadable, "%v", err)
	}
	if got != h {
		return brk(ReasonHash, "its bytes hash to %s, it carries %s (changed after it was written)", short(got), short(h))
	}
	c.last, c.lastSeq = h, e.Seq
	c.n++
	return h, nil
}

// Last is the last entry's hash (the identity's Genesis before any).
func (c *Chain) Last() Hash { return c.last }

// LastSeq is the last entry's seq (0 before any).
func (c *Chain) LastSeq() int64 { return c.lastSeq }

// Entries is how many entries were checked.
func (c *Chain) Entries() int64 { return c.n }

// short is a hash's first 12 hex digits, for messages.
func short(h Hash) string { return h.String()[:12] + "…" }

// clip cuts outside input quoted in a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
