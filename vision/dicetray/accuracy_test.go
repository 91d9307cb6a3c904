package dicetray

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sztab/sztab/vision/synth"
)

// confusion counts a reading against the truth.
type confusion struct {
	readable, correct, wrong, readableUnread, readableMissed int
	unreadable, unreadOK, guessed, unreadMissed              int
	invented                                                 int
	colourWrong                                              int
	byValue                                                  [7][7]int // truth value × read value (0: unreadable or missed)
	failures                                                 []string
}

func (c *confusion) add(name string, truth []synth.DieTruth, r Reading) {
	used := make([]bool, len(r.Dice))
	for _, t := range truth {
		best, bd := -1, math.Inf(1)
		for k, d := range r.Dice {
			if used[k] {
				continue
			}
			if dd := d.Centre.Dist(t.Centre); dd < bd {
				best, bd = k, dd
			}
		}
		lim := 0.3 * t.SidePx
		if !t.Readable() {
			lim = 0.75 * t.SidePx
		}
		if best >= 0 && bd > lim {
			best = -1
		}
		if best >= 0 {
			used[best] = true
		}
		fail := func(what string) {
			c.failures = append(c.failures, fmt.Sprintf("%s: %s %s die at (%.0f, %.0f) value %d: %s", name, t.Kind, t.Colour, t.Centre.X, t.Centre.Y, t.Value, what))
		}
		if t.Readable() {
			c.readable++
			switch {
			case best < 0:
				c.readableMissed++
				c.byValue[t.Value][0]++
				fail("missed")
			case r.Dice[best].Value == t.Value:
				c.correct++
				c.byValue[t.Value][t.Value]++
				if r.Dice[best].Colour != t.Colour {
					c.colourWrong++
					fail("colour read as " + r.Dice[best].Colour)
				}
			case r.Dice[best].Value == 0:
				c.readableUnread++
				c.byValue[t.Value][0]++
				fail("read as unreadable: " + r.Dice[best].Unreadable)
			default:
				c.wrong++
				c.byValue[t.Value][r.Dice[best].Value]++
				fail(fmt.Sprintf("read as %d", r.Dice[best].Value))
			}
			continue
		}
		c.unreadable++
		switch {
		case best < 0:
			c.unreadMissed++
			fail("missed")
		case r.Dice[best].Value == 0:
			c.unreadOK++
		default:
			c.guessed++
			fail(fmt.Sprintf("read as %d", r.Dice[best].Value))
		}
	}
	for k, d := range r.Dice {
		if !used[k] {
			c.invented++
			c.failures = append(c.failures, fmt.Sprintf("%s: a die invented at (%.0f, %.0f): value %d %s", name, d.Centre.X, d.Centre.Y, d.Value, d.Unreadable))
		}
	}
}

func (c *confusion) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "readable %d: correct %d (%.2f%%), wrong value %d, read unreadable %d, missed %d\n", c.readable, c.correct, 100*float64(c.correct)/float64(max(c.readable, 1)), c.wrong, c.readableUnread, c.readableMissed)
	fmt.Fprintf(&b, "unreadable %d: reported unreadable %d, guessed %d, missed %d; invented %d; colour wrong %d\n", c.unreadable, c.unreadOK, c.guessed, c.unreadMissed, c.invented, c.colourWrong)
	return b.String()
}

func frameOf(im *synth.Image) Frame { return Frame{Width: im.Width, Height: im.Height, BGR: im.BGR} }

// accuracyTray is the accuracy test's tray k: 24 items, two cocked, one
// stack, three touching pairs, a coin and (on every other tray) a pencil.
func accuracyTray(t testing.TB, k int) (*synth.Tray, *synth.Image) {
	o := synth.DefaultTrayOptions(24)
	o.Cocked, o.Stacked, o.Touching, o.Coins, o.Pencils = 2, 1, 3, 1, k%2
	o.Samples = 1
	tr, err := synth.RandomTray(o, uint64(1000+k))
	if err != nil {
		t.Fatal(err)
	}
	return tr, tr.Render()
}

// TestAccuracy reads 42 generated trays (1,008 dice) and holds the
// reader to the bars: ≥ 99.5% of the readable dice read right,
// every cocked or stacked die reported unreadable, none invented or
// missed. With -short (the arm64 run under qemu, which checks the code on
// the Pi's architecture rather than the accuracy) 6 trays.
func TestAccuracy(t *testing.T) {
	var c confusion
	trays := 42
	if testing.Short() {
		trays = 6
	}
	for k := 0; k < trays; k++ {
		tr, im := accuracyTray(t, k)
		r, err := NewReader(Options{SidePx: tr.Truth()[0].SidePx, Parallax: tr.Parallax(16)})
		if err != nil {
			t.Fatal(err)
		}
		reading, err := r.Read(frameOf(im))
		if err != nil {
			t.Fatal(err)
		}
		c.add(fmt.Sprintf("tray %d", k), tr.Truth(), reading)
	}
	t.Logf("\n%s", c.String())
	for _, f := range c.failures {
		t.Log(f)
	}
	if c.readable+c.unreadable < 1000 && !testing.Short() {
		t.Errorf("only %d dice", c.readable+c.unreadable)
	}
	if float64(c.correct) < 0.995*float64(c.readable) || c.wrong > 0 && float64(c.wrong) > 0.005*float64(c.readable) {
		t.Errorf("%d of %d readable dice read right (want ≥ 99.5%%)", c.correct, c.readable)
	}
	if c.guessed > 0 || c.unreadMissed > 0 {
		t.Errorf("of %d unreadable dice, %d were given a value and %d missed", c.unreadable, c.guessed, c.unreadMissed)
	}
	if c.invented > 0 || c.readableMissed > 0 {
		t.Errorf("%d dice invented, %d readable dice missed", c.invented, c.readableMissed)
	}
}
