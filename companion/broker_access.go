package companion

import (
	"bytes"
	"crypto/subtle"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

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
//
// It also guards connections: a client id belongs to the user holding it
// (see OnConnect), only named users keep sessions, and password guessing is
// braked per user and per address (see OnConnectAuthenticate).
type brokerAccess struct {
	mochi.HookBase
	srv     *mochi.Server
	daemon  display.Credential
	referee display.Credential
	players []display.PlayerCredential
	// topics are the table's: the command topics are the only ones anyone
	// but the daemon may publish to.
	topics wire.Topics
	limits brokerLimits
	// Clock is the brake's time; nil: time.Now.
	Clock func() time.Time
	log   *slog.Logger
	// loginFailed is told of each wrong password (BrokerUsers.LoginFailed).
	loginFailed func()

	brakesOnce sync.Once
	users      *brake // failed passwords of known users
	addrs      *brake // wrong passwords and client ids tried, per address

	// rates are the command rates per role (see brokerLimits.commandBurst).
	ratesMu sync.Mutex
	rates   map[string]*roleRate
}

// roleRate is one role's commands through the broker: a token bucket, and
// how many were dropped since the last time that was logged.
type roleRate struct {
	tokens  float64
	at      time.Time
	dropped int
	logged  time.Time
}

func (h *brokerAccess) ID() string { return "sztab-access" }

func (h *brokerAccess) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnect, mochi.OnConnectAuthenticate, mochi.OnACLCheck, mochi.OnPublish}, []byte{b})
}

func (h *brokerAccess) now() time.Time {
	if h.Clock != nil {
		return h.Clock()
	}
	return time.Now()
}

// Brakes: after 5 failures a key is refused unchecked for 1 s, doubling
// with each further failure, up to a minute for a user (whom a stranger
// could otherwise lock out for long) and a quarter of an hour for an
// address; a key quiet for an hour is forgotten.
func (h *brokerAccess) brakes() (users, addrs *brake) {
	h.brakesOnce.Do(func() {
		h.users = newBrake(5, time.Second, time.Minute, time.Hour, 64)
		h.addrs = newBrake(5, time.Second, 15*time.Minute, time.Hour, 4096)
	})
	return h.users, h.addrs
}

func same(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// role is "daemon", "referee", "player/N" or "" (a spectator); known says
// the user name is one of the table's.
func (h *brokerAccess) role(user, pass string) (role string, ok, known bool) {
	switch {
	case user == "":
		return "", true, false
	case user == h.daemon.User:
		return "daemon", same(pass, h.daemon.Password), true
	case h.referee.User != "" && user == h.referee.User:
		return "referee", same(pass, h.referee.Password), true
	}
	for _, p := range h.players {
		if p.User != "" && user == p.User {
			return "player/" + strconv.Itoa(p.Seat), same(pass, p.Password), true
		}
	}
	return "", false, false
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
	now := h.now()
	user := string(pk.Connect.Username)
	_, addrs := h.brakes()
	if _, locked := addrs.Locked(addressKey(cl.Net.Remote), now); locked && !h.isDaemon(user) {
		return nil // OnConnectAuthenticate refuses it unchecked
	}
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
			// Trying ids is guessing too: it counts against the address.
			h.failAddress(user, cl.Net.Remote, now)
			return refuse(packets.ErrClientIdentifierNotValid, "refused a client id another user holds", "holder", holder)
		}
	}
	return nil
}

func (h *brokerAccess) isDaemon(user string) bool {
	return h.daemon.User != "" && user == h.daemon.User
}

