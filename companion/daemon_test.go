package companion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
)

// tally is a minimal game used only by tests, registered through the same
// spec as the real games: every die entered is added to a total.
type tally struct{ total, count int }

type addDice struct {
	Rolls []dice.Roll `json:"rolls"`
}

func (addDice) Type() string { return "add" }

var tallyActions = rules.NewCodec("tally", addDice{})

func tallyStep(st tally, a rules.Action) (tally, []map[string]any, error) {
	add, ok := a.(addDice)
	if !ok {
		return st, nil, rules.Reject("unknown_action", "nieznana akcja", "unknown action")
	}
	for _, r := range add.Rolls {
		if err := r.Validate(); err != nil {
			return st, nil, rules.Reject("bad_die", "kość pokazuje %d", "a die showing %d", r.Value)
		}
		st.total += r.Value
		st.count++
	}
	return st, []map[string]any{{"type": "added", "text": rules.Textf("suma %d", "total %d", st.total)}}, nil
}

type tallyGame struct {
	Adapter[tally, map[string]any]
	virtual dice.Source
}

func newTally(id string) func(TableConfig) (Game, error) {
	return func(cfg TableConfig) (Game, error) {
		g := &tallyGame{virtual: dice.NewSeeded(cfg.DiceSeed())}
		g.Adapter = Adapter[tally, map[string]any]{ID: id, Codec: tallyActions, Opening: addDice{}, Step: tallyStep,
			Show: func(st tally, _ Viewer) any { return map[string]int{"total": st.total, "count": st.count} }}
		return g, nil
	}
}

func (g *tallyGame) Bind(in Input) ([]Action, []Notice) {
	if in.Key != nil {
		switch in.Key.Key {
		case "next":
			return nil, []Notice{{Type: "rejected", Code: "nothing_next", Text: rules.Textf("nic dalej", "nothing comes next")}}
		case "roll":
			rolls, _ := g.virtual.Roll(1)
			return []Action{addDice{Rolls: rolls}}, nil
		}
		v, _ := strconv.Atoi(in.Key.Key)
		return []Action{addDice{Rolls: []dice.Roll{{Value: v, Origin: dice.Keypad, Device: in.Key.Keypad}}}}, nil
	}
	return nil, nil
}

func (g *tallyGame) RollsIn(a Action) []dice.Roll { return a.(addDice).Rolls }

func (g *tallyGame) Summary(Viewer) []rules.Text {
	return []rules.Text{rules.Textf("suma %d z %d kości", "total %d of %d dice", g.State().total, g.State().count)}
}

// tallySpec registers the test game; tallyGames are the games of the tests'
// daemons ("other" shares the engine under another id).
var (
	tallySpec = GameSpec{ID: "tally", Title: rules.Text{PL: "Suma", EN: "Tally"}, New: newTally("tally"),
		Commands: append(wire.Vocabulary{{Name: "next", Label: rules.Text{PL: "Dalej", EN: "Next"}, From: wire.Anyone, Watch: "n"},
			{Name: "roll", Label: rules.Text{PL: "Rzuć", EN: "Roll"}, From: wire.Anyone, Watch: "r"}}, wire.DiceKeys(wire.Anyone)...),
		Tournament: gamespec.Tournament{Seats: 2, RoundMinutes: 30, Points: gamespec.Points{Mode: gamespec.ModeWDL, Win: 3, Draw: 1},
			TieBreaks: []string{gamespec.TieSOS, gamespec.TieScore}, Why: "the tests' game: two players, win/draw/loss"}}
	tallyGames = Games{tallySpec, {ID: "other", New: newTally("other"), Commands: tallySpec.Commands}}
)

type recorder struct {
	mu   sync.Mutex
	msgs map[string][]string
}

func record(t *testing.T, addr, filter string, userPass ...string) *recorder {
	r := &recorder{msgs: map[string][]string{}}
	opts := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprint("rec", time.Now().UnixNano()))
	if len(userPass) == 2 {
		opts.SetUsername(userPass[0]).SetPassword(userPass[1])
	}
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal("connect", tok.Error())
	}
	tok := c.Subscribe(filter, 1, func(_ paho.Client, m paho.Message) {
		r.mu.Lock()
		r.msgs[m.Topic()] = append(r.msgs[m.Topic()], string(m.Payload()))
		r.mu.Unlock()
	})
	tok.WaitTimeout(5 * time.Second)
	t.Cleanup(func() { c.Disconnect(50) })
	return r
}

