// Package hub is the venue wall: a process apart from the tables that
// subscribes to every table of a venue on any MQTT broker and serves one page
// with each table's status, game, headline and a link to its screen.
package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/ops"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
)

// Options configure a hub.
type Options struct {
	// Broker is the venue broker's URL (tcp://host:1883), or several
	// separated by commas (every node of a NATS cluster): the hub follows
	// the first that answers and, when it goes away, the next.
	Broker   string
	Username string
	Password string
	Venue    string
	// Listen is the wall page's address (":8090").
	Listen string
	Log    *slog.Logger
	// Heartbeat is the page keep-alive period (default 2s).
	Heartbeat time.Duration
	// Clock gives the time of each table's last update; nil is time.Now.
	Clock func() time.Time
	// MetricsAllow are the addresses that may read /metrics on the wall's
	// listener (nil: loopback only). /healthz and /readyz answer everyone.
	MetricsAllow ops.Allow
	// Version is the hub's version, in sztab_build_info.
	Version string
	// WallEvery is how often at most the wall goes to its pages while the
	// tables change faster (default DefaultWallEvery, 100 ms; negative:
	// every change). The first change after a quiet spell goes at once.
	WallEvery time.Duration
	// WallBandwidth caps what the wall sends to all its pages together, in
	// bytes a second (default DefaultWallBandwidth, 32 MiB/s; negative:
	// no cap): with many pages the wall goes less often than WallEvery.
	WallBandwidth int64
	// MaxConns and MaxConnsPerAddr cap the wall's connections, each live
	// page holding one (defaults DefaultMaxConns, 4,096, for a streamed
	// tournament's spectators, and display.DefaultMaxConnsPerAddr, 16:
	// raise it behind a proxy, where every spectator has its address).
	// Half of MaxConns may be live pages, and MaxConnsPerAddr of them
	// from one address.
	MaxConns, MaxConnsPerAddr int
	// Applied, if set, is called after each message of a table has been
	// applied to the hub's state (the load benchmarks time it); it must
	// not block or keep payload.
	Applied func(topic string, payload []byte)

	// Results, if set, also follows every table's result (.../result,
	// retained: wire.ResultMessage) and gets each payload as it arrives.
	Results func(table string, payload []byte)
	// Connected, if set, is called after each (re)connect to the broker
	// once the hub has subscribed: what is published through Publish
	// again after a broker restart goes from there.
	Connected func()
	// Login, if set, is the one credential that may sign in on the wall's
	// listener (/login, /logout: the display server's, as the referee's
	// on a table); Wrap may then put pages behind it.
	Login display.Credential
	// Wrap, if set, wraps the wall's handler (to serve more pages on the
	// wall's listener); page is the display server behind wall, for its
	// sign-in and same-origin checks.
	Wrap func(wall http.Handler, page *display.Server) http.Handler
	// ConflictGrace is how long two instances of one table id may both be
	// online before the wall calls it a conflict (default 45 s: a table
	// restarted after a crash is online again before the broker publishes
	// its old connection's will, which is within 1.5 keep-alives). A table
	// whose instances alternate is a conflict at once.
	ConflictGrace time.Duration
	// OtherContract, if set, is told of each topic heard under another
	// wire contract than this hub's (a newer release's table, its status
	// or, with Results, its result), once a topic, with why it cannot be
	// read: the venue keeps a result it cannot read as a refusal.
	OtherContract func(topic string, err *wire.ErrOtherVersion)
	// Heads, if set, is the file where the hub keeps the journal heads the
	// tables publish in their status (see Heads), read back when the hub
	// starts again and written at most once a second: `sztab verify
	// --journal J --heads FILE` checks a journal against it.
	Heads string
}

// Board is what the venue adds to the wall: the tournament's standings and
// the round clock.
type Board struct {
	Title  string `json:"title,omitempty"`
	Round  int    `json:"round,omitempty"`
	Rounds int    `json:"rounds,omitempty"`
	// Clock is the round clock: started at Start, Minutes long; nil
	// while no round runs.
	Clock     *Clock     `json:"clock,omitempty"`
	Standings []Standing `json:"standings"`
}

