package companion

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// cutTail deletes the journal's entries after last as issue #28 describes
// it: the rows, SQLite's seq counter and the published mark set back, so
// that nothing in the file itself runs past the new end.
func cutTail(t *testing.T, path string, last int64) {
	t.Helper()
	editJournal(t, path,
		fmt.Sprintf(`DELETE FROM journal WHERE seq > %d`, last),
		fmt.Sprintf(`UPDATE sqlite_sequence SET seq = %d WHERE name = 'journal'`, last),
		fmt.Sprintf(`UPDATE meta SET value = '%d' WHERE key = 'published_through'`, last))
}

// publishedHead is the head a table with this journal publishes.
func publishedHead(t *testing.T, path string) RecordedHead {
	t.Helper()
	j, err := ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	h := j.PublishedHead()
	if h == nil || h.Journal == "" || len(h.Mark) != 64 {
		t.Fatalf("published head %+v, want a journal id and a mark", h)
	}
	return RecordedHead{Journal: h.Journal, Seq: h.Seq, Mark: h.Mark}
}

func checkHead(t *testing.T, path string, h RecordedHead) error {
	t.Helper()
	j, err := ReadJournal(path)
	if err != nil {
		t.Fatalf("ReadJournal: %v", err)
	}
	defer j.Close()
	return j.CheckHead(context.Background(), h)
}

// A cut tail (the last entries deleted, sqlite_sequence and
// published_through set back) leaves a chain that checks on its own: the
// daemon opens it and ReadJournal (sztab verify) passes it. Checked against
// the head the table published before the cut, it is caught: the journal
// ends short of it, by how many entries.
func TestJournalCutTailCaughtAgainstPublishedHead(t *testing.T) {
	path := chainedJournal(t, 47)
	head := publishedHead(t, path)
	if head.Seq != 47 {
		t.Fatalf("published head at entry %d, want 47", head.Seq)
	}
	if err := checkHead(t, path, head); err != nil {
		t.Fatalf("the untouched journal against its own head: %v", err)
	}
	editJournal(t, path, `UPDATE meta SET value = '47' WHERE key = 'published_through'`)
	cutTail(t, path, 40)

	// On its own, the cut journal checks: this is what the head is for.
	j, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatalf("OpenJournal of the cut journal: %v (the chain alone cannot see a cut tail; if it now can, update docs/security.md)", err)
	}
	j.Close()

	err = checkHead(t, path, head)
	var he *HeadError
	if !errors.Is(err, ErrJournalShort) || !errors.As(err, &he) {
		t.Fatalf("against the published head: got %v, want ErrJournalShort with a HeadError", err)
	}
	want := "the journal ends at entry 40 but the table published entry 47 (mark " + head.Mark[:16]
	if he.Missing != 7 || he.Last != 40 || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "7 entries are missing from its end") {
		t.Errorf("got %q (missing %d, last %d), want 7 missing after 40, saying %q", err, he.Missing, he.Last, want)
	}
}

// A journal cut and grown again to the same length (the daemon restarted on
// it, or a forger who recomputed the chain) holds an entry 47 that is not
// the published one; the mark tells. A head key deleted from meta leaves
// nothing to check a mark with: refused too. The final hash an export
// names checks as well as a mark.
func TestJournalRewrittenTailCaughtAgainstPublishedHead(t *testing.T) {
	path := chainedJournal(t, 47)
	head := publishedHead(t, path)
	j, err := ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	_, hash47 := j.Head()
	j.Close()
	byHash, err := ParseHead(fmt.Sprintf("47:%s", strings.ToUpper(hash47)))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkHead(t, path, byHash); err != nil {
		t.Fatalf("the untouched journal against its final hash: %v", err)
	}

	cutTail(t, path, 40)
	j, err = OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 8, 2, 9, 0, 0, 0, time.UTC)
	for i := range 7 {
		if _, err := j.Append(context.Background(), KindAction, "skirmish", at.Add(time.Duration(i)*time.Second), []byte(`{"type":"add","rolls":[{"value":6,"origin":"keypad"}]}`), []byte(`[]`)); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	for name, h := range map[string]RecordedHead{"published mark": head, "export's hash": byHash} {
		err := checkHead(t, path, h)
		var he *HeadError
		if !errors.Is(err, ErrJournalShort) || !errors.As(err, &he) || he.Missing != 0 ||
			!strings.Contains(err.Error(), "the journal's entry 47 is not the one the table published") ||
			!strings.Contains(err.Error(), "rewritten at or before entry 47") {
			t.Errorf("%s: got %v, want entry 47 named as not the published one", name, err)
		}
	}

	editJournal(t, path, `DELETE FROM meta WHERE key = 'head_key'`)
	if err := checkHead(t, path, head); !errors.Is(err, ErrJournalShort) || !strings.Contains(err.Error(), "no head key") {
		t.Errorf("without its head key: got %v, want refused for want of the key", err)
	}
}

// A head of another journal of the table is not checked as this one's.
func TestJournalHeadOfAnotherJournal(t *testing.T) {
	a, b := chainedJournal(t, 5), chainedJournal(t, 5)
	err := checkHead(t, b, publishedHead(t, a))
	if !errors.Is(err, ErrJournalShort) || !strings.Contains(err.Error(), "another journal of the table") {
		t.Errorf("got %v, want the head named as another journal's", err)
	}
	if _, err := ParseHead("47"); err == nil {
		t.Error(`ParseHead("47"): no error`)
	}
	if _, err := ParseHead("47:abc"); err == nil {
		t.Error(`ParseHead("47:abc"): no error`)
	}
}
