package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Format names the exported record's format, on its first line.
const Format = "sztab-record/1"

// Header is the record's first line: the format, the table and the hash
// the first entry chains to.
type Header struct {
	Format string `json:"format"`
	Identity
	Genesis string `json:"genesis"`
}

// Line is one entry of the record, one JSON object a line: the entry as
// the journal holds it (body and events compacted, as hashed), its
// previous hash and its own.
type Line struct {
	Seq    int64           `json:"seq"`
	At     string          `json:"at"`
	Kind   string          `json:"kind"`
	Game   string          `json:"game"`
	Body   json.RawMessage `json:"body"`
	Events json.RawMessage `json:"events"`
	Prev   string          `json:"prev"`
	Hash   string          `json:"hash"`
}

func (l Line) entry() Entry {
	return Entry{Seq: l.Seq, At: l.At, Kind: l.Kind, Game: l.Game, Body: l.Body, Events: l.Events}
}

// Writer writes a record, checking its chain as it goes: what it writes
// verifies.
type Writer struct {
	w     *bufio.Writer
	enc   *json.Encoder
	chain *Chain
}

// NewWriter writes the header of the record of the journal id.
func NewWriter(w io.Writer, id Identity) (*Writer, error) {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Header{Format: Format, Identity: id, Genesis: id.Genesis().String()}); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	return &Writer{w: bw, enc: enc, chain: NewChain(id)}, nil
}

// Write writes one entry; one that breaks the chain is refused.
func (w *Writer) Write(l Line) error {
	var err error
	if l.Body, err = Compact(l.Body); err != nil {
		return fmt.Errorf("record: entry %d: body: %w", l.Seq, err)
	}
	if l.Events, err = Compact(l.Events); err != nil {
		return fmt.Errorf("record: entry %d: events: %w", l.Seq, err)
	}
	if _, err := w.chain.Next(l.entry(), l.Prev, l.Hash); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	if err := w.enc.Encode(l); err != nil {
		return fmt.Errorf("record: entry %d: %w", l.Seq, err)
	}
	return nil
}

// Close flushes the record.
func (w *Writer) Close() error { return w.w.Flush() }

// Chain is the chain written so far.
func (w *Writer) Chain() *Chain { return w.chain }

// Record is a record read and verified.
type Record struct {
	Header  Header
	Entries []Line
	// Last and LastSeq are the last entry's hash and seq (the genesis
	// hash and 0 for a record without entries).
	Last    Hash
	LastSeq int64
}

// MaxLine is the longest line a record may have.
const MaxLine = 16 << 20

// ReadRecord reads an exported record and checks its chain: the header's
// format and genesis hash, then every entry in order. The first fault is
// an error naming the line (and, for a broken chain, a *BreakError naming
// the entry and the reason).
func ReadRecord(r io.Reader) (*Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	var rec Record
	var chain *Chain
	n := 0
	for sc.Scan() {
		n++
		b := sc.Bytes()
		fail := func(format string, args ...any) (*Record, error) {
			return nil, fmt.Errorf("record: line %d: %w", n, fmt.Errorf(format, args...))
		}
		if len(bytes.TrimSpace(b)) == 0 {
			return fail("empty line")
		}
		if n == 1 {
			if err := strict(b, &rec.Header); err != nil {
				return fail("header: %w", err)
			}
			h := rec.Header
			if h.Format != Format {
				return fail("format %q, want %q", clip(h.Format), Format)
			}
			if h.Venue == "" || h.Table == "" || h.Game == "" {
				return fail("incomplete identity (%s)", h.Identity)
			}
			if g := h.Identity.Genesis().String(); h.Genesis != g {
				return fail("genesis hash %q is not the hash of %s (%s)", clip(h.Genesis), h.Identity, g)
			}
			chain = NewChain(h.Identity)
			continue
		}
		var l Line
		if err := strict(b, &l); err != nil {
			return fail("%w", err)
		}
		if l.Body == nil || l.Events == nil {
			return fail("entry %d: no body or events", l.Seq)
		}
		if _, err := chain.Next(l.entry(), l.Prev, l.Hash); err != nil {
			return fail("%w", err)
		}
		rec.Entries = append(rec.Entries, l)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("record: line %d: longer than %d bytes", n+1, MaxLine)
		}
		return nil, fmt.Errorf("record: %w", err)
	}
	if chain == nil {
		return nil, errors.New("record: empty: no header line")
	}
	rec.Last, rec.LastSeq = chain.Last(), chain.LastSeq()
	return &rec, nil
}

// strict decodes one JSON object with no unknown fields and nothing after it.
func strict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}
