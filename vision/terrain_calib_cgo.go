//go:build cgo

package vision

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"log/slog"
	"math"

	"gocv.io/x/gocv"

	"github.com/sztab/sztab/vision/geom"
)

// CalibrateTerrainFrom learns the terrain colours from frames of the table
// (the images, or frames from the camera) with one sample of each class
// on it: a yellow and a green piece of cover, an orange template and a
// blue objective disc. Each sample is found by its hue (or, for a class
// in opt.Regions, taken from the rectangle given in table mm); the rest
// of the table is the bare table.
func CalibrateTerrainFrom(ctx context.Context, cfg Config, opt TerrainOptions, log *slog.Logger) (*TerrainCalibration, error) {
	reg, err := LoadRegistry(cfg.Markers)
	if err != nil {
		return nil, err
	}
	cal, err := LoadCalibration(cfg.Calibration)
	if err != nil {
		return nil, err
	}
	if opt.Frames <= 0 {
		opt.Frames = 3
	}
	var all TerrainSamples
	err = grabFrames(ctx, cfg, opt.Images, opt.Frames, 0, log, func(i int, name string, m gocv.Mat) error {
		if err := cal.CheckSize(m.Cols(), m.Rows()); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		s, err := TerrainSamplesOf(m, cal, reg, cfg.TerrainHeightMM, opt.Regions)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		all.merge(s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return LearnTerrain(all)
}

func (t *TerrainSamples) merge(s TerrainSamples) {
	t.Width, t.Height = s.Width, s.Height
	if t.Classes == nil {
		t.Classes = map[string][]HSV{}
	}
	for k, v := range s.Classes {
		t.Classes[k] = append(t.Classes[k], v...)
	}
	t.Table = append(t.Table, s.Table...)
	if s.ObjectiveMM > 0 {
		t.ObjectiveMM = s.ObjectiveMM
	}
}

// TerrainSamplesOf takes the calibration samples from one frame: for each
// class the largest blob of strong colour nearest its hue (orange 12,
// yellow 26, green 60, blue 110 in OpenCV's half degrees), or the
// rectangle regions gives it ([x0, y0, x1, y1] table mm), and the bare
// table around them.
func TerrainSamplesOf(frame gocv.Mat, cal *Calibration, reg *Registry, heightMM float64, regions map[string][4]float64) (TerrainSamples, error) {
	r := &terrainReader{tc: &TerrainCalibration{}, cal: cal, reg: reg, heightMM: heightMM,
		small: gocv.NewMat(), hsv: gocv.NewMat(), mask: gocv.NewMat(), tmp: gocv.NewMat(), table: gocv.NewMat(),
		kernel: gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(5, 5))}
	defer r.Close()
	r.prepare(frame)
	pix, err := r.hsv.DataPtrUint8()
	if err != nil {
		return TerrainSamples{}, errors.New("vision: calibrate terrain: the frame cannot be read")
	}
	tab, _ := r.table.DataPtrUint8()
	w, h := r.hsv.Cols(), r.hsv.Rows()
	out := TerrainSamples{Width: frame.Cols(), Height: frame.Rows(), Classes: map[string][]HSV{}}
	// strong colour: well above the table's own saturation
	var sats []int
	for i := 0; i < w*h; i += 7 {
		if tab[i] != 0 {
			sats = append(sats, int(pix[3*i+1]))
		}
	}
	if len(sats) < 100 {
		return out, errors.New("vision: calibrate terrain: the table is not in view")
	}
	// (a painted patch of the mat's scenery is a little more colourful
	// than the mat; the cover's paint is far more)
	strong := max(70, pctInt(sats, .9)+30, int(1.6*float64(pctInt(sats, .5))))
	taken := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC1) // every sample, grown: not bare table
	defer taken.Close()
	taken.SetTo(gocv.NewScalar(0, 0, 0, 0))
	cls := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC1)
	defer cls.Close()
	for _, class := range TerrainClasses {
		cp, _ := cls.DataPtrUint8()
		if rect, ok := regions[class]; ok {
			cls.SetTo(gocv.NewScalar(0, 0, 0, 0))
			var pts []image.Point
			for _, c := range [][2]float64{{rect[0], rect[1]}, {rect[2], rect[1]}, {rect[2], rect[3]}, {rect[0], rect[3]}} {
				p := toSmall(cal.ToImage(c[0], c[1], heightMM))
				pts = append(pts, image.Pt(int(math.Round(p.X)), int(math.Round(p.Y))))
			}
			pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
			gocv.FillPoly(&cls, pv, color.RGBA{255, 255, 255, 0})
			pv.Close()
		} else {
			prior := classHue[class]
			for i := 0; i < w*h; i++ {
				cp[i] = 0
				if tab[i] != 0 && int(pix[3*i+1]) >= strong && nearestClass(int(pix[3*i])) == class && hueDist(int(pix[3*i]), prior) <= 15 {
					cp[i] = 255
				}
			}
			gocv.MorphologyEx(cls, &cls, gocv.MorphOpen, r.kernel)
			// the most colourful blob of some size (a painted patch of the
			// mat's scenery may be larger, it is duller)
			cs := gocv.FindContours(cls, gocv.RetrievalExternal, gocv.ChainApproxSimple)
			best, bestS := -1, 0.0
			for i := 0; i < cs.Size(); i++ {
				if gocv.ContourArea(cs.At(i)) < 60 {
					continue
				}
				cls.SetTo(gocv.NewScalar(0, 0, 0, 0))
				gocv.DrawContours(&cls, cs, i, color.RGBA{255, 255, 255, 0}, -1)
				if sat := r.hsv.MeanWithMask(cls).Val2; sat > bestS {
					best, bestS = i, sat
				}
			}
			cls.SetTo(gocv.NewScalar(0, 0, 0, 0))
			if best >= 0 {
				gocv.DrawContours(&cls, cs, best, color.RGBA{255, 255, 255, 0}, -1)
				if class == ClassObjective {
					c := cs.At(best).ToPoints()
					var poly [][2]float64
					for _, p := range c {
						if t, err := cal.ToTable(fromSmall(geom.Vec2{X: float64(p.X), Y: float64(p.Y)}), heightMM); err == nil {
							poly = append(poly, [2]float64{t.X, t.Y})
						}
					}
					if len(poly) >= 3 {
						// the contour runs through the border pixels' centres
						out.ObjectiveMM = math.Round(2*math.Sqrt(polygonArea(poly)/math.Pi) + terrainShrink*cal.ScaleAt(polygonCentroid(poly)))
					}
				}
			}
			cs.Close()
		}
		gocv.BitwiseOr(taken, cls, &taken)
		// the sample's inside: away from its blurred edge
		gocv.Erode(cls, &cls, r.kernel)
		cp, _ = cls.DataPtrUint8()
		for i := 0; i < w*h; i++ {
			if cp[i] != 0 {
				out.Classes[class] = append(out.Classes[class], HSV{pix[3*i], pix[3*i+1], pix[3*i+2]})
			}
		}
	}
	// the bare table: not a sample nor near one, nor strongly coloured
	big := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(9, 9))
	gocv.Dilate(taken, &taken, big)
	big.Close()
	tp, _ := taken.DataPtrUint8()
	for i := 0; i < w*h; i += 3 {
		if tab[i] != 0 && tp[i] == 0 && int(pix[3*i+1]) < strong {
			out.Table = append(out.Table, HSV{pix[3*i], pix[3*i+1], pix[3*i+2]})
		}
	}
	return out, nil
}

// nearestClass is the class whose hue prior is nearest h.
func nearestClass(h int) string {
	best, bd := "", 1000
	for _, c := range TerrainClasses {
		if d := hueDist(h, classHue[c]); d < bd {
			best, bd = c, d
		}
	}
	return best
}