// Clock is a round's clock.
type Clock struct {
	Round   int       `json:"round"`
	Start   time.Time `json:"start"`
	Minutes int       `json:"minutes"`
}

// Standing is one line of the standings on the wall.
type Standing struct {
	Rank int `json:"rank"`
	// Tie says the rank is shared.
	Tie    bool    `json:"tie,omitempty"`
	Name   string  `json:"name"`
	Club   string  `json:"club,omitempty"`
	Points float64 `json:"points"`
	Played int     `json:"played"`
	// SampleData is set when a game the player's points count ran on
	// sample data (wire.SampleDataText): the wall says so beside them.
	SampleData *rules.Text `json:"sample_data,omitempty"`
}

// DefaultMaxConns is the wall's default connection cap (Options.MaxConns).
const DefaultMaxConns = 4096

// Table is what the wall shows of one table.
type Table struct {
	Table    string      `json:"table"`
	Status   string      `json:"status"`
	Game     string      `json:"game,omitempty"`
	Version  string      `json:"version,omitempty"`
	Screen   string      `json:"screen,omitempty"`
	Seq      int64       `json:"seq,omitempty"`
	Headline *rules.Text `json:"headline,omitempty"`
	// Finished says the table's game is over: its headline is the result.
	Finished bool `json:"finished,omitempty"`
	// SampleData is set when the table's game runs on sample data (its
	// state's wire.StateMessage.SampleData): the wall says so beside its
	// headline.
	SampleData *rules.Text `json:"sample_data,omitempty"`
	// Updated is when the hub last heard the table's state (a live copy of
	// the state it shows included) or status.
	Updated time.Time `json:"updated"`
	// Conflict says two daemons publish as this table id (Instances are
	// the ones online).
	Conflict  bool     `json:"conflict,omitempty"`
	Instances []string `json:"instances,omitempty"`
	// Head is the journal head of the table's last status that named one.
	Head *wire.ChainHead `json:"head,omitempty"`

	online     map[string]time.Time // instance → online since
	alternated bool                 // an instance came back while another was online
	last       string               // the instance of the last status
	run        string               // the instance of the state shown
}

// Wall is the venue's state as the page gets it.
type Wall struct {
	Venue  string  `json:"venue"`
	Seq    int64   `json:"seq"`
	Tables []Table `json:"tables"`
	Board  *Board  `json:"board,omitempty"`
	// Unreadable are the tables heard under another wire contract (a
	// newer release's), which the wall cannot show: each says why, in
	// Polish and English.
	Unreadable []Unreadable `json:"unreadable,omitempty"`
}

// Unreadable is a table the hub heard under another wire contract.
type Unreadable struct {
	Table string `json:"table"`
	// Version is the contract it speaks ("v2").
	Version string     `json:"version"`
	Text    rules.Text `json:"text"`
}

// Hub follows the tables of one venue.
type Hub struct {
	opts    Options
	brokers []string
	feed    *display.Feed
	mu      sync.Mutex
	tables  map[string]*Table
	board   *Board
	// heads is the record of the tables' journal heads (Options.Heads);
	// headsDirty says it changed since it was last written.
	heads      *Heads
	headsDirty bool
	seq        int64
	addr       string
	ready      chan struct{}
	wall       coalescer
	// wallSize is the length of the latest wall sent, for its pacing.
	wallSize atomic.Int64

	reg       *prometheus.Registry
	readiness *ops.Readiness
	connected atomic.Bool
	listening atomic.Bool
	// client is the connection Run made (nil before): Publish uses it, so
	// a venue needs one login's one connection to the broker.
	client     atomic.Pointer[paho.Client]
	connects   atomic.Int64
	reconnects prometheus.Counter
	messages   *prometheus.CounterVec
	// otherContracts are the tables heard under another wire contract
	// (topic → *wire.ErrOtherVersion), each said once.
	otherContracts sync.Map
	otherCount     atomic.Int64
}

// MaxOtherContracts bounds the topics of another wire contract the hub
// keeps (and the wall shows).
const MaxOtherContracts = 64

