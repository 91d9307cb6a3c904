package companion

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/vision"
)

// EvidenceType is the type of the evidence element of an entry's events.
//
// Every journal entry that came from an input (a tag, a key or command, a
// camera snapshot) keeps what the sensors saw as the last element of its
// events, {"type": "evidence", …}. So the evidence is in the hash chain
// (the chain hashes the events) without changing the chain's encoding,
// and a journal made before evidence was kept reads and replays as it did.
// The evidence is the referee's: it is never published (journalEvents
// leaves it out, and the live publication never had it), and it goes into
// an export's record.jsonl with its entry.
const EvidenceType = "evidence"

// Evidence is what the sensors saw for one journal entry.
type Evidence struct {
	Type string `json:"type"`
	// Input is the kind of input the entry came from: "tag", "key" (a key
	// of the table's keypads, or a command from a page, the watch or MQTT)
	// or "snapshot" (the camera).
	Input    string        `json:"input"`
	Tag      *TagSeen      `json:"tag,omitempty"`
	Key      *KeySeen      `json:"key,omitempty"`
	Dice     []dice.Roll   `json:"dice,omitempty"`
	Snapshot *SnapshotSeen `json:"snapshot,omitempty"`
	// Image is the annotated camera image of Snapshot, stored beside the
	// journal under its SHA-256 (see EvidenceStore); its hash is here, so
	// in the chain.
	Image *ImageRef `json:"image,omitempty"`
}

// TagSeen is a tag as its reader read it, and what the registry says it is.
type TagSeen struct {
	Reader  string `json:"reader"`
	UID     string `json:"uid"`
	Present bool   `json:"present"`
	Data    string `json:"data,omitempty"`
	Kind    string `json:"kind,omitempty"`
	ID      string `json:"id,omitempty"`
}

// KeySeen is a key or a command, and who sent it.
type KeySeen struct {
	Keypad string   `json:"keypad"`
	Key    string   `json:"key"`
	Long   bool     `json:"long,omitempty"`
	Args   []string `json:"args,omitempty"`
	// From is the audience of the sender (public for the table's keys,
	// referee, player/N); ID the command's id, when it had one.
	From string `json:"from,omitempty"`
	ID   string `json:"id,omitempty"`
}

// SnapshotSeen is the camera's snapshot an entry used: the snapshot that
// was the input, or the last one the table had seen when a tag or a key
// was the input (the game binds those against it).
//
// Size bound: the whole snapshot is kept when its JSON is at most
// MaxSnapshotEvidence bytes. A bigger one keeps only the models involved
// (those whose id or unit the entry's body names, and the distances and
// piece counts between or on what it names), and if that is still too
// big, as many of those as fit; Total says how many models the snapshot
// had and Only why some were left out ("involved", "bound").
type SnapshotSeen struct {
	// Seq is the camera's snapshot number; Current says it was this
	// entry's input (not an earlier one).
	Seq           int                    `json:"seq"`
	Current       bool                   `json:"current,omitempty"`
	Time          time.Time              `json:"time,omitzero"`
	CalibrationMM float64                `json:"calibration_mm,omitempty"`
	KrokMM        float64                `json:"krok_mm,omitempty"`
	Models        []vision.ModelPosition `json:"models"`
	Total         int                    `json:"models_total"`
	Only          string                 `json:"only,omitempty"`
	Missing       []string               `json:"missing,omitempty"`
	Removed       []string               `json:"removed,omitempty"`
	Distances     []vision.PairDistance  `json:"distances,omitempty"`
	Pieces        []vision.PieceCount    `json:"pieces,omitempty"`
	Warnings      []string               `json:"warnings,omitempty"`
	// Tray is the dice tray's settled reading, the throw a camera roll
	// came from.
	Tray *vision.Tray `json:"tray,omitempty"`
}

// MaxSnapshotEvidence is the most bytes of snapshot JSON one entry keeps
// (see SnapshotSeen). 8 KiB holds about 60 models with their
// uncertainties: a whole skirmish table; a bigger table keeps what the
// entry involved.
const MaxSnapshotEvidence = 8 << 10

// ImageRef names a stored image: its SHA-256 (hex), size and type.
type ImageRef struct {
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
	Type   string `json:"type"`
}

