// Package sim is a simulated table for demos and tests: a script of card
// scans, key presses, camera snapshots and pauses, played in order. It
// never stands in for the real drivers; it feeds the same events.
package sim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/vision"
)

// Sink receives what the simulated table produces.
type Sink interface {
	Tag(hardware.TagEvent)
	Key(hardware.KeyEvent)
	Snapshot(vision.Snapshot)
}

// Step is one line of a script. Exactly one field is set.
//
//	{"say": "Ania scans her unit card"}          narration, logged
//	{"wait": "1.5s"}                              a pause
//	{"tag": {"reader": "r1", "uid": "04A1B2C3"}}  a card placed on a reader
//	{"untag": {"reader": "r1", "uid": "04A1B2C3"}} the card taken off
//	{"key": "3"}  or  {"key": {"keypad": "k1", "key": "undo"}}
//	{"key": {"key": "step", "args": ["red-1", "past"]}}  a command with arguments
//	{"snapshot": {"models": [...]}}               what the camera sees
//	{"snapshot": {"models": [...], "terrain": [{"id": "w1", "kind": "heavy",
//	  "outline": [[x, y], ...], "sigma_mm": 1}], "markers": [{"kind":
//	  "template", "x_mm": 300, "y_mm": 400, "diameter_mm": 76}]}}
//	                                              with cover and markers
type Step struct {
	Say      string             `json:"say,omitempty"`
	Wait     string             `json:"wait,omitempty"`
	Tag      *hardware.TagEvent `json:"tag,omitempty"`
	Untag    *hardware.TagEvent `json:"untag,omitempty"`
	Key      json.RawMessage    `json:"key,omitempty"`
	Snapshot *vision.Snapshot   `json:"snapshot,omitempty"`

	line int
	wait time.Duration
	key  hardware.KeyEvent
}

// Script is a parsed script.
type Script struct {
	Name  string
	Steps []Step
}

// Load reads a script file (JSON Lines; blank lines and lines starting with
// # are skipped).
func Load(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	return Parse(path, data)
}

// Parse reads a script; errors name the file and line.
func Parse(name string, data []byte) (*Script, error) {
	s := &Script{Name: name}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var st Step
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&st); err != nil {
			return nil, fmt.Errorf("sim: %s:%d: %w", name, n, err)
		}
		st.line = n
		if err := st.check(); err != nil {
			return nil, fmt.Errorf("sim: %s:%d: %w", name, n, err)
		}
		s.Steps = append(s.Steps, st)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("sim: %s: %w", name, err)
	}
	return s, nil
}

func (st *Step) check() error {
	set := 0
	if st.Say != "" {
		set++
	}
	if st.Wait != "" {
		set++
		d, err := time.ParseDuration(st.Wait)
		if err != nil || d < 0 {
			return fmt.Errorf("wait %q is not a duration like 500ms or 2s", st.Wait)
		}
		st.wait = d
	}
	for _, t := range []*hardware.TagEvent{st.Tag, st.Untag} {
		if t == nil {
			continue
		}
		set++
		uid, err := hardware.NormalizeUID(t.UID)
		if err != nil {
			return err
		}
		if t.Reader == "" {
			return fmt.Errorf("tag %s: no reader named", uid)
		}
		t.UID = uid
	}
	if st.Tag != nil {
		st.Tag.Present = true
	}
	if st.Untag != nil {
		st.Untag.Present = false // "present": true in an untag step places no card
	}
	if len(st.Key) > 0 {
		set++
		var k string
		if err := json.Unmarshal(st.Key, &k); err == nil {
			st.key = hardware.KeyEvent{Keypad: "keypad", Key: k}
		} else if err := json.Unmarshal(st.Key, &st.key); err != nil {
			return fmt.Errorf("key: want \"3\" or {\"keypad\": ..., \"key\": ...}: %w", err)
		}
		if st.key.Key == "" {
			return fmt.Errorf("key: no key named")
		}
		if st.key.Keypad == "" {
			st.key.Keypad = "keypad"
		}
	}
	if st.Snapshot != nil {
		set++
		// Terrain and markers are checked like the rest: a kind the
		// rules do not know or an outline that is not a polygon is an
		// error in the script, not a table the binder guesses about.
		if err := st.Snapshot.CheckTable(); err != nil {
			return err
		}
	}
	if set != 1 {
		return fmt.Errorf("a step does exactly one thing (say, wait, tag, untag, key or snapshot); this one does %d", set)
	}
	return nil
}

// Player plays a script into a sink.
type Player struct {
	// Speed scales waits: 1 plays in real time, 0 skips them.
	Speed float64
	// Narrate receives the script's narration; nil drops it.
	Narrate func(line int, text string)
}

// Play runs the script to its end or until ctx ends.
func (p Player) Play(ctx context.Context, s *Script, sink Sink) error {
	snapSeq := 0
	for _, st := range s.Steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		switch {
		case st.Say != "":
			if p.Narrate != nil {
				p.Narrate(st.line, st.Say)
			}
		case st.Wait != "":
			if d := time.Duration(float64(st.wait) * p.Speed); d > 0 {
				t := time.NewTimer(d)
				select {
				case <-ctx.Done():
					t.Stop()
					return ctx.Err()
				case <-t.C:
				}
			}
		case st.Tag != nil:
			sink.Tag(*st.Tag)
		case st.Untag != nil:
			sink.Tag(*st.Untag)
		case len(st.Key) > 0:
			sink.Key(st.key)
		case st.Snapshot != nil:
			snapSeq++
			snap := *st.Snapshot
			if snap.Seq == 0 {
				snap.Seq = snapSeq
			}
			sink.Snapshot(snap)
		}
	}
	return nil
}
