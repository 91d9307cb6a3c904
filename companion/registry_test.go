package companion

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
)

// tallyTable is a table playing the test-only game, with screens, a
// referee and two players.
func tallyTable(t *testing.T, dir string) (*Daemon, func()) {
	t.Helper()
	return serveTally(t, dir, `mqtt:
  listen: 127.0.0.1:0
display:
  listen: 127.0.0.1:0
  referee: {user: sedzia, password: tajne}
  players:
    - {seat: 1, user: ania, password: a1}
    - {seat: 2, user: bartek, password: b2}
`, Options{})
}

// result finds the answer to the command with id among a topic's messages.
func (r *recorder) result(t *testing.T, topic, id string) wire.CommandResult {
	t.Helper()
	msg := r.wait(t, topic, `"id":"`+id+`"`)
	var em struct {
		Event wire.CommandResult `json:"event"`
	}
	if err := json.Unmarshal([]byte(msg), &em); err != nil || em.Event.Type != wire.ResultType {
		t.Fatalf("answer to %s: %s (%v)", id, msg, err)
	}
	return em.Event
}

// The proof that a game is a package added through the registry: a game
// the daemon has never heard of (tally, registered only by these tests)
// runs end to end — journal, restart, MQTT, screens, commands from every
// sender with their answers.
func TestAGameAddedThroughTheRegistryRunsEndToEnd(t *testing.T) {
	dir := t.TempDir()
	d, stop := tallyTable(t, dir)
	topics := wire.TopicsFor("v", "t1")
	spectator := record(t, d.BrokerAddr(), "sztab/#")
	referee := record(t, d.BrokerAddr(), "sztab/#", "sedzia", "tajne")
	ania := record(t, d.BrokerAddr(), "sztab/#", "ania", "a1")
	spectator.wait(t, topics.State, `"seq":1`)
	status := spectator.wait(t, topics.Status, `"online"`)
	if !strings.Contains(status, `"name":"next"`) || !strings.Contains(status, `"game":"tally"`) {
		t.Errorf("status lacks the game's commands: %s", status)
	}

	// The referee over MQTT: answered on referee/events, taken once.
	send := func(user, pass, topic, payload string) {
		t.Helper()
		c := mqttTestClient(t, d.BrokerAddr(), user, pass)
		if tok := c.Publish(topic, 1, false, payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("publish %s: %v", topic, tok.Error())
		}
	}
	send("sedzia", "tajne", topics.RefereeCommand, `{"name":"3","id":"r-1"}`)
	if res := referee.result(t, topics.RefereeEvents, "r-1"); !res.OK || res.Seq != 2 || res.Name != "3" {
		t.Errorf("answer to r-1: %+v, want taken as seq 2", res)
	}
	send("sedzia", "tajne", topics.RefereeCommand, `{"name":"3","id":"r-1"}`)
	spectator.wait(t, topics.State, `"total":3`)
	// A player for their seat, over MQTT: answered on their own events.
	send("ania", "a1", topics.PlayerCommand(1), `{"name":"4","id":"p-1"}`)
	if res := ania.result(t, topics.EventsFor(wire.Player(1)), "p-1"); !res.OK || res.Seq != 3 {
		t.Errorf("answer to p-1: %+v, want taken as seq 3", res)
	}
	spectator.wait(t, topics.State, `"total":7`)
	// Bartek may not send Ania's commands: the broker drops them.
	send("bartek", "b2", topics.PlayerCommand(1), `{"name":"6","id":"b-1"}`)
	// A garbled command is answered, refused, with what to send.
	send("sedzia", "tajne", topics.RefereeCommand, `{"name":"shuffle","id":"r-2"}`)
	if res := referee.result(t, topics.RefereeEvents, "r-2"); res.OK || res.Code != "garbled" || !strings.Contains(res.Text.EN, "want next, roll, 1, 2") {
		t.Errorf("answer to a garbled command: %+v", res)
	}
	// The table's own key: answered publicly.
	d.inputs <- Input{Key: &hardware.KeyEvent{Keypad: "kp", Key: "2"}, From: Sender{Kind: wire.Keys, Audience: wire.Public}}
	spectator.wait(t, topics.Events, `"from":"kp"`)
	spectator.wait(t, topics.State, `"total":9`)

	// The referee's page: a command refused by the game is answered on the
	// page's own stream.
	jar := signIn(t, d.DisplayAddr(), "sedzia", "tajne")
	stream := openStream(t, jar, d.DisplayAddr(), "referee")
	postCommand(t, jar, d.DisplayAddr(), `{"name":"next","id":"page-1"}`)
	got := stream.until(t, `"id":"page-1"`)
	if !strings.Contains(got, `"ok":false`) || !strings.Contains(got, `"code":"nothing_next"`) {
		t.Errorf("the page's answer: %s", got)
	}
	// A player's page sends for their seat.
	pjar := signIn(t, d.DisplayAddr(), "ania", "a1")
	pstream := openStream(t, pjar, d.DisplayAddr(), "player/1")
	postCommand(t, pjar, d.DisplayAddr(), `{"name":"1","id":"page-2"}`)
	if got := pstream.until(t, `"id":"page-2"`); !strings.Contains(got, `"ok":true`) {
		t.Errorf("the player's page's answer: %s", got)
	}
	spectator.wait(t, topics.State, `"total":10`)
	if spectator.all(topics.Events)+spectator.all(topics.State) == "" || strings.Contains(spectator.all(topics.Events), "p-1") ||
		strings.Contains(spectator.all(topics.Events), "r-1") {
		t.Error("a spectator saw a referee's or a player's answer")
	}
	if strings.Contains(spectator.all(topics.State), `"total":16`) {
		t.Error("Bartek's command for Ania's seat was carried out")
	}
	summary := spectator.wait(t, topics.State, `"summary"`)
	if !strings.Contains(summary, "total 10 of 4 dice") {
		t.Errorf("the state's summary: %s", summary)
	}
	seq := d.Seq()
	stop()

	// Restart on the same journal: the same state, the same seq.
	d2, stop2 := tallyTable(t, dir)
	defer stop2()
	if d2.Seq() != seq || d2.Game().View(Public).(map[string]int)["total"] != 10 {
		t.Errorf("after restart: seq %d (want %d), view %v", d2.Seq(), seq, d2.Game().View(Public))
	}
	late := record(t, d2.BrokerAddr(), "sztab/#")
	late.wait(t, topics.State, `"total":10`)
}

