package hub

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/display"
)

// TestWallCoalescing: tables changing far faster than WallEvery get the
// wall at most once per WallEvery (plus the first change at once), and
// the last publication has every table's latest state. A quiet venue's
// change reaches the wall at once.
func TestWallCoalescing(t *testing.T) {
	for _, tc := range []struct {
		name     string
		every    time.Duration
		coalesce bool
	}{
		{"every 50ms", 50 * time.Millisecond, true},
		{"every change", -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := New(Options{Broker: "tcp://127.0.0.1:1", Venue: "v", WallEvery: tc.every,
				Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				t.Fatal(err)
			}
			_, live, cancel := h.feed.Subscribe(display.Public)
			defer cancel()

			start := time.Now()
			h.apply("sztab/v1/v/stol-0/state", []byte(`{"seq":1,"game":"skirmish"}`))
			var w Wall
			for w = pagesWall(h); (len(w.Tables) != 1 || w.Tables[0].Seq != 1) && time.Since(start) < 5*time.Second; w = pagesWall(h) {
				time.Sleep(100 * time.Microsecond)
			}
			if len(w.Tables) != 1 || w.Tables[0].Seq != 1 {
				t.Fatalf("after one change the wall is %+v, want stol-0 at seq 1", w.Tables)
			}
			time.Sleep(2 * max(tc.every, 0))
			for len(live) > 0 {
				<-live
			}
			// The page keeps the walls as they come (read later: this
			// page must keep up with every change).
			walls := make(chan [][]byte)
			stop := make(chan struct{})
			go func() {
				var got [][]byte
				take := func(m display.Message) {
					if m.Kind == "overflow" {
						t.Error("the test's page overflowed")
					}
					if m.Kind == "state" {
						got = append(got, m.Data)
					}
				}
				for {
					select {
					case m := <-live:
						take(m)
					case <-stop:
						for len(live) > 0 {
							take(<-live)
						}
						walls <- got
						return
					}
				}
			}()

			const tables, rounds = 10, 100
			start = time.Now()
			for seq := 2; seq <= rounds; seq++ {
				for i := range tables {
					h.apply(fmt.Sprintf("sztab/v1/v/stol-%d/state", i), fmt.Appendf(nil, `{"seq":%d,"game":"skirmish","headline":{"pl":"r%d","en":"r%d"}}`, seq, seq, seq))
				}
				time.Sleep(time.Millisecond)
			}
			took := time.Since(start)
			// The last change is on the wall within WallEvery.
			for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
				if w = pagesWall(h); len(w.Tables) == tables && allAt(w, rounds) {
					break
				}
			}
			if !allAt(w, rounds) || len(w.Tables) != tables {
				t.Fatalf("the wall did not come to seq %d at every one of %d tables: %+v", rounds, tables, w.Tables)
			}
			for _, tb := range w.Tables {
				if tb.Headline == nil || tb.Headline.EN != fmt.Sprintf("r%d", rounds) || tb.Game != "skirmish" {
					t.Errorf("table %s: headline %+v game %q, want r%d skirmish", tb.Table, tb.Headline, tb.Game, rounds)
				}
			}
			time.Sleep(20 * time.Millisecond)
			close(stop)
			published := <-walls
			got := len(published)
			var lastSeq int64
			for _, data := range published {
				var pw Wall
				if err := json.Unmarshal(data, &pw); err != nil {
					t.Fatal(err)
				}
				if pw.Seq <= lastSeq {
					t.Errorf("wall seq %d after %d: an older wall was sent after a newer one", pw.Seq, lastSeq)
				}
				lastSeq = pw.Seq
			}
			changes := tables * (rounds - 1)
			if tc.coalesce {
				// At most one a spell: the first at once, one per WallEvery
				// while the changes last, one at the end of the last spell,
				// and two for late timers on a busy machine.
				if most := int(took/tc.every) + 4; got > most {
					t.Errorf("%d changes in %v made %d publications, want at most %d (one per %v)", changes, took, got, most, tc.every)
				}
			} else if got != changes {
				t.Errorf("every change: %d publications for %d changes", got, changes)
			}
		})
	}
}

