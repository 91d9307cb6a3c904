package companion

import (
	"strings"
	"testing"

	mochi "github.com/mochi-mqtt/server/v2"

	"github.com/sztab/sztab/companion/display"

	"github.com/sztab/sztab/companion/wire"
)

// matches is MQTT's rule for a filter and a topic: + is one level, # the
// rest (none included), a topic starting with $ is not matched by a
// wildcard in its first level.
func matches(filter, topic string) bool {
	f, tp := strings.Split(filter, "/"), strings.Split(topic, "/")
	if strings.HasPrefix(topic, "$") && (f[0] == "+" || f[0] == "#") {
		return false
	}
	for i, part := range f {
		switch {
		case part == "#":
			return i == len(f)-1
		case i >= len(tp):
			return false
		case part != "+" && part != tp[i]:
			return false
		}
	}
	return len(f) == len(tp)
}

// secret says, by MQTT's own matching, whether a topic is one that seat
// (0: a spectator) must not read: the referee's, or another seat's.
func secret(topic string, seat string) bool {
	if matches("sztab/+/+/+/referee/#", topic) {
		return true
	}
	return matches("sztab/+/+/+/player/#", topic) && (seat == "" || !matches("sztab/+/+/+/player/"+seat+"/#", topic))
}

// Whatever the topic or filter, wildcards and odd levels included, a
// spectator or a player never gets a referee's message or another seat's,
// and only the daemon (and the referee, on the command topic) publishes.
// mochi checks the topic of every message it delivers, retained ones
// included, so a filter such as sztab/# is allowed and what it matches is
// sorted out message by message.
func FuzzBrokerAccessTopic(f *testing.F) {
	for _, seed := range [][2]string{
		{"sztab/v1/v/t/referee/state", "sztab/#"},
		{"sztab/v1/v/t/player/2/state", "sztab/v1/v/t/player/+/state"},
		{"sztab/v1/v/t/player/1/state", "sztab/v1/+/+/player/1/#"},
		{"sztab/v1/v/t/referee", "sztab/v1/v/t/referee/#"},
		{"sztab/v1/v/t/player", "+/+/+/+/player"},
		{"sztab/v1/v/t/player/", "sztab/v1/v/t/player/"},
		{"sztab/v2/v/t/referee/command", "#"},
		{"sztab//v/t/referee/x", "sztab//+/+/referee/#"},
		{"sztab/v1/v/t/state", "sztab/v1/v/t/state"},
		{"sztab/v1/v/t/player/1/../2/state", "sztab/v1/v/t/player/1/#"},
		{"$SYS/broker/clients", "$SYS/#"},
	} {
		f.Add(seed[0], seed[1])
	}
	topics := wire.TopicsFor("v", "t")
	h := &brokerAccess{
		daemon:  display.Credential{User: "stol", Password: "d"},
		referee: display.Credential{User: "sedzia", Password: "r"},
		players: []display.PlayerCredential{
			{Seat: 1, Credential: display.Credential{User: "ania", Password: "a"}},
			{Seat: 2, Credential: display.Credential{User: "bartek", Password: "b"}},
		},
		topics: topics,
	}
	clients := []struct{ user, seat string }{{"", ""}, {"mallory", ""}, {"ania", "1"}, {"bartek", "2"}, {"sedzia", "referee"}, {"stol", "daemon"}}
	f.Fuzz(func(t *testing.T, topic, filter string) {
		// mochi delivers messages on topics, never on filters.
		deliverable := topic != "" && !strings.ContainsAny(topic, "+#")
		for _, c := range clients {
			cl := &mochi.Client{}
			cl.Properties.Username = []byte(c.user)
			trusted := c.seat == "referee" || c.seat == "daemon"
			if deliverable && !trusted && secret(topic, c.seat) && h.OnACLCheck(cl, topic, false) {
				t.Errorf("%q (seat %q) may read %q", c.user, c.seat, topic)
			}
			// A filter without wildcards is a topic: subscribing to a
			// secret one is refused at once.
			if !trusted && !strings.ContainsAny(filter, "+#") && filter != "" && secret(filter, c.seat) && h.OnACLCheck(cl, filter, false) {
				t.Errorf("%q (seat %q) may subscribe to %q", c.user, c.seat, filter)
			}
			if matches(filter, topic) && deliverable && !trusted && secret(topic, c.seat) && h.OnACLCheck(cl, filter, false) && h.OnACLCheck(cl, topic, false) {
				t.Errorf("%q (seat %q) subscribed to %q gets %q", c.user, c.seat, filter, topic)
			}
			for _, tp := range []string{topic, filter} {
				may := c.seat == "daemon" || c.seat == "referee" && tp == topics.RefereeCommand ||
					c.seat == "1" && tp == topics.PlayerCommand(1) || c.seat == "2" && tp == topics.PlayerCommand(2)
				if got := h.OnACLCheck(cl, tp, true); got != may {
					t.Errorf("%q (seat %q) may publish to %q: %v, want %v", c.user, c.seat, tp, got, may)
				}
			}
		}
	})
}

// The matcher the fuzz target judges by.
func TestMatches(t *testing.T) {
	for _, tc := range []struct {
		filter, topic string
		want          bool
	}{
		{"sztab/#", "sztab", true},
		{"sztab/#", "sztab/v1/v/t/state", true},
		{"sztab/+/+/+/referee/#", "sztab/v1/v/t/referee", true},
		{"sztab/+/+/+/referee/#", "sztab/v1/v/t/refereex", false},
		{"+/+", "a/", true},
		{"+", "a/b", false},
		{"a/b", "a/b", true},
		{"a/b", "a/b/c", false},
		{"#", "$SYS/x", false},
		{"$SYS/#", "$SYS/x", true},
	} {
		if got := matches(tc.filter, tc.topic); got != tc.want {
			t.Errorf("matches(%q, %q) = %v, want %v", tc.filter, tc.topic, got, tc.want)
		}
	}
}
