package bitwagame

import (
	"flag"
	"fmt"
	"slices"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules/bitwa"
)

var update = flag.Bool("update", false, "rewrite the demo's script and tags in firmware-config/demo")

type demoStep = tabletest.DemoStep

var (
	say = tabletest.Say
	on  = tabletest.On
	key = tabletest.Key
)

// demo is the demo session (firmware-config/demo/bitwa-warszawska-demo.jsonl
// is written from it with -update): the opening and the whole first round,
// then the resources of round 2.
var demo = []demoStep{
	say("Bitwa Warszawska — Marysia (Wojsko Polskie) przeciw Jankowi (Armia Czerwona). Po 1 Oddziale na każdej 2. linii, 18 w Rezerwie."),
	say("Ktoś kładzie na czytniku kartę spoza gry."),
	{Reader: "seat-1", Card: tabletest.UnknownCard},
	say("Przygotowanie: Marysia kładzie znacznik Blokady WP na polu Dowódcy Armii Czerwonej na Froncie Północnym..."),
	key("seat-1", "blockade", "blockade", "commander_field", "N"),
	say("...a Janek swój na polu Rozkazu WP na Froncie Południowym."),
	key("seat-2", "blockade", "blockade", "order_field", "S"),
	say("Rzut o inicjatywę, kość po kości na klawiaturze: Marysia 6, Janek 3 — inicjatywa dla Marysi."),
	key("dice", "6", "roll"),
	key("dice", "3", "roll"),
	say("Runda 1, etap 1: kość Dodatkowej Punktacji — 2, Front Centralny."),
	key("dice", "2", "roll"),
	say("Działania militarne. Marysia kładzie 7. Dywizję Piechoty na czytniku Frontu Centralnego: po 1 Oddziale na 1. i 2. linię."),
	on("front-c", "7-dp", "play_card"),
	say("Janek kładzie Szuwajewa na czytniku Frontu Centralnego i wybiera na klawiaturze efekt 2: usuwa Oddział z 1. linii Marysi (do jej Rezerwy)."),
	on("front-c", "szuwajew", "select"),
	key("dice", "2", "play_card"),
	say("Marysia skanuje Zielińskiego na swoim czytniku i na swojej stronie wybiera Front Centralny, efekt 1: +1 do Siły Armii."),
	on("seat-1", "zielinski", "select"),
	key("seat-1", "play", "play_card", "C", "1"),
	say("Janek: 8. Dywizja Strzelców na Froncie Centralnym."),
	on("front-c", "8-ds", "play_card"),
	say("Marysia: 1. Dywizja Jazdy na Front Północny (i ponowna akcja)..."),
	on("front-n", "1-dj", "play_card"),
	say("...odrzuca Omelianowicza-Pawlenkę i walczy o Fundusze."),
	on("seat-1", "omelianowicz-pawlenko", "select"),
	key("seat-1", "fight", "fight", "funds"),
	say("Janek: II Zjazd Kominternu na polu Rozkazu Frontu Centralnego (+1, ponowna akcja), potem odrzuca Korka i walczy o Zaopatrzenie."),
	on("front-c", "komintern", "play_card"),
	key("seat-2", "fight", "fight", "kork", "supply"),
	say("Obu graczom skończyły się karty: Bitwa. Ekran pokazuje Siłę Armii na każdym Froncie, znaczniki Przewagi i Punkty Zwycięstwa."),
	say("Runda 2: kość Dodatkowej Punktacji — 3, Front Południowy."),
	key("dice", "3", "roll"),
	say("Fundusze wygrała Marysia: dobiera do 5 kart i bierze inicjatywę; Janek dobiera do 4."),
	say("Zaopatrzenie wygrał Janek: obraca kartę stroną 1 (4 Oddziały) do siebie, Marysi zostają 2."),
	key("seat-2", "turn", "turn_card", "1"),
	say("Marysia (inicjatywa) dokłada 2 Oddziały na 2. linie Frontów Centralnego i Północnego; Janek dokłada 3 i przesuwa 1 z 2. na 1. linię Frontu Centralnego."),
	key("seat-1", "supply", "supply", "C", "N"),
	key("seat-2", "supply", "supply", "C", "N", "S", "C2>C1"),
	say("Koniec demonstracji: ekran stołu pokazuje trzy Fronty, linie, Dowódców, Blokady, PZ i rundę."),
}

// uidOf is the demo tag of a card: 04 and six hex digits from its place in
// the sorted card list; "?" is a card not in the registry.
func uidOf(ids []string, card string) string {
	return fmt.Sprintf("04%06X", 0xB00000+slices.Index(ids, card))
}

func demoCards(t *testing.T) []companion.Card {
	t.Helper()
	cs, err := cards([]byte("players: [{seat: 1, name: Marysia, army: wp}, {seat: 2, name: Janek, army: acz}]\nseed: 1920\n"))
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
		Describe: func() string { s := g.State(); return fmt.Sprintf("pending %+v active %d", s.Pending, s.Active) }}
	script := session.Play(t, g, "# The Bitwa Warszawska demo session (written by companion/bitwagame's\n# TestDemoSessionPlays -update from its demo steps; edit those, not this).\n")
	s := g.State()
	if !demoEnd(s) {
		t.Errorf("after the demo: round %d stage %s, VP %d:%d, WP 2nd lines %d", s.Round, s.Stage, s.Army(bitwa.WP).VP, s.Army(bitwa.ACz).VP, s.SecondLines(bitwa.WP))
	}
	tags := tabletest.Tags("# Tag registry of the Bitwa Warszawska demo table: every card of both\n# decks (written by companion/bitwagame's TestDemoSessionPlays -update;\n# at a real table: sztab tags enroll --cards table.yaml).\ntags:\n", cs, func(card string) string { return uidOf(ids, card) })
	tabletest.CheckDemoFiles(t, map[string]string{"bitwa-warszawska-demo.jsonl": script, "bitwa-warszawska-tags.yaml": tags}, *update, "run go test ./companion/bitwagame -run DemoSession -update")
}

// demoEnd is the state the demo ends in: round 2's military stage.
func demoEnd(s bitwa.State) bool {
	return s.Round == 2 && s.Stage == bitwa.StageMilitary
}
