package companion

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/ops"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// Version is the daemon's version, published in the status message.
var Version = "0.1.0"

// Options are what the caller of Run wires in.
type Options struct {
	// Games are the games this binary plays; the config names one.
	Games Games
	Log   *slog.Logger
	// Clock gives the time stamped on journal entries; nil is time.Now.
	Clock func() time.Time
	// SimSpeed scales the waits of a simulated script (1 real time, 0 none).
	SimSpeed float64
	// Narrate receives a simulated script's narration.
	Narrate func(text string)
	// OnEvent sees every event as the table journals it (for the console).
	OnEvent func(seq int64, text rules.Text)
	// Ready is called once the daemon takes input, with the embedded
	// broker's address and the screens' address (host:port; "" when there
	// is none).
	Ready func(brokerAddr, displayAddr string)
	// Heartbeat is the screens' keep-alive period (default 2s).
	Heartbeat time.Duration
	// Trace, when set, is told how long each stage of an accepted action
	// took: "rules" (the engine), "journal" (the durable commit), "views"
	// (encoding every viewer's state), "publish" (from the commit to the
	// broker's acknowledgement of the new state). For benchmarks and
	// metrics; it must not block.
	Trace func(stage string, took time.Duration)
	// Getenv reads the systemd notify variables (NOTIFY_SOCKET,
	// WATCHDOG_USEC, WATCHDOG_PID); nil is os.Getenv.
	Getenv func(string) string
	// Instance is the id of this start in every status and state message;
	// "" draws a random one. Tests that compare two daemons byte for byte
	// give both the same.
	Instance string

	// Test hooks: beforeJournal runs in Open just before the journal opens;
	// beforeHandle runs in the loop that accepts inputs before each one
	// (a test blocks it there to wedge the loop).
	beforeJournal func(*Daemon)
	beforeHandle  func()
	// opened runs in Run after each Open (a test counts the games).
	opened func(*Daemon)
}

// Daemon is one table's companion, in three parts: the table (game,
// journal, seq) that accepts one input at a time; the fan-out (MQTT, the
// screens' feed, the table's own lights) fed after each journal commit and
// never waited for; and the sensors (hardware, camera, simulator), which
// send their events into one input channel.
type Daemon struct {
	cfg    *Config
	opts   Options
	log    *slog.Logger
	table  *table
	topics wire.Topics
	inputs chan Input
	// queue holds the commands (MQTT and the pages'), one queue per
	// sender, for the loop that accepts inputs (command_queue.go);
	// clearing are the command topics being cleared on the broker
	// (clearRetained).
	queue    *commandQueue
	clearMu  sync.Mutex
	clearing map[string]bool
	// pairing is the venue's latest pairing message, taken by the loop
	// that accepts inputs when pairingKick says one came (pairing.go).
	pairingMu   sync.Mutex
	pairing     *Message
	pairingKick chan struct{}
	// otherPairings are the pairing topics of another wire contract the
	// table heard (topic → struct{}), each said once (pairing.go);
	// otherSaid are those the loop has not told the referee of yet.
	otherPairings sync.Map
	otherSaid     []*wire.ErrOtherVersion

	pub    *Publisher
	broker *Broker
	mqtt   *mqttSink
	sinks  *fanOut
	feed   *display.Feed
	// self is the daemon's own credential on the embedded broker.
	self display.Credential
	// live, with a venue's cluster, sends the public state over two nodes
	// besides the retained one (live.go).
	live *liveSink
	// instance is random per start, in every status (wire.StatusMessage).
	instance string
	// backlog counts the inputs queued and not yet handled.
	backlog atomic.Int64

	screens *screens
	// Operations: metrics (its own registry), readiness, the endpoints'
	// own listener (nil when they share the screens' or there are none),
	// systemd's notify socket.
	metrics     *metrics
	ready       *ops.Readiness
	endpoints   *ops.Endpoints
	opsSrv      *ops.Server
	notify      *ops.Notifier
	journalOpen atomic.Bool
	gameLoaded  atomic.Bool // the state is rebuilt from the journal
	sensorsUp   atomic.Bool
	started     atomic.Int64 // unix nanos when the sensors started
	imageMu     sync.Mutex
	image       []byte
	hasImg      atomic.Bool
}

