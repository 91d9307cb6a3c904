package companion

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/wire"
)

// Broker is the embedded MQTT broker (mochi-mqtt), used when the config
// names no outside broker.
type Broker struct {
	srv    *mochi.Server
	listen *limitListener
}

// BrokerUsers are the embedded broker's credentials: the daemon's own (the
// only one allowed to publish), the referee's and the players'.
type BrokerUsers struct {
	Daemon  display.Credential
	Referee display.Credential
	Players []display.PlayerCredential
	// Topics are the table's: the referee may publish to its
	// referee/command, a player to its own seat's player/N/command.
	Topics wire.Topics
	// LoginFailed, if set, is told of each wrong password (for the
	// metrics); it must not block.
	LoginFailed func()
	// MaxConnsPerAddr caps the connections from one address
	// (mqtt.max_connections_per_address; 0: DefaultBrokerConnsPerAddr).
	MaxConnsPerAddr int
}

// StartBroker listens on addr (":1883", "127.0.0.1:0") and serves, within
// the limits of defaultBrokerLimits.
func StartBroker(addr string, users BrokerUsers, log *slog.Logger) (*Broker, error) {
	lim := defaultBrokerLimits
	if users.MaxConnsPerAddr > 0 {
		lim.perAddress = users.MaxConnsPerAddr
	}
	return startBroker(addr, users, brokerConfig{limits: lim}, log)
}

// brokerConfig is what tests change: the limits and the brake's clock.
type brokerConfig struct {
	limits brokerLimits
	clock  func() time.Time // nil: time.Now
}

func startBroker(addr string, users BrokerUsers, cfg brokerConfig, log *slog.Logger) (*Broker, error) {
	quiet := slog.New(brokerLog{log.Handler()}).With("component", "broker")
	lim := cfg.limits
	caps := mochi.NewDefaultServerCapabilities()
	caps.MaximumPacketSize = uint32(lim.daemonPacket)
	caps.MaximumClients = int64(lim.connections + lim.reserve)
	caps.MaximumSessionExpiryInterval = lim.sessionExpiry
	caps.MaximumClientWritesPending = lim.pending
	caps.MaximumInflight = lim.inflight
	caps.ReceiveMaximum = lim.receive
	// mochi deletes a retained message a day after it was published by
	// default: a table left idle overnight would have no retained state in
	// the morning. Ours are replaced by the daemon, never left to expire.
	caps.MaximumMessageExpiryInterval = 0
	srv := mochi.New(&mochi.Options{InlineClient: false, Logger: quiet, Capabilities: caps})
	access := &brokerAccess{srv: srv, daemon: users.Daemon, referee: users.Referee, players: users.Players, topics: users.Topics,
		limits: lim, Clock: cfg.clock, log: quiet, loginFailed: users.LoginFailed}
	if err := srv.AddHook(access, nil); err != nil {
		return nil, fmt.Errorf("companion: broker: %w", err)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("companion: broker: listen on %s: %w", addr, err)
	}
	ll := newLimitListener(l, lim, quiet)
	if err := srv.AddListener(listeners.NewNet("sztab", ll)); err != nil {
		l.Close()
		return nil, fmt.Errorf("companion: broker: listen on %s: %w", addr, err)
	}
	go func() {
		if err := srv.Serve(); err != nil {
			log.Error("embedded broker stopped", "err", err)
		}
	}()
	return &Broker{srv: srv, listen: ll}, nil
}

// brokerLog passes the embedded broker's warnings and errors on, but not its
// chatter (connects, subscriptions) nor the warning mochi logs, with an empty
// message, each time a client's connection simply ends (closed, or silent
// past its deadline) or is refused at connect: brokerAccess logs a refusal
// itself, once per lock when someone keeps trying.
type brokerLog struct{ slog.Handler }

// brokerQuiet are the errors a client's connection ends with that say
// nothing more than brokerAccess logs already.
var brokerQuiet = []error{net.ErrClosed, io.EOF, os.ErrDeadlineExceeded,
	packets.ErrBadUsernameOrPassword, packets.ErrClientIdentifierNotValid}

