package companion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion/wire"
)

// TestMain lets the test binary be the daemon of the power-loss drill: run
// with SZTAB_DRILL_DAEMON=config.yaml it plays that table until killed.
func TestMain(m *testing.M) {
	if cfg := os.Getenv("SZTAB_DRILL_DAEMON"); cfg != "" {
		os.Exit(drillDaemon(cfg))
	}
	os.Exit(m.Run())
}

func drillDaemon(path string) int {
	cfg, err := LoadConfig(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := Run(ctx, cfg, Options{Games: tallyGames, Log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// The power goes at random moments of a game: the daemon is killed with
// SIGKILL while the referee's commands arrive, and started again on the
// same journal. After every restart the state is the acknowledged commands
// exactly — none missing, none twice — or, when the kill came between the
// journal's commit and the answer, those and the one in flight. 10 kills in
// `make test`, 50 with SZTAB_DRILLS=full.
func TestDrillPowerLoss(t *testing.T) {
	kills := 10
	if fullDrills {
		kills = 50
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("kill times from seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	_, addr, cfgPath := drillTable(t)
	topics := wire.TopicsFor("v", "t1")

	acked, inFlight := 0, 0 // dice of 1 acknowledged; sent and not answered when the power went
	for kill := 0; kill <= kills; kill++ {
		cmd := startTestBinary(t, []string{"SZTAB_DRILL_DAEMON=" + cfgPath}, []string{"-test.run=^$"}, func(cmd *exec.Cmd) error {
			cmd.Stderr = os.Stderr
			return nil
		})
		answers := make(chan wire.CommandResult, 16)
		states := make(chan wire.StateMessage, 64)
		c := drillClient(t, addr, refereeFeed(topics, func(r wire.CommandResult) { answers <- r }, func(sm wire.StateMessage) {
			select {
			case states <- sm:
			default:
			}
		}))
		// The state the table came back with.
		var count int
		select {
		case sm := <-states:
			b, _ := json.Marshal(sm.State)
			var v struct{ Count int }
			json.Unmarshal(b, &v)
			count = v.Count
		case <-time.After(20 * time.Second):
			t.Fatalf("restart %d: no state from the daemon", kill)
		}
		if count != acked && count != acked+inFlight {
			t.Fatalf("restart %d: %d dice in the state, %d acknowledged (+%d in flight when killed)", kill, count, acked, inFlight)
		}
		acked, inFlight = count, 0
		if kill == kills {
			c.Disconnect(50)
			cmd.Process.Signal(syscall.SIGTERM)
			cmd.Wait()
			break
		}
		// Commands until the power goes, after a random number of them,
		// sometimes while one is in flight.
		n := 1 + rng.IntN(12)
		for i := 0; ; i++ {
			id := fmt.Sprintf("k%d-%d", kill, i)
			if tok := c.Publish(topics.RefereeCommand, 1, false, fmt.Sprintf(`{"name":"1","id":%q}`, id)); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
				t.Fatalf("publish: %v", tok.Error())
			}
			if i == n {
				// The power goes now: after the command is sent, before or
				// after the table takes it.
				time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
				inFlight = 1
				break
			}
			select {
			case res := <-answers:
				if !res.OK || res.ID != id {
					t.Fatalf("answer %+v to %s", res, id)
				}
				acked++
			case <-time.After(10 * time.Second):
				t.Fatalf("no answer to %s", id)
			}
		}
		select {
		case res := <-answers:
			if res.OK {
				acked, inFlight = acked+1, 0
			}
		default:
		}
		cmd.Process.Kill()
		cmd.Wait()
		c.Disconnect(0)
	}
	if acked == 0 {
		t.Fatal("no command was ever acknowledged")
	}
}

// startTestBinary starts this test binary again with env added and args,
// set up by setup (pipes) before it starts. Where the kernel cannot run it
// (the arm64 run under qemu-user without binfmt), it starts it through
// qemu.
func startTestBinary(t *testing.T, env, args []string, setup func(*exec.Cmd) error) *exec.Cmd {
	t.Helper()
	start := func(argv []string) (*exec.Cmd, error) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), env...)
		if err := setup(cmd); err != nil {
			return nil, err
		}
		return cmd, cmd.Start()
	}
	argv := append([]string{os.Args[0]}, args...)
	cmd, err := start(argv)
	if errors.Is(err, syscall.ENOEXEC) {
		qemu := map[string]string{"arm64": "qemu-aarch64", "arm": "qemu-arm", "riscv64": "qemu-riscv64"}[runtime.GOARCH]
		if emu, lerr := exec.LookPath(qemu); qemu != "" && lerr == nil {
			cmd, err = start(append([]string{emu}, argv...))
		}
	}
	if err != nil {
		t.Fatalf("starting %s again: %v", os.Args[0], err)
	}
	// A test that fails midway leaves no daemon running behind it.
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd
}

func drillClient(t *testing.T, addr string, on func(topic string, payload []byte)) paho.Client {
	t.Helper()
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("drill-%d", time.Now().UnixNano())).
		SetUsername("sedzia").SetPassword("tajne").SetConnectRetry(true).SetConnectRetryInterval(50 * time.Millisecond)
	c := paho.NewClient(o)
	t.Cleanup(func() { c.Disconnect(0) })
	tok := c.Connect()
	if !tok.WaitTimeout(20*time.Second) || tok.Error() != nil {
		t.Fatalf("connect to the restarted daemon: %v", tok.Error())
	}
	sub := c.Subscribe(wire.TableFilter("v", "t1"), 1, func(_ paho.Client, m paho.Message) { on(m.Topic(), m.Payload()) })
	if !sub.WaitTimeout(10*time.Second) || sub.Error() != nil {
		t.Fatalf("subscribe: %v", sub.Error())
	}
	return c
}

// refereeFeed decodes what a referee's client hears: the answers to its
// commands (on the referee's events) and the referee's states.
func refereeFeed(topics wire.Topics, answer func(wire.CommandResult), state func(wire.StateMessage)) func(topic string, payload []byte) {
	return func(topic string, payload []byte) {
		switch topic {
		case topics.RefereeEvents:
			var em struct {
				Event wire.CommandResult `json:"event"`
			}
			if json.Unmarshal(payload, &em) == nil && em.Event.Type == wire.ResultType {
				answer(em.Event)
			}
		case topics.RefereeState:
			var sm wire.StateMessage
			if json.Unmarshal(payload, &sm) == nil {
				state(sm)
			}
		}
	}
}

// drillTable is a drill's table: the tally game with its journal and an
// empty tag list in a temporary directory, its embedded broker on a free
// port; the directory, the broker's address and the config's path.
func drillTable(t *testing.T) (dir, addr, cfgPath string) {
	t.Helper()
	dir = t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr = l.Addr().String()
	l.Close()
	os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644)
	cfgPath = filepath.Join(dir, "t.yaml")
	os.WriteFile(cfgPath, []byte(fmt.Sprintf("venue: v\ntable: t1\ngame: tally\ntags: tags.yaml\njournal: j.db\nmqtt:\n  listen: %s\ndisplay:\n  referee: {user: sedzia, password: tajne}\n", addr)), 0o644)
	return dir, addr, cfgPath
}
