package board

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/sztab/sztab/vision/geom"
)

// Count is how many pieces of one colour stand on one zone or node, how
// sure the reading is (0–1) and, when it is unsure, why.
type Count struct {
	Node       string  `json:"node"`
	Colour     string  `json:"colour"`
	Count      int     `json:"count"`
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason,omitempty"`
}

// Unsure is the confidence given to a count that holds a piece standing
// between two zones or off any node: under every binding's threshold, so
// the players are asked to look.
const Unsure = 0.3

// sure is the confidence under which a count carries its reason: the
// bindings' threshold for asking the players.
const sure = 0.8

// ErrFrame is wrapped by the errors of a frame that cannot be read (too
// dark, the wrong size).
var ErrFrame = errors.New("frame unreadable")

// masked marks the samples on a corner marker: never a piece.
const masked = -2

// stepMM is the sampling step on the board.
const stepMM = 1.0

// Counter counts the pieces on one calibrated board. It is not safe for
// concurrent use (it keeps its buffers).
type Counter struct {
	def *Definition
	cal *Calibration
	nx  int
	ny  int
	pos []float32 // image x, y per sample; x < 0: outside the frame
	reg []int16   // region per sample, -1: none, masked: a corner marker
	// near marks the samples within two piece sizes of a region: the
	// only ones read (a piece further off is on no zone or node).
	near []bool
	name []string // region index → count name
	cent []geom.Vec2
	// hidden is each region's share of samples out of the frame.
	hidden []float64
	refs   []colourRef
	cam    geom.Vec3
	unit   float64 // a piece's footprint, mm²

	rgb   []float32
	class []int8
	top   []bool // the sample is a piece's lit top (blocks)
	seen  []int32
	queue []int32
}

type colourRef struct {
	name string
	c    [2]float64 // chromaticity (r, g) / sum, white-balanced
	rgb  [3]float64 // white-balanced, paper = 1
	qq   float64    // rgb·rgb
	qw   float64    // rgb·(1, 1, 1)
	det  float64    // the mix fit's determinant
	l    float64    // brightness, paper = 1
	dark bool
}

