package dice

import (
	"errors"
	"math"
	"testing"
)

func TestColouredD6Odds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		red   []int
		black float64 // P(black)
		reach [7]float64
	}{
		// With the assumed die (red 4–6) the soldier moves 1–3, so he never
		// reaches a scout four fields away.
		{"assumed", DefaultRedFaces, 0.5, [7]float64{1: 3.0 / 6, 2: 2.0 / 6, 3: 1.0 / 6}},
		{"all black", nil, 1, [7]float64{1: 1, 2: 5.0 / 6, 3: 4.0 / 6, 4: 3.0 / 6, 5: 2.0 / 6, 6: 1.0 / 6}},
		{"odd red", []int{1, 3, 5}, 0.5, [7]float64{1: 3.0 / 6, 2: 3.0 / 6, 3: 2.0 / 6, 4: 2.0 / 6, 5: 1.0 / 6, 6: 1.0 / 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := ColouredD6{Red: tc.red}.Odds()
			if err != nil {
				t.Fatal(err)
			}
			if got := o.Black.Total(); math.Abs(got-tc.black) > 1e-15 {
				t.Errorf("P(black) = %v, want %v", got, tc.black)
			}
			if got := o.Black.Total() + o.Red.Total(); math.Abs(got-1) > 1e-15 {
				t.Errorf("black + red = %v", got)
			}
			for d := 1; d <= 6; d++ {
				got, err := o.SoldierReaches(d)
				if err != nil || math.Abs(got-tc.reach[d]) > 1e-15 {
					t.Errorf("reaches at %d fields = %v, %v; want %v", d, got, err, tc.reach[d])
				}
			}
		})
	}
}

func TestColouredD6BadInput(t *testing.T) {
	for _, tc := range []struct {
		red  []int
		want string
	}{
		{[]int{7}, "dice: red face 7 is not a face of a d6 (1–6)"},
		{[]int{4, 4}, "dice: red face 4 is listed twice"},
	} {
		_, err := ColouredD6{Red: tc.red}.Odds()
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Param != ParamRedFaces || err.Error() != tc.want {
			t.Errorf("%v: %v, want %q", tc.red, err, tc.want)
		}
	}
	o, _ := ColouredD6{Red: DefaultRedFaces}.Odds()
	if _, err := o.SoldierReaches(0); err == nil || err.Error() != "dice: distance in fields 0 must be at least 1 field" {
		t.Errorf("distance 0: %v", err)
	}
}
