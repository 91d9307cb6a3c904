package companion

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/hardware/sim"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/vision"
)

// Version is the daemon's version, published in the status message.
var Version = "0.1.0"

// Options are what the caller of Run wires in.
type Options struct {
	// NewGame builds the game the config names.
	NewGame func(*Config) (Game, error)
	Log     *slog.Logger
	// Clock gives the time stamped on journal entries; nil is time.Now.
	Clock func() time.Time
	// SimSpeed scales the waits of a simulated script (1 real time, 0 none).
	SimSpeed float64
	// Narrate receives a simulated script's narration.
	Narrate func(text string)
	// OnEvent sees every published event (for the console).
	OnEvent func(seq int64, text rules.Text)
	// Ready is called once the daemon publishes, with the embedded broker's
	// address and the screens' address (host:port; "" when there is none).
	Ready func(brokerAddr, displayAddr string)
	// Heartbeat is the screens' keep-alive period (default 2s).
	Heartbeat time.Duration
}

// Topics of one table: sztab/v1/{venue}/{table}/...
type Topics struct {
	Base                  string
	Status, State, Events string
	// Referee and player topics carry what others must not see. Their views
	// are retained, so a referee's screen opened late shows them at once; the
	// embedded broker delivers them, retained or not, only to the role (see
	// brokerAccess), and a shared broker must restrict them by ACL.
	RefereeState, RefereeFairness, RefereeEvents string
	// RefereeCommand is where the referee (and only the referee) may send
	// the table a command, as from the referee's page.
	RefereeCommand string
}

// TopicsFor returns the table's topics.
func TopicsFor(venue, table string) Topics {
	base := "sztab/v1/" + venue + "/" + table + "/"
	return Topics{Base: base, Status: base + "status", State: base + "state", Events: base + "events",
		RefereeState: base + "referee/state", RefereeFairness: base + "referee/fairness", RefereeEvents: base + "referee/events",
		RefereeCommand: base + "referee/command"}
}

// Player is the topic of a player's own view.
func (t Topics) Player(seat int) string { return t.Base + "player/" + strconv.Itoa(seat) + "/state" }

// FairnessMessage is the retained fairness watch on the referee topic.
type FairnessMessage struct {
	Seq     int64                 `json:"seq"`
	Sources []dice.FairnessReport `json:"sources"`
}

// StatusMessage is the retained status payload.
type StatusMessage struct {
	Status  string `json:"status"`
	Game    string `json:"game,omitempty"`
	Version string `json:"version,omitempty"`
	Venue   string `json:"venue"`
	Table   string `json:"table"`
	// Screen is the table screen's URL for the venue wall.
	Screen string `json:"screen,omitempty"`
}

// StateMessage is a view of the state: the retained public one on .../state,
// the referee's on .../referee/state, a player's on .../player/{seat}/state.
type StateMessage struct {
	Seq   int64  `json:"seq"`
	Venue string `json:"venue"`
	Table string `json:"table"`
	Game  string `json:"game"`
	// Headline is a one-line summary for the venue wall.
	Headline *rules.Text `json:"headline,omitempty"`
	// Image says an annotated table image is at /table.jpg and .../image.
	Image bool `json:"image,omitempty"`
	State any  `json:"state"`
	// Fairness is the dice fairness watch, in the referee's view only.
	Fairness []dice.FairnessReport `json:"fairness,omitempty"`
	// Desync lists where the camera and the state disagree, for the referee.
	Desync []Desync `json:"desync,omitempty"`
}

// Desync is one disagreement between the table and the state.
type Desync struct {
	Text rules.Text `json:"text"`
}

// EventMessage is one published event; (Seq, Index) identifies it.
type EventMessage struct {
	Seq   int64     `json:"seq"`
	Index int       `json:"index"`
	At    time.Time `json:"at"`
	Event any       `json:"event"`
}

