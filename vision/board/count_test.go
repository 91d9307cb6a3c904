package board_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/rules/mali"
	"github.com/sztab/sztab/vision/board"
	"github.com/sztab/sztab/vision/geom"
	"github.com/sztab/sztab/vision/synth"
)

// seen is where the camera puts the corners of the board's printed
// markers: what a perfect detector reports.
func seen(d *board.Definition, cam synth.Camera, hidden ...int) map[int][4]geom.Vec2 {
	out := map[int][4]geom.Vec2{}
	for _, m := range d.Markers {
		if slices.Contains(hidden, m.ID) {
			continue
		}
		var c [4]geom.Vec2
		in := true
		for k, p := range geom.SquareCorners(geom.Vec2{X: m.X, Y: m.Y}, m.SideMM, 0) {
			c[k], _ = cam.Pixel(p.X, p.Y, 0)
			in = in && cam.InImage(c[k], 2)
		}
		if in {
			out[m.ID] = c
		}
	}
	return out
}

// condition is a camera pose and light.
type condition struct {
	name   string
	height float64
	tilt   float64
	az     float64
	offset geom.Vec2
	light  synth.BoardLight
	noise  float64
	lens   bool // the lens is calibrated; else the focal length is found
}

var conditions = []condition{
	{name: "straight down, even light", height: 1000, noise: 2, lens: true},
	{name: "tilted 6°, dim warm light", height: 1050, tilt: 6, az: 30, light: synth.BoardLight{Gain: 0.55, Tint: [3]float64{1.1, 0.95, 0.75}}, noise: 3, lens: true},
	{name: "tilted 10°, bright cool light, fall-off", height: 950, tilt: 10, az: 200, offset: geom.Vec2{X: 15, Y: -10}, light: synth.BoardLight{Gain: 1.05, Tint: [3]float64{0.9, 1, 1.12}, Gradient: [2]float64{0.0006, -0.0005}}, noise: 4, lens: true},
	{name: "tilted 8°, no lens calibration", height: 1000, tilt: 8, az: 120, light: synth.BoardLight{Gain: 0.8, Gradient: [2]float64{-0.0005, 0}}, noise: 3},
}

// frame renders a scene under a condition and counts it.
func frame(t testing.TB, d *board.Definition, pieces []synth.BoardPiece, c condition, seed uint64) board.Result {
	t.Helper()
	cam := synth.BoardCamera(d, 1280, 960, c.height, c.tilt, c.az, c.offset)
	im, err := synth.RenderBoard(&synth.BoardScene{Def: d, Pieces: pieces, Camera: cam, Light: c.light, Noise: c.noise}, seed)
	if err != nil {
		t.Fatal(err)
	}
	in := board.CalibrateInput{Width: cam.Width, Height: cam.Height, Seen: seen(d, cam)}
	if c.lens {
		in.Lens = cam.Lens
	}
	cal, err := board.Calibrate(d, in)
	if err != nil {
		t.Fatal(err)
	}
	k, err := board.NewCounter(d, cal)
	if err != nil {
		t.Fatal(err)
	}
	res, err := k.Count(im.RGBA())
	if err != nil {
		t.Fatal(err)
	}
	// The camera's BGR frame reads the same.
	if bgr, err := k.CountBGR(im.Width, im.Height, im.BGR); err != nil || !reflect.DeepEqual(bgr, res) {
		t.Errorf("CountBGR %+v %v, Count %+v", bgr, err, res)
	}
	return res
}

// bitwaPieces lays out each army's units: counts[army][zone], in rows
// inside the army's own zone, touching or a few mm apart.
func bitwaPieces(t testing.TB, d *board.Definition, counts map[string]map[string]int, rng *rand.Rand) []synth.BoardPiece {
	var out []synth.BoardPiece
	for _, z := range d.Zones {
		army, _, _ := strings.Cut(z.ID, "-")
		n := counts[army][z.Node]
		x0, y0 := z.Polygon[0][0]+6, z.Polygon[0][1]+6
		x1, y1 := z.Polygon[2][0]-6, z.Polygon[2][1]-6
		gap := []float64{0, 0, 3, 6}[rng.IntN(4)]
		x, y := x0+5+rng.Float64()*10, y0+5+rng.Float64()*5
		for range n {
			if x+5 > x1 {
				x, y = x0+5+rng.Float64()*10, y+10+gap
			}
			if y+5 > y1 {
				t.Fatalf("zone %s cannot hold %d units", z.ID, n)
			}
			out = append(out, synth.BoardPiece{Colour: army, X: x, Y: y})
			x += 10 + gap
		}
	}
	return out
}