func (r *recorder) wait(t *testing.T, topic, substr string) string {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		r.mu.Lock()
		msgs := r.msgs[topic]
		r.mu.Unlock()
		for i := len(msgs) - 1; i >= 0; i-- {
			if strings.Contains(msgs[i], substr) {
				return msgs[i]
			}
		}
	}
	t.Fatalf("no message on %s containing %q", topic, substr)
	return ""
}

func (r *recorder) all(topic string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.msgs[topic], "\n")
}

func tallyDaemon(t *testing.T, dir string) (*Daemon, func()) {
	t.Helper()
	os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags:\n  - {uid: 04A1B2C3, kind: unit, id: ak}\n"), 0o644)
	return serveTally(t, dir, "mqtt:\n  listen: 127.0.0.1:0\ndice:\n  fairness: {significance: 0.01, min_rolls: 60}\ndisplay:\n  referee: {user: sedzia, password: tajne}\n", Options{})
}

// serveTally serves a table of venue v, table t1 playing the test game,
// its journal j.db and tag registry tags.yaml (empty unless written
// before) in dir, with the rest of its config from more. It waits for the
// screens when the config has them; stop ends the daemon.
func serveTally(t testing.TB, dir, more string, opts Options) (*Daemon, func()) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "tags.yaml")); err != nil {
		os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644)
	}
	cfg, err := ParseConfig(filepath.Join(dir, "t.yaml"), []byte("venue: v\ntable: t1\ngame: tally\ntags: tags.yaml\njournal: j.db\n"+more))
	if err != nil {
		t.Fatal(err)
	}
	opts.Games = tallyGames
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	d, err := Open(context.Background(), cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx) }()
	if cfg.Display.Listen != "" {
		for end := time.Now().Add(10 * time.Second); d.DisplayAddr() == "" && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		}
	}
	return d, func() { cancel(); <-done; d.Close() }
}

func key(d *Daemon, keypad, k string) {
	d.inputs <- Input{Key: &hardware.KeyEvent{Keypad: keypad, Key: k}, From: Sender{Kind: wire.Keys, Audience: wire.Public}}
}

func TestBadInputIsPublishedAndChangesNothing(t *testing.T) {
	d, stop := tallyDaemon(t, t.TempDir())
	defer stop()
	rec := record(t, d.BrokerAddr(), "sztab/v1/v/t1/#")
	rec.wait(t, "sztab/v1/v/t1/state", `"seq":1`)

	ref := record(t, d.BrokerAddr(), "sztab/v1/v/t1/referee/#", "sedzia", "tajne")
	d.inputs <- Input{Tag: &hardware.TagEvent{Reader: "r2", UID: "04998877", Present: true}}
	key(d, "kp", "7")
	key(d, "kp", "4")
	ev := rec.wait(t, "sztab/v1/v/t1/events", "unknown_tag")
	if !strings.Contains(ev, `"uid":"04998877"`) || !strings.Contains(ev, `"device":"r2"`) {
		t.Errorf("unknown_tag event lacks uid or reader: %s", ev)
	}
	rej := rec.wait(t, "sztab/v1/v/t1/events", "rejected")
	if !strings.Contains(rej, "a die showing 7") || !strings.Contains(rej, "kość pokazuje 7") {
		t.Errorf("rejection lacks its reasons: %s", rej)
	}
	st := rec.wait(t, "sztab/v1/v/t1/state", `"total":4`)
	// seq 1 start, 2 unknown tag notice, 3 rejection notice, 4 the accepted die.
	if !strings.Contains(st, `"seq":4`) || !strings.Contains(st, `"count":1`) {
		t.Errorf("state after a 7 and a 4: %s", st)
	}
	fair := ref.wait(t, "sztab/v1/v/t1/referee/fairness", `"rejected":1`)
	if !strings.Contains(fair, `"key":"t1/kp"`) {
		t.Errorf("fairness: %s", fair)
	}
}

