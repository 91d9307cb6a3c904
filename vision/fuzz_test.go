package vision

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/fuzzseed"
)

// The fuzz targets of the camera's files: its config, the table and lens
// calibrations, the marker registry and the chessboard spec. This file has
// no cgo: the targets run in the arm64 run too.

// finiteFields fails t when a float field of v (a struct, followed through
// pointers, arrays and slices) is NaN or infinite: a parser that accepts
// one hands it to the geometry, where it turns every position into NaN.
func finiteFields(t *testing.T, what string, v any) {
	t.Helper()
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Float32, reflect.Float64:
			if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
				t.Fatalf("%s: %s is %v", what, path, f)
			}
		case reflect.Pointer:
			if !v.IsNil() {
				walk(path, v.Elem())
			}
		case reflect.Array, reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(path+"["+itoa(i)+"]", v.Index(i))
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(path+"."+v.Type().Field(i).Name, v.Field(i))
				}
			}
		}
	}
	walk(what, reflect.ValueOf(v))
}

func itoa(i int) string {
	b, _ := yaml.Marshal(i)
	return strings.TrimSpace(string(b))
}

func yamlOf(t *testing.T, v any) []byte {
	t.Helper()
	data, err := yaml.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	return data
}

// FuzzParseConfig: a camera config (alone or as a table config's camera:
// section) parses and validates, or is refused. One accepted validates
// again, has only finite numbers and absolute paths for the files it
// names, and written back out parses to the same config.
func FuzzParseConfig(f *testing.F) {
	for _, d := range fuzzseed.Files(f, "../firmware-config/camera.example.yaml", "../firmware-config/table.example.yaml", "../firmware-config/demo/skirmish.yaml") {
		f.Add(d)
	}
	for _, d := range fuzzseed.YAML("camera") {
		f.Add(d)
	}
	base := "source: /dev/video0\ncalibration: c.yaml\nmarkers: m.yaml\n"
	for _, key := range []string{"fps", "camera_height_mm", "krok_mm", "still_mm", "still_frames", "still_diff", "max_error_px", "max_error_mm", "width", "jpeg_quality", "forget_after", "reopen_after"} {
		for _, n := range []string{".nan", ".inf", "-.inf", "1e999", "9223372036854775808", "-9223372036854775808"} {
			f.Add([]byte(base + key + ": " + n + "\n"))
		}
	}
	f.Add([]byte("game: skirmish\ncamera:\n  source: frames\n  source_kind: dir\n  calibration: /abs/c.yaml\n  markers: m.yaml\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		name := filepath.Join(dir, "camera.yaml")
		c, err := ParseConfig(name, data)
		if err != nil {
			if !reflect.ValueOf(c).IsZero() {
				t.Fatalf("a config and an error: %v", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("an accepted config does not validate again: %v", err)
		}
		finiteFields(t, "camera", c)
		for _, p := range []string{c.Calibration, c.Lens, c.Markers, c.Annotated} {
			if p != "" && !filepath.IsAbs(p) {
				t.Fatalf("path %q is not resolved", p)
			}
		}
		back, err := ParseConfig(name, yamlOf(t, c))
		if err != nil {
			t.Fatalf("the config written back is refused: %v\n%s", err, yamlOf(t, c))
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("the config written back parses differently:\n got  %+v\n want %+v", back, c)
		}
	})
}

// calibrationFiles are a table calibration and a lens calibration as
// `sztab calibrate` writes them, of a synthetic scene.
func calibrationFiles(f *testing.F) (table, lens []byte) {
	s, reg := testScene(f, 1920, 1080, 3, true)
	ms := fiducialSighting(&s.Camera, reg, 0.1, rand.New(rand.NewPCG(3, 3)))
	c, err := CalibrateTable(TableInput{Width: 1920, Height: 1080, Frames: [][]RawMarker{ms}, Registry: reg, Lens: trueLens(s), LensName: "lens.yaml"})
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	if err := c.Save(filepath.Join(dir, "cal.yaml")); err != nil {
		f.Fatal(err)
	}
	if err := trueLens(s).Save(filepath.Join(dir, "lens.yaml")); err != nil {
		f.Fatal(err)
	}
	files := fuzzseed.Files(f, filepath.Join(dir, "cal.yaml"), filepath.Join(dir, "lens.yaml"))
	return files[0], files[1]
}

// hostileNumbers puts each hostile number in place of the first value of
// each flow sequence and of each listed key of a real file.
func hostileNumbers(file []byte, keys ...string) [][]byte {
	var out [][]byte
	for _, n := range fuzzseed.Numbers {
		out = append(out, bytes.Replace(file, []byte("["), []byte("["+n+", "), 1))
		for _, k := range keys {
			lines := strings.Split(string(file), "\n")
			for i, l := range lines {
				if strings.HasPrefix(strings.TrimSpace(l), k+":") {
					lines[i] = l[:strings.Index(l, k+":")+len(k)+1] + " " + n
					out = append(out, []byte(strings.Join(lines, "\n")))
					break
				}
			}
		}
	}
	return out
}

// FuzzParseCalibration: a table calibration parses and checks, or is
// refused. One accepted has only finite numbers and maps a point of the
// image to the table and back; written back out it parses the same.
func FuzzParseCalibration(f *testing.F) {
	table, _ := calibrationFiles(f)
	f.Add(table)
	for _, d := range hostileNumbers(table, "fx", "fy", "fiducial_height_mm", "tilt_deg", "mm_per_px", "rms_mm", "holdout_mm", "width") {
		f.Add(d)
	}
	for _, d := range fuzzseed.YAML("homography") {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseCalibration("fuzz.yaml", data)
		if err != nil {
			if c != nil {
				t.Fatalf("a calibration and an error: %v", err)
			}
			return
		}
		finiteFields(t, "calibration", c)
		if c.Width <= 0 || c.Height <= 0 || !(c.Lens.FX > 0) || !(c.Lens.FY > 0) || !(c.CameraMM[2] > 0) {
			t.Fatalf("accepted a calibration without a frame, a lens or a camera: %+v", c)
		}
		back, err := ParseCalibration("again.yaml", yamlOf(t, c))
		if err != nil {
			t.Fatalf("the calibration written back is refused: %v", err)
		}
		if a, b := yamlOf(t, back), yamlOf(t, c); !bytes.Equal(a, b) {
			t.Fatalf("the calibration written back parses differently:\n%s\n%s", a, b)
		}
		// The maths must not panic on what the parser accepted; NaN out of
		// a finite calibration is the geometry's business, not the file's.
		px := c.ToImage(c.CameraMM[0], c.CameraMM[1], 0)
		_, _ = c.ToTable(px, 0)
		_ = c.ScaleAt(px)
		_ = c.Outdated()
	})
}

// FuzzLoadLens: a lens calibration file (LoadLens reads only files: the
// input goes through one) loads or is refused; one loaded has a frame size
// and a finite camera matrix.
func FuzzLoadLens(f *testing.F) {
	_, lens := calibrationFiles(f)
	f.Add(lens)
	for _, d := range hostileNumbers(lens, "fx", "fy", "cx", "k1", "width", "rms_px") {
		f.Add(d)
	}
	for _, d := range fuzzseed.YAML("lens") {
		f.Add(d)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "lens.yaml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		l, err := LoadLens(path)
		if err != nil {
			if l != nil {
				t.Fatalf("a lens and an error: %v", err)
			}
			return
		}
		finiteFields(t, "lens", l)
		if l.Width <= 0 || l.Height <= 0 || !(l.Lens.FX > 0) || !(l.Lens.FY > 0) {
			t.Fatalf("accepted a lens without a frame size or a camera matrix: %+v", l)
		}
	})
}

