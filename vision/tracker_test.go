package vision

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/vision/geom"
)

// TestTrackerScript plays frames into the tracker: each step is a frame,
// its models at positions; want is the snapshot it must produce ("" for
// none), written as "seq: id@x,y … missing: … removed: …".
func TestTrackerScript(t *testing.T) {
	reg, err := ParseRegistry("test", []byte(testRegistry))
	if err != nil {
		t.Fatal(err)
	}
	obs := func(spec string) []Observation {
		var out []Observation
		for _, f := range strings.Fields(spec) {
			var marker int
			var x, y float64
			if _, err := fmt.Sscanf(f, "%d@%g,%g", &marker, &x, &y); err != nil {
				t.Fatalf("step %q: %v", f, err)
			}
			m, _ := reg.Model(marker)
			out = append(out, Observation{Model: m, Pos: geom.Vec2{X: x, Y: y}, SigmaMM: 0.3})
		}
		return out
	}
	show := func(s Snapshot) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%d:", s.Seq)
		for _, m := range s.Models {
			fmt.Fprintf(&b, " %s@%g,%g", m.ID, m.X, m.Y)
			if m.Occluded {
				b.WriteString("(occluded)")
			}
		}
		if len(s.Missing) > 0 {
			fmt.Fprintf(&b, " missing: %s", strings.Join(s.Missing, ","))
		}
		if len(s.Removed) > 0 {
			fmt.Fprintf(&b, " removed: %s", strings.Join(s.Removed, ","))
		}
		return b.String()
	}
	steps := []struct {
		at     int // seconds
		frame  string
		want   string
		reason string
		moving bool
	}{
		{0, "10@100,100 11@200,200", "", "first frame", false},
		{1, "10@100.4,100 11@200,200.3", "", "still, 2 frames", false},
		{2, "10@100.2,100 11@200,200.1", "1: ak-1@100.2,100 ak-2@200,200.13", "still 3 frames: snapshot, averaged", false},
		{3, "10@100.2,100 11@200,200.1", "", "nothing new", false},
		{4, "10@150,100 11@200,200", "", "ak-1 moving", false},
		{5, "10@180,100 11@200,200", "", "still moving", false},
		{6, "10@180,100 11@200,200", "", "still 2", false},
		{7, "10@180.5,100 11@200,200", "2: ak-1@180.17,100 ak-2@200,200", "a creep under still_mm is still: settled", false},
		{8, "10@183,100 11@200,200", "", "a nudge 3 mm from where the run began: not still", false},
		{9, "10@183,100 11@200,200", "", "", false},
		{10, "10@183,100 11@200,200", "3: ak-1@183,100 ak-2@200,200", "the nudge is read once", false},
		{11, "10@183,100", "", "a hand over ak-2: a marker missing for a frame or two breaks nothing", false},
		{12, "10@183,100", "", "", false},
		{13, "10@183,100", "", "missing for still_frames: a change", false},
		{14, "10@183,100", "", "", false},
		{15, "10@183,100", "4: ak-1@183,100 ak-2@200,200(occluded) missing: ak-2", "kept at its last position, said so", false},
		{16, "10@183,100 11@200,200 12@500,500", "", "the hand is gone, gren-1 placed", false},
		{17, "10@183,100 11@200,200 12@500,500", "", "", false},
		{18, "10@183,100 11@200,200 12@500,500", "5: ak-1@183,100 ak-2@200,200 gren-1@500,500", "back", false},
		{20, "10@183,100 12@500,500", "", "ak-2 taken off", false},
		{21, "10@183,100 12@500,500", "", "", false},
		{22, "10@183,100 12@500,500", "", "", false},
		{23, "10@183,100 12@500,500", "", "", false},
		{24, "10@183,100 12@500,500", "6: ak-1@183,100 gren-1@500,500 ak-2@200,200(occluded) missing: ak-2", "missing", false},
		{40, "10@183,100 12@500,500", "", "not yet forgotten", false},
		{80, "10@183,100 12@500,500", "7: ak-1@183,100 gren-1@500,500 removed: ak-2", "forget_after (1m) passed", false},
		{81, "10@183,100 12@500,500", "", "gone for good", false},
		{82, "10@183.6,100 12@500,500", "", "a 0.6 mm change is under half still_mm: not news", false},
		{83, "10@183.6,100 12@500,500", "", "", false},
		{84, "10@183.6,100 12@500,500", "", "", false},
		{85, "10@183.6,100 12@500,500", "", "a hand passes, hiding nothing", true},
		{86, "10@183.6,100", "", "gren-1 flickers out", false},
		{87, "10@183.6,100 12@500,500", "", "and back", false},
		{88, "10@183.6,100 12@500,500 11@300,300", "", "ak-2 put back", false},
		{89, "10@183.6,100 11@300,300", "", "gren-1 flickers", false},
		{90, "10@183.6,100 12@500,500 11@300,300", "8: ak-1@183.6,100 ak-2@300,300 gren-1@500,500", "read once, flicker or not", false},
	}
	tr := newTracker(2, 3, time.Minute)
	for i, st := range steps {
		s, ok := tr.observe(obs(st.frame), time.Unix(int64(st.at), 0), st.moving)
		got := ""
		if ok {
			got = show(s)
		}
		if got != st.want {
			t.Errorf("step %d (%s): got %q, want %q", i, st.reason, got, st.want)
		}
	}
}