// want is the counts the binding expects: every zone × army.
func bitwaWant(counts map[string]map[string]int) map[string]int {
	w := map[string]int{}
	for army, zs := range counts {
		for z, n := range zs {
			w[z+"/"+army] = n
		}
	}
	return w
}

// check compares the counts with the truth. Every count that is wrong
// must be flagged (confidence under the bindings' 0.8, with a reason):
// nothing wrong goes out as sure. It returns how many counts were flagged
// (those go to the players to confirm).
func check(t *testing.T, res board.Result, want map[string]int) (flagged int) {
	t.Helper()
	got := map[string]int{}
	sure := map[string]bool{}
	for _, c := range res.Counts {
		k := c.Node + "/" + c.Colour
		got[k] += c.Count
		sure[k] = c.Confidence >= 0.8
		if c.Confidence < 0.8 {
			flagged++
			if c.Reason == "" {
				t.Errorf("%s: unsure (%.2f) without a reason", k, c.Confidence)
			}
		}
	}
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	for k := range keys {
		if got[k] != want[k] && (sure[k] || got[k] == 0 && !strings.Contains(fmt.Sprint(res.Warnings), strings.Split(k, "/")[0])) {
			t.Errorf("%s: counted %d and sure, truth %d", k, got[k], want[k])
		}
	}
	return flagged
}

// maliPieces puts the 12 couriers (three of each colour) and the soldier
// on random nodes: up to four on an object (two of one colour touching),
// one on a road field.
func maliPieces(d *board.Definition, rng *rand.Rand) ([]synth.BoardPiece, map[string]int) {
	var objects, fields []board.Node
	for _, n := range d.Nodes {
		switch {
		case !strings.Contains(n.ID, "/") && n.RadiusMM >= 19:
			objects = append(objects, n)
		case strings.Contains(n.ID, "/") && n.RadiusMM >= 10:
			fields = append(fields, n)
		}
	}
	var pawns []string
	for _, c := range mali.Colours {
		pawns = append(pawns, c, c, c)
	}
	pawns = append(pawns, "soldier")
	rng.Shuffle(len(pawns), func(i, j int) { pawns[i], pawns[j] = pawns[j], pawns[i] })
	want := map[string]int{}
	var out []synth.BoardPiece
	offsets := [][2]float64{{-8, -8}, {8, -8}, {-8, 8}, {8, 8}}
	for len(pawns) > 0 {
		if rng.IntN(2) == 0 {
			f := fields[rng.IntN(len(fields))]
			fields = slices.DeleteFunc(fields, func(n board.Node) bool { return n.ID == f.ID })
			out = append(out, synth.BoardPiece{Colour: pawns[0], X: f.X, Y: f.Y})
			want[f.ID+"/"+pawns[0]]++
			pawns = pawns[1:]
			continue
		}
		o := objects[rng.IntN(len(objects))]
		objects = slices.DeleteFunc(objects, func(n board.Node) bool { return n.ID == o.ID })
		// Two of one colour side by side, touching, when there are two.
		if i := slices.Index(pawns[1:], pawns[0]); i >= 0 && rng.IntN(2) == 0 {
			c := pawns[0]
			out = append(out, synth.BoardPiece{Colour: c, X: o.X - 7, Y: o.Y}, synth.BoardPiece{Colour: c, X: o.X + 7, Y: o.Y})
			want[o.ID+"/"+c] += 2
			pawns = slices.Delete(pawns, i+1, i+2)[1:]
			continue
		}
		for k := range min(len(pawns), 1+rng.IntN(4)) {
			out = append(out, synth.BoardPiece{Colour: pawns[0], X: o.X + offsets[k][0], Y: o.Y + offsets[k][1]})
			want[o.ID+"/"+pawns[0]]++
			pawns = pawns[1:]
		}
	}
	return out, want
}

