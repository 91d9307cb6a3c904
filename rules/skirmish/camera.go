// The rules decided from what the camera measures. The camera (package
// vision) reports geometry with its uncertainty: which kind of cover every
// line of fire between two bases crosses, how far a base is from a
// template marker's edge, how deep a model's straight path runs into
// terrain. The rulebook's questions are answered here: whether a unit is
// behind cover ("ponad połowa oddziału"), which models a template hits,
// whether a model jumped an obstacle. A measurement within its bound of
// changing the answer is too close to call: the answer lists it as unsure
// and the players or the referee settle it.

package skirmish

import "math"

// Sighting is one firing model's lines of fire to one target model as the
// camera measured them: the least and the most cover ("", "light" or
// "heavy") that every line crosses within the camera's uncertainty.
type Sighting struct {
	Low, High string
}

// sightingLevel orders cover: none, light, heavy.
func sightingLevel(kind string) int {
	switch kind {
	case CoverLight:
		return 1
	case CoverHeavy:
		return 2
	}
	return 0
}

// CoverFromSightings counts a target unit's models behind cover against a
// shooting unit; sightings[t][f] is target model t seen from firing model
// f. A model is behind cover only when it is behind it from every firing
// model: a model one firer sees in the clear is not "za przeszkodą". The
// counts are sure; AtMost, set when the unit's cover (coverFor, over the
// models seen) differs on the most favourable reading, counts them on that
// reading and makes the shot wait for a ruling.
func CoverFromSightings(sightings [][]Sighting) InCover {
	var sure, best CoverCount
	for _, from := range sightings {
		lo, hi := 2, 2
		if len(from) == 0 {
			lo, hi = 0, 0
		}
		for _, s := range from {
			lo, hi = min(lo, sightingLevel(s.Low)), min(hi, sightingLevel(s.High))
		}
		sure.add(lo)
		best.add(hi)
	}
	in := InCover{Light: sure.Light, Heavy: sure.Heavy}
	if coverFor(len(sightings), in) != coverFor(len(sightings), InCover{Light: best.Light, Heavy: best.Heavy}) {
		in.AtMost = &best
	}
	return in
}

func (c *CoverCount) add(level int) {
	switch level {
	case 2:
		c.Heavy++
	case 1:
		c.Light++
	}
}

// TemplateRule says which bases count as under a template marker (the
// flamethrowers' and the mortar's "pomarańczowy znacznik", the grenades'
// "obszar pomarańczowy"). The rules file says every model of the target
// unit "under a marker" takes a hit, and the rulebook says no more.
type TemplateRule string

// Template rules.
const (
	// TemplateTouch (the default): any part of the base under the marker
	// counts: the orange area reaches the model.
	TemplateTouch TemplateRule = "touch"
	// TemplateCentre: only a base whose centre is under the marker counts.
	TemplateCentre TemplateRule = "centre"
)

// MarkerGap is how far one model's base is from a template marker, as the
// camera measured it: the distance between the marker's and the base's
// centres, the two radii, and the bound of two standard uncertainties.
type MarkerGap struct {
	Model                                  string
	CentreMM, MarkerRadiusMM, BaseRadiusMM float64
	BoundMM                                float64
}

// UnderTemplate lists the models under a template marker by the rule (""
// is TemplateTouch): under surely, and unsure when the base is within the
// bound of the marker's edge.
func UnderTemplate(gaps []MarkerGap, rule TemplateRule) (under, unsure []string) {
	for _, g := range gaps {
		reach := g.MarkerRadiusMM
		if rule != TemplateCentre {
			reach += g.BaseRadiusMM
		}
		switch margin := reach - g.CentreMM; {
		case margin > g.BoundMM:
			under = append(under, g.Model)
		case margin >= -g.BoundMM:
			unsure = append(unsure, g.Model)
		}
	}
	return under, unsure
}

// Path is one model's move as the camera measured it: the straight-line
// displacement of its base centre, and how deep that straight path runs
// into terrain (negative: how far it passes from it), each with its bound.
type Path struct {
	MovedMM, MovedBoundMM float64
	DepthMM, DepthBoundMM float64
}

// Jumped says whether a model jumped an obstacle ("Jeśli model ma wykonać
// ruch przez przeszkodę, musi go przeskoczyć"): its straight path crosses
// terrain of either kind (every obstacle of SPIS PRZESZKÓD is light or
// heavy cover). Unsure: the path passes within the bound of an outline.
// A model that did not move (within the bound) did not jump, whatever it
// stands in.
func Jumped(p Path) (jumped, unsure bool) {
	if p.MovedMM <= p.MovedBoundMM {
		return false, false
	}
	if math.Abs(p.DepthMM) <= p.DepthBoundMM {
		return false, true
	}
	return p.DepthMM > 0, false
}
