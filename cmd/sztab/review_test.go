package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/golden"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/vision"
)

// reviewJournal is the skirmish demo played on the real daemon with a
// stopped clock (22 entries), then the camera's snapshot with its picture
// and the "next" key: entry 23 names the picture.
func reviewJournal(t *testing.T) (journal, config string) {
	t.Helper()
	spec, _ := games.Lookup("skirmish")
	at := time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC)
	return tabletest.DemoJournal(t, t.TempDir(), "skirmish.yaml", spec, at, 22, func(d *companion.Daemon) {
		snap := &vision.Snapshot{Seq: 2, Time: at, CalibrationMM: 1.2, KrokMM: 25.4}
		for i, x := range []float64{300, 360, 420, 480, 540} {
			snap.Models = append(snap.Models, vision.ModelPosition{ID: "ak-" + string(rune('1'+i)), Unit: "ak", X: x, Y: 101, BaseMM: 25, SigmaMM: 0.6})
		}
		for i, x := range []float64{300, 360, 420} {
			snap.Models = append(snap.Models, vision.ModelPosition{ID: "gren-" + string(rune('1'+i)), Unit: "gren", X: x, Y: 630, BaseMM: 25, SigmaMM: 0.6, Cover: "light"})
		}
		ctx := context.Background()
		if err := d.Submit(ctx, companion.Input{Snapshot: snap, Image: pictureJPEG(t)}); err != nil {
			t.Fatal(err)
		}
		if err := d.Submit(ctx, companion.Input{Key: &hardware.KeyEvent{Keypad: "keypad", Key: "next"}, From: companion.Sender{Kind: wire.Keys, Audience: wire.Public}}); err != nil {
			t.Fatal(err)
		}
		tabletest.WaitSeq(t, d, 23)
	})
}