func (h brokerLog) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && h.Handler.Enabled(ctx, l)
}

func (h brokerLog) Handle(ctx context.Context, r slog.Record) error {
	ended := false
	r.Attrs(func(a slog.Attr) bool {
		if err, ok := a.Value.Any().(error); ok {
			for _, q := range brokerQuiet {
				ended = ended || errors.Is(err, q)
			}
		}
		return !ended
	})
	if ended {
		return nil
	}
	if r.Message == "" {
		r.Message = "embedded broker"
	}
	return h.Handler.Handle(ctx, r)
}

func (h brokerLog) WithAttrs(as []slog.Attr) slog.Handler { return brokerLog{h.Handler.WithAttrs(as)} }
func (h brokerLog) WithGroup(name string) slog.Handler    { return brokerLog{h.Handler.WithGroup(name)} }

// Addr is the address the broker listens on, with the real port.
func (b *Broker) Addr() string { return b.listen.Addr().String() }

// Close stops the broker once the messages already sent at QoS 1 (the
// "offline" status among them) are acknowledged by their subscribers, or
// after two seconds: closing at once would cut them off on a slow machine.
func (b *Broker) Close() error {
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end) && b.unacknowledged() > 0; {
		time.Sleep(10 * time.Millisecond)
	}
	return b.srv.Close()
}

func (b *Broker) unacknowledged() int {
	n := 0
	for _, cl := range b.srv.Clients.GetAll() {
		if !cl.Closed() {
			n += cl.State.Inflight.Len()
		}
	}
	return n
}

// Publisher sends the table's messages to a broker through paho.
type Publisher struct {
	client  paho.Client
	timeout time.Duration
}

// PublisherOptions configure a connection.
type PublisherOptions struct {
	// URL is the broker's URL, or several separated by commas (the nodes
	// of a cluster): paho connects to the first that answers, in order,
	// and after a lost connection to the first that answers again.
	URL      string
	ClientID string
	Username string
	Password string
	TLS      *tls.Config
	// Will is published by the broker, retained, when the connection drops.
	WillTopic   string
	WillPayload []byte
	// Subscriptions are topics the table listens on (at SubscribeQoS),
	// subscribed again after every reconnect. Handlers run on the client's
	// goroutine and must not block.
	Subscriptions map[string]func(Message)
	// Listen are topics the table also listens on, subscribed after every
	// (re)connect but neither waited for nor tried again: a broker whose
	// ACL refuses them only keeps the table from hearing them (another
	// contract's messages, which the table says it cannot read).
	Listen map[string]func(Message)
	// OnConnect, if set, runs after every successful connect and
	// reconnect, once the broker has answered the subscriptions (or 10 s
	// went by): the place to publish again what a broker may have lost.
	// It runs on a goroutine of its own, never on paho's, one call at a
	// time.
	OnConnect func()
	// OnLost, if set, is told when the connection drops (paho then
	// reconnects by itself); it must not block.
	OnLost func(error)
	Log    *slog.Logger
}

// Message is one message received on a subscription.
type Message struct {
	Topic    string
	Payload  []byte
	Retained bool
}

// SubscribeQoS is the QoS of the table's subscriptions (its command
// topics): 0. The session is clean, so a command sent while the table was
// away is lost at QoS 1 too; what QoS 1 would add is a command's
// redelivery after a connection drops with it in flight, and a sender
// that gets no answer sends it again with its id (carried out once). At
// QoS 1 a NATS cluster makes the subscription a JetStream consumer, which
// needs the cluster's metadata leader: after the loss of that node the
// SUBACK waits for an election (4 s and more) and the table's state waits
// with it (it is published again once the subscriptions are confirmed).
const SubscribeQoS = 0

