package watch

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/logbuf"
	"github.com/sztab/sztab/internal/wait"
	"github.com/sztab/sztab/rules"
)

// state is a table's view as the daemon sends it: the watch shows its
// headline and summary lines, whatever the game; it never reads "state".
const state = `{"seq":21,"venue":"demo","table":"stol-1","game":"any-game","headline":{"pl":"runda 1 · strzał","en":"round 1 · shooting"},
"summary":[{"pl":"runda 1 · strzał","en":"round 1 · shooting"},{"pl":"Armia Krajowa: 1 model","en":"Armia Krajowa: 1 model"},
{"pl":"⚠ ROZSTRZYGNIJ: czy cel jest w zasięgu?","en":"⚠ RULE: is the target in range?"}],
"state":{"units":[{"name":"a game's own JSON the watch does not walk"}]}}`

// status carries the game's commands: the watch's keys come from them.
const status = `{"status":"online","game":"any-game","venue":"demo","table":"stol-1","commands":[
{"name":"next","label":{"pl":"Dalej","en":"Next phase"},"from":["keys","player","referee"],"watch":"n"},
{"name":"undo","label":{"pl":"Cofnij","en":"Undo"},"from":["referee"],"watch":"u"},
{"name":"roll","label":{"pl":"Rzuć","en":"Roll"},"from":["player"],"watch":"r"},
{"name":"answer","label":{"pl":"Odpowiedz","en":"Answer the call"},"from":["referee"],"args":["seat?"],"text":true}]}`

func TestRender(t *testing.T) {
	s := NewScreen("en")
	for _, m := range []struct{ topic, payload string }{
		{"status", status},
		{"state", state},
		{"events", `{"seq":20,"event":{"type":"stage_resolved","text":{"pl":"obrona","en":"saves on 4+"}}}`},
		{"events", `{"seq":21,"event":{"type":"rejected","text":{"pl":"kość 7","en":"a die showing 7"}}}`},
		{"nonsense", `{}`},
		{"state", `not json`},
	} {
		s.Apply(m.topic, []byte(m.payload))
	}
	got := s.Render()
	for _, want := range []string{
		"Sztab · demo / stol-1 · any-game · ONLINE · seq 21",
		"round 1 · shooting",
		"  Armia Krajowa: 1 model",
		"  ⚠ RULE: is the target in range?",
		"#21 a die showing 7  ◀",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("render lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "round 1 · shooting") != 1 {
		t.Errorf("the headline is repeated as a summary line:\n%s", got)
	}
	if strings.Contains(got, "does not walk") {
		t.Errorf("the watch walked the game's own JSON:\n%s", got)
	}
	if strings.Index(got, "#21") > strings.Index(got, "#20") {
		t.Errorf("events not newest first:\n%s", got)
	}
}

// TestAttentionFromTheContract: the watch marks an event by the contract's
// notice types and by the game's own types the table's status declares,
// never by a type it knows itself: the same game event is marked only
// when the status declares it.
func TestAttentionFromTheContract(t *testing.T) {
	for _, c := range []struct {
		name, status, event string
		marked              bool
	}{
		{"contract notice", `{"status":"online"}`, string(wire.NoticeDieSuspect), true},
		{"contract notice, no attention", `{"status":"online"}`, string(wire.NoticeTagIgnored), false},
		{"game's type, declared", `{"status":"online","attention":["too_close_to_call"]}`, "too_close_to_call", true},
		{"game's type, not declared", `{"status":"online"}`, "too_close_to_call", false},
		{"another game's type", `{"status":"online","attention":["too_close_to_call"]}`, "stage_resolved", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewScreen("en")
			s.Apply("status", []byte(c.status))
			s.Apply("events", []byte(`{"seq":5,"event":{"type":"`+c.event+`","text":{"pl":"x","en":"the event"}}}`))
			got := strings.Contains(s.Render(), "#5 the event  ◀")
			if got != c.marked {
				t.Errorf("event %q marked %v, want %v:\n%s", c.event, got, c.marked, s.Render())
			}
		})
	}
}

type syncBuffer = logbuf.Buffer

// waitForOutput waits until the watch has written want.
func waitForOutput(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(out.String(), want) {
			return
		}
	}
	t.Fatalf("the watch never showed %q:\n%s", want, out.String())
}