// NewCounter prepares the sampling of the board in frames of the
// calibration's size.
func NewCounter(d *Definition, c *Calibration) (*Counter, error) {
	if d.Game != c.Game {
		return nil, fmt.Errorf("board: the calibration is for %s, the board for %s", c.Game, d.Game)
	}
	h := geom.Homography(c.Homography)
	k := &Counter{def: d, cal: c, cam: geom.Vec3(c.CameraMM)}
	k.nx, k.ny = int(d.WidthMM/stepMM), int(d.DepthMM/stepMM)
	n := k.nx * k.ny
	k.pos = make([]float32, 2*n)
	k.reg = make([]int16, n)
	idx := map[string]int{}
	add := func(name string, x, y float64) int {
		i, ok := idx[name]
		if !ok {
			i = len(k.name)
			idx[name] = i
			k.name = append(k.name, name)
			k.cent = append(k.cent, geom.Vec2{X: x, Y: y})
		}
		return i
	}
	zoneOf := make([]int, len(d.Zones))
	for i, z := range d.Zones {
		cx, cy := 0.0, 0.0
		for _, p := range z.Polygon {
			cx += p[0] / float64(len(z.Polygon))
			cy += p[1] / float64(len(z.Polygon))
		}
		zoneOf[i] = add(z.Node, cx, cy)
	}
	nodeOf := make([]int, len(d.Nodes))
	for i, nd := range d.Nodes {
		nodeOf[i] = add(nd.ID, nd.X, nd.Y)
	}
	for j := range k.ny {
		y := (float64(j) + 0.5) * stepMM
		for i := range k.nx {
			x := (float64(i) + 0.5) * stepMM
			s := j*k.nx + i
			p := c.Lens.Real(h.Apply(geom.Vec2{X: x, Y: y}))
			if p.X >= 0 && p.Y >= 0 && p.X <= float64(c.Width-1) && p.Y <= float64(c.Height-1) {
				k.pos[2*s], k.pos[2*s+1] = float32(p.X), float32(p.Y)
			} else {
				k.pos[2*s] = -1
			}
			k.reg[s] = -1
			for zi, z := range d.Zones {
				if inPolygon(z.Polygon, x, y) {
					if k.reg[s] >= 0 && k.name[k.reg[s]] != z.Node {
						return nil, fmt.Errorf("board: zones %s and %s overlap at (%g, %g) mm", k.name[k.reg[s]], z.ID, x, y)
					}
					k.reg[s] = int16(zoneOf[zi])
				}
			}
			for _, m := range d.Markers {
				if math.Abs(x-m.X) <= m.SideMM*0.6 && math.Abs(y-m.Y) <= m.SideMM*0.6 {
					k.reg[s] = masked
				}
			}
		}
	}
	for ni, nd := range d.Nodes {
		for j := max(0, int((nd.Y-nd.RadiusMM)/stepMM)); j <= min(k.ny-1, int((nd.Y+nd.RadiusMM)/stepMM)); j++ {
			for i := max(0, int((nd.X-nd.RadiusMM)/stepMM)); i <= min(k.nx-1, int((nd.X+nd.RadiusMM)/stepMM)); i++ {
				x, y := (float64(i)+0.5)*stepMM, (float64(j)+0.5)*stepMM
				if s := j*k.nx + i; k.reg[s] != masked && math.Hypot(x-nd.X, y-nd.Y) <= nd.RadiusMM {
					k.reg[s] = int16(nodeOf[ni])
				}
			}
		}
	}
	k.near = make([]bool, n)
	reach := int(math.Ceil(2 * d.Piece.SizeMM / stepMM))
	for j := range k.ny {
		for i := range k.nx {
			if k.reg[j*k.nx+i] < 0 {
				continue
			}
			// mark a square around the first and last of each run
			if i > 0 && i < k.nx-1 && k.reg[j*k.nx+i-1] >= 0 && k.reg[j*k.nx+i+1] >= 0 && j > 0 && j < k.ny-1 && k.reg[(j-1)*k.nx+i] >= 0 && k.reg[(j+1)*k.nx+i] >= 0 {
				k.near[j*k.nx+i] = true
				continue
			}
			for y := max(0, j-reach); y <= min(k.ny-1, j+reach); y++ {
				for x := max(0, i-reach); x <= min(k.nx-1, i+reach); x++ {
					k.near[y*k.nx+x] = true
				}
			}
		}
	}
	total := make([]int, len(k.name))
	out := make([]int, len(k.name))
	for s, r := range k.reg {
		if r >= 0 {
			total[r]++
			if k.pos[2*s] < 0 {
				out[r]++
			}
		}
	}
	k.hidden = make([]float64, len(k.name))
	for r := range k.name {
		if total[r] > 0 {
			k.hidden[r] = float64(out[r]) / float64(total[r])
		}
	}
	for _, col := range d.Colours {
		r, g, b := float64(col.RGB[0])/255, float64(col.RGB[1])/255, float64(col.RGB[2])/255
		sum := r + g + b
		ref := colourRef{name: col.Name, l: sum / 3, rgb: [3]float64{r, g, b}, qq: r*r + g*g + b*b, qw: sum}
		ref.det = 3*ref.qq - ref.qw*ref.qw
		if sum > 0 {
			ref.c = [2]float64{r / sum, g / sum}
		}
		// A dark grey piece (the soldier) has no hue to go by.
		if ref.l < 0.3 && math.Hypot(ref.c[0]-1.0/3, ref.c[1]-1.0/3) < 0.06 {
			ref.dark = true
		} else if math.Hypot(ref.c[0]-1.0/3, ref.c[1]-1.0/3) < 0.08 {
			return nil, fmt.Errorf("board: colour %s %v is too grey to tell from the paper; only a dark grey or black piece may be grey", col.Name, col.RGB)
		}
		k.refs = append(k.refs, ref)
	}
	if len(k.refs) > 100 {
		return nil, errors.New("board: more than 100 colours")
	}
	switch d.Piece.Shape {
	case "block":
		k.unit = d.Piece.SizeMM * d.Piece.SizeMM
	default:
		k.unit = math.Pi * d.Piece.SizeMM * d.Piece.SizeMM / 4
	}
	k.rgb = make([]float32, 3*n)
	k.class = make([]int8, n)
	k.top = make([]bool, n)
	k.seen = make([]int32, n)
	return k, nil
}

