// How far models' bases are from an orange template marker (skirmish
// rulebook: the flamethrowers' and the mortar's "pomarańczowy znacznik",
// the grenades' "obszar pomarańczowy"): the geometry rules/skirmish
// decides "under the marker" from (skirmish.UnderTemplate). Pure Go, no
// OpenCV.

package vision

import "math"

// MarkerGap is how far one model's base is from a template marker: the
// distance between the marker's and the base's centres, the two radii,
// and the bound of two standard uncertainties of that distance.
type MarkerGap struct {
	Model          string  `json:"model"`
	CentreMM       float64 `json:"centre_mm"`
	MarkerRadiusMM float64 `json:"marker_radius_mm"`
	BaseRadiusMM   float64 `json:"base_radius_mm"`
	BoundMM        float64 `json:"bound_mm"`
}

// MarkerGaps measures each model's base against the marker.
func MarkerGaps(marker TableMarker, models []ModelPosition) []MarkerGap {
	c := markerVec(marker)
	out := make([]MarkerGap, 0, len(models))
	for _, m := range models {
		out = append(out, MarkerGap{Model: m.ID, CentreMM: c.dist(modelVec(m)),
			MarkerRadiusMM: marker.DiameterMM / 2, BaseRadiusMM: m.BaseMM / 2,
			BoundMM: 2 * math.Hypot(marker.SigmaMM, m.SigmaMM)})
	}
	return out
}

// MarkersOf lists the snapshot's markers of one kind.
func (s Snapshot) MarkersOf(kind string) []TableMarker {
	var out []TableMarker
	for _, m := range s.Markers {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}