// pictureJPEG is the table's picture: the same bytes at every run.
func pictureJPEG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 160, 120))
	for y := range 120 {
		for x := range 160 {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y * 2), 90, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var updateReview = flag.Bool("update-review", false, "rewrite the review's golden files in testdata/review")

// The review of the demo game at chosen entries prints the state, the
// entry's evidence (a tag and its reader, a keypad die, the camera's
// snapshot and its picture) and the rulings, as the golden files say; it
// runs beside a daemon holding the journal.
func TestReviewAtGolden(t *testing.T) {
	path, cfg := reviewJournal(t)
	held, err := companion.OpenJournal(path, companion.JournalIdentity{Venue: "demo", Table: "stol-1", Game: "skirmish"}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	for _, tc := range []struct{ at, file string }{
		{"3", "at-3-tag.txt"}, {"8", "at-8-keypad-die.txt"}, {"last", "at-23-picture.txt"}, {"2", "at-2-unknown-tag.txt"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			out, err := runSztab(t, "review", "--journal", path, "--config", cfg, "--at", tc.at)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			golden.Check(t, filepath.Join("testdata", "review", tc.file), []byte(out), *updateReview)
		})
	}
	out, err := runSztab(t, "review", "--journal", path, "--config", cfg, "--at", "1", "--lang", "pl")
	if err != nil || !strings.Contains(out, "runda 0") || !strings.Contains(out, "evidence:\n  none recorded") {
		t.Errorf("the opening entry in Polish, without evidence: %v\n%s", err, out)
	}
}

// A bad --at, or no mode, is refused saying what and where.
func TestReviewBadArguments(t *testing.T) {
	path, cfg := reviewJournal(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--at", "0"}, "review: entry 0: the journal holds entries 1 to 23 (--at)"},
		{[]string{"--at", "24"}, "review: entry 24: the journal holds entries 1 to 23"},
		{[]string{"--at", "x"}, `review: entry "x": give a number from 1 to 23, first or last`},
		{[]string{}, "review: give --at SEQ or --serve ADDR"},
		{[]string{"--at", "1", "--serve", "127.0.0.1:0"}, "review: give --at SEQ or --serve ADDR"},
		{[]string{"--at", "1", "--lang", "de"}, `review: --lang "de": want en or pl`},
	} {
		out, err := runSztab(t, append([]string{"review", "--journal", path, "--config", cfg}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v (%s), want %q", tc.args, err, out, tc.want)
		}
	}
}

// sztab verify checks the pictures the entries name: a changed picture or
// one deleted behind the table's back fails, naming the entry; one the
// storage policy pruned does not.
func TestVerifyEvidenceImages(t *testing.T) {
	path, _ := reviewJournal(t)
	out, err := runSztab(t, "verify", "--journal", path)
	if err != nil || !strings.Contains(out, "images: 1 named by entries: 1 beside the journal and unchanged") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	pics, _ := filepath.Glob(filepath.Join(companion.EvidenceDir(path), "*.jpg"))
	if len(pics) != 1 {
		t.Fatalf("pictures beside the journal: %v", pics)
	}
	orig, _ := os.ReadFile(pics[0])
	changed := append([]byte(nil), orig...)
	changed[len(changed)/2] ^= 0x40
	os.WriteFile(pics[0], changed, 0o644)
	_, err = runSztab(t, "verify", "--journal", path)
	if !errors.Is(err, companion.ErrEvidenceTampered) || !strings.Contains(err.Error(), "entry 23: image "+strings.TrimSuffix(filepath.Base(pics[0]), ".jpg")) {
		t.Errorf("changed picture: got %v, want entry 23 named, ErrEvidenceTampered", err)
	}
	os.Remove(pics[0])
	if _, err = runSztab(t, "verify", "--journal", path); !errors.Is(err, companion.ErrEvidenceTampered) || !strings.Contains(err.Error(), "did not prune it") {
		t.Errorf("deleted picture: got %v, want ErrEvidenceTampered", err)
	}
	// Pruned by the table's policy: listed in pruned.log, not an error.
	log := strings.TrimSuffix(filepath.Base(pics[0]), ".jpg") + " 2026-09-01T00:00:00Z size\n"
	os.WriteFile(filepath.Join(companion.EvidenceDir(path), "pruned.log"), []byte(log), 0o644)
	out, err = runSztab(t, "verify", "--journal", path)
	if err != nil || !strings.Contains(out, "1 pruned by the storage policy") {
		t.Errorf("pruned picture: %v\n%s", err, out)
	}
	out, err = runSztab(t, "review", "--journal", path, "--config", filepath.Join(filepath.Dir(path), "skirmish.yaml"), "--at", "23")
	if err != nil || !strings.Contains(out, "pruned by the storage policy") {
		t.Errorf("review of a pruned picture: %v\n%s", err, out)
	}
}

// A journal made without evidence (the README's Mali game, journaled
// entry by entry) reviews all the same: the state, and no evidence.
func TestReviewJournalWithoutEvidence(t *testing.T) {
	path, cfg := maliJournal(t)
	out, err := runSztab(t, "review", "--journal", path, "--config", cfg, "--at", "7")
	if err != nil || !strings.Contains(out, "entry 7 ") ||
		!strings.Contains(out, "evidence:\n  none recorded") || !strings.Contains(out, "state after entry 7:\n  ") {
		t.Errorf("review of an entry without evidence: %v\n%s", err, out)
	}
	out, err = runSztab(t, "verify", "--journal", path)
	if err != nil || strings.Contains(out, "images:") {
		t.Errorf("verify of a journal without pictures: %v\n%s", err, out)
	}
}

// sztab review --serve serves the page and the moments until stopped.
func TestReviewServe(t *testing.T) {
	path, cfg := reviewJournal(t)
	root := newRoot()
	pr, pw := io.Pipe()
	root.SetOut(pw)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"review", "--journal", path, "--config", cfg, "--serve", "127.0.0.1:0"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx); pw.Close() }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	go io.Copy(io.Discard, pr)
	i := strings.Index(line, "http://")
	if err != nil || i < 0 || !strings.Contains(line, "entries 1 to 23") {
		cancel()
		t.Fatalf("first line %q, %v", line, err)
	}
	url := strings.TrimSpace(line[i:])
	res, err := http.Get(url + "api/moment?seq=last")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"Seq":23`) || !strings.Contains(string(body), `"Image":"present"`) {
		t.Errorf("moment 23: %d %s", res.StatusCode, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("review --serve stopped with %v", err)
	}
}
