package dicetray

import (
	"math"
	"slices"

	"github.com/sztab/sztab/vision/geom"
)

// pipSpots are the faces' pips, in pip spacings from the face's centre.
var pipSpots = [7][][2]float64{
	1: {{0, 0}},
	2: {{-1, -1}, {1, 1}},
	3: {{-1, -1}, {0, 0}, {1, 1}},
	4: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
	5: {{-1, -1}, {1, -1}, {0, 0}, {-1, 1}, {1, 1}},
	6: {{-1, -1}, {-1, 0}, {-1, 1}, {1, -1}, {1, 0}, {1, 1}},
}

// The face's tolerances, as fractions of the die's side (areas of its
// square). They are set for dice with round pips whose spacing is 0.19–
// 0.33 of the side (most dice; the generator's is 0.26).
const (
	pipAreaMin, pipAreaMax = 0.006, 0.08 // a pip's area
	pipReach               = 0.55        // pips lie this near the centre
	layoutTol              = 0.07        // a pip this far from its place breaks the layout
	spacingMin, spacingMax = 0.19, 0.33
	// squashMin: a face whose pips are squashed below this ratio is seen
	// at a slant of more than about 23°: the die is cocked.
	squashMin = 0.93
	// the outline: pixels beyond the die's square (and the sides a flat
	// die shows off axis) and pixels of the square that are tray
	edgeTol              = 0.05
	extraMax, missingMax = 0.05, 0.035
	foreignMax           = 0.025
	foreignTol           = 0.05
	missingTol           = 0.07
	minContrast          = 30.0 // grey levels between body and pips
	straightMin          = 0.5  // coherence of an outline of straight sides at right angles
)

type faceReader struct {
	f         Frame
	seg       *segmenter
	side      float64
	parallax  float64
	principal geom.Vec2
	cands     []candidate
	// laid and est, set by read: whether the pips formed a face and the
	// best estimate of the face's centre (for a second look at touching
	// dice)
	laid bool
	est  geom.Vec2
	// window buffers: px holds each pixel's flags (pxFg, …)
	x0, y0, w, h int
	// the window before it was cropped to the candidate's pixels (the
	// outline's missing pixels are sought in it)
	ox0, oy0, ow, oh int
	px               []uint8
	cell             []uint8
	lum              []float32
	lab              []int32
	// pips' buffers
	blobs []blob
	first []int
	st    []int
}

// A window pixel's flags: it stands out from the tray (pxFg); it is the
// candidate's (its blob's, and no other candidate of the blob is nearer:
// pxOwn); it is in the candidate's part of its blob, holes filled
// (pxFace); it is of another blob that lies wholly in the window, or
// nearly (pxFrag: the corners of a die under a stacked one, cut off from
// it by the upper die's sides where those match the tray).
const (
	pxFg, pxOwn, pxFace, pxFrag = 1, 2, 4, 8
)

type blob struct {
	c    geom.Vec2
	area int
	// round is the blob's minor over major axis (1: a circle; a round pip
	// seen at a slant t: cos t)
	round float64
}

