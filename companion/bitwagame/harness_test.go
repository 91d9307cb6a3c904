package bitwagame

import (
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/bitwa"
)

// demoSetup is the demo's table: Marysia (WP, seat 1) against Janek (ACz,
// seat 2), seed 1920.
var demoSetup = bitwa.Setup{Players: []bitwa.PlayerInfo{{Seat: 1, Name: "Marysia", Army: bitwa.WP}, {Seat: 2, Name: "Janek", Army: bitwa.ACz}}, Seed: 1920}

// testGame is the demo's game, opened (nothing played yet).
func testGame(t testing.TB) *Game {
	t.Helper()
	cat, err := bitwa.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	st, err := cat.NewGame(demoSetup)
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(st, nil)
	start, _ := g.Start()
	if _, commit, err := g.Apply(start); err != nil {
		t.Fatal(err)
	} else {
		commit()
	}
	return g
}

// scan is a card laid on a reader.
func scan(reader, card string) companion.Input {
	return companion.Input{Tag: &hardware.TagEvent{Reader: reader, UID: "04000000", Present: true},
		TagInfo: &companion.Tag{Kind: "card", ID: card}}
}

// press is a seat button (keypad seat-N) or, with keypad "", the dice
// keypad.
func press(keypad, key string, args ...string) companion.Input {
	if keypad == "" {
		keypad = "dice"
	}
	return companion.Input{Key: &hardware.KeyEvent{Keypad: keypad, Key: key, Args: args}, Args: args,
		From: companion.Sender{Kind: wire.Keys, Audience: wire.Public}}
}

// page is a command from seat's page (0: the referee's).
func page(seat int, key string, args ...string) companion.Input {
	from := companion.Sender{Kind: wire.Ref, Audience: wire.Referee}
	pad := "referee"
	if seat > 0 {
		from = companion.Sender{Kind: wire.Seat, Audience: wire.Player(seat)}
		pad = string(wire.Player(seat))
	}
	return companion.Input{Key: &hardware.KeyEvent{Keypad: pad, Key: key}, Args: args, From: from}
}

// feed binds in and applies the actions as the daemon does: in order,
// stopping at the first refusal. It returns the actions taken and the
// refusal (a notice or the engine's), if any.
func feed(t testing.TB, g *Game, in companion.Input) ([]companion.Action, *rules.Rejection) {
	t.Helper()
	acts, notices := g.Bind(in)
	for _, n := range notices {
		if n.Type == "rejected" {
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

func feedAll(t testing.TB, g *Game, ins ...companion.Input) {
	t.Helper()
	for i, in := range ins {
		if _, rej := feed(t, g, in); rej != nil {
			t.Fatalf("input %d: refused %s: %s", i, rej.Code, rej.Reason.EN)
		}
	}
}