// Connect connects to the broker, retrying in the background if it is not
// there yet; messages published meanwhile wait in memory. A URL list that
// wire.ParseBrokers refuses is an error.
func Connect(ctx context.Context, o PublisherOptions) (*Publisher, error) {
	urls, err := wire.ParseBrokers(o.URL)
	if err != nil {
		return nil, fmt.Errorf("companion: mqtt: %w", err)
	}
	opts := paho.NewClientOptions().
		SetClientID(o.ClientID).
		SetCleanSession(true).
		SetAutoReconnect(true).
		SetConnectRetry(true).
		SetConnectRetryInterval(time.Second).
		// A venue broker that comes back is used within 2 s.
		SetMaxReconnectInterval(2 * time.Second).
		SetOrderMatters(true).
		SetKeepAlive(10 * time.Second)
	for _, u := range urls {
		opts.AddBroker(u)
	}
	if len(urls) > 1 {
		// A node that is down refuses at once, one that hangs is left
		// after 5 s for the next.
		opts.SetConnectTimeout(5 * time.Second)
	}
	if o.Username != "" {
		opts.SetUsername(o.Username).SetPassword(o.Password)
	}
	if o.TLS != nil {
		opts.SetTLSConfig(o.TLS)
	}
	if o.WillTopic != "" {
		opts.SetBinaryWill(o.WillTopic, o.WillPayload, 1, true)
	}
	log := o.Log
	opts.SetConnectionLostHandler(func(_ paho.Client, err error) {
		log.Warn("lost the MQTT broker; reconnecting", "broker", o.URL, "err", err)
		if o.OnLost != nil {
			o.OnLost(err)
		}
	})
	var onConnect sync.Mutex // one OnConnect at a time
	var generation atomic.Int64
	opts.SetOnConnectHandler(func(c paho.Client) {
		gen := generation.Add(1)
		log.Info("connected to the MQTT broker", "broker", o.URL)
		subscribe := func(topics []string) map[string]paho.Token {
			toks := map[string]paho.Token{}
			for _, topic := range topics {
				handle := o.Subscriptions[topic]
				toks[topic] = c.Subscribe(topic, SubscribeQoS, func(_ paho.Client, m paho.Message) {
					handle(Message{Topic: m.Topic(), Payload: m.Payload(), Retained: m.Retained()})
				})
			}
			return toks
		}
		topics := make([]string, 0, len(o.Subscriptions))
		for topic := range o.Subscriptions {
			topics = append(topics, topic)
		}
		toks := subscribe(topics)
		for topic, handle := range o.Listen {
			c.Subscribe(topic, SubscribeQoS, func(_ paho.Client, m paho.Message) {
				handle(Message{Topic: m.Topic(), Payload: m.Payload(), Retained: m.Retained()})
			})
		}
		// Waiting for the broker's answers here would block paho.
		go func() {
			told := false
			tell := func() {
				if !told && o.OnConnect != nil {
					onConnect.Lock()
					defer onConnect.Unlock()
					o.OnConnect()
				}
				told = true
			}
			defer tell()
			start := time.Now()
			for attempt := 1; ; attempt++ {
				var refused []string
				for topic, tok := range toks {
					if !tok.WaitTimeout(10 * time.Second) {
						log.Warn("the broker did not confirm the table's subscription within 10 s", "topic", topic)
						continue
					}
					if qos, ok := tok.(*paho.SubscribeToken).Result()[topic]; tok.Error() != nil || !ok || qos == 0x80 {
						refused = append(refused, topic)
						if attempt == 1 {
							log.Error("the broker refused the table's subscription (its ACL, or a NATS cluster electing a leader); trying again each second",
								"topic", topic, "err", tok.Error())
						}
					}
				}
				if len(refused) == 0 {
					if attempt > 1 {
						log.Info("the broker took the table's subscriptions", "tries", attempt)
					}
					return
				}
				// The table publishes what the broker may have lost once
				// the broker took its subscriptions, or after 10 s anyway.
				if time.Since(start) > 10*time.Second {
					tell()
				}
				time.Sleep(time.Second)
				if generation.Load() != gen || !c.IsConnectionOpen() {
					return // the next connection subscribes again
				}
				toks = subscribe(refused)
			}
		}()
	})
	c := paho.NewClient(opts)
	tok := c.Connect()
	select {
	case <-tok.Done():
		if err := tok.Error(); err != nil {
			return nil, fmt.Errorf("companion: mqtt: connect to %s: %w", o.URL, err)
		}
	case <-time.After(5 * time.Second):
		log.Warn("MQTT broker not reachable yet; the table keeps playing and publishes when it is", "broker", o.URL)
	case <-ctx.Done():
		c.Disconnect(0)
		return nil, ctx.Err()
	}
	return &Publisher{client: c, timeout: 10 * time.Second}, nil
}