// Run starts the daemon and blocks until ctx ends or it cannot go on.
func Run(ctx context.Context, cfg *Config, opts Options) error {
	for next := false; ; next = true {
		d, err := Open(ctx, cfg, opts)
		if err != nil {
			if next && ctx.Err() != nil {
				return nil // stopped while the next game opened
			}
			return err
		}
		if opts.opened != nil {
			opts.opened(d)
		}
		err = d.Serve(ctx)
		if cerr := d.Close(); err == nil {
			err = cerr
		}
		if !errors.Is(err, ErrNextGame) {
			return err
		}
		// The referee started the next game (journal_dir): the table opens
		// again on its journal, as after a restart.
		opts.Log.Info("the next game starts", "venue", cfg.Venue, "table", cfg.Table)
	}
}

// ErrNextGame is what Serve returns when the referee started the next game
// (the new_game command, with journal_dir): Run opens the table again on
// the new game's journal.
var ErrNextGame = errors.New("companion: the next game is started")

// Open rebuilds the table's state from its journal (starting a new game in
// an empty one) and connects to the broker.
func Open(ctx context.Context, cfg *Config, opts Options) (*Daemon, error) {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	// Every line of this table's log says whose it is: a venue's logs
	// gathered in one place stay readable.
	opts.Log = opts.Log.With("venue", cfg.Venue, "table", cfg.Table, "game", cfg.Game)
	if err := opts.Games.Check(); err != nil {
		return nil, err
	}
	spec, err := cfg.CheckGame(opts.Games)
	if err != nil {
		return nil, err
	}
	spec.Commands = WithTableCommands(spec.Commands)
	if cfg.JournalDir == "" {
		// One journal: no next game from a command (the pages offer none).
		spec.Commands = slices.DeleteFunc(spec.Commands, func(c wire.CommandSpec) bool { return c.Name == CmdNewGame })
	}
	if cfg, err = gameConfigOf(ctx, cfg, opts.Log); err != nil {
		return nil, err
	}
	d := &Daemon{cfg: cfg, opts: opts, log: opts.Log, topics: wire.TopicsFor(cfg.Venue, cfg.Table),
		inputs: make(chan Input, 64), queue: newCommandQueue(defaultCommandLimits, opts.Clock), pairingKick: make(chan struct{}, 1), metrics: newMetrics(), ready: &ops.Readiness{}, instance: opts.Instance}
	if d.instance == "" {
		d.instance = randomHex(8)
	}
	t := &table{cfg: cfg, spec: spec, instance: d.instance, clock: opts.Clock, log: opts.Log, onEvent: opts.OnEvent, hasImage: d.hasImg.Load, trace: opts.Trace,
		metrics: d.metrics,
		watch:   dice.NewWatch(dice.WatchConfig{Significance: cfg.Dice.Fairness.Significance, MinRolls: cfg.Dice.Fairness.MinRolls})}
	d.table = t
	d.notify = ops.NewNotifier(opts.Getenv, os.Getpid(), d.log)
	d.startOps()
	opened := false
	defer func() {
		if !opened {
			d.opsSrv.Close()
			d.notify.Close()
		}
	}()
	if t.tags, err = LoadTags(cfg.Resolve(cfg.Tags)); err != nil {
		return nil, err
	}
	if t.resultKey, err = loadResultKey(cfg.Resolve(cfg.ResultKey)); err != nil {
		return nil, err
	}
	fixedSeed := cfg.Line("dice.seed") > 0
	if !fixedSeed {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, fmt.Errorf("companion: no secure seed for the virtual dice: %w", err)
		}
		cfg.Dice.Seed = binary.LittleEndian.Uint64(b[:])
	}
	if t.game, err = spec.New(cfg); err != nil {
		return nil, err
	}
	if opts.beforeJournal != nil {
		opts.beforeJournal(d)
	}
	if t.journal, err = OpenJournal(cfg.Resolve(cfg.Journal), JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, d.log); err != nil {
		return nil, err
	}
	// The game's part of the config, so that review and export build the
	// game from the journal alone.
	gameConfig, err := cfg.GameConfig()
	if err == nil {
		err = t.journal.SetGameConfig(ctx, gameConfig)
	}
	if err != nil {
		t.journal.Close()
		return nil, err
	}
	if !fixedSeed {
		if err := t.journal.RecordSeed(ctx, opts.Clock(), cfg.Dice.Seed); err != nil {
			t.journal.Close()
			return nil, err
		}
	}
	if t.round, t.roundSet, err = t.journal.Round(ctx); err != nil {
		t.journal.Close()
		return nil, err
	}
	if t.pairing, err = t.journal.Pairing(ctx); err != nil {
		t.journal.Close()
		return nil, err
	}
	// The sinks exist before the broker connection, whose callbacks use
	// them; the MQTT sink starts publishing in Serve.
	d.journalOpen.Store(true)
	d.mqtt = newMQTTSink(d.topics, t.journal, d.log)
	d.mqtt.trace = opts.Trace
	d.mqtt.metrics = d.metrics
	d.sinks = &fanOut{metrics: d.metrics}
	d.sinks.add("mqtt", d.mqtt)
	if cfg.Display.Listen != "" {
		d.feed = display.NewFeed()
		d.sinks.add("screens", feedSink{d.feed})
		d.screens = &screens{}
	}
	d.metrics.register(d)
	t.out = d.sinks
	if err := d.connect(ctx); err != nil {
		t.journal.Close()
		return nil, err
	}
	d.mqtt.pub = d.pub
	if err := t.replay(ctx); err != nil {
		d.closeBroker()
		t.journal.Close()
		return nil, err
	}
	// Entries journaled before this start whose events go out now are
	// published again (the last run may have sent them).
	d.mqtt.sentHigh = t.opened
	d.gameLoaded.Store(true)
	opened = true
	return d, nil
}

