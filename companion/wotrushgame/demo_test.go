package wotrushgame

import (
	"flag"
	"fmt"
	"slices"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/tabletest"
)

var update = flag.Bool("update", false, "rewrite the demo's script and tags in firmware-config/demo")

type demoStep = tabletest.DemoStep

var (
	say = tabletest.Say
	on  = tabletest.On
	key = tabletest.Key
)

// demo is the demo session (firmware-config/demo/wot-rush-demo.jsonl is
// written from it with -update).
var demo = []demoStep{
	say("World of Tanks: Rush — Ania i Bartek, po trzy Bazy; Ania ma kartę pierwszego gracza."),
	say("Ktoś kładzie na czytniku rynku kartę spoza gry."),
	{Reader: Market, Card: tabletest.UnknownCard},
	say("Runda 1, tura Ani: kładzie odkrytą rękę — skanuje każdą kartę (silnik poprawia swoje zgadywanie z Garażu)."),
	on("seat-1", "ENG-1-1", "reveal_hand"),
	on("seat-1", "ENG-1-2", "reveal_hand"),
	on("seat-1", "VOL-1-1", "reveal_hand"),
	say("Ania zagrywa Ochotników (drugi skan): Rekrutacja."),
	on("seat-1", "VOL-1-1", "play_card"),
	say("Na rynku leży Pz.Kpfw. II — skan na czytniku rynku wybiera go do zakupu..."),
	on(Market, "DE-02", "select"),
	say("...a karty z ręki na jej czytniku płacą: 1 + 1 surowiec, koszt 2 — zakup."),
	on("seat-1", "ENG-1-1", "select"),
	on("seat-1", "ENG-1-2", "buy"),
	say("Ania kończy turę przyciskiem przy swoim miejscu."),
	key("seat-1", "next", "end_turn"),
	say("Tura Bartka: odkrywa rękę."),
	on("seat-2", "TECH-2-1", "reveal_hand"),
	on("seat-2", "ENG-2-1", "reveal_hand"),
	on("seat-2", "ENG-2-2", "reveal_hand"),
	say("Nowa karta Rezerwy to T1 Cunningham (silnik zgadywał inną): Bartek skanuje ją na rynku i płaci Saperami."),
	on(Market, "US-01", "select"),
	on("seat-2", "ENG-2-1", "buy"),
	say("Bartek kończy turę."),
	key("seat-2", "next", "end_turn"),
	say("Runda 2: Ania odkrywa rękę i kończy turę; jej Magazyn zostaje przetasowany w nowy Garaż."),
	on("seat-1", "ENG-1-3", "reveal_hand"),
	on("seat-1", "ENG-1-4", "reveal_hand"),
	on("seat-1", "TECH-1-1", "reveal_hand"),
	key("seat-1", "next", "end_turn"),
	say("Bartek kończy turę od razu."),
	key("seat-2", "next", "end_turn"),
	say("Runda 3: Ania dobrała z nowego Garażu swojego Pz.Kpfw. II — pokazuje go."),
	on("seat-1", "DE-02", "reveal_hand"),
	say("Przycisk ataku, skan atakującego, potwierdzenie..."),
	key("seat-1", "attack", "select"),
	on("seat-1", "DE-02", "select"),
	key("seat-1", "confirm", "attack"),
	say("...a cel Ania wybiera na swojej stronie: Baza Bartka BASE-2-1 — uszkodzona."),
	key("seat-1", "fire", "fire", "DE-02", "BASE-2-1"),
	say("Koniec demonstracji: ekran stołu pokazuje Rezerwę, Bazy (uszkodzona BASE-2-1), medale i osiągnięcia."),
}

// uidOf is the demo tag of a card: 04 and six hex digits from its place in
// the sorted card list; "?" is a card not in the registry.
func uidOf(ids []string, card string) string {
	return fmt.Sprintf("04%06X", 0xA00000+slices.Index(ids, card))
}

func demoCards(t *testing.T) []companion.Card {
	t.Helper()
	cs, err := cards([]byte("players: [{seat: 1, name: Ania}, {seat: 2, name: Bartek}]\nfirst: 1\nseed: 1944\n"))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestDemoSessionPlays plays the demo session through the binder and the
// engine, as the daemon would: every step does what it says, and the
// embedded script and tags are the ones written from it.
func TestDemoSessionPlays(t *testing.T) {
	g := testGame(t)
	cs := demoCards(t)
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	session := tabletest.Session{Steps: demo, Press: press, UID: func(card string) string { return uidOf(ids, card) },
		Describe: nil}
	script := session.Play(t, g, "# The World of Tanks: Rush demo session (written by companion/wotrushgame's\n# TestDemoSessionPlays -update from its demo steps; edit those, not this).\n")
	s := g.State()
	b := s.Player(2).Bases[0]
	if b.Card != "BASE-2-1" || !b.Damaged {
		t.Errorf("after the demo Bartek's first base is %+v, want BASE-2-1 damaged", b)
	}
	tags := tabletest.Tags("# Tag registry of the World of Tanks: Rush demo table: every card of a\n# two-player game (written by companion/wotrushgame's TestDemoSessionPlays\n# -update; at a real table: sztab tags enroll --cards table.yaml).\ntags:\n", cs, func(card string) string { return uidOf(ids, card) })
	tabletest.CheckDemoFiles(t, map[string]string{"wot-rush-demo.jsonl": script, "wot-rush-tags.yaml": tags}, *update, "run go test ./companion/wotrushgame -run DemoSession -update")
}
