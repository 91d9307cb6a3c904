package vision

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name, yaml string
		check      func(t *testing.T, c Config)
		err        string
	}{
		{
			name: "camera section of a table config",
			yaml: "venue: demo\ngame: skirmish\ncamera:\n  source: /dev/video0\n  calibration: cal.yaml\n  markers: markers.yaml\n",
			check: func(t *testing.T, c Config) {
				if c.sourceKind() != SourceV4L2 {
					t.Errorf("kind: got %s, want v4l2", c.sourceKind())
				}
				if c.Calibration != filepath.Join("/etc/sztab", "cal.yaml") {
					t.Errorf("calibration: got %s, want it next to the config", c.Calibration)
				}
				if c.KrokMM != 25.4 || c.StillFrames != 5 || c.StillMM != 2 || c.ForgetAfter != 2*time.Minute || c.Distances != "units" {
					t.Errorf("defaults: got %+v", c)
				}
			},
		},
		{
			name: "camera config at the top, GStreamer",
			yaml: "source: \"libcamerasrc ! video/x-raw,width=2304,height=1296 ! videoconvert ! appsink\"\ncalibration: /var/lib/sztab/cal.yaml\nmarkers: m.yaml\nkrok_mm: 25\nstill_frames: 3\nforget_after: 30s\n",
			check: func(t *testing.T, c Config) {
				if c.sourceKind() != SourceGStreamer || c.KrokMM != 25 || c.StillFrames != 3 || c.ForgetAfter != 30*time.Second {
					t.Errorf("got %+v", c)
				}
				if c.Calibration != "/var/lib/sztab/cal.yaml" {
					t.Errorf("an absolute path moved: %s", c.Calibration)
				}
			},
		},
		{name: "unknown key", yaml: "source: x\ncalibration: c\nmarkers: m\ncolour: red\n", err: "field colour not found"},
		{name: "no source", yaml: "calibration: c\nmarkers: m\n", err: "camera.source: is empty"},
		{name: "bad numbers", yaml: "source: x\ncalibration: c\nmarkers: m\nstill_frames: -1\nkrok_mm: -2\njpeg_quality: 101\n", err: "camera.krok_mm"},
		{name: "bad distances", yaml: "source: x\ncalibration: c\nmarkers: m\ndistances: some\n", err: `camera.distances: "some"`},
		{name: "table config without camera", yaml: "venue: demo\ngame: skirmish\n", err: "no camera: section"},
		{name: "not a mapping", yaml: "- a\n- b\n", err: "want a mapping"},
		{name: "half a size", yaml: "source: x\ncalibration: c\nmarkers: m\nwidth: 1920\n", err: "camera.width/height"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig("/etc/sztab/table.yaml", []byte(tt.yaml))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got error %v, want one containing %q", err, tt.err)
				}
				if !strings.HasPrefix(err.Error(), "vision: ") {
					t.Errorf("error %q is not prefixed with the package", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestCameraExampleConfig(t *testing.T) {
	c, err := LoadConfig("../firmware-config/camera.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.sourceKind() != SourceGStreamer && c.sourceKind() != SourceV4L2 {
		t.Errorf("the example's source is %s, want a camera", c.sourceKind())
	}
	if _, err := LoadRegistry(c.Markers); err != nil {
		t.Errorf("the example's marker registry: %v", err)
	}
}
