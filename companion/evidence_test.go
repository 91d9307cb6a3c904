package companion_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/vision"
)

// testJPEG is a real JPEG of the given shade.
func testJPEG(t testing.TB, shade uint8) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for y := 0; y < 48; y++ {
		for x := 0; x < 64; x++ {
			img.Set(x, y, color.RGBA{shade, uint8(x * 4), uint8(y * 5), 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// demoSnapshot is the demo's camera snapshot: five AK soldiers and five
// grenadiers 20 kroki apart.
func demoSnapshot() *vision.Snapshot {
	s := &vision.Snapshot{Seq: 7, Time: time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC), CalibrationMM: 1.5, KrokMM: 25.4}
	for i, x := range []float64{300, 360, 420, 480, 540} {
		s.Models = append(s.Models,
			vision.ModelPosition{ID: "ak-" + string(rune('1'+i)), Unit: "ak", X: x, Y: 100, BaseMM: 25, SigmaMM: 0.5},
			vision.ModelPosition{ID: "gren-" + string(rune('1'+i)), Unit: "gren", X: x, Y: 633, BaseMM: 25, SigmaMM: 0.5})
	}
	return s
}

// submitUntil hands in to the daemon and waits until its journal reaches seq.
func submitUntil(t *testing.T, d *companion.Daemon, in companion.Input, seq int64) {
	t.Helper()
	if err := d.Submit(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); d.Seq() < seq; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the journal stays at seq %d, want %d", d.Seq(), seq)
		}
	}
}

// entryEvidence reads entry seq's evidence from the journal at path.
func entryEvidence(t *testing.T, path string, seq int64) (companion.Entry, *companion.Evidence) {
	t.Helper()
	j, err := companion.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	e, ok, err := j.Entry(context.Background(), seq)
	if err != nil || !ok {
		t.Fatalf("entry %d: found %v, %v", seq, ok, err)
	}
	_, ev, err := companion.SplitEvidence(e.Events)
	if err != nil || ev == nil {
		t.Fatalf("entry %d: evidence %v, %v\n%s", seq, ev, err, e.Events)
	}
	return e, ev
}

// Every entry made from an input keeps what the sensors saw: a tag's UID
// and reader, a keypad die with its origin and device, the camera's
// snapshot and its image stored beside the journal under its SHA-256 (in
// the chain); nothing of it is published; a changed image is caught.
func TestEvidenceTagKeypadCamera(t *testing.T) {
	dir := t.TempDir()
	cfg := demoConfig(t, dir, "mqtt:\n  listen: \"127.0.0.1:0\"\n", false)
	d := open(t, cfg)
	sub := subscribe(t, d.BrokerAddr())
	r := serve(d)
	pic := testJPEG(t, 200)
	sum := sha256.Sum256(pic)
	sha := hex.EncodeToString(sum[:])
	tag := func(uid string) companion.Input {
		return companion.Input{Tag: &hardware.TagEvent{Reader: "stol", UID: uid, Present: true}}
	}
	key := func(k string) companion.Input {
		return companion.Input{Key: &hardware.KeyEvent{Keypad: "keypad", Key: k}, From: companion.Sender{Kind: wire.Keys, Audience: wire.Public}}
	}
	// Seq 1 is the opening action; the snapshot alone makes no entry.
	if err := d.Submit(context.Background(), companion.Input{Snapshot: demoSnapshot(), Image: pic}); err != nil {
		t.Fatal(err)
	}
	submitUntil(t, d, tag("04A1B2C3"), 2) // deploy ak
	submitUntil(t, d, tag("04D4E5F6"), 3) // deploy gren
	submitUntil(t, d, key("next"), 4)
	submitUntil(t, d, tag("04A1B2C3"), 5) // shooter
	submitUntil(t, d, tag("04D4E5F6"), 6) // target
	submitUntil(t, d, key("3"), 7)        // the first die to hit
	sub.waitFor(t, "the die's event", func() bool {
		for _, e := range sub.events {
			if e.Seq == 7 {
				return true
			}
		}
		return false
	})
	r.stop(t)
	path := cfg.Resolve(cfg.Journal)

	_, ev := entryEvidence(t, path, 2)
	if ev.Input != "tag" || ev.Tag == nil || ev.Tag.UID != "04A1B2C3" || ev.Tag.Reader != "stol" || ev.Tag.Kind != "unit" || ev.Tag.ID != "ak" {
		t.Errorf("deploy's evidence: %+v, want the tag 04A1B2C3 on stol, unit ak", ev.Tag)
	}
	if s := ev.Snapshot; s == nil || s.Seq != 7 || s.Total != 10 || len(s.Models) != 10 || s.Models[0].SigmaMM != 0.5 || s.CalibrationMM != 1.5 {
		t.Errorf("deploy's snapshot: %+v, want camera snapshot 7, all 10 models with their uncertainty", s)
	}
	if ev.Image == nil || ev.Image.SHA256 != sha || ev.Image.Bytes != len(pic) {
		t.Fatalf("deploy's image: %+v, want sha256 %s", ev.Image, sha)
	}
	stored, err := os.ReadFile(filepath.Join(companion.EvidenceDir(path), sha+".jpg"))
	if err != nil || !bytes.Equal(stored, pic) {
		t.Fatalf("the image beside the journal: %v (same bytes: %v)", err, bytes.Equal(stored, pic))
	}
	e, ev := entryEvidence(t, path, 7)
	want := dice.Roll{Value: 3, Origin: dice.Keypad, Device: "keypad"}
	if ev.Input != "key" || ev.Key == nil || ev.Key.Key != "3" || ev.Key.From != "public" || len(ev.Dice) != 1 || ev.Dice[0] != want {
		t.Errorf("the die's evidence: key %+v, dice %+v; want key 3 from the table, %+v", ev.Key, ev.Dice, want)
	}
	if ev.Image == nil || ev.Image.SHA256 != sha {
		t.Errorf("the die's entry names image %+v, want the last snapshot's %s", ev.Image, sha)
	}
	// The evidence is in the chain: its bytes are in the hashed events.
	if !strings.Contains(string(e.Events), sha) {
		t.Errorf("entry 7's chained events do not name the image")
	}
	// Never published.
	for _, m := range sub.events {
		b, _ := json.Marshal(m.Event)
		if strings.Contains(string(b), `"evidence"`) {
			t.Errorf("evidence published: %s", b)
		}
	}

	j, err := companion.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := companion.CheckEvidenceImages(context.Background(), j, 0)
	if err != nil || c.Referenced != 1 || c.Present != 1 {
		t.Errorf("image check: %+v, %v; want one image, present", c, err)
	}
	// A changed image (a brighter picture under the same name) is caught,
	// naming the first entry that names it.
	if err := os.WriteFile(filepath.Join(companion.EvidenceDir(path), sha+".jpg"), testJPEG(t, 10), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = companion.CheckEvidenceImages(context.Background(), j, 0)
	if !errors.Is(err, companion.ErrEvidenceTampered) || !strings.Contains(err.Error(), "entry 2:") {
		t.Errorf("changed image: got %v, want ErrEvidenceTampered naming entry 2", err)
	}
	// Gone without the store pruning it: caught too.
	os.Remove(filepath.Join(companion.EvidenceDir(path), sha+".jpg"))
	if _, err = companion.CheckEvidenceImages(context.Background(), j, 0); !errors.Is(err, companion.ErrEvidenceTampered) || !strings.Contains(err.Error(), "did not prune") {
		t.Errorf("deleted image: got %v, want ErrEvidenceTampered (not pruned)", err)
	}
	j.Close()

	// The daemon starts again on the journal: the state replays.
	d2 := open(t, cfg)
	if d2.Seq() != 7 {
		t.Errorf("restart: seq %d, want 7", d2.Seq())
	}
	d2.Close()
}

// The store keeps its images within the size bound, the oldest going
// first, never the newest nor a pinned one; the age limit prunes too; the
// pruned are listed, and the check says pruned, not missing.
func TestEvidencePruneKeepsBound(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "t.journal.db.evidence")
	const bound = 20_000
	s, err := companion.OpenEvidenceStore(dir, companion.EvidencePolicy{MaxBytes: bound, MaxAge: 48 * time.Hour}, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	var refs []companion.ImageRef
	for i := range 30 {
		ref, err := s.Put(testJPEG(t, uint8(i*8)), at.Add(time.Duration(i)*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, ref)
		if i == 2 {
			if err := s.Pin(ref.SHA256); err != nil {
				t.Fatal(err)
			}
		}
		if total, _ := s.Size(); total > bound {
			t.Fatalf("after image %d: %d bytes stored, bound %d", i, total, bound)
		}
	}
	has := func(sha string) bool {
		_, err := os.Stat(filepath.Join(dir, sha+".jpg"))
		return err == nil
	}
	if !has(refs[2].SHA256) || !has(refs[29].SHA256) {
		t.Errorf("the pinned image (%v) or the newest (%v) was pruned", has(refs[2].SHA256), has(refs[29].SHA256))
	}
	if has(refs[0].SHA256) {
		t.Errorf("the oldest image is still there, over the bound")
	}
	pruned, err := companion.PrunedImages(filepath.Join(filepath.Dir(dir), "t.journal.db"))
	if err != nil || pruned[refs[0].SHA256] == "" {
		t.Errorf("pruned.log: %v, %v; want the oldest image listed", pruned, err)
	}
	// Three days later all but the pinned and the newest are too old.
	s.Prune(at.Add(72 * time.Hour))
	if _, n := s.Size(); n != 2 {
		t.Errorf("after the age limit: %d images, want 2 (pinned, newest)", n)
	}
	// A store opened again sees the same files.
	s2, err := companion.OpenEvidenceStore(dir, companion.EvidencePolicy{MaxBytes: bound}, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	if _, n := s2.Size(); n != 2 {
		t.Errorf("reopened: %d images, want 2", n)
	}
	if st := companion.ImageState(filepath.Join(filepath.Dir(dir), "t.journal.db"), refs[0].SHA256); st != "pruned" {
		t.Errorf("a pruned image's state: %q, want pruned", st)
	}
}

// A journal made before evidence was kept (and an entry without any)
// reads as events alone.
func TestEvidenceAbsentInOldEntries(t *testing.T) {
	for _, events := range []string{`[]`, `[{"type":"deployed","text":{"pl":"x","en":"x"}}]`, `null`} {
		list, ev, err := companion.SplitEvidence([]byte(events))
		if err != nil || ev != nil {
			t.Errorf("%s: evidence %v, %v; want none", events, ev, err)
		}
		if events != "null" && len(list) != strings.Count(events, `"type"`) {
			t.Errorf("%s: %d events", events, len(list))
		}
	}
	_, _, err := companion.SplitEvidence([]byte(`[{"type":"evidence","input":"tag","image":{"sha256":"../../etc/passwd"}}]`))
	if err == nil || !strings.Contains(err.Error(), "companion: evidence: image") {
		t.Errorf("a bad image name: got %v, want a companion: evidence: image error", err)
	}
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// The pruning policy comes from the config: defaults, and a bad value
// refused at its line.
func TestEvidenceConfig(t *testing.T) {
	base := "venue: v\ntable: t1\ngame: tally\ntags: tags.yaml\n"
	for _, tc := range []struct {
		more string
		want companion.EvidencePolicy
		err  string
	}{
		{"", companion.EvidencePolicy{MaxBytes: 512 << 20}, ""},
		{"evidence:\n  max_mb: 10\n  max_days: 30\n", companion.EvidencePolicy{MaxBytes: 10 << 20, MaxAge: 30 * 24 * time.Hour}, ""},
		{"evidence:\n  max_mb: -1\n", companion.EvidencePolicy{}, "t.yaml:6: evidence.max_mb: -1"},
		{"evidence:\n  max_days: -2\n", companion.EvidencePolicy{}, "evidence.max_days: -2"},
		{"evidence:\n  max_gb: 1\n", companion.EvidencePolicy{}, `unknown key "max_gb"`},
	} {
		cfg, err := companion.ParseConfig("t.yaml", []byte(base+tc.more))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: got %v, want %q", tc.more, err, tc.err)
			}
			continue
		}
		if err != nil || cfg.Evidence.Policy() != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.more, cfg.Evidence.Policy(), err, tc.want)
		}
	}
}
