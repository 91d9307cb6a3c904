package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/brokertest"
	"github.com/sztab/sztab/internal/tabletest"
)

// cutJournalTail deletes a journal's entries after last the way issue #28
// says: the rows, then SQLite's seq counter and the published mark set
// back to the new end.
func cutJournalTail(t *testing.T, path string, last int64) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`DELETE FROM journal WHERE seq > ?`,
		`UPDATE sqlite_sequence SET seq = ? WHERE name = 'journal'`,
		`UPDATE meta SET value = CAST(? AS TEXT) WHERE key = 'published_through'`,
	} {
		res, err := db.Exec(q, last)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			t.Fatalf("%s changed nothing", q)
		}
	}
}

// The README's Mali game, its last 5 entries cut: `sztab verify --journal`
// alone passes it (the chain cannot see a cut tail, and says so); with the
// head the table published (--head SEQ:MARK) it fails, exit 1, saying
// where the journal ends and how many entries are missing.
func TestVerifyCutTailAgainstHead(t *testing.T) {
	path, _ := maliJournal(t)
	j, err := companion.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	h := j.PublishedHead()
	_, hash := j.Head()
	j.Close()
	head := fmt.Sprintf("%d:%s", h.Seq, h.Mark)
	if o, err := runSztab(t, "verify", "--journal", path, "--head", head); err != nil || !strings.Contains(o, "it holds the head recorded elsewhere: entry 35 (hash "+h.Mark[:16]) {
		t.Fatalf("the untouched journal against its published head: %v\n%s", err, o)
	}
	if o, err := runSztab(t, "verify", "--journal", path, "--head", "35:"+hash); err != nil || !strings.Contains(o, "entry 35 (hash "+hash[:16]) {
		t.Fatalf("the untouched journal against its final hash: %v\n%s", err, o)
	}

	cutJournalTail(t, path, 30)
	o, err := runSztab(t, "verify", "--journal", path)
	if err != nil || !strings.Contains(o, "OK: journal") || !strings.Contains(o, "last seq 30") || !strings.Contains(o, "caught only against a head recorded elsewhere") {
		t.Fatalf("plain verify of the cut journal: %v\n%s (the chain alone passes a cut tail; if it now catches one, update docs/security.md)", err, o)
	}
	_, err = runSztab(t, "verify", "--journal", path, "--head", head)
	want := "the journal ends at entry 30 but the table published entry 35 (hash " + h.Mark[:16]
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "5 entries are missing from its end") {
		t.Fatalf("verify --head of the cut journal: got %v (exit %d), want exit 1 saying %q and 5 missing", err, exitCode(err), want)
	}
	if _, err := runSztab(t, "verify", "--journal", path, "--head", "35"); err == nil || !strings.Contains(err.Error(), "want SEQ:HASH") {
		t.Errorf("--head without a hash: got %v", err)
	}
}

// End to end: a table plays on a real Mosquitto, the hub (sztab hub
// --heads FILE) keeps the head of its status, the table stops, its journal
// is cut; `sztab verify --journal J --heads FILE` catches it with the hub's
// record, where plain verify does not.
func TestVerifyCutTailAgainstTheHubsRecord(t *testing.T) {
	m := brokertest.StartMosquitto(t, "allow_anonymous true\n")
	dir := t.TempDir()
	cfg := tabletest.DemoConfig(t, dir, "skirmish.yaml", false)
	cfg.MQTT.Broker, cfg.MQTT.Listen = companion.BrokerURLs(m.URL()), ""
	spec, _ := games.Lookup("skirmish")

	heads := filepath.Join(dir, "heads.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h, err := hub.New(hub.Options{Broker: m.URL(), Venue: cfg.Venue, Listen: "127.0.0.1:0", Log: quiet, Heads: heads})
	if err != nil {
		t.Fatal(err)
	}
	hubDone := make(chan error, 1)
	go func() { hubDone <- h.Run(ctx) }()

	table := tabletest.Start(t, cfg, spec)
	// Cards the registry does not know: each is journaled (a notice) and
	// moves the head.
	for i := range 6 {
		in := companion.Input{Tag: &hardware.TagEvent{Reader: "stol", UID: fmt.Sprintf("04AA00%02X", i), Present: true}}
		if err := table.D.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	tabletest.WaitSeq(t, table.D, 7)
	last := table.D.Seq()
	eventually(t, "the hub's heads file to hold the table's last head", func() bool {
		b, err := os.ReadFile(heads)
		if err != nil {
			return false
		}
		var hs hub.Heads
		return json.Unmarshal(b, &hs) == nil && len(hs.Tables[cfg.Table]) == 1 && hs.Tables[cfg.Table][0].Seq == last
	})
	if w := h.Wall(); len(w.Tables) != 1 || w.Tables[0].Head == nil || w.Tables[0].Head.Seq != last {
		t.Errorf("the wall's table: %+v, want its head at entry %d", w.Tables, last)
	}
	table.Stop(t)
	cancel()
	<-hubDone

	journal := cfg.Resolve(cfg.Journal)
	if o, err := runSztab(t, "verify", "--journal", journal, "--heads", heads); err != nil || !strings.Contains(o, fmt.Sprintf("entry %d (mark ", last)) {
		t.Fatalf("the untouched journal against the hub's record: %v\n%s", err, o)
	}
	cutJournalTail(t, journal, last-3)
	if o, err := runSztab(t, "verify", "--journal", journal); err != nil {
		t.Fatalf("plain verify of the cut journal: %v\n%s", err, o)
	}
	_, err = runSztab(t, "verify", "--journal", journal, "--heads", heads)
	want := fmt.Sprintf("the journal ends at entry %d but the table published entry %d", last-3, last)
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "3 entries are missing from its end") || !strings.Contains(err.Error(), "as "+heads+" kept it") {
		t.Fatalf("verify --heads of the cut journal: got %v, want exit 1 saying %q", err, want)
	}

	// The hub's record is the venue's: another venue's record is refused.
	var hs hub.Heads
	b, _ := os.ReadFile(heads)
	json.Unmarshal(b, &hs)
	hs.Venue = "elsewhere"
	b, _ = json.Marshal(hs)
	other := filepath.Join(dir, "other.json")
	os.WriteFile(other, b, 0o644)
	if _, err := runSztab(t, "verify", "--journal", journal, "--heads", other); err == nil || !strings.Contains(err.Error(), `venue "elsewhere"`) {
		t.Errorf("another venue's record: got %v", err)
	}
	// A record that never saw this table says so.
	delete(hs.Tables, cfg.Table)
	hs.Venue = cfg.Venue
	b, _ = json.Marshal(hs)
	os.WriteFile(other, b, 0o644)
	if _, err := runSztab(t, "verify", "--journal", journal, "--heads", other); err == nil || !strings.Contains(err.Error(), "holds no head of table") {
		t.Errorf("a record without the table: got %v", err)
	}
}

// eventually waits (30 s at most) for cond.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}
