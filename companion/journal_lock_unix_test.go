//go:build unix

package companion

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A journal is held by one open at a time: a second daemon on it fails at
// once, naming the journal and the process that holds it, instead of
// merging two tables' games; once the first lets go, it opens.
func TestJournalIsHeldByOneOpenAtATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t1.journal.db")
	first, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenJournal(path, testJournal, quietLog)
	var je *JournalError
	if !errors.As(err, &je) || je.Path != path || !errors.Is(err, ErrJournalInUse) {
		t.Fatalf("second open: got %v, want a JournalError for %s wrapping ErrJournalInUse", err, path)
	}
	if want := fmt.Sprintf("process %d holds %s.lock", os.Getpid(), path); !strings.Contains(err.Error(), want) {
		t.Errorf("got %q, want it to say %q", err, want)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatalf("after the first closed: got %v, want the journal", err)
	}
	again.Close()
}

// holderEnv makes the test binary a daemon stand-in that opens the journal
// named, appends an entry, says "held" and waits to be killed.
const holderEnv = "SZTAB_TEST_JOURNAL_HOLDER"

// Another process holding the journal is named by its pid; when it dies
// without closing (a crash), the kernel lets the journal go and the next
// open gets it, with the entry it had acknowledged.
func TestJournalHeldByAnotherProcess(t *testing.T) {
	if path := os.Getenv(holderEnv); path != "" {
		j, err := OpenJournal(path, testJournal, quietLog)
		if err == nil {
			_, err = j.Append(context.Background(), KindAction, "skirmish", time.Now(), []byte(`{}`), []byte(`[]`))
		}
		if err != nil {
			fmt.Println(err)
			os.Exit(2)
		}
		fmt.Println("held")
		io.Copy(io.Discard, os.Stdin) // until killed
		os.Exit(0)
	}
	path := filepath.Join(t.TempDir(), "t1.journal.db")
	cmd, stdin, out := startSelf(t, holderEnv+"="+path, "-test.run=^TestJournalHeldByAnotherProcess$")
	defer stdin.Close()
	defer cmd.Process.Kill()
	if line, err := bufio.NewReader(out).ReadString('\n'); line != "held\n" {
		t.Fatalf("holder said %q (%v), want held", line, err)
	}

	_, err := OpenJournal(path, testJournal, quietLog)
	if want := "process " + strconv.Itoa(cmd.Process.Pid) + " holds"; !errors.Is(err, ErrJournalInUse) || !strings.Contains(err.Error(), want) {
		t.Fatalf("while another process holds it: got %v, want ErrJournalInUse saying %q", err, want)
	}

	cmd.Process.Kill()
	cmd.Wait()
	j, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatalf("after the holder died: got %v, want the journal", err)
	}
	defer j.Close()
	if n := countEntries(t, j); n != 1 {
		t.Errorf("after the holder died: got %d entries, want the 1 it acknowledged", n)
	}
	if r := j.Recovery(); r.WALBytes == 0 || r.Entries != 1 || r.Torn {
		t.Errorf("after the holder died: got %+v, want its entry recovered from a whole write-ahead log", r)
	}
}

// startSelf starts this test binary again with env added and args, its
// stdin and stdout piped. The arm64 suite (scripts/test-arm64.sh) runs the
// binary under qemu-user, where the kernel may not run it directly (no
// binfmt_misc): then the child goes through the same emulator.
func startSelf(t *testing.T, env string, args ...string) (*exec.Cmd, io.WriteCloser, io.Reader) {
	t.Helper()
	var stdin io.WriteCloser
	var out io.Reader
	cmd := startTestBinary(t, []string{env}, args, func(cmd *exec.Cmd) (err error) {
		if stdin, err = cmd.StdinPipe(); err != nil {
			return err
		}
		out, err = cmd.StdoutPipe()
		return err
	})
	return cmd, stdin, out
}

// What the findings were, end to end: a second daemon on a running table's
// journal does not start, and a daemon whose config names another table
// does not play on this table's journal.
func TestJournalOneDaemonOneTable(t *testing.T) {
	dir := t.TempDir()
	_, stop := tallyDaemon(t, dir)
	config := func(table string) *Config {
		cfg, err := ParseConfig(filepath.Join(dir, "t.yaml"), []byte("venue: v\ntable: "+table+"\ngame: tally\ntags: tags.yaml\njournal: j.db\nmqtt:\n  listen: 127.0.0.1:0\n"))
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	open := func(cfg *Config) error {
		d, err := Open(context.Background(), cfg, Options{Games: tallyGames, Log: quietLog})
		if err == nil {
			d.Close()
		}
		return err
	}
	if err := open(config("t1")); !errors.Is(err, ErrJournalInUse) {
		t.Errorf("a second daemon for the running table: got %v, want ErrJournalInUse", err)
	}
	stop()
	if err := open(config("t2")); !errors.Is(err, ErrJournalIdentity) || !strings.Contains(err.Error(), `table "t1"`) {
		t.Errorf("table t2's daemon on table t1's journal: got %v, want ErrJournalIdentity naming t1", err)
	}
}