// Daemon is one table's companion.
type Daemon struct {
	cfg     *Config
	opts    Options
	log     *slog.Logger
	game    Game
	journal *Journal
	tags    *TagRegistry
	topics  Topics
	pub     *Publisher
	broker  *Broker
	seq     atomic.Int64 // last accepted action; read by Seq from any goroutine
	inputs  chan Input
	// commands are the referee's MQTT commands, handled in the same loop as
	// the sensors' inputs; recentIDs drops a redelivered one.
	commands  chan Message
	recentIDs []string
	watch     *dice.Watch
	feed      *display.Feed
	web       *http.Server
	webAddr   atomic.Value // string, once the screens listen
	// self is the daemon's own credential on the embedded broker.
	self display.Credential
	// outputs are the table's LEDs, buzzer and score displays.
	outputs hardware.Outputs
	// image is the latest annotated table image (JPEG) from the camera.
	imageMu sync.Mutex
	image   []byte
}

// Run starts the daemon and blocks until ctx ends or it cannot go on.
func Run(ctx context.Context, cfg *Config, opts Options) error {
	d, err := Open(ctx, cfg, opts)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Serve(ctx)
}

// Open rebuilds the table's state from its journal (starting a new game in
// an empty one) and connects to the broker.
func Open(ctx context.Context, cfg *Config, opts Options) (*Daemon, error) {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	d := &Daemon{cfg: cfg, opts: opts, log: opts.Log, topics: TopicsFor(cfg.Venue, cfg.Table), inputs: make(chan Input, 64), commands: make(chan Message, 64),
		watch: dice.NewWatch(dice.WatchConfig{Significance: cfg.Dice.Fairness.Significance, MinRolls: cfg.Dice.Fairness.MinRolls})}
	var err error
	if d.tags, err = LoadTags(cfg.Resolve(cfg.Tags)); err != nil {
		return nil, err
	}
	if d.game, err = opts.NewGame(cfg); err != nil {
		return nil, err
	}
	if d.journal, err = OpenJournal(cfg.Resolve(cfg.Journal)); err != nil {
		return nil, err
	}
	if err := d.replay(ctx); err != nil {
		d.journal.Close()
		return nil, err
	}
	if err := d.connect(ctx); err != nil {
		d.journal.Close()
		return nil, err
	}
	return d, nil
}

func (d *Daemon) replay(ctx context.Context) error {
	n := 0
	err := d.journal.Entries(ctx, 0, func(e Entry) error {
		if e.Game != d.game.Name() {
			return &JournalError{Path: d.journal.Path(), Err: fmt.Errorf("entry %d belongs to a %s game and the config plays %s; use another journal file", e.Seq, e.Game, d.game.Name())}
		}
		if e.Kind != KindAction {
			return nil
		}
		a, err := d.game.DecodeAction(e.Body)
		if err != nil {
			return &JournalError{Path: d.journal.Path(), Err: fmt.Errorf("entry %d: %w", e.Seq, err)}
		}
		_, commit, err := d.game.Apply(a)
		if err != nil {
			return &JournalError{Path: d.journal.Path(), Err: fmt.Errorf("entry %d (%s) no longer applies: %w", e.Seq, a.Type(), err)}
		}
		commit()
		d.seq.Store(e.Seq)
		d.observeDice(a, true)
		n++
		return nil
	})
	if err != nil {
		return err
	}
	if n > 0 {
		d.log.Info("state rebuilt from the journal", "journal", d.journal.Path(), "actions", n, "seq", d.seq.Load())
		return nil
	}
	start, err := d.game.Start()
	if err != nil {
		return err
	}
	return d.accept(ctx, start, false)
}

