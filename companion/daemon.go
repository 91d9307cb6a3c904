package companion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

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
	// Ready is called once the daemon publishes, with the broker address
	// (host:port) when the broker is embedded.
	Ready func(brokerAddr string)
}

// Topics of one table: sztab/v1/{venue}/{table}/...
type Topics struct {
	Status, State, Events string
	// Referee topics carry what players must not see; a broker shared with
	// the public restricts them to the referee role by ACL.
	RefereeFairness, RefereeEvents string
}

// TopicsFor returns the table's topics.
func TopicsFor(venue, table string) Topics {
	base := "sztab/v1/" + venue + "/" + table + "/"
	return Topics{Status: base + "status", State: base + "state", Events: base + "events",
		RefereeFairness: base + "referee/fairness", RefereeEvents: base + "referee/events"}
}

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
}

// StateMessage is the retained public state.
type StateMessage struct {
	Seq   int64  `json:"seq"`
	Venue string `json:"venue"`
	Table string `json:"table"`
	Game  string `json:"game"`
	State any    `json:"state"`
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
	seq     int64 // last accepted action
	inputs  chan Input
	watch   *dice.Watch
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
	d := &Daemon{cfg: cfg, opts: opts, log: opts.Log, topics: TopicsFor(cfg.Venue, cfg.Table), inputs: make(chan Input, 64),
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
		d.seq = e.Seq
		d.observeDice(a, true)
		n++
		return nil
	})
	if err != nil {
		return err
	}
	if n > 0 {
		d.log.Info("state rebuilt from the journal", "journal", d.journal.Path(), "actions", n, "seq", d.seq)
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
	if url == "" {
		quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
		b, err := StartBroker(d.cfg.MQTT.Listen, quiet)
		if err != nil {
			return err
		}
		d.broker = b
		url = "tcp://" + loopbackFor(b.Addr())
	}
	tlsCfg, err := TLSFromConfig(d.cfg.MQTT.TLS, d.cfg.Resolve)
	if err != nil {
		return err
	}
	will, _ := json.Marshal(StatusMessage{Status: "offline", Venue: d.cfg.Venue, Table: d.cfg.Table})
	clientID := d.cfg.MQTT.ClientID
	if clientID == "" {
		clientID = "sztab-" + d.cfg.Venue + "-" + d.cfg.Table
	}
	d.pub, err = Connect(ctx, PublisherOptions{
		URL: url, ClientID: clientID, Username: d.cfg.MQTT.Username, Password: d.cfg.MQTT.Password,
		TLS: tlsCfg, WillTopic: d.topics.Status, WillPayload: will, Log: d.log,
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
	host, port, err := splitHostPort(addr)
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
func (d *Daemon) Seq() int64 { return d.seq }

// Serve publishes the current state, starts the sensors and handles their
// events until ctx ends.
func (d *Daemon) Serve(ctx context.Context) error {
	online, _ := json.Marshal(StatusMessage{Status: "online", Game: d.game.Name(), Version: Version, Venue: d.cfg.Venue, Table: d.cfg.Table})
	if err := d.pub.Publish(d.topics.Status, online, true); err != nil {
		d.log.Warn("status not published", "err", err)
	}
	if err := d.republish(ctx); err != nil {
		return err
	}
	d.publishState()
	d.publishFairness()
	if d.opts.Ready != nil {
		d.opts.Ready(d.BrokerAddr())
	}
	var wg sync.WaitGroup
	sensors, stopSensors := context.WithCancel(ctx)
	defer func() { stopSensors(); wg.Wait() }()
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
			if err := p.Play(sensors, script, inputSink{ctx: sensors, ch: d.inputs}); err != nil && !errors.Is(err, context.Canceled) {
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
		}
	}
}

// inputSink feeds simulated (and later real) devices into the daemon.
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
	for _, a := range actions {
		if err := d.accept(ctx, a, true); err != nil {
			d.log.Error("action not taken", "action", a.Type(), "err", err)
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
		body, _ := d.game.EncodeAction(a)
		d.notice(ctx, Notice{Type: "rejected", Code: rej.Code, Text: rej.Reason, Action: json.RawMessage(body)})
		d.observeDice(a, false)
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
	d.seq = seq
	d.observeDice(a, true)
	if !publish {
		return nil
	}
	d.publishState()
	if d.publishEvents(seq, events) {
		d.markPublished(ctx, seq)
	}
	return nil
}

// observeDice feeds the physical dice of an action to the fairness watch:
// the faces of an accepted action, and the impossible readings of a refused
// one (a refused action's valid dice were never rolled into the game).
func (d *Daemon) observeDice(a Action, accepted bool) {
	dc, ok := d.game.(DiceCarrier)
	if !ok {
		return
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
			msg, _ := json.Marshal(EventMessage{Seq: d.seq, At: d.opts.Clock().UTC(), Event: n})
			if err := d.pub.Publish(d.topics.RefereeEvents, msg, false); err != nil {
				d.log.Warn("referee event not published", "err", err)
			}
		}
	}
	if changed && d.pub != nil {
		d.publishFairness()
	}
}

func (d *Daemon) publishFairness() {
	msg, _ := json.Marshal(FairnessMessage{Seq: d.seq, Sources: d.watch.Reports()})
	if err := d.pub.Publish(d.topics.RefereeFairness, msg, true); err != nil {
		d.log.Warn("fairness watch not published", "err", err)
	}
}

// Fairness is the fairness watch's current reports.
func (d *Daemon) Fairness() []dice.FairnessReport { return d.watch.Reports() }

func (d *Daemon) notice(ctx context.Context, n Notice) {
	body, _ := json.Marshal(n)
	evJSON, _ := json.Marshal([]any{n})
	seq, err := d.journal.Append(ctx, KindNotice, d.game.Name(), d.opts.Clock(), body, evJSON)
	if err != nil {
		d.log.Error("notice not journaled", "type", n.Type, "err", err)
	}
	if d.publishEvents(seq, []any{n}) && err == nil {
		d.markPublished(ctx, seq)
	}
}

func (d *Daemon) publishState() {
	msg, err := json.Marshal(StateMessage{Seq: d.seq, Venue: d.cfg.Venue, Table: d.cfg.Table, Game: d.game.Name(), State: d.game.View(Public)})
	if err != nil {
		d.log.Error("state not encoded", "err", err)
		return
	}
	if err := d.pub.Publish(d.topics.State, msg, true); err != nil {
		d.log.Warn("state not published; it will be when the broker is back", "err", err)
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

// Close publishes "offline", disconnects and closes the journal.
func (d *Daemon) Close() error {
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