// Classification, on white-balanced values (the board's paper is 1): a
// pixel is a piece's when it is a mix of the piece's colour (shaded) and
// paper within chromaTol (see classify).
const (
	chromaTol = 0.08
	topLit    = 0.82
	whiteCell = 16 // samples per side of a white-balance cell
)

// Result is a counted frame.
type Result struct {
	Counts []Count
	// Warnings are what the counting doubts that is no count.
	Warnings []string
}

// Count reads the pieces in a frame: every zone's count of every colour
// (0s included), or every node's non-zero counts. A frame of another size
// than the calibration's, or too dark to see the paper, is an error
// wrapping ErrFrame.
func (k *Counter) Count(img image.Image) (Result, error) {
	b := img.Bounds()
	if b.Dx() != k.cal.Width || b.Dy() != k.cal.Height {
		return Result{}, fmt.Errorf("board: %w: the frame is %d×%d, the calibration's %d×%d", ErrFrame, b.Dx(), b.Dy(), k.cal.Width, k.cal.Height)
	}
	rgba, ok := img.(*image.RGBA)
	if !ok || b.Min != (image.Point{}) {
		rgba = image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	}
	k.sample(rgba.Pix, rgba.Stride, 4, [3]int{0, 1, 2})
	if err := k.classify(); err != nil {
		return Result{}, err
	}
	return k.components(), nil
}

// CountBGR is Count on a frame of 8-bit BGR pixels, row after row (an
// OpenCV Mat's bytes).
func (k *Counter) CountBGR(width, height int, bgr []byte) (Result, error) {
	if width != k.cal.Width || height != k.cal.Height || len(bgr) != 3*width*height {
		return Result{}, fmt.Errorf("board: %w: the frame is %d×%d (%d bytes), the calibration's %d×%d", ErrFrame, width, height, len(bgr), k.cal.Width, k.cal.Height)
	}
	k.sample(bgr, 3*width, 3, [3]int{2, 1, 0})
	if err := k.classify(); err != nil {
		return Result{}, err
	}
	return k.components(), nil
}

// sample reads each board sample's colour (bilinear) from pix: rows of
// stride bytes, bpp bytes a pixel, red, green and blue at offsets ch.
func (k *Counter) sample(pix []byte, stride, bpp int, ch3 [3]int) {
	w, h := k.cal.Width, k.cal.Height
	for s := range k.reg {
		x := k.pos[2*s]
		if x < 0 || !k.near[s] {
			k.rgb[3*s] = -1
			continue
		}
		y := k.pos[2*s+1]
		x0, y0 := int(x), int(y)
		fx, fy := x-float32(x0), y-float32(y0)
		x1, y1 := min(x0+1, w-1), min(y0+1, h-1)
		o00, o10 := y0*stride+bpp*x0, y0*stride+bpp*x1
		o01, o11 := y1*stride+bpp*x0, y1*stride+bpp*x1
		for ch := range 3 {
			c0 := ch3[ch]
			a := float32(pix[o00+c0])*(1-fx) + float32(pix[o10+c0])*fx
			c := float32(pix[o01+c0])*(1-fx) + float32(pix[o11+c0])*fx
			k.rgb[3*s+ch] = a*(1-fy) + c*fy
		}
	}
}

