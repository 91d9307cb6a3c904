package west1920

import (
	"slices"
	"testing"

	"github.com/sztab/sztab/rules"
)

// playCards plays polish's card by the Polish player and russian's by the
// Russian player in stage 2 (Russians first, 3.1) on s, each hand filled
// with a resource card (12 / 33). A card's Polish column is tested with
// playCards(s, X, 33), its Russian column with playCards(s, 12, X).
func playCards(t *testing.T, s State, polish, russian int) (State, []Event) {
	t.Helper()
	s.Stage, s.Phase, s.Turn, s.Pending = 2, PhaseEvents, Russian, nil
	s.player(Polish).Hand = []int{polish, 23}
	s.player(Russian).Hand = []int{russian, 35}
	s.Deck = nil
	s = mustApply(t, s, PlayCard{Side: Russian, Card: russian})
	return mustApplyEv(t, s, PlayCard{Side: Polish, Card: polish})
}

func wantPending(t *testing.T, s State, kind, side string, n int) {
	t.Helper()
	p := s.Pending
	if p == nil || p.Kind != kind || p.Side != side || (n >= 0 && p.N != n) {
		t.Fatalf("pending %+v, want %s by %s (n %d)", p, kind, side, n)
	}
}

func wantResources(t *testing.T, s State) {
	t.Helper()
	if s.Phase == PhaseEvents || len(s.CardTasks) != 0 {
		t.Fatalf("phase %s, tasks %v: want the stage past the events phase after the card", s.Phase, s.CardTasks)
	}
}

// Card 7 (single instruction; "Tłumaczenia kart", 3.2): the Russian combat
// unit nearest Kiev is weakened, or eliminated if already weak; the Russian
// player chooses among equally near units.
func TestCard7UkrainianPartisans(t *testing.T) {
	s := bare(t, PhaseEvents, Russian, 5)
	put(t, &s, "ru-7sd", "2112", "SW")
	put(t, &s, "ru-24sd", "2114", "SW")
	put(t, &s, "ru-44sd", "1812", "SW")
	n, _ := playCards(t, s, 7, 33)
	wantPending(t, n, "card_choice", Russian, 1)
	if !slices.Equal(n.Pending.Options, []string{"ru-7sd", "ru-24sd"}) {
		t.Fatalf("options %v, want the two units next to Kiev", n.Pending.Options)
	}
	rejectCode(t, n, Choose{Side: Polish, Targets: []string{"ru-7sd"}}, "not_your_decision")
	rejectCode(t, n, Choose{Side: Russian, Targets: []string{"ru-44sd"}}, "bad_choice")
	n = mustApply(t, n, Choose{Side: Russian, Targets: []string{"ru-24sd"}})
	if u := n.unit("ru-24sd"); !u.Weak || u.Status != OnMap || n.unit("ru-7sd").Weak {
		t.Fatalf("ru-24sd %+v: want it weakened, ru-7sd untouched", u)
	}
	wantResources(t, n)
	// One nearest unit, already weak: eliminated with no choice.
	s.unit("ru-24sd").Status = Waiting
	s.unit("ru-7sd").Weak = true
	n, _ = playCards(t, s, 7, 33)
	if n.unit("ru-7sd").Status != Eliminated {
		t.Fatal("the weak nearest unit is not eliminated")
	}
	wantResources(t, n)
}

// Card 8: each player rolls 1d6 and removes half of it (1.5, rounded
// down) of their own combat units, chosen by themselves.
func TestCard8Desertions(t *testing.T) {
	s := bare(t, PhaseEvents, Russian, 5)
	for _, id := range []string{"ru-2sd", "ru-4sd", "ru-6sd"} {
		put(t, &s, id, "1903", "SW")
	}
	put(t, &s, "pl-8dp", "1705", "NE")
	n, _ := playCards(t, s, 8, 33)
	wantPending(t, n, "desertion", Russian, -1)
	rejectCode(t, n, Roll{Dice: []int{7}}, "bad_die")
	n = mustApply(t, n, Roll{Dice: []int{5}})
	wantPending(t, n, "card_choice", Russian, 2)
	rejectCode(t, n, Choose{Side: Russian, Targets: []string{"ru-2sd"}}, "choose_count")
	rejectCode(t, n, Choose{Side: Russian, Targets: []string{"ru-2sd", "pl-8dp"}}, "bad_choice")
	n = mustApply(t, n, Choose{Side: Russian, Targets: []string{"ru-2sd", "ru-6sd"}})
	wantPending(t, n, "desertion", Polish, -1)
	n = mustApply(t, n, Roll{Dice: []int{1}}) // half of 1 is 0
	if n.unit("ru-2sd").Status != Eliminated || n.unit("ru-6sd").Status != Eliminated || n.unit("ru-4sd").Status != OnMap || n.unit("pl-8dp").Status != OnMap {
		t.Fatal("wrong units deserted")
	}
	wantResources(t, n)
}

