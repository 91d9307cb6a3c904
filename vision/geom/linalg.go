// Package geom is the pure geometry of the table camera: small linear
// algebra, plane homographies (DLT, RANSAC, Levenberg–Marquardt), the lens
// model (OpenCV's radial–tangential distortion) and the camera pose
// recovered from a plane. No cgo: it builds and tests with CGO_ENABLED=0.
package geom

import (
	"errors"
	"math"
)

// Vec2 is a point in an image (pixels) or on the table (millimetres).
type Vec2 struct{ X, Y float64 }

// Add returns p+q.
func (p Vec2) Add(q Vec2) Vec2 { return Vec2{p.X + q.X, p.Y + q.Y} }

// Sub returns p−q.
func (p Vec2) Sub(q Vec2) Vec2 { return Vec2{p.X - q.X, p.Y - q.Y} }

// Scale returns s·p.
func (p Vec2) Scale(s float64) Vec2 { return Vec2{s * p.X, s * p.Y} }

// Norm is the length of p.
func (p Vec2) Norm() float64 { return math.Hypot(p.X, p.Y) }

// Dist is the distance between p and q.
func (p Vec2) Dist(q Vec2) float64 { return math.Hypot(p.X-q.X, p.Y-q.Y) }

// Vec3 is a 3-vector.
type Vec3 [3]float64

// Dot is the scalar product.
func (a Vec3) Dot(b Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Cross is the vector product a×b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Norm is the Euclidean length.
func (a Vec3) Norm() float64 { return math.Sqrt(a.Dot(a)) }

// Scale returns s·a.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{s * a[0], s * a[1], s * a[2]} }

// Add returns a+b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// Sub returns a−b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Unit returns a scaled to length 1.
func (a Vec3) Unit() Vec3 { return a.Scale(1 / a.Norm()) }

// Mat3 is a 3×3 matrix, row-major.
type Mat3 [9]float64

// Identity3 is the identity matrix.
var Identity3 = Mat3{1, 0, 0, 0, 1, 0, 0, 0, 1}

// Mul returns m·n.
func (m Mat3) Mul(n Mat3) Mat3 {
	var r Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[3*i+j] = m[3*i]*n[j] + m[3*i+1]*n[3+j] + m[3*i+2]*n[6+j]
		}
	}
	return r
}

// MulVec returns m·v.
func (m Mat3) MulVec(v Vec3) Vec3 {
	return Vec3{
		m[0]*v[0] + m[1]*v[1] + m[2]*v[2],
		m[3]*v[0] + m[4]*v[1] + m[5]*v[2],
		m[6]*v[0] + m[7]*v[1] + m[8]*v[2],
	}
}

// T is the transpose.
func (m Mat3) T() Mat3 { return Mat3{m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]} }

// Col returns column j.
func (m Mat3) Col(j int) Vec3 { return Vec3{m[j], m[3+j], m[6+j]} }

// Row returns row i.
func (m Mat3) Row(i int) Vec3 { return Vec3{m[3*i], m[3*i+1], m[3*i+2]} }

// FromCols builds a matrix from its columns.
func FromCols(a, b, c Vec3) Mat3 { return Mat3{a[0], b[0], c[0], a[1], b[1], c[1], a[2], b[2], c[2]} }

// FromRows builds a matrix from its rows.
func FromRows(a, b, c Vec3) Mat3 { return Mat3{a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]} }

// Scale returns s·m.
func (m Mat3) Scale(s float64) Mat3 {
	for i := range m {
		m[i] *= s
	}
	return m
}

// Det is the determinant.
func (m Mat3) Det() float64 {
	return m[0]*(m[4]*m[8]-m[5]*m[7]) - m[1]*(m[3]*m[8]-m[5]*m[6]) + m[2]*(m[3]*m[7]-m[4]*m[6])
}

// ErrSingular is returned for a matrix or system that cannot be inverted.
var ErrSingular = errors.New("geom: singular matrix")

// Inv is the inverse.
func (m Mat3) Inv() (Mat3, error) {
	d := m.Det()
	scale := 0.0
	for _, v := range m {
		scale = math.Max(scale, math.Abs(v))
	}
	if scale == 0 || math.Abs(d) <= 1e-14*scale*scale*scale || math.IsNaN(d) {
		return Mat3{}, ErrSingular
	}
	inv := Mat3{
		m[4]*m[8] - m[5]*m[7], m[2]*m[7] - m[1]*m[8], m[1]*m[5] - m[2]*m[4],
		m[5]*m[6] - m[3]*m[8], m[0]*m[8] - m[2]*m[6], m[2]*m[3] - m[0]*m[5],
		m[3]*m[7] - m[4]*m[6], m[1]*m[6] - m[0]*m[7], m[0]*m[4] - m[1]*m[3],
	}
	return inv.Scale(1 / d), nil
}