// read decides what candidate i is; ok is false when it is not a die.
func (fr *faceReader) read(i int) (Die, bool) {
	cand := fr.cands[i]
	s := fr.side
	c := cand.centre
	off := c.Sub(fr.principal).Norm() * fr.parallax
	rad := 0.75*s + off + 3
	fr.window(i, rad)

	// body and pips: Otsu's threshold on the brightness near the centre
	var hist [256]int
	n := 0
	r2 := pipReach * s * pipReach * s
	ya, yb, xa, xb := fr.box(c, pipReach*s)
	for y := ya; y < yb; y++ {
		for x := xa; x < xb; x++ {
			k := y*fr.w + x
			if fr.px[k]&pxFace == 0 {
				continue
			}
			dx, dy := float64(fr.x0+x)-c.X, float64(fr.y0+y)-c.Y
			if dx*dx+dy*dy > r2 {
				continue
			}
			hist[int(fr.lum[k])]++
			n++
		}
	}
	thr, lo, hi, loN, hiN := otsu(hist[:], n)
	darkPips := loN < hiN
	contrast := hi - lo
	var blobs []blob
	if contrast >= minContrast && n > 0 {
		blobs = fr.pips(c, thr, darkPips)
	}
	body, pipCol := fr.colours(c, thr, darkPips)
	colour := colourName(body, pipCol)

	value, centre, theta, res, squash, laid := 0, c, math.NaN(), 0.0, 1.0, false
	if len(blobs) >= 1 && len(blobs) <= 6 {
		value, centre, theta, res, squash, laid = layout(blobs, c, s)
		// round pips seen at a slant are ellipses
		var sum, w float64
		for _, b := range blobs {
			sum += b.round * float64(b.area)
			w += float64(b.area)
		}
		squash = math.Min(squash, sum/w)
	}
	fr.laid, fr.est = laid, c
	if laid {
		fr.est = centre
	} else if len(blobs) > 0 {
		var m geom.Vec2
		for _, b := range blobs {
			m = m.Add(b.c)
		}
		fr.est = m.Scale(1 / float64(len(blobs)))
	}
	oTheta, coherence := fr.outlineAngle(c)
	if math.IsNaN(theta) {
		theta = oTheta
	}
	extra, missing, foreign := fr.outline(i, centre, theta, body)
	square := extra <= extraMax && missing <= missingMax && foreign <= foreignMax
	h := 0.5*s + 2
	edge := centre.X-h < 0 || centre.Y-h < 0 || centre.X+h > float64(fr.f.Width-1) || centre.Y+h > float64(fr.f.Height-1)
	d := Die{Centre: centre, Colour: colour}
	switch {
	case len(blobs) == 0 && coherence < straightMin:
		return Die{}, false // no pips and no straight sides: a coin, a token
	case edge:
		d.Unreadable = reasonEdge
	case laid && square && squash >= squashMin:
		d.Value = value
		d.Confidence = (1 - 0.5*res/layoutTol) * (1 - 0.5*math.Max(extra/extraMax, missing/missingMax)) * math.Min(1, contrast/(2*minContrast))
		return d, true
	case !square:
		d.Unreadable = reasonOutline
	case laid:
		d.Unreadable = reasonSlant
	case len(blobs) == 0:
		d.Unreadable = reasonNoPips
	default:
		d.Unreadable = reasonLayout
	}
	d.Centre = c
	d.Confidence = math.Min(1, 0.5+0.5*math.Max(extra/extraMax, missing/missingMax)/2)
	return d, true
}

