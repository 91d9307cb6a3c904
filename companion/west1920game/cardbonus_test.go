package west1920game

import (
	"slices"
	"testing"

	"github.com/sztab/sztab/rules/west1920"
)

// Card 17 played by the Poles (9.3, "Wybór gracza polskiego przed
// rzuceniem 1K6"): a Russian attack on a Polish stack waits for the Polish
// page's card_bonus before the combat roll; the Russian page cannot answer
// it; the bonus raises the defence by two.
func TestDefenderCardBonusFromPage(t *testing.T) {
	g := testGame(t, false)
	toPhase(t, g, west1920.PhaseStrategic)
	advance(t, g, cardsFor(17), func(s west1920.State) bool {
		return s.Stage == 2 && s.Phase == west1920.PhaseCombat && s.Pending == nil
	})
	if g.State().Turn == west1920.Polish {
		must(t, g, page(1, "pass"))
	}
	// A Russian stack with its HQ next to a lone Polish division, facing it.
	target := west1920.Hex("1304")
	must(t, g, page(0, "adjust", "pl-8dp", "hex="+string(target)))
	from := west1920.Hex(adjustNextTo(t, g, "ru-2sd", target))
	b := g.State().Catalogue().Board
	must(t, g, page(0, "adjust", "ru-2sd", "facing="+b.DirTo(b.Index(from), b.Index(target)).String()))
	must(t, g, page(0, "adjust", "ru-hq-3a", "hex="+string(from)))
	must(t, g, page(2, "attack", string(from), string(target)))
	p := g.State().Pending
	if p == nil || p.Kind != "card_bonus" || p.Side != west1920.Polish || !slices.Contains(p.Options, "17@"+string(target)) {
		t.Fatalf("pending %+v, want the Polish card_bonus with 17@%s", p, target)
	}
	def := g.State().Battle.DefCF
	if _, rej := feed(t, g, page(2, "card_bonus")); rej == nil {
		t.Error("the Russian page answered the Polish decision")
	}
	must(t, g, page(1, "card_bonus", "17@"+string(target)))
	s := g.State()
	if s.Pending == nil || s.Pending.Kind != "combat_roll" || s.Battle.DefCF != def+2 {
		t.Fatalf("pending %+v, defence %d: want the combat roll and %d", s.Pending, s.Battle.DefCF, def+2)
	}
}
