package companion

import "testing"

// A live copy carries what the wall shows of a state: its seq, headline,
// run and whether the game is over, nothing of the state or summary.
func TestHeadlineOf(t *testing.T) {
	for _, tc := range []struct{ name, view, want string }{
		{"in play", `{"seq":3,"venue":"v","table":"t","game":"g","headline":{"pl":"runda 1","en":"round 1"},"summary":[{"pl":"x","en":"x"}],"state":{"a":1},"instance":"r"}`,
			`{"seq":3,"venue":"v","table":"t","game":"g","headline":{"pl":"runda 1","en":"round 1"},"instance":"r"}`},
		{"finished", `{"seq":9,"venue":"v","table":"t","game":"g","headline":{"pl":"koniec gry: wygrywa Ania","en":"game over: Ania wins"},"finished":true,"state":{}}`,
			`{"seq":9,"venue":"v","table":"t","game":"g","headline":{"pl":"koniec gry: wygrywa Ania","en":"game over: Ania wins"},"finished":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(headlineOf([]byte(tc.view))); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
