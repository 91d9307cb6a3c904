// Package pagecheck checks a drawn Sztab page in a real headless Chromium
// (internal/chromium) as a person across the room or with a phone would
// see it: nothing overflows the TV, no text smaller than its role allows,
// no id where a word belongs, no glyph the Raspberry Pi's fonts lack, and
// colour contrast to WCAG AA (axe-core's color-contrast rule, run inside
// the page). Each check leaves a screenshot under test-artifacts/screens.
// The rules, and the type sizes chosen for them, are in docs/screens.md.
package pagecheck

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/internal/chromium"
)

// Size is a screen the pages are checked on.
type Size struct {
	Name string
	W, H int64
}

// The screens: a 1080p TV, a 720p TV (the same TV across the room, so the
// type scales with the height), a phone in the hand.
var (
	TV1080 = Size{"1080p", 1920, 1080}
	TV720  = Size{"720p", 1280, 720}
	Phone  = Size{"phone", 390, 844}
	Sizes  = []Size{TV1080, TV720, Phone}
)

// The smallest type, in CSS pixels, for each role of text. On a TV (the
// table screen at 1080p or 720p) the sizes are for 1920×1080 read from
// 3 m and scale with the screen's height (48 px at 1080p is 32 px at
// 720p): a headline or score (data-role=headline) 48 px, a line of the
// state 24 px, secondary text (data-role=secondary: the event log, the
// legend) 20 px. In the hand (a phone, the referee's and players' pages)
// 16 px, secondary 13 px.
const (
	TVHeadlinePx    = 48
	TVBodyPx        = 24
	TVSecondaryPx   = 20
	HandBodyPx      = 16
	HandSecondaryPx = 13
)

// The roles of text, as data-role on an element around it.
const (
	RoleHeadline  = "headline"
	RoleSecondary = "secondary"
)

// Page is one page to check.
type Page struct {
	// Game and Name (table, referee, player) name the screenshot:
	// test-artifacts/screens/<game>-<name>-<size>-<lang>.png.
	Game, Name string
	// URL is the daemon's ("http://127.0.0.1:8080"), Path the page's.
	URL, Path string
	Size      Size
	Lang      string // "pl" or "en"
	// User and Password sign in first (the referee's and players' pages).
	User, Password string
	// Ready is the JavaScript condition of the state to check; by default
	// the page is live and has drawn a state.
	Ready string
	// IDs are the game's ids (cards, units, pieces) that must never be
	// shown to a person.
	IDs []string
	// Allow are words shown on purpose that the rules would take for an
	// id or another language's word (a venue's or table's own name).
	Allow []string
	// Foreign are, by the page's language, the game's own words of the
	// other language (tabletest.Foreign: a card's Polish name left on an
	// English page), lower case.
	Foreign map[string][]string
}

// TV says whether the page is a table screen on a TV: it must fit the
// screen whole, in type for 3 m.
func (p Page) TV() bool { return p.Name == "table" && p.Size != Phone }

// Problem is one thing wrong with a page.
type Problem struct {
	Check string // overflow, clipped, reach, overlap, size, id, glyph, contrast, headline, lang
	Text  string
}

func (p Problem) String() string { return p.Check + ": " + p.Text }

// Text is one piece of text as the page drew it.
type Text struct {
	Text  string  `json:"text"`
	Px    float64 `json:"px"`
	Role  string  `json:"role"`
	Where string  `json:"where"`
}

// Drawn is what collect.js reads from the page.
type Drawn struct {
	W, H    float64
	SW      float64 `json:"sw"`
	SH      float64 `json:"sh"`
	Lang    string  `json:"lang"`
	Texts   []Text  `json:"texts"`
	Clipped []struct {
		Where string `json:"where"`
		Role  string `json:"role"`
	} `json:"clipped"`
	Unreachable []struct {
		Text  string `json:"text"`
		Where string `json:"where"`
	} `json:"unreachable"`
	Overlaps []struct {
		A     string `json:"a"`
		B     string `json:"b"`
		Where string `json:"where"`
	} `json:"overlaps"`
}

//go:embed collect.js
var collectJS string

//go:embed testdata/axe.min.js
var axeJS string

// Run checks p in the browser ctx (chromium.Start) and fails t with each
// problem found.
func Run(t testing.TB, ctx context.Context, p Page) {
	t.Helper()
	problems, err := Check(ctx, p)
	if err != nil {
		t.Fatalf("%s: %v", p.file(), err)
	}
	for _, pr := range problems {
		t.Errorf("%s: %s", p.file(), pr)
	}
}

