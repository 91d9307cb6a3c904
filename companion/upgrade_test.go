package companion

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
)

// unitStop reads how the Debian package's systemd unit stops the daemon:
// its KillSignal and TimeoutStopSec (firmware-config/systemd/sztab.service,
// the file the package installs).
func unitStop(t *testing.T) (syscall.Signal, time.Duration) {
	t.Helper()
	f, err := os.Open("../firmware-config/systemd/sztab.service")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sig, timeout string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		switch {
		case !ok:
		case k == "KillSignal":
			sig = v
		case k == "TimeoutStopSec":
			timeout = v
		}
	}
	if sig != "SIGTERM" {
		t.Fatalf("the unit's KillSignal is %q, want SIGTERM (what the daemon finishes the action in hand on)", sig)
	}
	d, err := time.ParseDuration(strings.TrimSuffix(timeout, "s") + "s")
	if err != nil || d <= 0 {
		t.Fatalf("the unit's TimeoutStopSec %q: want seconds (%v)", timeout, err)
	}
	return syscall.SIGTERM, d
}

// The daemon upgraded in the middle of a game: while the referee's
// commands keep coming, it is stopped as the package's unit stops it (the
// unit's KillSignal, and its TimeoutStopSec before systemd would kill it),
// and started again on the same journal, as the package's postinst does
// after unpacking the new binary (this test binary stands for both: there
// is no older daemon to run). Every command it answered is in the journal,
// the action in hand when the signal came is in it or not at all, the
// restarted table publishes the journal's seq and the state of exactly the
// commands taken, and the commands left unanswered, sent again with their
// ids, are each taken once.
func TestUpgradeMidGame(t *testing.T) {
	sig, stopTimeout := unitStop(t)
	dir, addr, cfgPath := drillTable(t)
	topics := wire.TopicsFor("v", "t1")

	type tally struct{ Count int }
	start := func() (*exec.Cmd, paho.Client, chan wire.CommandResult, chan wire.StateMessage) {
		cmd := startTestBinary(t, []string{"SZTAB_DRILL_DAEMON=" + cfgPath}, []string{"-test.run=^$"}, func(cmd *exec.Cmd) error {
			cmd.Stderr = os.Stderr
			return nil
		})
		answers := make(chan wire.CommandResult, 4096)
		states := make(chan wire.StateMessage, 4096)
		c := drillClient(t, addr, refereeFeed(topics, func(r wire.CommandResult) { answers <- r }, func(sm wire.StateMessage) { states <- sm }))
		return cmd, c, answers, states
	}
	count := func(sm wire.StateMessage) int {
		b, _ := json.Marshal(sm.State)
		var v tally
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("state %s: %v", b, err)
		}
		return v.Count
	}

	// The old daemon, mid-game: commands keep coming until it has exited,
	// each as soon as the last one is answered or at the referee's rate
	// (one every refereeEvery) when it is not.
	cmd, c, answers, _ := start()
	var mu sync.Mutex
	var sent []string
	ok, refused := map[string]bool{}, map[string]bool{}
	take := func(res wire.CommandResult) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case res.OK:
			ok[res.ID] = true
		case res.Code == "slow_down" || res.Code == "busy":
			refused[res.ID] = true // over the rate: not taken, and said so
		default:
			t.Errorf("answer %+v", res)
		}
	}
	thirty := make(chan struct{})
	var once sync.Once
	stopSending := make(chan struct{})
	sending := make(chan struct{})
	go func() {
		defer close(sending)
		for i := 0; ; i++ {
			id := fmt.Sprintf("u%d", i)
			mu.Lock()
			sent = append(sent, id)
			mu.Unlock()
			c.Publish(topics.RefereeCommand, 1, false, fmt.Sprintf(`{"name":"1","id":%q}`, id)).WaitTimeout(time.Second)
			rate := time.NewTimer(defaultCommandLimits.refereeEvery)
		wait:
			for {
				select {
				case <-stopSending:
					rate.Stop()
					return
				case res := <-answers:
					take(res)
					mu.Lock()
					if len(ok) >= 30 {
						once.Do(func() { close(thirty) })
					}
					mu.Unlock()
					if res.ID == id {
						rate.Stop()
						break wait
					}
				case <-rate.C:
					break wait
				}
			}
		}
	}()
	select {
	case <-thirty:
	case <-time.After(30 * time.Second):
		t.Fatal("30 commands not answered in 30 s")
	}
	// The upgrade stops the daemon as systemd does.
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the daemon stopped with %v after %v, want a clean exit", err, sig)
		}
	case <-time.After(stopTimeout):
		t.Fatalf("the daemon did not stop within the unit's TimeoutStopSec (%v): systemd would kill it", stopTimeout)
	}
	close(stopSending)
	<-sending
	c.Disconnect(0)
	// The answers that reached the client before the broker went down.