// Calibration failures say which marker and why, and count nothing.
func TestCalibrateBadMarkers(t *testing.T) {
	d, _ := printed.Builtin("bitwa-warszawska")
	cam := synth.BoardCamera(d, 1280, 960, 1000, 4, 0, geom.Vec2{})
	_, err := board.Calibrate(d, board.CalibrateInput{Width: 1280, Height: 960, Seen: seen(d, cam, 92)})
	if !errors.Is(err, board.ErrMarkers) || !strings.Contains(err.Error(), "[92] not seen") {
		t.Errorf("a missing corner: %v", err)
	}
	s := seen(d, cam)
	moved := s[91]
	for k := range moved {
		moved[k].X -= 60
	}
	s[91] = moved
	_, err = board.Calibrate(d, board.CalibrateInput{Width: 1280, Height: 960, Seen: s})
	if !errors.Is(err, board.ErrMarkers) || !strings.Contains(err.Error(), "marker 91") {
		t.Errorf("a moved corner: %v", err)
	}
	m, _ := printed.Builtin("mali-powstancy")
	cal, err := board.Calibrate(d, board.CalibrateInput{Width: 1280, Height: 960, Seen: seen(d, cam)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := board.NewCounter(m, cal); err == nil {
		t.Error("Bitwa's calibration counted Mali's board")
	}
}

// A frame too dark to read, or of another size, is an error.
func TestCountBadFrame(t *testing.T) {
	d, _ := printed.Builtin("bitwa-warszawska")
	cam := synth.BoardCamera(d, 640, 480, 1000, 0, 0, geom.Vec2{})
	cal, err := board.Calibrate(d, board.CalibrateInput{Width: 640, Height: 480, Seen: seen(d, cam), Lens: cam.Lens})
	if err != nil {
		t.Fatal(err)
	}
	k, err := board.NewCounter(d, cal)
	if err != nil {
		t.Fatal(err)
	}
	dark, _ := synth.RenderBoard(&synth.BoardScene{Def: d, Camera: cam, Light: synth.BoardLight{Gain: 0.04}, Noise: 1}, 1)
	if _, err := k.Count(dark.RGBA()); !errors.Is(err, board.ErrFrame) || !strings.Contains(err.Error(), "too dark") {
		t.Errorf("a dark frame: %v", err)
	}
	if _, err := k.CountBGR(640, 480, make([]byte, 10)); !errors.Is(err, board.ErrFrame) {
		t.Errorf("a short BGR frame: %v", err)
	}
	small := synth.BoardCamera(d, 320, 240, 1000, 0, 0, geom.Vec2{})
	im, _ := synth.RenderBoard(&synth.BoardScene{Def: d, Camera: small}, 1)
	if _, err := k.Count(im.RGBA()); !errors.Is(err, board.ErrFrame) {
		t.Errorf("a frame of another size: %v", err)
	}
}

func BenchmarkCountBitwa(b *testing.B) { benchCount(b, "bitwa-warszawska") }
func BenchmarkCountMali(b *testing.B)  { benchCount(b, "mali-powstancy") }

// benchCount counts a full board frame (1280×960): sampling, white
// balance, classification, components.
func benchCount(b *testing.B, game string) {
	d, _ := printed.Builtin(game)
	var pieces []synth.BoardPiece
	if game == "mali-powstancy" {
		pieces, _ = maliPieces(d, rand.New(rand.NewPCG(1, 2)))
	} else {
		pieces = bitwaPieces(b, d, map[string]map[string]int{"wp": {"N1": 3, "C2": 2, "reserve": 16}, "acz": {"S1": 5, "S2": 1, "reserve": 15}}, rand.New(rand.NewPCG(1, 2)))
	}
	cam := synth.BoardCamera(d, 1280, 960, 1000, 5, 30, geom.Vec2{})
	im, err := synth.RenderBoard(&synth.BoardScene{Def: d, Pieces: pieces, Camera: cam, Noise: 2}, 1)
	if err != nil {
		b.Fatal(err)
	}
	cal, err := board.Calibrate(d, board.CalibrateInput{Width: cam.Width, Height: cam.Height, Seen: seen(d, cam), Lens: cam.Lens})
	if err != nil {
		b.Fatal(err)
	}
	k, err := board.NewCounter(d, cal)
	if err != nil {
		b.Fatal(err)
	}
	rgba := im.RGBA()
	b.ResetTimer()
	for range b.N {
		if _, err := k.Count(rgba); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
}

var _ = math.Pi
