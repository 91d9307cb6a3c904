package vision

import (
	"encoding/xml"
	"strings"
	"testing"
)

func TestMarkerSheets(t *testing.T) {
	reg, err := LoadRegistry("../firmware-config/markers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pages := MarkerSheets(reg, A4)
	if len(pages) == 0 {
		t.Fatal("no pages")
	}
	all := ""
	for i, p := range pages {
		var v struct{}
		if err := xml.Unmarshal(p, &v); err != nil {
			t.Errorf("page %d is not XML: %v", i, err)
		}
		if !strings.Contains(string(p), `width="210mm" height="297mm"`) {
			t.Errorf("page %d is not A4 in mm", i)
		}
		all += string(p)
	}
	for _, m := range reg.Models {
		if !strings.Contains(all, m.ID+" #") {
			t.Errorf("model %s is not on the sheets", m.ID)
		}
	}
	for _, f := range reg.Fiducials.Markers {
		if !strings.Contains(all, "fiducial ") {
			t.Errorf("fiducial %d is not on the sheets", f.Marker)
		}
	}
}