// window loads the pixels within rad of candidate i: whether each stands
// out, whether it belongs to the candidate (its blob, and no other
// candidate of the blob is nearer) and its brightness.
func (fr *faceReader) window(i int, rad float64) {
	c := fr.cands[i].centre
	s := fr.seg
	fr.x0, fr.y0 = max(0, int(c.X-rad)), max(0, int(c.Y-rad))
	x1, y1 := min(fr.f.Width-1, int(c.X+rad)), min(fr.f.Height-1, int(c.Y+rad))
	fr.w, fr.h = x1-fr.x0+1, y1-fr.y0+1
	n := fr.w * fr.h
	if cap(fr.px) < n {
		fr.px = make([]uint8, n, n*3/2) // room for the larger windows to come
	}
	fr.px = fr.px[:n] // every pixel is written below
	fr.lum = growF(fr.lum, n)
	id := int32(fr.cands[i].comp + 1)
	sibs := s.byComp[fr.cands[i].comp]
	g := int(0.3 * fr.side)
	// the flags depend on the half-size cell: worked out once a cell
	hx0, hx1 := fr.x0/2, min((fr.x0+fr.w-1)/2, s.hw-1)
	hy0, hy1 := min(fr.y0/2, s.hh-1), min((fr.y0+fr.h-1)/2, s.hh-1)
	nc, nr := hx1-hx0+1, hy1-hy0+1
	if cap(fr.cell) < nc*nr {
		fr.cell = make([]uint8, nc*nr, nc*nr*3/2)
	}
	cells := fr.cell[:nc*nr]
	const cFg, cOwn, cFace, cFrag = pxFg, pxOwn, pxFace, pxFrag
	for hy := hy0; hy <= hy1; hy++ {
		cell := cells[(hy-hy0)*nc : (hy-hy0+1)*nc]
		for hx := hx0; hx <= hx1; hx++ {
			var fl uint8
			q := hy*s.hw + hx
			if s.fg[q] {
				fl |= cFg
				own := s.labels[q] == id
				if !own {
				near:
					for dy := -1; dy <= 1; dy++ {
						for dx := -1; dx <= 1; dx++ {
							xx, yy := hx+dx, hy+dy
							if xx >= 0 && yy >= 0 && xx < s.hw && yy < s.hh && s.labels[yy*s.hw+xx] == id {
								own = true
								break near
							}
						}
					}
				}
				if own {
					fl |= cOwn
				} else if l := s.labels[q]; l > 0 {
					cc := &s.comps[l-1]
					if 2*cc.x0 >= fr.x0-g && 2*cc.y0 >= fr.y0-g && 2*cc.x1+1 <= fr.x0+fr.w-1+g && 2*cc.y1+1 <= fr.y0+fr.h-1+g {
						fl |= cFrag
					}
				}
			}
			if fr.filled(i, 2*hx, 2*hy) {
				fl |= cFace
			}
			cell[hx-hx0] = fl
		}
	}
	// Crop: what the reading looks at is the pixels of the candidate, of
	// its face and of fragments, their neighbours two pixels away and
	// the pips' reach; beyond cropMargin of those cells the window holds
	// nothing it reads, and the borders it tests (a pip reaching the
	// window's edge) are never met
	fr.ox0, fr.oy0, fr.ow, fr.oh = fr.x0, fr.y0, fr.w, fr.h
	cx0, cy0, cx1, cy1 := nc, nr, -1, -1
	for r := 0; r < nr; r++ {
		for c, fl := range cells[r*nc : (r+1)*nc] {
			if fl&(cOwn|cFace|cFrag) != 0 {
				cx0, cx1 = min(cx0, c), max(cx1, c)
				cy0, cy1 = min(cy0, r), max(cy1, r)
			}
		}
	}
	if cx1 >= 0 {
		const cropMargin = 4
		// a cell's pixels: 2h and 2h+1 (the last column's and row's, to
		// the frame's edge)
		px0, py0 := 2*(hx0+cx0)-cropMargin, 2*(hy0+cy0)-cropMargin
		px1, py1 := 2*(hx0+cx1)+1+cropMargin, 2*(hy0+cy1)+1+cropMargin
		if hx0+cx1 == s.hw-1 {
			px1 = fr.f.Width - 1
		}
		if hy0+cy1 == s.hh-1 {
			py1 = fr.f.Height - 1
		}
		px0, py0 = max(px0, fr.x0), max(py0, fr.y0)
		px1, py1 = min(px1, fr.x0+fr.w-1), min(py1, fr.y0+fr.h-1)
		fr.x0, fr.y0, fr.w, fr.h = px0, py0, px1-px0+1, py1-py0+1
	}
	for y := 0; y < fr.h; y++ {
		py := fr.y0 + y
		hy := min(py/2, s.hh-1)
		cell := cells[(hy-hy0)*nc : (hy-hy0+1)*nc]
		row := 3 * py * fr.f.Width
		src := fr.f.BGR[row+3*fr.x0 : row+3*(fr.x0+fr.w)]
		lum := fr.lum[y*fr.w : (y+1)*fr.w]
		for x := range lum {
			p := src[3*x : 3*x+3 : 3*x+3]
			lum[x] = lumB[p[0]] + lumG[p[1]] + lumR[p[2]]
		}
		for x := 0; x < fr.w; x++ {
			px := fr.x0 + x
			k := y*fr.w + x
			fl := cell[min(px/2, s.hw-1)-hx0]
			nearest := true
			if len(sibs) > 1 && fl&(cOwn|cFace) != 0 {
				qx, qy := float64(px), float64(py)
				d := (qx-c.X)*(qx-c.X) + (qy-c.Y)*(qy-c.Y)
				for _, j := range sibs {
					o := fr.cands[j].centre
					if j != i && (qx-o.X)*(qx-o.X)+(qy-o.Y)*(qy-o.Y) < d {
						nearest = false
						break
					}
				}
			}
			if !nearest {
				fl &^= cOwn | cFace
			}
			fr.px[k] = fl
		}
	}
}

// A pixel's brightness is lumB[b] + lumG[g] + lumR[r]: each product as
// float32 works it out.
var lumB, lumG, lumR = func() (b, g, r [256]float32) {
	for v := range 256 {
		b[v], g[v], r[v] = 0.114*float32(v), 0.587*float32(v), 0.299*float32(v)
	}
	return b, g, r
}()

