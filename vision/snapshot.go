// Snapshots and the distances between models. This file is pure geometry,
// no OpenCV: it builds and runs everywhere, with CGO_ENABLED=0.

package vision

import (
	"fmt"
	"math"
	"time"
)

// ModelPosition is one miniature found on the table.
type ModelPosition struct {
	ID   string `json:"id"`
	Unit string `json:"unit"`
	// X, Y are the base centre on the table, in millimetres from the
	// table's origin corner.
	X float64 `json:"x_mm"`
	Y float64 `json:"y_mm"`
	// BaseMM is the base diameter.
	BaseMM float64 `json:"base_mm"`
	// SigmaMM is the standard uncertainty of the centre, per axis.
	SigmaMM float64 `json:"sigma_mm"`
	// Cover is the cover the model stands behind: "", "light" or "heavy".
	Cover string `json:"cover,omitempty"`
	// Occluded is set when the model was not seen in this frame and its last
	// known position is kept.
	Occluded bool `json:"occluded,omitempty"`
	// Marker is the ArUco marker on the base; Faction comes from the
	// marker registry.
	Marker  int    `json:"marker,omitempty"`
	Faction string `json:"faction,omitempty"`
}

// Snapshot is the table as seen once it was still.
type Snapshot struct {
	Seq    int             `json:"seq"`
	Models []ModelPosition `json:"models"`
	// Time is when the frames the snapshot was read from were taken.
	Time time.Time `json:"time,omitzero"`
	// Missing are the models not seen since the last snapshot (a hand over
	// the table, say): they stay in Models at their last known position,
	// marked Occluded.
	Missing []string `json:"missing,omitempty"`
	// Removed are the models no longer on the table: unseen for longer
	// than the camera's forget_after while it was still.
	Removed []string `json:"removed,omitempty"`
	// Distances are the base-to-base distances the camera config asks for
	// (the closest models of every two units by default).
	Distances []PairDistance `json:"distances,omitempty"`
	// KrokMM is the length of a krok the kroki figures use.
	KrokMM float64 `json:"krok_mm,omitempty"`
	// CalibrationMM is the calibration's part in every position's
	// uncertainty: its leave-one-fiducial-out error, at least its RMS error
	// at the fiducials (CalibrationError.PositionMM).
	CalibrationMM float64 `json:"calibration_mm,omitempty"`
	// Image is the annotated JPEG of the snapshot, when one is written.
	Image string `json:"image,omitempty"`
	// Warnings say what the camera thinks is wrong (the camera moved, a
	// marker seen twice, …).
	Warnings []string `json:"warnings,omitempty"`
	// Pieces are the pieces counted on a printed board's named nodes or
	// zones, by colour (Mali Powstańcy's pawns on map fields, Bitwa
	// Warszawska's wooden units per front and line). A board calibration
	// gives the nodes; a simulated table gives them in its script.
	Pieces []PieceCount `json:"pieces,omitempty"`
	// Terrain is the cover on the table, read from its colours.
	Terrain []Terrain `json:"terrain,omitempty"`
	// Markers are the template and objective markers on the table.
	Markers []TableMarker `json:"markers,omitempty"`
	// Tray is the dice tray's settled reading (camera.dice_tray), when the
	// camera has one and the tray has settled since it started.
	Tray *Tray `json:"tray,omitempty"`
}

// PieceCount is how many pieces of one colour stand on one node or zone of
// a printed board, and how sure the reading is (0–1; 0: not said). Reason
// says why an unsure count is unsure (a piece between two zones, off
// every field, part of the board out of view).
type PieceCount struct {
	Node       string  `json:"node"`
	Colour     string  `json:"colour"`
	Count      int     `json:"count"`
	Confidence float64 `json:"confidence,omitempty"`
	Reason     string  `json:"reason,omitempty"`
}

// TrustedConfidence is the confidence below which a board count is not
// trusted enough to call a disagreement with the game a desync: the
// players are asked to look instead.
const TrustedConfidence = 0.8

// Unsure says whether the count was read with a confidence below
// TrustedConfidence (0 is a count that says none: trusted).
func (p PieceCount) Unsure() bool { return p.Confidence > 0 && p.Confidence < TrustedConfidence }

// Because is ": reason" when the reading says why it is unsure, else "".
func (p PieceCount) Because() string {
	if p.Reason == "" {
		return ""
	}
	return ": " + p.Reason
}

// Distance is a measured length and its uncertainty bound, in millimetres.
type Distance struct {
	MM float64 `json:"mm"`
	// BoundMM is the half-width of the interval the true value lies in
	// (two standard uncertainties, about 95%).
	BoundMM float64 `json:"bound_mm"`
}

// EdgeDistance is the base-edge to base-edge distance between two models;
// touching or overlapping bases measure 0.
func EdgeDistance(a, b ModelPosition) Distance {
	centre := math.Hypot(a.X-b.X, a.Y-b.Y)
	d := math.Max(0, centre-a.BaseMM/2-b.BaseMM/2)
	return Distance{MM: d, BoundMM: 2 * math.Hypot(a.SigmaMM, b.SigmaMM)}
}

// UnitDistance is the shortest base-to-base distance between any model of
// unit a and any model of unit b.
func (s Snapshot) UnitDistance(a, b string) (Distance, error) {
	best := Distance{MM: math.Inf(1)}
	var seenA, seenB bool
	for _, ma := range s.Models {
		if ma.Unit != a {
			continue
		}
		seenA = true
		for _, mb := range s.Models {
			if mb.Unit != b {
				continue
			}
			seenB = true
			if d := EdgeDistance(ma, mb); d.MM < best.MM {
				best = d
			}
		}
	}
	switch {
	case !seenA:
		return Distance{}, fmt.Errorf("vision: no model of unit %q in snapshot %d", a, s.Seq)
	case !seenB:
		return Distance{}, fmt.Errorf("vision: no model of unit %q in snapshot %d", b, s.Seq)
	}
	return best, nil
}

// CoverCount counts a unit's models behind light and heavy cover.
func (s Snapshot) CoverCount(unit string) (light, heavy int) {
	for _, m := range s.Models {
		if m.Unit != unit {
			continue
		}
		switch m.Cover {
		case "light":
			light++
		case "heavy":
			heavy++
		}
	}
	return light, heavy
}
