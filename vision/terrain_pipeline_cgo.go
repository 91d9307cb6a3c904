//go:build cgo

package vision

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
)

// terrainState is the pipeline's terrain: read once per still period
// (the stillness check says when the image changed), the last good
// reading kept through frames that cannot be read.
type terrainState struct {
	reader *terrainReader
	// stale: the image changed since the terrain was last read
	stale    bool
	terrain  []Terrain
	markers  []TableMarker
	warnings []string // the last reading's (markers half off the table, a bad frame)
	reads    int
	// memory: each piece's last outline read where nothing hid it (no
	// Unseen discs), the table's terrain as it was before the models
	// stood on it; see recall.
	memory []Terrain
}

func (t *terrainState) close() {
	if t.reader != nil {
		t.reader.Close()
		t.reader = nil
	}
}

// loadTerrain reads the terrain calibration the config names, if any.
func (p *Pipeline) loadTerrain() error {
	tr, err := p.terrainReaderFor(p.reg, p.cal)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.useTerrainReader(tr)
	p.mu.Unlock()
	return nil
}

// terrainReaderFor builds a reader for the config's terrain calibration
// (nil without one).
func (p *Pipeline) terrainReaderFor(reg *Registry, cal *Calibration) (*terrainReader, error) {
	if p.cfg.Terrain == "" {
		return nil, nil
	}
	tc, err := LoadTerrainCalibration(p.cfg.Terrain)
	if err != nil {
		return nil, err
	}
	return newTerrainReader(tc, cal, reg, p.cfg.TerrainHeightMM)
}

// useTerrainReader replaces the terrain reader (nil: none); the terrain is
// read again at the next still table. Call with p.mu held.
func (p *Pipeline) useTerrainReader(tr *terrainReader) {
	p.ter.close()
	p.ter.reader = tr
	p.ter.stale = true
	p.ter.memory = nil // another calibration: outlines are read anew
}

// UseTerrain reads terrain with tc from now on (nil: no more terrain).
func (p *Pipeline) UseTerrain(tc *TerrainCalibration) error {
	var tr *terrainReader
	if tc != nil && p.reg == nil {
		return errors.New("vision: a board-only camera reads no terrain: it has no table calibration")
	}
	if tc != nil {
		var err error
		if tr, err = newTerrainReader(tc, p.cal, p.reg, p.cfg.TerrainHeightMM); err != nil {
			return err
		}
	}
	p.mu.Lock()
	p.useTerrainReader(tr)
	p.mu.Unlock()
	return nil
}

// readTerrain reads the frame if the image changed since the last reading;
// a frame that cannot be read keeps the last good terrain and says why.
func (p *Pipeline) readTerrain(frame gocv.Mat, models []ModelPosition) {
	t := &p.ter
	if t.reader == nil || !t.stale {
		return
	}
	t.stale = false
	t.reads++
	r := t.reader.read(frame, models)
	if r.bad != "" {
		t.warnings = []string{"terrain not read, the last reading kept: " + r.bad}
		p.log.Warn("camera: terrain not read; the last reading is kept", "why", r.bad)
		return
	}
	r.terrain = recall(t.memory, r.terrain)
	r.terrain, r.warnings = keepSplit(t.terrain, r.terrain, r.warnings)
	t.terrain, t.markers, t.warnings = r.terrain, r.markers, r.warnings
	t.memory = remember(t.terrain)
}

// keepSplit: a piece of cover is never cut in two by moving it; one that
// reads as several pieces now has something standing over it (a hand, an
// arm held still over the table, a model's tall body): its last outline
// is kept instead of the parts, with a warning.
func keepSplit(old, cur []Terrain, warnings []string) ([]Terrain, []string) {
	if len(old) == 0 {
		return cur, warnings
	}
	drop := make([]bool, len(cur))
	var kept []Terrain
	for _, o := range old {
		var parts []int
		for j, c := range cur {
			if c.Kind == o.Kind && insidePolygon(o.Outline, polygonCentroid(c.Outline)) {
				parts = append(parts, j)
			}
		}
		if len(parts) < 2 {
			continue
		}
		for _, j := range parts {
			drop[j] = true
		}
		kept = append(kept, o)
		warnings = append(warnings, fmt.Sprintf("terrain %s reads as %d pieces: something over it hides part of it (a hand?); its last outline is kept", o.ID, len(parts)))
	}
	if len(kept) == 0 {
		return cur, warnings
	}
	out := kept
	for j, c := range cur {
		if !drop[j] {
			out = append(out, c)
		}
	}
	numberTerrain(out)
	return out, warnings
}

// insidePolygon is the even-odd test of p in poly.
func insidePolygon(poly [][2]float64, p geom.Vec2) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[i], poly[j]
		if (a[1] > p.Y) != (b[1] > p.Y) && p.X < (b[0]-a[0])*(p.Y-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}

// applyTerrain puts the terrain in a snapshot being finished.
func (p *Pipeline) applyTerrain(s *Snapshot, frame gocv.Mat) {
	if p.ter.reader == nil {
		return
	}
	p.readTerrain(frame, s.Models)
	s.Terrain = slices.Clone(p.ter.terrain)
	s.Markers = slices.Clone(p.ter.markers)
	s.Warnings = append(s.Warnings, p.ter.warnings...)
}

// sameTerrain: the same pieces, each of the same kind within 3 mm (or
// 3σ, the outline's least: a piece's centroid is known far better than
// its least certain corner) of where it was (centroid) and within 10% of
// its area.
func sameTerrain(a, b []Terrain) bool {
	if len(a) != len(b) {
		return false
	}
	used := make([]bool, len(b))
	for i := range a {
		ca, aa := polygonCentroid(a[i].Outline), polygonArea(a[i].Outline)
		found := false
		for j := range b {
			if used[j] || a[i].Kind != b[j].Kind {
				continue
			}
			if polygonCentroid(b[j].Outline).Dist(ca) <= math.Max(3, 3*a[i].leastSigma()) && math.Abs(polygonArea(b[j].Outline)-aa) <= 0.1*aa {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func sameMarkers(a, b []TableMarker) bool {
	if len(a) != len(b) {
		return false
	}
	used := make([]bool, len(b))
	for i := range a {
		found := false
		for j := range b {
			if !used[j] && a[i].Kind == b[j].Kind && math.Hypot(a[i].X-b[j].X, a[i].Y-b[j].Y) <= math.Max(3, 3*a[i].SigmaMM) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
