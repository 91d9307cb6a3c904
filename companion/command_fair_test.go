package companion

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/logbuf"
	"github.com/sztab/sztab/internal/testclock"
)

// fairTable is a tally table with a referee and a player (ania, seat 1)
// on its embedded broker, logging into logs.
func fairTable(t *testing.T, dir string, logs io.Writer) (*Daemon, func()) {
	t.Helper()
	return serveTally(t, dir, "mqtt:\n  listen: 127.0.0.1:0\ndisplay:\n  referee: {user: sedzia, password: tajne}\n  players:\n    - {seat: 1, user: ania, password: a1}\n",
		Options{Log: slog.New(slog.NewTextHandler(logs, nil))})
}

// answerLog collects the command results on one events topic, by id.
type answerLog struct {
	mu  sync.Mutex
	got map[string][]wire.CommandResult
	all int
}

func collectAnswers(t *testing.T, addr, topic, user, pass string) *answerLog {
	t.Helper()
	a := &answerLog{got: map[string][]wire.CommandResult{}}
	c := mqttClientAs(t, addr, user, pass)
	tok := c.Subscribe(topic, 1, func(_ paho.Client, m paho.Message) {
		var ev struct{ Event wire.CommandResult }
		if json.Unmarshal(m.Payload(), &ev) != nil || ev.Event.Type != wire.ResultType {
			return
		}
		a.mu.Lock()
		a.got[ev.Event.ID] = append(a.got[ev.Event.ID], ev.Event)
		a.all++
		a.mu.Unlock()
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe %s: %v", topic, tok.Error())
	}
	return a
}

func (a *answerLog) of(id string) []wire.CommandResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]wire.CommandResult(nil), a.got[id]...)
}

func mqttClientAs(t *testing.T, addr, user, pass string) paho.Client {
	t.Helper()
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("%s-%d", user, time.Now().UnixNano())).
		SetUsername(user).SetPassword(pass).SetWriteTimeout(10 * time.Second)
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect as %q: %v", user, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return c
}

