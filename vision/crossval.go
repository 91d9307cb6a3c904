package vision

import (
	"math"
	"sort"

	"github.com/sztab/sztab/vision/geom"
)

// A table fit maps camera pixels to the fiducials' plane (mm). The
// residuals at the fiducials it was fitted to say little about its error
// between them: a homography through a few fiducials at the table's edges
// fits them well even when an uncorrected lens bends the middle of the
// table by millimetres. Leaving each fiducial out in turn, fitting the
// others and measuring where the fit puts the one left out (its
// cross-validation error) does say it, and it chooses between lens models.

// planeFit fits a pixel → table mapping to the corners src (table mm)
// seen at raw (camera pixels).
type planeFit func(src, raw []geom.Vec2) (toTable func(geom.Vec2) geom.Vec2, err error)

// homographyFit is the table's homography through a known lens.
func homographyFit(lens geom.Lens) planeFit {
	return func(src, raw []geom.Vec2) (func(geom.Vec2) geom.Vec2, error) {
		dst := make([]geom.Vec2, len(raw))
		for i, p := range raw {
			dst[i] = lens.Ideal(p)
		}
		inv, err := fitInverse(src, dst)
		if err != nil {
			return nil, err
		}
		return func(p geom.Vec2) geom.Vec2 { return inv.Apply(lens.Ideal(p)) }, nil
	}
}

// radialFit estimates the lens's radial distortion with the homography
// (principal point at (cx, cy); the camera above the fiducials' plane by
// above mm, or 0 when not known).
func radialFit(cx, cy, above float64) planeFit {
	return func(src, raw []geom.Vec2) (func(geom.Vec2) geom.Vec2, error) {
		lens, _, err := fitRadial(src, raw, cx, cy, above)
		if err != nil {
			return nil, err
		}
		return homographyFit(lens)(src, raw)
	}
}

func fitRadial(src, raw []geom.Vec2, cx, cy, above float64) (geom.Lens, float64, error) {
	h0, err := fitLSQ(src, raw)
	if err != nil {
		return geom.Lens{}, 0, err
	}
	return geom.FitRadialLens(src, raw, h0, cx, cy, above)
}

// fitLSQ is the least-squares homography src → dst.
func fitLSQ(src, dst []geom.Vec2) (geom.Homography, error) {
	h, err := geom.FitHomography(src, dst)
	if err != nil {
		return h, err
	}
	return geom.RefineHomography(h, src, dst)
}

// fitInverse is the least-squares homography src → dst, inverted.
func fitInverse(src, dst []geom.Vec2) (geom.Homography, error) {
	h, err := fitLSQ(src, dst)
	if err != nil {
		return h, err
	}
	return h.Inv()
}

// holdout is the leave-one-fiducial-out error of fit over the corners
// with use set (groups[i] is corner i's fiducial): for each fiducial, the
// fit to the others maps its corners' pixels to the table, and the
// distances (mm) from where the registry puts them are pooled. It returns
// their RMS and each fiducial's RMS; ok is false with fewer than min
// fiducials, or when fewer than two could be predicted.
func holdout(src, raw []geom.Vec2, groups []int, use []bool, min int, fit planeFit) (rms float64, per map[int]float64, ok bool) {
	var ids []int
	seen := map[int]bool{}
	for i, g := range groups {
		if use[i] && !seen[g] {
			seen[g] = true
			ids = append(ids, g)
		}
	}
	sort.Ints(ids)
	if len(ids) < min || len(ids) < 4 {
		return 0, nil, false
	}
	per = map[int]float64{}
	var all []float64
	for _, id := range ids {
		var s, r []geom.Vec2
		for i, g := range groups {
			if use[i] && g != id {
				s, r = append(s, src[i]), append(r, raw[i])
			}
		}
		toTable, err := fit(s, r)
		if err != nil {
			continue
		}
		var e []float64
		for i, g := range groups {
			if use[i] && g == id {
				e = append(e, toTable(raw[i]).Dist(src[i]))
			}
		}
		per[id] = round3(geom.RMS(e))
		all = append(all, e...)
	}
	if len(per) < 2 {
		return 0, nil, false
	}
	return geom.RMS(all), per, true
}

// estimateDistortion fits radial distortion to the fiducials when there
// is no lens calibration, and keeps it (ok) when it predicts fiducials
// left out better than a lens without distortion does: withLens and
// without are the two holdout errors (mm). Fiducials the distorted lens
// cannot place within ransacPx are left out of the fit one by one (moved
// fiducials; the homography's RANSAC reports them), down to four. above
// is the camera's height above the fiducials, 0 when not known.
func estimateDistortion(src, raw []geom.Vec2, groups []int, cx, cy, above, ransacPx float64) (lens geom.Lens, withLens, without float64, ok bool) {
	use := make([]bool, len(src))
	for i := range use {
		use[i] = true
	}
	for {
		var s, r []geom.Vec2
		for i := range src {
			if use[i] {
				s, r = append(s, src[i]), append(r, raw[i])
			}
		}
		l, _, err := fitRadial(s, r, cx, cy, above)
		if err != nil {
			return geom.Lens{}, 0, 0, false
		}
		lens = l
		// each fiducial's residual through the distorted lens
		h, err := fitLSQ(s, idealOf(l, r))
		if err != nil {
			return geom.Lens{}, 0, 0, false
		}
		sq, cnt := map[int]float64{}, map[int]int{}
		for i := range src {
			if use[i] {
				d := h.Apply(src[i]).Dist(l.Ideal(raw[i]))
				sq[groups[i]] += d * d
				cnt[groups[i]]++
			}
		}
		worst, worstID := 0.0, -1
		for id, v := range sq {
			if e := math.Sqrt(v / float64(cnt[id])); e > worst {
				worst, worstID = e, id
			}
		}
		if worst <= ransacPx || len(sq) <= 4 {
			break
		}
		for i, g := range groups {
			if g == worstID {
				use[i] = false
			}
		}
	}
	withLens, _, ok1 := holdout(src, raw, groups, use, 4, radialFit(cx, cy, above))
	without, _, ok2 := holdout(src, raw, groups, use, 4, homographyFit(geom.Lens{}))
	if !ok1 || !ok2 || !(withLens < without) {
		return geom.Lens{}, withLens, without, false
	}
	return lens, withLens, without, true
}

func idealOf(l geom.Lens, raw []geom.Vec2) []geom.Vec2 {
	out := make([]geom.Vec2, len(raw))
	for i, p := range raw {
		out[i] = l.Ideal(p)
	}
	return out
}
