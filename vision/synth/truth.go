package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/sztab/sztab/vision/geom"
)

// MarkerTruth is where a marker really is, on the table and in the image.
type MarkerTruth struct {
	Marker int     `json:"marker"`
	ID     string  `json:"id,omitempty"`
	Unit   string  `json:"unit,omitempty"`
	X      float64 `json:"x_mm"`
	Y      float64 `json:"y_mm"`
	Height float64 `json:"height_mm"`
	Side   float64 `json:"marker_mm"`
	Base   float64 `json:"base_mm,omitempty"`
	Rot    float64 `json:"rot_deg"`
	// Corners are the marker's corners in the (distorted) image, ArUco order.
	Corners [4]geom.Vec2 `json:"corners_px"`
	// Centre is the marker's centre in the image.
	Centre geom.Vec2 `json:"centre_px"`
	// Visible is the fraction of the marker (with a half-cell quiet zone)
	// that the camera sees: inside the image and not under a hand.
	Visible float64 `json:"visible"`
	// MMPerPixel is the table's scale there.
	MMPerPixel float64 `json:"mm_per_px"`
}

// Truth is the ground truth of a rendered frame.
type Truth struct {
	Scene     *Scene        `json:"scene"`
	Fiducials []MarkerTruth `json:"fiducials"`
	Models    []MarkerTruth `json:"models"`
}

// Truth computes the ground truth of the scene.
func (s *Scene) Truth() *Truth {
	t := &Truth{Scene: s}
	for _, f := range s.Fiducials {
		t.Fiducials = append(t.Fiducials, s.markerTruth(f.Marker, "", "", f.X, f.Y, f.Height, f.Side, 0, f.Rot))
	}
	for _, m := range s.Models {
		t.Models = append(t.Models, s.markerTruth(m.Marker, m.ID, m.Unit, m.X, m.Y, m.Height, m.Side, m.Diameter, m.Rot))
	}
	return t
}

func (s *Scene) markerTruth(marker int, id, unit string, x, y, h, side, base, rot float64) MarkerTruth {
	c := &s.Camera
	mt := MarkerTruth{Marker: marker, ID: id, Unit: unit, X: x, Y: y, Height: h, Side: side, Base: base, Rot: rot, MMPerPixel: c.MMPerPixel(x, y)}
	for i, p := range geom.SquareCorners(geom.Vec2{X: x, Y: y}, side, rot) {
		mt.Corners[i], _ = c.Pixel(p.X, p.Y, h)
	}
	mt.Centre, _ = c.Pixel(x, y, h)
	// sample the marker and a quiet zone of half a cell
	const n = 9
	cells := 6.0
	ext := side * (1 + 1/cells) / 2
	seen, total := 0, 0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			lx := -ext + 2*ext*float64(i)/(n-1)
			ly := -ext + 2*ext*float64(j)/(n-1)
			// rotate the sample with the marker
			px, py := rotate(lx, ly, rot)
			q := geom.Vec2{X: x + px, Y: y + py}
			total++
			pix, ok := c.Pixel(q.X, q.Y, h)
			if !ok || !c.InImage(pix, 3) || s.underHand(q.X, q.Y, h) {
				continue
			}
			seen++
		}
	}
	mt.Visible = float64(seen) / float64(total)
	return mt
}

func rotate(x, y, deg float64) (float64, float64) {
	a := deg * math.Pi / 180
	cs, sn := math.Cos(a), math.Sin(a)
	return cs*x - sn*y, sn*x + cs*y
}

// underHand reports whether a hand hides the table point (x, y, h) from
// the camera.
func (s *Scene) underHand(x, y, h float64) bool {
	c := s.Camera.Centre
	for i := range s.Hands {
		hd := &s.Hands[i]
		if hd.Height <= h || hd.Height >= c[2] {
			continue
		}
		f := (hd.Height - h) / (c[2] - h) // along the segment to the camera
		if hd.contains(x+f*(c[0]-x), y+f*(c[1]-y)) {
			return true
		}
	}
	return false
}

// Save writes the frame and its truth: path is the image (".png" or
// ".jpg"), the truth goes to the same name with ".json".
func Save(path string, im *Image, t *Truth, jpegQuality int) error {
	var buf bytes.Buffer
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(&buf, im.RGBA()); err != nil {
			return fmt.Errorf("synth: %w", err)
		}
	case ".jpg", ".jpeg":
		if err := jpeg.Encode(&buf, im.RGBA(), &jpeg.Options{Quality: jpegQuality}); err != nil {
			return fmt.Errorf("synth: %w", err)
		}
	default:
		return fmt.Errorf("synth: %s: want .png or .jpg", path)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	js, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	return os.WriteFile(TruthPath(path), append(js, '\n'), 0o644)
}

// TruthPath is where Save puts the truth of the image at path.
func TruthPath(path string) string { return strings.TrimSuffix(path, filepath.Ext(path)) + ".json" }

// LoadTruth reads a truth file.
func LoadTruth(path string) (*Truth, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	var t Truth
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("synth: %s: %w", path, err)
	}
	return &t, nil
}