// box is the window's rows [ya, yb) and columns [xa, xb) that hold every
// pixel within r of c.
func (fr *faceReader) box(c geom.Vec2, r float64) (ya, yb, xa, xb int) {
	ya = max(0, int(math.Floor(c.Y-r))-fr.y0)
	yb = min(fr.h, int(math.Ceil(c.Y+r))-fr.y0+1)
	xa = max(0, int(math.Floor(c.X-r))-fr.x0)
	xb = min(fr.w, int(math.Ceil(c.X+r))-fr.x0+1)
	return ya, yb, xa, xb
}

func growF(b []float32, n int) []float32 {
	if cap(b) < n {
		return make([]float32, n, n*3/2)
	}
	return b[:n]
}

// otsu splits a histogram of n values in two: the threshold (the low class
// is < thr), each class's mean and size.
func otsu(h []int, n int) (thr int, lo, hi float64, loN, hiN int) {
	if n == 0 {
		return 0, 0, 0, 0, 0
	}
	total := 0.0
	for i, c := range h {
		total += float64(i * c)
	}
	best := -1.0
	sum, cnt := 0.0, 0
	for t := 1; t < len(h); t++ {
		cnt += h[t-1]
		sum += float64((t - 1) * h[t-1])
		if cnt == 0 || cnt == n {
			continue
		}
		m0 := sum / float64(cnt)
		m1 := (total - sum) / float64(n-cnt)
		v := float64(cnt) * float64(n-cnt) * (m0 - m1) * (m0 - m1)
		if v > best {
			best, thr, lo, hi, loN, hiN = v, t, m0, m1, cnt, n-cnt
		}
	}
	return thr, lo, hi, loN, hiN
}

// pips finds the round blobs of pip colour near the centre.
func (fr *faceReader) pips(c geom.Vec2, thr int, dark bool) []blob {
	s := fr.side
	n := fr.w * fr.h
	if cap(fr.lab) < n {
		fr.lab = make([]int32, n, n*3/2)
	}
	fr.lab = fr.lab[:n]
	clear(fr.lab)
	isPip := func(k int) bool {
		if fr.px[k]&pxFace == 0 {
			return false
		}
		if dark {
			return int(fr.lum[k]) < thr
		}
		return int(fr.lum[k]) >= thr
	}
	out, first, st := fr.blobs[:0], fr.first[:0], fr.st[:0] // first: each blob's first pixel in a raster scan of the window
	defer func() { fr.blobs, fr.first, fr.st = out, first, st }()
	next := int32(0)
	// a blob kept is round and centred within pipReach·s of c, so it has
	// pixels in the box around that circle: the scan starts there, and
	// the blobs go out in the order a scan of the whole window meets them
	ya, yb, xa, xb := fr.box(c, pipReach*s)
	for y := ya; y < yb; y++ {
		for x := xa; x < xb; x++ {
			k := y*fr.w + x
			if fr.lab[k] != 0 || !isPip(k) {
				continue
			}
			next++
			fr.lab[k] = next
			st = append(st[:0], k)
			var sx, sy, sxx, syy, sxy float64
			cnt, min0 := 0, k
			open := false // the blob reaches the face's outline: a side, not a pip
			for len(st) > 0 {
				p := st[len(st)-1]
				st = st[:len(st)-1]
				min0 = min(min0, p)
				px, py := p%fr.w, p/fr.w
				// the moments in the uncropped window's coordinates, as
				// the reading has always worked them out (to the bit)
				fx, fy := float64(px+fr.x0-fr.ox0), float64(py+fr.y0-fr.oy0)
				sx, sy, sxx, syy, sxy = sx+fx, sy+fy, sxx+fx*fx, syy+fy*fy, sxy+fx*fy
				cnt++
				// the four neighbours: right, left, below, above
				for d := 0; d < 4; d++ {
					q := p
					switch d {
					case 0:
						if px+1 >= fr.w {
							open = true
							continue
						}
						q++
					case 1:
						if px == 0 {
							open = true
							continue
						}
						q--
					case 2:
						if py+1 >= fr.h {
							open = true
							continue
						}
						q += fr.w
					default:
						if py == 0 {
							open = true
							continue
						}
						q -= fr.w
					}
					if fr.px[q]&pxFace == 0 {
						open = true
						continue // not a pip either
					}
					if fr.lab[q] == 0 && isPip(q) {
						fr.lab[q] = next
						st = append(st, q)
					}
				}
			}
			a := float64(cnt) / (s * s)
			if open || a < pipAreaMin || a > pipAreaMax {
				continue
			}
			mx, my := sx/float64(cnt), sy/float64(cnt)
			vxx, vyy, vxy := sxx/float64(cnt)-mx*mx, syy/float64(cnt)-my*my, sxy/float64(cnt)-mx*my
			det := vxx*vyy - vxy*vxy
			// a disc's area is 4π√det of its second moments; an arc or a
			// sliver is much smaller than its moments say
			if det <= 0 || float64(cnt)/(4*math.Pi*math.Sqrt(det)) < 0.7 {
				continue
			}
			ctr := geom.Vec2{X: float64(fr.ox0) + mx, Y: float64(fr.oy0) + my}
			if ctr.Dist(c) > pipReach*s {
				continue
			}
			tr, dt := vxx+vyy, math.Sqrt(math.Max(0, (vxx-vyy)*(vxx-vyy)/4+vxy*vxy))
			l1, l2 := tr/2+dt, tr/2-dt
			b := blob{c: ctr, area: cnt, round: math.Sqrt(math.Max(0, l2) / l1)}
			at := len(out)
			for at > 0 && first[at-1] > min0 {
				at--
			}
			out, first = slices.Insert(out, at, b), slices.Insert(first, at, min0)
		}
	}
	return out
}