// classify white-balances the samples by the paper around them and gives
// each its colour (class index + 1; 0: none).
func (k *Counter) classify() error {
	cw, ch := (k.nx+whiteCell-1)/whiteCell, (k.ny+whiteCell-1)/whiteCell
	white := make([][3]float32, cw*ch)
	lum := make([]float32, cw*ch)
	for cj := range ch {
		for ci := range cw {
			var hist [766]int32
			cnt := 0
			for j := cj * whiteCell; j < min((cj+1)*whiteCell, k.ny); j++ {
				for i := ci * whiteCell; i < min((ci+1)*whiteCell, k.nx); i++ {
					s := j*k.nx + i
					if k.rgb[3*s] >= 0 {
						hist[int(k.rgb[3*s]+k.rgb[3*s+1]+k.rgb[3*s+2])]++
						cnt++
					}
				}
			}
			if cnt == 0 {
				continue
			}
			var cut float32
			for b, above := 765, 0; b >= 0; b-- {
				above += int(hist[b])
				if above*10 >= cnt {
					cut = float32(b)
					break
				}
			}
			var acc [3]float32
			n := float32(0)
			for j := cj * whiteCell; j < min((cj+1)*whiteCell, k.ny); j++ {
				for i := ci * whiteCell; i < min((ci+1)*whiteCell, k.nx); i++ {
					s := j*k.nx + i
					if k.rgb[3*s] >= 0 && k.rgb[3*s]+k.rgb[3*s+1]+k.rgb[3*s+2] >= cut {
						acc[0] += k.rgb[3*s]
						acc[1] += k.rgb[3*s+1]
						acc[2] += k.rgb[3*s+2]
						n++
					}
				}
			}
			white[cj*cw+ci] = [3]float32{acc[0] / n, acc[1] / n, acc[2] / n}
			lum[cj*cw+ci] = (acc[0] + acc[1] + acc[2]) / n
		}
	}
	// A cell covered by pieces has no paper: take the brightest cell
	// within two cells (the light changes little over 80 mm).
	best := make([]int, cw*ch)
	var papers []float32
	for cj := range ch {
		for ci := range cw {
			bi := -1
			for dj := -2; dj <= 2; dj++ {
				for di := -2; di <= 2; di++ {
					i, j := ci+di, cj+dj
					if i < 0 || j < 0 || i >= cw || j >= ch {
						continue
					}
					if c := j*cw + i; bi < 0 || lum[c] > lum[bi] {
						bi = c
					}
				}
			}
			best[cj*cw+ci] = bi
			if lum[bi] > 0 {
				papers = append(papers, lum[bi]/3)
			}
		}
	}
	if len(papers) == 0 {
		return fmt.Errorf("board: %w: the board is not in the frame", ErrFrame)
	}
	slices.Sort(papers)
	if p := papers[len(papers)/2]; p < 25 {
		return fmt.Errorf("board: %w: too dark to read the pieces (the paper at %.0f of 255)", ErrFrame, p)
	}
	for j := range k.ny {
		for i := range k.nx {
			s := j*k.nx + i
			k.class[s] = 0
			if k.rgb[3*s] < 0 {
				continue
			}
			w := white[best[(j/whiteCell)*cw+i/whiteCell]]
			r := float64(k.rgb[3*s] / max(w[0], 1))
			g := float64(k.rgb[3*s+1] / max(w[1], 1))
			bl := float64(k.rgb[3*s+2] / max(w[2], 1))
			sum := r + g + bl
			l := sum / 3
			k.class[s] = 0
			if k.reg[s] == masked || sum <= 0 {
				continue
			}
			// A pixel is paper w = (1, 1, 1) and piece colour q mixed (its
			// edge) and shaded (its sides): p ≈ a·q + b·w. It is the piece's
			// when that fits (the residual within chromaTol of p's size)
			// and the piece's part a/(a+b) is at least half. A dark grey
			// piece (the soldier) has no hue: darker than halfway from the
			// paper to it, and grey.
			bestD, bestC := chromaTol, -1
			k.top[s] = false
			top := false
			pn := math.Sqrt(r*r + g*g + bl*bl)
			for ci, ref := range k.refs {
				if ref.dark {
					continue
				}
				q := ref.rgb
				qq, qw, det := ref.qq, ref.qw, ref.det
				qp := q[0]*r + q[1]*g + q[2]*bl
				wp := sum
				if det <= 1e-9 {
					continue
				}
				av := (3*qp - qw*wp) / det
				bv := (qq*wp - qw*qp) / det
				if av <= 0 || bv < -0.15 || av < 0.8*math.Max(bv, 0) {
					continue
				}
				er, eg, eb := r-av*q[0]-bv, g-av*q[1]-bv, bl-av*q[2]-bv
				d := math.Sqrt(er*er+eg*eg+eb*eb) / pn
				if d < bestD {
					bestD, bestC = d, ci
					// Lit like the paper: a piece's top, or its edge on
					// the paper; its sides are in shade.
					top = av >= bv && av+bv >= topLit
				}
			}
			k.top[s] = top
			dev := math.Max(math.Abs(r-l), math.Max(math.Abs(g-l), math.Abs(bl-l)))
			if bestC < 0 && dev < 0.1 {
				for ci, ref := range k.refs {
					if ref.dark && l < (1+ref.l)/2 {
						bestC = ci
						break
					}
				}
			}
			k.class[s] = int8(bestC + 1)
		}
	}
	return nil
}

