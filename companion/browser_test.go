package companion_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/chromium"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/rules/skirmish"
	"github.com/sztab/sztab/vision"
)

// browser starts Debian's headless chromium.
func browser(t testing.TB) context.Context { return chromium.Start(t) }

// screenshotDir is where the tests leave 1920×1080 screenshots for a person
// to look at: $SZTAB_SCREENSHOTS or test-artifacts/screenshots in the repo.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("SZTAB_SCREENSHOTS")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(file), "..", "test-artifacts", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(screenshotDir(t), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Error(err)
	}
	t.Logf("screenshot: %s", path)
}

const screensSection = `display:
  listen: "LISTEN"
  referee: {user: sedzia, password: tajne}
  players:
    - {seat: 1, user: ania, password: a1}
    - {seat: 2, user: bartek, password: b2}
`

// screenTable is the demo table without its script, with screens on listen.
func screenTable(t testing.TB, dir, listen string) *companion.Config {
	t.Helper()
	return demoConfig(t, dir, "mqtt:\n  listen: \"127.0.0.1:0\"\n"+strings.Replace(screensSection, "LISTEN", listen, 1), false)
}

// asGame is cfg playing another game id.
func asGame(t *testing.T, cfg *companion.Config, game string) *companion.Config {
	t.Helper()
	text := strings.Replace(string(cfg.Raw()), "game: skirmish", "game: "+game, 1)
	text = strings.Replace(text, "\nskirmish:", "\n"+game+":", 1) // the game's own section
	c, err := companion.ParseConfig(cfg.Path(), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func startServing(t testing.TB, cfg *companion.Config, spec companion.GameSpec) *running {
	t.Helper()
	d, err := companion.Open(context.Background(), cfg, companion.Options{
		Games: companion.Games{spec}, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Heartbeat: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	r := serve(d)
	// The screens listen once Serve has started them: on a loaded machine
	// that may take a while; a Serve that returned at once says why.
	for end := time.Now().Add(30 * time.Second); cfg.Display.Listen != "" && d.DisplayAddr() == ""; time.Sleep(10 * time.Millisecond) {
		select {
		case err := <-r.done:
			d.Close()
			t.Fatalf("Serve returned before the screens listened: %v", err)
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("the screens did not listen within 30 s")
		}
	}
	return r
}

func submit(t testing.TB, d *companion.Daemon, in companion.Input) time.Time {
	t.Helper()
	at := time.Now()
	if err := d.Submit(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	return at
}

func key(k string) companion.Input {
	return companion.Input{Key: &hardware.KeyEvent{Keypad: "keypad", Key: k}, From: companion.Sender{Kind: wire.Keys, Audience: wire.Public}}
}

func tag(uid string) companion.Input {
	return companion.Input{Tag: &hardware.TagEvent{Reader: "stol", UID: uid, Present: true}}
}

// until waits in the page for a JavaScript condition and returns how long it
// took from since.
func until(t testing.TB, ctx context.Context, since time.Time, cond string) time.Duration {
	t.Helper()
	chromium.Until(t, ctx, cond)
	return time.Since(since)
}

func text(sel, substr string) string {
	return fmt.Sprintf(`(document.querySelector(%q)||{}).textContent && document.querySelector(%q).textContent.includes(%q)`, sel, sel, substr)
}

func snapshotAt(kroki float64) companion.Input {
	var models []vision.ModelPosition
	for i := range 5 {
		models = append(models,
			vision.ModelPosition{ID: fmt.Sprintf("ak-%d", i+1), Unit: "ak", X: 300 + 60*float64(i), Y: 100, BaseMM: 25, SigmaMM: 0.5},
			vision.ModelPosition{ID: fmt.Sprintf("gren-%d", i+1), Unit: "gren", X: 300 + 60*float64(i), Y: 125 + kroki*25.4, BaseMM: 25, SigmaMM: 0.5})
	}
	return companion.Input{Snapshot: &vision.Snapshot{Models: models}}
}

// deploy puts both demo units on the table at kroki apart: the camera's
// snapshot, then each unit card scanned in turn.
func deploy(t testing.TB, d *companion.Daemon, kroki float64) {
	t.Helper()
	submit(t, d, snapshotAt(kroki))
	submit(t, d, tag("04A1B2C3"))
	submit(t, d, tag("04D4E5F6"))
}

func TestBrowserTableScreenFollowsTheGameLive(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	r := startServing(t, screenTable(t, dir, "127.0.0.1:0"), skirmishgame.Spec)
	addr := r.d.DisplayAddr()
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/")); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, time.Now(), `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=turn]")`)
	until(t, ctx, time.Now(), fmt.Sprintf(`document.body.dataset.seq === "%d"`, r.d.Seq()))

	// Each step of the worked example shows on the page (how fast is
	// BenchmarkBrowserUpdateLatency's business: timing is no test's job).
	step := func(in companion.Input, cond string) { until(t, ctx, submit(t, r.d, in), cond) }
	deploy(t, r.d, 20)
	until(t, ctx, time.Now(), text("[data-testid=turn]", "ruch"))
	step(key("next"), text("[data-testid=turn]", "strzał"))
	submit(t, r.d, tag("04A1B2C3"))
	step(tag("04D4E5F6"), text("[data-testid=stage]", "(0/5)"))
	// Before the roll: the exact odds as a chart (5 dice, hit 2+, wound 3+,
	// save 4+: no wound at all 19.6%).
	until(t, ctx, time.Now(), `!!document.querySelector("[data-testid=odds-wounds]") && !!document.querySelector("[data-testid=odds-killed]")`)
	until(t, ctx, time.Now(), text("[data-testid=odds-wounds]", "19.6%"))
	screenshot(t, ctx, "table-screen-odds")
	for i, v := range []string{"3", "3", "3", "4", "5", "3", "4", "4", "6", "6", "2", "3", "6", "6"} {
		step(key(v), text("[data-testid=stage]", fmt.Sprintf("(%d/5)", (i+1)%5)))
	}
	step(key("6"), text("[data-testid=last-shot]", "2 rannych"))
	until(t, ctx, time.Now(), `document.querySelector(".pip[data-model=gren-1]").dataset.lives === "1"`)
	until(t, ctx, time.Now(), text("[data-testid=log]", "ranni: 2"))
	screenshot(t, ctx, "table-screen")

	// Language switch and large type.
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=lang]`), chromedp.Click(`[data-testid=big]`)); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, time.Now(), text("[data-testid=last-shot]", "2 wounded"))
	until(t, ctx, time.Now(), `document.body.classList.contains("big")`)
	screenshot(t, ctx, "table-screen-big-en")

	r.stop(t)
}

func TestBrowserScreenShowsStaleAndRecovers(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	listen := l.Addr().String()
	l.Close()
	r := startServing(t, screenTable(t, dir, listen), skirmishgame.Spec)
	deploy(t, r.d, 20)
	submit(t, r.d, key("next"))
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+listen+"/")); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, time.Now(), text("[data-testid=turn]", "strzał"))
	r.stop(t) // the table loses power
	until(t, ctx, time.Now(), `document.body.dataset.stale === "1" && !document.querySelector("[data-testid=stale]").hidden`)
	screenshot(t, ctx, "table-screen-stale")

	r2 := startServing(t, screenTable(t, dir, listen), skirmishgame.Spec)
	defer r2.stop(t)
	until(t, ctx, time.Now(), `document.body.dataset.stale === "0" && document.querySelector("[data-testid=stale]").hidden`)
	until(t, ctx, time.Now(), text("[data-testid=turn]", "strzał"))
	submit(t, r2.d, key("next"))
	until(t, ctx, time.Now(), text("[data-testid=turn]", "Bartek"))
}

