package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/internal/tabletest"
)

// recordGames are the five games' demo tables.
// World of Tanks: Rush has no dice: a bought card is changed instead.
var recordGames = []struct {
	game, file string
	dice       bool
}{
	{"skirmish", "skirmish.yaml", true},
	{"bitwa-warszawska", "bitwa-warszawska.yaml", true},
	{"mali-powstancy", "mali-powstancy.yaml", true},
	{"wot-rush", "wot-rush.yaml", false},
	{"west-1920", "west-1920.yaml", true},
}

// digitInBody is any number in an action's body.
var digitInBody = regexp.MustCompile(`[0-9]`)

// dieInBody finds a die's value in an action's body: a roll's "value" or
// the first of a "dice" list.
var dieInBody = regexp.MustCompile(`"value":([1-6])\b|"dice":\[([1-6])\b`)

// For each of the five games, the demo played on the real daemon: its
// journal verifies; a die changed in an entry in the middle is caught by
// `sztab verify` (exit 1) and refused by the daemon at start, both naming
// that entry; a chain cut at the end by a torn write is recovered by both,
// not reported as tampering; `sztab review --at` that entry prints its
// evidence with the die as it was entered.
func TestRecordEveryGame(t *testing.T) {
	for _, g := range recordGames {
		t.Run(g.game, func(t *testing.T) {
			spec, ok := games.Lookup(g.game)
			if !ok {
				t.Fatalf("no game %q", g.game)
			}
			at := time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC)
			path, cfgPath := tabletest.DemoJournal(t, t.TempDir(), g.file, spec, at, 20, nil)
			out, err := runSztab(t, "verify", "--journal", path)
			if err != nil || !strings.Contains(out, "OK: journal") {
				t.Fatalf("verify of the demo's journal: %v\n%s", err, out)
			}

			// The action with a die nearest the middle of the journal.
			j, err := companion.ReadJournal(path)
			if err != nil {
				t.Fatal(err)
			}
			last := j.Chain().LastSeq
			var seq int64
			var body string
			var die int
			j.Entries(context.Background(), 0, func(e companion.Entry) error {
				m := dieInBody.FindStringSubmatch(string(e.Body))
				if !g.dice {
					m = digitInBody.FindStringSubmatch(string(e.Body))
				}
				if e.Kind != companion.KindAction || m == nil || e.Seq == 1 {
					return nil
				}
				if seq == 0 || abs(e.Seq-last/2) < abs(seq-last/2) {
					seq, body = e.Seq, string(e.Body)
					if g.dice {
						die, _ = strconv.Atoi(m[1] + m[2])
					}
				}
				return nil
			})
			j.Close()
			if seq == 0 || seq == last {
				t.Fatalf("no action with a die in the middle of %d entries", last)
			}

			// The review at that entry: its evidence, the die entered.
			out, err = runSztab(t, "review", "--journal", path, "--config", cfgPath, "--at", fmt.Sprint(seq))
			evidence, _, _ := strings.Cut(out[strings.Index(out, "\nevidence:\n")+1:], "\n\n")
			if err != nil || !strings.Contains(out, fmt.Sprintf(": entry %d of %d\n", seq, last)) || !strings.Contains(evidence, "  input: ") ||
				(g.dice && !strings.Contains(evidence, fmt.Sprintf("  die: %d (", die))) {
				t.Errorf("review at entry %d (a die of %d): %v\n%s", seq, die, err, out)
			}

			// A die (or a number) changed in the middle, behind Sztab's back.
			tampered := copyJournal(t, path)
			changed := digitInBody.ReplaceAllStringFunc(body, func(s string) string { return fmt.Sprint((s[0] - '0' + 1) % 10) })
			if g.dice {
				changed = dieInBody.ReplaceAllStringFunc(body, func(s string) string {
					return s[:len(s)-1] + fmt.Sprint(die%6+1)
				})
			}
			editSQLiteArgs(t, tampered, `UPDATE journal SET body = ? WHERE seq = ?`, changed, seq)
			want := fmt.Sprintf("entry %d: hash mismatch", seq)
			_, err = runSztab(t, "verify", "--journal", tampered)
			if err == nil || !strings.Contains(err.Error(), want) || exitCode(err) != 1 {
				t.Errorf("verify of the changed journal: got %v, want exit 1 saying %q", err, want)
			}
			if d, err := openDaemon(t, cfgPath, tampered); err == nil {
				d.Close()
				t.Errorf("the daemon started on the changed journal, want refused saying %q", want)
			} else if !errors.Is(err, companion.ErrJournalTampered) || !strings.Contains(err.Error(), want) {
				t.Errorf("the daemon at start: got %v, want ErrJournalTampered saying %q", err, want)
			}

			// A torn write at the end: the last entry's transaction cut in
			// the middle of its write-ahead log frame.
			torn := tornJournal(t, path)
			out, err = runSztab(t, "verify", "--journal", torn)
			if err != nil || !strings.Contains(out, fmt.Sprintf("last seq %d,", last)) {
				t.Errorf("verify of a torn journal: %v\n%s\nwant OK through entry %d", err, out, last)
			}
			d, err := openDaemon(t, cfgPath, torn)
			if err != nil {
				t.Fatalf("the daemon on a torn journal: %v", err)
			}
			if d.Seq() != last {
				t.Errorf("the daemon on a torn journal: seq %d, want %d", d.Seq(), last)
			}
			d.Close()
		})
	}
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// copyJournal copies a closed journal (and its pictures' directory is not
// needed: the demo has none) to a new place.
func copyJournal(t *testing.T, path string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), filepath.Base(path))
	for _, suffix := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(path + suffix)
		if errors.Is(err, os.ErrNotExist) && suffix != "" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return to
}