func (d *Daemon) connect(ctx context.Context) error {
	url := d.cfg.MQTT.Broker
	user, pass := d.cfg.MQTT.Username, d.cfg.MQTT.Password
	if url == "" {
		d.self = display.Credential{User: "sztab-daemon-" + randomHex(4), Password: randomHex(16)}
		b, err := StartBroker(d.cfg.MQTT.Listen, BrokerUsers{Daemon: d.self, Referee: d.cfg.Display.Referee, Players: d.cfg.Display.Players, Commands: d.topics.RefereeCommand}, d.log)
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
	will, _ := json.Marshal(StatusMessage{Status: "offline", Venue: d.cfg.Venue, Table: d.cfg.Table})
	clientID := d.cfg.MQTT.ClientID
	if clientID == "" {
		clientID = "sztab-" + d.cfg.Venue + "-" + d.cfg.Table + "-" + randomHex(6)
	}
	d.pub, err = Connect(ctx, PublisherOptions{
		URL: url, ClientID: clientID, Username: user, Password: pass,
		TLS: tlsCfg, WillTopic: d.topics.Status, WillPayload: will, Log: d.log,
		Subscriptions: map[string]func(Message){d.topics.RefereeCommand: d.receiveCommand},
	})
	if err != nil {
		if d.broker != nil {
			d.broker.Close()
		}
		return err
	}
	return nil
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

// Seq is the sequence number of the last accepted action.
func (d *Daemon) Seq() int64 { return d.seq.Load() }

// Serve publishes the current state, starts the screens and the sensors, and
// handles their events until ctx ends.
func (d *Daemon) Serve(ctx context.Context) error {
	if err := d.startDisplay(); err != nil {
		return err
	}
	online, _ := json.Marshal(StatusMessage{Status: "online", Game: d.game.Name(), Version: Version, Venue: d.cfg.Venue, Table: d.cfg.Table, Screen: d.cfg.Display.PublicURL})
	if err := d.pub.Publish(d.topics.Status, online, true); err != nil {
		d.log.Warn("status not published", "err", err)
	}
	if err := d.republish(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while catching up; the journal keeps the rest for next time
		}
		return err
	}
	d.publishState()
	d.publishFairness()
	if d.opts.Ready != nil {
		d.opts.Ready(d.BrokerAddr(), d.DisplayAddr())
	}
	var wg sync.WaitGroup
	sensors, stopSensors := context.WithCancel(ctx)
	defer func() { stopSensors(); wg.Wait() }()
	sink := inputSink{ctx: sensors, ch: d.inputs}
	if d.cfg.Hardware.Real() {
		devs, err := hardware.Open(d.cfg.Hardware, d.log)
		if err != nil {
			return err
		}
		defer devs.Close()
		for _, m := range devs.Missing() {
			d.notice(ctx, Notice{Type: "device_missing", Reader: m.Name,
				Text: rules.Textf("brak urządzenia %s %s: stół działa bez niego", "device %s %s is missing: the table runs without it", m.Kind, m.Name)})
		}
		d.outputs = devs.Outputs()
		d.showOutputs()
		for _, r := range devs.Readers() {
			wg.Add(1)
			go func() { defer wg.Done(); r.Run(sensors, sink.Tag) }()
		}
		for _, k := range devs.Keypads() {
			wg.Add(1)
			go func() { defer wg.Done(); k.Run(sensors, sink.Key) }()
		}
	}
	if d.cfg.Camera != nil {
		cam, err := vision.Open(*d.cfg.Camera, d.log)
		if err != nil {
			return err
		}
		defer cam.Close()
		cam.OnImage(d.setImage)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := cam.Run(sensors, sink.Snapshot); err != nil {
				d.log.Error("camera stopped", "err", err)
			}
		}()
	}
	if d.cfg.Hardware.Simulated != "" {
		script, err := sim.Load(d.cfg.Resolve(d.cfg.Hardware.Simulated))
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := sim.Player{Speed: d.opts.SimSpeed, Narrate: func(_ int, text string) {
				if d.opts.Narrate != nil {
					d.opts.Narrate(text)
				}
			}}
			if err := p.Play(sensors, script, sink); err != nil && !errors.Is(err, context.Canceled) {
				d.log.Error("simulated table stopped", "err", err)
			}
		}()
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case in := <-d.inputs:
			d.handle(ctx, in)
		case m := <-d.commands:
			d.handleCommand(ctx, m)
		}
	}
}

// inputSink feeds the devices, real and simulated, into the daemon.
type inputSink struct {
	ctx context.Context
	ch  chan<- Input
}

