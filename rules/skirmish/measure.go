package skirmish

import (
	"fmt"
	"math"
	"strings"

	"github.com/sztab/sztab/rules"
)

// The camera measures positions with an uncertainty; every limit the rules
// set (range, move, deployment zone, coherency, gaps, objective radius) is
// compared with the measured value and its bound. A value whose interval
// straddles the limit is too close to call: the action waits for a Ruling
// instead of being decided silently.

type verdict int

const (
	inside verdict = iota
	outside
	tooClose
)

// judge compares a measure with a limit: within it means at most the limit.
func judge(m Measure, limit float64) verdict {
	switch {
	case m.Kroki+m.Uncertainty <= limit:
		return inside
	case m.Kroki-m.Uncertainty > limit:
		return outside
	}
	return tooClose
}

// ruled returns the ruling already given on key, if any.
func (s *State) ruled(key string) (inRange, ok bool) {
	for _, r := range s.Rulings {
		if r.Key == key {
			return r.InRange, true
		}
	}
	return false, false
}

// within decides whether a measure is within limit, by the measurement or by
// a ruling; when neither can, it returns a *needCall asking question.
func (s *State) within(key string, m Measure, limit float64, question rules.Text) (bool, error) {
	switch judge(m, limit) {
	case inside:
		return true, nil
	case outside:
		return false, nil
	}
	if in, ok := s.ruled(key); ok {
		return in, nil
	}
	return false, &needCall{Call{Key: key, Question: question, Measured: m, Limit: limit}}
}

// baseGap is the base-edge to base-edge distance between two models, with
// the bound of two standard uncertainties of the difference, as vision
// measures it.
func baseGap(a Point, baseA float64, b Point, baseB float64) Measure {
	centre := math.Hypot(a.X-b.X, a.Y-b.Y)
	return Measure{Kroki: math.Max(0, centre-baseA/2-baseB/2), Uncertainty: 2 * math.Hypot(a.Sigma, b.Sigma)}
}

// displacement is how far a base centre moved.
func displacement(from, to Point) Measure {
	return Measure{Kroki: math.Hypot(to.X-from.X, to.Y-from.Y), Uncertainty: 2 * math.Hypot(from.Sigma, to.Sigma)}
}

// fromEdge is the distance from a table edge to a point.
func (s *State) fromEdge(edge string, p Point) float64 {
	t := s.Options.Table
	switch edge {
	case EdgeNorth:
		return t.Depth - p.Y
	case EdgeWest:
		return p.X
	case EdgeEast:
		return t.Width - p.X
	}
	return p.Y
}

// unitGap is the shortest base-to-base distance between the given models of
// two units, measured from the positions the state holds.
func unitGap(a *Unit, aModels []string, b *Unit) (Measure, bool) {
	best, found := Measure{}, false
	for _, id := range aModels {
		ma := a.model(id)
		if ma == nil || ma.At == nil {
			continue
		}
		for _, mb := range b.Models {
			if mb.Removed || mb.At == nil {
				continue
			}
			g := baseGap(*ma.At, ma.Base, *mb.At, mb.Base)
			if !found || g.Kroki < best.Kroki {
				best, found = g, true
			}
		}
	}
	return best, found
}

func fmtMeasure(m Measure) string {
	k := fmtNum(m.Kroki)
	if m.Uncertainty == 0 {
		return k
	}
	return fmt.Sprintf("%s±%.1f", k, m.Uncertainty)
}

// round3 keeps derived measurements short and stable across platforms.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func roundMeasure(m Measure) Measure {
	return Measure{Kroki: round3(m.Kroki), Uncertainty: round3(m.Uncertainty)}
}

// plN writes n with the Polish noun form its number takes: 1 model, 2–4
// modele, 5 modeli (but 22 modele, 12 modeli).
func plN(n int, one, few, many string) string {
	return fmt.Sprintf("%d %s", n, plForm(n, one, few, many))
}

func plForm(n int, one, few, many string) string {
	switch {
	case n == 1:
		return one
	case n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14):
		return few
	}
	return many
}

// plKroki is a distance with "krok" in its Polish form: 1 krok, 2 kroki,
// 6 kroków, 6.5 kroku.
func plKroki(m Measure) string {
	s := fmtMeasure(m)
	if strings.ContainsAny(s, ".±") {
		return s + " kroku"
	}
	return s + " " + plForm(int(m.Kroki), "krok", "kroki", "kroków")
}

func plKrokiN(x float64) string { return plKroki(Measure{Kroki: x}) }

func enN(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