type part struct {
	est float64 // pieces in this region
	n   int
}

// components finds each colour's connected patches, counts the pieces in
// each from its area and splits them between the regions it covers.
func (k *Counter) components() Result {
	type key struct{ region, colour int }
	counts := map[key]*Count{}
	get := func(r, c int) *Count {
		kk := key{r, c}
		if counts[kk] == nil {
			counts[kk] = &Count{Node: k.name[r], Colour: k.refs[c].name, Confidence: 1}
		}
		return counts[kk]
	}
	if len(k.def.Zones) > 0 {
		for r := range k.name {
			for c := range k.refs {
				get(r, c)
			}
		}
	}
	var res Result
	var hidden []string
	for r, h := range k.hidden {
		if h > 0.01 {
			hidden = append(hidden, fmt.Sprintf("%s (%.0f%%)", k.name[r], 100*h))
			if len(k.def.Zones) > 0 {
				for c := range k.refs {
					cnt := get(r, c)
					cnt.Confidence = math.Min(cnt.Confidence, Unsure)
					cnt.Reason = fmt.Sprintf("%s is %.0f%% out of the camera's view", k.name[r], 100*h)
				}
			}
		}
	}
	if len(hidden) > 0 {
		res.Warnings = append(res.Warnings, "board: out of the camera's view: "+strings.Join(hidden, ", "))
	}
	for i := range k.seen {
		k.seen[i] = 0
	}
	comp := int32(0)
	var pixels []int32
	blocks := k.def.Piece.Shape == "block"
	for start := range k.class {
		if k.class[start] == 0 || k.seen[start] != 0 || blocks && !k.top[start] {
			continue
		}
		comp++
		cls := k.class[start]
		pixels = pixels[:0]
		k.seen[start] = comp
		pixels = append(pixels, int32(start))
		for q := 0; q < len(pixels); q++ {
			s := int(pixels[q])
			x, y := s%k.nx, s/k.nx
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					xx, yy := x+dx, y+dy
					if xx < 0 || yy < 0 || xx >= k.nx || yy >= k.ny {
						continue
					}
					t := yy*k.nx + xx
					if k.class[t] == cls && k.seen[t] == 0 && (!blocks || k.top[t]) {
						k.seen[t] = comp
						pixels = append(pixels, int32(t))
					}
				}
			}
		}
		area := float64(len(pixels)) * stepMM * stepMM
		if area < 0.3*k.unit {
			continue // noise, a printed speck
		}
		if 4*k.interior(pixels, comp) < len(pixels) {
			continue // a printed line: no piece is that thin
		}
		var cx, cy float64
		for _, s := range pixels {
			cx += (float64(int(s)%k.nx) + 0.5) * stepMM
			cy += (float64(int(s)/k.nx) + 0.5) * stepMM
		}
		cx /= float64(len(pixels))
		cy /= float64(len(pixels))
		// The pieces' tops are seen displaced from their footprints by D,
		// away from the point under the camera; the patch is the
		// footprints swept along D. Its centroid is half D off.
		hgt := k.def.Piece.HeightMM
		hc := k.cam[2]
		f := hgt / (hc - hgt)
		dvec := geom.Vec2{X: (cx - k.cam[0]) * f, Y: (cy - k.cam[1]) * f}
		mag := hc / (hc - hgt)
		var foot float64
		var kept []geom.Vec2
		shift := 0.5
		if blocks {
			// Blocks are counted by their lit tops: the footprints moved
			// by D and magnified, apart where the blocks are apart.
			shift = 1
			foot = area
			for _, s := range pixels {
				kept = append(kept, geom.Vec2{X: (float64(int(s)%k.nx) + 0.5) * stepMM, Y: (float64(int(s)/k.nx) + 0.5) * stepMM})
			}
		} else {
			foot, kept = k.footprint(pixels, comp, dvec)
		}
		foot /= mag * mag
		total := foot / k.unit
		// Blocks in a rectangle are counted by its sides, which is
		// exact where the area's error grows with the row: the area
		// must agree within a block.
		if k.def.Piece.Shape == "block" {
			if nb, e, ok := blockCount(kept, k.def.Piece.SizeMM, mag); ok && e < 0.3 && math.Abs(total-float64(nb)) < 1 {
				total = float64(nb) + (total-float64(nb))*e
			}
		}
		n := int(math.Round(total))
		colour := int(cls) - 1
		at := geom.Vec2{X: cx - shift*dvec.X, Y: cy - shift*dvec.Y}
		if n == 0 {
			if total >= 0.3 {
				// Not a piece's area, yet more than noise: a piece half
				// hidden, or knocked over. Said, never dropped silently.
				r := k.regionAt(at.X, at.Y)
				if r < 0 {
					r = k.nearest(at)
				}
				reason := fmt.Sprintf("a %s patch of %.1f pieces' area at (%.0f, %.0f) mm: a piece half hidden?", k.refs[colour].name, total, at.X, at.Y)
				res.Warnings = append(res.Warnings, "board: "+reason)
				c := get(r, colour)
				c.Confidence = math.Min(c.Confidence, Unsure)
				c.Reason = joinReason(c.Reason, reason)
			}
			continue
		}
		// Split by region, each sample moved back by D/2.
		parts := make(map[int]*part)
		out := 0.0
		for _, s := range pixels {
			x := (float64(int(s)%k.nx)+0.5)*stepMM - shift*dvec.X
			y := (float64(int(s)/k.nx)+0.5)*stepMM - shift*dvec.Y
			r := k.regionAt(x, y)
			w := total / float64(len(pixels))
			if r < 0 { // off every region, or on a marker's margin
				out += w
				continue
			}
			if parts[r] == nil {
				parts[r] = &part{}
			}
			parts[r].est += w
		}
		regions := make([]int, 0, len(parts))
		for r := range parts {
			regions = append(regions, r)
		}
		sort.Ints(regions)
		clean := out < 0.3
		sum := 0
		worst := math.Abs(total - float64(n))
		for _, r := range regions {
			p := parts[r]
			p.n = int(math.Round(p.est))
			sum += p.n
			e := math.Abs(p.est - float64(p.n))
			worst = math.Max(worst, e)
			if e >= 0.3 {
				clean = false
			}
		}
		if clean && sum == n {
			// The area's error grows with the patch's outline, about √n.
			conf := math.Max(0.05, 1-worst/math.Sqrt(float64(n)))
			for _, r := range regions {
				if parts[r].n == 0 {
					continue
				}
				c := get(r, colour)
				c.Count += parts[r].n
				c.Confidence = math.Min(c.Confidence, conf)
				if conf < sure {
					c.Reason = joinReason(c.Reason, fmt.Sprintf("%.1f pieces' area of %s, read as %d", parts[r].est, k.refs[colour].name, parts[r].n))
				}
			}
			continue
		}
		// A piece between regions or off them: shared out by the largest
		// remainders, what lies off every region going to the nearest;
		// every count it touches is marked unsure, with the reason.
		near := k.nearest(at)
		if out > 0 {
			if parts[near] == nil {
				parts[near] = &part{}
				regions = append(regions, near)
				sort.Ints(regions)
			}
			parts[near].est += out
		}
		left := n
		for _, r := range regions {
			parts[r].n = int(math.Floor(parts[r].est))
			left -= parts[r].n
		}
		order := slices.Clone(regions)
		sort.SliceStable(order, func(a, b int) bool {
			fa := parts[order[a]].est - math.Floor(parts[order[a]].est)
			fb := parts[order[b]].est - math.Floor(parts[order[b]].est)
			return fa > fb
		})
		for i := 0; left > 0 && len(order) > 0; i = (i + 1) % len(order) {
			parts[order[i]].n++
			left--
		}
		var names []string
		for _, r := range regions {
			if parts[r].est >= 0.15 {
				names = append(names, k.name[r])
			}
		}
		var reason string
		switch {
		case len(names) > 1:
			reason = fmt.Sprintf("a %s piece between %s", k.refs[colour].name, strings.Join(names, " and "))
		case out >= 0.25 && len(k.def.Nodes) > 0:
			reason = fmt.Sprintf("a %s piece off every field at (%.0f, %.0f) mm; nearest %s", k.refs[colour].name, at.X, at.Y, k.name[near])
		case out >= 0.25:
			reason = fmt.Sprintf("a %s piece off every zone at (%.0f, %.0f) mm; nearest %s", k.refs[colour].name, at.X, at.Y, k.name[near])
		default:
			reason = fmt.Sprintf("%s: %.1f pieces' area of %s, read as %d", k.name[regions[0]], total, k.refs[colour].name, n)
		}
		res.Warnings = append(res.Warnings, "board: "+reason)
		for _, r := range regions {
			c := get(r, colour)
			c.Count += parts[r].n
			c.Confidence = math.Min(c.Confidence, Unsure)
			c.Reason = joinReason(c.Reason, reason)
		}
	}
	keys := make([]key, 0, len(counts))
	for kk, c := range counts {
		if len(k.def.Nodes) > 0 && c.Count == 0 && c.Reason == "" {
			continue
		}
		keys = append(keys, kk)
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a].region != keys[b].region {
			return keys[a].region < keys[b].region
		}
		return keys[a].colour < keys[b].colour
	})
	for _, kk := range keys {
		c := *counts[kk]
		c.Confidence = math.Round(c.Confidence*100) / 100
		res.Counts = append(res.Counts, c)
	}
	return res
}

