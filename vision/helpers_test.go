package vision

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

// registryYAML writes the marker registry of a synthetic layout.
func registryYAML(l synth.Layout) string {
	var b strings.Builder
	fmt.Fprintf(&b, "dictionary: %s\n", l.Dict)
	fmt.Fprintf(&b, "table: {width_mm: %g, depth_mm: %g}\n", l.TableW, l.TableD)
	fmt.Fprintf(&b, "fiducials:\n  side_mm: %g\n  height_mm: %g\n  markers:\n", l.Fiducials[0].Side, l.Fiducials[0].Height)
	for _, f := range l.Fiducials {
		fmt.Fprintf(&b, "    - {marker: %d, x_mm: %g, y_mm: %g}\n", f.Marker, f.X, f.Y)
	}
	b.WriteString("models:\n")
	for _, m := range l.Models {
		fmt.Fprintf(&b, "  - {marker: %d, id: %s, unit: %s, base_mm: %g, marker_mm: %g, height_mm: %g}\n", m.Marker, m.ID, m.Unit, m.Diameter, m.Side, m.Height)
	}
	return b.String()
}

func layoutRegistry(t testing.TB, l synth.Layout) *Registry {
	t.Helper()
	r, err := ParseRegistry("layout", []byte(registryYAML(l)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// trueLens is a perfect lens calibration of the scene's camera.
func trueLens(s *synth.Scene) *LensCalibration {
	return &LensCalibration{Version: 1, Width: s.Camera.Width, Height: s.Camera.Height, Lens: s.Camera.Lens}
}

func vec(x, y float64) geom.Vec2 { return geom.Vec2{X: x, Y: y} }