// login signs in through the form and waits for the selector of the page
// it should land on.
func login(t *testing.T, ctx context.Context, addr, next, user, pass, landing string) {
	t.Helper()
	chromium.Login(t, ctx, "http://"+addr+next, user, pass, landing)
}

func TestBrowserRefereeRulesFromThePage(t *testing.T) {
	ctx := browser(t)
	r := startServing(t, screenTable(t, t.TempDir(), "127.0.0.1:0"), skirmishgame.Spec)
	defer r.stop(t)
	addr := r.d.DisplayAddr()

	// Without signing in the referee page asks for credentials, and a wrong
	// password is refused.
	login(t, ctx, addr, "/referee", "sedzia", "zle", "[data-testid=login-failed]")
	login(t, ctx, addr, "/referee", "sedzia", "tajne", "[data-testid=referee]")
	until(t, ctx, time.Now(), `!!document.querySelector("[data-testid=referee]") && document.body.dataset.stale === "0"`)

	// The referee's "next phase" goes through the same path as the keypad.
	deploy(t, r.d, 30)
	until(t, ctx, time.Now(), text("[data-testid=turn]", "ruch"))
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=cmd-next]`)); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, time.Now(), text("[data-testid=turn]", "strzał"))

	// A measurement too close to call is flagged and ruled from the page.
	submit(t, r.d, tag("04A1B2C3"))
	submit(t, r.d, tag("04D4E5F6"))
	until(t, ctx, time.Now(), `!!document.querySelector("[data-testid=ruling-needed]")`)
	// The log marks it for attention by the list the table's meta sends
	// (the game declared the type), not by a type the page knows; the
	// game's other events are not marked.
	until(t, ctx, time.Now(), `!!document.querySelector("[data-testid=log] li[data-type=too_close_to_call][data-attention]")`)
	until(t, ctx, time.Now(), `!!document.querySelector("[data-testid=log] li[data-type=phase]") && !document.querySelector("[data-testid=log] li[data-type=phase][data-attention]")`)
	screenshot(t, ctx, "referee-ruling")
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=cmd-confirm]`)); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, time.Now(), text("[data-testid=stage]", "(0/5)"))
	for _, v := range []string{"6", "6", "6", "1", "1"} {
		submit(t, r.d, key(v))
	}
	until(t, ctx, time.Now(), `!!document.querySelector("[data-testid='fair-stol-1/keypad']")`)
	until(t, ctx, time.Now(), text("[data-testid='fair-stol-1/keypad']", "5"))
	// The die's source in words, never its config name.
	until(t, ctx, time.Now(), `document.querySelector("[data-testid='fair-stol-1/keypad'] td").textContent === "klawiatura stołu" && !document.querySelector("[data-testid=fairness]").textContent.includes("stol-1")`)
	screenshot(t, ctx, "referee")
}