// evidenceOf starts the evidence of an input.
func evidenceOf(in Input) Evidence {
	var ev Evidence
	ev.Type = EvidenceType
	switch {
	case in.Tag != nil:
		ev.Input = "tag"
		ev.Tag = &TagSeen{Reader: in.Tag.Reader, UID: in.Tag.UID, Present: in.Tag.Present, Data: in.Tag.Data}
		if in.TagInfo != nil {
			ev.Tag.Kind, ev.Tag.ID = in.TagInfo.Kind, in.TagInfo.ID
		}
	case in.Key != nil:
		ev.Input = "key"
		ev.Key = &KeySeen{Keypad: in.Key.Keypad, Key: in.Key.Key, Long: in.Key.Long, Args: in.Args, ID: in.From.ID}
		if ev.Key.Args == nil {
			ev.Key.Args = in.Key.Args
		}
		if in.From.Audience != "" {
			ev.Key.From = string(in.From.Audience)
		} else if in.From.Kind == wire.Keys {
			ev.Key.From = string(wire.Public)
		}
	case in.Snapshot != nil:
		ev.Input = "snapshot"
	}
	return ev
}

// snapshotSeen keeps what of s an entry with the given body needs, within
// MaxSnapshotEvidence.
func snapshotSeen(s *vision.Snapshot, current bool, body []byte) *SnapshotSeen {
	out := &SnapshotSeen{Seq: s.Seq, Current: current, Time: s.Time, CalibrationMM: s.CalibrationMM, KrokMM: s.KrokMM,
		Models: s.Models, Total: len(s.Models), Missing: s.Missing, Removed: s.Removed,
		Distances: s.Distances, Pieces: s.Pieces, Warnings: s.Warnings, Tray: s.Tray}
	if out.Models == nil {
		out.Models = []vision.ModelPosition{}
	}
	if fits(out) {
		return out
	}
	// Only what the entry names: a model by its id or unit, a piece count
	// by its node, a distance when both ends are named.
	names := map[string]bool{}
	collectStrings(body, names)
	keep := func(id, unit string) bool { return names[id] || (unit != "" && names[unit]) }
	out.Only = "involved"
	out.Models = slices.DeleteFunc(slices.Clone(out.Models), func(m vision.ModelPosition) bool { return !keep(m.ID, m.Unit) })
	out.Distances = slices.DeleteFunc(slices.Clone(out.Distances), func(d vision.PairDistance) bool { return !names[d.A] || !names[d.B] })
	out.Pieces = slices.DeleteFunc(slices.Clone(out.Pieces), func(p vision.PieceCount) bool { return !names[p.Node] })
	out.Missing = slices.DeleteFunc(slices.Clone(out.Missing), func(id string) bool { return !names[id] })
	out.Removed = slices.DeleteFunc(slices.Clone(out.Removed), func(id string) bool { return !names[id] })
	for !fits(out) {
		out.Only = "bound"
		switch {
		case len(out.Distances) > 0:
			out.Distances = out.Distances[:len(out.Distances)-1]
		case len(out.Pieces) > 0:
			out.Pieces = out.Pieces[:len(out.Pieces)-1]
		case len(out.Models) > 0:
			out.Models = out.Models[:len(out.Models)-1]
		default:
			out.Missing, out.Removed, out.Warnings, out.Tray = nil, nil, nil, nil
			return out
		}
	}
	return out
}

func fits(s *SnapshotSeen) bool {
	b, err := json.Marshal(s)
	return err == nil && len(b) <= MaxSnapshotEvidence
}

// collectStrings adds every string in a JSON document (values and keys) to
// names.
func collectStrings(doc []byte, names map[string]bool) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		if s, ok := tok.(string); ok && s != "" {
			names[s] = true
		}
	}
}

// withEvidence appends ev to an entry's events (a JSON array).
func withEvidence(events []byte, ev *Evidence) ([]byte, error) {
	if ev == nil {
		return events, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(events, &list); err != nil {
		return nil, fmt.Errorf("companion: events: %w", err)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("companion: evidence: %w", err)
	}
	return json.Marshal(append(list, b))
}

// SplitEvidence reads an entry's events: the events as published, and the
// evidence, if the entry has one (nil for an entry made without, or
// before evidence was kept). Evidence that is not an Evidence is an error
// naming what is wrong; the events are returned all the same.
func SplitEvidence(events []byte) ([]json.RawMessage, *Evidence, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(events, &list); err != nil {
		return nil, nil, fmt.Errorf("companion: events: %w", err)
	}
	if len(list) == 0 {
		return list, nil, nil
	}
	last := list[len(list)-1]
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(last, &head) != nil || head.Type != EvidenceType {
		return list, nil, nil
	}
	list = list[:len(list)-1]
	// Fields this Sztab does not know (a later one's) are left: the rest
	// reads.
	var ev Evidence
	if err := json.Unmarshal(last, &ev); err != nil {
		return list, nil, fmt.Errorf("companion: evidence: %w", err)
	}
	if ev.Image != nil {
		if _, err := parseSHA(ev.Image.SHA256); err != nil {
			return list, nil, fmt.Errorf("companion: evidence: image: %w", err)
		}
	}
	return list, &ev, nil
}
