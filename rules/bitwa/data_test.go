package bitwa

import (
	"strings"
	"testing"

	"github.com/sztab/sztab/rules"
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
		{`    text: "Dodaj 2 Oddziały na 2. linię tego Frontu."` + "\n", "", "text_en but no text"},
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

// TestCardsInEnglish: every shipped card has its name and text in English
// beside the Polish as printed; a card without them (a club's own box)
// shows the Polish in English too.
func TestCardsInEnglish(t *testing.T) {
	cat := defaultCat(t)
	for _, c := range cat.Data.Cards {
		if c.NameEN == "" || c.TextEN == "" {
			t.Errorf("%s: name_en %q, text_en %q", c.ID, c.NameEN, c.TextEN)
		}
		if c.Texts().EN == c.Texts().PL {
			t.Errorf("%s: the English text is the Polish: %q", c.ID, c.TextEN)
		}
		if c.Kind == KindOrder && c.Names().EN == c.Names().PL {
			t.Errorf("%s: the order's English name is the Polish: %q", c.ID, c.NameEN)
		}
	}
	for _, tc := range []struct {
		card       Card
		name, text rules.Text
	}{
		{Card{Name: "Mobilizacja", NameEN: "Mobilisation", Text: "Dodaj 2 Oddziały na 2. linię tego Frontu.", TextEN: "Add 2 units to the 2nd line of this front."},
			rules.Text{PL: "Mobilizacja", EN: "Mobilisation"}, rules.Text{PL: "Dodaj 2 Oddziały na 2. linię tego Frontu.", EN: "Add 2 units to the 2nd line of this front."}},
		{Card{Name: "Mobilizacja", Text: "Dodaj 2 Oddziały na 2. linię tego Frontu."},
			rules.Text{PL: "Mobilizacja", EN: "Mobilizacja"}, rules.Text{PL: "Dodaj 2 Oddziały na 2. linię tego Frontu.", EN: "Dodaj 2 Oddziały na 2. linię tego Frontu."}},
	} {
		if got := tc.card.Names(); got != tc.name {
			t.Errorf("Names %+v, want %+v", got, tc.name)
		}
		if got := tc.card.Texts(); got != tc.text {
			t.Errorf("Texts %+v, want %+v", got, tc.text)
		}
	}
}
