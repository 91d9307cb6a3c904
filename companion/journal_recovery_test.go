package companion

import (
	"bytes"
	"context"
	"encoding/binary"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// snapshot is a journal's files as a power cut would leave them: the
// database, its write-ahead log and its shared-memory index, copied while
// the journal is open.
type snapshot struct{ db, wal, shm []byte }

// openJournalSnapshot appends `entries` entries to a new journal (with a
// checkpoint that restarts the write-ahead log after `restartAfter` of
// them, if not 0) and copies its files while it is still open.
func openJournalSnapshot(t *testing.T, entries, restartAfter int) snapshot {
	t.Helper()
	path := filepath.Join(t.TempDir(), "src.db")
	j, err := OpenJournal(path, testJournal, quietLog)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for i := 1; i <= entries; i++ {
		body := []byte(`{"n":` + strings.Repeat("1", i) + `}`)
		if _, err := j.Append(context.Background(), KindAction, "skirmish", time.Now(), body, []byte(`[]`)); err != nil {
			t.Fatal(err)
		}
		if i == restartAfter {
			if _, err := j.db.Exec(`PRAGMA wal_checkpoint(RESTART)`); err != nil {
				t.Fatal(err)
			}
		}
	}
	var s snapshot
	for _, f := range []struct {
		to   *[]byte
		name string
	}{{&s.db, path}, {&s.wal, path + "-wal"}, {&s.shm, path + "-shm"}} {
		if *f.to, err = os.ReadFile(f.name); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// walFrameSize is the size of one frame of the write-ahead log wal.
func walFrameSize(wal []byte) int { return walFrameHeaderSize + int(binary.BigEndian.Uint32(wal[8:])) }

// A journal whose write-ahead log ends in an unfinished write (the power
// went in the middle of an Append) opens, recovers to its last whole entry,
// and says so: in Recovery and on the log. These are real files as SQLite
// wrote them, damaged the ways a power cut damages them.
//
// What this proves: SQLite's own recovery keeps every whole transaction and
// drops the torn one (the entry counts), OpenJournal's reading of the log
// agrees with it (Frames, Torn, Ignored), the recovered journal takes new
// entries, and a log merely left over from before a checkpoint is not
// reported as torn.
func TestJournalRecoversFromATornWriteAheadLog(t *testing.T) {
	const entries = 5
	plain := openJournalSnapshot(t, entries, 0)
	restarted := openJournalSnapshot(t, entries, 3)
	const some = -1
	cutLastFrame := func(wal []byte) []byte { return wal[:len(wal)-walFrameSize(wal)/2] }
	for _, tc := range []struct {
		name        string
		from        snapshot
		damage      func(wal []byte) []byte
		keepShm     bool
		wantEntries int64
		wantTorn    bool
		wantIgnored int64 // bytes, or some: more than none
		wantLog     string
	}{{
		name: "whole log", from: plain, damage: func(w []byte) []byte { return w },
		wantEntries: entries, wantIgnored: 0, wantLog: "did not close the journal",
	}, {
		name: "last frame cut in half", from: plain, damage: cutLastFrame,
		wantEntries: entries - 1, wantTorn: true, wantIgnored: some, wantLog: "stopped in the middle of a write",
	}, {
		name: "last frame cut in half, stale shared-memory index beside it", from: plain, damage: cutLastFrame, keepShm: true,
		wantEntries: entries - 1, wantTorn: true, wantIgnored: some, wantLog: "stopped in the middle of a write",
	}, {
		name: "last frame's page not all on disk", from: plain,
		damage: func(w []byte) []byte {
			w = bytes.Clone(w)
			copy(w[len(w)-walFrameSize(w)/2:], bytes.Repeat([]byte{0xa5}, 64))
			return w
		},
		wantEntries: entries - 1, wantTorn: true, wantIgnored: some, wantLog: "stopped in the middle of a write",
	}, {
		name: "garbage after the last frame", from: plain,
		damage:      func(w []byte) []byte { return append(bytes.Clone(w), bytes.Repeat([]byte("garbage "), 20)...) },
		wantEntries: entries, wantTorn: true, wantIgnored: 160, wantLog: "stopped in the middle of a write",
	}, {
		name: "log restarted after a checkpoint, old frames after the new", from: restarted, damage: func(w []byte) []byte { return w },
		wantEntries: entries, wantIgnored: some, wantLog: "did not close the journal",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t1.journal.db")
			wal := tc.damage(tc.from.wal)
			os.WriteFile(path, tc.from.db, 0o644)
			os.WriteFile(path+"-wal", wal, 0o644)
			if tc.keepShm {
				os.WriteFile(path+"-shm", tc.from.shm, 0o644)
			}
			var logged bytes.Buffer
			j, err := OpenJournal(path, testJournal, slog.New(slog.NewTextHandler(&logged, nil)))
			if err != nil {
				t.Fatalf("got %v, want the journal recovered", err)
			}
			defer j.Close()

			var seqs []int64
			if err := j.Entries(context.Background(), 0, func(e Entry) error {
				if want := `{"n":` + strings.Repeat("1", int(e.Seq)) + `}`; string(e.Body) != want {
					t.Errorf("entry %d: got %s, want %s", e.Seq, e.Body, want)
				}
				seqs = append(seqs, e.Seq)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if int64(len(seqs)) != tc.wantEntries || (len(seqs) > 0 && seqs[len(seqs)-1] != tc.wantEntries) {
				t.Errorf("got entries %v, want 1…%d", seqs, tc.wantEntries)
			}
			r := j.Recovery()
			if r.Entries != tc.wantEntries || r.LastSeq != tc.wantEntries || r.Torn != tc.wantTorn || r.WALBytes != int64(len(wal)) || r.Frames == 0 {
				t.Errorf("got %+v, want %d entries through seq %d, torn %v, %d bytes of log, whole frames",
					r, tc.wantEntries, tc.wantEntries, tc.wantTorn, len(wal))
			}
			if r.WALBytes != int64(walHeaderSize)+int64(r.Frames)*int64(walFrameSize(wal))+r.Ignored {
				t.Errorf("got %+v: the header, %d whole frames and %d ignored bytes do not make the %d-byte log", r, r.Frames, r.Ignored, r.WALBytes)
			}
			if (tc.wantIgnored == some && r.Ignored <= 0) || (tc.wantIgnored != some && r.Ignored != tc.wantIgnored) {
				t.Errorf("got %d bytes ignored, want %d (%d: some)", r.Ignored, tc.wantIgnored, some)
			}
			if !strings.Contains(logged.String(), tc.wantLog) || !strings.Contains(logged.String(), "last_seq="+strconv.FormatInt(tc.wantEntries, 10)) {
				t.Errorf("log %q does not say %q and last_seq=%d", logged.String(), tc.wantLog, tc.wantEntries)
			}
			// The recovered journal goes on from its last whole entry.
			seq, err := j.Append(context.Background(), KindAction, "skirmish", time.Now(), []byte(`{}`), []byte(`[]`))
			if err != nil || seq != tc.wantEntries+1 {
				t.Errorf("Append after recovery: got seq %d, %v, want %d", seq, err, tc.wantEntries+1)
			}
		})
	}
}
