package tabletest

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/rules"
)

// Words checks the texts a game gives a person (events, refusals,
// headlines, buttons, `sztab play` lines) in both languages: no id-like
// token (pagecheck.IDLike: snake_case, kebab ids, the game's own ids, a
// word of the other language), no glyph a Raspberry Pi's fonts lack, no
// empty language. It is the cheap twin of the browser's page check: it
// walks every text a game can produce, not only those one screen shows.
type Words struct {
	// IDs are the game's ids (cards, units) that must never be shown.
	IDs []string
	// Allow are tokens shown on purpose: proper names (a vehicle called
	// "M2 Light Tank" is its name in Polish too).
	Allow map[string]bool
	// Foreign are, by language, the game's own words of the other
	// language, sorted (see Foreign): a card's Polish name on an English
	// page.
	Foreign map[string][]string
	// Checked counts the texts checked, so a test can tell it walked some.
	Checked int
	seen    map[string]bool
}

// Foreign are, by a page's language ("pl", "en"), the words of a game's
// card texts in the other language, lower case and sorted: each word of
// the texts' Polish is a fault on an English page and each of their
// English on a Polish page, but for same (names kept as printed, words
// spelt alike in both languages; see Shared). Words of two letters or
// fewer and numbers are left out (a number or "i" is no sign of a
// language). The lists come from the Polish as printed, not from the
// English: a card left in Polish on the English side is still caught.
func Foreign(texts []rules.Text, same ...string) map[string][]string {
	skip := map[string]bool{}
	for _, s := range same {
		for _, tok := range token.FindAllString(s, -1) {
			skip[strings.ToLower(tok)] = true
		}
	}
	lang := func(pick func(rules.Text) string) []string {
		m := map[string]bool{}
		for _, x := range texts {
			for _, tok := range words(pick(x)) {
				if !skip[tok] {
					m[tok] = true
				}
			}
		}
		out := make([]string, 0, len(m))
		for w := range m {
			out = append(out, w)
		}
		sort.Strings(out)
		return out
	}
	return map[string][]string{
		"en": lang(func(x rules.Text) string { return x.PL }),
		"pl": lang(func(x rules.Text) string { return x.EN }),
	}
}

// Shared are the words found in both languages of texts (a front's name,
// "Front Północny" and "Northern Front"; a title kept as printed): for
// Foreign's same.
func Shared(texts ...rules.Text) []string {
	var out []string
	for _, x := range texts {
		en := words(x.EN)
		for _, w := range words(x.PL) {
			if slices.Contains(en, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// words are the lower-case words of s that can tell a language: three
// letters or more, not a number.
func words(s string) []string {
	var out []string
	for _, tok := range token.FindAllString(s, -1) {
		if len([]rune(tok)) > 2 && strings.Trim(tok, "0123456789") != "" {
			out = append(out, strings.ToLower(tok))
		}
	}
	return out
}

// AllowNames allows every token of the names: the game's proper names
// (cards, vehicles, units), shown as printed in either language.
func (w *Words) AllowNames(names ...string) {
	if w.Allow == nil {
		w.Allow = map[string]bool{}
	}
	for _, n := range names {
		for _, tok := range token.FindAllString(n, -1) {
			w.Allow[tok] = true
			w.Allow[strings.ToLower(tok)] = true
		}
	}
}

var token = regexp.MustCompile(`[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*`)

// Problems are what is wrong with x (where names it in the messages);
// each problem is reported once per test.
func (w *Words) Problems(where string, x rules.Text) []string {
	w.Checked++
	var out []string
	for _, l := range []struct{ lang, s string }{{"pl", x.PL}, {"en", x.EN}} {
		if strings.TrimSpace(l.s) == "" {
			if strings.TrimSpace(x.PL+x.EN) != "" {
				out = append(out, fmt.Sprintf("%s: no %s text (%q)", where, l.lang, x.PL+x.EN))
			}
			continue
		}
		for _, tok := range pagecheck.IDLike(l.s, l.lang, w.IDs) {
			if !w.Allow[tok] && !w.Allow[strings.ToLower(tok)] {
				out = append(out, fmt.Sprintf("%s (%s): %q shows %q", where, l.lang, l.s, tok))
			}
		}
		for _, tok := range token.FindAllString(l.s, -1) {
			if _, in := slices.BinarySearch(w.Foreign[l.lang], strings.ToLower(tok)); in && !w.Allow[tok] && !w.Allow[strings.ToLower(tok)] {
				out = append(out, fmt.Sprintf("%s (%s): %q shows %q, a word of the game's other language", where, l.lang, l.s, tok))
			}
		}
		if bad := pagecheck.BadGlyphs(l.s); bad != "" {
			out = append(out, fmt.Sprintf("%s (%s): %q has %s", where, l.lang, l.s, bad))
		}
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	var fresh []string
	for _, p := range out {
		key := p[strings.Index(p, "("):]
		if i := strings.LastIndex(key, " shows "); i >= 0 {
			key = key[:4] + key[i:]
		}
		if !w.seen[key] {
			w.seen[key] = true
			fresh = append(fresh, p)
		}
	}
	return fresh
}

// Check fails t with x's problems.
func (w *Words) Check(t testing.TB, where string, x rules.Text) {
	t.Helper()
	for _, p := range w.Problems(where, x) {
		t.Error(p)
	}
}

// CheckLines checks a text printed in each language line by line (a
// `sztab play` summary).
func (w *Words) CheckLines(t testing.TB, where, pl, en string) {
	t.Helper()
	pls, ens := strings.Split(strings.TrimSpace(pl), "\n"), strings.Split(strings.TrimSpace(en), "\n")
	for i := range max(len(pls), len(ens)) {
		var x rules.Text
		if i < len(pls) {
			x.PL = pls[i]
		}
		if i < len(ens) {
			x.EN = ens[i]
		}
		w.Check(t, fmt.Sprintf("%s line %d", where, i+1), x)
	}
}
