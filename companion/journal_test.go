package companion

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestJournalAppendAndRead(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "t.db")
	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC)
	for i, kind := range []string{KindAction, KindNotice, KindAction} {
		seq, err := j.Append(ctx, kind, "skirmish", at, []byte(`{"n":`+string(rune('0'+i))+`}`), []byte(`[]`))
		if err != nil || seq != int64(i+1) {
			t.Fatalf("Append %d: seq %d, %v", i, seq, err)
		}
	}
	if err := j.MarkPublished(ctx, 2); err != nil {
		t.Fatal(err)
	}
	j.Close()

	j, err = OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var kinds []string
	if err := j.Entries(ctx, 1, func(e Entry) error {
		kinds = append(kinds, e.Kind)
		if !e.At.Equal(at) {
			t.Errorf("entry %d at %v, want %v", e.Seq, e.At, at)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(kinds, ",") != "notice,action" {
		t.Errorf("entries after 1: %v", kinds)
	}
	if p, err := j.PublishedThrough(ctx); err != nil || p != 2 {
		t.Errorf("PublishedThrough: %d, %v", p, err)
	}
}

func TestJournalRefusesWhatIsNotAJournal(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, []byte(strings.Repeat("this is not sqlite ", 400)), 0o644)

	other := filepath.Join(dir, "other.db")
	j, err := OpenJournal(other)
	if err != nil {
		t.Fatal(err)
	}
	j.db.Exec(`CREATE TABLE photos (id INTEGER)`)
	j.db.Exec(`DROP TABLE journal`)
	j.Close()

	// A real journal with its middle pages overwritten.
	damaged := filepath.Join(dir, "damaged.db")
	j, err = OpenJournal(damaged)
	if err != nil {
		t.Fatal(err)
	}
	big := []byte(`{"pad":"` + strings.Repeat("x", 3000) + `"}`)
	for range 50 {
		if _, err := j.Append(context.Background(), KindAction, "skirmish", time.Now(), big, []byte(`[]`)); err != nil {
			t.Fatal(err)
		}
	}
	j.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	j.Close()
	f, _ := os.OpenFile(damaged, os.O_RDWR, 0)
	f.WriteAt([]byte(strings.Repeat("\xff", 8192)), 4096*3)
	f.Close()

	for name, path := range map[string]string{"garbage": garbage, "another database": other, "damaged": damaged, "a directory": dir} {
		t.Run(name, func(t *testing.T) {
			_, err := OpenJournal(path)
			var je *JournalError
			if !errors.As(err, &je) || je.Path != path {
				t.Fatalf("got %v, want a JournalError naming %s", err, path)
			}
		})
	}
}