// startOps serves /healthz, /readyz and /metrics: on a listener of their
// own, opened before the journal so that /readyz tells a table still
// opening from one that is ready, or later on the screens' listener. A
// listener that cannot be opened (the port is taken) is logged as an error
// naming the address and the table runs without it: metrics are never a
// reason to stop a game.
func (d *Daemon) startOps() {
	d.ready.Add("journal", true, d.journalOpen.Load)
	d.ready.Add("game", true, d.gameLoaded.Load)
	d.ready.Add("sensors", true, d.sensorsUp.Load)
	d.ready.Add("broker", false, func() bool { p := d.pub; return p != nil && p.Connected() })
	m := d.cfg.Metrics
	if m.Listen == "" || m.Listen == "off" {
		return
	}
	d.endpoints = ops.NewEndpoints(d.metrics.reg, d.ready, m.allow, d.log)
	if !m.OwnListener() {
		return // on the screens' listener, in startScreens
	}
	srv, err := ops.Listen(m.Listen, d.endpoints, d.log)
	if err != nil {
		d.log.Error("metrics: not served; the table runs without /metrics, /healthz and /readyz", "addr", m.Listen, "err", err)
		return
	}
	d.opsSrv = srv
	d.log.Info("metrics", "url", "http://"+loopbackFor(srv.Addr())+"/metrics")
}

// MetricsAddr is the address of the metrics' own listener, or "".
func (d *Daemon) MetricsAddr() string {
	if d.opsSrv == nil {
		return ""
	}
	return d.opsSrv.Addr()
}