func allAt(w Wall, seq int64) bool {
	for _, t := range w.Tables {
		if t.Seq != seq {
			return false
		}
	}
	return true
}

// TestWallQuietChange: the first change after a quiet spell is on the wall
// at once, the next one only when the spell of WallEvery ends (a long
// spell here, so that a busy machine cannot blur the two).
func TestWallQuietChange(t *testing.T) {
	h, err := New(Options{Broker: "tcp://127.0.0.1:1", Venue: "v", WallEvery: 30 * time.Second,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	seqOnWall := func(within time.Duration, want int64) int64 {
		var got int64
		for end := time.Now().Add(within); ; time.Sleep(time.Millisecond) {
			if w := pagesWall(h); len(w.Tables) == 1 {
				got = w.Tables[0].Seq
			}
			if got == want || time.Now().After(end) {
				return got
			}
		}
	}
	h.apply("sztab/v1/v/stol-1/state", []byte(`{"seq":1}`))
	if got := seqOnWall(10*time.Second, 1); got != 1 {
		t.Fatalf("the first change is not on the wall after 10 s (seq %d), want it at once", got)
	}
	h.apply("sztab/v1/v/stol-1/state", []byte(`{"seq":2}`))
	if got := seqOnWall(300*time.Millisecond, 2); got != 1 {
		t.Fatalf("a change within the spell is on the wall at once (seq %d), want it at the spell's end", got)
	}
}

// TestWallBandwidth: with many pages the wall goes less often than
// WallEvery, so that all the pages together get at most WallBandwidth.
func TestWallBandwidth(t *testing.T) {
	h, err := New(Options{Broker: "tcp://127.0.0.1:1", Venue: "v", WallEvery: 10 * time.Millisecond,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	const pages = 50
	for range pages - 1 {
		_, _, cancel := h.feed.Subscribe(display.Public)
		defer cancel()
	}
	_, live, cancel := h.feed.Subscribe(display.Public)
	defer cancel()
	change := func(seq int) {
		for i := range 10 {
			h.apply(fmt.Sprintf("sztab/v1/v/stol-%d/state", i), fmt.Appendf(nil, `{"seq":%d,"game":"skirmish"}`, seq))
		}
	}
	change(1)
	time.Sleep(50 * time.Millisecond)
	size := h.wallSize.Load()
	if size < 100 {
		t.Fatalf("a wall of 10 tables is %d bytes", size)
	}
	// Five walls a second to all the pages.
	h.opts.WallBandwidth = size * pages * 5
	if got := h.wallEvery(); got < 190*time.Millisecond || got > 210*time.Millisecond {
		t.Fatalf("wallEvery() = %v with %d pages of %d bytes at %d B/s, want 200ms", got, pages, size, h.opts.WallBandwidth)
	}
	for len(live) > 0 {
		<-live
	}
	start := time.Now()
	for seq := 2; time.Since(start) < 600*time.Millisecond; seq++ {
		change(seq)
		time.Sleep(time.Millisecond)
	}
	took := time.Since(start)
	time.Sleep(250 * time.Millisecond)
	got := 0
	for len(live) > 0 {
		if m := <-live; m.Kind == "state" {
			got++
		}
	}
	if most := int(took/(200*time.Millisecond)) + 3; got > most || got == 0 {
		t.Errorf("%v of changes with %d pages at 5 walls a second made %d publications, want 1 to %d", took, pages, got, most)
	}
}

// pagesWall is the wall as the pages have it (the feed), which follows the
// hub's state at most WallEvery later.
func pagesWall(h *Hub) Wall {
	data, _ := h.feed.View(display.Public)
	var w Wall
	json.Unmarshal(data, &w)
	return w
}
