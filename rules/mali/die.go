package mali

import "fmt"

// The die's maths, moved here from rules/dice (it is this game's die, not
// generic maths): the chance of each colour and number from the faces in
// die.yaml, every face equally likely.

// DieError is a die that cannot be rolled: no faces, or a face that is
// neither black nor red or has no number.
type DieError struct {
	Face   int // index in the faces, or -1
	Reason string
}

func (e *DieError) Error() string {
	if e.Face < 0 {
		return "mali: die: " + e.Reason
	}
	return fmt.Sprintf("mali: die face %d: %s", e.Face+1, e.Reason)
}

// DieOdds is one roll split by colour: Black[k] is the chance of a black k
// (the soldier moves k fields), Red[k] of a red k (a courier may move up to
// k). The sums of both are 1 together.
type DieOdds struct {
	Black map[int]float64 `json:"black"`
	Red   map[int]float64 `json:"red"`
}

// Odds is the exact distribution of one roll of a die with these faces.
func Odds(faces []DieFace) (DieOdds, error) {
	if len(faces) == 0 {
		return DieOdds{}, &DieError{Face: -1, Reason: "no faces"}
	}
	o := DieOdds{Black: map[int]float64{}, Red: map[int]float64{}}
	p := 1 / float64(len(faces))
	for i, f := range faces {
		switch {
		case f.Value < 1:
			return DieOdds{}, &DieError{Face: i, Reason: fmt.Sprintf("value %d, want at least 1", f.Value)}
		case f.Colour == Black:
			o.Black[f.Value] += p
		case f.Colour == Red:
			o.Red[f.Value] += p
		default:
			return DieOdds{}, &DieError{Face: i, Reason: fmt.Sprintf("colour %q, want black or red", f.Colour)}
		}
	}
	return o, nil
}

// PBlack is the chance of a black number.
func (o DieOdds) PBlack() float64 { return sum(o.Black) }

// PRed is the chance of a red number.
func (o DieOdds) PRed() float64 { return sum(o.Red) }

// SoldierReaches is the chance that the soldier, d fields from a courier on
// his path, reaches it on this roll: a black number of at least d.
func (o DieOdds) SoldierReaches(d int) (float64, error) {
	if d < 1 {
		return 0, &DieError{Face: -1, Reason: fmt.Sprintf("distance %d fields, want at least 1", d)}
	}
	p := 0.0
	for k, q := range o.Black {
		if k >= d {
			p += q
		}
	}
	return p, nil
}

func sum(m map[int]float64) float64 {
	// Summed in key order so the result is the same on every run.
	t := 0.0
	for k := 1; k <= maxKey(m); k++ {
		t += m[k]
	}
	return t
}

func maxKey(m map[int]float64) int {
	mx := 0
	for k := range m {
		mx = max(mx, k)
	}
	return mx
}
