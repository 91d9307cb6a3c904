package venue

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/logbuf"
	"github.com/sztab/sztab/internal/tabletest"
)

// startMosquitto runs a Mosquitto for the test on a free loopback port and
// returns its address. A missing Mosquitto fails the test (`make test`
// installs it).
func startMosquitto(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		bin = "/usr/sbin/mosquitto"
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatal("mosquitto is not installed; `make test` installs it (apt-get install mosquitto)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(addr)
	conf := filepath.Join(t.TempDir(), "mosquitto.conf")
	user := ""
	if os.Geteuid() == 0 {
		user = "user root\n"
	}
	os.WriteFile(conf, []byte(fmt.Sprintf("listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n%s", port, user)), 0o644)
	cmd := exec.Command(bin, "-c", conf)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for range 100 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("mosquitto did not start on %s: %s", addr, out.String())
	return ""
}

// startTable runs a real demo table daemon (the skirmish) as table id on
// the broker, with its screens on a free port.
func startTable(t *testing.T, broker, id string) *tabletest.Running {
	t.Helper()
	cfg := tabletest.DemoConfig(t, t.TempDir(), "skirmish.yaml", false)
	text := strings.Replace(string(cfg.Raw()), "mqtt:\n  listen: \"127.0.0.1:0\"\n", "mqtt:\n  broker: \"tcp://"+broker+"\"\n", 1)
	text = strings.Replace(text, "table: stol-1", "table: "+id, 1)
	c, err := companion.ParseConfig(cfg.Path(), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if c.MQTT.Broker == "" {
		t.Fatalf("the demo config did not take the broker:\n%s", text)
	}
	return tabletest.Start(t, c, skirmishgame.Spec)
}

// tableKey is a table's key pair, as `sztab keygen` makes it.
type tableKey struct {
	priv ed25519.PrivateKey
	pub  ed25519.PublicKey
}

func newKey(t testing.TB) tableKey {
	t.Helper()
	privPEM, pubPEM, err := record.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	priv, err := record.ParsePrivateKey(privPEM)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := record.ParsePublicKey(pubPEM)
	if err != nil {
		t.Fatal(err)
	}
	return tableKey{priv, pub}
}

// resultMessage is a table's signed result: seat 1 and 2's outcomes and
// scores, as the table publishes it once its game is over.
func resultMessage(k tableKey, venue, table string, seats ...record.Seat) []byte {
	return signedResult(k, record.Statement{Identity: record.Identity{Venue: venue, Table: table, Game: "skirmish"}, FinalSeq: 42,
		FinalHash: strings.Repeat("ab", 32), Finished: true, Result: record.Text{PL: "koniec", EN: "over"}, Seats: seats})
}

// sampleResult is resultMessage of a game played on sample data (a v5
// statement, sample_data: true, as a table on the shipped assumed data
// signs it).
func sampleResult(k tableKey, venue, table string, seats ...record.Seat) []byte {
	return signedResult(k, record.Statement{Identity: record.Identity{Venue: venue, Table: table, Game: "skirmish"}, FinalSeq: 42,
		FinalHash: strings.Repeat("ab", 32), Finished: true, Result: record.Text{PL: "koniec", EN: "over"}, Seats: seats, SampleData: true})
}

// signedResult is the result message of s signed with k.
func signedResult(k tableKey, s record.Statement) []byte {
	m := wire.ResultMessage{Statement: string(s.Marshal()), Signature: string(record.Sign(s, k.priv)), Key: record.Fingerprint(k.pub)}
	b, _ := json.Marshal(m)
	return b
}

func win(seat, score int) record.Seat {
	return record.Seat{Seat: seat, Outcome: record.Win, Score: score}
}
func loss(seat, score int) record.Seat {
	return record.Seat{Seat: seat, Outcome: record.Loss, Score: score}
}
func draw(seat, score int) record.Seat {
	return record.Seat{Seat: seat, Outcome: record.Draw, Score: score}
}

// publisher is an MQTT client publishing as the tables' result side would.
func publisher(t *testing.T, broker string) func(topic string, payload []byte) {
	t.Helper()
	c := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + broker).SetClientID(fmt.Sprint("test-pub-", time.Now().UnixNano())))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(100) })
	return func(topic string, payload []byte) {
		if tok := c.Publish(topic, 1, true, payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("publish %s: %v", topic, tok.Error())
		}
	}
}

// testVenue is a venue running for a test, with its fake tournament.
type testVenue struct {
	v    *Venue
	tour *fakeTournament
	base string
	keys map[string]tableKey
	logs *logBuffer
}

// logBuffer keeps what the venue logged.
type logBuffer = logbuf.Buffer

const (
	organiser = "orga"
	orgPass   = "tajne-haslo"
)

// startVenue runs a venue on broker for venue "demo": four players, tables
// stol-1 and stol-2 with their keys.
func startVenue(t *testing.T, broker string) *testVenue {
	t.Helper()
	return startVenueWith(t, broker, nil)
}

// startVenueWith is startVenue with options changed by change.
func startVenueWith(t *testing.T, broker string, change func(*Options)) *testVenue {
	t.Helper()
	keys := map[string]tableKey{"stol-1": newKey(t), "stol-2": newKey(t)}
	tour := &fakeTournament{name: "Turniej testowy", venue: "demo", game: "skirmish", rounds: 3,
		players: []string{"Ania", "Bartek", "Celina", "Darek"}, tables: []string{"stol-1", "stol-2"},
		keys: map[string]ed25519.PublicKey{"stol-1": keys["stol-1"].pub, "stol-2": keys["stol-2"].pub}, now: time.Now}
	logs := &logBuffer{}
	o := Options{Hub: hub.Options{Broker: "tcp://" + broker, Venue: "demo", Listen: "127.0.0.1:0",
		Log: slog.New(slog.NewTextHandler(io.MultiWriter(logs), nil)), Heartbeat: 300 * time.Millisecond, ConflictGrace: 500 * time.Millisecond},
		Tournament: tour, Organiser: display.Credential{User: organiser, Password: orgPass}}
	if change != nil {
		change(&o)
	}
	v, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- v.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return &testVenue{v: v, tour: tour, base: "http://" + v.Addr(), keys: keys, logs: logs}
}

// client is an organiser's browser-like HTTP client: signed in, cookies
// kept, redirects not followed.
func (tv *testVenue) client(t *testing.T) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 10 * time.Second}
	resp, err := c.PostForm(tv.base+"/login", url.Values{"user": {organiser}, "password": {orgPass}, "next": {"/organiser"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/organiser" {
		t.Fatalf("sign-in: %s to %q", resp.Status, resp.Header.Get("Location"))
	}
	return c
}

// post sends a form and returns the status and the page it led to.
func post(t *testing.T, c *http.Client, u string, form url.Values) (int, string) {
	t.Helper()
	resp, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// until waits (10 s at most) for cond.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("never: %s", what)
}

// points are the standings as "name=points" in rank order.
func points(v View) string {
	var parts []string
	for _, s := range v.Standings {
		parts = append(parts, fmt.Sprintf("%s=%g", s.Player, s.Points))
	}
	return strings.Join(parts, " ")
}