// FuzzParseRegistry: a marker registry parses and checks, or is refused.
// One accepted has only finite numbers, markers of its dictionary used
// once each, every model's marker fitting on its base, and written back
// out parses the same.
func FuzzParseRegistry(f *testing.F) {
	markers := fuzzseed.Files(f, "../firmware-config/markers.yaml")[0]
	f.Add(markers)
	for _, d := range hostileNumbers(markers, "width_mm", "side_mm", "height_mm", "marker_ratio", "height_tolerance_mm") {
		f.Add(d)
	}
	for _, d := range fuzzseed.YAML("models") {
		f.Add(d)
	}
	f.Add([]byte("dictionary: 7x7_9999\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRegistry("fuzz.yaml", data)
		if err != nil {
			if r != nil {
				t.Fatalf("a registry and an error: %v", err)
			}
			return
		}
		finiteFields(t, "registry", r)
		seen := map[int]bool{}
		for _, fd := range r.Fiducials.Markers {
			if fd.Marker < 0 || fd.Marker >= r.Dict().Len() || seen[fd.Marker] {
				t.Fatalf("fiducial marker %d: out of the dictionary or used twice", fd.Marker)
			}
			seen[fd.Marker] = true
			if _, ok := r.Fiducial(fd.Marker); !ok {
				t.Fatalf("fiducial %d is not indexed", fd.Marker)
			}
		}
		for _, m := range r.Models {
			if m.Marker < 0 || m.Marker >= r.Dict().Len() || seen[m.Marker] {
				t.Fatalf("model %s: marker %d out of the dictionary or used twice", m.ID, m.Marker)
			}
			seen[m.Marker] = true
			if !(m.MarkerMM > 0) || m.MarkerMM*math.Sqrt2 > m.BaseMM+0.01 {
				t.Fatalf("model %s: a %g mm marker on a %g mm base", m.ID, m.MarkerMM, m.BaseMM)
			}
			if got, ok := r.Model(m.Marker); !ok || got.ID != m.ID {
				t.Fatalf("model %s is not indexed by its marker %d", m.ID, m.Marker)
			}
		}
		back, err := ParseRegistry("again.yaml", yamlOf(t, r))
		if err != nil {
			t.Fatalf("the registry written back is refused: %v\n%s", err, yamlOf(t, r))
		}
		if a, b := yamlOf(t, back), yamlOf(t, r); !bytes.Equal(a, b) {
			t.Fatalf("the registry written back parses differently:\n%s\n%s", a, b)
		}
	})
}

// FuzzParseBoard: a chessboard spec ("9x6@25", `sztab calibrate lens
// --board`) parses or is refused; one accepted prints as a spec that
// parses to the same board.
func FuzzParseBoard(f *testing.F) {
	for _, s := range []string{"9x6@25", " 7X5@24.5 ", "3x3@1e-300", "9x6@1e308", "9x6", "x@", "9x6@.nan", "9x6@inf", "9223372036854775807x3@1", "-9x6@25", "9x6@0x1p-2", "９x6@25", "9x6@25\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBoard(s)
		if err != nil {
			return
		}
		if b.Cols < 3 || b.Rows < 3 || b.Cols > maxBoardCorners || b.Rows > maxBoardCorners || !(b.SquareMM > 0) || math.IsInf(b.SquareMM, 0) {
			t.Fatalf("%q: accepted %+v", s, b)
		}
		back, err := ParseBoard(b.String())
		if err != nil || back != b {
			t.Fatalf("%q → %q → %+v, %v", s, b.String(), back, err)
		}
	})
}
