// Package dice is where randomness enters Sztab. Engines never roll: a
// Source produces Rolls, each tagged with where it came from, and the rolls
// travel inside actions so that a journal replays byte for byte.
package dice

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// Origin says where a die value came from.
type Origin string

const (
	Keypad  Origin = "keypad"  // entered by a player on the table keypad
	Camera  Origin = "camera"  // read off the table by the camera
	NFC     Origin = "nfc"     // a die carrying a tag per face
	Virtual Origin = "virtual" // drawn from a seeded generator
	Referee Origin = "referee" // entered or corrected by the referee
	Fixed   Origin = "fixed"   // scripted, for tests
)

// Valid reports whether o is one of the known origins.
func (o Origin) Valid() bool {
	switch o {
	case Keypad, Camera, NFC, Virtual, Referee, Fixed:
		return true
	}
	return false
}

// Roll is one d6 result and its provenance.
type Roll struct {
	Value  int    `json:"value"`
	Origin Origin `json:"origin"`
	// Device names the physical source (keypad or camera id) when there is one.
	Device string `json:"device,omitempty"`
	// Confidence is the reader's confidence in [0,1] for a camera reading.
	Confidence float64 `json:"confidence,omitempty"`
}

// InvalidRollError is a die reading that cannot be a d6 face.
type InvalidRollError struct {
	Roll Roll
}

func (e *InvalidRollError) Error() string {
	where := string(e.Roll.Origin)
	if e.Roll.Device != "" {
		where += " " + e.Roll.Device
	}
	return fmt.Sprintf("dice: %s reported %d, a d6 shows 1 to 6", where, e.Roll.Value)
}

// Validate checks that r is a d6 face with a known origin.
func (r Roll) Validate() error {
	if r.Value < 1 || r.Value > 6 {
		return &InvalidRollError{Roll: r}
	}
	if !r.Origin.Valid() {
		return fmt.Errorf("dice: unknown origin %q for a roll of %d", r.Origin, r.Value)
	}
	return nil
}

// Values returns the face values of rolls.
func Values(rolls []Roll) []int {
	out := make([]int, len(rolls))
	for i, r := range rolls {
		out[i] = r.Value
	}
	return out
}

// Source produces n d6 rolls.
type Source interface {
	Roll(n int) ([]Roll, error)
}

// ErrExhausted is returned by a source that has fewer dice than asked for.
var ErrExhausted = errors.New("dice: not enough dice in the source")

// Seeded is a deterministic virtual source (PCG). The same seed gives the
// same sequence on every machine.
type Seeded struct {
	rng *rand.Rand
}

// NewSeeded returns a virtual source seeded with seed.
func NewSeeded(seed uint64) *Seeded {
	return &Seeded{rng: rand.New(rand.NewPCG(seed, seed^0x5a7ab5a7ab))}
}

// Roll draws n virtual dice.
func (s *Seeded) Roll(n int) ([]Roll, error) {
	if n < 0 {
		return nil, fmt.Errorf("dice: cannot roll %d dice", n)
	}
	out := make([]Roll, n)
	for i := range out {
		out[i] = Roll{Value: 1 + s.rng.IntN(6), Origin: Virtual}
	}
	return out, nil
}

// FixedSource returns scripted values in order, for tests.
type FixedSource struct {
	values []int
	next   int
}

// NewFixed returns a source that yields values in order.
func NewFixed(values ...int) *FixedSource { return &FixedSource{values: values} }

// Roll returns the next n scripted values.
func (f *FixedSource) Roll(n int) ([]Roll, error) {
	if n < 0 {
		return nil, fmt.Errorf("dice: cannot roll %d dice", n)
	}
	if f.next+n > len(f.values) {
		return nil, fmt.Errorf("%w: asked for %d, %d left", ErrExhausted, n, len(f.values)-f.next)
	}
	out := make([]Roll, n)
	for i := range out {
		out[i] = Roll{Value: f.values[f.next+i], Origin: Fixed}
		if err := out[i].Validate(); err != nil {
			return nil, err
		}
	}
	f.next += n
	return out, nil
}

// Fed is a source filled from outside: physical dice entered on a keypad or
// read by a camera. Readings are validated on the way in, so a 7 never
// reaches an engine.
type Fed struct {
	queue []Roll
}

// Push adds one physical reading; an impossible value is refused.
func (f *Fed) Push(r Roll) error {
	if err := r.Validate(); err != nil {
		return err
	}
	f.queue = append(f.queue, r)
	return nil
}

// Len is the number of readings waiting.
func (f *Fed) Len() int { return len(f.queue) }

// Roll hands out the n oldest readings, or ErrExhausted (taking none) when
// fewer are waiting.
func (f *Fed) Roll(n int) ([]Roll, error) {
	if n < 0 {
		return nil, fmt.Errorf("dice: cannot roll %d dice", n)
	}
	if n > len(f.queue) {
		return nil, fmt.Errorf("%w: asked for %d, %d entered", ErrExhausted, n, len(f.queue))
	}
	out := append([]Roll(nil), f.queue[:n]...)
	f.queue = f.queue[n:]
	return out, nil
}