// New returns a hub; Run starts it.
func New(o Options) (*Hub, error) {
	if o.Venue == "" || strings.ContainsAny(o.Venue, "+#/") {
		return nil, fmt.Errorf("hub: --venue %q is not a venue id", o.Venue)
	}
	brokers, err := wire.ParseBrokers(o.Broker)
	if err != nil {
		return nil, fmt.Errorf("hub: --broker: %w", err)
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Listen == "" {
		o.Listen = ":8090"
	}
	if o.Heartbeat == 0 {
		o.Heartbeat = 2 * time.Second
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.WallEvery == 0 {
		o.WallEvery = DefaultWallEvery
	}
	if o.WallBandwidth == 0 {
		o.WallBandwidth = DefaultWallBandwidth
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.ConflictGrace == 0 {
		o.ConflictGrace = 45 * time.Second
	}
	h := &Hub{opts: o, brokers: brokers, feed: display.NewFeed(), tables: map[string]*Table{}, ready: make(chan struct{})}
	h.wall.every = h.wallEvery
	if err := h.loadHeads(); err != nil {
		return nil, err
	}
	h.metrics()
	meta, _ := json.Marshal(map[string]any{"venue": o.Venue, "game": "hub", "heartbeat_ms": o.Heartbeat.Milliseconds()})
	h.feed.SetMeta(meta)
	h.publishWall() // the empty wall, without starting a spell
	return h, nil
}

// Addr is the wall page's address once Run listens, or "" if Run could
// not listen.
func (h *Hub) Addr() string {
	<-h.ready
	return h.addr
}

// Run serves the wall and follows the broker until ctx ends.
func (h *Hub) Run(ctx context.Context) error {
	// The wall is served with the screens' settings: timeouts, the
	// connection cap, the same cross-origin and rate-limit rules.
	ds := &display.Server{Feed: h.feed, Kind: "hub", Log: h.opts.Log, Heartbeat: h.opts.Heartbeat, Clock: h.opts.Clock, Referee: h.opts.Login,
		Streams: display.StreamLimits{Public: display.PublicStreamsFor(h.opts.MaxConns), PerAddr: h.opts.MaxConnsPerAddr}}
	page := ds.Handler()
	if h.opts.Wrap != nil {
		page = h.opts.Wrap(page, ds)
	}
	page = ops.NewEndpoints(h.reg, h.readiness, h.opts.MetricsAllow, h.opts.Log).Wrap(page)
	srv, err := display.Listen(display.HTTPOptions{Addr: h.opts.Listen, Log: h.opts.Log,
		MaxConns: h.opts.MaxConns, MaxConnsPerAddr: h.opts.MaxConnsPerAddr}, page)
	if err != nil {
		close(h.ready) // Addr must not wait for a listener that never came
		return fmt.Errorf("hub: %w", err)
	}
	h.addr = srv.Addr()
	h.listening.Store(true)
	close(h.ready)
	go func() {
		if err := srv.Serve(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			h.opts.Log.Error("hub: wall page stopped", "err", err)
		}
	}()
	defer srv.Server.Close()

	clientID := fmt.Sprintf("sztab-hub-%s-%d", h.opts.Venue, h.opts.Clock().UnixNano()%1e6)
	opts := h.clientOptions(clientID, h.brokers...)
	// Subscribing again on every (re)connect keeps the wall whole after the
	// broker restarts; the retained status and state come back with it.
	opts.SetOnConnectHandler(func(c paho.Client) {
		h.connected.Store(true)
		if h.connects.Add(1) > 1 {
			h.reconnects.Inc()
		}
		follow := []string{wire.VenueFilter(h.opts.Venue, "status"), wire.VenueFilter(h.opts.Venue, "state")}
		if len(h.brokers) == 1 {
			follow = append(follow, wire.VenueFilter(h.opts.Venue, "live"))
		}
		h.subscribe(c, follow, h.onMessage)
		// A table of another contract (a newer release's sztab/v2/…) is
		// told apart from no table at all. Not retried: a broker whose
		// ACL lets the hub read this contract only refuses it.
		c.Subscribe(wire.AnyVersion(h.opts.Venue, "+", "status"), followQoS, h.onOtherContract)
		if h.opts.Results != nil {
			c.Subscribe(wire.AnyVersion(h.opts.Venue, "+", "result"), followQoS, h.onOtherContract)
		}
		if h.opts.Results != nil {
			h.subscribe(c, []string{wire.VenueFilter(h.opts.Venue, "result")}, h.onResult)
		}
		h.opts.Log.Info("hub: following the venue", "broker", h.opts.Broker, "venue", h.opts.Venue)
		if h.opts.Connected != nil {
			h.opts.Connected()
		}
	})
	opts.SetConnectionLostHandler(func(_ paho.Client, err error) {
		h.connected.Store(false)
		h.opts.Log.Warn("hub: lost the broker; reconnecting", "err", err)
	})
	c := paho.NewClient(opts)
	h.client.Store(&c)
	c.Connect()
	defer c.Disconnect(200)
	if h.opts.Heads != "" {
		defer h.saveHeads()
		go func() {
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
					h.saveHeads()
				}
			}
		}()
	}
	if len(h.brokers) > 1 {
		for _, lc := range h.followLive(clientID) {
			defer lc.Disconnect(200)
		}
	}
	<-ctx.Done()
	return nil
}

// publishWait bounds the wait for the broker's acknowledgement of Publish.
const publishWait = 10 * time.Second

// Publish publishes one retained message at QoS 1 over the hub's own
// connection and waits for the broker's acknowledgement. A broker that
// makes a login's client id its user name (Mosquitto's
// use_username_as_clientid) lets one connection per login stay: a second
// one of the same login would push the first off, and it the second, for
// ever.
func (h *Hub) Publish(topic string, payload []byte) error {
	c := h.client.Load()
	if c == nil || !h.connected.Load() {
		return errors.New("hub: not connected to the broker")
	}
	tok := (*c).Publish(topic, 1, true, payload)
	if !tok.WaitTimeout(publishWait) {
		return fmt.Errorf("hub: %s: no acknowledgement within %v", topic, publishWait)
	}
	if err := tok.Error(); err != nil {
		return fmt.Errorf("hub: %s: %w", topic, err)
	}
	return nil
}

// clientOptions are the hub's connection to brokers: a clean session,
// reconnecting by itself, with the hub's login.
func (h *Hub) clientOptions(clientID string, brokers ...string) *paho.ClientOptions {
	o := paho.NewClientOptions()
	for _, b := range brokers {
		o.AddBroker(b)
	}
	o.SetClientID(clientID).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(time.Second).SetCleanSession(true)
	if h.opts.Username != "" {
		o.SetUsername(h.opts.Username).SetPassword(h.opts.Password)
	}
	return o
}

// liveNodes is how many nodes of a cluster the hub follows the tables'
// live states on (.../live), each over a connection of its own: two, so
// that after the loss of any one node a connection is up already. One made
// after the loss waits for the cluster's election (an MQTT CONNECT of
// nats-server 2.9.10 needs the sessions' JetStream stream), and the tables'
// retained states wait for it too; the live copies, core pub/sub, do not.
const liveNodes = 2

// followLive connects to the first liveNodes brokers, each following the
// venue's .../live.
func (h *Hub) followLive(clientID string) []paho.Client {
	var out []paho.Client
	for i, b := range h.brokers[:min(liveNodes, len(h.brokers))] {
		o := h.clientOptions(fmt.Sprintf("%s-live-%d", clientID, i+1), b).
			SetMaxReconnectInterval(2 * time.Second).SetConnectTimeout(5 * time.Second).SetKeepAlive(5 * time.Second)
		o.SetOnConnectHandler(func(c paho.Client) {
			h.subscribe(c, []string{wire.VenueFilter(h.opts.Venue, "live")}, h.onMessage)
		})
		o.SetConnectionLostHandler(func(_ paho.Client, err error) {
			h.opts.Log.Warn("hub: lost a live connection; reconnecting", "broker", b, "err", err)
		})
		lc := paho.NewClient(o)
		lc.Connect()
		out = append(out, lc)
	}
	return out
}

// followQoS is the QoS of the hub's subscriptions: 0. The wall shows each
// table's latest status and state, which are retained: a message lost with
// a connection is replaced by the retained one when the hub subscribes
// again, and the table's next one. At QoS 1 a NATS cluster makes every
// subscription a JetStream consumer, which cannot be created while the
// cluster elects a leader after losing a node (the SUBACK takes 4 s and
// says 0x80): the wall would stay behind for as long.
const followQoS = 0

// subscribe subscribes to topics and, on a goroutine of its own (paho's
// must not wait), subscribes again each second to those the broker
// refuses: a NATS cluster electing a leader after losing a node answers
// 0x80 for a while. It stops when the connection does (the next one
// subscribes again).
func (h *Hub) subscribe(c paho.Client, topics []string, handle paho.MessageHandler) {
	toks := map[string]paho.Token{}
	for _, t := range topics {
		toks[t] = c.Subscribe(t, followQoS, handle)
	}
	go func() {
		for {
			var refused []string
			for t, tok := range toks {
				if !tok.WaitTimeout(10 * time.Second) {
					refused = append(refused, t)
					continue
				}
				if q := tok.(*paho.SubscribeToken).Result()[t]; tok.Error() != nil || q == 0x80 {
					refused = append(refused, t)
				}
			}
			if len(refused) == 0 {
				return
			}
			h.opts.Log.Warn("hub: the broker refused a subscription; trying again", "topics", refused)
			time.Sleep(time.Second)
			if !c.IsConnectionOpen() {
				return
			}
			toks = map[string]paho.Token{}
			for _, t := range refused {
				toks[t] = c.Subscribe(t, followQoS, handle)
			}
		}
	}()
}

// onOtherContract says, once per table, that a table speaks another
// contract than the hub and which release is needed to follow it.
func (h *Hub) onOtherContract(_ paho.Client, m paho.Message) {
	var other *wire.ErrOtherVersion
	if err := wire.CheckVersion(m.Topic()); !errors.As(err, &other) {
		return // this hub's own contract: onMessage has it
	}
	if _, said := h.otherContracts.Load(m.Topic()); said {
		return
	}
	// Anyone may publish on a broker without logins: a flood of made-up
	// tables is kept to MaxOtherContracts, and said once.
	if h.otherCount.Add(1) > MaxOtherContracts {
		if h.otherCount.Load() == MaxOtherContracts+1 {
			h.opts.Log.Warn("hub: more tables of another wire contract than the wall keeps; the rest are not shown", "kept", MaxOtherContracts)
		}
		h.otherCount.Store(MaxOtherContracts + 2)
		return
	}
	if _, said := h.otherContracts.LoadOrStore(m.Topic(), other); said {
		h.otherCount.Add(-1)
		return
	}
	h.opts.Log.Warn("hub: a table this hub cannot follow", "topic", m.Topic(), "reason", other.Error(), "reason_pl", other.Polish())
	if h.opts.OtherContract != nil {
		h.opts.OtherContract(m.Topic(), other)
	}
	h.publish()
}

// OtherContracts are the refusals of the tables heard under another wire
// contract, by status topic.
func (h *Hub) OtherContracts() map[string]string {
	out := map[string]string{}
	h.otherContracts.Range(func(k, v any) bool {
		out[k.(string)] = v.(*wire.ErrOtherVersion).Error()
		return true
	})
	return out
}

// unreadable are the tables heard under another contract, one line a
// table and contract, for the wall.
func (h *Hub) unreadable() []Unreadable {
	heard := map[string]*wire.ErrOtherVersion{}
	var topics []string
	h.otherContracts.Range(func(k, v any) bool {
		heard[k.(string)] = v.(*wire.ErrOtherVersion)
		topics = append(topics, k.(string))
		return true
	})
	sort.Strings(topics) // …/result before …/status: the status's text shown, the same each time
	var out []Unreadable
	seen := map[string]int{}
	for _, topic := range topics {
		e := heard[topic]
		parts := strings.SplitN(topic, "/", 5) // sztab/{version}/{venue}/{table}/…
		if len(parts) < 5 {
			continue
		}
		key := parts[3] + " " + e.Version
		if i, ok := seen[key]; ok {
			out[i].Text = e.Text()
			continue
		}
		seen[key] = len(out)
		out = append(out, Unreadable{Table: parts[3], Version: e.Version, Text: e.Text()})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Table < out[j].Table })
	return out
}