// SymEigen diagonalises the symmetric n×n matrix a (row-major, not
// modified) by cyclic Jacobi rotations. It returns the eigenvalues in
// ascending order and the eigenvectors as the columns of v (row-major n×n)
// in the same order.
func SymEigen(n int, a []float64) (vals []float64, v []float64) {
	m := append([]float64(nil), a...)
	v = make([]float64, n*n)
	for i := 0; i < n; i++ {
		v[i*n+i] = 1
	}
	for sweep := 0; sweep < 100; sweep++ {
		off := 0.0
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				off += m[i*n+j] * m[i*n+j]
			}
		}
		if off < 1e-300 {
			break
		}
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				apq := m[p*n+q]
				if apq == 0 {
					continue
				}
				app, aqq := m[p*n+p], m[q*n+q]
				theta := (aqq - app) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := 0; k < n; k++ {
					akp, akq := m[k*n+p], m[k*n+q]
					m[k*n+p] = c*akp - s*akq
					m[k*n+q] = s*akp + c*akq
				}
				for k := 0; k < n; k++ {
					apk, aqk := m[p*n+k], m[q*n+k]
					m[p*n+k] = c*apk - s*aqk
					m[q*n+k] = s*apk + c*aqk
				}
				for k := 0; k < n; k++ {
					vkp, vkq := v[k*n+p], v[k*n+q]
					v[k*n+p] = c*vkp - s*vkq
					v[k*n+q] = s*vkp + c*vkq
				}
			}
		}
	}
	vals = make([]float64, n)
	idx := make([]int, n)
	for i := range vals {
		vals[i] = m[i*n+i]
		idx[i] = i
	}
	// insertion sort by eigenvalue, carrying the vectors along
	for i := 1; i < n; i++ {
		for j := i; j > 0 && vals[idx[j]] < vals[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	sv := make([]float64, n)
	sorted := make([]float64, n*n)
	for c, k := range idx {
		sv[c] = vals[k]
		for r := 0; r < n; r++ {
			sorted[r*n+c] = v[r*n+k]
		}
	}
	return sv, sorted
}

// Solve solves the n×n system a·x = b by Gaussian elimination with partial
// pivoting. a and b are not modified.
func Solve(n int, a, b []float64) ([]float64, error) {
	m := append([]float64(nil), a...)
	x := append([]float64(nil), b...)
	scale := 0.0
	for _, v := range m {
		scale = math.Max(scale, math.Abs(v))
	}
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(m[r*n+col]) > math.Abs(m[piv*n+col]) {
				piv = r
			}
		}
		if math.Abs(m[piv*n+col]) <= 1e-13*scale || scale == 0 {
			return nil, ErrSingular
		}
		if piv != col {
			for k := 0; k < n; k++ {
				m[col*n+k], m[piv*n+k] = m[piv*n+k], m[col*n+k]
			}
			x[col], x[piv] = x[piv], x[col]
		}
		for r := col + 1; r < n; r++ {
			f := m[r*n+col] / m[col*n+col]
			if f == 0 {
				continue
			}
			for k := col; k < n; k++ {
				m[r*n+k] -= f * m[col*n+k]
			}
			x[r] -= f * x[col]
		}
	}
	for r := n - 1; r >= 0; r-- {
		s := x[r]
		for k := r + 1; k < n; k++ {
			s -= m[r*n+k] * x[k]
		}
		x[r] = s / m[r*n+r]
	}
	return x, nil
}

// NearestRotation returns the rotation matrix closest to m in the
// Frobenius norm (the orthogonal factor of its polar decomposition), with
// determinant +1.
func NearestRotation(m Mat3) (Mat3, error) {
	// R = M (MᵀM)^(-1/2)
	mtm := m.T().Mul(m)
	vals, v := SymEigen(3, mtm[:])
	var inv Mat3
	for i := 0; i < 3; i++ {
		if vals[i] <= 1e-18*math.Max(1, vals[2]) {
			return Mat3{}, ErrSingular
		}
		s := 1 / math.Sqrt(vals[i])
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				inv[3*r+c] += v[r*3+i] * s * v[c*3+i]
			}
		}
	}
	r := m.Mul(inv)
	if r.Det() < 0 {
		return Mat3{}, errors.New("geom: the nearest orthogonal matrix is a reflection")
	}
	return r, nil
}