// colours are the mean body and pip colours (BGR) near the centre.
func (fr *faceReader) colours(c geom.Vec2, thr int, dark bool) (body, pips [3]float64) {
	r2 := 0.45 * fr.side * 0.45 * fr.side
	var nb, np float64
	ya, yb, xa, xb := fr.box(c, 0.45*fr.side)
	for y := ya; y < yb; y++ {
		for x := xa; x < xb; x++ {
			k := y*fr.w + x
			if fr.px[k]&pxFace == 0 {
				continue
			}
			dx, dy := float64(fr.x0+x)-c.X, float64(fr.y0+y)-c.Y
			if dx*dx+dy*dy > r2 {
				continue
			}
			p := 3 * ((fr.y0+y)*fr.f.Width + fr.x0 + x)
			pip := (int(fr.lum[k]) < thr) == dark
			for ch := 0; ch < 3; ch++ {
				v := float64(fr.f.BGR[p+ch])
				if pip {
					pips[ch] += v
				} else {
					body[ch] += v
				}
			}
			if pip {
				np++
			} else {
				nb++
			}
		}
	}
	for ch := 0; ch < 3; ch++ {
		body[ch] /= math.Max(nb, 1)
		pips[ch] /= math.Max(np, 1)
	}
	return body, pips
}

// colourName names a body colour (BGR): achromatic bodies are white or
// black by whether they are brighter than their pips.
func colourName(body, pips [3]float64) string {
	b, g, r := body[0], body[1], body[2]
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	if mx <= 0 || (mx-mn)/mx < 0.35 {
		if b+g+r > pips[0]+pips[1]+pips[2] {
			return "white"
		}
		return "black"
	}
	var h float64
	switch mx {
	case r:
		h = 60 * math.Mod((g-b)/(mx-mn), 6)
	case g:
		h = 60 * ((b-r)/(mx-mn) + 2)
	default:
		h = 60 * ((r-g)/(mx-mn) + 4)
	}
	if h < 0 {
		h += 360
	}
	switch {
	case h < 20 || h >= 330:
		return "red"
	case h < 38:
		return "orange"
	case h < 70:
		return "yellow"
	case h < 170:
		return "green"
	case h < 260:
		return "blue"
	default:
		return "purple"
	}
}