// tornJournal is a copy of the journal at path as a power cut leaves it
// in the middle of one more entry: the daemon's journal opened, an entry
// appended, its files copied while open and its write-ahead log cut half
// way through its last frame.
func tornJournal(t *testing.T, path string) string {
	t.Helper()
	src := copyJournal(t, path)
	j, err := companion.ReadJournal(src)
	if err != nil {
		t.Fatal(err)
	}
	id := j.Identity()
	j.Close()
	w, err := companion.OpenJournal(src, id, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Append(context.Background(), companion.KindNotice, id.Game, time.Now(), []byte(`{"type":"unknown_tag","uid":"04FFFFFF"}`), []byte(`[]`)); err != nil {
		t.Fatal(err)
	}
	db, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	wal, err := os.ReadFile(src + "-wal")
	if err != nil || len(wal) < 32 {
		t.Fatalf("the write-ahead log after an append: %d bytes, %v", len(wal), err)
	}
	frame := 24 + int(binary.BigEndian.Uint32(wal[8:12]))
	to := filepath.Join(t.TempDir(), filepath.Base(path))
	os.WriteFile(to, db, 0o644)
	os.WriteFile(to+"-wal", wal[:len(wal)-frame/2], 0o644)
	return to
}

// openDaemon opens (does not serve) the daemon of the table's config on
// another journal.
func openDaemon(t *testing.T, cfgPath, journal string) (*companion.Daemon, error) {
	t.Helper()
	cfg, err := companion.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Journal = journal
	cfg.MQTT.Listen = "127.0.0.1:0"
	if cfg.Display.Listen != "" {
		cfg.Display.Listen = "127.0.0.1:0"
	}
	return companion.Open(context.Background(), cfg, companion.Options{Games: games, Log: quiet})
}

// editSQLiteArgs changes a journal behind Sztab's back, as sqlite3 would,
// with the statement's arguments.
func editSQLiteArgs(t *testing.T, path, stmt string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(stmt, args...)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("%s changed %d rows, want 1", stmt, n)
	}
}

// Review and export work from a journal alone, for every game: the daemon
// keeps the game's section in the journal, and the export without --config
// is the export with it. A journal without it (made before) is refused with
// exactly what to add.
func TestReviewAndExportFromTheJournalAlone(t *testing.T) {
	now = func() time.Time { return time.Date(2026, 8, 2, 9, 0, 0, 0, time.UTC) }
	defer func() { now = time.Now }()
	for _, g := range recordGames {
		t.Run(g.game, func(t *testing.T) {
			spec, _ := games.Lookup(g.game)
			at := time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC)
			path, cfgPath := tabletest.DemoJournal(t, t.TempDir(), g.file, spec, at, 20, nil)
			if o, err := runSztab(t, "review", "--journal", path, "--at", "last"); err != nil {
				t.Errorf("review --journal alone: %v\n%s", err, o)
			}
			alone, given := filepath.Join(t.TempDir(), "rec"), filepath.Join(t.TempDir(), "rec")
			if o, err := runSztab(t, "export", "--journal", path, "--out", alone); err != nil {
				t.Fatalf("export --journal alone: %v\n%s", err, o)
			}
			if o, err := runSztab(t, "export", "--journal", path, "--config", cfgPath, "--out", given); err != nil {
				t.Fatalf("export --config: %v\n%s", err, o)
			}
			a, _ := os.ReadFile(filepath.Join(alone, record.RecordFile))
			b, _ := os.ReadFile(filepath.Join(given, record.RecordFile))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("the export from the journal alone differs from the export with --config")
			}
		})
	}
	// A journal made before journals kept the section: the exact hint.
	path, _ := maliJournal(t)
	for _, args := range [][]string{{"export", "--journal", path, "--out", t.TempDir()}, {"review", "--journal", path, "--at", "last"}} {
		_, err := runSztab(t, args...)
		if err == nil || !strings.Contains(err.Error(), "the journal "+path+" was made before journals kept their table's mali-powstancy section: give --config with the table's config") {
			t.Errorf("%s without the kept section: got %v, want the exact hint", args[0], err)
		}
	}
}