// Card 14: one Russian cavalry unit eliminated; the Polish player chooses
// in the Polish column, the Russian player in the Russian one.
func TestCard14CossackRevolt(t *testing.T) {
	s := bare(t, PhaseEvents, Russian, 5)
	put(t, &s, "ru-3kk", "2205", "SW")
	put(t, &s, "ru-8kd", "2013", "SW")
	put(t, &s, "ru-2sd", "1903", "SW")
	for _, c := range []struct {
		pl, ru  int
		chooser string
	}{{14, 33, Polish}, {12, 14, Russian}} {
		n, _ := playCards(t, s, c.pl, c.ru)
		wantPending(t, n, "card_choice", c.chooser, 1)
		if !slices.Equal(n.Pending.Options, []string{"ru-3kk", "ru-8kd"}) {
			t.Fatalf("options %v: want the cavalry only", n.Pending.Options)
		}
		n = mustApply(t, n, Choose{Side: c.chooser, Targets: []string{"ru-8kd"}})
		if n.unit("ru-8kd").Status != Eliminated || n.unit("ru-3kk").Status != OnMap {
			t.Fatal("ru-8kd not eliminated")
		}
		wantResources(t, n)
	}
}

// Cards 20 and 28: Polish non-artillery units next to Russian units (card
// 28: Russian cavalry) retreat two hexes (9.5b, first point); the chooser
// per column; the owner picks the path.
func TestCards20And28ForcedRetreat(t *testing.T) {
	s := bare(t, PhaseEvents, Russian, 5)
	put(t, &s, "pl-8dp", "1705", "NE")
	put(t, &s, "pl-10dp", "1707", "NE")
	put(t, &s, "pl-art-1", "1705", "")
	put(t, &s, "ru-3kk", "1805", "SW")
	put(t, &s, "ru-2sd", "1806", "SW")
	// 20, Polish column: one unit, the Russian player chooses.
	n, _ := playCards(t, s, 20, 33)
	wantPending(t, n, "card_choice", Russian, 1)
	if !slices.Equal(n.Pending.Options, []string{"pl-8dp", "pl-10dp"}) {
		t.Fatalf("options %v", n.Pending.Options)
	}
	n = mustApply(t, n, Choose{Side: Russian, Targets: []string{"pl-8dp"}})
	wantPending(t, n, "card_retreat", Polish, -1)
	rejectCode(t, n, Retreat{Side: Polish, Path: []Hex{"1605"}}, "retreat_two")
	n = mustApply(t, n, Retreat{Side: Polish, Path: []Hex{"1605", "1505"}})
	if n.unit("pl-8dp").Hex != "1505" || n.unit("pl-art-1").Hex != "1705" {
		t.Fatalf("pl-8dp in %s, artillery in %s", n.unit("pl-8dp").Hex, n.unit("pl-art-1").Hex)
	}
	wantResources(t, n)
	// 20, Russian column: two units; both candidates retreat, no choice.
	n, _ = playCards(t, s, 12, 20)
	wantPending(t, n, "card_retreat", Polish, -1)
	if n.Pending.Unit != "pl-8dp" || len(n.CardTasks) != 2 {
		t.Fatalf("pending %+v, tasks %d", n.Pending, len(n.CardTasks))
	}
	// 28, Polish column: only pl-8dp is next to cavalry: no choice.
	n, _ = playCards(t, s, 28, 33)
	wantPending(t, n, "card_retreat", Polish, -1)
	if n.Pending.Unit != "pl-8dp" {
		t.Fatalf("card 28 retreats %s, want pl-8dp (next to cavalry)", n.Pending.Unit)
	}
	// 28, Russian column: with cavalry next to both, the Russian chooses.
	s.unit("ru-2sd").Status = Waiting
	put(t, &s, "ru-8kd", "1806", "SW")
	n, _ = playCards(t, s, 12, 28)
	wantPending(t, n, "card_choice", Russian, 1)
}