func TestRunFollowsATableOnABroker(t *testing.T) {
	daemon := display.Credential{User: "d", Password: "p"}
	b, err := companion.StartBroker("127.0.0.1:0", companion.BrokerUsers{Daemon: daemon}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pub := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + b.Addr()).SetUsername("d").SetPassword("p").SetClientID("pub"))
	if tok := pub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	pub.Publish("sztab/v1/demo/stol-1/status", 1, true, status).Wait()
	pub.Publish("sztab/v1/demo/stol-1/state", 1, true, state).Wait()
	pub.Publish("sztab/v1/demo/stol-9/state", 1, true, `{"seq":99,"state":{}}`).Wait()

	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, Options{Broker: "tcp://" + b.Addr(), Table: "stol-1", Lang: "pl", Out: out}) }()
	waitFor := func(want string) { t.Helper(); waitForOutput(t, out, want) }
	waitFor("runda 1 · strzał")
	pub.Publish("sztab/v1/demo/stol-1/events", 1, false, `{"seq":22,"event":{"type":"phase","text":{"pl":"Bartek: faza ruchu","en":"Bartek: movement"}}}`).Wait()
	waitFor("#22 Bartek: faza ruchu")
	if strings.Contains(out.String(), "seq 99") {
		t.Error("the watch showed another table")
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
	if err := Run(context.Background(), Options{Broker: "tcp://x", Table: "a/b"}); err == nil {
		t.Error("a table id with a slash was accepted")
	}
}

// A referee with a laptop rules from the watch: typed keys go to the table's
// command topic through the broker once the referee's view is seen, and the
// watch says what became of each.
func TestRunSendsTheRefereesKeys(t *testing.T) {
	const base = "sztab/v1/demo/stol-1/"
	daemon := display.Credential{User: "d", Password: "p"}
	referee := display.Credential{User: "sedzia", Password: "tajne"}
	b, err := companion.StartBroker("127.0.0.1:0", companion.BrokerUsers{Daemon: daemon, Referee: referee, Topics: wire.TopicsFor("demo", "stol-1")}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	table := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + b.Addr()).SetUsername("d").SetPassword("p").SetClientID("table"))
	if tok := table.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	got := make(chan string, 4)
	table.Subscribe(base+"referee/command", 1, func(_ paho.Client, m paho.Message) { got <- string(m.Payload()) }).Wait()
	table.Publish(base+"status", 1, true, status).Wait()

	keys, typing := io.Pipe()
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Broker: "tcp://" + b.Addr(), Table: "stol-1", Lang: "en", Out: out,
			Username: "sedzia", Password: "tajne", Commands: keys})
	}()
	waitFor := func(want string) { t.Helper(); waitForOutput(t, out, want) }
	received := func(want string) wire.Command {
		t.Helper()
		select {
		case p := <-got:
			var c wire.Command
			if json.Unmarshal([]byte(p), &c) != nil || !strings.Contains(p, want) || !strings.HasPrefix(c.ID, "sztab-watch-stol-1-") {
				t.Errorf("the table received %s, want %s with an id", p, want)
			}
			return c
		case <-time.After(10 * time.Second):
			t.Fatalf("the table never received %s:\n%s", want, out.String())
		}
		return wire.Command{}
	}
	answer := func(c wire.Command, ok bool, seq int64, text string) {
		t.Helper()
		res, _ := json.Marshal(wire.EventMessage{ID: "r1", Seq: seq, Event: wire.CommandResult{Type: wire.ResultType, ID: c.ID, Name: c.Name, OK: ok, Seq: seq, Text: rules.Text{PL: text, EN: text}}})
		table.Publish(base+"referee/events", 1, false, res).Wait()
	}
	waitFor("ONLINE")
	waitFor("n Next phase · u Undo") // the referee's keys, from the game's commands
	if strings.Contains(out.String(), "r Roll") {
		t.Error("the watch offers the referee a player's command")
	}
	// No referee's view yet: the keys are not sent.
	io.WriteString(typing, "n\n")
	waitFor("only the referee rules")
	table.Publish(base+"referee/state", 1, true, `{"seq":5,"state":{}}`).Wait()
	waitFor("seq 5")
	io.WriteString(typing, "7\n")
	waitFor(`unknown key "7"`)
	io.WriteString(typing, "r\n")
	waitFor(`unknown key "r"`)
	io.WriteString(typing, "n\n")
	next := received(`"name":"next"`)
	// Another sender's answer is not this one's.
	answer(wire.Command{Name: "next", ID: "someone-else"}, true, 9, "")
	answer(next, true, 6, "")
	waitFor("the table took next (seq 6)")
	if strings.Contains(out.String(), "seq 9)") {
		t.Error("the watch took another sender's answer for its own")
	}
	// The answer to a referee call is typed with its text.
	io.WriteString(typing, "answer it is legal, play on\n")
	if c := received(`"name":"answer"`); c.Text != "it is legal, play on" {
		t.Errorf("the answer's text: %q", c.Text)
	}
	io.WriteString(typing, "u\n")
	undo := received(`"name":"undo"`)
	answer(undo, false, 6, "nothing to undo")
	waitFor("the table refused undo: nothing to undo")
	select {
	case p := <-got:
		t.Errorf("a refused or unknown key reached the table: %s", p)
	default:
	}
	typing.Close()
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}