func (s inputSink) send(in Input) {
	select {
	case s.ch <- in:
	case <-s.ctx.Done():
	}
}
func (s inputSink) Tag(e hardware.TagEvent)     { s.send(Input{Tag: &e}) }
func (s inputSink) Key(e hardware.KeyEvent)     { s.send(Input{Key: &e}) }
func (s inputSink) Snapshot(sn vision.Snapshot) { s.send(Input{Snapshot: &sn}) }

func (d *Daemon) handle(ctx context.Context, in Input) {
	if f, device := faultOf(in); f != nil {
		pl, en := f.Text(device)
		d.notice(ctx, Notice{Type: "device_fault", Code: string(f.Kind), Reader: device, UID: f.UID, Text: rules.Text{PL: pl, EN: en}})
		return
	}
	if in.Tag != nil {
		t, ok := d.tags.Lookup(in.Tag.UID)
		if !ok {
			if in.Tag.Present {
				d.notice(ctx, Notice{Type: "unknown_tag", Reader: in.Tag.Reader, UID: in.Tag.UID,
					Text: rules.Textf("nieznana karta %s na czytniku %s", "unknown tag %s on reader %s", in.Tag.UID, in.Tag.Reader)})
			}
			return
		}
		in.TagInfo = &t
	}
	actions, notices := d.game.Bind(in)
	for _, n := range notices {
		d.notice(ctx, n)
	}
	if in.Snapshot != nil && d.pub != nil {
		d.publishRefereeView() // the camera may now disagree with the state
	}
	for _, a := range actions {
		if err := d.accept(ctx, a, true); err != nil {
			d.log.Error("action not taken", "action", a.Type(), "err", err)
		}
	}
}

func faultOf(in Input) (*hardware.Fault, string) {
	switch {
	case in.Tag != nil && in.Tag.Fault != nil:
		return in.Tag.Fault, in.Tag.Reader
	case in.Key != nil && in.Key.Fault != nil:
		return in.Key.Fault, in.Key.Keypad
	}
	return nil, ""
}

// showOutputs puts the state on the table's LEDs and score displays.
func (d *Daemon) showOutputs() {
	if d.outputs == nil {
		return
	}
	st := hardware.Status{Ready: true}
	if t, ok := d.game.(TurnTeller); ok {
		st.Turn = t.ActiveSeat()
	}
	if err := d.outputs.Status(st); err != nil {
		d.log.Warn("status LEDs", "err", err)
	}
	if h, ok := d.game.(Headliner); ok {
		text := h.Headline()
		line := text.PL
		if d.cfg.Language == "en" {
			line = text.EN
		}
		if err := d.outputs.Score("", line); err != nil {
			d.log.Warn("score display", "err", err)
		}
	}
}

// accept applies, journals, then publishes one action. A refusal is
// published as a "rejected" notice and is not an error.
func (d *Daemon) accept(ctx context.Context, a Action, publish bool) error {
	events, commit, err := d.game.Apply(a)
	if err != nil {
		rej, ok := rules.AsRejection(err)
		if !ok {
			return err
		}
		// The refused action itself stays out of the notice: it may carry
		// hidden information (an army list, the cards drawn).
		body, _ := d.game.EncodeAction(a)
		d.noticeAbout(ctx, Notice{Type: "rejected", Code: rej.Code, Text: rej.Reason, Action: a.Type()}, body)
		if d.outputs != nil {
			d.outputs.Illegal()
		}
		if d.observeDice(a, false) && d.pub != nil {
			d.publishFairness()
			d.publishRefereeView() // no new state, but the watch changed
		}
		return nil
	}
	body, err := d.game.EncodeAction(a)
	if err != nil {
		return err
	}
	evJSON, err := json.Marshal(events)
	if err != nil {
		return fmt.Errorf("companion: events of %s: %w", a.Type(), err)
	}
	seq, err := d.journal.Append(ctx, KindAction, d.game.Name(), d.opts.Clock(), body, evJSON)
	if err != nil {
		// Not durable, so not applied: the table is told and nothing changes.
		d.publishEvents(0, []any{Notice{Type: "journal_failed", Text: rules.Textf("nie zapisano akcji %s: %v", "action %s not saved: %v", a.Type(), err)}})
		return err
	}
	commit()
	d.seq.Store(seq)
	diceSeen := d.observeDice(a, true)
	if !publish {
		return nil
	}
	d.publishState() // the referee's view in it carries the watch
	if diceSeen {
		d.publishFairness()
	}
	if d.publishEvents(seq, events) {
		d.markPublished(ctx, seq)
	}
	d.showOutputs()
	return nil
}