// Card 24: Polish units moved to Toruń at once (1 in the Polish column,
// 2 in the Russian), the Polish player chooses.
func TestCard24Torun(t *testing.T) {
	s := bare(t, PhaseEvents, Russian, 5)
	put(t, &s, "pl-8dp", "1705", "NE")
	put(t, &s, "pl-10dp", "1707", "NE")
	n, _ := playCards(t, s, 24, 33)
	wantPending(t, n, "card_choice", Polish, 1)
	n = mustApply(t, n, Choose{Side: Polish, Targets: []string{"pl-10dp"}})
	if n.unit("pl-10dp").Hex != "0208" || n.unit("pl-8dp").Hex != "1705" {
		t.Fatal("pl-10dp not in Toruń")
	}
	wantResources(t, n)
	n, _ = playCards(t, s, 12, 24)
	if n.unit("pl-10dp").Hex != "0208" || n.unit("pl-8dp").Hex != "0208" {
		t.Fatal("Russian column: both units go to Toruń")
	}
	wantResources(t, n)
}

// Cards 29 and 34: weakened supplied two-sided units restored free (10.0);
// "all" in one column, two chosen in the other.
func TestCards29And34FreeReplacement(t *testing.T) {
	s := newGame(t)
	for _, id := range []string{"pl-8dp", "pl-10dp", "pl-11dp", "ru-2sd", "ru-4sd", "ru-6sd"} {
		s.unit(id).Weak = true
	}
	count := func(s State, side string) int {
		k := 0
		for _, u := range s.Units {
			if u.Side == side && u.Weak && !u.OneSided {
				k++
			}
		}
		return k
	}
	n, _ := playCards(t, s, 29, 33) // all Polish
	if count(n, Polish) != 0 || count(n, Russian) != 3 {
		t.Fatalf("29 Polish column: %d Polish, %d Russian weak", count(n, Polish), count(n, Russian))
	}
	wantResources(t, n)
	n, _ = playCards(t, s, 12, 29) // two Polish, the Polish player's choice
	wantPending(t, n, "card_choice", Polish, 2)
	n = mustApply(t, n, Choose{Side: Polish, Targets: []string{"pl-8dp", "pl-11dp"}})
	if !n.unit("pl-10dp").Weak || n.unit("pl-8dp").Weak || n.unit("pl-11dp").Weak {
		t.Fatal("29 Russian column: wrong units restored")
	}
	n, _ = playCards(t, s, 34, 33) // two Russian, the Russian player's choice
	wantPending(t, n, "card_choice", Russian, 2)
	n, _ = playCards(t, s, 12, 34) // all Russian
	if count(n, Russian) != 0 || count(n, Polish) != 3 {
		t.Fatal("34 Russian column: all Russian units restored")
	}
	// An unsupplied unit is not eligible (10.0).
	s2 := bare(t, PhaseEvents, Russian, 5)
	put(t, &s2, "pl-8dp", "1705", "NE")
	s2.unit("pl-8dp").Weak = true
	if s2.Supplied("pl-8dp") {
		t.Fatal("pl-8dp at 1705 without depots is supplied: the scene no longer tests an unsupplied unit")
	}
	n, _ = playCards(t, s2, 29, 33)
	if !n.unit("pl-8dp").Weak {
		t.Fatal("an unsupplied unit was restored")
	}
}