// layout matches the pips to a face: the value, the face's centre, the
// angle of its sides (NaN for one pip), the worst pip's distance from its
// place (fraction of the side), how squashed the pattern is (1: square)
// and whether it fits at all.
func layout(bs []blob, c geom.Vec2, s float64) (value int, centre geom.Vec2, theta, res, squash float64, ok bool) {
	n := len(bs)
	var m geom.Vec2
	for _, b := range bs {
		m = m.Add(b.c)
	}
	m = m.Scale(1 / float64(n))
	if n == 1 {
		return 1, bs[0].c, math.NaN(), 0, 1, bs[0].c.Dist(c) <= 0.25*s
	}
	spots := pipSpots[n]
	best := math.Inf(1)
	var bestAssign [6]int
	var bestT, bestK float64
	for i := range bs {
		v := bs[i].c.Sub(m)
		if v.Norm() < 0.1*s {
			continue
		}
		for j := range spots {
			p := geom.Vec2{X: spots[j][0], Y: spots[j][1]}
			if p.Norm() == 0 {
				continue
			}
			t := math.Atan2(v.Y, v.X) - math.Atan2(p.Y, p.X)
			k := v.Norm() / p.Norm()
			if k < spacingMin*s || k > spacingMax*s {
				continue
			}
			ct, st := math.Cos(t), math.Sin(t)
			var used [6]bool
			var assign [6]int
			worst := 0.0
			for a := range bs {
				bj, bd := -1, math.Inf(1)
				for q := range spots {
					if used[q] {
						continue
					}
					pq := geom.Vec2{X: m.X + k*(ct*spots[q][0]-st*spots[q][1]), Y: m.Y + k*(st*spots[q][0]+ct*spots[q][1])}
					if d := pq.Dist(bs[a].c); d < bd {
						bj, bd = q, d
					}
				}
				used[bj] = true
				assign[a] = bj
				worst = math.Max(worst, bd)
			}
			if worst < best {
				best, bestAssign, bestT, bestK = worst, assign, t, k
			}
		}
	}
	if math.IsInf(best, 1) || best > layoutTol*s {
		return n, m, math.NaN(), best / s, 1, false
	}
	_ = bestK
	squash = 1.0
	if n >= 4 {
		// the affine map of the spots onto the pips: its singular values'
		// ratio
		var sxx, sxy, syy, ax, ay, bx, by float64
		for a := range bs {
			p := spots[bestAssign[a]]
			v := bs[a].c.Sub(m)
			sxx += p[0] * p[0]
			sxy += p[0] * p[1]
			syy += p[1] * p[1]
			ax += v.X * p[0]
			ay += v.X * p[1]
			bx += v.Y * p[0]
			by += v.Y * p[1]
		}
		det := sxx*syy - sxy*sxy
		if det > 0 {
			// A = [[ax ay],[bx by]] · inv([[sxx sxy],[sxy syy]])
			i00, i01, i11 := syy/det, -sxy/det, sxx/det
			a00, a01 := ax*i00+ay*i01, ax*i01+ay*i11
			a10, a11 := bx*i00+by*i01, bx*i01+by*i11
			// singular values of a 2×2
			e := (a00 + a11) / 2
			f := (a00 - a11) / 2
			g := (a10 + a01) / 2
			h := (a10 - a01) / 2
			q, r := math.Hypot(e, h), math.Hypot(f, g)
			s1, s2 := q+r, math.Abs(q-r)
			if s1 > 0 {
				squash = s2 / s1
			}
		}
	}
	return n, m, bestT, best / s, squash, true
}

// outlineAngle is the direction of the candidate's sides (mod 90°) from
// the brightness gradient at its outline, and how coherent it is (1: all
// sides at right angles, 0: round).
func (fr *faceReader) outlineAngle(c geom.Vec2) (theta, coherence float64) {
	var sc, ss, sw float64
	for y := 1; y < fr.h-1; y++ {
		for x := 1; x < fr.w-1; x++ {
			k := y*fr.w + x
			if fr.px[k]&pxOwn == 0 || (fr.px[k-1]&pxFg != 0 && fr.px[k+1]&pxFg != 0 && fr.px[k-fr.w]&pxFg != 0 && fr.px[k+fr.w]&pxFg != 0) {
				continue
			}
			l := fr.lum
			gx := float64(l[k-fr.w+1] + 2*l[k+1] + l[k+fr.w+1] - l[k-fr.w-1] - 2*l[k-1] - l[k+fr.w-1])
			gy := float64(l[k+fr.w-1] + 2*l[k+fr.w] + l[k+fr.w+1] - l[k-fr.w-1] - 2*l[k-fr.w] - l[k-fr.w+1])
			w2 := gx*gx + gy*gy
			if w2 < 1 {
				continue
			}
			// w·(cos 4a, sin 4a) for the gradient's angle a: (gx + i·gy)⁴/w³
			w := math.Sqrt(w2)
			c2, s2 := (gx*gx-gy*gy)/w2, 2*gx*gy/w2
			sc += w * (c2*c2 - s2*s2)
			ss += w * 2 * c2 * s2
			sw += w
		}
	}
	if sw == 0 {
		return 0, 0
	}
	return math.Atan2(ss, sc) / 4, math.Hypot(sc, ss) / sw
}

