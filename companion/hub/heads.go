package hub

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"time"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/atomicfile"
)

// Heads is the hub's record of the journal heads the tables published in
// their status (wire.ChainHead), as Options.Heads keeps it on disk: per
// table, the furthest head seen of each of its journals. `sztab verify
// --journal J --heads FILE` checks a journal against it: a journal cut
// short since is short of the head kept here.
type Heads struct {
	Venue  string                `json:"venue"`
	Tables map[string][]HeadSeen `json:"tables"`
}

// HeadSeen is the furthest head the hub saw of one journal of a table.
type HeadSeen struct {
	wire.ChainHead
	// Seen is when the hub last heard this head; Instance is the daemon's
	// run that published it.
	Seen     time.Time `json:"seen"`
	Instance string    `json:"instance,omitempty"`
	// WentBack is the last lower head of the same journal the hub heard
	// after this one: the journal lost entries from its end (a cut tail),
	// or a broker node gave back an old retained status.
	WentBack *Back `json:"went_back,omitempty"`
}

// Back is a head that went back.
type Back struct {
	Seq      int64     `json:"seq"`
	Seen     time.Time `json:"seen"`
	Instance string    `json:"instance,omitempty"`
}

// headsPerTable is how many journals of one table the record keeps (the
// most recently heard).
const headsPerTable = 16

// ReadHeads reads a heads file (Options.Heads).
func ReadHeads(path string) (*Heads, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("hub: heads file: %w", err)
	}
	var h Heads
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("hub: heads file %s: %w", path, err)
	}
	if h.Venue == "" {
		return nil, fmt.Errorf("hub: heads file %s names no venue", path)
	}
	if h.Tables == nil {
		h.Tables = map[string][]HeadSeen{}
	}
	return &h, nil
}

// loadHeads reads the record an earlier run of the hub left, if any.
func (h *Hub) loadHeads() error {
	h.heads = &Heads{Venue: h.opts.Venue, Tables: map[string][]HeadSeen{}}
	if h.opts.Heads == "" {
		return nil
	}
	old, err := ReadHeads(h.opts.Heads)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case old.Venue != h.opts.Venue:
		return fmt.Errorf("hub: heads file %s is venue %q's, this hub follows %q", h.opts.Heads, old.Venue, h.opts.Venue)
	}
	h.heads = old
	return nil
}

// recordHead keeps a head a table published (h.mu held).
func (h *Hub) recordHead(table, instance string, head wire.ChainHead) {
	now := h.opts.Clock().UTC()
	seen := h.heads.Tables[table]
	for i := range seen {
		s := &seen[i]
		if s.Journal != head.Journal {
			continue
		}
		switch {
		case head.Seq > s.Seq || (head.Seq == s.Seq && head.Mark == s.Mark):
			s.ChainHead, s.Seen, s.Instance = head, now, instance
		case head.Seq == s.Seq:
			// The same entry with another mark: the journal was rewritten.
			h.opts.Log.Warn("hub: a table published another entry at a seq it published before (its journal was rewritten?)",
				"table", table, "journal", head.Journal, "seq", head.Seq, "mark", head.Mark, "kept_mark", s.Mark)
			s.WentBack = &Back{Seq: head.Seq, Seen: now, Instance: instance}
		default:
			h.opts.Log.Warn("hub: a table's journal went back (entries cut from its end?); the furthest head is kept",
				"table", table, "journal", head.Journal, "seq", head.Seq, "kept_seq", s.Seq)
			s.WentBack = &Back{Seq: head.Seq, Seen: now, Instance: instance}
		}
		h.headsDirty = true
		return
	}
	seen = append(seen, HeadSeen{ChainHead: head, Seen: now, Instance: instance})
	if len(seen) > headsPerTable {
		sort.SliceStable(seen, func(i, j int) bool { return seen[i].Seen.After(seen[j].Seen) })
		seen = seen[:headsPerTable]
	}
	h.heads.Tables[table] = seen
	h.headsDirty = true
}

// Heads returns a copy of the heads the hub kept.
func (h *Hub) Heads() Heads {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := Heads{Venue: h.heads.Venue, Tables: map[string][]HeadSeen{}}
	for t, s := range h.heads.Tables {
		out.Tables[t] = append([]HeadSeen(nil), s...)
	}
	return out
}

// saveHeads writes the record to Options.Heads if it changed, whole or not
// at all.
func (h *Hub) saveHeads() {
	if h.opts.Heads == "" {
		return
	}
	h.mu.Lock()
	if !h.headsDirty {
		h.mu.Unlock()
		return
	}
	h.headsDirty = false
	data, err := json.MarshalIndent(h.heads, "", "  ")
	h.mu.Unlock()
	if err == nil {
		err = atomicfile.Write(h.opts.Heads, append(data, '\n'), 0o600)
	}
	if err != nil {
		h.mu.Lock()
		h.headsDirty = true
		h.mu.Unlock()
		h.opts.Log.Error("hub: heads file not written", "path", h.opts.Heads, "err", err)
	}
}
