package dicetray

import (
	"slices"
	"testing"

	"github.com/sztab/sztab/vision/geom"
)

func reading(dice ...Die) Reading { return Reading{Dice: dice, SidePx: 30} }

func die(v int, x, y float64) Die { return Die{Value: v, Centre: geom.Vec2{X: x, Y: y}} }

func TestSame(t *testing.T) {
	a := reading(die(3, 100, 100), die(5, 200, 100))
	cases := []struct {
		name string
		b    Reading
		want bool
	}{
		{"the same dice in another order, nudged", reading(die(5, 203, 98), die(3, 101, 100)), true},
		{"one die more", reading(die(3, 100, 100), die(5, 200, 100), die(1, 300, 100)), false},
		{"another value", reading(die(3, 100, 100), die(6, 200, 100)), false},
		{"moved by a side", reading(die(3, 130, 100), die(5, 200, 100)), false},
		{"one unreadable", reading(die(3, 100, 100), die(0, 200, 100)), false},
		{"empty", reading(), false},
	}
	for _, c := range cases {
		if got := Same(a, c.b); got != c.want {
			t.Errorf("%s: Same = %v, want %v", c.name, got, c.want)
		}
	}
	if !Same(reading(), reading()) {
		t.Error("two empty trays differ")
	}
}

func TestSettler(t *testing.T) {
	if _, err := NewSettler(1); err == nil {
		t.Error("settling after 1 frame accepted")
	}
	s, err := NewSettler(3)
	if err != nil {
		t.Fatal(err)
	}
	throw := reading(die(4, 100, 100), die(2, 200, 100))
	moving := reading(die(4, 150, 100))
	other := reading(die(6, 100, 100), die(2, 200, 100))
	steps := []struct {
		r       Reading
		ok      bool
		changed bool
		settled *Reading
	}{
		{throw, true, false, nil},
		{throw, true, false, nil},
		{Reading{}, false, false, nil}, // a frame not read breaks the run
		{throw, true, false, nil},
		{throw, true, false, nil},
		{throw, true, true, &throw}, // three in a row
		{throw, true, false, &throw},
		{moving, true, false, &throw}, // the dice picked up: the old throw stands until the tray settles
		{throw, true, false, &throw},
		{throw, true, false, &throw},
		{throw, true, false, &throw}, // settled again on the same throw: not new
		{other, true, false, &throw},
		{other, true, false, &throw},
		{other, true, true, &other},
	}
	for i, st := range steps {
		got, changed := s.Observe(st.r, st.ok)
		if changed != st.changed {
			t.Errorf("frame %d: changed %v, want %v", i, changed, st.changed)
		}
		switch {
		case st.settled == nil && got != nil:
			t.Errorf("frame %d: settled on %v before three frames", i, got.Dice)
		case st.settled != nil && (got == nil || !Same(*got, *st.settled)):
			t.Errorf("frame %d: settled %v, want %v", i, got, st.settled.Dice)
		}
	}
}

func TestNth(t *testing.T) {
	for n := 1; n < 60; n++ {
		a := make([]float64, n)
		for i := range a {
			a[i] = float64((i*7919 + n*31) % 23) // repeats, unsorted
		}
		sorted := slices.Clone(a)
		slices.Sort(sorted)
		for k := 0; k < n; k++ {
			b := slices.Clone(a)
			if got := nth(b, k); got != sorted[k] {
				t.Fatalf("n %d k %d: nth %g, sorted %g", n, k, got, sorted[k])
			}
		}
	}
}

// TestMaskRow: the mask's written-out test is standsOut's, pixel for
// pixel, on an accuracy tray.
func TestMaskRow(t *testing.T) {
	_, im := accuracyTray(t, 3)
	var s segmenter
	s.load(frameOf(im))
	s.fitBackground()
	s.mask()
	n := 0
	for j := 0; j < s.hh; j++ {
		for i := 0; i < s.hw; i++ {
			b, g, r := s.halfAt(i, j)
			bg := s.bgAt(2*float64(i)+0.5, 2*float64(j)+0.5)
			want := standsOut(float64(b)/4, float64(g)/4, float64(r)/4, bg[0], bg[1], bg[2])
			if s.fg[j*s.hw+i] != want {
				n++
			}
		}
	}
	// bgAt evaluates the quadratic directly, the row incrementally: a
	// pixel on the very edge of standing out may differ in the last bit
	if n > s.hw*s.hh/10000 {
		t.Errorf("%d of %d pixels differ from standsOut", n, s.hw*s.hh)
	}
}