func mqttTestClient(t *testing.T, addr, user, pass string) paho.Client {
	t.Helper()
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("%s-%d", user, time.Now().UnixNano())).
		SetUsername(user).SetPassword(pass)
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect as %q: %v", user, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return c
}

// signIn signs in on the screens and returns the cookie jar.
func signIn(t *testing.T, addr, user, pass string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.PostForm("http://"+addr+"/login", url.Values{"user": {user}, "password": {pass}, "next": {"/"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(c.Jar.Cookies(&url.URL{Scheme: "http", Host: addr})) == 0 {
		t.Fatalf("sign in as %s: %s", user, resp.Status)
	}
	return c
}

func postCommand(t *testing.T, c *http.Client, addr, body string) {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://"+addr+"/command", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("command %s: %s", body, resp.Status)
	}
}

type sse struct{ lines chan string }

// openStream follows a page's event stream.
func openStream(t *testing.T, c *http.Client, addr, view string) *sse {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+addr+"/stream?view="+url.QueryEscape(view), nil)
	resp, err := c.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("stream %s: %v %v", view, err, resp)
	}
	s := &sse{lines: make(chan string, 1024)}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			select {
			case s.lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	return s
}

func (s *sse) until(t *testing.T, substr string) string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l := <-s.lines:
			if strings.Contains(l, substr) {
				return l
			}
		case <-timeout:
			t.Fatalf("the stream never carried %s", substr)
			return ""
		}
	}
}

// Virtual dice are seeded from the system's secure source at every start,
// unless the config fixes the seed: two tables (or one table started
// twice) do not roll the same, and the journal keeps each seed for the
// referee, never publishing it.
func TestVirtualDiceAreSeededSecurelyAndTheSeedJournaled(t *testing.T) {
	rolls := func(dir string) (string, []uint64) {
		d, stop := tallyTable(t, dir)
		rec := record(t, d.BrokerAddr(), "sztab/#")
		for range 12 {
			d.inputs <- Input{Key: &hardware.KeyEvent{Keypad: "kp", Key: "roll"}, From: Sender{Kind: wire.Keys, Audience: wire.Public}}
		}
		rec.wait(t, wire.TopicsFor("v", "t1").State, `"count":12`)
		all := rec.all(wire.TopicsFor("v", "t1").Events)
		seeds, err := d.table.journal.Seeds(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(seeds) == 0 || strings.Contains(all, fmt.Sprint(seeds[len(seeds)-1])) {
			t.Errorf("seeds %v: none journaled, or one published", seeds)
		}
		var totals []string
		for _, l := range strings.Split(all, "\n") {
			if i := strings.Index(l, `"total `); i >= 0 {
				totals = append(totals, l[i:i+12])
			}
		}
		stop()
		return strings.Join(totals, ","), seeds
	}
	a, seedsA := rolls(t.TempDir())
	b, seedsB := rolls(t.TempDir())
	if a == b || seedsA[0] == seedsB[0] {
		t.Errorf("two tables rolled the same: %s (seeds %v, %v)", a, seedsA, seedsB)
	}
	dir := t.TempDir()
	rolls(dir)
	_, seeds := rolls(dir)
	if len(seeds) != 2 || seeds[0] == seeds[1] {
		t.Errorf("a restart's seeds %v, want two different", seeds)
	}
}