func (h *Hub) onMessage(_ paho.Client, m paho.Message) {
	if h.stale(m.Topic(), m.Payload(), m.Retained()) {
		return
	}
	h.apply(m.Topic(), m.Payload())
}

// stale says whether a table's state (.../state or its copy on .../live)
// is behind the one the wall shows, by its seq and run (StateMessage
// Instance):
//   - a lower seq of the same run is late: a copy that took the slower way
//     through a cluster (a retained publication held up by an election
//     while the live copies went on), or a retained state a NATS node that
//     came back still had (nats-server 2.9.10; the hub gets it when it
//     subscribes there again);
//   - a lower seq of another run, or of a table that names no run, is a new
//     game's journal when it comes live, and old when it comes retained;
//   - the same seq of the same run again on .../live is a copy (the table
//     sends it over two nodes, and again each second): the wall has it, and
//     the table's Updated says when it was last heard current.
func (h *Hub) stale(topic string, payload []byte, retained bool) bool {
	tp, ok := wire.ParseTopic(topic)
	if !ok || tp.Venue != h.opts.Venue || (tp.Suffix != "state" && tp.Suffix != "live") {
		return false // apply ignores it
	}
	var s struct {
		Seq      int64  `json:"seq"`
		Instance string `json:"instance"`
	}
	if json.Unmarshal(payload, &s) != nil {
		return false // apply reports it
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.tables[tp.Table]
	if t == nil || s.Seq > t.Seq {
		return false
	}
	sameRun := s.Instance != "" && s.Instance == t.run
	switch {
	case s.Seq == t.Seq && tp.Suffix == "live" && sameRun:
		t.Updated = h.opts.Clock().UTC() // heard current; the wall is unchanged
		return true
	case s.Seq == t.Seq:
		return false
	case sameRun:
		return true
	case !retained:
		return false
	}
	h.opts.Log.Warn("hub: a retained state older than the wall's ignored (a broker node that came back?)", "table", tp.Table, "seq", s.Seq, "wall_seq", t.Seq)
	return true
}

func (h *Hub) onResult(_ paho.Client, m paho.Message) {
	tp, ok := wire.ParseTopic(m.Topic())
	if !ok || tp.Venue != h.opts.Venue || tp.Suffix != "result" || len(m.Payload()) == 0 {
		return // an empty retained payload clears the result: nothing to count
	}
	h.messages.WithLabelValues("result").Inc()
	h.opts.Results(tp.Table, m.Payload())
}

// apply takes one message of a table: its status or its public state.
func (h *Hub) apply(topic string, payload []byte) {
	tp, ok := wire.ParseTopic(topic)
	if !ok {
		return
	}
	table, kind := tp.Table, tp.Suffix
	if tp.Venue != h.opts.Venue || (kind != "status" && kind != "state" && kind != "live") {
		return
	}
	h.mu.Lock()
	t := h.tables[table]
	if t == nil {
		t = &Table{Table: table, Status: "unknown"}
		h.tables[table] = t
	}
	switch kind {
	case "status":
		var s wire.StatusMessage
		if err := json.Unmarshal(payload, &s); err != nil || s.Status == "" {
			h.mu.Unlock()
			h.messages.WithLabelValues("unreadable").Inc()
			h.opts.Log.Warn("hub: unreadable status", "table", table, "err", err)
			return
		}
		t.Status, t.Version = s.Status, s.Version
		if h.instance(t, s) {
			time.AfterFunc(h.opts.ConflictGrace, h.publish) // the wall shows the conflict once it lasts
		}
		if s.Game != "" {
			t.Game = s.Game
		}
		if s.Screen != "" {
			t.Screen = s.Screen
		}
		if s.Head != nil && s.Head.Journal != "" {
			t.Head = s.Head
			h.recordHead(table, s.Instance, *s.Head)
		}
	case "state", "live":
		var s wire.StateMessage
		if err := json.Unmarshal(payload, &s); err != nil {
			h.mu.Unlock()
			h.messages.WithLabelValues("unreadable").Inc()
			h.opts.Log.Warn("hub: unreadable state", "table", table, "err", err)
			return
		}
		t.Seq, t.Headline, t.Finished, t.SampleData, t.run = s.Seq, s.Headline, s.Finished, s.SampleData, s.Instance
		if s.Game != "" {
			t.Game = s.Game
		}
	}
	t.Updated = h.opts.Clock().UTC()
	h.mu.Unlock()
	h.messages.WithLabelValues(kind).Inc()
	if h.opts.Applied != nil {
		h.opts.Applied(topic, payload)
	}
	h.publish()
}

// publish sends the wall to its pages, at most once per WallEvery (see
// coalescer): at once after a quiet spell, else at the spell's end with
// every change made during it.
func (h *Hub) publish() { h.wall.request(h.publishWall) }

func (h *Hub) publishWall() {
	h.mu.Lock()
	h.seq++
	w := h.build()
	h.mu.Unlock()
	data, _ := json.Marshal(w)
	h.wallSize.Store(int64(len(data)))
	h.feed.SetState(display.Public, data)
}

// build is the wall as the hub's state has it now; h.mu is held.
func (h *Hub) build() Wall {
	w := Wall{Venue: h.opts.Venue, Seq: h.seq, Tables: []Table{}}
	now := h.opts.Clock()
	for _, t := range h.tables {
		c := *t
		c.Conflict, c.Instances = h.conflict(t, now)
		w.Tables = append(w.Tables, c)
	}
	w.Board = h.board
	w.Unreadable = h.unreadable()
	sort.Slice(w.Tables, func(i, j int) bool { return w.Tables[i].Table < w.Tables[j].Table })
	return w
}

// Wall returns the current wall, for tests and the terminal view: the
// hub's state now, which the pages get at most WallEvery later.
func (h *Hub) Wall() Wall {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.build()
}

// metrics builds the hub's registry: the tables it follows by status, its
// broker connection, the messages it read and the wall's live pages.
func (h *Hub) metrics() {
	h.reg = prometheus.NewRegistry()
	h.readiness = &ops.Readiness{}
	h.readiness.Add("listening", true, h.listening.Load)
	h.readiness.Add("broker", false, h.connected.Load)
	version := h.opts.Version
	if version == "" {
		version = "unknown"
	}
	gauge := func(name, help string, labels prometheus.Labels, fn func() float64) {
		h.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help, ConstLabels: labels}, fn))
	}
	gauge("sztab_build_info", "Always 1: the venue hub's version.", prometheus.Labels{"version": version, "game": "hub", "goversion": runtime.Version()},
		func() float64 { return 1 })
	gauge("sztab_mqtt_connected", "1 while the connection to the venue broker is up.", nil, func() float64 {
		if h.connected.Load() {
			return 1
		}
		return 0
	})
	gauge("sztab_screens_clients", "Pages following the venue wall live (SSE clients).", nil, func() float64 { return float64(h.feed.Subscribers()) })
	h.reconnects = prometheus.NewCounter(prometheus.CounterOpts{Name: "sztab_mqtt_reconnects_total", Help: "Connections to the venue broker after the first one."})
	h.messages = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sztab_hub_messages_total",
		Help: "Messages of the venue's tables the hub read, by kind (status, state, live, result, unreadable)."}, []string{"kind"})
	h.reg.MustRegister(h.reconnects, h.messages, tablesCollector{h}, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, k := range []string{"status", "state", "result", "unreadable"} {
		h.messages.WithLabelValues(k)
	}
}