// footprint is the area of the pieces under a patch. The patch is their
// footprints swept along d (their sides, up to their tops); the footprints
// are what stays of it moved by d: the samples p with p + d in the patch,
// d's fraction of a sample taken bilinearly.
func (k *Counter) footprint(pixels []int32, comp int32, d geom.Vec2) (float64, []geom.Vec2) {
	dx, dy := d.X/stepMM, d.Y/stepMM
	ix, iy := int(math.Floor(dx)), int(math.Floor(dy))
	fx, fy := dx-float64(ix), dy-float64(iy)
	in := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= k.nx || y >= k.ny || k.seen[y*k.nx+x] != comp {
			return 0
		}
		return 1
	}
	area := 0.0
	var kept []geom.Vec2
	for _, s := range pixels {
		x, y := int(s)%k.nx+ix, int(s)/k.nx+iy
		w := (1-fy)*((1-fx)*in(x, y)+fx*in(x+1, y)) + fy*((1-fx)*in(x, y+1)+fx*in(x+1, y+1))
		area += w
		if w >= 0.5 {
			kept = append(kept, geom.Vec2{X: (float64(int(s)%k.nx) + 0.5) * stepMM, Y: (float64(int(s)/k.nx) + 0.5) * stepMM})
		}
	}
	return area * stepMM * stepMM, kept
}

