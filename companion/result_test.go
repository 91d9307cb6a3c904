package companion

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules"
)

// overTally is the tally game with an end: after three dice seat 1 wins
// with a total of 11 or more, else seat 2 does; the score is the total.
type overTally struct{ *tallyGame }

func (g overTally) Outcome() []rec.Seat {
	st := g.State()
	if st.count < 3 {
		return nil
	}
	one, two := rec.Win, rec.Loss
	if st.total < 11 {
		one, two = rec.Loss, rec.Win
	}
	return []rec.Seat{{Seat: 1, Name: "Ania", Outcome: one, Score: st.total}, {Seat: 2, Name: "Bartek", Outcome: two}}
}

func (g overTally) Headline() rules.Text {
	return rules.Textf("suma %d", "total %d", g.State().total)
}

// A table with a key publishes its signed result, retained, the moment the
// game is over; an undo that reopens the game clears it; a restart
// publishes it again, unchanged in its seats.
func TestResultIsSignedAndPublished(t *testing.T) {
	dir := t.TempDir()
	priv, pub, err := rec.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "table.key"), priv, 0o600)
	pubKey, _ := rec.ParsePublicKey(pub)
	os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644)
	cfg, err := ParseConfig(filepath.Join(dir, "t.yaml"), []byte("venue: v\ntable: t1\ngame: tally\ntags: tags.yaml\njournal: j.db\nresult_key: table.key\n"+
		"mqtt:\n  listen: 127.0.0.1:0\ndisplay:\n  referee: {user: sedzia, password: tajne}\n"))
	if err != nil {
		t.Fatal(err)
	}
	spec := tallySpec
	spec.New = func(c TableConfig) (Game, error) {
		g, err := newTally("tally")(c)
		return overTally{g.(*tallyGame)}, err
	}
	serve := func() (*Daemon, func()) {
		d, err := Open(context.Background(), cfg, Options{Games: Games{spec}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- d.Serve(ctx) }()
		return d, func() { cancel(); <-done; d.Close() }
	}
	topic := wire.TopicsFor("v", "t1").Result
	check := func(payload string) rec.Statement {
		t.Helper()
		var m wire.ResultMessage
		if err := json.Unmarshal([]byte(payload), &m); err != nil {
			t.Fatalf("result %q: %v", payload, err)
		}
		st, err := rec.VerifyStatement([]byte(m.Statement), []byte(m.Signature), pubKey)
		if err != nil {
			t.Fatalf("the published result does not verify: %v\n%s", err, payload)
		}
		if m.Key != rec.Fingerprint(pubKey) || st.Venue != "v" || st.Table != "t1" || st.Game != "tally" || !st.Finished {
			t.Fatalf("result statement %+v, key %s", st, m.Key)
		}
		return st
	}

	d, stop := serve()
	watch := record(t, d.BrokerAddr(), topic)
	for _, k := range []string{"6", "3"} {
		key(d, "kp", k)
	}
	waitSeq(t, d, 3)
	if got := watch.all(topic); strings.Contains(got, "statement") {
		t.Fatalf("a result before the game is over: %q", got)
	}
	key(d, "kp", "2")
	st := check(watch.wait(t, topic, "statement"))
	want := []rec.Seat{{Seat: 1, Name: "Ania", Outcome: rec.Win, Score: 11}, {Seat: 2, Name: "Bartek", Outcome: rec.Loss}}
	if !reflect.DeepEqual(st.Seats, want) || st.FinalSeq != 4 || st.Result.EN != "total 11" {
		t.Fatalf("seats %+v at entry %d, want %+v at 4", st.Seats, st.FinalSeq, want)
	}
	if seq, hash := d.table.journal.Head(); st.FinalHash != hash || seq != 4 {
		t.Fatalf("the statement names entry %d %s, the journal's head is %d %s", st.FinalSeq, st.FinalHash, seq, hash)
	}

	// The referee takes the last die back: the game is not over, the
	// retained result is cleared (an empty message).
	seen := watch.count(topic) // the result, and the start's clear if it came after the subscription
	d.inputs <- Input{Key: &hardware.KeyEvent{Keypad: "referee", Key: CmdUndo}, Text: "misread", From: Sender{Kind: wire.Ref, Audience: wire.Referee}}
	waitSeq(t, d, 5)
	waitFor(t, "the result cleared", func() bool { return watch.count(topic) > seen && watch.last(topic) == "" })
	key(d, "kp", "1") // 6+3+1: seat 2 wins now
	st = check(watch.wait(t, topic, `\"outcome\":\"loss\",\"score\":10}`))
	if st.Seats[0].Outcome != rec.Loss || st.FinalSeq != 6 {
		t.Fatalf("after the undo and another die: %+v at %d", st.Seats, st.FinalSeq)
	}
	// A refused key after the end is a notice: the result is not signed
	// again.
	key(d, "kp", "next")
	waitSeq(t, d, 7)
	final := watch.last(topic)
	stop()

	// After a restart the result is there again for a venue that
	// subscribes late: retained, the same seats.
	d, stop = serve()
	defer stop()
	late := record(t, d.BrokerAddr(), topic)
	// The same statement, naming the entry that ended the game (6), not
	// the notice after it: a venue takes it once.
	if got := late.wait(t, topic, "statement"); got != final || !strings.Contains(got, `final_seq: 6\n`) {
		t.Fatalf("after a restart the result is\n%s\nwant the one before it\n%s", got, final)
	}
}

func waitSeq(t *testing.T, d *Daemon, seq int64) {
	t.Helper()
	waitFor(t, fmt.Sprintf("journal entry %d", seq), func() bool { return d.Seq() >= seq })
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited 20 s for %s", what)
		}
	}
}

// last is the last message on topic, count how many came.
func (r *recorder) last(topic string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m := r.msgs[topic]; len(m) > 0 {
		return m[len(m)-1]
	}
	return ""
}

func (r *recorder) count(topic string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.msgs[topic])
}
