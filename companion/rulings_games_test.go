package companion_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/maligame"
	"github.com/sztab/sztab/companion/wire"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/hardware/sim"
	"github.com/sztab/sztab/internal/gamestest"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/vision"
)

var updateRulings = flag.Bool("update-rulings", false, "rewrite testdata/rulings/*.golden")
var dumpRulings = flag.Bool("dump-rulings", false, "print the journal of each game's first steps (to write the cases)")

// submitSink feeds a simulated session into a daemon the way its devices
// would (the table's keys send as the table).
type submitSink struct {
	t testing.TB
	d *companion.Daemon
}

func (s submitSink) submit(in companion.Input) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.d.Submit(ctx, in); err != nil {
		s.t.Fatalf("%v; the goroutines:\n%s", err, tabletest.Goroutines())
	}
}
func (s submitSink) Tag(e hardware.TagEvent) { s.submit(companion.Input{Tag: &e}) }
func (s submitSink) Key(e hardware.KeyEvent) {
	s.submit(companion.Input{Key: &e, Args: e.Args, From: companion.Sender{Kind: wire.Keys, Audience: wire.Public}})
}
func (s submitSink) Snapshot(sn vision.Snapshot) { s.submit(companion.Input{Snapshot: &sn}) }

// mqttSide is a client of the table's broker as one role, collecting the
// answers to its commands.
type mqttSide struct {
	c       paho.Client
	topics  wire.Topics
	mu      sync.Mutex
	answers map[string]wire.CommandResult
	// log is every event heard: its type and English text.
	log []string
	n   int
}

func connectAs(t testing.TB, addr string, topics wire.Topics, user, pass string, subs ...string) *mqttSide {
	t.Helper()
	m := &mqttSide{topics: topics, answers: map[string]wire.CommandResult{}}
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("%s-%d", user, time.Now().UnixNano())).SetUsername(user).SetPassword(pass)
	m.c = paho.NewClient(o)
	if tok := m.c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect as %s: %v", user, tok.Error())
	}
	t.Cleanup(func() { m.c.Disconnect(50) })
	for _, s := range subs {
		tok := m.c.Subscribe(s, 1, func(_ paho.Client, msg paho.Message) {
			var em struct {
				Event wire.CommandResult `json:"event"`
			}
			if json.Unmarshal(msg.Payload(), &em) != nil {
				return
			}
			m.mu.Lock()
			defer m.mu.Unlock()
			if em.Event.Type == wire.ResultType && em.Event.ID != "" {
				m.answers[em.Event.ID] = em.Event
			} else {
				m.log = append(m.log, em.Event.Type+": "+em.Event.Text.EN)
			}
		})
		if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("subscribe %s: %v", s, tok.Error())
		}
	}
	return m
}

// send publishes a command on topic and waits for its answer.
func (m *mqttSide) send(t testing.TB, topic string, c wire.Command) wire.CommandResult {
	t.Helper()
	m.mu.Lock()
	m.n++
	c.ID = fmt.Sprintf("%s-%d-%d", c.Name, m.n, time.Now().UnixNano())
	m.mu.Unlock()
	b, _ := json.Marshal(c)
	if tok := m.c.Publish(topic, 1, false, b); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("publish %s: %v", topic, tok.Error())
	}
	return m.wait(t, c.ID)
}

func (m *mqttSide) wait(t testing.TB, id string) wire.CommandResult {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		m.mu.Lock()
		r, ok := m.answers[id]
		m.mu.Unlock()
		if ok {
			return r
		}
	}
	t.Fatalf("no answer to command %s", id)
	return wire.CommandResult{}
}

// Each game's golden game of the referee's record (GameSpec.Rulings): the
// demo's first steps, then a correction, an undo and a flag-but-allow.
func TestRulingsGoldenGames(t *testing.T) {
	n := 0
	for _, spec := range gamestest.All {
		if spec.Rulings == nil {
			continue
		}
		if spec.Demo == "" {
			t.Errorf("%s: a rulings game needs the game's demo table", spec.ID)
			continue
		}
		n++
		t.Run(spec.ID, func(t *testing.T) { playRulings(t, spec, *spec.Rulings) })
	}
	if n == 0 {
		t.Fatal("no game has a rulings game")
	}
}

