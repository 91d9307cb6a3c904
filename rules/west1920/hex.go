package west1920

import "fmt"

// Hex is a map hex as the data files write it, "CCRR": column CC (01 is the
// west edge) and row RR (01 is the north edge). Hexes are flat-topped and
// even columns sit half a hex lower than odd ones, as on most wargame maps.
type Hex string

// Dir is a hex side and a facing: the six sides of a flat-topped hex.
type Dir int

const (
	N Dir = iota
	NE
	SE
	S
	SW
	NW
)

var dirNames = [6]string{"N", "NE", "SE", "S", "SW", "NW"}

func (d Dir) String() string {
	if d < 0 || d > 5 {
		return "?"
	}
	return dirNames[d]
}

// ParseDir reads N, NE, SE, S, SW or NW.
func ParseDir(s string) (Dir, bool) {
	for i, n := range dirNames {
		if n == s {
			return Dir(i), true
		}
	}
	return 0, false
}

// Opposite is the side facing d.
func (d Dir) Opposite() Dir { return (d + 3) % 6 }

// coord is a hex as column and row, both from 1.
type coord struct{ c, r int }

func parseHex(h Hex) (coord, bool) {
	s := string(h)
	if len(s) != 4 {
		return coord{}, false
	}
	var c, r int
	for i, ch := range s {
		if ch < '0' || ch > '9' {
			return coord{}, false
		}
		if i < 2 {
			c = c*10 + int(ch-'0')
		} else {
			r = r*10 + int(ch-'0')
		}
	}
	return coord{c, r}, c > 0 && r > 0
}

func (k coord) hex() Hex { return Hex(fmt.Sprintf("%02d%02d", k.c, k.r)) }

// step is the neighbour of k across side d (possibly off the map).
func (k coord) step(d Dir) coord {
	even := k.c%2 == 0
	switch d {
	case N:
		return coord{k.c, k.r - 1}
	case S:
		return coord{k.c, k.r + 1}
	case NE:
		if even {
			return coord{k.c + 1, k.r}
		}
		return coord{k.c + 1, k.r - 1}
	case SE:
		if even {
			return coord{k.c + 1, k.r + 1}
		}
		return coord{k.c + 1, k.r}
	case SW:
		if even {
			return coord{k.c - 1, k.r + 1}
		}
		return coord{k.c - 1, k.r}
	default: // NW
		if even {
			return coord{k.c - 1, k.r}
		}
		return coord{k.c - 1, k.r - 1}
	}
}

// cube converts to cube coordinates for distances.
func (k coord) cube() (x, y, z int) {
	c0, r0 := k.c-1, k.r-1
	x = c0
	z = r0 - (c0-(c0&1))/2
	return x, -x - z, z
}

func hexDist(a, b coord) int {
	ax, ay, az := a.cube()
	bx, by, bz := b.cube()
	return max(absInt(ax-bx), absInt(ay-by), absInt(az-bz))
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