// outline compares the candidate's pixels with a flat die's: a square of
// the die's side at centre turned theta, with the sides it shows off the
// optical axis. extra is the fraction of a face's area that lies beyond
// it, missing the fraction of the square that is tray.
//
// foreign is the fraction of pixels beside the square (and not near a
// touching die) that cannot be the die's own sides: a flat die's sides
// are its body's hue and darker than its top under a lamp above, while a
// die below a stacked one shows its lit top face, and a cocked die shows
// a lit face beside the one seen as its top.
func (fr *faceReader) outline(i int, centre geom.Vec2, theta float64, body [3]float64) (extra, missing, foreign float64) {
	s := fr.side
	ct, st := math.Cos(theta), math.Sin(theta)
	sq := func(c geom.Vec2, side float64) [4]geom.Vec2 {
		h := side / 2
		var out [4]geom.Vec2
		for k, d := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			out[k] = geom.Vec2{X: c.X + h*(ct*d[0]-st*d[1]), Y: c.Y + h*(st*d[0]+ct*d[1])}
		}
		return out
	}
	top := sq(centre, s)
	bc := fr.principal.Add(centre.Sub(fr.principal).Scale(1 - fr.parallax))
	bottom := sq(bc, s*(1-fr.parallax))
	hull := edgesOf(convexHull(append(top[:], bottom[:]...)))
	tolOut := edgeTol*s + 1.5
	tolIn := missingTol*s + 1
	tolForeign := foreignTol*s + 1
	bodyLum := 0.114*body[0] + 0.587*body[1] + 0.299*body[2]
	bodyN := math.Sqrt(body[0]*body[0]+body[1]*body[1]+body[2]*body[2]) + 1e-9
	sibs := fr.seg.byComp[fr.cands[i].comp]
	near := 0.72 * s
	var nExtra, nMissing, nForeign int
	comp := &fr.seg.comps[fr.cands[i].comp]
	// a missing pixel lies in the square less tolIn, which lies within
	// ext of the centre along x and along y (a pixel's margin for
	// rounding)
	ext := (s/2-tolIn)*(math.Abs(ct)+math.Abs(st)) + 1
	// beyond and foreign: the candidate's and the fragments' pixels
	for y := 0; y < fr.h; y++ {
		for x := 0; x < fr.w; x++ {
			k := y*fr.w + x
			fl := fr.px[k]
			if fl&(pxOwn|pxFrag) == 0 {
				continue
			}
			q := geom.Vec2{X: float64(fr.x0 + x), Y: float64(fr.y0 + y)}
			d := q.Sub(centre)
			u, v := math.Abs(ct*d.X+st*d.Y), math.Abs(-st*d.X+ct*d.Y)
			{
				// the top square lies inside the hull: only a pixel
				// beyond it can be beyond the hull
				if fl&pxOwn != 0 && (u > s/2 || v > s/2) && hull.dist(q.X, q.Y) > tolOut {
					nExtra++
				}
				if (u > s/2+tolForeign || v > s/2+tolForeign) && x >= 2 && y >= 2 && x < fr.w-2 && y < fr.h-2 &&
					fr.px[k-2]&pxFg != 0 && fr.px[k+2]&pxFg != 0 && fr.px[k-2*fr.w]&pxFg != 0 && fr.px[k+2*fr.w]&pxFg != 0 &&
					!nearSibling(fr.cands, sibs, i, q, near) {
					p := 3 * ((fr.y0+y)*fr.f.Width + fr.x0 + x)
					b, g, r := float64(fr.f.BGR[p]), float64(fr.f.BGR[p+1]), float64(fr.f.BGR[p+2])
					lum := float64(fr.lum[k])
					bright := lum > 0.7*bodyLum+15
					hue := false
					if n := math.Sqrt(b*b+g*g+r*r) + 1e-9; n > 30 && bodyN > 30 {
						db, dg, dr := b/n-body[0]/bodyN, g/n-body[1]/bodyN, r/n-body[2]/bodyN
						hue = math.Sqrt(db*db+dg*dg+dr*dr) > 0.2
					}
					if bright || hue {
						nForeign++
					}
				}
			}
		}
	}
	// missing: over the window before its crop (it reads the blob only)
	oa, ob := int(math.Floor(centre.X-ext)), int(math.Ceil(centre.X+ext))
	for py := fr.oy0; py < fr.oy0+fr.oh; py++ {
		if dy := float64(py) - centre.Y; dy >= ext || dy <= -ext {
			continue
		}
		for px := max(oa, fr.ox0); px <= min(ob, fr.ox0+fr.ow-1); px++ {
			d := geom.Vec2{X: float64(px), Y: float64(py)}.Sub(centre)
			u, v := math.Abs(ct*d.X+st*d.Y), math.Abs(-st*d.X+ct*d.Y)
			if u < s/2-tolIn && v < s/2-tolIn && !filledIn(comp, px, py) {
				nMissing++
			}
		}
	}
	return float64(nExtra) / (s * s), float64(nMissing) / (s * s), float64(nForeign) / (s * s)
}