// journalCount counts a journal's entries whose body holds each of subs.
func journalCount(t *testing.T, path string, subs ...string) map[string]int {
	t.Helper()
	j, err := OpenJournal(path, JournalIdentity{Venue: "v", Table: "t1", Game: "tally"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	n := map[string]int{}
	j.Entries(context.Background(), 0, func(e Entry) error {
		n["all"]++
		for _, s := range subs {
			if strings.Contains(string(e.Body), s) {
				n[s]++
			}
		}
		return nil
	})
	return n
}

// A player floods 20,000 garbled commands while the referee sends 20: the
// referee's are all carried out and answered, none refused "busy"; the
// flood's refusals are journaled and logged up to the sender's allowance,
// then counted; the player is told to slow down, a bounded number of times.
// Through the embedded broker (which passes the player's commands at its
// rate), and straight into the table's queue, as an outside broker without
// a rate would deliver them all.
func TestPlayerFloodDoesNotCrowdOutTheReferee(t *testing.T) {
	for _, via := range []string{"embedded broker", "every command delivered"} {
		t.Run(via, func(t *testing.T) { playerFlood(t, via == "embedded broker") })
	}
}

func playerFlood(t *testing.T, viaBroker bool) {
	dir := t.TempDir()
	logs := &logbuf.Buffer{}
	d, stop := fairTable(t, dir, logs)
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	rec := record(t, d.BrokerAddr(), "sztab/v1/v/t1/state")
	rec.wait(t, "sztab/v1/v/t1/state", `"seq":1`)
	refAnswers := collectAnswers(t, d.BrokerAddr(), d.topics.RefereeEvents, "sedzia", "tajne")
	playerAnswers := collectAnswers(t, d.BrokerAddr(), d.topics.EventsFor(wire.Player(1)), "ania", "a1")
	path := filepath.Join(dir, "j.db")
	before := journalBytes(t, path)
	logsBefore := strings.Count(logs.String(), "\n")

	player := mqttClientAs(t, d.BrokerAddr(), "ania", "a1")
	referee := mqttClientAs(t, d.BrokerAddr(), "sedzia", "tajne")
	const flood = 20000
	flooded := make(chan paho.Token, 1)
	go func() {
		var last paho.Token
		for i := range flood {
			payload := fmt.Sprintf(`{"name":"nxt","id":"p-%d"}`, i)
			if viaBroker {
				last = player.Publish(d.topics.PlayerCommand(1), 0, false, payload)
			} else {
				d.receiveCommand(Message{Topic: d.topics.PlayerCommand(1), Payload: []byte(payload)})
				if i%(flood/20) == flood/40 {
					// The referee's, delivered in the midst of the flood.
					d.receiveCommand(Message{Topic: d.topics.RefereeCommand, Payload: fmt.Appendf(nil, `{"name":"1","id":"r-%d"}`, i/(flood/20))})
				}
			}
		}
		if last == nil {
			last = player.Publish(d.topics.PlayerCommand(1), 0, false, "last") // the flood is in
		}
		flooded <- last
	}()
	// Through the broker, the referee starts once the flood is under way.
	eventually(t, "the flood to reach the table", func() bool { return playerAnswers.all > 0 })
	for i := range 20 {
		if !viaBroker {
			break // sent in the midst of the flood
		}
		tok := referee.Publish(d.topics.RefereeCommand, 1, false, fmt.Sprintf(`{"name":"1","id":"r-%d"}`, i))
		if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("the referee's command r-%d not sent: %v", i, tok.Error())
		}
	}
	if tok := <-flooded; !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("the flood's last command not sent: %v", tok.Error())
	}
	eventually(t, "the referee's 20 answers", func() bool {
		for i := range 20 {
			if len(refAnswers.of(fmt.Sprint("r-", i))) == 0 {
				return false
			}
		}
		return true
	})
	for i := range 20 {
		for _, res := range refAnswers.of(fmt.Sprint("r-", i)) {
			if !res.OK {
				t.Errorf("the referee's r-%d: refused %s (%s), want carried out", i, res.Code, res.Text.EN)
			}
		}
	}
	rec.wait(t, "sztab/v1/v/t1/state", `"total":20}`)

	playerAnswers.mu.Lock()
	told, slowDowns := playerAnswers.all, 0
	for _, rs := range playerAnswers.got {
		for _, r := range rs {
			if r.Code == "slow_down" {
				slowDowns++
			}
		}
	}
	playerAnswers.mu.Unlock()
	if slowDowns == 0 {
		t.Error("the flooding player was never told to slow down")
	}
	// The recorded refusals (10), and one "slow down" a second at most
	// besides: the flood lasts a few seconds (60 leaves room for a slow
	// machine).
	if told > 60 {
		t.Errorf("the flooding player got %d answers for %d commands, want a bounded few", told, flood)
	}
	stop()
	stopped = true

	lines := strings.Count(logs.String(), "\n") - logsBefore
	if refused := strings.Count(logs.String(), "command refused"); refused > defaultCommandLimits.recorded {
		t.Errorf("%d refused commands logged one by one, want at most %d", refused, defaultCommandLimits.recorded)
	}
	if lines > 40 {
		t.Errorf("the flood wrote %d log lines, want at most 40:\n%s", lines, tail(logs.String(), 40))
	}
	n := journalCount(t, path, "command_rejected", "commands_not_recorded", `"type":"add"`)
	if n["command_rejected"] > defaultCommandLimits.recorded {
		t.Errorf("%d refused commands journaled, want at most %d", n["command_rejected"], defaultCommandLimits.recorded)
	}
	// The opening, the referee's 20, the recorded refusals and a count or
	// two of the rest.
	if want := 1 + 20 + defaultCommandLimits.recorded + 2; n["all"] > want {
		t.Errorf("the journal holds %d entries, want at most %d", n["all"], want)
	}
	if n["commands_not_recorded"] < 1 {
		t.Error("the refusals past the allowance were not counted in the journal")
	}
	const bound = 512 << 10
	if grown := journalBytes(t, path) - before; grown > bound {
		t.Errorf("the flood grew the journal by %d bytes, want at most %d", grown, bound)
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// Command ids are each sender's own: a player's "r-17" sent first does not
// make the referee's "r-17" a repeat; each is carried out and each sender
// gets its own answer. A repeat from the same sender is still one.
func TestCommandIDsArePerSender(t *testing.T) {
	d, stop := fairTable(t, t.TempDir(), io.Discard)
	defer stop()
	rec := record(t, d.BrokerAddr(), "sztab/v1/v/t1/state")
	rec.wait(t, "sztab/v1/v/t1/state", `"seq":1`)
	refAnswers := collectAnswers(t, d.BrokerAddr(), d.topics.RefereeEvents, "sedzia", "tajne")
	playerAnswers := collectAnswers(t, d.BrokerAddr(), d.topics.EventsFor(wire.Player(1)), "ania", "a1")
	player := mqttClientAs(t, d.BrokerAddr(), "ania", "a1")
	referee := mqttClientAs(t, d.BrokerAddr(), "sedzia", "tajne")
	send := func(c paho.Client, topic, payload string) {
		t.Helper()
		if tok := c.Publish(topic, 1, false, payload); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("publish %s: %v", payload, tok.Error())
		}
	}
	send(player, d.topics.PlayerCommand(1), `{"name":"2","id":"r-17"}`)
	eventually(t, "the player's answer", func() bool { return len(playerAnswers.of("r-17")) > 0 })
	send(referee, d.topics.RefereeCommand, `{"name":"3","id":"r-17"}`)
	eventually(t, "the referee's answer", func() bool { return len(refAnswers.of("r-17")) > 0 })
	rec.wait(t, "sztab/v1/v/t1/state", `"total":5}`)
	if got := playerAnswers.of("r-17"); len(got) != 1 || !got[0].OK || got[0].Name != "2" || got[0].From != "player/1" {
		t.Errorf("the player's r-17: got %+v, want one answer, carried out, for her \"2\"", got)
	}
	ref := refAnswers.of("r-17")
	if len(ref) != 1 || !ref[0].OK || ref[0].Name != "3" || ref[0].From != "referee" {
		t.Fatalf("the referee's r-17: got %+v, want one answer, carried out, for his \"3\"", ref)
	}
	if p := playerAnswers.of("r-17"); len(p) == 1 && ref[0].Seq == p[0].Seq {
		t.Errorf("both r-17s answered with seq %d: one was taken for a repeat of the other", ref[0].Seq)
	}
	// The referee's r-17 again is his repeat: answered again, not carried out.
	send(referee, d.topics.RefereeCommand, `{"name":"3","id":"r-17"}`)
	send(referee, d.topics.RefereeCommand, `{"name":"1","id":"r-18"}`)
	// Commands are handled in order: once r-18 is answered, so is the repeat.
	eventually(t, "the referee's r-18 answered", func() bool { return len(refAnswers.of("r-18")) > 0 })
	if n := len(refAnswers.of("r-17")); n != 2 {
		t.Errorf("the referee's repeated r-17: %d answers in all, want 2", n)
	}
	if st := rec.wait(t, "sztab/v1/v/t1/state", `"count":3,`); !strings.Contains(st, `"total":6}`) {
		t.Errorf("after the referee's repeat and r-18: %s, want a total of 6 (the repeat carried out once)", st)
	}
}

// queueClock is a clock for the command queue's tests.
func queueClock() *testclock.Clock {
	return testclock.New(time.Date(2026, 8, 1, 18, 0, 0, 0, time.UTC))
}

// The referee's commands go first; then each player's in turn, one each,
// whoever sent more.
func TestCommandQueueServesTheRefereeFirstThenEachInTurn(t *testing.T) {
	q := newCommandQueue(defaultCommandLimits, queueClock().Now)
	push := func(to wire.Audience, label string) {
		t.Helper()
		if v := q.push(to, queuedCommand{msg: &Message{Topic: label}}, receiptRefusal{}); v.code != "" {
			t.Fatalf("%s refused %s", label, v.code)
		}
	}
	for i := range 3 {
		push(wire.Player(1), fmt.Sprint("p1-", i))
	}
	push(wire.Player(2), "p2-0")
	push(wire.Player(2), "p2-1")
	push(wire.Referee, "r-0")
	push(wire.Referee, "r-1")
	var got []string
	for range 10 {
		c, ok := q.pop()
		if !ok {
			break
		}
		got = append(got, c.msg.Topic)
		if len(got) == 3 {
			push(wire.Referee, "r-2") // the referee's next goes before the players' rest
		}
	}
	want := "r-0 r-1 p1-0 r-2 p2-0 p1-1 p2-1 p1-2"
	if strings.Join(got, " ") != want {
		t.Errorf("served %q, want %q", strings.Join(got, " "), want)
	}
	if q.Waiting() != 0 {
		t.Errorf("%d still waiting", q.Waiting())
	}
}

// A sender over its rate is refused "slow_down"; the refusals are recorded
// (queued for the journal and the log) up to the allowance per window, then
// only counted, and the sender is still told, once a second at most; the
// window's count is queued for the journal when it ends. The referee's
// rate is the referee's own.
func TestCommandQueueBoundsRefusals(t *testing.T) {
	clock := queueClock()
	l := defaultCommandLimits
	q := newCommandQueue(l, clock.Now)
	p := wire.Player(1)
	codes := map[string]int{}
	answers := 0
	for range 1000 {
		v := q.push(p, queuedCommand{msg: &Message{}}, receiptRefusal{})
		codes[v.code]++
		if v.answer {
			answers++
		}
	}
	if codes[""] != l.burst || codes["slow_down"] != 1000-l.burst {
		t.Errorf("1000 commands at once: %v, want %d queued and the rest slow_down", codes, l.burst)
	}
	if answers != 0 {
		t.Errorf("%d unrecorded refusals answered within the same second, want 0 (the recorded ones were)", answers)
	}
	kinds := func() (cmds, refusals, unrec int, counted int) {
		for {
			c, ok := q.pop()
			if !ok {
				return
			}
			switch {
			case c.msg != nil:
				cmds++
			case c.refusal != nil:
				refusals++
			case c.unrec != nil:
				unrec++
				counted += c.unrec.total
			}
		}
	}
	if cmds, refusals, unrec, _ := kinds(); cmds != l.burst || refusals != l.recorded || unrec != 0 {
		t.Errorf("queued %d commands, %d refusals to record, %d counts; want %d, %d, 0", cmds, refusals, unrec, l.burst, l.recorded)
	}
	clock.Add(l.every / 2)
	if v := q.push(p, queuedCommand{msg: &Message{}}, receiptRefusal{}); v.code != "slow_down" || v.answer {
		t.Errorf("half a period later: %+v, want slow_down, not answered", v)
	}
	clock.Add(l.slowDownEvery)
	var v verdict
	for range 100 { // the tokens of a second, then one over the rate
		if v = q.push(p, queuedCommand{msg: &Message{}}, receiptRefusal{}); v.code != "" {
			break
		}
	}
	if v.code != "slow_down" || !v.answer {
		t.Errorf("a second later, over the rate: %+v, want slow_down, answered", v)
	}
	// The referee is not slowed by the player.
	for i := range l.refereeBurst {
		if v := q.push(wire.Referee, queuedCommand{msg: &Message{}}, receiptRefusal{}); v.code != "" {
			t.Fatalf("the referee's command %d refused %s while a player flooded", i, v.code)
		}
	}
	q.flush()
	if _, _, unrec, _ := kinds(); unrec != 0 {
		t.Error("a count queued before the window ended")
	}
	clock.Add(l.window)
	q.flush()
	_, _, unrec, counted := kinds()
	if want := 1000 - l.burst - l.recorded + 2; unrec != 1 || counted != want {
		t.Errorf("after the window: %d counts of %d refusals, want 1 of %d", unrec, counted, want)
	}
}