// blockCount counts blocks standing in a rectangle (a row, or rows
// touching) by its sides: the footprint's extent along its principal axes
// in block sizes. ok is false when the footprint does not fill its
// rectangle (an L of blocks): the area counts then. e is the worse side's
// distance from a whole number of blocks.
func blockCount(kept []geom.Vec2, size, scale float64) (n int, e float64, ok bool) {
	if len(kept) < 4 {
		return 0, 0, false
	}
	var mx, my float64
	for _, p := range kept {
		mx += p.X
		my += p.Y
	}
	mx /= float64(len(kept))
	my /= float64(len(kept))
	var sxx, syy, sxy float64
	for _, p := range kept {
		dx, dy := p.X-mx, p.Y-my
		sxx += dx * dx
		syy += dy * dy
		sxy += dx * dy
	}
	th := 0.5 * math.Atan2(2*sxy, sxx-syy)
	c, sn := math.Cos(th), math.Sin(th)
	u0, u1, v0, v1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range kept {
		dx, dy := p.X-mx, p.Y-my
		u, v := c*dx+sn*dy, -sn*dx+c*dy
		u0, u1, v0, v1 = math.Min(u0, u), math.Max(u1, u), math.Min(v0, v), math.Max(v1, v)
	}
	lu, lv := (u1-u0+stepMM)/scale, (v1-v0+stepMM)/scale
	if float64(len(kept))*stepMM*stepMM/scale/scale < 0.85*lu*lv {
		return 0, 0, false
	}
	nu, nv := math.Round(lu/size), math.Round(lv/size)
	if nu < 1 || nv < 1 {
		return 0, 0, false
	}
	e = math.Max(math.Abs(lu/size-nu), math.Abs(lv/size-nv))
	return int(nu * nv), e, true
}