func (p Page) file() string { return p.Game + "-" + p.Name + "-" + p.Size.Name + "-" + p.Lang }

// Check loads p, waits for its state and checks it; the screenshot is
// left in test-artifacts/screens whatever it finds.
func Check(ctx context.Context, p Page) ([]Problem, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := Load(ctx, p); err != nil {
		return nil, err
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](collectJS))
	if err != nil {
		return nil, fmt.Errorf("pagecheck: reading the page: %w", err)
	}
	var d Drawn
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("pagecheck: reading the page: %w", err)
	}
	problems := Judge(p, d)
	contrast, err := Contrast(ctx)
	if err != nil {
		return nil, err
	}
	problems = append(problems, contrast...)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		return nil, fmt.Errorf("pagecheck: screenshot: %w", err)
	}
	dir := ArtifactDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("pagecheck: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, p.file()+".png"), png, 0o644); err != nil {
		return nil, fmt.Errorf("pagecheck: %w", err)
	}
	return problems, nil
}

// Load sets the viewport, signs in if asked, opens the page in its
// language and waits for its state and fonts.
func Load(ctx context.Context, p Page) error {
	opts := []chromedp.EmulateViewportOption{}
	if p.Size == Phone {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(p.Size.W, p.Size.H, opts...)); err != nil {
		return fmt.Errorf("pagecheck: viewport: %w", err)
	}
	if p.User != "" {
		err := chromedp.Do(ctx, chromedp.Navigate(p.URL+"/login?next="+p.Path), chromedp.WaitVisible(`#user`),
			chromedp.SendKeys(`#user`, p.User), chromedp.SendKeys(`#password`, p.Password),
			chromedp.Click(`#login`), chromedp.WaitReady(`body[data-page]`))
		if err != nil {
			return fmt.Errorf("pagecheck: signing in as %s: %w", p.User, err)
		}
	}
	sep := "?"
	if strings.Contains(p.Path, "?") {
		sep = "&"
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(p.URL+p.Path+sep+"lang="+p.Lang), chromedp.WaitReady("body")); err != nil {
		return fmt.Errorf("pagecheck: opening %s: %w", p.Path, err)
	}
	ready := p.Ready
	if ready == "" {
		ready = `document.body.dataset.stale === "0" && +document.body.dataset.seq > 0`
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](ready)); err != nil {
		html, _ := chromedp.Run(ctx, chromedp.OuterHTML("body"))
		return fmt.Errorf("pagecheck: %s never showed %s: %w\n%s", p.Path, ready, err, html)
	}
	// The fonts loaded and two frames drawn since the state.
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("pagecheck: waiting for the page to draw: %w", err)
	}
	return nil
}

// Judge applies the rules to what the page drew.
func Judge(p Page, d Drawn) []Problem {
	var out []Problem
	add := func(check, format string, a ...any) { out = append(out, Problem{check, fmt.Sprintf(format, a...)}) }
	if d.SW > d.W {
		add("overflow", "the page is %.0f px wide in a %.0f px viewport (sideways scrolling)", d.SW, d.W)
	}
	headline := false
	if p.TV() {
		if d.SH > d.H {
			add("overflow", "the page is %.0f px tall on a %.0f px screen", d.SH, d.H)
		}
		for _, c := range d.Clipped {
			if c.Role != RoleSecondary {
				add("clipped", "%s hides part of what it holds", c.Where)
			}
		}
	}
	for _, u := range d.Unreachable {
		add("reach", "the control %q (%s) is beyond the screen's side", short(u.Text), u.Where)
	}
	for _, o := range d.Overlaps {
		add("overlap", "%q is drawn over %q (%s)", short(o.A), short(o.B), o.Where)
	}
	allow := map[string]bool{}
	for _, a := range p.Allow {
		allow[a] = true
	}
	foreign := map[string]bool{}
	for _, w := range p.Foreign[p.Lang] {
		foreign[w] = true
	}
	seenSize := map[string]bool{}
	for _, tx := range d.Texts {
		if tx.Role == RoleHeadline && tx.Px >= MinPx(p, RoleHeadline)-0.01 {
			headline = true
		}
		if min := MinPx(p, tx.Role); tx.Px < min-0.01 {
			key := tx.Where + "|" + tx.Role
			if !seenSize[key] {
				seenSize[key] = true
				role := tx.Role
				if role == "" {
					role = "body"
				}
				add("size", "%q in %s is %.1f px, under the %.1f px of %s text", short(tx.Text), tx.Where, tx.Px, min, role)
			}
		}
		for _, tok := range IDLike(tx.Text, p.Lang, p.IDs) {
			if !allow[tok] {
				add("id", "%q in %s shows %q", short(tx.Text), tx.Where, tok)
			}
		}
		for _, tok := range wordRe.FindAllString(tx.Text, -1) {
			if foreign[strings.ToLower(tok)] && !allow[tok] {
				add("id", "%q in %s shows %q, a word of the game's other language", short(tx.Text), tx.Where, tok)
			}
		}
		if bad := BadGlyphs(tx.Text); bad != "" {
			add("glyph", "%q in %s has %s, which the page's font may lack", short(tx.Text), tx.Where, bad)
		}
	}
	if p.TV() && !headline {
		add("headline", "no %s text (data-role=headline) of %.0f px or more", RoleHeadline, MinPx(p, RoleHeadline))
	}
	if d.Lang != "" && d.Lang != p.Lang {
		add("lang", "the page says lang=%q, shown in %q", d.Lang, p.Lang)
	}
	return capped(out, 8)
}