func TestBrowserBadPagesAreClear(t *testing.T) {
	ctx := browser(t)
	r := startServing(t, screenTable(t, t.TempDir(), "127.0.0.1:0"), skirmishgame.Spec)
	defer r.stop(t)
	addr := r.d.DisplayAddr()
	for _, path := range []string{"/player/9", "/player/abc", "/no/such/page"} {
		if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+path)); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		body, err := chromedp.Run(ctx, chromedp.Text(`[data-testid=error-page]`))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if strings.Contains(body, "goroutine") || !strings.Contains(body, "table screen") {
			t.Errorf("%s: %q", path, body)
		}
	}
	screenshot(t, ctx, "no-such-seat")
}

// secretGame keeps a card in seat 1's hand that nobody else may see.
type secretGame struct{ n int }

const secret = "KARTA-TAJNA-7Q3"

type bump struct{}

func (bump) Type() string { return "bump" }

func (g *secretGame) Name() string                                  { return "secret" }
func (g *secretGame) Start() (companion.Action, error)              { return bump{}, nil }
func (g *secretGame) EncodeAction(companion.Action) ([]byte, error) { return []byte(`{}`), nil }
func (g *secretGame) DecodeAction([]byte) (companion.Action, error) { return bump{}, nil }
func (g *secretGame) Bind(in companion.Input) ([]companion.Action, []companion.Notice) {
	return []companion.Action{bump{}}, nil
}
func (g *secretGame) Apply(companion.Action) ([]any, func(), error) {
	return []any{map[string]any{"type": "bumped", "text": rules.Textf("ruch %d", "move %d", g.n+1)}}, func() { g.n++ }, nil
}
func (g *secretGame) Seats() []int { return []int{1, 2} }
func (g *secretGame) View(v companion.Viewer) any {
	view := map[string]any{"moves": g.n, "hand_sizes": map[string]int{"1": 1, "2": 0}}
	if v.Role == companion.RoleReferee || (v.Role == companion.RolePlayer && v.Seat == 1) {
		view["hand"] = []string{secret}
	}
	return view
}
func (g *secretGame) RollsIn(companion.Action) []dice.Roll { return nil }