drain:
	for {
		select {
		case res := <-answers:
			take(res)
		default:
			break drain
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// What the journal holds: every answered command, the last seq.
	j, err := OpenJournal(filepath.Join(dir, "j.db"), JournalIdentity{Venue: "v", Table: "t1", Game: "tally"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	taken, unanswered := 0, []string{}
	for _, id := range sent {
		seen, found, err := j.Command(ctx, senderKey(Sender{Audience: wire.Referee, ID: id}))
		switch {
		case err != nil:
			t.Fatal(err)
		case found && seen.Seq > 0:
			if refused[id] {
				t.Fatalf("command %s was refused and is in the journal", id)
			}
			taken++
		case ok[id]:
			t.Fatalf("command %s was answered and is not in the journal", id)
		case !refused[id]:
			unanswered = append(unanswered, id)
		}
	}
	var lastSeq int64
	if err := j.Entries(ctx, 0, func(e Entry) error { lastSeq = e.Seq; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d commands sent, %d taken and %d refused over the rate by answer, %d in the journal (seq %d), %d unanswered when the daemon stopped",
		len(sent), len(ok), len(refused), taken, lastSeq, len(unanswered))

	// The new daemon on the same journal: the same seq and state.
	_, c, answers, states := start()
	dice := 0 // the upgraded daemon's last state's count
	select {
	case sm := <-states:
		if sm.Seq != lastSeq || count(sm) != taken {
			t.Fatalf("after the upgrade: seq %d with %d dice, want seq %d with %d (the journal's)", sm.Seq, count(sm), lastSeq, taken)
		}
		dice = count(sm)
	case <-time.After(20 * time.Second):
		t.Fatal("no state from the upgraded daemon")
	}
	// The commands left unanswered, sent again, are taken once each (or
	// answered again, those taken before the stop); one already taken,
	// sent again, is not taken twice.
	// One at a time, each after the last one's answer, as a referee's
	// page sends them (a burst meets the broker's per-client rate).
	resend := append(unanswered, "u0")
	for i, id := range resend {
		if tok := c.Publish(topics.RefereeCommand, 1, false, fmt.Sprintf(`{"name":"1","id":%q}`, id)); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("publish %s: %v", id, tok.Error())
		}
	wait:
		for {
			select {
			case res := <-answers:
				if !res.OK {
					t.Fatalf("answer %+v after the upgrade", res)
				}
				if res.ID == id {
					break wait
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("after the upgrade %d of %d commands sent again were answered; no answer to %s", i, len(resend), id)
			}
		}
	}
	// Every command sent and not refused counts once: already in the
	// first state when the action in hand at the stop was journaled but
	// its answer never reached the client (nothing left to send again),
	// or in a state after the commands sent again.
	want := len(sent) - len(refused)
	for dice != want {
		if dice > want {
			t.Fatalf("%d dice after the upgrade, %d commands were sent and not refused", dice, want)
		}
		select {
		case sm := <-states:
			dice = count(sm)
		case <-time.After(20 * time.Second):
			t.Fatalf("the state never counted the %d commands sent and not refused (%d)", want, dice)
		}
	}
}
