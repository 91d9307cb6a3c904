package vision

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sztab/sztab/internal/fuzzseed"
)

// The terrain calibration file: parsed, checked with file:line errors,
// saved and read back; learnt from samples. No cgo.

const terrainCalFile = "testdata/terrain-calibration.yaml"

func TestTerrainCalibrationRoundTrip(t *testing.T) {
	c, err := LoadTerrainCalibration(terrainCalFile)
	if err != nil {
		t.Fatal(err)
	}
	if c.Light.Hue != [2]int{19, 31} || c.ObjectiveMM != 40 || c.Table != [3]int{46, 90, 100} {
		t.Fatalf("read %+v", c)
	}
	path := filepath.Join(t.TempDir(), "terrain.yaml")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadTerrainCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, back) {
		t.Errorf("saved and read back:\n%+v\n%+v", c, back)
	}
	if _, err := LoadTerrainCalibration(filepath.Join(t.TempDir(), "none.yaml")); err == nil || !strings.Contains(err.Error(), "sztab calibrate terrain") {
		t.Errorf("a missing file: %v", err)
	}
}

// TestTerrainCalibrationErrors: each damage is refused with the file, the
// line and the key.
func TestTerrainCalibrationErrors(t *testing.T) {
	good, err := os.ReadFile(terrainCalFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"version", "version: 1", "version: 7", "t.yaml:2: version: 7"},
		{"size", "width: 2304", "width: 0", "t.yaml:4: width"},
		{"hue range", "hue: [19, 31]", "hue: [19, 200]", "t.yaml:7: light.hue: [19 200] is out of 0–179"},
		{"sat order", "sat: [140, 255]\n  val: [30, 255]", "sat: [250, 140]\n  val: [30, 255]", "t.yaml:13: heavy.sat: [250 140]: low end above high end"},
		{"grey", "sat: [140, 255]\n  val: [50, 255]", "sat: [10, 255]\n  val: [50, 255]", "t.yaml:18: template.sat: [10 255]: a colour class must start at saturation 40"},
		{"overlap", "hue: [50, 68]", "hue: [25, 68]", "t.yaml:11: heavy: its colours overlap light's"},
		{"missing class", "objective:\n  hue: [102, 118]\n  sat: [140, 255]\n  val: [40, 255]\n  median: [111, 226, 170]\n", "", "objective: missing"},
		{"brightness", "brightness: 104.5", "brightness: -3", "t.yaml:27: brightness: -3"},
		{"objective size", "objective_mm: 40", "objective_mm: 2", "t.yaml:28: objective_mm: 2: want 5–300 mm"},
		{"table", "table: [46, 90, 100]", "table: [46, 900, 100]", "t.yaml:26: table"},
		{"unknown key", "min_piece_mm2: 300", "min_piece: 300", "field min_piece not found"},
		{"not yaml", "version: 1", "version: [1", "does not parse"},
		{"nan", "brightness: 104.5", "brightness: .nan", "brightness: NaN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := strings.Replace(string(good), c.from, c.to, 1)
			if data == string(good) {
				t.Fatalf("%q not in the file", c.from)
			}
			_, err := ParseTerrainCalibration("t.yaml", []byte(data))
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "vision: terrain calibration t.yaml") {
				t.Errorf("got %v, want …%s…", err, c.want)
			}
		})
	}
	if _, err := ParseTerrainCalibration("t.yaml", []byte("- a list\n")); err == nil {
		t.Error("a list was taken")
	}
}

// hsvSamples are n pixels around the colour h, s, v.
func hsvSamples(rng *rand.Rand, n int, h, s, v, spread int) []HSV {
	var out []HSV
	for i := 0; i < n; i++ {
		j := func(x, lo, hi int) uint8 { return uint8(max(lo, min(hi, x+rng.IntN(2*spread+1)-spread))) }
		out = append(out, HSV{uint8(wrapHue(h + rng.IntN(5) - 2)), j(s, 0, 255), j(v, 0, 255)})
	}
	return out
}

