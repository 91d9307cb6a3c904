package bitwagame_test

import (
	"strconv"
	"testing"

	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/internal/chromium"
	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/bitwa"
)

// TestScreensBitwa: the demo played (round 2, military actions), its pages
// checked in Chromium (internal/pagecheck): the table screen on the TVs,
// the referee's and a player's pages, in both languages; make test checks
// the table screen at 1080p in both languages and a player's phone.
func TestScreensBitwa(t *testing.T) {
	r := tabletest.Start(t, tabletest.DemoConfig(t, t.TempDir(), "bitwa-warszawska.yaml", true), bitwagame.Spec)
	defer r.Stop(t)
	cat, err := bitwa.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range cat.Cards {
		ids = append(ids, id)
	}
	ctx := pagecheck.Browser(t)
	full := pagecheck.Full()
	base := pagecheck.Page{Game: "bitwa", URL: "http://" + r.D.DisplayAddr(), IDs: ids, Allow: []string{"stol-1", "WP", "ACz"}, Foreign: bitwagame.ForeignWords(cat),
		Ready: `document.body.dataset.stale === "0" && document.querySelector("[data-testid=round]") && document.querySelector("[data-testid=round]").dataset.round === "2" && !!document.querySelector("[data-testid=commander-wp-C]")`}
	table, referee, player := pagecheck.Roles(base, "/player/2", "janek", "janek")
	for _, p := range pagecheck.Pages(table, referee, player, full) {
		pagecheck.Run(t, ctx, p)
	}
}

// TestBrowserRefereeCorrectsTheBonusDie: the demo played to its first
// bonus-front die (2: the Central Front); on the referee's page the
// referee corrects that entry from the form, picking names (the roll of
// the die, Marysia), never ids: the die was a 3. The table journals one
// entry more and replays it: the bonus front is the Southern one, and the
// page counts one correction and says what changed in words (the roll
// before and after), in Polish and in English.
func TestBrowserRefereeCorrectsTheBonusDie(t *testing.T) {
	r := tabletest.PlayDemo(t, t.TempDir(), "bitwa-warszawska.yaml", bitwagame.Spec, tabletest.DemoBefore(t, "bitwa-warszawska-demo.jsonl", "Działania militarne"))
	defer r.Stop(t)
	if b := r.D.Game().(*bitwagame.Game).State().Bonus; b != "C" {
		t.Fatalf("before the correction the bonus front is %q, want C (the demo's die 2)", b)
	}
	seq := r.D.Seq()
	ctx := pagecheck.Browser(t)
	p := pagecheck.Page{Game: "bitwa", Name: "referee", URL: "http://" + r.D.DisplayAddr(), Path: "/referee", User: "sedzia", Password: "sedzia",
		Size: pagecheck.TV1080, Lang: "pl", Ready: `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=correction-type]")`}
	if err := pagecheck.Load(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := pagecheck.Correct(ctx, "rzut kością", []pagecheck.Field{{Label: "gracz", Value: "Marysia (WP)"}, {Label: "kości (po przecinku)", Value: "3"}}, seq, "kość odczytana źle"); err != nil {
		t.Fatal(err)
	}
	entry := strconv.FormatInt(seq, 10)
	chromium.Until(t, ctx, `(h => !!h && h.textContent === "poprawki sędziego: 1")(document.querySelector("[data-testid=record-head]"))`)
	chromium.Until(t, ctx, `(l => l.includes("sędzia poprawia wpis `+entry+`: rzut kością (Marysia): 2 → rzut kością (Marysia): 3: kość odczytana źle"))(document.querySelector("[data-testid=log]").textContent)`)
	pagecheck.Expect(t, ctx, "the record's note", `document.querySelector("[data-testid=record]").textContent.includes("poprawiono wpis `+entry+`: rzut kością (Marysia): 2 → rzut kością (Marysia): 3: sędzia — kość odczytana źle")`)
	if got := r.D.Seq(); got != seq+1 {
		t.Errorf("the journal is at %d after the correction, want %d (one entry more)", got, seq+1)
	}
	if b := r.D.Game().(*bitwagame.Game).State().Bonus; b != "S" {
		t.Errorf("after the correction the bonus front is %q, want S (die 3)", b)
	}
	p.Lang = "en"
	if err := pagecheck.Load(ctx, p); err != nil {
		t.Fatal(err)
	}
	pagecheck.Expect(t, ctx, "the English record", `document.querySelector("[data-testid=record-head]").textContent === "referee's corrections: 1"`)
	pagecheck.Expect(t, ctx, "the English log", `document.querySelector("[data-testid=log]").textContent.includes("the referee corrects entry `+entry+`: a roll of the die (Marysia): 2 → a roll of the die (Marysia): 3: kość odczytana źle")`)
	pagecheck.Expect(t, ctx, "the English note", `document.querySelector("[data-testid=record]").textContent.includes("corrected entry `+entry+`: a roll of the die (Marysia): 2 → a roll of the die (Marysia): 3: the referee — kość odczytana źle")`)
}
