package companion

import (
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/wire"
)

// The table's own commands are in every game's vocabulary, and a game may
// not take their names.
func TestTableCommandsInEveryVocabulary(t *testing.T) {
	v := WithTableCommands(tallySpec.Commands)
	for _, c := range TableCommands {
		if _, ok := v.Lookup(c.Name); !ok {
			t.Errorf("%s missing from the vocabulary", c.Name)
		}
	}
	if len(WithTableCommands(v)) != len(v) {
		t.Error("the table's commands added twice")
	}
	bad := tallySpec
	bad.Commands = append(wire.Vocabulary{{Name: CmdAllow, From: wire.Seat}}, tallySpec.Commands...)
	err := Games{bad}.Check()
	if err == nil || !strings.Contains(err.Error(), `"allow" is one of the table's own commands`) {
		t.Errorf("a game's own allow: %v, want refused by name", err)
	}
}

// seatOf: a player's command is for their seat, a keypad or reader named
// seat-N for seat N, anything else for no seat.
func TestSeatOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		dev  string
		want int
	}{{"seat-2", "seat-2", 2}, {"dice", "dice", 0}, {"seat-0", "seat-0", 0}, {"seat-x", "seat-x", 0}, {"seat-12", "seat-12", 12}} {
		if got := deviceSeat(tc.dev); got != tc.want {
			t.Errorf("%s: seat %d, want %d", tc.name, got, tc.want)
		}
	}
}
