//go:build cgo

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/vision"
	"github.com/sztab/sztab/vision/synth"
)

// terrainSetup writes a generated table's marker registry, its table
// calibration, a camera config naming terrain.yaml, and a frame of the
// table with the given terrain as a PNG; it returns the config and the
// image paths.
func terrainSetup(t *testing.T, to synth.TerrainOptions) (cfgPath, image string) {
	t.Helper()
	dir := t.TempDir()
	l := synth.DefaultLayout(900, 600, 4)
	o := synth.Defaults(1280, 720, l)
	o.FrameFiducials = true
	o.MaxYaw = 2
	s, err := synth.Random(o, 61)
	if err != nil {
		t.Fatal(err)
	}
	s.Models = nil
	if err := s.AddTerrain(to, 62); err != nil {
		t.Fatal(err)
	}
	var reg strings.Builder
	fmt.Fprintf(&reg, "dictionary: %s\ntable: {width_mm: %g, depth_mm: %g}\nfiducials:\n  side_mm: %g\n  markers:\n", l.Dict, l.TableW, l.TableD, l.Fiducials[0].Side)
	for _, f := range l.Fiducials {
		fmt.Fprintf(&reg, "    - {marker: %d, x_mm: %g, y_mm: %g}\n", f.Marker, f.X, f.Y)
	}
	reg.WriteString("models:\n")
	for _, m := range l.Models {
		fmt.Fprintf(&reg, "  - {marker: %d, id: %s, unit: %s, base_mm: %g}\n", m.Marker, m.ID, m.Unit, m.Diameter)
	}
	write(t, dir, "markers.yaml", reg.String())
	r, err := vision.LoadRegistry(filepath.Join(dir, "markers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var ms []vision.RawMarker
	for _, f := range r.Fiducials.Markers {
		m := vision.RawMarker{ID: f.Marker}
		for k, c := range f.Corners() {
			m.Corners[k], _ = s.Camera.Pixel(c.X, c.Y, r.Fiducials.HeightMM)
		}
		ms = append(ms, m)
	}
	cal, err := vision.CalibrateTable(vision.TableInput{Width: 1280, Height: 720, Frames: [][]vision.RawMarker{ms}, Registry: r,
		Lens: &vision.LensCalibration{Version: 1, Width: 1280, Height: 720, Lens: s.Camera.Lens}})
	if err != nil {
		t.Fatal(err)
	}
	if err := cal.Save(filepath.Join(dir, "calibration.yaml")); err != nil {
		t.Fatal(err)
	}
	im, err := s.Render()
	if err != nil {
		t.Fatal(err)
	}
	image = filepath.Join(dir, "table.png")
	if err := synth.Save(image, im, s.Truth(), 90); err != nil {
		t.Fatal(err)
	}
	cfgPath = write(t, dir, "camera.yaml", "source: frames\ncalibration: calibration.yaml\nmarkers: markers.yaml\nterrain: terrain.yaml\n")
	return cfgPath, image
}

func TestCalibrateTerrain(t *testing.T) {
	cfg, image := terrainSetup(t, synth.TerrainOptions{Pieces: 2, Templates: 1, Objectives: 1})
	out, err := runCalibrate(t, "terrain", "--config", cfg, "--image", image)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"light cover (yellow)", "heavy cover (green)", "template (orange)", "objective (blue)", "objective markers 40 mm", "saved"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	tc, err := vision.LoadTerrainCalibration(filepath.Join(filepath.Dir(cfg), "terrain.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !tc.Light.HueContains(24) || !tc.Heavy.HueContains(60) || !tc.Template.HueContains(11) || !tc.Objective.HueContains(112) {
		t.Errorf("learnt %+v", tc)
	}

	// a region that names the light sample wrongly (bare table) is refused
	out, err = runCalibrate(t, "terrain", "--config", cfg, "--image", image, "--region", "light=300,300,320,320", "--out", filepath.Join(t.TempDir(), "x.yaml"))
	var ce calibrateError
	if !errors.As(err, &ce) || !strings.Contains(out, "NOT SAVED") {
		t.Errorf("a bare-table light sample: %v\n%s", err, out)
	}
}

func TestCalibrateTerrainErrors(t *testing.T) {
	cfg, image := terrainSetup(t, synth.TerrainOptions{Pieces: 1}) // no heavy cover, no markers
	terrain := filepath.Join(filepath.Dir(cfg), "terrain.yaml")
	out, err := runCalibrate(t, "terrain", "--config", cfg, "--image", image)
	var ce calibrateError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "no sample of heavy (green)") {
		t.Errorf("no green sample: %v\n%s", err, out)
	}
	if _, err := os.Stat(terrain); err == nil {
		t.Error("a refused calibration was saved")
	}
	for _, c := range []struct{ region, want string }{
		{"light", "want CLASS=x0,y0,x1,y1"},
		{"water=1,2,3,4", "want CLASS=x0,y0,x1,y1"},
		{"light=1,2,3", "four numbers"},
		{"light=1,2,x,4", `"x" is not a number`},
		{"light=5,5,1,1", "x0 < x1"},
	} {
		if _, err := runCalibrate(t, "terrain", "--config", cfg, "--image", image, "--region", c.region); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--region %s: %v, want …%s…", c.region, err, c.want)
		}
	}
	noTerrain := write(t, filepath.Dir(cfg), "bare.yaml", "source: frames\ncalibration: calibration.yaml\nmarkers: markers.yaml\n")
	if _, err := runCalibrate(t, "terrain", "--config", noTerrain, "--image", image); err == nil || !strings.Contains(err.Error(), "no camera.terrain") {
		t.Errorf("no terrain path: %v", err)
	}
	if _, err := runCalibrate(t, "terrain", "--config", cfg, "--image", filepath.Join(t.TempDir(), "none.png")); err == nil || !strings.Contains(err.Error(), "not an image") {
		t.Errorf("a missing image: %v", err)
	}
}