// observeDice feeds the physical dice of an action to the fairness watch:
// the faces of an accepted action, and the impossible readings of a refused
// one (a refused action's valid dice were never rolled into the game). It
// reports whether the watch changed; publishing it is the caller's, who knows
// whether a new state (with the referee's view) follows.
func (d *Daemon) observeDice(a Action, accepted bool) bool {
	dc, ok := d.game.(DiceCarrier)
	if !ok {
		return false
	}
	changed := false
	for _, r := range dc.RollsIn(a) {
		if r.Origin != dice.Keypad && r.Origin != dice.Camera && r.Origin != dice.NFC {
			continue
		}
		if !accepted && r.Validate() == nil {
			continue
		}
		key := dice.SourceKey(d.cfg.Table, r)
		before, _ := d.watch.Report(key)
		d.watch.Observe(key, r)
		after, _ := d.watch.Report(key)
		changed = true
		if after.Loaded && !before.Loaded && d.pub != nil {
			n := Notice{Type: "die_suspect", Code: key,
				Text: rules.Textf("kość %s wygląda na nieuczciwą: %d rzutów, χ²=%.1f, p=%.4f; sprawdźcie ją",
					"die %s looks loaded: %d rolls, χ²=%.1f, p=%.4f; have it checked",
					key, after.Rolls, after.ChiSquare, after.PValue)}
			msg, _ := json.Marshal(EventMessage{Seq: d.seq.Load(), At: d.opts.Clock().UTC(), Event: n})
			if err := d.pub.Publish(d.topics.RefereeEvents, msg, false); err != nil {
				d.log.Warn("referee event not published", "err", err)
			}
			if d.feed != nil {
				d.feed.AddEvent(display.Referee, msg)
			}
		}
	}
	return changed
}

// publishFairness sends the watch on its referee topic.
func (d *Daemon) publishFairness() {
	msg, _ := json.Marshal(FairnessMessage{Seq: d.seq.Load(), Sources: d.watch.Reports()})
	if err := d.pub.Publish(d.topics.RefereeFairness, msg, true); err != nil {
		d.log.Warn("fairness watch not published", "err", err)
	}
}

// Fairness is the fairness watch's current reports.
func (d *Daemon) Fairness() []dice.FairnessReport { return d.watch.Reports() }

func (d *Daemon) notice(ctx context.Context, n Notice) { d.noticeAbout(ctx, n, nil) }

// noticeAbout journals a notice with the refused action in full (the record
// loses nothing) and publishes the notice alone.
func (d *Daemon) noticeAbout(ctx context.Context, n Notice, action []byte) {
	body, _ := json.Marshal(struct {
		Notice
		Refused json.RawMessage `json:"refused,omitempty"`
	}{n, action})
	evJSON, _ := json.Marshal([]any{n})
	seq, err := d.journal.Append(ctx, KindNotice, d.game.Name(), d.opts.Clock(), body, evJSON)
	if err != nil {
		d.log.Error("notice not journaled", "type", n.Type, "err", err)
	}
	if d.publishEvents(seq, []any{n}) && err == nil {
		d.markPublished(ctx, seq)
	}
}

func (d *Daemon) view(v Viewer) ([]byte, error) {
	_, hasImage := d.latestImage()
	m := StateMessage{Seq: d.seq.Load(), Venue: d.cfg.Venue, Table: d.cfg.Table, Game: d.game.Name(), State: d.game.View(v), Image: hasImage}
	if h, ok := d.game.(Headliner); ok {
		t := h.Headline()
		m.Headline = &t
	}
	if v.Role == RoleReferee {
		m.Fairness = d.watch.Reports()
		if ds, ok := d.game.(Desyncer); ok {
			for _, t := range ds.Desyncs() {
				m.Desync = append(m.Desync, Desync{Text: t})
			}
		}
	}
	return json.Marshal(m)
}

