// Package twoworlds proves hidden information hidden: it plays two games
// that differ only in what a viewer may not see (deck orders, hands, secret
// goals, seeds, the choices a player makes on their own page) and asserts
// that everything the viewer receives is byte-identical between them.
//
// Two levels share the idea:
//
//   - Check plays a Pair through a game's binder and engine as the table
//     does and records, after every input, each thing the table derives
//     from the game and sends to the viewer's audience or to everyone: the
//     binder's notices, the engine's events and refusals, the command's
//     answer, the view, the summary, the headline, the scoreboard, the
//     seats, whose turn it is and the result. It is fast enough for
//     property tests over many random games.
//   - CheckDaemons runs two real daemons (journal, embedded broker, screens)
//     and compares what a viewer's MQTT client and the public /stream
//     receive: every event, every answer and the last retained message of
//     every topic (see daemon.go).
//
// A game tells the harness what is hidden by the pairs it makes, never by a
// special case here: where its rules make something public (a hand laid
// face up, every hand at the game's end), its views show it in both worlds,
// and a pair that differs in it must differ publicly too.
package twoworlds

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
)

// World is one side of a pair: a game already opened (its Start applied)
// and the inputs it receives, in order.
type World struct {
	Game   companion.Game
	Inputs []companion.Input
}

// Pair is two worlds that differ only in what Viewer may not see.
type Pair struct {
	Name   string
	Viewer companion.Viewer
	A, B   World
}

// Check fails t at the first thing the pair's viewer receives differently
// in the two worlds, naming the input and the channel.
func Check(t testing.TB, p Pair) {
	t.Helper()
	a := Record(t, p.A, p.Viewer)
	b := Record(t, p.B, p.Viewer)
	if d := Diff(a, b); d != "" {
		t.Errorf("%s: %s can tell the two worlds apart:\n%s", p.Name, describe(p.Viewer), d)
	}
}

// Record plays w as the table does and returns, line by line, everything
// viewer receives: what goes to everyone and what goes to viewer's own
// audience. Each line starts with the input's index and its channel.
func Record(t testing.TB, w World, viewer companion.Viewer) []string {
	t.Helper()
	var out []string
	add := func(i int, channel string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("input %d: %s does not encode: %v", i, channel, err)
		}
		out = append(out, fmt.Sprintf("%d %s %s", i, channel, b))
	}
	g := w.Game
	mine := viewer.Audience()
	add(-1, "view", g.View(viewer))
	for i, in := range w.Inputs {
		acts, notices := g.Bind(in)
		var refused *rules.Rejection
		for _, n := range notices {
			add(i, "notice", n)
			if n.Type == wire.NoticeRejected && refused == nil {
				refused = &rules.Rejection{Code: n.Code, Reason: n.Text}
			}
		}
		took := 0
		for _, a := range acts {
			if refused != nil {
				break
			}
			if _, err := g.EncodeAction(a); err != nil {
				t.Fatalf("input %d: %s does not encode: %v", i, a.Type(), err)
			}
			events, commit, err := g.Apply(a)
			if err != nil {
				rej, ok := rules.AsRejection(err)
				if !ok {
					t.Fatalf("input %d: %s: %v", i, a.Type(), err)
				}
				// The table publishes a refusal to everyone, with the
				// action's type and never its body.
				add(i, "notice", companion.Notice{Type: wire.NoticeRejected, Code: rej.Code, Text: rej.Reason, Action: a.Type()})
				refused = rej
				break
			}
			commit()
			took++
			for _, e := range events {
				add(i, "event", e)
			}
		}
		if in.Key != nil {
			to := in.From.Audience
			if to == "" {
				to = wire.Public
			}
			if to == wire.Public || to == mine {
				answer := struct {
					OK   bool       `json:"ok"`
					Code string     `json:"code,omitempty"`
					Text rules.Text `json:"text,omitempty"`
					Took int        `json:"took"`
				}{OK: refused == nil, Took: took}
				if refused != nil {
					answer.Code, answer.Text = refused.Code, refused.Reason
				}
				add(i, "answer", answer)
			}
		}
		observe(i, g, viewer, add)
	}
	return out
}

// observe records what the table derives from the game's state after an
// input.
func observe(i int, g companion.Game, viewer companion.Viewer, add func(int, string, any)) {
	add(i, "view", g.View(viewer))
	if s, ok := g.(companion.Summarizer); ok {
		add(i, "summary", s.Summary(viewer))
		add(i, "public-summary", s.Summary(companion.Public))
	}
	if h, ok := g.(companion.Headliner); ok {
		add(i, "headline", h.Headline())
	}
	if s, ok := g.(companion.Scorer); ok {
		add(i, "scoreboard", s.Scoreboard())
	}
	if s, ok := g.(companion.SeatLister); ok {
		add(i, "seats", s.Seats())
	}
	if tt, ok := g.(companion.TurnTeller); ok {
		add(i, "turn", tt.ActiveSeat())
	}
	add(i, "result", companion.Outcome(g))
	if viewer.Role == companion.RoleReferee {
		return
	}
	// The public view too: every viewer reads the public channels.
	if viewer.Role == companion.RolePlayer {
		add(i, "public-view", g.View(companion.Public))
	}
}

// Diff is "" when a and b are the same, else the first line that differs
// with the lines before it, and how many lines each world recorded.
func Diff(a, b []string) string {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			var s strings.Builder
			for j := max(0, i-2); j < i; j++ {
				fmt.Fprintf(&s, "  both: %s\n", clip(a[j]))
			}
			fmt.Fprintf(&s, "  A:    %s\n  B:    %s\n", clip(a[i]), clip(b[i]))
			if at := firstDifference(a[i], b[i]); at > 0 {
				fmt.Fprintf(&s, "  first difference at byte %d: A …%s… B …%s…\n", at, around(a[i], at), around(b[i], at))
			}
			return s.String()
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("  A recorded %d lines, B %d; the first extra: %s", len(a), len(b), clip(append(a[n:], b[n:]...)[0]))
	}
	return ""
}

func firstDifference(a, b string) int {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func around(s string, at int) string {
	return s[max(0, at-60):min(len(s), at+60)]
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

func describe(v companion.Viewer) string {
	if v.Role == companion.RolePlayer {
		return fmt.Sprintf("the player at seat %d", v.Seat)
	}
	return "a " + string(v.Role) + " viewer"
}

// Games is how many random games a property test plays: short in `make
// test`, ten times more with SZTAB_FULL=1 (`make test-full`).
func Games(short int) int {
	if os.Getenv("SZTAB_FULL") == "1" {
		return 10 * short
	}
	return short
}
