package twoworlds_test

import (
	"testing"

	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/internal/twoworlds"
)

// fakeT records a failure instead of failing the test.
type fakeT struct {
	testing.TB
	failed []string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(s string, a ...any) {
	f.failed = append(f.failed, s)
}

// demo is Bitwa Warszawska's demo table in a directory of its own, with
// old replaced by new in its config.
func demo(t *testing.T, old, new string) twoworlds.DaemonWorld {
	return twoworlds.DaemonWorld{Config: tabletest.DemoConfigEdited(t, t.TempDir(), "bitwa-warszawska.yaml", true, old, new)}
}

// TestCheckDaemons: the same table played twice looks the same on every
// channel (the daemons are deterministic where a viewer can see), and a
// public difference (a player's name) is caught.
func TestCheckDaemons(t *testing.T) {
	twoworlds.CheckDaemons(t, twoworlds.DaemonPair{Name: "the same table", Spec: bitwagame.Spec,
		A: demo(t, "name: Janek", "name: Janek"), B: demo(t, "name: Janek", "name: Janek")})
	f := &fakeT{TB: t}
	twoworlds.CheckDaemons(f, twoworlds.DaemonPair{Name: "another player", Spec: bitwagame.Spec,
		A: demo(t, "name: Janek", "name: Janek"), B: demo(t, "name: Janek", "name: Jasio")})
	if len(f.failed) == 0 {
		t.Fatal("a player's name differs and the harness saw no difference")
	}
}
