// Package synth renders synthetic top-down views of a skirmish table with
// known ground truth: ArUco markers on round bases at known positions and
// heights, the fiducial markers that define the table frame, a camera at a
// random pose (height, tilt, rotation) with lens distortion, blur, noise,
// uneven lighting and hands reaching over the table. The truth is written
// beside each image as JSON. Pure Go, deterministic for a seed on one
// platform: tests and benchmarks build their frames here.
package synth

import (
	"math"

	"github.com/sztab/sztab/vision/geom"
)

// Camera is a camera looking down at the table. Table coordinates are x,
// y on the table (mm) and height above it; internally z points down, so
// the rotation is right-handed with the camera's y axis down the image.
type Camera struct {
	Width  int       `json:"width"`
	Height int       `json:"height"`
	Lens   geom.Lens `json:"lens"`
	// R rotates table coordinates (x, y, z down) into camera coordinates.
	R geom.Mat3 `json:"r"`
	// Centre is the optical centre: x, y on the table, height above it.
	Centre geom.Vec3 `json:"centre"`
}

// LookDown builds a camera at centre whose optical axis leans tiltDeg from
// the vertical towards azimuth azDeg, turned by yawDeg about the axis.
func LookDown(width, height int, lens geom.Lens, centre geom.Vec3, tiltDeg, azDeg, yawDeg float64) Camera {
	tilt, az, yaw := tiltDeg*math.Pi/180, azDeg*math.Pi/180, yawDeg*math.Pi/180
	z := geom.Vec3{math.Sin(tilt) * math.Cos(az), math.Sin(tilt) * math.Sin(az), math.Cos(tilt)}
	xh := geom.Vec3{math.Cos(yaw), math.Sin(yaw), 0}
	x := xh.Sub(z.Scale(xh.Dot(z))).Unit()
	y := z.Cross(x)
	return Camera{Width: width, Height: height, Lens: lens, R: geom.FromRows(x, y, z), Centre: centre}
}

// camPoint is the table point (x, y) at height h in camera coordinates.
func (c *Camera) camPoint(x, y, h float64) geom.Vec3 {
	return c.R.MulVec(geom.Vec3{x - c.Centre[0], y - c.Centre[1], c.Centre[2] - h})
}

// Ideal projects a table point through an ideal pinhole (no distortion).
// ok is false for a point behind the camera.
func (c *Camera) Ideal(x, y, h float64) (p geom.Vec2, ok bool) {
	q := c.camPoint(x, y, h)
	if q[2] <= 1e-9 {
		return geom.Vec2{}, false
	}
	return c.Lens.Denormalize(geom.Vec2{X: q[0] / q[2], Y: q[1] / q[2]}), true
}

// Pixel projects a table point to the (distorted) image.
func (c *Camera) Pixel(x, y, h float64) (geom.Vec2, bool) {
	q := c.camPoint(x, y, h)
	if q[2] <= 1e-9 {
		return geom.Vec2{}, false
	}
	return c.Lens.Denormalize(c.Lens.Distort(geom.Vec2{X: q[0] / q[2], Y: q[1] / q[2]})), true
}

// InImage reports whether p lies at least margin pixels inside the image.
func (c *Camera) InImage(p geom.Vec2, margin float64) bool {
	return p.X >= margin-0.5 && p.Y >= margin-0.5 && p.X <= float64(c.Width)-0.5-margin && p.Y <= float64(c.Height)-0.5-margin
}

// MMPerPixel is the table's scale at (x, y): millimetres per pixel along x.
func (c *Camera) MMPerPixel(x, y float64) float64 {
	a, ok1 := c.Pixel(x-5, y, 0)
	b, ok2 := c.Pixel(x+5, y, 0)
	if !ok1 || !ok2 {
		return math.NaN()
	}
	return 10 / a.Dist(b)
}

// undistortGrid maps distorted pixels to normalised ideal coordinates by
// bilinear interpolation in a grid of exact values every step pixels.
type undistortGrid struct {
	step   float64
	nx, ny int
	v      []geom.Vec2
	lens   geom.Lens
	exact  bool
}

func newUndistortGrid(c *Camera, step int) *undistortGrid {
	g := &undistortGrid{step: float64(step), lens: c.Lens, exact: !c.Lens.HasDistortion()}
	if g.exact {
		return g
	}
	g.nx = (c.Width+2*step)/step + 2
	g.ny = (c.Height+2*step)/step + 2
	g.v = make([]geom.Vec2, g.nx*g.ny)
	for j := 0; j < g.ny; j++ {
		for i := 0; i < g.nx; i++ {
			px := geom.Vec2{X: float64(i-1) * g.step, Y: float64(j-1) * g.step}
			g.v[j*g.nx+i] = c.Lens.Undistort(c.Lens.Normalize(px))
		}
	}
	return g
}

func (g *undistortGrid) at(u, v float64) (float64, float64) {
	if g.exact {
		return (u - g.lens.CX) / g.lens.FX, (v - g.lens.CY) / g.lens.FY
	}
	fx, fy := u/g.step+1, v/g.step+1
	i, j := int(math.Floor(fx)), int(math.Floor(fy))
	if i < 0 {
		i = 0
	}
	if j < 0 {
		j = 0
	}
	if i > g.nx-2 {
		i = g.nx - 2
	}
	if j > g.ny-2 {
		j = g.ny - 2
	}
	ax, ay := fx-float64(i), fy-float64(j)
	p00, p10 := g.v[j*g.nx+i], g.v[j*g.nx+i+1]
	p01, p11 := g.v[(j+1)*g.nx+i], g.v[(j+1)*g.nx+i+1]
	x := (p00.X*(1-ax)+p10.X*ax)*(1-ay) + (p01.X*(1-ax)+p11.X*ax)*ay
	y := (p00.Y*(1-ax)+p10.Y*ax)*(1-ay) + (p01.Y*(1-ax)+p11.Y*ax)*ay
	return x, y
}