// capped keeps the first n problems of each check and says how many more
// there were.
func capped(ps []Problem, n int) []Problem {
	count := map[string]int{}
	var out []Problem
	for _, p := range ps {
		if count[p.Check]++; count[p.Check] <= n {
			out = append(out, p)
		}
	}
	for check, c := range count {
		if c > n {
			out = append(out, Problem{check, fmt.Sprintf("and %d more", c-n)})
		}
	}
	return out
}

// MinPx is the smallest type allowed for text of role on p.
func MinPx(p Page, role string) float64 {
	if !p.TV() {
		if role == RoleSecondary {
			return HandSecondaryPx
		}
		return HandBodyPx
	}
	scale := float64(p.Size.H) / float64(TV1080.H)
	switch role {
	case RoleHeadline:
		return TVHeadlinePx * scale
	case RoleSecondary:
		return TVSecondaryPx * scale
	}
	return TVBodyPx * scale
}

func short(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

var (
	wordRe  = regexp.MustCompile(`[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*`)
	snakeRe = regexp.MustCompile(`^[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+$`)
	kebabRe = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)+$`)
)

// Words of one language that must not be shown on a page in the other:
// the common words of the games' screens, not names.
var foreign = map[string]map[string]bool{
	"pl": set("the and of round turn player players referee score move moves shot hit hits wound wounds save saves cover none light heavy dice die " +
		"kills models unit units order orders supply funds battle attack recruitment any sent live stale events winner wins draw game over " +
		"phase card cards hand deck side sides left right next end pass"),
	"en": set("runda tura gracz gracza sędzia sędziego wynik ruch strzał trafienie trafienia rany obrona osłona brak kości kość " +
		"zdarzenia koniec gry gra wygrywa remis rozkazy rozkaz karty karta ręka strona zabici modele punkty nieaktualne żywo wysłano"),
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// IDLike are the tokens of s that are ids, not words, on a page in lang:
// snake_case, kebab ids with a digit or a segment of three letters or
// fewer (blockade-wp, ak-1), the game's own ids, and words of the other
// language.
func IDLike(s, lang string, ids []string) []string {
	game := map[string]bool{}
	for _, id := range ids {
		game[id] = true
	}
	var out []string
	for _, tok := range wordRe.FindAllString(s, -1) {
		switch {
		case game[tok], snakeRe.MatchString(tok), kebabRe.MatchString(tok) && kebabID(tok), foreign[lang][strings.ToLower(tok)]:
			out = append(out, tok)
		}
	}
	return out
}

func kebabID(tok string) bool {
	for _, part := range strings.Split(tok, "-") {
		if len(part) <= 3 || strings.ContainsAny(part, "0123456789") {
			return true
		}
	}
	return false
}

// The characters a page may draw as text: Latin with Polish letters,
// punctuation, arrows, a few mathematical signs and the geometric shapes,
// all in DejaVu Sans (Debian's fonts-dejavu-core, on the Pi too). Not
// the symbols and dingbats of U+2600–U+27BF nor emoji: icons are inline
// SVG.
var allowed = [][2]rune{
	{0x20, 0x7e}, {0xa0, 0x17f}, {0x2010, 0x2027}, {0x2030, 0x203a}, {0x2190, 0x2195},
	{0x2212, 0x2212}, {0x2248, 0x2248}, {0x2260, 0x2265}, {0x25a0, 0x25ff},
}

// BadGlyphs lists the characters of s outside the allowed ranges, or "".
func BadGlyphs(s string) string {
	var bad []string
	for _, r := range s {
		ok := false
		for _, a := range allowed {
			if r >= a[0] && r <= a[1] {
				ok = true
				break
			}
		}
		if !ok {
			bad = append(bad, fmt.Sprintf("%c (U+%04X)", r, r))
		}
	}
	return strings.Join(bad, ", ")
}

// Contrast runs axe-core's color-contrast rule (WCAG AA) in the page.
func Contrast(ctx context.Context) ([]Problem, error) {
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](axeJS)); err != nil {
		return nil, fmt.Errorf("pagecheck: loading axe-core: %w", err)
	}
	type node struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
		HTML    string `json:"html"`
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[[]node](`axe.run(document, {runOnly: {type: "rule", values: ["color-contrast"]}, resultTypes: ["violations"]})
		.then(r => r.violations.flatMap(v => v.nodes.map(n => ({target: n.target, failureSummary: n.failureSummary, html: n.html.slice(0, 120)}))))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		return nil, fmt.Errorf("pagecheck: axe-core: %w", err)
	}
	var out []Problem
	for _, n := range res {
		out = append(out, Problem{"contrast", fmt.Sprintf("%v %s: %s", n.Target, n.HTML, strings.ReplaceAll(n.Summary, "\n", " "))})
	}
	return out, nil
}

