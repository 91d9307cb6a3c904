package tabletest

import (
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
)

// Scan is a card laid on a reader, already known to the tag registry.
func Scan(reader, card string) companion.Input {
	return companion.Input{Tag: &hardware.TagEvent{Reader: reader, UID: "04000000", Present: true},
		TagInfo: &companion.Tag{Kind: "card", ID: card}}
}

// Press is a key of the table's keypad, with a command's arguments.
func Press(keypad, key string, args ...string) companion.Input {
	return gamespec.Press(keypad, key, args...)
}

// Page is a command from seat's page (0: the referee's).
func Page(seat int, key string, args ...string) companion.Input {
	return gamespec.Page(seat, key, args...)
}

// Feed binds in and applies the actions as the daemon does: in order,
// stopping at the first refusal. It returns the actions taken and the
// refusal (the binder's notice or the engine's), if any.
func Feed(t testing.TB, g companion.Game, in companion.Input) ([]companion.Action, *rules.Rejection) {
	t.Helper()
	acts, notices := g.Bind(in)
	for _, n := range notices {
		if n.Type == wire.NoticeRejected {
			return nil, &rules.Rejection{Code: n.Code, Reason: n.Text}
		}
	}
	var took []companion.Action
	for _, a := range acts {
		if _, err := g.EncodeAction(a); err != nil {
			t.Fatalf("%s does not encode: %v", a.Type(), err)
		}
		_, commit, err := g.Apply(a)
		if err != nil {
			rej, ok := rules.AsRejection(err)
			if !ok {
				t.Fatalf("%s: %v", a.Type(), err)
			}
			return took, rej
		}
		commit()
		took = append(took, a)
	}
	return took, nil
}