func TestFairnessWatchFlagsTheLoadedDieToTheRefereeOnly(t *testing.T) {
	d, stop := tallyDaemon(t, t.TempDir())
	defer stop()
	rec := record(t, d.BrokerAddr(), "sztab/v1/v/t1/#", "sedzia", "tajne")
	spectator := record(t, d.BrokerAddr(), "sztab/#")
	rec.wait(t, "sztab/v1/v/t1/state", `"seq":1`)
	rng := rand.New(rand.NewPCG(7, 7))
	for range 300 {
		key(d, "fair", strconv.Itoa(1+rng.IntN(6)))
		loaded := 6 // a six one time in three
		if rng.IntN(3) != 0 {
			loaded = 1 + rng.IntN(5)
		}
		key(d, "loaded", strconv.Itoa(loaded))
	}
	rec.wait(t, "sztab/v1/v/t1/state", `"count":600`)
	rec.wait(t, "sztab/v1/v/t1/referee/events", "t1/loaded")
	var msg wire.FairnessMessage
	json.Unmarshal([]byte(rec.wait(t, "sztab/v1/v/t1/referee/fairness", `"rolls":300,`)), &msg)
	got := map[string]bool{}
	for _, s := range msg.Sources {
		got[s.Key] = s.Loaded
	}
	if !got["t1/loaded"] || got["t1/fair"] || len(got) != 2 {
		t.Errorf("loaded flags %v, want only t1/loaded", got)
	}
	if pub := rec.all("sztab/v1/v/t1/events") + rec.all("sztab/v1/v/t1/state"); strings.Contains(pub, "die_suspect") || strings.Contains(pub, "chi_square") {
		t.Error("the fairness watch leaked onto a public topic")
	}
	spectator.wait(t, "sztab/v1/v/t1/state", `"count":600`)
	spectator.mu.Lock()
	for topic := range spectator.msgs {
		if strings.Contains(topic, "referee") {
			t.Errorf("a spectator subscribed to sztab/# received %s", topic)
		}
	}
	spectator.mu.Unlock()

	// A referee who connects late sees the hidden views at once: they are
	// retained, and the roles still hold for retained messages.
	late := record(t, d.BrokerAddr(), "sztab/v1/v/t1/#", "sedzia", "tajne")
	lateSpectator := record(t, d.BrokerAddr(), "sztab/#")
	late.wait(t, "sztab/v1/v/t1/referee/fairness", `"rolls":300,`)
	late.wait(t, "sztab/v1/v/t1/referee/state", `"count":600`)
	lateSpectator.wait(t, "sztab/v1/v/t1/state", `"count":600`)
	if hidden := lateSpectator.all("sztab/v1/v/t1/referee/state") + lateSpectator.all("sztab/v1/v/t1/referee/fairness"); hidden != "" {
		t.Errorf("a late spectator received the retained referee views: %s", hidden)
	}
}