// seats are the player seats that get a view of their own.
func (d *Daemon) seats() []int {
	var out []int
	seen := map[int]bool{}
	add := func(s int) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if sl, ok := d.game.(SeatLister); ok {
		for _, s := range sl.Seats() {
			add(s)
		}
	}
	for _, p := range d.cfg.Display.Players {
		add(p.Seat)
	}
	return out
}

// publishState sends every view, retained: the public one on .../state, the
// hidden ones (referee, players) on their own topics, and all of them to the
// screens.
func (d *Daemon) publishState() {
	msg, err := d.view(Public)
	if err != nil {
		d.log.Error("state not encoded", "err", err)
		return
	}
	if err := d.pub.Publish(d.topics.State, msg, true); err != nil {
		d.log.Warn("state not published; it will be when the broker is back", "err", err)
	}
	if d.feed != nil {
		d.feed.SetState(display.Public, msg)
	}
	d.publishRefereeView()
	for _, seat := range d.seats() {
		pm, err := d.view(Viewer{Role: RolePlayer, Seat: seat})
		if err != nil {
			d.log.Error("player view not encoded", "seat", seat, "err", err)
			continue
		}
		if err := d.pub.Publish(d.topics.Player(seat), pm, true); err != nil {
			d.log.Warn("player view not published", "seat", seat, "err", err)
		}
		if d.feed != nil {
			d.feed.SetState(display.PlayerAudience(seat), pm)
		}
	}
}

func (d *Daemon) publishRefereeView() {
	rm, err := d.view(Viewer{Role: RoleReferee})
	if err != nil {
		d.log.Error("referee view not encoded", "err", err)
		return
	}
	if err := d.pub.Publish(d.topics.RefereeState, rm, true); err != nil {
		d.log.Warn("referee view not published", "err", err)
	}
	if d.feed != nil {
		d.feed.SetState(display.Referee, rm)
	}
}

func (d *Daemon) publishEvents(seq int64, events []any) bool {
	ok := true
	for i, ev := range events {
		msg, err := json.Marshal(EventMessage{Seq: seq, Index: i, At: d.opts.Clock().UTC(), Event: ev})
		if err != nil {
			d.log.Error("event not encoded", "seq", seq, "err", err)
			continue
		}
		if d.opts.OnEvent != nil {
			d.opts.OnEvent(seq, textOf(ev))
		}
		if err := d.pub.Publish(d.topics.Events, msg, false); err != nil {
			d.log.Warn("event not published", "seq", seq, "err", err)
			ok = false
		}
		if d.feed != nil {
			d.feed.AddEvent(display.Public, msg)
		}
	}
	return ok
}

func (d *Daemon) markPublished(ctx context.Context, seq int64) {
	if err := d.journal.MarkPublished(ctx, seq); err != nil {
		d.log.Warn("publish mark not saved", "err", err)
	}
}

// republish sends the events of entries journaled but not known to be
// published before the daemon last stopped (a power cut between the commit
// and the broker's acknowledgement).
func (d *Daemon) republish(ctx context.Context) error {
	through, err := d.journal.PublishedThrough(ctx)
	if err != nil {
		return err
	}
	last := through
	err = d.journal.Entries(ctx, through, func(e Entry) error {
		var events []json.RawMessage
		if err := json.Unmarshal(e.Events, &events); err != nil {
			return &JournalError{Path: d.journal.Path(), Err: fmt.Errorf("entry %d: events: %w", e.Seq, err)}
		}
		all := make([]any, len(events))
		for i, ev := range events {
			all[i] = ev
		}
		if d.publishEvents(e.Seq, all) {
			last = e.Seq
		}
		return nil
	})
	if err != nil {
		return err
	}
	if last != through {
		d.markPublished(ctx, last)
	}
	return nil
}