func (d *Daemon) connect(ctx context.Context) error {
	url := string(d.cfg.MQTT.Broker)
	user, pass := d.cfg.MQTT.Username, d.cfg.MQTT.Password
	if url == "" {
		d.self = display.Credential{User: "sztab-daemon-" + randomHex(4), Password: randomHex(16)}
		b, err := StartBroker(d.cfg.MQTT.Listen, BrokerUsers{Daemon: d.self, Referee: d.cfg.Display.Referee, Players: d.cfg.Display.Players, Topics: d.topics,
			LoginFailed: d.metrics.loginFailed("broker"), MaxConnsPerAddr: d.cfg.MQTT.MaxConnectionsPerAddress}, d.log)
		if err != nil {
			return err
		}
		d.broker = b
		url = "tcp://" + loopbackFor(b.Addr())
		user, pass = d.self.User, d.self.Password
	}
	tlsCfg, err := TLSFromConfig(d.cfg.MQTT.TLS, d.cfg.Resolve)
	if err != nil {
		return err
	}
	will, _ := json.Marshal(wire.StatusMessage{Status: "offline", Venue: d.cfg.Venue, Table: d.cfg.Table, Instance: d.instance})
	clientID := d.cfg.MQTT.ClientID
	if clientID == "" {
		clientID = "sztab-" + d.cfg.Venue + "-" + d.cfg.Table + "-" + randomHex(6)
	}
	subs, listen := map[string]func(Message){}, map[string]func(Message){}
	for _, f := range d.topics.CommandFilter() {
		subs[f] = d.receiveCommand
	}
	if d.broker == nil {
		// A venue's broker: the venue tells the table its pairing there
		// (the table's own broker has no venue), and a venue of a newer
		// contract is told apart from no venue at all.
		subs[d.topics.Pairing] = d.receivePairing
		listen[wire.AnyVersion(d.cfg.Venue, d.cfg.Table, "pairing")] = d.receiveOtherPairing
	}
	d.pub, err = Connect(ctx, PublisherOptions{
		URL: url, ClientID: clientID, Username: user, Password: pass,
		TLS: tlsCfg, WillTopic: d.topics.Status, WillPayload: will, Log: d.log,
		Subscriptions: subs, Listen: listen,
		OnConnect: d.mqtt.reconnected,
		OnLost:    func(error) { d.metrics.lost.Inc() },
	})
	if err != nil {
		d.closeBroker()
		return err
	}
	if d.cfg.MQTT.LiveCopies() {
		d.live = newLiveSink(d.topics.Live, liveOptions{URLs: d.cfg.MQTT.Broker.URLs(), ClientID: clientID,
			Username: user, Password: pass, TLS: tlsCfg, Log: d.log})
		d.sinks.add("live", d.live)
	}
	return nil
}

func (d *Daemon) closeBroker() {
	if d.broker != nil {
		d.broker.Close()
	}
}

// loopbackFor turns a listen address into one a local client can dial.
func loopbackFor(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host == "" || host == "0.0.0.0" || host == "::" {
		return "127.0.0.1:" + port
	}
	return addr
}

// BrokerAddr is the embedded broker's address, or "" with an outside broker.
func (d *Daemon) BrokerAddr() string {
	if d.broker == nil {
		return ""
	}
	return d.broker.Addr()
}

// Seq is the sequence number of the last journal entry.
func (d *Daemon) Seq() int64 { return d.table.Seq() }

// Game is the game in play.
func (d *Daemon) Game() Game { return d.table.game }

func (d *Daemon) status(s string) []byte {
	b, _ := json.Marshal(wire.StatusMessage{Status: s, Game: d.table.spec.ID, Version: Version, Venue: d.cfg.Venue, Table: d.cfg.Table,
		Screen: d.cfg.Display.PublicURL, Commands: d.table.spec.Commands, Attention: wire.Attention(d.table.spec.Attention), Instance: d.instance, Head: d.table.journal.PublishedHead()})
	return b
}

