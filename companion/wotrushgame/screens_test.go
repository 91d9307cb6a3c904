package wotrushgame_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/sztab/sztab/internal/chromium"

	"github.com/sztab/sztab/companion/wotrushgame"
	"github.com/sztab/sztab/internal/pagecheck"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/wotrush"
)

// TestScreensWotRush: the demo played (round 3, a base of Bartek damaged), its pages
// checked in Chromium (internal/pagecheck): the table screen on the TVs,
// the referee's and a player's pages, in both languages; make test checks
// the table screen at 1080p in both languages and a player's phone.
func TestScreensWotRush(t *testing.T) {
	r := tabletest.Start(t, tabletest.DemoConfig(t, t.TempDir(), "wot-rush.yaml", true), wotrushgame.Spec)
	defer r.Stop(t)
	cat, err := wotrush.DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range cat.Vehicles {
		ids = append(ids, id)
	}
	ids = append(ids, "BASE-1-1", "BASE-2-1", "ENG-1-1", "VOL-1-1", "recruitment", "only_vehicles", "national_goods")
	ctx := pagecheck.Browser(t)
	full := pagecheck.Full()
	base := pagecheck.Page{Game: "wot-rush", URL: "http://" + r.D.DisplayAddr(), IDs: ids, Allow: []string{"stol-1", "of"}, // the game's name: "World of Tanks: Rush" in Polish too
		Ready: `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=base-BASE-2-1][data-damaged='1']")`}
	table, referee, player := pagecheck.Roles(base, "/player/2", "bartek", "bartek")
	for _, p := range pagecheck.Pages(table, referee, player, full) {
		pagecheck.Run(t, ctx, p)
	}
}

// TestBrowserRefereeCorrectsThePurchase: the demo played to Ania's
// purchase (Pz.Kpfw. II from the Reserve, paid with two Engineers); on the
// referee's page the referee corrects that entry from the form, picking
// names, never ids: she bought the Opel Blitz beside it. The
// table journals one entry more and replays it: that vehicle is in her
// Magazine, Pz.Kpfw. II back in the Reserve, and the page counts one
// correction and says what changed in words (the purchase before and
// after), in Polish and in English.
func TestBrowserRefereeCorrectsThePurchase(t *testing.T) {
	r := tabletest.PlayDemo(t, t.TempDir(), "wot-rush.yaml", wotrushgame.Spec, tabletest.DemoBefore(t, "wot-rush-demo.jsonl", "Ania kończy turę"))
	defer r.Stop(t)
	st := r.D.Game().(*wotrushgame.Game).State()
	if !slices.Contains(st.Players[0].Magazine, "DE-02") || !slices.Contains(st.Reserve, "DE-22") {
		t.Fatalf("before the correction Ania's Magazine is %v and the Reserve %v; want Pz.Kpfw. II (DE-02) bought, Opel Blitz (DE-22) for sale", st.Players[0].Magazine, st.Reserve)
	}
	seq := r.D.Seq()
	ctx := pagecheck.Browser(t)
	p := pagecheck.Page{Game: "wot-rush", Name: "referee", URL: "http://" + r.D.DisplayAddr(), Path: "/referee", User: "sedzia", Password: "sedzia",
		Size: pagecheck.TV1080, Lang: "pl", Ready: `document.body.dataset.stale === "0" && !!document.querySelector("[data-testid=correction-type]")`}
	if err := pagecheck.Load(ctx, p); err != nil {
		t.Fatal(err)
	}
	err := pagecheck.Correct(ctx, "zakup", []pagecheck.Field{{Label: "gracz", Value: "Ania"}, {Label: "kupione karty", Values: []string{"Opel Blitz"}},
		{Label: "karty płacące", Values: []string{"Inżynierowie (zestaw 1, nr 1)", "Inżynierowie (zestaw 1, nr 2)"}}}, seq, "kupiła Opel Blitz")
	if err != nil {
		t.Fatal(err)
	}
	entry := strconv.FormatInt(seq, 10)
	chromium.Until(t, ctx, `(h => !!h && h.textContent === "poprawki sędziego: 1")(document.querySelector("[data-testid=record-head]"))`)
	chromium.Until(t, ctx, `(l => l.includes("sędzia poprawia wpis `+entry+`: zakup (Ania): Pz.Kpfw. II, płaci: Inżynierowie (zestaw 1, nr 1), Inżynierowie (zestaw 1, nr 2) → zakup (Ania): Opel Blitz, płaci: Inżynierowie (zestaw 1, nr 1), Inżynierowie (zestaw 1, nr 2): kupiła Opel Blitz"))(document.querySelector("[data-testid=log]").textContent)`)
	pagecheck.Expect(t, ctx, "the record's note", `document.querySelector("[data-testid=record]").textContent.includes("poprawiono wpis `+entry+`: zakup (Ania): Pz.Kpfw. II, płaci: Inżynierowie (zestaw 1, nr 1), Inżynierowie (zestaw 1, nr 2) → zakup (Ania): Opel Blitz, płaci: Inżynierowie (zestaw 1, nr 1), Inżynierowie (zestaw 1, nr 2): sędzia — kupiła Opel Blitz")`)
	if got := r.D.Seq(); got != seq+1 {
		t.Errorf("the journal is at %d after the correction, want %d (one entry more)", got, seq+1)
	}
	st = r.D.Game().(*wotrushgame.Game).State()
	if !slices.Contains(st.Players[0].Magazine, "DE-22") || slices.Contains(st.Players[0].Magazine, "DE-02") || !slices.Contains(st.Reserve, "DE-02") {
		t.Errorf("after the correction Ania's Magazine is %v and the Reserve %v; want Opel Blitz (DE-22) bought, Pz.Kpfw. II (DE-02) for sale", st.Players[0].Magazine, st.Reserve)
	}
	p.Lang = "en"
	if err := pagecheck.Load(ctx, p); err != nil {
		t.Fatal(err)
	}
	pagecheck.Expect(t, ctx, "the English record", `document.querySelector("[data-testid=record-head]").textContent === "referee's corrections: 1"`)
	pagecheck.Expect(t, ctx, "the English log", `document.querySelector("[data-testid=log]").textContent.includes("the referee corrects entry `+entry+`: a purchase (Ania): Pz.Kpfw. II, paying: Engineers (set 1, no. 1), Engineers (set 1, no. 2) → a purchase (Ania): Opel Blitz, paying: Engineers (set 1, no. 1), Engineers (set 1, no. 2): kupiła Opel Blitz")`)
}