// Cards 36 and 40: Polish units moved next to Czechoslovakia's border; the
// Polish player picks the units and each hex.
func TestCards36And40Czechoslovakia(t *testing.T) {
	s := bare(t, PhaseEvents, Russian, 5)
	put(t, &s, "pl-8dp", "1705", "NE")
	put(t, &s, "pl-10dp", "1707", "NE")
	put(t, &s, "pl-11dp", "1608", "NE")
	n, _ := playCards(t, s, 36, 33)
	wantPending(t, n, "card_choice", Polish, 1)
	n = mustApply(t, n, Choose{Side: Polish, Targets: []string{"pl-8dp"}})
	wantPending(t, n, "place", Polish, -1)
	opts := n.Pending.Options
	if len(opts) == 0 || slices.Contains(opts, "0117") {
		t.Fatalf("place options %v: want hexes next to (not in) Czechoslovakia", opts)
	}
	rejectCode(t, n, Place{Side: Polish, Unit: "pl-8dp", Hex: "1705"}, "bad_place")
	n = mustApply(t, n, Place{Side: Polish, Unit: "pl-8dp", Hex: Hex(opts[0]), Facing: "N"})
	if n.unit("pl-8dp").Hex != Hex(opts[0]) {
		t.Fatal("pl-8dp not moved")
	}
	wantResources(t, n)
	for _, c := range [][2]int{{12, 36}, {40, 33}} {
		n, _ = playCards(t, s, c[0], c[1])
		wantPending(t, n, "card_choice", Polish, 2)
		n = mustApply(t, n, Choose{Side: Polish, Targets: []string{"pl-8dp", "pl-10dp"}})
		for range 2 {
			wantPending(t, n, "place", Polish, -1)
			n = mustApply(t, n, Place{Side: Polish, Unit: n.Pending.Unit, Hex: Hex(n.Pending.Options[0])})
		}
		wantResources(t, n)
	}
	// 40, Russian column: +2 RP for the Russian player, nobody moves.
	n, _ = playCards(t, s, 12, 40)
	if n.player(Russian).CardRP != 2 || n.unit("pl-8dp").Hex != "1705" {
		t.Fatal("40 Russian column: want +2 Russian RP only")
	}
}

// Card 37: up to 2 (Polish column) or 4 (Russian column) eliminated
// Russian units return weakened in or next to Smolensk; Russian choice.
func TestCard37ReturnEliminated(t *testing.T) {
	s := bare(t, PhaseEvents, Russian, 5)
	for _, id := range []string{"ru-2sd", "ru-4sd", "ru-6sd", "ru-8sd", "ru-17sd"} {
		s.unit(id).Status = Eliminated
	}
	n, _ := playCards(t, s, 37, 33)
	wantPending(t, n, "card_choice", Russian, 2)
	n = mustApply(t, n, Choose{Side: Russian, Targets: []string{"ru-4sd"}}) // "maksymalnie": fewer is fine
	wantPending(t, n, "place", Russian, -1)
	if n.Pending.Options[0] != "2404" || len(n.Pending.Options) < 2 {
		t.Fatalf("options %v: want Smolensk and its neighbours", n.Pending.Options)
	}
	n = mustApply(t, n, Place{Side: Russian, Unit: "ru-4sd", Hex: "2404", Facing: "SW"})
	if u := n.unit("ru-4sd"); u.Status != OnMap || !u.Weak || u.Hex != "2404" {
		t.Fatalf("ru-4sd %+v: want it weakened in Smolensk", u)
	}
	wantResources(t, n)
	n, _ = playCards(t, s, 12, 37)
	wantPending(t, n, "card_choice", Russian, 4)
	n = mustApply(t, n, Choose{Side: Russian, Targets: []string{}})
	wantResources(t, n)
}

// Card 21: no activation chit on 1 (Polish column) or 2 (Russian column)
// Polish stacks next to Russian stacks, the Russian player's choice (7.1).
func TestCard21NoChit(t *testing.T) {
	s := bare(t, PhaseEvents, Russian, 5)
	put(t, &s, "pl-8dp", "1705", "NE")
	put(t, &s, "pl-10dp", "1707", "NE")
	put(t, &s, "pl-11dp", "1503", "NE") // not next to the Russians
	put(t, &s, "ru-2sd", "1805", "SW")
	put(t, &s, "ru-4sd", "1806", "SW")
	n, _ := playCards(t, s, 21, 33)
	wantPending(t, n, "card_choice", Russian, 1)
	if !slices.Equal(n.Pending.Options, []string{"1705", "1707"}) {
		t.Fatalf("options %v", n.Pending.Options)
	}
	n = mustApply(t, n, Choose{Side: Russian, Targets: []string{"1707"}})
	n.Phase, n.Turn, n.Pending = PhaseChits, Polish, nil
	rejectCode(t, n, AssignChit{Side: Polish, Hex: "1707"}, "card_forbids")
	mustApply(t, n, AssignChit{Side: Polish, Hex: "1705"})
	n, _ = playCards(t, s, 12, 21) // two stacks, two candidates: both, no choice
	n.Phase, n.Turn, n.Pending = PhaseChits, Polish, nil
	rejectCode(t, n, AssignChit{Side: Polish, Hex: "1705"}, "card_forbids")
	rejectCode(t, n, AssignChit{Side: Polish, Hex: "1707"}, "card_forbids")
}