// OnConnectAuthenticate checks the password and the client's will: mochi
// publishes a will without asking OnACLCheck, so a client may only leave one
// on a topic it could publish to itself.
//
// Guessing is braked: after a few wrong passwords for a user, or from an
// address, the next attempts are refused without checking the password for
// a growing time (see brakes). The daemon's own user, whose name is made
// up at each start, is held by its user's lock only, so a local process
// guessing passwords cannot keep the table off its own broker.
func (h *brokerAccess) OnConnectAuthenticate(cl *mochi.Client, pk packets.Packet) bool {
	now := h.now()
	user := string(pk.Connect.Username)
	users, addrs := h.brakes()
	if _, _, known := h.role(user, ""); known {
		if _, locked := users.Locked(user, now); locked {
			return false
		}
	}
	if _, locked := addrs.Locked(addressKey(cl.Net.Remote), now); locked && !h.isDaemon(user) {
		return false
	}
	role, ok, known := h.role(user, string(pk.Connect.Password))
	if !ok {
		h.log.Warn("embedded broker: wrong password", "user", user, "remote", cl.Net.Remote)
		if h.loginFailed != nil {
			h.loginFailed()
		}
		if known {
			if until := users.Fail(user, now); !until.IsZero() {
				h.log.Warn("embedded broker: too many wrong passwords for a user; refusing it unchecked for a while", "user", user, "remote", cl.Net.Remote, "for", until.Sub(now))
			}
		}
		h.failAddress(user, cl.Net.Remote, now)
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

// failAddress counts a wrong password or client id against its address.
func (h *brokerAccess) failAddress(user, remote string, now time.Time) {
	_, addrs := h.brakes()
	if until := addrs.Fail(addressKey(remote), now); !until.IsZero() {
		h.log.Warn("embedded broker: too many refused connects from an address; refusing it unchecked for a while", "user", user, "remote", remote, "for", until.Sub(now))
	}
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
	r, _, _ := h.role(string(cl.Properties.Username), "")
	if r == "daemon" || r == "referee" || strings.HasPrefix(r, "player/") {
		// The password was checked when the client connected.
		return r
	}
	return ""
}

// OnACLCheck runs for a subscription's filter and again, in mochi, for the
// topic of every message delivered (retained ones included), so a spectator
// may subscribe to sztab/# and still receives no hidden message. The
// broker's own $SYS topics (its clients, traffic, memory, version) are for
// the table's logins only: an anonymous subscription to $SYS/# is refused.
func (h *brokerAccess) OnACLCheck(cl *mochi.Client, topic string, write bool) bool {
	role := h.clientRole(cl)
	if write {
		return h.mayWrite(role, topic)
	}
	if strings.HasPrefix(topic, "$") {
		return role != ""
	}
	need := wire.HiddenFor(topic)
	return need == "" || role == "daemon" || role == "referee" || role == string(need)
}

// OnPublish passes a role's commands on at its rate (brokerLimits.
// commandBurst) and drops the rest, acknowledged: a player's flood stays
// in front of the broker instead of filling the daemon's queue there, where
// the referee's commands would be dropped with it. Drops are logged once a
// minute per role at most, with their count.
func (h *brokerAccess) OnPublish(cl *mochi.Client, pk packets.Packet) (packets.Packet, error) {
	role := h.clientRole(cl)
	if role == "" || role == "daemon" || h.limits.commandBurst <= 0 || !h.mayWrite(role, pk.TopicName) {
		return pk, nil
	}
	burst, every := float64(h.limits.commandBurst), h.limits.commandEvery
	if role == "referee" {
		burst *= 2
		every /= 2
	}
	now := h.now()
	h.ratesMu.Lock()
	defer h.ratesMu.Unlock()
	if h.rates == nil {
		h.rates = map[string]*roleRate{}
	}
	r := h.rates[role]
	if r == nil {
		r = &roleRate{tokens: burst, at: now}
		h.rates[role] = r
	}
	if d := now.Sub(r.at); d > 0 {
		r.tokens = min(burst, r.tokens+float64(d)/float64(every))
		r.at = now
	}
	if r.tokens >= 1 {
		r.tokens--
		return pk, nil
	}
	r.dropped++
	if now.Sub(r.logged) >= time.Minute {
		h.log.Warn("embedded broker: commands over their rate dropped", "role", role, "dropped", r.dropped, "remote", cl.Net.Remote)
		r.logged, r.dropped = now, 0
	}
	return pk, packets.CodeSuccessIgnore
}
