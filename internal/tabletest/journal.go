package tabletest

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules"
)

// DemoJournal plays a game's demo session (the demo table file, e.g.
// "skirmish.yaml", written into dir) on the real daemon with its clock
// stopped at at, so that the journal is the same at every run, until the
// journal holds entry until; more (if not nil) then hands the daemon
// further inputs. The daemon is closed; DemoJournal returns the journal's
// path and the table's config file's.
func DemoJournal(t testing.TB, dir, file string, spec companion.GameSpec, at time.Time, until int64, more func(d *companion.Daemon)) (journal, config string) {
	t.Helper()
	cfg := DemoConfig(t, dir, file, true)
	d, err := companion.Open(context.Background(), cfg, companion.Options{
		Games: companion.Games{spec}, SimSpeed: 0, Clock: func() time.Time { return at },
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	r := &Running{D: d, cfg: cfg}
	r.Serve(t)
	WaitSeq(t, d, until)
	if more != nil {
		more(d)
	}
	r.Stop(t)
	return cfg.Resolve(cfg.Journal), cfg.Path()
}

// WaitSeq waits (30 s at most) until the daemon's journal holds entry seq.
func WaitSeq(t testing.TB, d *companion.Daemon, seq int64) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); d.Seq() < seq; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the journal stays at entry %d, want %d", d.Seq(), seq)
		}
	}
}

// ScriptJournal writes a game's script (a golden game's actions, read by
// the game's own script reader) as a table's journal: each line an
// accepted action in the codec's form, a second apart, as a daemon that
// played it would have left it (the daemon replays it at start).
func ScriptJournal(t testing.TB, path string, id companion.JournalIdentity, lines []rules.ScriptLine, codec *rules.Codec) {
	t.Helper()
	j, err := companion.OpenJournal(path, id, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	at := time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC)
	for i, l := range lines {
		body, err := codec.Encode(l.Action)
		if err != nil {
			t.Fatalf("script line %d: %v", l.Line, err)
		}
		if _, err := j.Append(context.Background(), companion.KindAction, id.Game, at.Add(time.Duration(i)*time.Second), body, []byte(`[]`)); err != nil {
			t.Fatalf("script line %d: %v", l.Line, err)
		}
	}
}