func playRulings(t *testing.T, spec companion.GameSpec, tc gamespec.Rulings) {
	dir := t.TempDir()
	cfg := tabletest.DemoConfig(t, dir, spec.Demo, false)
	r := tabletest.Start(t, cfg, spec)
	defer func() {
		if r != nil {
			r.Stop(t)
		}
	}()
	topics := wire.TopicsFor(cfg.Venue, cfg.Table)
	public := connectAs(t, r.D.BrokerAddr(), topics, "", "", topics.Events)
	referee := connectAs(t, r.D.BrokerAddr(), topics, cfg.Display.Referee.User, cfg.Display.Referee.Password, topics.RefereeEvents)
	p1 := cfg.Display.Players[0]
	player := connectAs(t, r.D.BrokerAddr(), topics, p1.User, p1.Password, topics.EventsFor(wire.Player(p1.Seat)))
	settles := 0
	settle := func() {
		t.Helper()
		settles++
		id := fmt.Sprintf("settle-%d", settles)
		// A command the table's keys may not send: refused at once, its
		// answer says every input before it was handled.
		submitSink{t, r.D}.submit(companion.Input{Key: &hardware.KeyEvent{Keypad: "keypad", Key: companion.CmdAnswer},
			From: companion.Sender{Kind: wire.Keys, Audience: wire.Public, ID: id}})
		if res := public.wait(t, id); res.OK || res.Code != "not_your_role" {
			t.Fatalf("the keys' answer: %+v, want refused not_your_role", res)
		}
	}

	data, err := firmwareconfig.Demo.ReadFile("demo/" + strings.TrimSuffix(spec.Demo, ".yaml") + "-demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	script, err := sim.Parse(spec.Demo, data)
	if err != nil {
		t.Fatal(err)
	}
	if tc.Steps < len(script.Steps) {
		script.Steps = script.Steps[:tc.Steps]
	}
	if err := (sim.Player{}).Play(context.Background(), script, submitSink{t, r.D}); err != nil {
		t.Fatal(err)
	}
	settle()
	if *dumpRulings {
		dumpJournal(t, cfg.Resolve(cfg.Journal))
		return
	}
	jpath := cfg.Resolve(cfg.Journal)
	actions := actionSeqs(t, jpath)
	ref := func(c wire.Command) wire.CommandResult {
		t.Helper()
		return referee.send(t, topics.RefereeCommand, c)
	}
	must := func(what string, res wire.CommandResult) {
		t.Helper()
		if !res.OK {
			t.Fatalf("%s: refused %s: %s", what, res.Code, res.Text.EN)
		}
	}

	// A player's page cannot rule, correct or allow (the broker lets the
	// player publish on their own command topic; the table refuses).
	for _, name := range []string{companion.CmdUndo, companion.CmdCorrect, companion.CmdAllow, companion.CmdAnswer} {
		res := player.send(t, topics.PlayerCommand(p1.Seat), wire.Command{Name: name, Text: "mine"})
		if res.OK || res.Code != "garbled" {
			t.Errorf("a player's %s: %+v, want refused (garbled: not a player's command)", name, res)
		}
	}

	// 1. A correction: the action of an entry replaced by another (the
	// last action the case's correct changes).
	var target int64
	var fixed string
	for i := len(actions) - 1; i >= 0 && target == 0; i-- {
		if old := entryBody(t, jpath, actions[i]); tc.Correct(old) != old {
			target, fixed = actions[i], tc.Correct(old)
		}
	}
	if target == 0 {
		t.Fatal("no action for the case's correction")
	}
	must("correction", ref(wire.Command{Name: companion.CmdCorrect, Args: []string{fmt.Sprint(target)}, Text: "die read wrong", Action: json.RawMessage(fixed)}))
	// 2. An undo of the last action.
	must("undo", ref(wire.Command{Name: companion.CmdUndo, Text: "taken back at the players' request"}))
	// 3. Flag but allow: an action the rules refuse, let stand.
	var camera *vision.Snapshot
	for _, st := range script.Steps {
		if st.Snapshot != nil {
			// The camera's view, sent again as a camera does: a rebuilt
			// game, like a restarted one, has not seen the table yet.
			camera = st.Snapshot
			submitSink{t, r.D}.Snapshot(*st.Snapshot)
			break
		}
	}
	for _, in := range tc.Breach {
		submitSink{t, r.D}.submit(in)
	}
	settle()
	if t.Failed() || testing.Verbose() {
		eachEntry(t, jpath, func(e companion.Entry) {
			if e.Seq > r.D.Seq()-3 {
				t.Logf("after the breach: %d %s %.300s", e.Seq, e.Kind, e.Body)
			}
		})
	}
	must("allow", ref(wire.Command{Name: companion.CmdAllow, Text: "the table agreed"}))
	// 4. A referee call from a player's page: that seat's input waits.
	must("call", player.send(t, topics.PlayerCommand(p1.Seat), wire.Command{Name: companion.CmdCall, Text: "is that legal?"}))
	if res := player.send(t, topics.PlayerCommand(p1.Seat), wire.Command{Name: tc.Paused}); res.OK || res.Code != "paused_for_referee" {
		t.Errorf("a paused seat's command: %+v, want paused_for_referee", res)
	}
	must("answer", ref(wire.Command{Name: companion.CmdAnswer, Text: "it is, play on"}))

	// The public log says what each ruling changed: one event each.
	var heard string
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		public.mu.Lock()
		heard = "\n" + strings.Join(public.log, "\n")
		public.mu.Unlock()
		if strings.Contains(heard, "\nanswer: ") || time.Now().After(end) {
			break
		}
	}
	for _, want := range []string{"correction: ", "undo: ", "allowed: ", "call: ", "answer: "} {
		if !strings.Contains(heard, "\n"+want) {
			t.Errorf("the public log has no %q event:\n%s", strings.TrimSuffix(want, ": "), heard)
		}
	}
	// ... and what the correction changed: a game that tells its actions
	// (ActionTeller) says both in its words; another names each field of
	// the action whose value differs, by its path (actionChange's own
	// test checks the values)
	var before, after map[string]json.RawMessage
	if err := json.Unmarshal([]byte(entryBody(t, jpath, target)), &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(fixed), &after); err != nil {
		t.Fatal(err)
	}
	var line string
	for _, l := range strings.Split(heard, "\n") {
		if strings.HasPrefix(l, "correction: ") {
			line = l
		}
	}
	if teller, ok := r.D.Game().(companion.ActionTeller); ok {
		tellEN := func(body string) string {
			a, err := r.D.Game().DecodeAction([]byte(body))
			if err != nil {
				t.Fatal(err)
			}
			return teller.TellAction(a).EN
		}
		was, now := tellEN(entryBody(t, jpath, target)), tellEN(fixed)
		if was == now || !strings.Contains(line, was+" → "+now) {
			t.Errorf("the correction's event does not say %q → %q: %q", was, now, line)
		}
	}
	changed := 0
	_, tells := r.D.Game().(companion.ActionTeller)
	for k, v := range after {
		if k == "type" || bytes.Equal(compactJSON(t, v).Bytes(), compactJSON(t, before[k]).Bytes()) {
			continue
		}
		changed++
		if !tells && !strings.Contains(line, "("+k) && !strings.Contains(line, ", "+k) {
			t.Errorf("the correction's event does not say what became of %q: %q", k, line)
		}
	}
	if changed == 0 {
		t.Errorf("the case's correction %s changes no field of entry %d", fixed, target)
	}
	for _, want := range []string{"die read wrong", "taken back at the players' request", "the table agreed", "is that legal?", "it is, play on"} {
		if !strings.Contains(heard, want) {
			t.Errorf("the public log does not say %q:\n%s", want, heard)
		}
	}
	record := summaryLines(t, spec, cfg, jpath)
	kinds := journalKinds(t, jpath)
	// The views are read once the daemon's loop has stopped (it is the
	// only reader of the game while it runs).
	r.Stop(t)
	live := views(t, r.D)
	r = tabletest.Start(t, cfg, spec)
	if camera != nil {
		// A restarted table draws the camera's picture again once the
		// camera sends its view (the game state needs no camera); a key
		// refused after it says the snapshot was handled.
		submitSink{t, r.D}.Snapshot(*camera)
		seq := r.D.Seq()
		submitSink{t, r.D}.submit(companion.Input{Key: &hardware.KeyEvent{Keypad: "keypad", Key: companion.CmdAnswer},
			From: companion.Sender{Kind: wire.Keys, Audience: wire.Public, ID: "after-restart"}})
		tabletest.WaitSeq(t, r.D, seq+1)
	}
	r.Stop(t)
	again := views(t, r.D)
	r = nil
	if again != live {
		t.Errorf("the state after a restart differs from the state after live play:\nlive:   %s\nreplay: %s", live, again)
	}
	golden := filepath.Join("testdata", "rulings", spec.ID+".golden")
	got := "# " + spec.ID + ": the referee's record of the golden game (kinds, then the summary's lines)\n" + kinds + record + "\n# the referee's view after replay\n" + live + "\n"
	if *updateRulings {
		os.MkdirAll(filepath.Dir(golden), 0o755)
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update-rulings to write it)", err)
	}
	if got != string(want) {
		t.Errorf("the golden game differs from %s (run with -update-rulings after checking):\n%s", golden, got)
	}
}

