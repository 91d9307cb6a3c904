package bitwa

import (
	"strings"
	"testing"
)

func TestDefaultData(t *testing.T) {
	cat := defaultCat(t)
	count := map[string]int{}
	printed := 0
	for _, c := range cat.Data.Cards {
		count[c.Army+"/"+c.Kind]++
		if !c.Assumed {
			printed++
		}
	}
	want := map[string]int{"wp/unit": 23, "wp/commander": 15, "wp/order": 15, "acz/unit": 20, "acz/commander": 15, "acz/order": 18}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%s: %d cards, want %d", k, count[k], n)
		}
	}
	if printed != 12 {
		t.Errorf("%d printed cards, want 12", printed)
	}
	if cat.Cards["haller"].Limit != 4 || cat.Cards["galica"].Limit != 6 {
		t.Error("Haller 4, Galica 6")
	}
	seen := map[string]bool{}
	for _, c := range cat.Data.Cards {
		for _, opt := range c.Options() {
			for _, e := range opt {
				seen[e.Do] = true
			}
		}
	}
	for _, k := range EffectKinds {
		if !seen[k] {
			t.Errorf("no card uses the effect %s", k)
		}
	}
}

// TestBadDataNamesFileLineCard: a garbled card file is refused with the
// file, the line and the card.
func TestBadDataNamesFileLineCard(t *testing.T) {
	files := DefaultFiles()
	cards := string(files[CardsFile])
	cases := []struct{ old, new, want string }{
		{"limit: 6", "limit: 0", "cards.yaml:"},
		{`do: "move", n: 2}]`, `do: "fly", n: 2}]`, "unknown effect"},
		{"army: acz\n    kind: unit", "army: xx\n    kind: unit", "army \"xx\""},
	}
	for _, c := range cases {
		bad := strings.Replace(cards, c.old, c.new, 1)
		_, err := ParseCatalogue(CardsFile, []byte(bad), ComponentsFile, files[ComponentsFile])
		if err == nil || !strings.HasPrefix(err.Error(), "bitwa: cards.yaml:") || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "cards[") {
			t.Errorf("%q → %v", c.new, err)
		}
	}
	_, err := ParseCatalogue(CardsFile, files[CardsFile], ComponentsFile, []byte("armies: [}"))
	if err == nil || !strings.HasPrefix(err.Error(), "bitwa: components.yaml") {
		t.Errorf("components: %v", err)
	}
}
