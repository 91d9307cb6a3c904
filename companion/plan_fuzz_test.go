package companion

import (
	"testing"
	"time"
)

// FuzzPlan reads journal entries of the referee's kinds with any body, as
// `sztab export` does from a journal file: an entry it cannot read is an
// error naming it, never a panic, and the plan's record stays consistent.
func FuzzPlan(f *testing.F) {
	f.Add("action", `{"type":"x"}`, "undo", `{"target":1,"action":"x","by":"referee","reason":"r"}`)
	f.Add("action", `{"type":"x"}`, "correction", `{"target":1,"old":"x","new":"y","action":{"type":"y"},"by":"referee","reason":"r"}`)
	f.Add("notice", `{"type":"rejected","code":"c","refused":{"type":"x"}}`, "allowed", `{"action":{"type":"x"},"type":"x","refused":1,"breach":{"code":"c"},"codes":["c"]}`)
	f.Add("call", `{"seat":2,"by":"player/2"}`, "answer", `{"call":1,"seat":2,"by":"referee","text":"ok"}`)
	f.Add("action", `{}`, "undo", `{"target":7}`)
	f.Add("undo", `null`, "correction", `[1,2]`)
	f.Fuzz(func(t *testing.T, k1, b1, k2, b2 string) {
		p := newPlan()
		at := time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC)
		p.add(Entry{Seq: 1, At: at, Kind: k1, Body: []byte(b1)})
		p.add(Entry{Seq: 2, At: at, Kind: k2, Body: []byte(b2)})
		p.status()
		if len(p.steps) > 2 || len(p.bySeq) != len(p.steps) {
			t.Fatalf("%d steps, %d indexed from two entries", len(p.steps), len(p.bySeq))
		}
		if r := p.record; r.Corrections < 0 || r.Flags < 0 || len(r.Last) > keptNotes {
			t.Fatalf("record %+v", r)
		}
	})
}