// Card 31, Russian column: one Polish stack, named by the Polish player
// (Order.Card), moves without the 7.2 roll; a second order needs it.
func TestCard31NoActivationRoll(t *testing.T) {
	s := bare(t, PhaseEvents, Russian, 5)
	n, _ := playCards(t, s, 12, 31)
	n.Phase, n.Turn, n.Pending = PhaseOrders, Polish, nil
	put(t, &n, "pl-4bk", "1606", "NE")
	put(t, &n, "pl-7bk", "1609", "NE")
	putHQ(t, &n, "pl-hq-1a", "1603") // two hexes between: a roll is due
	n.Chits = []Chit{{Side: Polish, Hex: "1606", Cost: 1}}
	o := firstOrder(t, n, 1)
	if o.Hex != "1606" {
		t.Fatalf("order from %s", o.Hex)
	}
	if p := mustApply(t, n, o).Pending; p == nil || p.Kind != "activation" {
		t.Fatal("without the card the order needs the roll")
	}
	n.Chits = append(n.Chits, Chit{Side: Polish, Hex: "1609", Cost: 1})
	rejectCode(t, n, Order{Side: Polish, Hex: o.Hex, Path: o.Path, Facing: o.Facing, Card: 30}, "no_card")
	o.Card = 31
	m := mustApply(t, n, o)
	if m.Pending != nil && m.Pending.Kind == "activation" {
		t.Fatal("card 31 did not spare the roll")
	}
	// The card is spent: the next order naming it is refused.
	m.Turn = Polish
	for _, a := range LegalActions(m) {
		if o2, ok := a.(Order); ok && o2.Hex != o.Hex && len(o2.Path) > 0 {
			o2.Card = 31
			rejectCode(t, m, o2, "no_card")
			return
		}
	}
}

// TestCardTitlesInEnglish: every shipped event card has its title in
// English beside the Polish as printed (the same only for a person's
// name); a card without one (a club's own box) shows the Polish title in
// English too, and a title that is a quotation is not quoted again.
func TestCardTitlesInEnglish(t *testing.T) {
	cat, err := DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	people := map[int]bool{1: true, 17: true, 35: true} // Józef Piłsudski, Franciszek Krajowski, Tuchaczewski
	for id, c := range cat.Cards {
		if c.TitleEN == "" || (c.TitleEN == c.Title) != people[id] {
			t.Errorf("card %d: title %q, title_en %q", id, c.Title, c.TitleEN)
		}
	}
	for _, tc := range []struct {
		card         Card
		titles, play rules.Text
	}{
		{Card{Title: "Pociąg pancerny", TitleEN: "Armoured train"}, rules.Text{PL: "Pociąg pancerny", EN: "Armoured train"}, rules.Text{PL: "„Pociąg pancerny”", EN: "“Armoured train”"}},
		{Card{Title: "Pociąg pancerny"}, rules.Text{PL: "Pociąg pancerny", EN: "Pociąg pancerny"}, rules.Text{PL: "„Pociąg pancerny”", EN: "“Pociąg pancerny”"}},
		{Card{Title: "„Błękitna Armia”", TitleEN: "“The Blue Army”"}, rules.Text{PL: "„Błękitna Armia”", EN: "“The Blue Army”"}, rules.Text{PL: "„Błękitna Armia”", EN: "“The Blue Army”"}},
	} {
		if got := tc.card.Titles(); got != tc.titles {
			t.Errorf("Titles %+v, want %+v", got, tc.titles)
		}
		if got := quoted(tc.card.Titles()); got != tc.play {
			t.Errorf("quoted %+v, want %+v", got, tc.play)
		}
	}
}