func nearSibling(cands []candidate, sibs []int, i int, q geom.Vec2, r float64) bool {
	for _, j := range sibs {
		if j != i && q.Dist(cands[j].centre) < r {
			return true
		}
	}
	return false
}

// filled: is full-size pixel (x, y) inside candidate i's blob, its holes
// (pips, their rims) filled?
func (fr *faceReader) filled(i, x, y int) bool {
	return filledIn(&fr.seg.comps[fr.cands[i].comp], x, y)
}

// filledIn: is full-size pixel (x, y) inside blob c, its holes filled?
func filledIn(c *comp, x, y int) bool {
	lx, ly := x/2-c.x0+1, y/2-c.y0+1
	if lx < 0 || ly < 0 || lx >= c.lw || ly >= c.lh {
		return false
	}
	return c.fill[ly*c.lw+lx]
}

// convexHull of points, counter-clockwise (in image coordinates, y down:
// clockwise on screen), by Andrew's monotone chain.
func convexHull(p []geom.Vec2) []geom.Vec2 {
	pts := append([]geom.Vec2(nil), p...)
	for i := 1; i < len(pts); i++ {
		for j := i; j > 0 && (pts[j].X < pts[j-1].X || pts[j].X == pts[j-1].X && pts[j].Y < pts[j-1].Y); j-- {
			pts[j], pts[j-1] = pts[j-1], pts[j]
		}
	}
	cross := func(o, a, b geom.Vec2) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	var h []geom.Vec2
	for _, q := range pts {
		for len(h) >= 2 && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	lower := len(h) + 1
	for i := len(pts) - 2; i >= 0; i-- {
		q := pts[i]
		for len(h) >= lower && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	return h[:len(h)-1]
}

// halfPlanes are a convex polygon's edges as outward unit normals and
// offsets: q is outside by max(n·q − c).
type halfPlanes struct{ nx, ny, c []float64 }

func edgesOf(h []geom.Vec2) halfPlanes {
	var e halfPlanes
	for k := range h {
		a, b := h[k], h[(k+1)%len(h)]
		d := b.Sub(a)
		l := d.Norm()
		if l == 0 {
			continue
		}
		// outward normal of a counter-clockwise (cross > 0) polygon
		nx, ny := d.Y/l, -d.X/l
		e.nx, e.ny, e.c = append(e.nx, nx), append(e.ny, ny), append(e.c, nx*a.X+ny*a.Y)
	}
	return e
}

// dist is how far q lies outside the polygon (≤ 0 inside).
func (e *halfPlanes) dist(x, y float64) float64 {
	worst := math.Inf(-1)
	for k := range e.c {
		if d := e.nx[k]*x + e.ny[k]*y - e.c[k]; d > worst {
			worst = d
		}
	}
	return worst
}
