package dicetray

import (
	"encoding/json"
	"flag"
	"fmt"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"github.com/sztab/sztab/vision/synth"
)

var writePhotos = flag.Bool("write-photos", false, "render testdata/photos again")

// photo is one committed tray image and its truth.
type photo struct {
	File     string           `json:"file"`
	Seed     uint64           `json:"seed"`
	SidePx   float64          `json:"side_px"`
	Parallax float64          `json:"parallax"`
	Felt     string           `json:"felt"`
	Dice     []synth.DieTruth `json:"dice"`
}

// photoTrays are the committed trays: 3×3 samples a pixel, stronger blur
// and noise, JPEG at quality 88 as a camera writes it.
func photoTrays() []synth.TrayOptions {
	var out []synth.TrayOptions
	for k := 0; k < 6; k++ {
		o := synth.DefaultTrayOptions(18 + k)
		o.Cocked, o.Stacked, o.Touching, o.Coins, o.Pencils = 1+k%2, k%2, 2+k%3, k%2, (k+1)%2
		o.Samples = 3
		o.Blur, o.Noise = [2]float64{0.8, 1.6}, [2]float64{2, 5}
		out = append(out, o)
	}
	return out
}

// TestPhotos reads the committed tray photographs (generated photoreal,
// see testdata/photos/README) against their truth: every readable die
// right, every cocked or stacked one unreadable, nothing invented. With
// -write-photos it renders them again.
func TestPhotos(t *testing.T) {
	dir := filepath.Join("testdata", "photos")
	if *writePhotos {
		var truth []photo
		for k, o := range photoTrays() {
			tr, err := synth.RandomTray(o, uint64(7000+k))
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("tray-%d.jpg", k+1)
			f, err := os.Create(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := jpeg.Encode(f, tr.Render().RGBA(), &jpeg.Options{Quality: 88}); err != nil {
				t.Fatal(err)
			}
			f.Close()
			truth = append(truth, photo{File: name, Seed: tr.Seed, SidePx: tr.Truth()[0].SidePx, Parallax: tr.Parallax(16), Felt: tr.Felt.Name, Dice: tr.Truth()})
		}
		b, _ := json.MarshalIndent(truth, "", "  ")
		if err := os.WriteFile(filepath.Join(dir, "truth.json"), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var photos []photo
	if err := json.Unmarshal(b, &photos); err != nil {
		t.Fatal(err)
	}
	if len(photos) < 5 {
		t.Fatalf("%d photographs in %s, want at least 5", len(photos), dir)
	}
	var c confusion
	for _, p := range photos {
		f, err := os.Open(filepath.Join(dir, p.File))
		if err != nil {
			t.Fatal(err)
		}
		img, err := jpeg.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p.File, err)
		}
		// the reader estimates the die's size itself here
		r, err := NewReader(Options{Parallax: p.Parallax})
		if err != nil {
			t.Fatal(err)
		}
		reading, err := r.Read(frameOf(synth.FromImage(img)))
		if err != nil {
			t.Fatalf("%s: %v", p.File, err)
		}
		if d := reading.SidePx/p.SidePx - 1; d > 0.08 || d < -0.08 {
			t.Errorf("%s: die side estimated %.1f px, truly %.1f", p.File, reading.SidePx, p.SidePx)
		}
		c.add(p.File, p.Dice, reading)
	}
	t.Logf("\n%s", c.String())
	for _, f := range c.failures {
		t.Error(f)
	}
}