func joinReason(a, b string) string {
	switch {
	case a == "":
		return b
	case strings.Contains(a, b):
		return a
	}
	return a + "; " + b
}

// interior counts the patch's samples whose four neighbours are in it.
func (k *Counter) interior(pixels []int32, comp int32) int {
	n := 0
	for _, s := range pixels {
		x, y := int(s)%k.nx, int(s)/k.nx
		if x > 0 && y > 0 && x < k.nx-1 && y < k.ny-1 &&
			k.seen[int(s)-1] == comp && k.seen[int(s)+1] == comp && k.seen[int(s)-k.nx] == comp && k.seen[int(s)+k.nx] == comp {
			n++
		}
	}
	return n
}

// regionAt is the region at (x, y) mm, -1 for none.
func (k *Counter) regionAt(x, y float64) int {
	i, j := int(x/stepMM), int(y/stepMM)
	if i < 0 || j < 0 || i >= k.nx || j >= k.ny {
		return -1
	}
	return int(k.reg[j*k.nx+i])
}

// nearest is the region nearest p: the first found on squares growing
// around it (up to 200 mm), else the one whose centre is nearest.
func (k *Counter) nearest(p geom.Vec2) int {
	ci, cj := int(p.X/stepMM), int(p.Y/stepMM)
	for r := 1; r <= int(200/stepMM); r++ {
		best, bd := -1, math.Inf(1)
		for j := cj - r; j <= cj+r; j++ {
			for i := ci - r; i <= ci+r; i++ {
				if i < 0 || j < 0 || i >= k.nx || j >= k.ny || (j != cj-r && j != cj+r && i != ci-r && i != ci+r) {
					continue
				}
				if g := k.reg[j*k.nx+i]; g >= 0 {
					if d := math.Hypot(float64(i-ci), float64(j-cj)); d < bd {
						best, bd = int(g), d
					}
				}
			}
		}
		if best >= 0 {
			return best
		}
	}
	best, bd := 0, math.Inf(1)
	for i, c := range k.cent {
		if d := c.Dist(p); d < bd {
			best, bd = i, d
		}
	}
	return best
}
