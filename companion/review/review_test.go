package review_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/review"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/chromium"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/vision"
)

var at = time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC)

// demoJournal is the skirmish demo played on the daemon (22 entries),
// then the camera's snapshot with its picture and the "next" key (entry
// 23 names the picture). It returns the journal and the table's config.
func demoJournal(t *testing.T) (string, *companion.Config) {
	t.Helper()
	path, cfgPath := tabletest.DemoJournal(t, t.TempDir(), "skirmish.yaml", skirmishgame.Spec, at, 22, func(d *companion.Daemon) {
		snap := &vision.Snapshot{Seq: 2, Time: at, CalibrationMM: 1.2}
		for i, x := range []float64{300, 360, 420} {
			snap.Models = append(snap.Models, vision.ModelPosition{ID: "ak-" + string(rune('1'+i)), Unit: "ak", X: x, Y: 101, BaseMM: 25, SigmaMM: 0.6})
		}
		ctx := context.Background()
		if err := d.Submit(ctx, companion.Input{Snapshot: snap, Image: picture(t)}); err != nil {
			t.Fatal(err)
		}
		if err := d.Submit(ctx, companion.Input{Key: &hardware.KeyEvent{Keypad: "keypad", Key: "next"}, From: companion.Sender{Kind: wire.Keys, Audience: wire.Public}}); err != nil {
			t.Fatal(err)
		}
		tabletest.WaitSeq(t, d, 23)
	})
	cfg, err := companion.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	return path, cfg
}