func TestLearnTerrain(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base := func() TerrainSamples {
		return TerrainSamples{Width: 1280, Height: 720, Table: hsvSamples(rng, 5000, 50, 90, 100, 20), Classes: map[string][]HSV{
			ClassLight: hsvSamples(rng, 500, 24, 220, 190, 15), ClassHeavy: hsvSamples(rng, 500, 59, 196, 110, 15),
			ClassTemplate: hsvSamples(rng, 500, 11, 240, 220, 10), ClassObjective: hsvSamples(rng, 500, 111, 226, 170, 15),
		}}
	}
	c, err := LearnTerrain(base())
	if err != nil {
		t.Fatal(err)
	}
	for _, class := range TerrainClasses {
		r := c.Range(class)
		if !r.HueContains(r.Median[0]) || r.Sat[0] < 110 || r.Val[0] > 100 {
			t.Errorf("%s: %+v", class, r)
		}
	}
	if c.ObjectiveMM != 40 || c.Brightness < 90 || c.Brightness > 110 {
		t.Errorf("objective %g mm, brightness %g", c.ObjectiveMM, c.Brightness)
	}
	// what it learns, it reads back
	path := filepath.Join(t.TempDir(), "terrain.yaml")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTerrainCalibration(path); err != nil {
		t.Fatal(err)
	}
	// a red template wraps through hue 0
	s := base()
	s.Classes[ClassTemplate] = hsvSamples(rng, 500, 178, 240, 220, 10)
	c, err = LearnTerrain(s)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Template; r.Hue[0] <= r.Hue[1] || !r.HueContains(0) || !r.HueContains(177) || r.HueContains(90) {
		t.Errorf("a red template: %+v", r)
	}

	for _, c := range []struct {
		name string
		edit func(*TerrainSamples)
		want string
	}{
		{"no sample", func(s *TerrainSamples) { delete(s.Classes, ClassObjective) }, "no sample of objective (blue)"},
		{"no table", func(s *TerrainSamples) { s.Table = s.Table[:10] }, "pixels of bare table"},
		{"dull", func(s *TerrainSamples) { s.Classes[ClassHeavy] = hsvSamples(rng, 500, 59, 95, 110, 10) }, "hardly more colourful than the table"},
		{"table like cover", func(s *TerrainSamples) { s.Table = append(s.Table, hsvSamples(rng, 200, 24, 220, 190, 10)...) }, "hardly more colourful than the table (up to"},
		{"two alike", func(s *TerrainSamples) { s.Classes[ClassTemplate] = hsvSamples(rng, 500, 24, 220, 190, 15) }, "too close"},
		{"spread", func(s *TerrainSamples) {
			s.Classes[ClassLight] = append(hsvSamples(rng, 250, 0, 220, 190, 5), hsvSamples(rng, 250, 90, 220, 190, 5)...)
		}, "spread over"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			c.edit(&s)
			if _, err := LearnTerrain(s); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want …%s…", err, c.want)
			}
		})
	}
}

func FuzzParseTerrainCalibration(f *testing.F) {
	for _, d := range fuzzseed.Files(f, terrainCalFile) {
		f.Add(d)
	}
	for _, d := range fuzzseed.YAML("light") {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseTerrainCalibration("f.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "vision: terrain calibration f.yaml") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		finiteFields(t, "terrain calibration", c)
		for i, a := range TerrainClasses {
			for _, b := range TerrainClasses[i+1:] {
				if rangesOverlap(c.Range(a), c.Range(b)) {
					t.Fatalf("%s and %s overlap", a, b)
				}
			}
		}
		path := filepath.Join(t.TempDir(), "t.yaml")
		if err := c.Save(path); err != nil {
			t.Fatal(err)
		}
		back, err := LoadTerrainCalibration(path)
		if err != nil {
			t.Fatalf("saved and not read back: %v", err)
		}
		if !reflect.DeepEqual(c, back) {
			t.Fatalf("saved and read back differently:\n%+v\n%+v", c, back)
		}
	})
}

func TestConfigTerrain(t *testing.T) {
	c, err := ParseConfig("/etc/sztab/camera.yaml", []byte("source: /dev/video0\ncalibration: c.yaml\nmarkers: m.yaml\nterrain: terrain.yaml\nterrain_height_mm: 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Terrain != "/etc/sztab/terrain.yaml" || c.TerrainHeightMM != 4 {
		t.Errorf("terrain %q at %g mm", c.Terrain, c.TerrainHeightMM)
	}
	for _, bad := range []string{"terrain_height_mm: -1", "terrain_height_mm: 900", "terrain_height_mm: .nan"} {
		_, err := ParseConfig("c.yaml", []byte("source: /dev/video0\ncalibration: c.yaml\nmarkers: m.yaml\n"+bad+"\n"))
		if err == nil || !strings.Contains(err.Error(), "camera.terrain_height_mm") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
