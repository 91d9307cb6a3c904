package companion

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"log/slog"
	"strconv"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
)

// liveNodes is how many nodes of a venue's cluster carry a table's live
// state: two, so that the loss of any one node leaves a connection that is
// up already. A connection made after the loss would wait for the
// cluster's election like everything else (an MQTT CONNECT of nats-server
// 2.9.10 reads and writes the sessions' JetStream stream).
const liveNodes = 2

// liveEvery is how often a live connection sends the latest state again,
// changed or not: a venue hub that (re)connects while the cluster
// elects has every table's state within it, without the retained one.
const liveEvery = time.Second

// liveSink sends the table's public state, not retained and at QoS 0, on
// .../live over its own connection to each of the first liveNodes nodes of
// a venue's broker list. The main connection's retained publications go
// through JetStream on a NATS cluster and, when the node lost led the
// retained messages' stream, wait for the election of a new leader with
// everything the table sends after them; these do not: core pub/sub
// between the nodes left carries them at once, and the venue hub follows
// .../live on its own connections to the nodes (companion/hub). Each
// connection sends only the latest state: a slow or lost node skips states,
// never delays the other.
type liveSink struct {
	topic string
	conns []*liveConn
}

type liveConn struct {
	client paho.Client
	url    string
	log    *slog.Logger
	mu     sync.Mutex
	latest []byte
	wake   chan struct{}
}

// liveOptions configure a table's live connections.
type liveOptions struct {
	URLs               []string
	ClientID           string
	Username, Password string
	TLS                *tls.Config
	Log                *slog.Logger
}

// newLiveSink connects to the first liveNodes of o.URLs (in the
// background: a node that is down now is connected to when it answers).
func newLiveSink(topic string, o liveOptions) *liveSink {
	s := &liveSink{topic: topic}
	for i, u := range o.URLs[:min(liveNodes, len(o.URLs))] {
		lc := &liveConn{url: u, log: o.Log, wake: make(chan struct{}, 1)}
		opts := paho.NewClientOptions().AddBroker(u).
			SetClientID(o.ClientID + "-live-" + strconv.Itoa(i+1)).
			SetCleanSession(true).
			SetAutoReconnect(true).
			SetConnectRetry(true).
			SetConnectRetryInterval(time.Second).
			SetMaxReconnectInterval(2 * time.Second).
			SetConnectTimeout(5 * time.Second).
			SetKeepAlive(5 * time.Second).
			SetWriteTimeout(2 * time.Second).
			SetOnConnectHandler(func(paho.Client) { lc.poke() }). // the latest state on every (re)connect
			SetConnectionLostHandler(func(_ paho.Client, err error) {
				lc.log.Warn("lost a live connection; reconnecting", "broker", u, "err", err)
			})
		if o.Username != "" {
			opts.SetUsername(o.Username).SetPassword(o.Password)
		}
		if o.TLS != nil {
			opts.SetTLSConfig(o.TLS)
		}
		lc.client = paho.NewClient(opts)
		lc.client.Connect()
		s.conns = append(s.conns, lc)
	}
	return s
}

func (c *liveConn) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Send keeps the headline of the publication's public view as each
// connection's latest.
func (s *liveSink) Send(p Publication) {
	v := headlineOf(p.Views[wire.Public])
	if v == nil {
		return
	}
	for _, c := range s.conns {
		c.mu.Lock()
		c.latest = v
		c.mu.Unlock()
		c.poke()
	}
}

// run sends each connection's latest state until ctx ends, then
// disconnects.
func (s *liveSink) run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, c := range s.conns {
		wg.Add(1)
		go func() { defer wg.Done(); c.run(ctx, s.topic) }()
	}
	wg.Wait()
	s.close()
}

// close disconnects (nil: no live copies).
func (s *liveSink) close() {
	if s == nil {
		return
	}
	for _, c := range s.conns {
		if c.client.IsConnected() {
			c.client.Disconnect(100)
		}
	}
}

func (c *liveConn) run(ctx context.Context, topic string) {
	tick := time.NewTicker(liveEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.wake:
		case <-tick.C:
		}
		c.mu.Lock()
		v := c.latest
		c.mu.Unlock()
		if v == nil || !c.client.IsConnectionOpen() {
			continue // the connect pokes again
		}
		tok := c.client.Publish(topic, 0, false, v)
		if !tok.WaitTimeout(3*time.Second) || tok.Error() != nil {
			c.log.Warn("live state not sent; the next one or the retained one follows", "broker", c.url, "err", tok.Error())
		}
	}
}

// headlineOf is a public view without its state: the seq, the table, the
// game, the headline and the run, what a venue's wall shows. A view is up
// to tens of kB (a World of Tanks: Rush state 34 kB), its headline a few
// hundred bytes, and the live copies go twice and again each second from
// every table of the hall. nil for no view or one that does not decode.
func headlineOf(view []byte) []byte {
	if view == nil {
		return nil
	}
	var m liveHeadline
	if err := json.Unmarshal(view, &m); err != nil {
		return nil
	}
	out, _ := json.Marshal(m)
	return out
}

// liveHeadline is the part of a wire.StateMessage the live copies carry.
type liveHeadline struct {
	Seq      int64       `json:"seq"`
	Venue    string      `json:"venue"`
	Table    string      `json:"table"`
	Game     string      `json:"game"`
	Headline *rules.Text `json:"headline,omitempty"`
	// Finished, so that a live copy keeps the wall's table finished.
	Finished bool   `json:"finished,omitempty"`
	Instance string `json:"instance,omitempty"`
}