func TestBrowserHiddenCardNeverReachesThePublic(t *testing.T) {
	ctx := browser(t)
	cfg := asGame(t, screenTable(t, t.TempDir(), "127.0.0.1:0"), "secret")
	r := startServing(t, cfg, companion.GameSpec{ID: "secret", New: func(companion.TableConfig) (companion.Game, error) { return &secretGame{}, nil },
		Commands: wire.Vocabulary{{Name: "next", From: wire.Anyone}}})
	defer r.stop(t)
	addr := r.d.DisplayAddr()
	spectator := subscribe(t, r.d.BrokerAddr())
	submit(t, r.d, key("next"))

	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/")); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, time.Now(), `document.body.dataset.seq === "2"`)
	html, _ := chromedp.Run(ctx, chromedp.OuterHTML("html"))
	if strings.Contains(html, secret) {
		t.Error("the public page shows the hidden card")
	}
	// The public stream itself never carries it either.
	stream, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch("/stream?view=player/1").then(r => r.status + "")`, chromedp.EvalAwaitPromise))
	if stream != "403" {
		t.Errorf("a spectator asking for seat 1's stream got %s, want 403", stream)
	}
	spectator.waitFor(t, "the public state", func() bool { return len(spectator.state) > 0 && spectator.state[len(spectator.state)-1].Seq == 2 })
	spectator.mu.Lock()
	for _, raw := range spectator.raw {
		if strings.Contains(string(raw), secret) {
			t.Error("the public MQTT state carries the hidden card")
		}
	}
	spectator.mu.Unlock()

	// Seat 1 sees it; seat 2 may not open seat 1's page.
	login(t, ctx, addr, "/player/1", "ania", "a1", "[data-testid=panel]")
	until(t, ctx, time.Now(), text("[data-testid=panel]", secret))
	screenshot(t, ctx, "player-1")
	other := browser(t) // another device, another session
	login(t, other, addr, "/player/1", "bartek", "b2", "[data-testid=sign-out]")
	html, _ = chromedp.Run(other, chromedp.OuterHTML("html"))
	if strings.Contains(html, secret) || !strings.Contains(html, "signed in as player 2") || !strings.Contains(html, `href="/player/2"`) {
		t.Errorf("seat 2 opened seat 1's page, or was not told why not:\n%s", html)
	}
}

func TestBrowserVenueWallFollowsEveryTable(t *testing.T) {
	ctx := browser(t)
	broker := startMosquitto(t)
	var tables []*running
	for _, id := range []string{"stol-1", "stol-2", "stol-3"} {
		dir := t.TempDir()
		cfg := demoConfig(t, dir, fmt.Sprintf("mqtt:\n  broker: \"tcp://%s\"\n", broker), false)
		text := strings.Replace(string(cfg.Raw()), "table: stol-1", "table: "+id, 1)
		text += "display:\n  public_url: \"http://" + id + ".local:8080/\"\n"
		c, err := companion.ParseConfig(cfg.Path(), []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if id == "stol-3" {
			// A finished game: the skirmish README's, to its end.
			finishedSkirmish(t, c)
		}
		tables = append(tables, startServing(t, c, skirmishgame.Spec))
	}
	h, err := hub.New(hub.Options{Broker: "tcp://" + broker, Venue: "demo", Listen: "127.0.0.1:0",
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Heartbeat: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	hctx, stopHub := context.WithCancel(context.Background())
	defer stopHub()
	go h.Run(hctx)
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+h.Addr()+"/")); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, time.Now(), text("[data-testid=status-stol-1]", "gra trwa")+" && "+text("[data-testid=status-stol-2]", "gra trwa"))
	until(t, ctx, time.Now(), text("[data-testid=headline-stol-2]", "rozmieszczenie"))
	until(t, ctx, time.Now(), `!!document.querySelector("[data-testid=table-stol-1] a[href='http://stol-1.local:8080/']")`)
	// The finished table: game over, its headline the result.
	until(t, ctx, time.Now(), text("[data-testid=status-stol-3]", "koniec gry")+" && "+text("[data-testid=headline-stol-3]", "koniec gry: wygrywa Ania"))
	deploy(t, tables[1].d, 20)
	until(t, ctx, time.Now(), text("[data-testid=headline-stol-2]", "ruch"))
	screenshot(t, ctx, "venue-wall")

	tables[0].stop(t) // a table goes off: its status turns offline
	until(t, ctx, time.Now(), text("[data-testid=status-stol-1]", "offline")+" && "+text("[data-testid=status-stol-2]", "gra trwa"))
	screenshot(t, ctx, "venue-wall-offline")
	tables[1].stop(t)
	tables[2].stop(t)
}

// finishedSkirmish writes the skirmish README's game, which ends, as the
// journal of the table cfg.
func finishedSkirmish(t *testing.T, cfg *companion.Config) {
	t.Helper()
	data, err := os.ReadFile("../rules/skirmish/testdata/games/readme.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := skirmishgame.LoadCatalogue(skirmishgame.DataFiles{}, func(p string) string { return p })
	if err != nil {
		t.Fatal(err)
	}
	lines, err := skirmish.ParseScript(cat, "readme.jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.ScriptJournal(t, cfg.Resolve(cfg.Journal), companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, lines, skirmish.Actions)
}

// The referee takes back an action from the page, with the reason; every
// page then shows that a correction happened, and the public log says
// what changed.
func TestBrowserRefereeTakesBackFromThePage(t *testing.T) {
	ctx := browser(t)
	r := startServing(t, screenTable(t, t.TempDir(), "127.0.0.1:0"), skirmishgame.Spec)
	defer r.stop(t)
	addr := r.d.DisplayAddr()
	login(t, ctx, addr, "/referee", "sedzia", "tajne", "[data-testid=referee]")
	deploy(t, r.d, 30)
	until(t, ctx, time.Now(), text("[data-testid=turn]", "ruch"))
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=cmd-next]`)); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, time.Now(), text("[data-testid=turn]", "strzał"))
	if err := chromedp.Do(ctx, chromedp.SendKeys(`[data-testid=ruling-text]`, "phase ended by mistake")); err != nil {
		t.Fatal(err)
	}
	// What the referee typed survives the page's redraws (here two
	// changes of language; a state arriving redraws the same way).
	for range 2 {
		if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=lang]`)); err != nil {
			t.Fatal(err)
		}
	}
	if typed, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("[data-testid=ruling-text]").value`)); err != nil || typed != "phase ended by mistake" {
		t.Fatalf("the reason typed before two redraws reads %q (%v)", typed, err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=cmd-undo_entry]`)); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, time.Now(), text("[data-testid=record-head]", "1"))
	until(t, ctx, time.Now(), text("[data-testid=turn]", "ruch"))
	until(t, ctx, time.Now(), text("[data-testid=log]", "phase ended by mistake"))
	screenshot(t, ctx, "referee-took-back")
	// The public table screen shows it too.
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/")); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, time.Now(), text("[data-testid=record]", "phase ended by mistake"))
}

// The referee's page has a "next game" form on a table with a journal_dir:
// the players typed (seat 1 first) and a reason start the next game, in the
// next journal with those players; a table with one journal shows no form.
func TestBrowserRefereeStartsTheNextGame(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	one := screenTable(t, dir, "127.0.0.1:0")
	r1 := startServing(t, one, skirmishgame.Spec)
	login(t, ctx, r1.d.DisplayAddr(), "/referee", "sedzia", "tajne", "[data-testid=referee]")
	if forms, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=new-game]").length`)); err != nil || forms != 0 {
		t.Fatalf("a table with one journal shows %d next-game forms (%v)", forms, err)
	}
	r1.stop(t)

	cfg, err := companion.ParseConfig(one.Path(), []byte(strings.Replace(string(one.Raw()), "journal: demo.journal.db", "journal_dir: games", 1)))
	if err != nil {
		t.Fatal(err)
	}
	r := startServing(t, cfg, skirmishgame.Spec)
	login(t, ctx, r.d.DisplayAddr(), "/referee", "sedzia", "tajne", "[data-testid=new-game]")
	for sel, text := range map[string]string{"[data-testid=new-game-players]": "Ola, Piotr", "[data-testid=new-game-text]": "a new pair sits down"} {
		if err := chromedp.Do(ctx, chromedp.SendKeys(sel, text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Click(`[data-testid=cmd-new_game]`)); err != nil {
		t.Fatal(err)
	}
	next := filepath.Join(dir, "games", "game-0002.db")
	select {
	case err := <-r.done:
		r.d.Close()
		if !errors.Is(err, companion.ErrNextGame) {
			t.Fatalf("Serve returned %v, want the next game", err)
		}
	case <-time.After(20 * time.Second):
		r.stop(t)
		t.Fatal("the table did not start the next game")
	}
	j, err := companion.ReadJournal(next)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if names, err := j.Players(context.Background()); err != nil || strings.Join(names, "|") != "Ola|Piotr" {
		t.Fatalf("the next game's players: %q, %v", names, err)
	}
}