// tablesCollector reports sztab_hub_tables{status}: how many of the
// venue's tables are online, offline or not heard of yet, at scrape time.
type tablesCollector struct{ h *Hub }

var tablesDesc = prometheus.NewDesc("sztab_hub_tables", "Tables of the venue the hub follows, by their last status (online, offline, unknown).", []string{"status"}, nil)

func (c tablesCollector) Describe(ch chan<- *prometheus.Desc) { ch <- tablesDesc }

func (c tablesCollector) Collect(ch chan<- prometheus.Metric) {
	count := map[string]int{"online": 0, "offline": 0, "unknown": 0}
	c.h.mu.Lock()
	for _, t := range c.h.tables {
		s := t.Status
		if _, ok := count[s]; !ok {
			s = "unknown"
		}
		count[s]++
	}
	c.h.mu.Unlock()
	for s, n := range count {
		ch <- prometheus.MustNewConstMetric(tablesDesc, prometheus.GaugeValue, float64(n), s)
	}
}

// Gatherer is the hub's metrics registry (served on /metrics).
func (h *Hub) Gatherer() prometheus.Gatherer { return h.reg }

// instance follows which daemons are online as t (h.mu held), t.Status
// just set from s: each status names its daemon's instance (random per
// start). It returns true when a second instance came online (the
// conflict's grace starts).
func (h *Hub) instance(t *Table, s wire.StatusMessage) bool {
	if t.online == nil {
		t.online = map[string]time.Time{}
	}
	defer func() { t.last = s.Instance }()
	if s.Status != "online" {
		if s.Instance == "" {
			clear(t.online) // a daemon from before instance ids: cannot tell
		}
		delete(t.online, s.Instance)
		if len(t.online) > 0 {
			// The will of a daemon's earlier connection (a crash, then a
			// restart) arriving after the new one is online: still online.
			t.Status = "online"
		}
		if len(t.online) < 2 {
			t.alternated = false
		}
		return false
	}
	if s.Instance == "" {
		return false
	}
	if _, ok := t.online[s.Instance]; ok {
		// Back after another instance spoke, both still online: two
		// daemons take turns (reconnecting, each taking the table over).
		if t.last != "" && t.last != s.Instance && len(t.online) > 1 {
			t.alternated = true
		}
		return false
	}
	t.online[s.Instance] = h.opts.Clock()
	return len(t.online) == 2
}

