// The models under an orange template marker (skirmish rulebook: the
// flamethrowers' and the mortar's "pomarańczowy znacznik", the grenades'
// "obszar pomarańczowy"). Pure Go, no OpenCV.
//
// Our reading: the rules file (rules/skirmish/weapons.yaml, template:)
// says every model of the target unit "under a marker" takes a hit, and
// the rulebook says no more. A base partly under the marker counts
// (TemplateTouch, the default: the orange area reaches the model); a table
// that counts only bases whose centre is under the marker sets
// TemplateCentre.

package vision

import "math"

// TemplateRule says which bases count as under a template marker.
type TemplateRule string

// Template rules.
const (
	// TemplateTouch: any part of the base under the marker counts.
	TemplateTouch TemplateRule = "touch"
	// TemplateCentre: only a base whose centre is under the marker counts.
	TemplateCentre TemplateRule = "centre"
)

// Under is what a template marker covers among some models.
type Under struct {
	Marker TableMarker `json:"marker"`
	// Models are the models surely under it; Close are the models too
	// close to the marker's edge to call (within two standard
	// uncertainties of it): the players or the referee settle them.
	Models []string `json:"models,omitempty"`
	Close  []string `json:"close,omitempty"`
}

// UnderTemplate lists the models under a template marker by the rule
// ("" is TemplateTouch).
func UnderTemplate(marker TableMarker, models []ModelPosition, rule TemplateRule) Under {
	u := Under{Marker: marker}
	c := markerVec(marker)
	for _, m := range models {
		reach := marker.DiameterMM / 2
		if rule != TemplateCentre {
			reach += m.BaseMM / 2
		}
		margin := reach - c.dist(modelVec(m))
		bound := 2 * math.Hypot(marker.SigmaMM, m.SigmaMM)
		switch {
		case margin > bound:
			u.Models = append(u.Models, m.ID)
		case margin >= -bound:
			u.Close = append(u.Close, m.ID)
		}
	}
	return u
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
