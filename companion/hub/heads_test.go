package hub

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/internal/testclock"
)

// The hub keeps, per table, the furthest head of each journal: a lower head
// of the same journal afterwards (a cut tail, the daemon restarted on it)
// does not replace it but is noted; a new journal of the table is kept
// beside the old one; the record is written to the heads file and read
// back by the next hub, and another venue's file is refused.
func TestHubKeepsTheFurthestHead(t *testing.T) {
	clock := testclock.New(time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC))
	path := filepath.Join(t.TempDir(), "heads.json")
	h, err := New(Options{Venue: "v", Broker: "tcp://127.0.0.1:1883", Log: quietLog(), Clock: clock.Now, Heads: path})
	if err != nil {
		t.Fatal(err)
	}
	mark := func(c byte) string { return strings.Repeat(string(c), 64) }
	status := func(journal string, seq int64, m string) message {
		return message{"sztab/v1/v/t1/status", `{"status":"online","venue":"v","table":"t1","instance":"i1","head":{"journal":"` + journal + `","seq":` + strconv.FormatInt(seq, 10) + `,"mark":"` + m + `"}}`, true}
	}
	for _, m := range []message{
		status("aaaa", 5, mark('1')),
		status("aaaa", 47, mark('2')),
		status("aaaa", 40, mark('3')), // went back
		status("bbbb", 3, mark('4')),  // a new journal
		{"sztab/v1/v/t1/status", `{"status":"offline","venue":"v","table":"t1","instance":"i1"}`, true}, // a will: no head
	} {
		clock.Add(time.Second)
		h.onMessage(nil, m)
	}
	hs := h.Heads().Tables["t1"]
	if len(hs) != 2 || hs[0].Journal != "aaaa" || hs[0].Seq != 47 || hs[0].Mark != mark('2') || hs[0].WentBack == nil || hs[0].WentBack.Seq != 40 ||
		hs[1].Journal != "bbbb" || hs[1].Seq != 3 {
		t.Fatalf("heads %+v, want journal aaaa at 47 (went back to 40) and bbbb at 3", hs)
	}
	if w := h.Wall(); w.Tables[0].Head == nil || w.Tables[0].Head.Journal != "bbbb" {
		t.Errorf("the wall's head: %+v, want the last one published", w.Tables[0].Head)
	}
	h.saveHeads()
	again, err := New(Options{Venue: "v", Broker: "tcp://127.0.0.1:1883", Log: quietLog(), Heads: path})
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Heads().Tables["t1"]; len(got) != 2 || got[0].Seq != 47 || got[0].WentBack == nil {
		t.Errorf("read back: %+v", got)
	}
	if _, err := New(Options{Venue: "w", Broker: "tcp://127.0.0.1:1883", Log: quietLog(), Heads: path}); err == nil || !strings.Contains(err.Error(), `venue "v"'s`) {
		t.Errorf("another venue's heads file: got %v", err)
	}
	os.WriteFile(path, []byte("{"), 0o644)
	if _, err := New(Options{Venue: "v", Broker: "tcp://127.0.0.1:1883", Log: quietLog(), Heads: path}); err == nil {
		t.Error("a damaged heads file: no error")
	}
}
