package geom

import "math"

// Lens is a pinhole camera with OpenCV's radial–tangential distortion
// (k1, k2, p1, p2, k3). Pixel coordinates follow OpenCV: the centre of the
// top-left pixel is (0, 0).
type Lens struct {
	FX float64 `yaml:"fx" json:"fx"`
	FY float64 `yaml:"fy" json:"fy"`
	CX float64 `yaml:"cx" json:"cx"`
	CY float64 `yaml:"cy" json:"cy"`
	K1 float64 `yaml:"k1" json:"k1"`
	K2 float64 `yaml:"k2" json:"k2"`
	P1 float64 `yaml:"p1" json:"p1"`
	P2 float64 `yaml:"p2" json:"p2"`
	K3 float64 `yaml:"k3" json:"k3"`
}

// K is the camera matrix.
func (l Lens) K() Mat3 { return Mat3{l.FX, 0, l.CX, 0, l.FY, l.CY, 0, 0, 1} }

// HasDistortion reports whether any distortion coefficient is set.
func (l Lens) HasDistortion() bool {
	return l.K1 != 0 || l.K2 != 0 || l.P1 != 0 || l.P2 != 0 || l.K3 != 0
}

// Distort maps ideal normalised coordinates (x/z, y/z) to distorted ones.
func (l Lens) Distort(p Vec2) Vec2 {
	x, y := p.X, p.Y
	r2 := x*x + y*y
	radial := 1 + r2*(l.K1+r2*(l.K2+r2*l.K3))
	return Vec2{
		x*radial + 2*l.P1*x*y + l.P2*(r2+2*x*x),
		y*radial + l.P1*(r2+2*y*y) + 2*l.P2*x*y,
	}
}

// Undistort inverts Distort by Newton's method.
func (l Lens) Undistort(d Vec2) Vec2 {
	if !l.HasDistortion() {
		return d
	}
	p := d
	for it := 0; it < 30; it++ {
		x, y := p.X, p.Y
		r2 := x*x + y*y
		radial := 1 + r2*(l.K1+r2*(l.K2+r2*l.K3))
		dr := l.K1 + r2*(2*l.K2+3*l.K3*r2) // d radial / d r2
		fx := x*radial + 2*l.P1*x*y + l.P2*(r2+2*x*x) - d.X
		fy := y*radial + l.P1*(r2+2*y*y) + 2*l.P2*x*y - d.Y
		a := radial + 2*dr*x*x + 2*l.P1*y + 6*l.P2*x
		b := 2*dr*x*y + 2*l.P1*x + 2*l.P2*y
		c := b
		e := radial + 2*dr*y*y + 6*l.P1*y + 2*l.P2*x
		det := a*e - b*c
		if det == 0 || math.IsNaN(det) {
			break
		}
		dx := (e*fx - b*fy) / det
		dy := (-c*fx + a*fy) / det
		p = Vec2{x - dx, y - dy}
		if math.Abs(dx)+math.Abs(dy) < 1e-15 {
			break
		}
	}
	return p
}

// Normalize maps a pixel to normalised image coordinates without removing
// distortion.
func (l Lens) Normalize(px Vec2) Vec2 { return Vec2{(px.X - l.CX) / l.FX, (px.Y - l.CY) / l.FY} }

// Denormalize maps normalised coordinates to a pixel.
func (l Lens) Denormalize(n Vec2) Vec2 { return Vec2{n.X*l.FX + l.CX, n.Y*l.FY + l.CY} }

// Ideal maps a pixel of the (distorted) camera image to the pixel an ideal
// pinhole camera with the same K would have seen.
func (l Lens) Ideal(px Vec2) Vec2 {
	if !l.HasDistortion() {
		return px
	}
	return l.Denormalize(l.Undistort(l.Normalize(px)))
}

// Real maps an ideal pinhole pixel to the pixel in the distorted image.
func (l Lens) Real(ideal Vec2) Vec2 {
	if !l.HasDistortion() {
		return ideal
	}
	return l.Denormalize(l.Distort(l.Normalize(ideal)))
}
