package box_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/companion/box"
	"github.com/sztab/sztab/companion/maligame"
	"github.com/sztab/sztab/companion/west1920game"
	"github.com/sztab/sztab/companion/wotrushgame"
	"github.com/sztab/sztab/internal/pagecheck"
)

// Each kind of mistake typed on the enrolment page is refused with its
// file, line and reason, in the page's language, and the pack's files are
// left as they were: a value the schema does not allow, a value that is not
// YAML, a deck that no longer has the rulebook's counts, a tag bound twice,
// a reference to a place the map does not have, a tag for an entry that is
// no card.
func TestEnrolmentPageRefusesEachKindOfMistake(t *testing.T) {
	browser := pagecheck.Browser(t)
	type mistake struct {
		name   string
		ci, ei int
		change map[string]string
		uid    string
		// before is a save that must pass first (a tag bound to one card).
		before map[string]string
		want   string
	}
	for _, g := range []struct {
		spec     companion.GameSpec
		mistakes []mistake
	}{
		{wotrushgame.Spec, []mistake{
			{name: "schema", ci: 1, ei: 0, change: map[string]string{"cost": "-3"}, want: `vehicles.yaml:28: vehicles[0] "SU-01": cost -3, want 0–20`},
			{name: "not YAML", ci: 1, ei: 0, change: map[string]string{"abilities": "[{id: scout"}, want: "Zdolności: nie rozumiem \"[{id: scout\""},
		}},
		{bitwagame.Spec, []mistake{
			{name: "counts", ci: 0, ei: 40, change: map[string]string{"kind": "order"}, want: "cards.yaml: army wp has 22 unit cards, components.yaml says 23"},
			{name: "duplicate tag", ci: 0, ei: 21, before: map[string]string{"uid": "04BB0101"}, uid: "04BB0101", want: `tags.yaml:3: znacznik 04BB0101 jest już przypisany karcie "`},
		}},
		{maligame.Spec, []mistake{
			{name: "reference", ci: 1, ei: 0, change: map[string]string{"param": "praga"}, want: `goals.yaml:8: cel "c01": nieznana dzielnica "praga"`},
		}},
		{west1920game.Spec, []mistake{
			{name: "reference to a counter", ci: 3, ei: 1, change: map[string]string{"units": "[ru-99sd]"}, want: "ru-99sd"},
		}},
	} {
		t.Run(g.spec.ID, func(t *testing.T) {
			r, pack, ctx := enrolTable(t, browser, g.spec)
			defer r.Stop(t)
			p, err := box.Open(pack)
			if err != nil {
				t.Fatal(err)
			}
			s, err := box.Enrolment(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range g.mistakes {
				t.Run(m.name, func(t *testing.T) {
					values := func(change map[string]string) map[string]string {
						v := map[string]string{}
						for _, f := range s.Collections[m.ci].Fields {
							v[f.Name] = s.Collections[m.ci].Entries[m.ei].Values[f.Name]
						}
						for k, x := range change {
							v[k] = x
						}
						return v
					}
					if m.before != nil {
						setUID(t, ctx, m.before["uid"])
						if why := saveEntry(t, ctx, m.ci, m.ei-1, values(nil)); why != "" {
							t.Fatalf("the first save was refused: %s", why)
						}
					}
					files := snapshot(t, pack)
					setUID(t, ctx, m.uid)
					why := saveEntry(t, ctx, m.ci, m.ei, values(m.change))
					if !strings.HasPrefix(why, "Odrzucone, karta nie zapisana: ") || !strings.Contains(why, m.want) {
						t.Errorf("the page says %q, want the refusal with %q", why, m.want)
					}
					step(t, ctx, g.spec.ID, "4-refused")
					if after := snapshot(t, pack); !equalFiles(files, after) {
						t.Errorf("a refused entry changed the pack's files")
					}
				})
			}
		})
	}
}

// setUID types a tag UID into the page's tag field ("" clears it).
func setUID(t *testing.T, ctx context.Context, uid string) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(function (i) { if (i) { i.value = ""; i.dispatchEvent(new Event("input")); } })(document.querySelector("#uid"))`))
	if err == nil && uid != "" {
		err = chromedp.Do(ctx, chromedp.SendKeys(`#uid`, uid))
	}
	if err != nil {
		t.Fatal(err)
	}
}

func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

func equalFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			return false
		}
	}
	return true
}