// ArtifactDir is test-artifacts/screens in the repository.
func ArtifactDir() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "test-artifacts", "screens")
}

// Thumbnail is the page as drawn now at half size, for the README
// (docs/screens/<game>.png): with update it is written to path, without
// it the file must be there.
func Thumbnail(t testing.TB, ctx context.Context, path string, update bool) {
	t.Helper()
	if !update {
		if _, err := os.Stat(path); err != nil {
			t.Errorf("the README's screenshot %s: %v; run the test with -update", path, err)
		}
		return
	}
	m, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[innerWidth, innerHeight]`))
	if err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.Action[[]byte](func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
		r, err := cdp.Call(ctx, tg, page.CaptureScreenshot, page.CaptureScreenshotParams{Clip: &page.Viewport{Width: m[0], Height: m[1], Scale: 0.5}})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	}))
	if err != nil {
		t.Fatalf("thumbnail: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Browser starts Chromium for the checks (chromium.Start).
func Browser(t testing.TB) context.Context { return chromium.Start(t) }

// Full says whether the whole matrix runs: `make test-screens` sets
// SZTAB_FULL=1; `make test` runs the short form.
func Full() bool { return os.Getenv("SZTAB_FULL") == "1" }

// Matrix is p on every screen and in both languages when full, else on the
// 1080p TV in both languages (the short form in `make test`).
func Matrix(p Page, full bool) []Page {
	sizes := []Size{TV1080}
	if full {
		sizes = Sizes
	}
	var out []Page
	for _, s := range sizes {
		for _, lang := range []string{"pl", "en"} {
			q := p
			q.Size, q.Lang = s, lang
			out = append(out, q)
		}
	}
	return out
}

// Roles are a table's three pages from base: the table screen (/), the
// referee's page signed in as the demo tables' referee, and the page of the
// player at playerPath signed in with user and password.
func Roles(base Page, playerPath, user, password string) (table, referee, player Page) {
	table, referee, player = base, base, base
	table.Name, table.Path = "table", "/"
	referee.Name, referee.Path, referee.User, referee.Password = "referee", "/referee", "sedzia", "sedzia"
	player.Name, player.Path, player.User, player.Password = "player", playerPath, user, password
	return table, referee, player
}

// Pages are the pages to check when full: every page on every screen in
// both languages; else make test's short form: the table screen on the
// 1080p TV in both languages and the player's page on a phone in Polish.
func Pages(table, referee, player Page, full bool) []Page {
	pages := Matrix(table, full)
	if full {
		pages = append(pages, Matrix(referee, true)...)
		return append(pages, Matrix(player, true)...)
	}
	player.Size, player.Lang = Phone, "pl"
	return append(pages, player)
}

// Expect fails t unless the JavaScript condition holds on the page as it
// is now (after Load or Check); what says what it means.
func Expect(t testing.TB, ctx context.Context, what, cond string) {
	t.Helper()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
	if err != nil || !ok {
		t.Errorf("%s: %s is not so (%v)", what, cond, err)
	}
}

// InView is the JavaScript condition that every element matching sel is
// drawn, whole, inside the viewport.
func InView(sel string) string {
	return fmt.Sprintf(`(() => { const es = [...document.querySelectorAll(%q)]; return es.length > 0 && es.every(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; }); })()`, sel)
}