// views is the game's referee and public views, as JSON.
func views(t testing.TB, d *companion.Daemon) string {
	t.Helper()
	b, err := json.Marshal([]any{d.Game().View(companion.Viewer{Role: companion.RoleReferee}), d.Game().View(companion.Public)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// summaryLines are the export's rulings, corrections and breaches.
func summaryLines(t testing.TB, spec companion.GameSpec, cfg *companion.Config, path string) string {
	t.Helper()
	fresh, err := spec.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	j, err := companion.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	g, err := companion.ReplayJournal(context.Background(), j, fresh, "t", dice.WatchConfig{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, sec := range []struct {
		name  string
		lines []string
	}{{"rulings", g.Rulings}, {"corrections", g.Corrections}, {"breaches", g.Breaches}} {
		fmt.Fprintf(&b, "## %s\n", sec.name)
		for _, l := range sec.lines {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	return stamps.ReplaceAllString(b.String(), "<time>")
}

var stamps = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)

func actionSeqs(t testing.TB, path string) []int64 {
	t.Helper()
	var out []int64
	eachEntry(t, path, func(e companion.Entry) {
		if e.Kind == companion.KindAction {
			out = append(out, e.Seq)
		}
	})
	return out
}

func entryBody(t testing.TB, path string, seq int64) string {
	t.Helper()
	var out string
	eachEntry(t, path, func(e companion.Entry) {
		if e.Seq == seq {
			out = string(e.Body)
		}
	})
	return out
}

func journalKinds(t testing.TB, path string) string {
	var b strings.Builder
	eachEntry(t, path, func(e companion.Entry) {
		if e.Kind != companion.KindAction && e.Kind != companion.KindNotice {
			fmt.Fprintf(&b, "%d %s %s\n", e.Seq, e.Kind, e.Body)
		}
	})
	return b.String()
}

func eachEntry(t testing.TB, path string, fn func(companion.Entry)) {
	t.Helper()
	j, err := companion.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.Entries(context.Background(), 0, func(e companion.Entry) error { fn(e); return nil }); err != nil {
		t.Fatal(err)
	}
}

func dumpJournal(t *testing.T, path string) {
	j, err := companion.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	j.Entries(context.Background(), 0, func(e companion.Entry) error {
		b := string(e.Body)
		if len(b) > 300 {
			b = b[:300] + "…"
		}
		t.Logf("%d %s %s", e.Seq, e.Kind, b)
		return nil
	})
}

// maliMidGame is the Mali demo table served and played 20 steps into its
// demo script, with a public screen's and the referee's MQTT clients
// connected (the referee signed in as the demo config says).
func maliMidGame(t *testing.T) (*companion.Config, *tabletest.Running, *mqttSide, *mqttSide) {
	t.Helper()
	cfg := tabletest.DemoConfig(t, t.TempDir(), "mali-powstancy.yaml", false)
	r := tabletest.Start(t, cfg, maligame.Spec)
	topics := wire.TopicsFor(cfg.Venue, cfg.Table)
	public := connectAs(t, r.D.BrokerAddr(), topics, "", "", topics.Events)
	referee := connectAs(t, r.D.BrokerAddr(), topics, cfg.Display.Referee.User, cfg.Display.Referee.Password, topics.RefereeEvents)
	data, _ := firmwareconfig.Demo.ReadFile("demo/mali-powstancy-demo.jsonl")
	script, err := sim.Parse("mali", data)
	if err != nil {
		r.Stop(t)
		t.Fatal(err)
	}
	script.Steps = script.Steps[:20]
	if err := (sim.Player{}).Play(context.Background(), script, submitSink{t, r.D}); err != nil {
		r.Stop(t)
		t.Fatal(err)
	}
	return cfg, r, public, referee
}

// Bad input to the referee's record: each refused with the entry and the
// reason, nothing applied; a command sent again (before and after a
// restart) is carried out once.
func TestRulingsBadInput(t *testing.T) {
	cfg, r, public, referee := maliMidGame(t)
	defer func() { r.Stop(t) }()
	topics := wire.TopicsFor(cfg.Venue, cfg.Table)
	jpath := cfg.Resolve(cfg.Journal)
	// A command from no role the table knows, answered publicly.
	// (Those answered on a seat's topic first: the inputs are handled in
	// order, so the public answers after them say they were handled.)
	for i, from := range []companion.Sender{
		{Kind: wire.Seat, Audience: wire.Player(7), ID: "who-4"},
		{Kind: wire.Ref, Audience: wire.Player(1), ID: "who-5"},
		{Kind: wire.Seat, Audience: wire.Referee, ID: "who-3"},
		{Kind: 0, ID: "who-1"},
		{Kind: wire.Seat | wire.Ref, ID: "who-2"},
	} {
		if from.Audience == "" {
			from.Audience = wire.Public
		}
		submitSink{t, r.D}.submit(companion.Input{Key: &hardware.KeyEvent{Keypad: "x", Key: "next"}, From: from})
		var res wire.CommandResult
		if from.Audience == wire.Public {
			res = public.wait(t, from.ID)
		} else if from.Audience == wire.Referee {
			res = referee.wait(t, from.ID)
		} else {
			continue // answered on the seat's own topic
		}
		if res.OK || res.Code != "unknown_role" || res.Text.EN == "" {
			t.Errorf("sender %d %+v: %+v, want refused unknown_role with the reason", i, from, res)
		}
	}
	before := r.D.Seq()
	var notice int64
	eachEntry(t, jpath, func(e companion.Entry) {
		if e.Kind == companion.KindNotice && notice == 0 {
			notice = e.Seq
		}
	})
	for _, tc := range []struct {
		c        wire.Command
		code, in string
	}{
		{wire.Command{Name: companion.CmdAllow, Text: "x"}, "nothing_pending", "no refused action"},
		{wire.Command{Name: companion.CmdAnswer, Text: "x"}, "nothing_pending", "no call"},
		{wire.Command{Name: companion.CmdCorrect, Args: []string{"9999"}, Text: "x", Action: json.RawMessage(`{"type":"end_turn"}`)}, "no_such_entry", "no entry 9999"},
		{wire.Command{Name: companion.CmdUndo, Args: []string{fmt.Sprint(notice)}, Text: "x"}, "not_an_action", fmt.Sprintf("entry %d is a notice", notice)},
		{wire.Command{Name: companion.CmdUndo, Args: []string{"1"}, Text: "x"}, "opening_action", "entry 1 opens the game"},
		{wire.Command{Name: companion.CmdUndo}, "reason_missing", "give the reason"},
		{wire.Command{Name: companion.CmdUndo, Args: []string{"abc"}, Text: "x"}, "bad_target", `"abc" is not an entry`},
		{wire.Command{Name: companion.CmdCorrect, Args: []string{"5"}, Text: "x", Action: json.RawMessage(`{"type":"no_such"}`)}, "bad_action", "cannot be read"},
		// A correction the rules refuse, and one that leaves a later
		// action standing on nothing: both name the entry.
		{wire.Command{Name: companion.CmdCorrect, Args: []string{"6"}, Text: "x", Action: json.RawMessage(`{"type":"step","courier":"green-2","to":"sggw"}`)}, "refused", "entry 6"},
		{wire.Command{Name: companion.CmdCorrect, Args: []string{"5"}, Text: "x", Action: json.RawMessage(`{"type":"end_turn"}`)}, "no_longer_applies", "entry 6 (step) no longer applies"},
	} {
		res := referee.send(t, topics.RefereeCommand, tc.c)
		if res.OK || res.Code != tc.code || !strings.Contains(res.Text.EN, tc.in) {
			t.Errorf("%s %v: %+v, want refused %s saying %q", tc.c.Name, tc.c.Args, res, tc.code, tc.in)
		}
	}
	if after := r.D.Seq(); after != before {
		t.Errorf("refused rulings wrote entries %d to %d", before+1, after)
	}
	if k := journalKinds(t, jpath); k != "" {
		t.Errorf("refused rulings were journaled:\n%s", k)
	}

	// One undo, sent three times with one id: carried out once, answered
	// the same each time, before and after a restart.
	undo, _ := json.Marshal(wire.Command{Name: companion.CmdUndo, ID: "undo-once", Text: "sent once, delivered thrice"})
	publish := func(m *mqttSide) {
		if tok := m.c.Publish(topics.RefereeCommand, 1, false, undo); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
	}
	publish(referee)
	first := referee.wait(t, "undo-once")
	if !first.OK {
		t.Fatalf("the undo: %+v", first)
	}
	referee.mu.Lock()
	delete(referee.answers, "undo-once")
	referee.mu.Unlock()
	publish(referee)
	if again := referee.wait(t, "undo-once"); again != first {
		t.Errorf("the same command again: %+v, want the first answer %+v", again, first)
	}
	r.Stop(t)
	r = tabletest.Start(t, cfg, maligame.Spec)
	referee = connectAs(t, r.D.BrokerAddr(), topics, "sedzia", "sedzia", topics.RefereeEvents)
	publish(referee)
	if again := referee.wait(t, "undo-once"); again.Seq != first.Seq || !again.OK {
		t.Errorf("the same command after a restart: %+v, want the first answer %+v", again, first)
	}
	if k := journalKinds(t, jpath); strings.Count(k, " undo ") != 1 {
		t.Errorf("the undo was carried out %d times:\n%s", strings.Count(k, " undo "), k)
	}
}

// A player's page cannot rule, correct or allow over HTTP: the screens
// refuse the referee's commands from a player's session.
func TestRulingsPlayerPageOverHTTP(t *testing.T) {
	dir := t.TempDir()
	cfg := tabletest.DemoConfig(t, dir, "mali-powstancy.yaml", false)
	r := tabletest.Start(t, cfg, maligame.Spec)
	defer r.Stop(t)
	addr := r.D.DisplayAddr()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.PostForm("http://"+addr+"/login", url.Values{"user": {"ania"}, "password": {"ania"}, "next": {"/"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	post := func(path, body string) (int, string) {
		req, _ := http.NewRequest("POST", "http://"+addr+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	before := r.D.Seq()
	for _, name := range []string{companion.CmdUndo, companion.CmdCorrect, companion.CmdAllow, companion.CmdAnswer} {
		for _, path := range []string{"/command", "/referee/command"} {
			code, body := post(path, fmt.Sprintf(`{"name":%q,"text":"mine"}`, name))
			if code == http.StatusAccepted {
				t.Errorf("a player's %s on %s was taken", name, path)
			}
			if path == "/command" && !strings.Contains(body, "unknown command") {
				t.Errorf("a player's %s: %d %s, want the reason", name, code, body)
			}
		}
	}
	// Her call is hers to make.
	if code, body := post("/command", `{"name":"call","text":"referee please"}`); code != http.StatusAccepted {
		t.Errorf("a player's call: %d %s", code, body)
	}
	for end := time.Now().Add(10 * time.Second); r.D.Seq() == before && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
	}
	if k := journalKinds(t, cfg.Resolve(cfg.Journal)); !strings.Contains(k, ` call {"seat":1,"by":"player/1","text":"referee please"}`) || strings.Count(k, "\n") != 1 {
		t.Errorf("the journal's rulings after a player's page: %q, want only her call", k)
	}
}

// On the venue's Mosquitto (firmware-config/mosquitto's files): a player
// cannot rule, correct or allow on her own command topic (the table
// refuses), and the broker drops what she publishes on the referee's.
func TestMosquittoPlayerCannotRule(t *testing.T) {
	addr := startVenueMosquitto(t)
	cfg := demoConfig(t, t.TempDir(), fmt.Sprintf("mqtt:\n  broker: \"tcp://%s\"\n  username: stol-1\n  password: \"haslo stolu\"\n  client_id: sztab-demo-stol-1\n", addr), false)
	r := serve(open(t, cfg))
	defer r.stop(t)
	topics := wire.TopicsFor(cfg.Venue, cfg.Table)
	ania := connectAs(t, addr, topics, "ania", "a1", topics.EventsFor(wire.Player(1)))
	referee := connectAs(t, addr, topics, "sedzia", "tajne", topics.RefereeEvents)
	deploy(t, r.d, 30)
	for _, name := range []string{companion.CmdUndo, companion.CmdCorrect, companion.CmdAllow, companion.CmdAnswer} {
		res := ania.send(t, topics.PlayerCommand(1), wire.Command{Name: name, Text: "mine"})
		if res.OK || res.Code != "garbled" || !strings.Contains(res.Text.EN, "unknown command") {
			t.Errorf("Ania's %s over Mosquitto: %+v, want refused", name, res)
		}
		b, _ := json.Marshal(wire.Command{Name: name, Text: "mine", ID: "ania-" + name})
		ania.c.Publish(topics.RefereeCommand, 1, false, b).WaitTimeout(5 * time.Second)
	}
	// Commands are handled in order: once the referee's own undo is
	// answered, Ania's on the referee's topic would have been handled.
	res := referee.send(t, topics.RefereeCommand, wire.Command{Name: companion.CmdUndo, Text: "the referee's own"})
	if !res.OK {
		t.Fatalf("the referee's undo over Mosquitto: %+v", res)
	}
	kinds := journalKinds(t, cfg.Resolve(cfg.Journal))
	if strings.Count(kinds, " undo ") != 1 || !strings.Contains(kinds, `"by":"referee","reason":"the referee's own"`) {
		t.Errorf("the journal's rulings: %q, want the referee's undo alone", kinds)
	}
}

// compactJSON is v on one line (empty for no value).
func compactJSON(t *testing.T, v json.RawMessage) *bytes.Buffer {
	t.Helper()
	var b bytes.Buffer
	if len(v) > 0 {
		if err := json.Compact(&b, v); err != nil {
			t.Fatal(err)
		}
	}
	return &b
}
