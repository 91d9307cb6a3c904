package companion_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/companion/wire"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
	"github.com/sztab/sztab/rules/skirmish"
)

const topicBase = "sztab/v1/demo/stol-1/"

// demoConfig writes the demo table into dir with the MQTT section replaced
// and, unless script is true, without the simulated session.
func demoConfig(t testing.TB, dir, mqttSection string, script bool) *companion.Config {
	t.Helper()
	err := fs.WalkDir(firmwareconfig.Demo, "demo", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := firmwareconfig.Demo.ReadFile(p)
		return os.WriteFile(filepath.Join(dir, filepath.Base(p)), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "skirmish.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "mqtt:\n  listen: \"127.0.0.1:1884\"\n", mqttSection, 1)
	// The demo's screens section goes: tests that want screens bring their own.
	if i, j := strings.Index(text, "# The table's screens"), strings.Index(text, "measure:"); i >= 0 && j > i {
		text = text[:i] + text[j:]
	}
	if !script {
		text = strings.Replace(text, "hardware:\n  simulated: skirmish-demo.jsonl\n", "", 1)
	}
	cfg, err := companion.ParseConfig(filepath.Join(dir, "skirmish.yaml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// subscriber is a real MQTT client recording what the table publishes.
type subscriber struct {
	client paho.Client
	mu     sync.Mutex
	state  []wire.StateMessage
	raw    [][]byte
	events []wire.EventMessage
	status []wire.StatusMessage
}

// subscribe records the table's messages, anonymously or with a user and
// password.
func subscribe(t *testing.T, addr string, userPass ...string) *subscriber {
	t.Helper()
	s := &subscriber{}
	opts := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("test-%d", time.Now().UnixNano())).SetCleanSession(true)
	if len(userPass) == 2 {
		opts.SetUsername(userPass[0]).SetPassword(userPass[1])
	}
	s.client = paho.NewClient(opts)
	if tok := s.client.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscriber: connect %s: %v", addr, tok.Error())
	}
	tok := s.client.Subscribe(topicBase+"#", 1, func(_ paho.Client, m paho.Message) {
		s.mu.Lock()
		defer s.mu.Unlock()
		switch strings.TrimPrefix(m.Topic(), topicBase) {
		case "state":
			var sm wire.StateMessage
			if err := json.Unmarshal(m.Payload(), &sm); err != nil {
				t.Errorf("state payload: %v", err)
			}
			s.state = append(s.state, sm)
			s.raw = append(s.raw, append([]byte(nil), m.Payload()...))
		case "events":
			var em wire.EventMessage
			if err := json.Unmarshal(m.Payload(), &em); err != nil {
				t.Errorf("event payload: %v", err)
			}
			s.events = append(s.events, em)
		case "status":
			var st wire.StatusMessage
			json.Unmarshal(m.Payload(), &st)
			s.status = append(s.status, st)
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	t.Cleanup(func() { s.client.Disconnect(100) })
	return s
}

// waitFor polls until cond holds (checked under the lock) or fails the test.
func (s *subscriber) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		ok := cond()
		s.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

type running struct {
	d      *companion.Daemon
	cancel context.CancelFunc
	done   chan error
}

func open(t *testing.T, cfg *companion.Config) *companion.Daemon {
	t.Helper()
	d, err := companion.Open(context.Background(), cfg, companion.Options{
		Games: companion.Games{skirmishgame.Spec}, SimSpeed: 0,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func serve(d *companion.Daemon) *running {
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{d: d, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- d.Serve(ctx) }()
	return r
}

func (r *running) stop(t testing.TB) {
	t.Helper()
	r.cancel()
	if err := <-r.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if err := r.d.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func lastState(s *subscriber) (wire.StateMessage, skirmish.State) {
	m := s.state[len(s.state)-1]
	var st skirmish.State
	b, _ := json.Marshal(m.State)
	json.Unmarshal(b, &st)
	return m, st
}

func twoGrenadiersWounded(s *subscriber) bool {
	if len(s.state) == 0 {
		return false
	}
	_, st := lastState(s)
	return st.LastShot != nil && len(st.LastShot.Wounded) == 2
}

// playDemo runs the demo session against a broker and checks what a real
// subscriber sees, then restarts the daemon on the same journal.
func playDemo(t *testing.T, cfg func(script bool) *companion.Config, brokerAddr func(*companion.Daemon) string) {
	d := open(t, cfg(true))
	sub := subscribe(t, brokerAddr(d))
	r := serve(d)
	sub.waitFor(t, "a state with two wounded grenadiers", func() bool { return twoGrenadiersWounded(sub) })
	sub.waitFor(t, "the shot_resolved event", func() bool {
		for _, e := range sub.events {
			if strings.Contains(fmt.Sprint(e.Event), "shot_resolved") {
				return true
			}
		}
		return false
	})

	// The answers to the keys follow the journal's events on the topic.
	sub.waitFor(t, "the answers to the demo's 16 keys", func() bool { return sub.count(wire.ResultType, "") >= 16 })
	sub.mu.Lock()
	msg, st := lastState(sub)
	gren, _ := st.Unit("gren")
	var lives []int
	for _, m := range gren.Models {
		lives = append(lives, m.Remaining())
	}
	if fmt.Sprint(lives) != "[1 1 2 2 2]" {
		t.Errorf("grenadier lives %v, want [1 1 2 2 2]", lives)
	}
	if got := fmt.Sprint(st.LastShot.Wounded, st.LastShot.Killed, st.LastShot.Hits, st.LastShot.Wounds, st.LastShot.Saved); got != "[gren-1 gren-2] [] 5 5 3" {
		t.Errorf("last shot %s", got)
	}
	if msg.Seq != d.Seq() {
		t.Errorf("state seq %d, daemon at %d", msg.Seq, d.Seq())
	}
	// Every event once, each with its own id; the journal's events in
	// order, each (seq, index) unique. The answers to the table's keys come
	// on the same topic, with ids of their own.
	seen := map[string]bool{}
	var types []string
	var prev int64
	answers := 0
	for _, e := range sub.events {
		if e.ID == "" || seen["id:"+e.ID] {
			t.Errorf("event id %q missing or received twice", e.ID)
		}
		seen["id:"+e.ID] = true
		b, _ := json.Marshal(e.Event)
		var head struct {
			Type, UID, Device string
			OK                bool
		}
		json.Unmarshal(b, &head)
		if head.Type == wire.ResultType {
			if !head.OK {
				t.Errorf("the table refused a key of the demo: %s", b)
			}
			answers++
			continue
		}
		key := fmt.Sprint(e.Seq, "/", e.Index)
		if seen[key] || e.ID != wire.EventID(e.Seq, e.Index) {
			t.Errorf("event %s received twice, or its id %s is not its place", key, e.ID)
		}
		seen[key] = true
		if e.Seq < prev {
			t.Errorf("event seq went back from %d to %d", prev, e.Seq)
		}
		prev = e.Seq
		if head.Type == "unknown_tag" && (head.UID != "04998877" || head.Device != "stol") {
			t.Errorf("unknown_tag event %s", b)
		}
		types = append(types, head.Type)
	}
	if answers != 16 {
		t.Errorf("%d answers to the table's keys, want one for each of the 16 keys of the demo (15 dice and next)", answers)
	}
	joined := strings.Join(types, " ")
	for _, want := range []string{"game_started", "unknown_tag", "phase", "shooter_selected", "shot_declared", "stage_resolved", "shot_resolved"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %s event among %s", want, joined)
		}
	}
	if n := strings.Count(joined, "dice_entered"); n != 15 {
		t.Errorf("%d dice_entered events, want 15", n)
	}
	stateBefore := sub.raw[len(sub.raw)-1]
	seqBefore := msg.Seq
	sub.mu.Unlock()
	r.stop(t)
	sub.waitFor(t, "status offline", func() bool {
		return len(sub.status) > 0 && sub.status[len(sub.status)-1].Status == "offline"
	})

	// Power comes back: the same journal, no new input.
	d2 := open(t, cfg(false))
	if d2.Seq() != seqBefore {
		t.Errorf("after restart seq %d, want %d", d2.Seq(), seqBefore)
	}
	r2 := serve(d2)
	defer r2.stop(t)
	late := subscribe(t, brokerAddr(d2))
	want, runBefore := stateAcrossRestart(t, stateBefore)
	// A broker that keeps retained messages (Mosquitto) may first give the
	// state the first run left; the new run's, naming a run of its own,
	// follows.
	late.waitFor(t, "the state of the new run after restart", func() bool {
		return slices.ContainsFunc(late.state, func(m wire.StateMessage) bool { return m.Instance != "" && m.Instance != runBefore })
	})
	late.waitFor(t, "status online", func() bool {
		return len(late.status) > 0 && late.status[len(late.status)-1].Status == "online"
	})
	late.mu.Lock()
	defer late.mu.Unlock()
	i := slices.IndexFunc(late.state, func(m wire.StateMessage) bool { return m.Instance != runBefore })
	if got, _ := stateAcrossRestart(t, late.raw[i]); got != want {
		t.Errorf("state after restart differs:\n got %s\nwant %s", got, want)
	}
}

// stateAcrossRestart is a published state without the skirmish's table
// picture (state.table): it is drawn from the camera's last snapshot, which
// a restarted daemon gets with the camera's next one (a real camera sends
// it within a few frames; the demo's simulated table sent its only one
// before the restart), and without the daemon's run (instance), which is
// new with each start. Everything else must come back from the journal.
func stateAcrossRestart(t *testing.T, raw []byte) (state, run string) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("state %s: %v", raw, err)
	}
	if st, ok := m["state"].(map[string]any); ok {
		delete(st, "table")
	}
	run, _ = m["instance"].(string)
	delete(m, "instance")
	b, _ := json.Marshal(m)
	return string(b), run
}

func TestDemoEndToEndEmbeddedBroker(t *testing.T) {
	dir := t.TempDir()
	playDemo(t,
		func(script bool) *companion.Config {
			return demoConfig(t, dir, "mqtt:\n  listen: \"127.0.0.1:0\"\n", script)
		},
		func(d *companion.Daemon) string { return d.BrokerAddr() })
}

func TestDemoEndToEndMosquitto(t *testing.T) {
	addr := startMosquitto(t)
	dir := t.TempDir()
	playDemo(t,
		func(script bool) *companion.Config {
			return demoConfig(t, dir, fmt.Sprintf("mqtt:\n  broker: \"tcp://%s\"\n", addr), script)
		},
		func(*companion.Daemon) string { return addr })
}

// startMosquitto runs a real Mosquitto on a free loopback port. Under CI a
// missing binary fails the test: `make test` installs it.
func startMosquitto(t *testing.T) string {
	t.Helper()
	return startMosquittoWith(t, "allow_anonymous true\n")
}

// startMosquittoWith runs Mosquitto with extra listener settings.
func startMosquittoWith(t *testing.T, settings string) string {
	t.Helper()
	bin := companion.MosquittoBinary(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(addr)
	conf := filepath.Join(t.TempDir(), "mosquitto.conf")
	os.WriteFile(conf, []byte(fmt.Sprintf("listener %s 127.0.0.1\n%spersistence false\n%s", port, settings, runAs())), 0o644)
	cmd := exec.Command(bin, "-c", conf)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for i := 0; i < 100; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("mosquitto did not start on %s: %s", addr, out.String())
	return ""
}

// writePasswd writes a Mosquitto password file with mosquitto_passwd for
// each user and password.
func writePasswd(t *testing.T, file string, users ...[2]string) {
	t.Helper()
	passwd, err := exec.LookPath("mosquitto_passwd")
	if err != nil {
		passwd = "/usr/bin/mosquitto_passwd"
	}
	for i, up := range users {
		args := []string{"-b", file, up[0], up[1]}
		if i == 0 {
			args = append([]string{"-c"}, args...)
		}
		if out, err := exec.Command(passwd, args...).CombinedOutput(); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("mosquitto_passwd: %v %s", err, out)
			}
			t.Skipf("mosquitto_passwd: %v", err)
		}
	}
}

// TestMosquittoOverTLSWithPassword: a venue broker with TLS and passwords,
// as a tournament would run it.
func TestMosquittoOverTLSWithPassword(t *testing.T) {
	dir := t.TempDir()
	caPEM := writeTestPKI(t, dir)
	writePasswd(t, filepath.Join(dir, "passwd"), [2]string{"stol-1", "tajne haslo"})
	addr := startMosquittoWith(t, fmt.Sprintf("cafile %s\ncertfile %s\nkeyfile %s\nallow_anonymous false\npassword_file %s\n",
		filepath.Join(dir, "ca.pem"), filepath.Join(dir, "server.pem"), filepath.Join(dir, "server.key"), filepath.Join(dir, "passwd")))
	cfg := demoConfig(t, t.TempDir(), fmt.Sprintf("mqtt:\n  broker: \"ssl://%s\"\n  username: stol-1\n  password: \"tajne haslo\"\n  tls: {ca_file: %q}\n", addr, filepath.Join(dir, "ca.pem")), false)
	r := serve(open(t, cfg))
	defer r.stop(t)

	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	got := make(chan []byte, 1)
	opts := paho.NewClientOptions().AddBroker("ssl://" + addr).SetClientID("tls-sub").
		SetUsername("stol-1").SetPassword("tajne haslo").SetTLSConfig(&tls.Config{RootCAs: pool})
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscriber over TLS: %v", tok.Error())
	}
	defer c.Disconnect(50)
	c.Subscribe(topicBase+"state", 1, func(_ paho.Client, m paho.Message) {
		select {
		case got <- m.Payload():
		default:
		}
	})
	select {
	case p := <-got:
		if !strings.Contains(string(p), `"game":"skirmish"`) {
			t.Errorf("state over TLS: %s", p)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no retained state over TLS")
	}
	// Without the password the broker refuses.
	bad := paho.NewClient(paho.NewClientOptions().AddBroker("ssl://" + addr).SetClientID("nopw").SetTLSConfig(&tls.Config{RootCAs: pool}))
	if tok := bad.Connect(); tok.WaitTimeout(10*time.Second) && tok.Error() == nil {
		t.Error("the broker let an anonymous client in")
	}
}

// writeTestPKI writes a CA and a server certificate for 127.0.0.1.
func writeTestPKI(t *testing.T, dir string) []byte {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "sztab test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	srvKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	srvTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, ca, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(srvKey)
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	os.WriteFile(filepath.Join(dir, "ca.pem"), caPEM, 0o644)
	os.WriteFile(filepath.Join(dir, "server.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srvDER}), 0o644)
	os.WriteFile(filepath.Join(dir, "server.key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	return caPEM
}

// runAs keeps Mosquitto as the user running the tests: started as root it
// would switch to the mosquitto user, who cannot read the tests' files.
func runAs() string {
	if os.Geteuid() == 0 {
		return "user root\n"
	}
	return ""
}
