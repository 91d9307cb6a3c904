package vision

import (
	"math"
	"sort"
	"time"

	"github.com/sztab/sztab/vision/geom"
)

// tracker turns per-frame observations into snapshots: one when the table
// has been still for stillFrames frames and something changed since the
// last one. Models that go unseen keep their last known position, marked
// occluded, until forgetAfter.
type tracker struct {
	stillMM     float64
	stillFrames int
	forgetAfter time.Duration

	anchor  map[int]Observation // the first frame of the current still run
	window  []map[int]Observation
	run     int  // frames in the current still run
	emitted bool // a snapshot was emitted (or not needed) in this run

	last     *Snapshot
	known    map[int]ModelPosition // every model in the last snapshot
	lastSeen map[int]time.Time
	seq      int
}

func newTracker(stillMM float64, stillFrames int, forgetAfter time.Duration) *tracker {
	return &tracker{stillMM: stillMM, stillFrames: stillFrames, forgetAfter: forgetAfter,
		known: map[int]ModelPosition{}, lastSeen: map[int]time.Time{}}
}

// observe takes one frame's observations; a snapshot is returned when one
// is due. moving says the image itself changed since the last frame (a
// hand passing over the table): the table is not still then.
func (t *tracker) observe(obs []Observation, at time.Time, moving bool) (Snapshot, bool) {
	cur := make(map[int]Observation, len(obs))
	for _, o := range obs {
		cur[o.Model.Marker] = o
		t.lastSeen[o.Model.Marker] = at
	}
	if moving || !t.stillSince(cur, at) {
		t.anchor, t.window, t.run, t.emitted = cur, t.window[:0], 0, false
	}
	t.run++
	t.window = append(t.window, cur)
	if len(t.window) > t.stillFrames {
		t.window = t.window[1:]
	}
	if t.run < t.stillFrames {
		return Snapshot{}, false
	}
	if t.emitted && !t.forgetDue(at) {
		return Snapshot{}, false
	}
	t.emitted = true
	s := t.build(at)
	if t.last != nil && !t.differs(s) {
		return Snapshot{}, false
	}
	t.seq++
	s.Seq = t.seq
	t.last = &s
	t.known = map[int]ModelPosition{}
	for _, m := range s.Models {
		t.known[m.Marker] = m
	}
	return s, true
}

// stillSince: no marker moved more than stillMM from where it was in the
// run's first frame, none appeared, and none of that frame's has been
// missing for stillFrames frames. A marker missing for fewer frames (a
// marker at the edge of readability that flickers) breaks nothing.
func (t *tracker) stillSince(cur map[int]Observation, at time.Time) bool {
	if t.anchor == nil {
		return false
	}
	for id, o := range cur {
		a, ok := t.anchor[id]
		if !ok || a.Pos.Dist(o.Pos) > t.stillMM {
			return false
		}
	}
	for id := range t.anchor {
		if _, ok := cur[id]; ok {
			continue
		}
		missing := 0
		for i := len(t.window) - 1; i >= 0; i-- {
			if _, ok := t.window[i][id]; ok {
				break
			}
			missing++
		}
		if missing+1 >= t.stillFrames {
			return false
		}
	}
	return true
}

// forgetDue: a model of the last snapshot has now been unseen for too long.
func (t *tracker) forgetDue(at time.Time) bool {
	if t.forgetAfter <= 0 || t.last == nil {
		return false
	}
	for _, m := range t.last.Models {
		if m.Occluded && at.Sub(t.lastSeen[m.Marker]) >= t.forgetAfter {
			return true
		}
	}
	return false
}

// build averages the still window into a snapshot: every marker seen in
// it, at its mean position over the frames it was seen in.
func (t *tracker) build(at time.Time) Snapshot {
	s := Snapshot{Time: at}
	seen := map[int]Observation{}
	for _, f := range t.window {
		for id, o := range f {
			seen[id] = o
		}
	}
	var markers []int
	for id := range seen {
		markers = append(markers, id)
	}
	sort.Ints(markers)
	for _, id := range markers {
		var sum geom.Vec2
		var sig float64
		n := 0
		for _, f := range t.window {
			if o, ok := f[id]; ok {
				sum = sum.Add(o.Pos)
				sig += o.SigmaMM
				n++
			}
		}
		o := seen[id]
		p := sum.Scale(1 / float64(n))
		s.Models = append(s.Models, modelPosition(o.Model, p, sig/float64(n), false))
	}
	cur := seen
	// models of the last snapshot not seen now
	var gone []int
	for id := range t.known {
		if _, ok := cur[id]; !ok {
			gone = append(gone, id)
		}
	}
	sort.Ints(gone)
	for _, id := range gone {
		m := t.known[id]
		if t.forgetAfter > 0 && at.Sub(t.lastSeen[id]) >= t.forgetAfter {
			s.Removed = append(s.Removed, m.ID)
			continue
		}
		m.Occluded = true
		s.Models = append(s.Models, m)
		s.Missing = append(s.Missing, m.ID)
	}
	return s
}

func modelPosition(spec *ModelSpec, p geom.Vec2, sigma float64, occluded bool) ModelPosition {
	return ModelPosition{
		ID: spec.ID, Unit: spec.Unit, Faction: spec.Faction, Marker: spec.Marker,
		X: round2(p.X), Y: round2(p.Y), BaseMM: spec.BaseMM,
		SigmaMM: round3(sigma), Occluded: occluded,
	}
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// differs: s says something the last snapshot did not (a model moved by
// more than half stillMM, appeared, went missing or came back).
func (t *tracker) differs(s Snapshot) bool {
	if len(s.Removed) > 0 || len(s.Models) != len(t.last.Models) {
		return true
	}
	prev := map[int]ModelPosition{}
	for _, m := range t.last.Models {
		prev[m.Marker] = m
	}
	for _, m := range s.Models {
		p, ok := prev[m.Marker]
		if !ok || p.Occluded != m.Occluded || math.Hypot(p.X-m.X, p.Y-m.Y) > t.stillMM/2 {
			return true
		}
	}
	return false
}