// ErrPublishTimeout is returned when the broker did not acknowledge in time;
// the message stays queued in the client.
var ErrPublishTimeout = errors.New("companion: mqtt: publish not acknowledged in time")

// Publish sends one message at QoS 1 and waits for the broker's
// acknowledgement.
func (p *Publisher) Publish(topic string, payload []byte, retained bool) error {
	return p.Start(topic, payload, retained).Wait()
}

// Pending is a message sent and not yet acknowledged.
type Pending struct {
	topic   string
	tok     paho.Token
	timeout time.Duration
	err     error
}

// Start sends one message at QoS 1 without waiting: several in flight at
// once take one round trip to the broker, not one each. A message over
// the broker's packet limit is refused here: the broker would cut the
// connection and paho would send it again after every reconnect.
func (p *Publisher) Start(topic string, payload []byte, retained bool) Pending {
	if n := publishSize(topic, payload); n > MaxPacketSize {
		return Pending{topic: topic, err: fmt.Errorf("companion: mqtt: publish %s: %d bytes, over the limit of %d", topic, n, MaxPacketSize)}
	}
	return Pending{topic: topic, tok: p.client.Publish(topic, 1, retained, payload), timeout: p.timeout}
}

// Wait waits for the broker's acknowledgement.
func (x Pending) Wait() error {
	if x.err != nil {
		return x.err
	}
	if !x.tok.WaitTimeout(x.timeout) {
		return fmt.Errorf("%w: %s", ErrPublishTimeout, x.topic)
	}
	if err := x.tok.Error(); err != nil {
		return fmt.Errorf("companion: mqtt: publish %s: %w", x.topic, err)
	}
	return nil
}

// Connected reports whether the connection to the broker is up now.
func (p *Publisher) Connected() bool { return p.client.IsConnectionOpen() }

// publishSize is the size of the MQTT 3.1.1 PUBLISH packet (QoS 1) that
// carries payload on topic: the fixed header, the topic, a packet id.
func publishSize(topic string, payload []byte) int {
	rest := 2 + len(topic) + 2 + len(payload)
	n := 1 + rest
	for l := rest; ; l >>= 7 {
		n++
		if l < 128 {
			return n
		}
	}
}

// Close disconnects cleanly (the broker then does not send the will).
func (p *Publisher) Close() { p.client.Disconnect(500) }

// TLSFromConfig builds a tls.Config from file names, or nil when none are set.
func TLSFromConfig(c TLSConfig, resolve func(string) string) (*tls.Config, error) {
	if c == (TLSConfig{}) {
		return nil, nil
	}
	t := &tls.Config{InsecureSkipVerify: c.InsecureSkipVerify, MinVersion: tls.VersionTLS12}
	if c.CAFile != "" {
		pem, err := os.ReadFile(resolve(c.CAFile))
		if err != nil {
			return nil, fmt.Errorf("companion: mqtt tls: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("companion: mqtt tls: %s holds no PEM certificate", c.CAFile)
		}
		t.RootCAs = pool
	}
	if c.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(resolve(c.CertFile), resolve(c.KeyFile))
		if err != nil {
			return nil, fmt.Errorf("companion: mqtt tls: %w", err)
		}
		t.Certificates = []tls.Certificate{cert}
	}
	return t, nil
}