// Serve publishes the current state, starts the screens and the sensors, and
// handles their events until ctx ends.
func (d *Daemon) Serve(ctx context.Context) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	fan, stopFan := context.WithCancel(context.Background())
	defer stopFan()
	wg.Add(1)
	go func() { defer wg.Done(); d.mqtt.run(fan) }()
	if d.live != nil {
		wg.Add(1)
		go func() { defer wg.Done(); d.live.run(fan) }()
	}
	if err := d.startScreens(); err != nil {
		return err
	}
	// The status carries the journal's head: the sink writes it again
	// each time the head moves (after the entry's events went out).
	d.mqtt.SetStatusFunc(func() []byte { return d.status("online") }, func() int64 { s, _ := d.table.journal.Head(); return s })
	first := Publication{Catalogue: d.table.catalogueChanged(), Views: d.table.views(), Fairness: d.table.fairness()}
	d.table.addResult(&first, true)
	d.sinks.Send(first)
	d.started.Store(time.Now().UnixNano())
	stop, err := d.startSensors(ctx)
	if err != nil {
		return err
	}
	defer stop()
	d.sensorsUp.Store(true)
	if d.opts.Ready != nil {
		d.opts.Ready(d.BrokerAddr(), d.DisplayAddr())
	}
	// systemd's watchdog is pinged from this loop, the one that accepts
	// actions, and nowhere else: when it wedges the pings stop and systemd
	// restarts the daemon (WatchdogSec in the unit).
	var ping <-chan time.Time
	if iv := d.notify.WatchdogInterval(); iv > 0 {
		tick := time.NewTicker(iv)
		defer tick.Stop()
		ping = tick.C
		d.notify.Watchdog()
	}
	// Now and then the command queue's windows are closed, so that the
	// count of a flood that stopped is recorded too.
	flush := time.NewTicker(d.queue.limits.window / 4)
	defer flush.Stop()
	d.notify.Ready(fmt.Sprintf("table %s/%s playing %s, seq %d", d.cfg.Venue, d.cfg.Table, d.cfg.Game, d.table.Seq()))
	defer func() {
		if !d.table.nextGame { // the table goes on with the next game
			d.notify.Stopping()
		}
	}()
	// The action in hand is finished even when the stop comes while it is
	// being handled (SIGTERM from systemd, an upgrade's restart): its
	// journal write and its answer do not see the cancelled context, and
	// the loop stops before the next one (TestUpgradeMidGame).
	inHand := context.WithoutCancel(ctx)
	for {
		select {
		case <-ctx.Done():
			// A flood's count is recorded even when the table stops
			// in the middle of it (the journal is still open).
			for _, u := range d.queue.takeUnrecorded() {
				d.recordUnrecorded(context.Background(), u)
			}
			return nil
		case <-ping:
			d.notify.Watchdog()
		case in := <-d.inputs:
			if d.opts.beforeHandle != nil {
				d.opts.beforeHandle()
			}
			d.table.handle(inHand, in)
			d.backlog.Add(-1)
		case <-d.queue.kick:
			d.serveQueued(inHand)
		case <-flush.C:
			d.queue.flush()
		case <-d.pairingKick:
			d.handlePairing(inHand)
		}
		if d.table.nextGame {
			d.notify.Status("the next game starts")
			// The fan-out is stopped and what it holds (the command's
			// answer, the notice) is sent before the table opens again.
			stopFan()
			wg.Wait()
			if d.pub.Connected() && d.mqtt.connects.Load() > 0 {
				fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
				if err := d.mqtt.flush(fctx); err != nil {
					d.log.Warn("the last game's last messages were not all published", "err", err)
				}
				cancel()
				d.mqtt.saveMark()
			}
			return ErrNextGame
		}
	}
}

// Close publishes "offline", stops the screens, disconnects and closes the
// journal.
func (d *Daemon) Close() error {
	d.sensorsUp.Store(false)
	defer d.notify.Close()
	defer d.opsSrv.Close()
	d.stopScreens()
	if d.pub.Connected() {
		if err := d.pub.Publish(d.topics.Status, d.status("offline"), true); err != nil {
			d.log.Warn("offline status not published", "err", err)
		}
	}
	d.pub.Close()
	d.live.close()
	d.closeBroker()
	d.journalOpen.Store(false)
	return d.table.journal.Close()
}

// Submit hands a sensor event to the daemon, as a device would (a test).
// It returns once the event is queued. The pages' commands go to their
// sender's queue instead (submitCommand).
func (d *Daemon) Submit(ctx context.Context, in Input) error {
	d.backlog.Add(1)
	select {
	case d.inputs <- in:
		return nil
	case <-ctx.Done():
		d.backlog.Add(-1)
		return fmt.Errorf("companion: the table is busy: %w", ctx.Err())
	}
}

// Backlog is how many inputs (from devices, the simulator or Submit) are
// queued and not yet handled.
func (d *Daemon) Backlog() int64 { return d.backlog.Load() }

// Fairness is the fairness watch's current reports.
func (d *Daemon) Fairness() []dice.FairnessReport { return d.table.watch.Reports() }

// setImage keeps the camera's latest annotated image for the screens and
// publishes it, retained, on .../image for other displays.
func (d *Daemon) setImage(jpeg []byte) {
	d.imageMu.Lock()
	d.image = jpeg
	d.imageMu.Unlock()
	d.hasImg.Store(true)
	d.mqtt.Send(Publication{Image: jpeg})
}

func (d *Daemon) latestImage() ([]byte, bool) {
	d.imageMu.Lock()
	defer d.imageMu.Unlock()
	return d.image, d.image != nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
