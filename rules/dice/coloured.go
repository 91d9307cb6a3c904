package dice

// ColouredD6 is Mali Powstańcy's die (rulebook, "Faza ruchu niemieckiego
// żołnierza"): a black number moves the German soldier that many fields
// towards the nearest scout; a red number gives the scout nearest to him a
// move of up to that many fields. The rulebook does not say which faces are
// red. DefaultRedFaces is our assumption (three of each colour, red on the high
// faces); a table with another die sets its own.
type ColouredD6 struct {
	// Red lists the faces printed in red; the others are black.
	Red []int
}

// DefaultRedFaces is the assumed red half of the die: 4, 5 and 6.
var DefaultRedFaces = []int{4, 5, 6}

// Validate refuses a face outside 1–6 or named twice.
func (c ColouredD6) Validate() error {
	seen := map[int]bool{}
	for _, f := range c.Red {
		switch {
		case f < 1 || f > 6:
			return &ParamError{Param: ParamRedFaces, Value: f, Reason: "is not a face of a d6 (1–6)"}
		case seen[f]:
			return &ParamError{Param: ParamRedFaces, Value: f, Reason: "is listed twice"}
		}
		seen[f] = true
	}
	return nil
}

// IsRed says whether face shows a red number.
func (c ColouredD6) IsRed(face int) bool {
	for _, f := range c.Red {
		if f == face {
			return true
		}
	}
	return false
}

// ColouredOdds is one roll of a coloured die split by colour: Black.P(k) is
// the chance the die shows a black k (the soldier moves k fields), Red.P(k) a
// red k (a scout may move up to k). Black.Total() + Red.Total() is 1.
type ColouredOdds struct {
	Black, Red Dist
}

// Odds is the exact distribution of one roll.
func (c ColouredD6) Odds() (ColouredOdds, error) {
	if err := c.Validate(); err != nil {
		return ColouredOdds{}, err
	}
	o := ColouredOdds{Black: make(Dist, 7), Red: make(Dist, 7)}
	for face := 1; face <= 6; face++ {
		if c.IsRed(face) {
			o.Red[face] = 1.0 / 6
		} else {
			o.Black[face] = 1.0 / 6
		}
	}
	return o, nil
}

// SoldierReaches is the chance that the soldier, d fields from the nearest
// scout, reaches him on this roll: a black number of at least d.
func (o ColouredOdds) SoldierReaches(d int) (float64, error) {
	if d < 1 {
		return 0, &ParamError{Param: ParamFields, Value: d, Reason: "must be at least 1 field"}
	}
	return o.Black.AtLeast(d), nil
}
