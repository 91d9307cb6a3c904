// Package review shows a journal as the referee reviews it: the game's
// state at any entry, what the sensors saw for that entry (its evidence and
// the table's picture of the moment) and the rulings and corrections made
// up to it. It only reads the journal, without its lock: it may run beside
// the daemon playing on it.
package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// Moment is the game at one journal entry.
type Moment struct {
	// Seq is the entry; First and Last the journal's first and last seq
	// (as checked when it was opened).
	Seq, First, Last int64
	At               time.Time
	Kind             string
	Hash             string
	Body             json.RawMessage
	// Events are the entry's events as published; Evidence what the
	// sensors saw (nil: none recorded, as in entries made before evidence
	// was kept, or entries no input made). EvidenceError says why evidence
	// that is there could not be read (Raw holds the events then).
	Events        []json.RawMessage
	Evidence      *companion.Evidence
	EvidenceError string          `json:",omitempty"`
	Raw           json.RawMessage `json:",omitempty"`
	// Image is what became of the evidence's image: "present", "pruned",
	// "missing" or why its file is not that image ("" without one).
	Image string
	// The state after the entry: the game's headline and its summary for
	// the referee, whether it is over, and who plays.
	Headline rules.Text
	Summary  []rules.Text
	Finished bool
	Players  []companion.RecordPlayer
	// Rulings are the entries through Seq of kinds other than actions and
	// notices (the referee's rulings, corrections, undos, flagged
	// breaches), shown as they are: a kind this Sztab does not know is
	// shown raw.
	Rulings []Ruling
}

// Ruling is an entry of a kind other than an action or a notice.
type Ruling struct {
	Seq  int64
	At   time.Time
	Kind string
	Body json.RawMessage
}

// Reviewer answers moments of one journal; it is safe for concurrent use.
type Reviewer struct {
	j     *companion.Journal
	build func() (companion.Game, error)
	table string
	dice  dice.WatchConfig

	mu    sync.Mutex
	cache map[int64]*Moment
	order []int64
}

// New is a reviewer of the journal j (opened with companion.ReadJournal);
// build makes a fresh game of the journal's game (GameSpec.New), one for
// every replay.
func New(j *companion.Journal, build func() (companion.Game, error), cfg dice.WatchConfig) *Reviewer {
	return &Reviewer{j: j, build: build, table: j.Identity().Table, dice: cfg, cache: map[int64]*Moment{}}
}

// Journal is the journal reviewed.
func (r *Reviewer) Journal() *companion.Journal { return r.j }

// Last is the last entry the journal held when it was opened and checked.
func (r *Reviewer) Last() int64 { return r.j.Chain().LastSeq }

// cacheSize is how many moments a reviewer keeps (each replay reads the
// journal from its start: stepping back and forth is answered from here).
const cacheSize = 64

// At is the moment of entry seq: the state through seq is the journal
// replayed through the game's adapter as far as seq (companion.ReplayJournal,
// as the daemon and the export do).
func (r *Reviewer) At(ctx context.Context, seq int64) (*Moment, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m, ok := r.cache[seq]; ok {
		return m, nil
	}
	last := r.Last()
	if seq < 1 || seq > last {
		return nil, fmt.Errorf("review: no entry %d: the journal holds entries 1 to %d", seq, last)
	}
	g, err := r.build()
	if err != nil {
		return nil, fmt.Errorf("review: building the game: %w", err)
	}
	gr, err := companion.ReplayJournal(ctx, r.j, g, r.table, r.dice, seq)
	if err != nil {
		return nil, fmt.Errorf("review: %w", err)
	}
	m := &Moment{Seq: seq, First: 1, Last: last, Headline: gr.Result, Finished: gr.Finished, Players: gr.Players, Summary: gr.Standing}
	if s, ok := g.(companion.Summarizer); ok {
		m.Summary = s.Summary(companion.Viewer{Role: companion.RoleReferee})
	}
	err = r.j.Entries(ctx, 0, func(e companion.Entry) error {
		if e.Seq > seq {
			return errDone
		}
		switch e.Kind {
		case companion.KindAction, companion.KindNotice:
		default:
			m.Rulings = append(m.Rulings, Ruling{Seq: e.Seq, At: e.At, Kind: e.Kind, Body: e.Body})
		}
		if e.Seq == seq {
			m.At, m.Kind, m.Hash, m.Body = e.At, e.Kind, e.Hash, e.Body
			events, ev, err := companion.SplitEvidence(e.Events)
			m.Events, m.Evidence = events, ev
			if err != nil {
				m.EvidenceError, m.Raw = err.Error(), e.Events
			}
			if ev != nil && ev.Image != nil {
				m.Image = companion.ImageState(r.j.Path(), ev.Image.SHA256)
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errDone) {
		return nil, fmt.Errorf("review: %w", err)
	}
	if len(r.order) == cacheSize {
		delete(r.cache, r.order[0])
		r.order = r.order[1:]
	}
	r.cache[seq] = m
	r.order = append(r.order, seq)
	return m, nil
}

var errDone = errors.New("done")

// ParseSeq reads an entry's number as given on the command line or in a
// page's address: a number from 1 to last, "first" or "last".
func ParseSeq(s string, last int64) (int64, error) {
	switch strings.TrimSpace(s) {
	case "last":
		if last < 1 {
			return 0, errors.New("review: the journal holds no entry")
		}
		return last, nil
	case "first":
		if last < 1 {
			return 0, errors.New("review: the journal holds no entry")
		}
		return 1, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("review: entry %q: give a number from 1 to %d, first or last", s, last)
	}
	if n < 1 || n > last {
		return 0, fmt.Errorf("review: entry %d: the journal holds entries 1 to %d", n, last)
	}
	return n, nil
}
