package companion

import (
	"bytes"
	"crypto/subtle"
	"log/slog"
	"strconv"
	"strings"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/wire"
)

// brokerAccess is the embedded broker's roles, from the table config's
// display credentials: anyone may connect and read the public topics; the
// referee also gets referee/...; a player also gets player/{seat}/...; only
// the daemon may publish, except that the referee may send commands on
// referee/command. A spectator subscribing to sztab/# sees the public topics
// only.
type brokerAccess struct {
	mochi.HookBase
	srv     *mochi.Server
	daemon  display.Credential
	referee display.Credential
	players []display.PlayerCredential
	// topics are the table's: the command topics are the only ones anyone
	// but the daemon may publish to.
	topics wire.Topics
	log    *slog.Logger
}

func (h *brokerAccess) ID() string { return "sztab-access" }

func (h *brokerAccess) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnectAuthenticate, mochi.OnACLCheck}, []byte{b})
}

func same(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// role is "daemon", "referee", "player/N" or "" (a spectator).
func (h *brokerAccess) role(user, pass string) (string, bool) {
	switch {
	case user == "":
		return "", true
	case user == h.daemon.User:
		return "daemon", same(pass, h.daemon.Password)
	case h.referee.User != "" && user == h.referee.User:
		return "referee", same(pass, h.referee.Password)
	}
	for _, p := range h.players {
		if p.User != "" && user == p.User {
			return "player/" + strconv.Itoa(p.Seat), same(pass, p.Password)
		}
	}
	return "", false
}

// OnConnectAuthenticate checks the password and the client's will: mochi
// publishes a will without asking OnACLCheck, so a client may only leave one
// on a topic it could publish to itself.
func (h *brokerAccess) OnConnectAuthenticate(cl *mochi.Client, pk packets.Packet) bool {
	user := string(pk.Connect.Username)
	role, ok := h.role(user, string(pk.Connect.Password))
	if !ok {
		h.log.Warn("embedded broker: wrong password", "user", user, "remote", cl.Net.Remote)
		return false
	}
	if pk.Connect.WillFlag && !h.mayWrite(role, pk.Connect.WillTopic) {
		h.log.Warn("embedded broker: refused a will on a topic the client may not publish to", "user", user, "topic", pk.Connect.WillTopic, "remote", cl.Net.Remote)
		return false
	}
	return true
}

// mayWrite: only the daemon publishes, except the referee's commands and
// each player's commands for their own seat.
func (h *brokerAccess) mayWrite(role, topic string) bool {
	if role == "daemon" {
		return true
	}
	if h.topics.Base == "" || role == "" {
		return false
	}
	if role == "referee" {
		return topic == h.topics.RefereeCommand
	}
	seat, ok := wire.Audience(role).Seat()
	return ok && topic == h.topics.PlayerCommand(seat)
}

func (h *brokerAccess) clientRole(cl *mochi.Client) string {
	r, _ := h.role(string(cl.Properties.Username), "")
	if r == "daemon" || r == "referee" || strings.HasPrefix(r, "player/") {
		// The password was checked when the client connected.
		return r
	}
	return ""
}

// OnACLCheck runs for a subscription's filter and again, in mochi, for the
// topic of every message delivered (retained ones included), so a spectator
// may subscribe to sztab/# and still receives no hidden message.
func (h *brokerAccess) OnACLCheck(cl *mochi.Client, topic string, write bool) bool {
	role := h.clientRole(cl)
	if write {
		return h.mayWrite(role, topic)
	}
	need := wire.HiddenFor(topic)
	return need == "" || role == "daemon" || role == "referee" || role == string(need)
}