func TestRestartRebuildsStateAndRefusesAnotherGame(t *testing.T) {
	dir := t.TempDir()
	d, stop := tallyDaemon(t, dir)
	for _, k := range []string{"3", "5"} {
		key(d, "kp", k)
	}
	for end := time.Now().Add(10 * time.Second); d.Seq() < 3 && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
	}
	stop()
	d2, stop2 := tallyDaemon(t, dir)
	if d2.Seq() != 3 || d2.Game().View(Public).(map[string]int)["total"] != 8 {
		t.Errorf("after restart: seq %d, view %v", d2.Seq(), d2.Game().View(Public))
	}
	if got := d2.Fairness(); len(got) != 1 || got[0].Rolls != 2 {
		t.Errorf("fairness after restart: %+v", got)
	}
	stop2()

	cfg, _ := ParseConfig(filepath.Join(dir, "t.yaml"), []byte("venue: v\ntable: t1\ngame: other\ntags: tags.yaml\njournal: j.db\nmqtt:\n  listen: 127.0.0.1:0\n"))
	_, err := Open(context.Background(), cfg, Options{
		Games: tallyGames,
		Log:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if !errors.Is(err, ErrJournalIdentity) || !strings.Contains(err.Error(), "j.db") || !strings.Contains(err.Error(), `game "tally" and the config says venue "v", table "t1", game "other"`) {
		t.Errorf("opening a tally journal for another game: %v", err)
	}
}

func TestJournalEntryThatNoLongerAppliesRefusesStart(t *testing.T) {
	dir := t.TempDir()
	_, stop := tallyDaemon(t, dir)
	stop()
	j, err := OpenJournal(filepath.Join(dir, "j.db"), JournalIdentity{Venue: "v", Table: "t1", Game: "tally"}, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	j.Append(context.Background(), KindAction, "tally", time.Now(), []byte(`{"type":"add","rolls":[{"value":9,"origin":"keypad"}]}`), []byte(`[]`))
	j.Close()
	cfg, _ := ParseConfig(filepath.Join(dir, "t.yaml"), []byte("venue: v\ntable: t1\ngame: tally\ntags: tags.yaml\njournal: j.db\nmqtt:\n  listen: 127.0.0.1:0\n"))
	_, err = Open(context.Background(), cfg, Options{
		Games: tallyGames,
		Log:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err == nil || !strings.Contains(err.Error(), "entry 2") || !strings.Contains(err.Error(), "no longer applies") {
		t.Errorf("got %v, want a refusal naming entry 2", err)
	}
}

func TestMissingDevicesAndFaultsAreReportedAndTheTablePlaysOn(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644)
	cfg, err := ParseConfig(filepath.Join(dir, "t.yaml"), []byte(`venue: v
table: t1
game: tally
tags: tags.yaml
journal: j.db
mqtt:
  listen: 127.0.0.1:0
hardware:
  board: rpi4
  readers:
    - {name: front-1, spi: SPI0.0}
`))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(context.Background(), cfg, Options{
		Games: tallyGames,
		Log:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	rec := record(t, d.BrokerAddr(), "sztab/v1/v/t1/#")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx) }()
	defer func() { cancel(); <-done; d.Close() }()

	// This machine has no SPI0.0: the reader is reported by name, not fatal.
	missing := rec.wait(t, "sztab/v1/v/t1/events", "device_missing")
	if !strings.Contains(missing, "front-1") {
		t.Errorf("device_missing does not name the reader: %s", missing)
	}
	d.inputs <- Input{Tag: &hardware.TagEvent{Reader: "front-1", Fault: &hardware.Fault{Kind: hardware.FaultCollision}}}
	fault := rec.wait(t, "sztab/v1/v/t1/events", "device_fault")
	if !strings.Contains(fault, "front-1") || !strings.Contains(fault, `"code":"collision"`) {
		t.Errorf("device_fault: %s", fault)
	}
	key(d, "kp", "5")
	rec.wait(t, "sztab/v1/v/t1/state", `"total":5`)
}

func TestHardwareConfigErrorsNameTheDevice(t *testing.T) {
	_, err := ParseConfig("t.yaml", []byte(goodConfig+"hardware:\n  board: rpi4\n  readers:\n    - {name: front-1, spi: SPI9.9}\n"))
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Line != 10 || !strings.Contains(err.Error(), "front-1") {
		t.Errorf("got %v, want an error at t.yaml:10 naming front-1", err)
	}
}

// A command found retained on the topic when the table (re)subscribes was
// sent before a restart: it is refused, not carried out again.
func TestRetainedRefereeCommandIsRefused(t *testing.T) {
	d, stop := tallyDaemon(t, t.TempDir())
	defer stop()
	rec := record(t, d.BrokerAddr(), "sztab/v1/v/t1/#")
	rec.wait(t, "sztab/v1/v/t1/state", `"seq":1`)
	d.receiveCommand(Message{Topic: d.topics.RefereeCommand, Payload: []byte(`{"name":"4"}`), Retained: true})
	d.receiveCommand(Message{Topic: d.topics.RefereeCommand, Payload: []byte(`{"name":"5"}`)})
	rec.wait(t, "sztab/v1/v/t1/events", `"code":"retained"`)
	if st := rec.wait(t, "sztab/v1/v/t1/state", `"total":5`); !strings.Contains(st, `"count":1`) {
		t.Errorf("the retained command was carried out: %s", st)
	}
}

// The referee's state carries the fairness watch's counts with the roll
// its entry accepted: the same count as the fairness topic and the export
// (it was one roll behind: the views were made before the watch saw it).
func TestRefereeStateCountsTheRollItCarries(t *testing.T) {
	d, stop := tallyDaemon(t, t.TempDir())
	defer stop()
	ref := record(t, d.BrokerAddr(), "sztab/v1/v/t1/referee/#", "sedzia", "tajne")
	ref.wait(t, "sztab/v1/v/t1/referee/state", `"seq":1`)
	for i, k := range []string{"3", "5", "2"} {
		key(d, "kp", k)
		st := ref.wait(t, "sztab/v1/v/t1/referee/state", fmt.Sprintf(`"count":%d`, i+1))
		var m wire.StateMessage
		if err := json.Unmarshal([]byte(st), &m); err != nil {
			t.Fatal(err)
		}
		if len(m.Fairness) != 1 || m.Fairness[0].Key != "t1/kp" || m.Fairness[0].Rolls != i+1 {
			t.Errorf("roll %d: the referee's state counts %+v, want t1/kp with %d rolls", i+1, m.Fairness, i+1)
		}
		ref.wait(t, "sztab/v1/v/t1/referee/fairness", fmt.Sprintf(`"rolls":%d,`, i+1))
	}
	if got := d.Fairness(); len(got) != 1 || got[0].Rolls != 3 {
		t.Errorf("the watch after three rolls: %+v", got)
	}
}
