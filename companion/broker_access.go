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
)

// brokerAccess is the embedded broker's roles, from the table config's
// display credentials: anyone may connect and read the public topics; the
// referee also gets referee/...; a player also gets player/{seat}/...; only
// the daemon may publish, except that the referee may send commands on
// referee/command. A spectator subscribing to sztab/# sees the public topics
// only.
//
// It also guards client ids: an id belongs to the user holding it (see
// OnConnect), and only named users keep sessions.
type brokerAccess struct {
	mochi.HookBase
	srv     *mochi.Server
	daemon  display.Credential
	referee display.Credential
	players []display.PlayerCredential
	// commands is the topic the referee may publish to.
	commands string
	limits   brokerLimits
	log      *slog.Logger
}

func (h *brokerAccess) ID() string { return "sztab-access" }

func (h *brokerAccess) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnect, mochi.OnConnectAuthenticate, mochi.OnACLCheck}, []byte{b})
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

// OnConnect refuses, before any password is checked, a CONNECT that would
// take a session from another user: mochi hands a client id's connection
// and stored session (its subscriptions, its queued messages, hidden ones
// included) to whoever connects next with that id, and would publish the
// holder's will. An id belongs to the user holding it (connected, or in a
// stored session) until the session ends; only the same user may take it
// over, or a named user the id of an anonymous spectator (who has nothing
// to lose: no session, no will), so an anonymous squatter cannot keep the
// referee off an id. Anonymous clients get no persistent session at all.
//
// The check and mochi's registration of the client are not one atomic
// step: two CONNECTs racing for an id that nobody holds may still displace
// one another, but then there is no session yet to inherit.
func (h *brokerAccess) OnConnect(cl *mochi.Client, pk packets.Packet) error {
	user := string(pk.Connect.Username)
	refuse := func(code packets.Code, why string, args ...any) error {
		h.log.Warn("embedded broker: "+why, append([]any{"user", user, "client", cl.ID, "remote", cl.Net.Remote}, args...)...)
		h.srv.SendConnack(cl, code, false, nil)
		return code
	}
	if user == "" && (!pk.Connect.Clean || pk.Properties.SessionExpiryInterval > 0) {
		return refuse(packets.ErrBadUsernameOrPassword, "refused a persistent session to an anonymous client")
	}
	if held, ok := h.srv.Clients.Get(cl.ID); ok {
		holder := string(held.Properties.Username)
		if holder != user && holder != "" {
			return refuse(packets.ErrClientIdentifierNotValid, "refused a client id another user holds", "holder", holder)
		}
	}
	return nil
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
	if c, isLimited := cl.Net.Conn.(*limitConn); isLimited && role == "daemon" {
		c.allow(h.limits.daemonPacket)
	}
	return true
}

// mayWrite: only the daemon publishes, except the referee's commands.
func (h *brokerAccess) mayWrite(role, topic string) bool {
	return role == "daemon" || role == "referee" && h.commands != "" && topic == h.commands
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
	need := hiddenFor(topic)
	return need == "" || role == "daemon" || role == "referee" || role == need
}

// hiddenFor says who may read topic (or a filter): "" for everyone.
func hiddenFor(topic string) string {
	parts := strings.Split(topic, "/")
	// sztab/v1/{venue}/{table}/referee/... or .../player/{seat}/...
	if len(parts) >= 6 && parts[0] == "sztab" {
		switch parts[4] {
		case "referee":
			return "referee"
		case "player":
			return "player/" + parts[5]
		}
	}
	return ""
}
