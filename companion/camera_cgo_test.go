//go:build cgo

package companion_test

import (
	"context"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/skirmishgame"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
	"github.com/sztab/sztab/rules/skirmish"
	"github.com/sztab/sztab/vision"
	"github.com/sztab/sztab/vision/synth"
)

// cameraTable renders the demo's ten models on a 180×120 cm table, as a
// 2304×1296 camera sees it (tilt, distortion, noise), into a directory of
// frames, calibrates the table on it as `sztab calibrate table` does, and
// returns the table config with the camera section pointing at them.
func cameraTable(t *testing.T, akY, grenY float64) *companion.Config {
	t.Helper()
	dir := t.TempDir()
	registryData, err := os.ReadFile("../firmware-config/markers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "markers.yaml"), registryData, 0o644)
	reg, err := vision.LoadRegistry(filepath.Join(dir, "markers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	layout := synth.Layout{Dict: "4x4_100", TableW: 1800, TableD: 1200}
	for _, f := range reg.Fiducials.Markers {
		side := f.SideMM
		if side == 0 {
			side = reg.Fiducials.SideMM
		}
		layout.Fiducials = append(layout.Fiducials, synth.Fiducial{Marker: f.Marker, X: f.X, Y: f.Y, Side: side, Height: reg.Fiducials.HeightMM, Rot: f.Rot})
	}
	opt := synth.Defaults(2304, 1296, layout)
	opt.CameraHeight = [2]float64{1500, 1500}
	opt.MaxTilt, opt.MaxYaw, opt.Flip = 10, 2, false
	scene, err := synth.Random(opt, 44)
	if err != nil {
		t.Fatal(err)
	}
	scene.Models = nil
	for i, m := range reg.Models {
		y := akY
		if m.Unit == "gren" {
			y = grenY
		}
		x := 300 + 60*float64(i%5)
		height, side := m.HeightMM, m.MarkerMM
		if height == 0 {
			height = reg.Defaults.HeightMM
		}
		if side == 0 {
			side = math.Round(m.BaseMM * reg.Defaults.MarkerRatio)
		}
		scene.Models = append(scene.Models, synth.Placed{Model: synth.Model{ID: m.ID, Unit: m.Unit, Marker: m.Marker,
			Diameter: m.BaseMM, Height: height, Side: side}, X: x, Y: y})
	}
	img, err := scene.Render()
	if err != nil {
		t.Fatal(err)
	}
	frames := filepath.Join(dir, "frames")
	os.Mkdir(frames, 0o755)
	for i := range 6 { // a still table, seen several times
		f, _ := os.Create(filepath.Join(frames, fmt.Sprintf("%02d.png", i)))
		png.Encode(f, img.RGBA())
		f.Close()
	}
	cam := vision.Config{Source: frames, Markers: filepath.Join(dir, "markers.yaml"), CameraHeightMM: 1500,
		Calibration: filepath.Join(dir, "calibration.yaml"), StillFrames: 3}
	if err := cam.Prepare(dir); err != nil {
		t.Fatal(err)
	}
	cal, err := vision.CalibrateTableFrom(context.Background(), cam, vision.TableOptions{Frames: 3}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if err := cal.Save(cam.Calibration); err != nil {
		t.Fatal(err)
	}
	// The demo table, with the camera instead of a scripted snapshot.
	demo, _ := firmwareconfig.Demo.ReadFile("demo/skirmish.yaml")
	tags, _ := firmwareconfig.Demo.ReadFile("demo/tags.yaml")
	os.WriteFile(filepath.Join(dir, "tags.yaml"), tags, 0o644)
	text := strings.Replace(string(demo), `listen: "127.0.0.1:1884"`, `listen: "127.0.0.1:0"`, 1)
	if i, j := strings.Index(text, "# The table's screens"), strings.Index(text, "measure:"); i >= 0 && j > i {
		text = text[:i] + text[j:]
	}
	text = strings.Replace(text, "hardware:\n  simulated: skirmish-demo.jsonl\n", "camera:\n  source: frames\n  markers: markers.yaml\n  calibration: calibration.yaml\n  camera_height_mm: 1500\n  still_frames: 3\n  annotated: table.jpg\n", 1)
	text = strings.Replace(text, "table: {width: 48, depth: 36}", "table: {width: 70.8, depth: 47.2}", 1)
	cfg, err := companion.ParseConfig(filepath.Join(dir, "skirmish.yaml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The camera deploys the units where it sees them and measures the shot:
// frames → vision → snapshot → skirmish engine → state.
func TestCameraSnapshotsDriveTheGame(t *testing.T) {
	// Both units at the front of their 12-krok zones: 280 mm from each
	// edge, 640 mm apart centre to centre; the closest bases are the
	// commander's 32 mm and the MG's 40 mm: 604 mm = 23.78 kroki.
	cfg := cameraTable(t, 280, 920)
	r := startServing(t, cfg, skirmishgame.Spec)
	defer r.stop(t)
	sub := subscribe(t, r.d.BrokerAddr())
	// Give the camera time to see a still table, then deploy both units by
	// their cards, end Ania's movement and declare the shot.
	var st skirmish.State
	waitState := func(what string, cond func(skirmish.State) bool) {
		t.Helper()
		sub.waitFor(t, what, func() bool {
			if len(sub.state) == 0 {
				return false
			}
			_, st = lastState(sub)
			return cond(st)
		})
	}
	events := func() string {
		sub.mu.Lock()
		defer sub.mu.Unlock()
		var evs []string
		for _, e := range sub.events {
			evs = append(evs, fmt.Sprint(e.Event))
		}
		return strings.Join(evs, "\n")
	}
	// The first scan may come before the camera has seen a still table: it
	// is refused with no_measurement, and the card is scanned again.
	deadline := time.Now().Add(60 * time.Second)
	for {
		submit(t, r.d, tag("04A1B2C3"))
		time.Sleep(500 * time.Millisecond)
		sub.mu.Lock()
		_, st = lastState(sub)
		sub.mu.Unlock()
		if u, ok := st.Unit("ak"); ok && u.Deployed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("AK never deployed; events:\n%s", events())
		}
	}
	submit(t, r.d, tag("04D4E5F6"))
	waitState("grenadiers deployed", func(s skirmish.State) bool { return s.Phase == skirmish.PhaseMovement })
	submit(t, r.d, key("next"))
	waitState("shooting", func(s skirmish.State) bool { return s.Phase == skirmish.PhaseShooting })
	submit(t, r.d, tag("04A1B2C3"))
	submit(t, r.d, tag("04D4E5F6"))
	time.Sleep(2 * time.Second)
	sub.mu.Lock()
	_, st = lastState(sub)
	sub.mu.Unlock()
	if st.Shot == nil {
		t.Fatalf("no shot declared; events:\n%s", events())
	}
	u, _ := st.Unit("ak")
	for _, m := range u.Models {
		if m.At == nil || math.Abs(m.At.Y-280/25.4) > 0.2 {
			t.Errorf("%s deployed at %+v, want y = 280 mm = 11.0 kroki", m.ID, m.At)
		}
	}
	d := st.Shot.Distance
	if want := 604 / 25.4; math.Abs(d.Kroki-want) > 0.1 || d.Uncertainty <= 0 || d.Uncertainty > 0.2 {
		t.Errorf("shot distance %+v kroki, want %.2f with a small uncertainty", d, want)
	}
	// The evidence of the shot's declaration: the camera's snapshot, with
	// the uncertainty of every position, and its annotated picture, stored
	// beside the journal under the SHA-256 its entry names.
	j, err := companion.ReadJournal(cfg.Resolve(cfg.Journal))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var declared *companion.Evidence
	j.Entries(context.Background(), 0, func(e companion.Entry) error {
		if strings.Contains(string(e.Body), `"type":"declare_shot"`) {
			_, declared, _ = companion.SplitEvidence(e.Events)
		}
		return nil
	})
	if declared == nil || declared.Snapshot == nil || declared.Image == nil {
		t.Fatalf("the shot's evidence: %+v, want the snapshot and its picture", declared)
	}
	if len(declared.Snapshot.Models) == 0 || declared.Snapshot.Models[0].SigmaMM <= 0 || declared.Tag == nil || declared.Tag.UID != "04D4E5F6" {
		t.Errorf("the shot's evidence: tag %+v, snapshot %+v", declared.Tag, declared.Snapshot)
	}
	if pic, err := companion.ReadEvidenceImage(j.Path(), declared.Image.SHA256); err != nil || len(pic) < 1000 || pic[0] != 0xff || pic[1] != 0xd8 {
		t.Errorf("the shot's picture beside the journal: %d bytes, %v; want the camera's JPEG", len(pic), err)
	}
}
