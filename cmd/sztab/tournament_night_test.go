package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/brokertest"
	"github.com/sztab/sztab/internal/wait"
)

// walkThrough is a fenced block of the docs marked as the walk-through
// (```sh walkthrough): its commands, comments dropped and continued lines
// joined.
func walkThrough(t *testing.T, doc []byte) []string {
	t.Helper()
	var lines []string
	in, found := false, false
	for _, line := range strings.Split(string(doc), "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```sh walkthrough":
			in, found = true, true
		case in && strings.TrimSpace(line) == "```":
			in = false
		case in:
			lines = append(lines, line)
		}
	}
	if !found || in {
		t.Fatal("the docs have no closed ```sh walkthrough block")
	}
	var cmds []string
	cur := ""
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if cur == "" && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if more, ok := strings.CutSuffix(line, `\`); ok {
			cur += more
			continue
		}
		cmds = append(cmds, strings.Join(strings.Fields(cur+line), " "))
		cur = ""
	}
	if cur != "" {
		t.Fatalf("the walk-through ends in a continued line: %q", cur)
	}
	return cmds
}

var placeholder = regexp.MustCompile(`\$[A-Z_]+`)

// runWalkThrough runs the commands in the current directory: `sztab …`
// through the binary's own command tree (in the background when the line
// ends in &), `cp` and `export`; anything else, or a placeholder not in
// vars, fails the test. It returns a function that stops the background
// commands and reports their errors.
func runWalkThrough(t *testing.T, cmds []string, vars map[string]string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var background []chan error
	var names []string
	stop = func() {
		cancel()
		for i, done := range background {
			if err := <-done; err != nil {
				t.Errorf("%s: %v", names[i], err)
			}
		}
		background = nil
	}
	for _, line := range cmds {
		expanded := placeholder.ReplaceAllStringFunc(line, func(v string) string {
			val, ok := vars[v[1:]]
			if !ok {
				t.Fatalf("the walk-through's %q: no value for %s", line, v)
			}
			return val
		})
		args := strings.Fields(expanded)
		bg := args[len(args)-1] == "&"
		if bg {
			args = args[:len(args)-1]
		}
		switch args[0] {
		case "export":
			k, v, ok := strings.Cut(args[1], "=")
			if len(args) != 2 || !ok {
				t.Fatalf("the walk-through's %q: want export NAME=VALUE", line)
			}
			t.Setenv(k, v)
		case "cp":
			b, err := os.ReadFile(args[1])
			if err != nil || len(args) != 3 {
				t.Fatalf("the walk-through's %q: %v", line, err)
			}
			if err := os.WriteFile(args[2], b, 0o644); err != nil {
				t.Fatal(err)
			}
		case "sztab":
			root := newRoot()
			root.SetOut(io.Discard)
			root.SetErr(io.Discard)
			root.SetArgs(args[1:])
			if !bg {
				if err := root.Execute(); err != nil {
					t.Fatalf("the walk-through's %q: %v", line, err)
				}
				continue
			}
			done := make(chan error, 1)
			go func() { done <- root.ExecuteContext(ctx) }()
			background = append(background, done)
			names = append(names, line)
		default:
			t.Fatalf("the walk-through's %q: the test runs sztab, cp and export only", line)
		}
	}
	return stop
}

// The docs' tournament night (docs/venue.md, "The tournament night, step
// by step"), command by command as the doc has them, on Mosquitto with the
// shipped mosquitto.conf.example and acl.example verbatim: the keys are
// made, the venue connects once under its login and stays connected; the
// organiser pairs round 1, corrects t02 then t01 on the page and pairs
// round 2 (refused while t01 had no result), and each table
// hears its pairing and the correction through the shipped ACL; and
// nothing in the log or the broker's says the venue was pushed off or
// reconnected.
func TestTournamentNightWalkThrough(t *testing.T) {
	repo := brokertest.Root(t)
	doc, err := os.ReadFile(filepath.Join(repo, "docs/venue.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := walkThrough(t, doc)
	broker := brokertest.StartShippedMosquitto(t, "hala-kolejowa", brokertest.Login{User: "venue", Password: "v1"},
		brokertest.Login{User: "sedzia", Password: "s1"})
	dir := t.TempDir()
	t.Chdir(dir)
	// The commands' log (each sets slog's default on os.Stderr).
	logFile, err := os.Create(filepath.Join(dir, "sztab.log"))
	if err != nil {
		t.Fatal(err)
	}
	stderr, logger := os.Stderr, slog.Default()
	os.Stderr = logFile
	defer func() { os.Stderr = stderr; slog.SetDefault(logger); logFile.Close() }()
	listen := fmt.Sprintf("127.0.0.1:%d", brokertest.FreePorts(t, 1)[0])
	stop := runWalkThrough(t, cmds, map[string]string{
		"SZTAB": repo, "BROKER": broker.URL(), "VENUE_PASSWORD": "v1", "ORGANISER_PASSWORD": "orga-haslo", "LISTEN": listen,
	})
	defer stop()
	for _, key := range []string{"keys/t01.key", "keys/t01.key.pub", "keys/t02.key", "keys/t02.key.pub"} {
		if _, err := os.Stat(key); err != nil {
			t.Errorf("after the walk-through's keygen: %v", err)
		}
	}
	wait.Until(t, "the venue's login on Mosquitto", func() bool { return strings.Contains(broker.FullLog(), " u'venue'") })

	// The referee's login (it reads sztab/#) sees what the venue tells the
	// tables: Mosquitto drops a write its ACL denies without a word to
	// the writer, so only a reader shows the venue's login may write it.
	var mu sync.Mutex
	pairings := map[string]wire.PairingMessage{}
	ref := paho.NewClient(paho.NewClientOptions().AddBroker(broker.URL()).SetClientID("sedzia").SetUsername("sedzia").SetPassword("s1"))
	if tok := ref.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("the referee's login: %v", tok.Error())
	}
	defer ref.Disconnect(50)
	ref.Subscribe("sztab/v1/hala-kolejowa/+/pairing", 1, func(_ paho.Client, msg paho.Message) {
		var p wire.PairingMessage
		if json.Unmarshal(msg.Payload(), &p) == nil {
			mu.Lock()
			pairings[p.Table] = p
			mu.Unlock()
		}
	}).Wait()
	pairing := func(table string) wire.PairingMessage { mu.Lock(); defer mu.Unlock(); return pairings[table] }

	// The organiser signs in, pairs round 1 and enters table t02's result
	// from its paper card (the table never sent one).
	base := "http://" + listen
	jar, _ := cookiejar.New(nil)
	web := &http.Client{Jar: jar, Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := func(path string, values url.Values) {
		t.Helper()
		resp, err := web.PostForm(base+path, values)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther || strings.Contains(resp.Header.Get("Location"), "error") {
			t.Fatalf("POST %s: %s to %q\n%s", path, resp.Status, resp.Header.Get("Location"), body)
		}
	}
	wait.Until(t, "the venue's pages", func() bool {
		resp, err := web.Get(base + "/")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
	form("/login", url.Values{"user": {"organizator"}, "password": {"orga-haslo"}, "next": {"/organiser"}})
	form("/organiser/pair", url.Values{})
	wait.Until(t, "round 1's pairings at both tables", func() bool {
		return pairing("t01").Round == 1 && pairing("t02").Round == 1 && len(pairing("t01").Players) == 2 && len(pairing("t02").Players) == 2
	})
	form("/organiser/correct", url.Values{"round": {"1"}, "table": {"t02"}, "outcome1": {"win"}, "score1": {"12"},
		"outcome2": {"loss"}, "score2": {"4"}, "reason": {"karta wyniku podpisana przez obu graczy"}})
	wait.Until(t, "t02's corrected result at the table", func() bool { return pairing("t02").Result == "corrected" })
	// The standings count the correction: t02's seat 1 won (3 points).
	resp, err := web.Get(base + "/organiser/csv/standings.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(resp.Body).ReadAll()
	resp.Body.Close()
	if err != nil || len(rows) != 5 || strings.Join(rows[0][:6], ",") != "rank,tied,player,name,club,points" {
		t.Fatalf("standings.csv: %v\n%v", err, rows)
	}
	winner := pairing("t02").Players[0]
	if !slices.ContainsFunc(rows[1:], func(r []string) bool { return r[3] == winner && r[5] == "3" }) {
		t.Errorf("standings.csv has no 3 points for %s, t02's winner by the correction:\n%v", winner, rows)
	}
	// Round 2: refused while t01 has no result; t01's card entered (a
	// draw), the round pairs and both tables hear it.
	resp, err = web.PostForm(base+"/organiser/pair", url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict {
		t.Errorf("pairing round 2 with t01's result missing: %s, want 409", resp.Status)
	}
	form("/organiser/correct", url.Values{"round": {"1"}, "table": {"t01"}, "outcome1": {"draw"}, "score1": {"6"},
		"outcome2": {"draw"}, "score2": {"6"}, "reason": {"karta wyniku: remis"}})
	form("/organiser/pair", url.Values{})
	wait.Until(t, "round 2's pairings at both tables", func() bool {
		return pairing("t01").Round == 2 && pairing("t02").Round == 2 && pairing("t01").Result == "awaiting" && pairing("t02").Result == "awaiting"
	})
	// A connection pushed off comes back within a second (paho's retry):
	// three seconds show a loop many times over.
	time.Sleep(3 * time.Second)
	stop()
	log, _ := os.ReadFile(logFile.Name())
	for _, bad := range []string{"reconnecting", "lost the"} {
		if strings.Contains(string(log), bad) {
			t.Errorf("the commands' log says %q:\n%s", bad, log)
		}
	}
	if !strings.Contains(string(log), "venue") {
		t.Errorf("the venue logged nothing (is the log captured?):\n%s", log)
	}
	full := broker.FullLog()
	if n := strings.Count(full, "already connected"); n > 0 {
		t.Errorf("Mosquitto closed a connection for another of the same login %d times:\n%s", n, broker.Log())
	}
	if n := strings.Count(full, " u'venue'"); n != 1 {
		t.Errorf("the venue connected %d times, want once:\n%s", n, broker.Log())
	}
}
