// Package docs holds the manual; its test keeps the manual honest: the
// README stays a first page, every link goes somewhere, and each fact of
// the games' ambiguity tables is written once.
package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository's top.
const root = ".."

// readmeLimit is the README's size at the most: a newcomer's first page.
const readmeLimit = 25 * 1024

// pages are the manual's Markdown files: the README, docs/ and each
// game's pages beside its rules.
func pages(t *testing.T) []string {
	t.Helper()
	out := []string{"README.md"}
	for _, pattern := range []string{"docs/*.md", "rules/*/README.md", "rules/*/AMBIGUITIES.md", "firmware-config/README.md"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
	}
	return out
}

func read(t *testing.T, page string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, page))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadmeIsAFirstPage(t *testing.T) {
	text := read(t, "README.md")
	if len(text) > readmeLimit {
		t.Errorf("README.md is %d bytes, over %d: move the detail into docs/ and link it", len(text), readmeLimit)
	}
	for _, want := range []string{"make demo", "make test", "Quick start: a club player", "Quick start: a referee", "Quick start: an organiser", "Quick start: a developer"} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}

var (
	link    = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	fence   = regexp.MustCompile("(?ms)^```.*?^```")
)

// anchor is GitHub's anchor of a heading.
func anchor(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = regexp.MustCompile(`[^\p{L}\p{N}\- _]`).ReplaceAllString(h, "")
	return strings.ReplaceAll(h, " ", "-")
}

func anchors(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		out[anchor(m[1])] = true
	}
	return out
}

// TestLinksResolve: every relative link of the manual names a file of the
// repository (or ../shared), and an anchor in a Markdown file names one of
// its headings.
func TestLinksResolve(t *testing.T) {
	for _, page := range pages(t) {
		text := fence.ReplaceAllString(read(t, page), "")
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			href := m[1]
			if strings.HasPrefix(href, "http://") || strings.HasPrefix(href, "https://") || strings.HasPrefix(href, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(href, "#")
			target := page
			if path != "" {
				target = filepath.Join(filepath.Dir(page), path)
				if _, err := os.Stat(filepath.Join(root, target)); err != nil {
					t.Errorf("%s: the link %q goes nowhere (%v)", page, href, err)
					continue
				}
			}
			if frag != "" && strings.HasSuffix(target, ".md") && !anchors(read(t, target))[frag] {
				t.Errorf("%s: the link %q names no heading of %s", page, href, target)
			}
		}
	}
}

// tableRows are the rows of a Markdown table in text (not its header's
// rule).
func tableRows(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "|") && !strings.HasPrefix(l, "|---") && !strings.HasPrefix(l, "| ---") {
			out = append(out, l)
		}
	}
	return out
}

// TestAmbiguitiesWrittenOnce: each game's ambiguity table is the one place
// of its readings. A row copied into another page would drift from it, so
// no other page holds one, and each game's page links its table.
func TestAmbiguitiesWrittenOnce(t *testing.T) {
	tables, err := filepath.Glob(filepath.Join(root, "rules/*/AMBIGUITIES.md"))
	if err != nil || len(tables) < 5 {
		t.Fatalf("want an AMBIGUITIES.md for each of the five games, found %v (%v)", tables, err)
	}
	owner := map[string]string{}
	for _, p := range tables {
		rel, _ := filepath.Rel(root, p)
		rows := tableRows(read(t, rel))
		if len(rows) < 5 {
			t.Errorf("%s has %d rows: not a table of readings", rel, len(rows))
		}
		for _, r := range rows[1:] { // the first row is the header
			owner[r] = rel
		}
		game := filepath.Join(filepath.Dir(rel), "README.md")
		if !strings.Contains(read(t, game), "(AMBIGUITIES.md)") {
			t.Errorf("%s does not link its ambiguity table AMBIGUITIES.md", game)
		}
	}
	for _, page := range pages(t) {
		if strings.HasSuffix(page, "AMBIGUITIES.md") {
			continue
		}
		for _, r := range tableRows(read(t, page)) {
			if from, ok := owner[r]; ok {
				t.Errorf("%s copies a row of %s (link it instead): %s", page, from, clip(r))
			}
		}
	}
}

func clip(s string) string {
	if len(s) > 100 {
		return fmt.Sprintf("%s… (%d bytes)", s[:100], len(s))
	}
	return s
}