// A watch that only waits never says why: an unreachable broker, a refused
// login and a wrong table id each say so, in both languages, and a refused
// login shows no referee's keys.
func TestRunSaysWhyItWaits(t *testing.T) {
	daemon := display.Credential{User: "d", Password: "p"}
	referee := display.Credential{User: "sedzia", Password: "tajne"}
	b, err := companion.StartBroker("127.0.0.1:0", companion.BrokerUsers{Daemon: daemon, Referee: referee, Topics: wire.TopicsFor("demo", "stol-1")}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pub := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + b.Addr()).SetUsername("d").SetPassword("p").SetClientID("pub"))
	if tok := pub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer pub.Disconnect(100)
	pub.Publish("sztab/v1/demo/stol-1/status", 1, true, status).Wait()
	// An address nothing listens on: taken, then let go.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "tcp://" + l.Addr().String()
	l.Close()
	live := "tcp://" + b.Addr()

	for _, c := range []struct {
		name, lang, broker, table, user, password string
		want                                      []string
	}{
		{"unreachable en", "en", dead, "stol-1", "", "", []string{"BROKER UNREACHABLE", "broker unreachable at " + dead}},
		{"unreachable pl", "pl", dead, "stol-1", "", "", []string{"BROKER NIEOSIĄGALNY", "broker nieosiągalny pod " + dead}},
		{"refused en", "en", live, "stol-1", "sedzia", "zle", []string{"LOGIN REFUSED", `login refused by the broker at ` + live + ` for user "sedzia"`}},
		{"refused pl", "pl", live, "stol-1", "sedzia", "zle", []string{"LOGOWANIE ODRZUCONE", `odrzucił logowanie użytkownika "sedzia"`}},
		{"no table en", "en", live, "stol-7", "", "", []string{"NO SUCH TABLE", `no such table: no status of table "stol-7" within 300ms`}},
		{"no table pl", "pl", live, "stol-7", "", "", []string{"NIE MA TAKIEGO STOŁU", `nie ma takiego stołu: brak statusu stołu "stol-7" w ciągu 300ms`}},
		{"found en", "en", live, "stol-1", "sedzia", "tajne", []string{"ONLINE", "Referee (a key, then Enter)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := &syncBuffer{}
			keys, typing := io.Pipe()
			defer typing.Close()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				done <- Run(ctx, Options{Broker: c.broker, Table: c.table, Lang: c.lang, Out: out, Clear: false,
					Username: c.user, Password: c.password, Commands: keys, NoStatusAfter: 300 * time.Millisecond})
			}()
			for _, w := range c.want {
				wait.Until(t, "the watch to show "+w, func() bool { return strings.Contains(out.String(), w) })
			}
			cancel()
			if err := <-done; err != nil {
				t.Error(err)
			}
			got := out.String()
			if strings.HasPrefix(c.name, "refused") && (strings.Contains(got, "Referee (a key") || strings.Contains(got, "Sędzia (klawisz")) {
				t.Errorf("a refused login shows the referee's keys:\n%s", got)
			}
		})
	}
}

// A finished game's table is online still; the watch says the game is
// over and its result (the headline names the winner) instead of ONLINE.
func TestRenderFinishedNamesTheResult(t *testing.T) {
	finished := `{"seq":40,"venue":"demo","table":"stol-1","game":"any-game","finished":true,
"headline":{"pl":"koniec gry: wygrywa Ania · Ania 9, Bartek 5","en":"game over: Ania wins · Ania 9, Bartek 5"},
"summary":[{"pl":"Ania 9","en":"Ania 9"}]}`
	for _, tc := range []struct{ lang, want, notWant string }{
		{"en", "Sztab · demo / stol-1 · any-game · FINISHED · game over: Ania wins · Ania 9, Bartek 5 · seq 40", "ONLINE"},
		{"pl", "Sztab · demo / stol-1 · any-game · KONIEC GRY · koniec gry: wygrywa Ania · Ania 9, Bartek 5 · seq 40", "ONLINE"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			s := NewScreen(tc.lang)
			s.Apply("status", []byte(status))
			s.Apply("state", []byte(finished))
			got := s.Render()
			if !strings.Contains(got, tc.want) || strings.Contains(got, tc.notWant) {
				t.Errorf("finished table renders as:\n%s\nwant %q, not %q", got, tc.want, tc.notWant)
			}
			if strings.Count(got, "Bartek 5") != 1 {
				t.Errorf("the result is repeated:\n%s", got)
			}
			// The next game at the table is not finished: ONLINE again.
			s.Apply("state", []byte(state))
			if got := s.Render(); !strings.Contains(got, "ONLINE") || strings.Contains(got, "Bartek 5") {
				t.Errorf("a game in progress after a finished one:\n%s", got)
			}
		})
	}
}
