package vision

import (
	"math"
	"sort"
)

// PairDistance is the base-to-base distance between two models, or
// between the closest models of two units.
type PairDistance struct {
	// A and B are model ids, or unit names for a unit pair (then ModelA
	// and ModelB name the closest models).
	A      string `json:"a"`
	B      string `json:"b"`
	ModelA string `json:"model_a,omitempty"`
	ModelB string `json:"model_b,omitempty"`
	Distance
	Kroki      float64 `json:"kroki"`
	BoundKroki float64 `json:"bound_kroki"`
	// Occluded is set when a model measured was not seen in this snapshot
	// (its last known position was used).
	Occluded bool `json:"occluded,omitempty"`
}

// Kroki converts the distance to kroki of krokMM millimetres.
func (d Distance) Kroki(krokMM float64) (kroki, bound float64) {
	return d.MM / krokMM, d.BoundMM / krokMM
}

// Call is the answer to "is it within the limit?".
type Call string

// Calls.
const (
	// Within: the whole uncertainty interval is at or under the limit.
	Within Call = "within"
	// Beyond: the whole interval is over the limit.
	Beyond Call = "beyond"
	// TooCloseToCall: the limit falls inside the interval; the players (or
	// the referee) settle it.
	TooCloseToCall Call = "too_close_to_call"
)

// Check compares the distance with a limit (both in mm): a limit inside
// the uncertainty interval MM ± BoundMM is too close to call.
func (d Distance) Check(limitMM float64) Call {
	switch {
	case d.MM+d.BoundMM <= limitMM:
		return Within
	case d.MM-d.BoundMM > limitMM:
		return Beyond
	}
	return TooCloseToCall
}

// ModelDistances are the distances between every two models.
func (s Snapshot) ModelDistances(krokMM float64) []PairDistance {
	var out []PairDistance
	for i := range s.Models {
		for j := i + 1; j < len(s.Models); j++ {
			a, b := s.Models[i], s.Models[j]
			out = append(out, pair(a.ID, b.ID, "", "", EdgeDistance(a, b), krokMM, a.Occluded || b.Occluded))
		}
	}
	return out
}

// UnitDistances are the distances between the closest models of every two
// units.
func (s Snapshot) UnitDistances(krokMM float64) []PairDistance {
	byUnit := map[string][]ModelPosition{}
	var units []string
	for _, m := range s.Models {
		if _, ok := byUnit[m.Unit]; !ok {
			units = append(units, m.Unit)
		}
		byUnit[m.Unit] = append(byUnit[m.Unit], m)
	}
	sort.Strings(units)
	var out []PairDistance
	for i, ua := range units {
		for _, ub := range units[i+1:] {
			best := Distance{MM: math.Inf(1)}
			var ma, mb ModelPosition
			for _, a := range byUnit[ua] {
				for _, b := range byUnit[ub] {
					if d := EdgeDistance(a, b); d.MM < best.MM {
						best, ma, mb = d, a, b
					}
				}
			}
			out = append(out, pair(ua, ub, ma.ID, mb.ID, best, krokMM, ma.Occluded || mb.Occluded))
		}
	}
	return out
}

func pair(a, b, ma, mb string, d Distance, krokMM float64, occ bool) PairDistance {
	d = Distance{MM: round3(d.MM), BoundMM: round3(d.BoundMM)}
	k, bk := d.Kroki(krokMM)
	return PairDistance{A: a, B: b, ModelA: ma, ModelB: mb, Distance: d, Kroki: round3(k), BoundKroki: round3(bk), Occluded: occ}
}