func picture(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 320, 240))
	for y := range 240 {
		for x := range 320 {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 120, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func reviewer(t *testing.T, path string, cfg *companion.Config) *review.Reviewer {
	t.Helper()
	j, err := companion.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return review.New(j, func() (companion.Game, error) { return skirmishgame.Spec.New(cfg) }, dice.WatchConfig{})
}

// appendRaw writes an entry of a kind this Sztab does not write (as a
// later Sztab's rulings would be), chained as the journal's own.
func appendRaw(t *testing.T, path, kind, body string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var seq int64
	var prevHex string
	if err := db.QueryRow(`SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1`).Scan(&seq, &prevHex); err != nil {
		t.Fatal(err)
	}
	prev, _ := record.ParseHash(prevHex)
	e := record.Entry{Seq: seq + 1, At: at.Format(time.RFC3339Nano), Kind: kind, Game: "skirmish", Body: []byte(body), Events: []byte(`[]`)}
	h, err := record.EntryHash(e, prev)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO journal (seq, at, kind, game, body, events, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Seq, e.At, kind, "skirmish", body, "[]", prevHex, h.String()); err != nil {
		t.Fatal(err)
	}
}

// The moment at an entry: the state replayed as far as it, the entry's
// evidence, and entries of kinds the review does not know listed raw as
// rulings (the state goes on through them).
func TestReviewMoments(t *testing.T) {
	path, cfg := demoJournal(t)
	appendRaw(t, path, "ruling", `{"answers":8,"ruling":"allow","by":"referee","why":"the table agreed"}`)
	r := reviewer(t, path, cfg)
	ctx := context.Background()
	tests := []struct {
		seq       int64
		input     string
		dice      int
		image     string
		rulings   int
		summaryIn string
	}{
		{1, "", 0, "", 0, "deployment"},
		{3, "tag", 0, "", 0, "deployment"},
		{8, "key", 1, "", 0, "hit (1/5)"},
		{23, "key", 0, "present", 0, "movement phase"},
		{24, "", 0, "", 1, "movement phase"},
	}
	for _, tc := range tests {
		m, err := r.At(ctx, tc.seq)
		if err != nil {
			t.Fatalf("entry %d: %v", tc.seq, err)
		}
		input := ""
		if m.Evidence != nil {
			input = m.Evidence.Input
		}
		if input != tc.input || m.Image != tc.image || len(m.Rulings) != tc.rulings || (m.Evidence != nil && len(m.Evidence.Dice) != tc.dice) {
			t.Errorf("entry %d: input %q, image %q, %d rulings; want %q, %q, %d", tc.seq, input, m.Image, len(m.Rulings), tc.input, tc.image, tc.rulings)
		}
		var lines []string
		for _, s := range m.Summary {
			lines = append(lines, s.EN)
		}
		if !strings.Contains(strings.Join(lines, "\n"), tc.summaryIn) {
			t.Errorf("entry %d: summary %q, want it to say %q", tc.seq, lines, tc.summaryIn)
		}
	}
	m, _ := r.At(ctx, 24)
	if m.Kind != "ruling" || !strings.Contains(string(m.Rulings[0].Body), `"the table agreed"`) {
		t.Errorf("the unknown kind: %s %s", m.Kind, m.Rulings[0].Body)
	}
	var b bytes.Buffer
	review.WriteText(&b, r.Journal().Identity(), m, "en")
	if !strings.Contains(b.String(), `entry 24  2026-08-01T17:00:00Z  ruling: {"answers":8`) {
		t.Errorf("the text does not list the ruling raw:\n%s", b.String())
	}
}

func TestParseSeq(t *testing.T) {
	for _, tc := range []struct {
		in   string
		last int64
		want int64
		err  string
	}{
		{"1", 23, 1, ""}, {" 23 ", 23, 23, ""}, {"last", 23, 23, ""}, {"first", 23, 1, ""},
		{"0", 23, 0, "review: entry 0: the journal holds entries 1 to 23"},
		{"-3", 23, 0, "review: entry -3"},
		{"24", 23, 0, "review: entry 24"},
		{"1e3", 23, 0, `review: entry "1e3": give a number`},
		{"99999999999999999999", 23, 0, "give a number"},
		{"last", 0, 0, "review: the journal holds no entry"},
	} {
		got, err := review.ParseSeq(tc.in, tc.last)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSeq(%q): %d, %v; want error %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseSeq(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

// The page's server only reads: a moment as JSON, a picture checked
// against its name (a changed one refused), nothing written.
func TestReviewHandler(t *testing.T) {
	path, cfg := demoJournal(t)
	r := reviewer(t, path, cfg)
	srv := httptest.NewServer(r.Handler())
	defer srv.Close()
	get := func(p string) (int, string) {
		res, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	code, body := get("/api/moment?seq=23")
	var m struct {
		Seq      int64
		Evidence *companion.Evidence
		Image    string
		Table    string
	}
	if err := json.Unmarshal([]byte(body), &m); code != 200 || err != nil || m.Seq != 23 || m.Evidence == nil || m.Evidence.Image == nil || m.Image != "present" || m.Table != "stol-1" {
		t.Fatalf("moment 23: %d %v\n%s", code, err, body)
	}
	sha := m.Evidence.Image.SHA256
	if code, body := get("/image/" + sha); code != 200 || !strings.HasPrefix(body, "\xff\xd8") {
		t.Errorf("the picture: %d, %d bytes", code, len(body))
	}
	for _, tc := range []struct {
		path string
		code int
		want string
	}{
		{"/api/moment?seq=99", 400, "review: entry 99"},
		{"/image/../../etc/passwd", 404, ""},
		{"/image/abc", 400, "want 64 hex digits"},
		{"/image/" + strings.Repeat("0", 64), 404, "not beside the journal"},
		{"/", 200, "Sztab review"},
	} {
		if code, body := get(tc.path); code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("GET %s: %d %q, want %d %q", tc.path, code, body, tc.code, tc.want)
		}
	}
	res, err := http.Post(srv.URL+"/api/moment", "application/json", strings.NewReader("{}"))
	if err != nil || res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %v %v, want 405", err, res)
	}
	// A changed picture is refused, not shown.
	os.WriteFile(filepath.Join(companion.EvidenceDir(path), sha+".jpg"), []byte("\xff\xd8 not it"), 0o644)
	if code, body := get("/image/" + sha); code != http.StatusConflict || !strings.Contains(body, "does not match") {
		t.Errorf("changed picture: %d %q, want 409", code, body)
	}
}

// In headless Chromium the review page steps through the demo game: next,
// previous, a jump, the evidence of a tag and of a keypad die, and the
// table's picture of entry 23 — while a daemon holds the journal.
func TestBrowserReviewStepsThroughDemo(t *testing.T) {
	path, cfg := demoJournal(t)
	held, err := companion.OpenJournal(path, companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	r := reviewer(t, path, cfg)
	srv := httptest.NewServer(r.Handler())
	defer srv.Close()
	ctx := chromium.Start(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	text := func(sel string) string { return chromium.Text(t, ctx, sel) }
	click := func(sel string) { chromium.Click(t, ctx, sel) }
	chromium.Until(t, ctx, `document.body.dataset.seq === "1" && document.getElementById("last").textContent === "23"`)
	if !strings.Contains(text("#evidence"), "none recorded") || !strings.Contains(text("#summary"), "deployment") {
		t.Errorf("entry 1: evidence %q, summary %q", text("#evidence"), text("#summary"))
	}
	click("#next")
	chromium.Until(t, ctx, `document.body.dataset.seq === "2"`)
	click("#next")
	chromium.Until(t, ctx, `document.body.dataset.seq === "3"`)
	if ev := text("#evidence"); !strings.Contains(ev, "tag 04A1B2C3 on reader stol — unit ak") || !strings.Contains(ev, "10 of 10 models") {
		t.Errorf("entry 3's evidence: %q", ev)
	}
	click("#prev")
	chromium.Until(t, ctx, `document.body.dataset.seq === "2"`)
	if ev := text("#evidence"); !strings.Contains(ev, "04998877") || !strings.Contains(ev, "not in the registry") {
		t.Errorf("entry 2's evidence: %q", ev)
	}
	if err := chromedp.Do(ctx, chromedp.SetValue("#to", "8")); err != nil {
		t.Fatal(err)
	}
	click("#go")
	chromium.Until(t, ctx, `document.body.dataset.seq === "8"`)
	if ev := text("#evidence"); !strings.Contains(ev, "key “3” on keypad") || !strings.Contains(ev, "keypad keypad") {
		t.Errorf("entry 8's evidence: %q", ev)
	}
	if s := text("#summary"); !strings.Contains(s, "hit (1/5)") {
		t.Errorf("entry 8's state: %q", s)
	}
	click("#lastbtn")
	chromium.Until(t, ctx, `document.body.dataset.seq === "23" && document.getElementById("next").disabled`)
	chromium.Until(t, ctx, `(() => { const i = document.getElementById("picture"); return !i.hidden && i.complete && i.naturalWidth === 320; })()`)
	if ev := text("#evidence"); !strings.Contains(ev, "snapshot 2") || !strings.Contains(ev, ": present") {
		t.Errorf("entry 23's evidence: %q", ev)
	}
	click("#prev")
	chromium.Until(t, ctx, `document.body.dataset.seq === "22" && document.getElementById("picture").hidden`)
	if s := text("#events"); !strings.Contains(s, "2 wounded") {
		t.Errorf("entry 22's events: %q", s)
	}
	// An address names the moment.
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/#seq=5"), chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	chromium.Until(t, ctx, `document.body.dataset.seq === "5"`)
}