// conflict says whether two daemons claim t now (h.mu held): two
// instances online for longer than the grace, or taking turns.
func (h *Hub) conflict(t *Table, now time.Time) (bool, []string) {
	if len(t.online) < 2 {
		return false, nil
	}
	ids := make([]string, 0, len(t.online))
	latest := time.Time{}
	for id, since := range t.online {
		ids = append(ids, id)
		if since.After(latest) {
			latest = since
		}
	}
	sort.Strings(ids)
	if t.alternated || now.Sub(latest) >= h.opts.ConflictGrace {
		return true, ids
	}
	return false, nil
}

// Contested says whether two or more daemons are online as table now: a
// conflict once it lasts ConflictGrace (or at once when they alternate),
// or a restarted table whose old connection's will has not come yet.
func (h *Hub) Contested(table string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.tables[table]
	return t != nil && len(t.online) >= 2
}

// ConflictGrace is how long two daemons online as one table are let be
// before the hub calls it a conflict (Options.ConflictGrace).
func (h *Hub) ConflictGrace() time.Duration { return h.opts.ConflictGrace }

// Conflict says whether two daemons claim table now, and why.
func (h *Hub) Conflict(table string) (bool, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.tables[table]
	if t == nil {
		return false, ""
	}
	c, ids := h.conflict(t, h.opts.Clock())
	if !c {
		return false, ""
	}
	return true, fmt.Sprintf("two daemons publish as table %s (instances %s)", table, strings.Join(ids, ", "))
}

// SetBoard puts the tournament's standings and round clock on the wall
// (nil takes them off).
func (h *Hub) SetBoard(b *Board) {
	h.mu.Lock()
	h.board = b
	h.mu.Unlock()
	h.publish()
}
