package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/fuzzseed"
	"github.com/sztab/sztab/vision"
)

// played is everything a script hands its sink, in order.
type played struct{ events []any }

func (p *played) Tag(e hardware.TagEvent)    { p.events = append(p.events, e) }
func (p *played) Key(e hardware.KeyEvent)    { p.events = append(p.events, e) }
func (p *played) Snapshot(s vision.Snapshot) { p.events = append(p.events, s) }

func play(t *testing.T, s *Script) []any {
	t.Helper()
	var p played
	if err := (Player{Speed: 0}).Play(context.Background(), s, &p); err != nil {
		t.Fatalf("Play: %v", err)
	}
	return p.events
}

// FuzzParse: a simulated-table script parses or is refused with its line.
// A parsed script is well formed (one thing a step, UIDs normalised, an
// untag a removal), plays to its end at speed 0 with one event per tag,
// untag, key and snapshot step, and written back out step by step it
// parses and plays the same.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzseed.Files(f, "../../firmware-config/demo/*.jsonl") {
		f.Add(s)
	}
	for _, d := range fuzzseed.JSON("say") {
		f.Add(d)
	}
	for _, d := range fuzzseed.JSON("key") {
		f.Add(d)
	}
	f.Add([]byte(`{"wait": "-1s"}` + "\n" + `{"wait": "9999999999h"}`))
	f.Add([]byte(`{"tag": {"reader": "r1", "uid": "04:a1:b2:c3", "present": false}}`))
	f.Add([]byte(`{"untag": {"reader": "r1", "uid": "04a1b2c3", "present": true}}`))
	f.Add([]byte(`{"key": {"keypad": "", "key": "next", "long": true}}`))
	f.Add([]byte(`{"key": 3}`))
	f.Add([]byte(`{"snapshot": {"seq": -1, "models": [{"id": "a", "x_mm": 1e308, "y_mm": -1e308}]}}`))
	f.Add([]byte(`{"snapshot": null}`))
	f.Add([]byte(`{"snapshot": {"models": [], "terrain": [{"id": "w", "kind": "heavy", "outline": [[0, 0], [10, 0], [10, 5]], "sigma_mm": 1}], "markers": [{"kind": "template", "x_mm": 3, "y_mm": 4, "diameter_mm": 76}, {"kind": "objective", "x_mm": 1, "y_mm": 1}]}}`))
	f.Add([]byte(`{"snapshot": {"terrain": [{"kind": "yellow", "outline": [[0, 0]]}], "markers": [{"kind": "template", "diameter_mm": -1, "confidence": 7}]}}`))
	f.Add([]byte("{\"say\": \"x\"}\r\n# comment\n\n" + strings.Repeat(" ", 1<<20) + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.jsonl", data)
		if err != nil {
			if s != nil {
				t.Fatalf("a script and an error: %v", err)
			}
			if !strings.HasPrefix(err.Error(), "sim: fuzz.jsonl") {
				t.Fatalf("the error does not name the script: %v", err)
			}
			return
		}
		sinkSteps := 0
		for _, st := range s.Steps {
			set := 0
			for _, b := range []bool{st.Say != "", st.Wait != "", st.Tag != nil, st.Untag != nil, len(st.Key) > 0, st.Snapshot != nil} {
				if b {
					set++
				}
			}
			if set != 1 {
				t.Fatalf("line %d does %d things", st.line, set)
			}
			if st.wait < 0 {
				t.Fatalf("line %d waits %v", st.line, st.wait)
			}
			for _, e := range []*hardware.TagEvent{st.Tag, st.Untag} {
				if e == nil {
					continue
				}
				if u, err := hardware.NormalizeUID(e.UID); err != nil || u != e.UID || e.Reader == "" {
					t.Fatalf("line %d: tag %+v is not normalised (%v)", st.line, e, err)
				}
			}
			if st.Tag != nil && !st.Tag.Present {
				t.Fatalf("line %d: a tag step that is not a card placed", st.line)
			}
			if st.Untag != nil && st.Untag.Present {
				t.Fatalf("line %d: an untag step that places a card", st.line)
			}
			if len(st.Key) > 0 && (st.key.Key == "" || st.key.Keypad == "") {
				t.Fatalf("line %d: key %+v", st.line, st.key)
			}
			if st.Say == "" && st.Wait == "" {
				sinkSteps++
			}
		}
		events := play(t, s)
		if len(events) != sinkSteps {
			t.Fatalf("%d events from %d steps", len(events), sinkSteps)
		}
		var out bytes.Buffer
		for _, st := range s.Steps {
			line, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			out.Write(line)
			out.WriteByte('\n')
		}
		s2, err := Parse("again.jsonl", out.Bytes())
		if err != nil {
			t.Fatalf("the script written back does not parse: %v\n%s", err, out.Bytes())
		}
		if again := play(t, s2); !reflect.DeepEqual(again, events) {
			t.Fatalf("the script written back plays differently:\n got  %+v\n want %+v", again, events)
		}
	})
}