func textOf(ev any) rules.Text {
	switch v := ev.(type) {
	case Notice:
		return v.Text
	case json.RawMessage:
		var t struct {
			Text rules.Text `json:"text"`
		}
		json.Unmarshal(v, &t)
		return t.Text
	}
	b, _ := json.Marshal(ev)
	return textOf(json.RawMessage(b))
}

// Close publishes "offline", stops the screens, disconnects and closes the
// journal.
func (d *Daemon) Close() error {
	if d.web != nil {
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		d.web.Shutdown(shut)
		cancel()
		d.web.Close()
	}
	offline, _ := json.Marshal(StatusMessage{Status: "offline", Game: d.game.Name(), Venue: d.cfg.Venue, Table: d.cfg.Table})
	if err := d.pub.Publish(d.topics.Status, offline, true); err != nil {
		d.log.Warn("offline status not published", "err", err)
	}
	d.pub.Close()
	if d.broker != nil {
		d.broker.Close()
	}
	return d.journal.Close()
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Meta is what every screen is told about the table first.
type Meta struct {
	Venue       string `json:"venue"`
	Table       string `json:"table"`
	Game        string `json:"game"`
	Language    string `json:"language"`
	Seats       []int  `json:"seats"`
	HeartbeatMS int64  `json:"heartbeat_ms"`
}

// startDisplay serves the screens when the config asks for them.
func (d *Daemon) startDisplay() error {
	if d.cfg.Display.Listen == "" {
		return nil
	}
	key, err := loadSessionKey(d.journal.Path() + ".session-key")
	if err != nil {
		return err
	}
	d.feed = display.NewFeed()
	srv := &display.Server{
		Feed: d.feed, Kind: "table", Referee: d.cfg.Display.Referee, Players: d.cfg.Display.Players, Log: d.log,
		Heartbeat: d.opts.Heartbeat, SessionKey: key,
		Command: func(c display.Command) error {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			return d.Submit(ctx, Input{Key: &hardware.KeyEvent{Keypad: RefereeKeypad, Key: c.Name}})
		},
	}
	srv.Image = d.latestImage
	h := srv.Handler()
	l, err := net.Listen("tcp", d.cfg.Display.Listen)
	if err != nil {
		return fmt.Errorf("companion: display: listen on %s: %w", d.cfg.Display.Listen, err)
	}
	webAddr := l.Addr().String()
	d.webAddr.Store(webAddr)
	hb := d.opts.Heartbeat
	if hb == 0 {
		hb = 2 * time.Second
	}
	meta, _ := json.Marshal(Meta{Venue: d.cfg.Venue, Table: d.cfg.Table, Game: d.game.Name(), Language: d.cfg.Language, Seats: d.seats(), HeartbeatMS: hb.Milliseconds()})
	d.feed.SetMeta(meta)
	d.web = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := d.web.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.log.Error("display server stopped", "err", err)
		}
	}()
	d.log.Info("table screens", "url", "http://"+loopbackFor(webAddr)+"/")
	return nil
}

// Submit hands a sensor event to the daemon, as a device would: the referee's
// page, an MQTT command or a test. It returns once the event is queued.
func (d *Daemon) Submit(ctx context.Context, in Input) error {
	select {
	case d.inputs <- in:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("companion: the table is busy: %w", ctx.Err())
	}
}

// setImage keeps the camera's latest annotated image for the screens and
// publishes it, retained, on .../image for other displays.
func (d *Daemon) setImage(jpeg []byte) {
	d.imageMu.Lock()
	d.image = jpeg
	d.imageMu.Unlock()
	if err := d.pub.Publish(d.topics.Base+"image", jpeg, true); err != nil {
		d.log.Warn("table image not published", "err", err)
	}
}

func (d *Daemon) latestImage() ([]byte, bool) {
	d.imageMu.Lock()
	defer d.imageMu.Unlock()
	return d.image, d.image != nil
}

// DisplayAddr is the address the screens are served on, or "".
func (d *Daemon) DisplayAddr() string {
	addr, _ := d.webAddr.Load().(string)
	return addr
}

// RefereeKeypad is the keypad name of commands from the referee's page.
const RefereeKeypad = "referee"
