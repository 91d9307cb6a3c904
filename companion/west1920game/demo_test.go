package west1920game

import (
	"flag"
	"fmt"
	"slices"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/west1920"
)

var update = flag.Bool("update", false, "rewrite the demo's script and tags in firmware-config/demo")

type demoStep = tabletest.DemoStep

var (
	say = tabletest.Say
	on  = tabletest.On
	key = tabletest.Key
)

// demo is the demo session (firmware-config/demo/west-1920-demo.jsonl is
// written from it with -update): stage 1 from the draws to the first
// combat roll.
var demo = []demoStep{
	say("How the West was Saved (1920), etap 1: gracz polski (seat-1) i rosyjski (seat-2); liczniki leżą na papierowej mapie."),
	say("Ktoś kładzie na czytniku kartę spoza gry."),
	{Reader: "seat-1", Card: tabletest.UnknownCard},
	say("Zdarzenia (3.1): Rosjanie ciągną pierwsi — karta 1 na czytniku rosyjskim, potem karta 3 na polskim; w etapie 1 karty się trzyma."),
	on("seat-2", CardID(1), "draw_card"),
	on("seat-1", CardID(3), "draw_card"),
	say("Punkty zasobów (4.0): ekrany pokazują rozkład PZ przed rzutem; biała 6, czerwona 3: Rosjanie 12 + 6 − 3 = 15."),
	key("dice", "roll", "roll", "6", "3"),
	say("Polacy: biała 2, czerwona 4: 14 + 2 − 4 = 12 (bazowe PZ Polaków w etapie 1: 14, założone dane)."),
	key("dice", "roll", "roll", "2", "4"),
	say("Magazyny (5.x): Rosjanie (więcej PZ) zakładają magazyn w 1812 — gracz rosyjski wpisuje to na swojej stronie (w symulacji: polecenie z miejsca seat-2)."),
	key("seat-2", "depot", "build_depot", "1812"),
	say("Polacy i Rosjanie pasują (przycisk pass na czerwonej klawiaturze); płacą za magazyny, potem sprawdzenie zaopatrzenia (6.0)."),
	key("red", "pass", "pass"),
	key("red", "pass", "pass"),
	say("Żetony aktywacji (7.1): rzut o pierwszeństwo — biała polska 3, czerwona rosyjska 5."),
	key("dice", "roll", "roll", "3", "5"),
	say("Rosjanie kładą żeton na 4. DS w 1904; obie strony pasują."),
	key("seat-2", "chit", "assign_chit", "1904"),
	key("red", "pass", "pass"),
	key("red", "pass", "pass"),
	say("Rozkazy: rzut o pierwszeństwo, potem rozkaz — stos z 1904 przeciągnięty na 1804, zwrócony na NW (dowództwo obok: bez rzutu aktywacji)."),
	key("dice", "roll", "roll", "2", "4"),
	key("seat-2", "move", "order", "1904", "1804", "NW"),
	say("Ruch dowództw (8.0): 3. Armia idzie do 1905, obok stosu w 1804; reszta pasuje, także wycofanie przed walką (9.1)."),
	key("seat-2", "hq", "move_hq", "ru-hq-3a", "1905"),
	key("red", "pass", "pass"),
	key("red", "pass", "pass"),
	key("red", "pass", "pass"),
	key("red", "pass", "pass"),
	say("Walka (9.2): rzut o pierwszeństwo — Rosjanie atakują pierwsi."),
	key("dice", "roll", "roll", "1", "6"),
	say("Atak z 1804 na 1. DP Leg. w 1704: ekrany pokazują rozkład wyników 9.5 a/b/c i straty przed rzutem walki."),
	key("seat-2", "move", "attack", "1804", "1704"),
	say("Rzut walki: biała (atakujący) 5, czerwona (obrońca) 2."),
	key("dice", "roll", "roll", "5", "2"),
	say("Koniec demonstracji: ekran stołu pokazuje mapę, zaopatrzenie, zasięgi dowództw i to, na co czeka gra."),
}

// uidOf is the demo tag of a card: 04 and six hex digits from its place in
// the card list.
func uidOf(ids []string, card string) string {
	return fmt.Sprintf("04%06X", 0xB00000+slices.Index(ids, card))
}

func demoCards(t *testing.T) []companion.Card {
	t.Helper()
	cs, err := cards([]byte("deck: tags\n"))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestDemoSessionPlays plays the demo session through the binder and the
// engine, as the daemon would: every step does what it says, and the
// embedded script and tags are the ones written from it.
func TestDemoSessionPlays(t *testing.T) {
	g := testGame(t, false)
	cs := demoCards(t)
	if len(cs) != 40 {
		t.Fatalf("%d cards, want 40", len(cs))
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	session := tabletest.Session{Steps: demo, Press: press, UID: func(card string) string { return uidOf(ids, card) },
		Describe: func() string {
			s := g.State()
			return fmt.Sprintf("phase %s turn %s pending %+v", s.Phase, s.Turn, s.Pending)
		}}
	script := session.Play(t, g, "# The How the West was Saved (1920) demo session (written by companion/west1920game's\n# TestDemoSessionPlays -update from its demo steps; edit those, not this).\n")
	s := g.State()
	if s.Phase != west1920.PhaseCombat || s.Battle == nil || s.Battle.Outcome == nil {
		t.Errorf("after the demo: phase %s, battle %+v; want a resolved combat", s.Phase, s.Battle)
	}
	tags := tabletest.Tags("# Tag registry of the How the West was Saved (1920) demo table: the 40\n# event cards (written by companion/west1920game's TestDemoSessionPlays\n# -update; at a real table: sztab tags enroll --cards table.yaml).\ntags:\n", cs, func(card string) string { return uidOf(ids, card) })
	tabletest.CheckDemoFiles(t, map[string]string{"west-1920-demo.jsonl": script, "west-1920-tags.yaml": tags}, *update, "run go test ./companion/west1920game -run DemoSession -update")
}
