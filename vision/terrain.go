package vision

import "slices"

// Cover kinds (skirmish rulebook, "Modyfikator przeszkód": light cover is
// marked yellow, heavy cover green).
const (
	CoverLight = "light"
	CoverHeavy = "heavy"
)

// Terrain is a piece of cover read from the table's colours.
type Terrain struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // CoverLight or CoverHeavy
	// Outline is the piece's polygon in table millimetres, its vertices in
	// order around it.
	Outline [][2]float64 `json:"outline"`
	// SigmaMM is the standard uncertainty of the outline, per axis.
	SigmaMM float64 `json:"sigma_mm"`
	// VertexSigmaMM, when given, is the standard uncertainty at each
	// vertex of Outline, in its order (a corner that stands off the paint
	// around it is less certain than a straight edge's ends); along an edge it runs
	// linearly from one end's to the other's. SigmaMM is the largest.
	VertexSigmaMM []float64 `json:"vertex_sigma_mm,omitempty"`
	// Unseen are the places where the outline was not seen: a model's
	// base stood over the piece's edge and the camera drew the edge across
	// it. The piece may run anywhere inside an unseen disc; SigmaMM does
	// not cover the outline there.
	Unseen []UnseenDisc `json:"unseen,omitempty"`
}

// UnseenDisc is a disc of the table (mm) the camera could not see.
type UnseenDisc struct {
	X float64 `json:"x_mm"`
	Y float64 `json:"y_mm"`
	R float64 `json:"r_mm"`
}

// Table marker kinds.
const (
	MarkerTemplate  = "template"  // an orange template marker (area weapons)
	MarkerObjective = "objective" // an objective marker (scenarios 2 and 4)
)

// TableMarker is a marker on the table that is not a model's.
type TableMarker struct {
	Kind string  `json:"kind"` // MarkerTemplate or MarkerObjective
	X    float64 `json:"x_mm"`
	Y    float64 `json:"y_mm"`
	// DiameterMM is the marker's size (a template's area).
	DiameterMM float64 `json:"diameter_mm"`
	SigmaMM    float64 `json:"sigma_mm"`
	// Confidence is how sure the reading is (0–1).
	Confidence float64 `json:"confidence,omitempty"`
}

// leastSigma is the smallest σ the outline has anywhere.
func (t Terrain) leastSigma() float64 {
	if len(t.VertexSigmaMM) > 0 {
		return slices.Min(t.VertexSigmaMM)
	}
	return t.SigmaMM
}
