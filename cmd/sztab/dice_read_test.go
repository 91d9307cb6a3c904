//go:build cgo

package main

import (
	"encoding/json"
	"image/jpeg"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sztab/sztab/vision/dicetray"
)

// TestDiceRead: `sztab dice read` prints what the camera's reader
// (dicetray.Open, the one the live table uses) reads in each photograph,
// as text and as JSON, and writes the annotated pictures.
func TestDiceRead(t *testing.T) {
	photos := []string{
		"../../vision/dicetray/testdata/dice-photos/IMG_20191208_111228.jpg",
		"../../vision/dicetray/testdata/dice-photos/IMG_20191208_111304.jpg",
	}
	r, err := dicetray.Open(dicetray.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := t.TempDir()
	js, err := runSztab(t, append([]string{"dice", "read", "--json", "--out", out}, photos...)...)
	if err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	var got []diceImageJSON
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatalf("%v in %s", err, js)
	}
	if len(got) != len(photos) {
		t.Fatalf("%d images in the JSON, want %d", len(got), len(photos))
	}
	for i, p := range photos {
		f, err := dicetray.LoadImage(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := r.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		g := got[i]
		if g.Image != p || len(g.Dice) == 0 || !reflect.DeepEqual(g.Dice, want.Dice) {
			t.Errorf("%s: the command read %+v, the camera's reader %+v", p, g, want.Dice)
		}
		for _, d := range g.Dice {
			if d.Value < 0 || d.Value > 6 || (d.Value == 0) != (d.Unreadable != "") || d.Confidence <= 0 || d.Confidence > 1 || d.Side <= 0 {
				t.Errorf("%s: die %+v", p, d)
			}
		}
		a, err := os.Open(g.Annotated)
		if err != nil {
			t.Fatal(err)
		}
		img, err := jpeg.Decode(a)
		a.Close()
		if err != nil || img.Bounds().Dx() != f.Width || filepath.Dir(g.Annotated) != out {
			t.Errorf("%s: annotated %s: %v", p, g.Annotated, err)
		}
	}
	text, err := runSztab(t, "dice", "read", photos[0])
	if err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(text, "\n", 2)[0]; !strings.HasPrefix(first, photos[0]+": ") || strings.Count(text, "\n") != 1+len(got[0].Dice) {
		t.Errorf("text output:\n%s", text)
	}
	if _, err := runSztab(t, "dice", "read", "no-such.jpg"); err == nil {
		t.Error("a missing image: no error")
	}
}
