package box_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/box"
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
			[]string{"", "", "", "", "", "50", "", "", "", "", "Józef Piłsudski", "", "", "4", "", "04C0FFEE"},
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
