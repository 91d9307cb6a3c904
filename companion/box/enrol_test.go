package box_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/box"
	"github.com/sztab/sztab/rules"
)

// TestEnrolScripted enrols cards through the terminal flow with a scripted
// stdin: a value the rules refuse is refused with its reason and asked
// again, the corrected card is saved with its tag, and a second run goes
// on from the next card, showing what is left.
func TestEnrolScripted(t *testing.T) {
	for _, tc := range []struct {
		game, file string
		// script answers the first card's prompts twice (refused, then
		// accepted with a tag).
		script                []string
		refusal, saved, after string
		next                  string
	}{
		{"bitwa-warszawska", "cards.yaml",
			[]string{"", "", "", "", "", "", "", "50", "", "", "", "", "Józef Piłsudski", "", "", "", "", "4", "", "04C0FFEE"},
			"commander limit 50, want 1–21", "    name: Józef Piłsudski\n    text:", "    limit: 4\n", "karta / card rozwadowski"},
		{"mali-powstancy", "orders.yaml",
			[]string{"", "twierdza", "", "", "", "", "13", "04D00002"},
			`unknown object "pwpw" or "twierdza"`, "from: pwpw, to: al-szucha, points: 13}", "", "karta / card r03"},
	} {
		t.Run(tc.game, func(t *testing.T) {
			dir := newPack(t, tc.game)
			var out strings.Builder
			if err := box.Enrol(dir, strings.NewReader(strings.Join(tc.script, "\n")+"\n"), &out); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			if !strings.Contains(got, "refused, the card is not saved") || !strings.Contains(got, tc.refusal) || strings.Count(got, "zapisane / saved") != 1 {
				t.Fatalf("the enrolment said:\n%s", got)
			}
			b, _ := os.ReadFile(filepath.Join(dir, tc.file))
			if !strings.Contains(string(b), tc.saved) || !strings.Contains(string(b), tc.after) {
				t.Errorf("%s after the enrolment lacks %q, %q:\n%.1500s", tc.file, tc.saved, tc.after, b)
			}
			tags, _ := os.ReadFile(filepath.Join(dir, box.TagsFile))
			uid := tc.script[len(tc.script)-1]
			if !strings.Contains(string(tags), `uid: "`+uid+`", kind: card`) {
				t.Errorf("tags.yaml: %s", tags)
			}
			p, err := box.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := box.Check(p); err != nil {
				t.Fatalf("the enrolled pack does not check: %v", err)
			}
			// Resume: the next run starts at the next card and says how
			// many are left, one fewer.
			before := strings.SplitN(got, "\n", 3)[1]
			var again strings.Builder
			if err := box.Enrol(dir, strings.NewReader(""), &again); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(again.String(), tc.next) || strings.Contains(again.String(), before) {
				t.Errorf("the second run:\n%s\nthe first began: %s", again.String(), before)
			}
		})
	}
}

// TestEnglishFollowsThePrint: a card's English is optional and belongs to
// its printed text. Typed English is kept literally (a colon is no YAML
// mapping); an English left empty is dropped and the English page shows
// the Polish as printed; a changed Polish with the English left as it was
// drops the old English, which translated another text.
func TestEnglishFollowsThePrint(t *testing.T) {
	shipped, err := box.Shipped("bitwa-warszawska")
	if err != nil {
		t.Fatal(err)
	}
	st, err := box.Enrolment(shipped)
	if err != nil {
		t.Fatal(err)
	}
	col := st.Collections[0]
	const id = "rozwadowski"
	index := -1
	for i, e := range col.Entries {
		if e.Values["name"] == "Gen. Tadeusz Rozwadowski" {
			index = i
		}
	}
	if index < 0 {
		t.Fatalf("no %s in the shipped cards", id)
	}
	was := col.Entries[index].Values
	for _, tc := range []struct {
		name    string
		typed   map[string]string
		want    rules.Text // the card's name
		wantTxt string     // the card's English text
	}{
		{"kept as it was", nil, rules.Text{PL: was["name"], EN: was["name_en"]}, was["text_en"]},
		{"English typed with a colon", map[string]string{"text_en": "In the battle stage: add 1 to your Army Strength."},
			rules.Text{PL: was["name"], EN: was["name_en"]}, "In the battle stage: add 1 to your Army Strength."},
		{"no English: the Polish stands in", map[string]string{"name_en": "", "text_en": ""},
			rules.Text{PL: was["name"], EN: was["name"]}, was["text"]},
		{"the Polish changed, the English not: the English goes", map[string]string{"name": "Tadeusz Rozwadowski"},
			rules.Text{PL: "Tadeusz Rozwadowski", EN: "Tadeusz Rozwadowski"}, was["text_en"]},
		{"both changed: both kept", map[string]string{"name": "Gen. broni Tadeusz Rozwadowski", "name_en": "Lt Gen. Tadeusz Rozwadowski"},
			rules.Text{PL: "Gen. broni Tadeusz Rozwadowski", EN: "Lt Gen. Tadeusz Rozwadowski"}, was["text_en"]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			values := map[string]string{}
			for _, f := range col.Fields {
				values[f.Name] = was[f.Name]
			}
			for k, v := range tc.typed {
				values[k] = v
			}
			p, err := box.Apply(shipped, box.Submission{File: col.File, List: col.List, Index: index, Values: values})
			if err != nil {
				t.Fatal(err)
			}
			cat, err := box.BitwaCatalogue(p)
			if err != nil {
				t.Fatal(err)
			}
			c := cat.Cards[id]
			if got := c.Names(); got != tc.want {
				t.Errorf("name %+v, want %+v", got, tc.want)
			}
			if got := c.Texts().EN; got != tc.wantTxt {
				t.Errorf("English text %q, want %q", got, tc.wantTxt)
			}
		})
	}
}
