package bitwagame

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/bitwa"
)

var update = flag.Bool("update", false, "rewrite the demo's script and tags in firmware-config/demo")

// demoStep is one step of the demo session: a narration, a card scanned on
// a reader, or a key (a seat's button or the dice keypad, with a page's
// args).
type demoStep struct {
	say    string
	reader string
	card   string
	keypad string
	key    string
	args   []string
	// want is the action type the step must end with ("" for a narration
	// or an unknown tag).
	want string
}

func say(s string) demoStep { return demoStep{say: s} }
func on(reader, card, want string) demoStep {
	return demoStep{reader: reader, card: card, want: want}
}
func key(keypad, k, want string, args ...string) demoStep {
	return demoStep{keypad: keypad, key: k, args: args, want: want}
}

// demo is the demo session (firmware-config/demo/bitwa-warszawska-demo.jsonl
// is written from it with -update): the opening and the whole first round,
// then the resources of round 2.
var demo = []demoStep{
	say("Bitwa Warszawska — Marysia (Wojsko Polskie) przeciw Jankowi (Armia Czerwona). Po 1 Oddziale na każdej 2. linii, 18 w Rezerwie."),
	say("Ktoś kładzie na czytniku kartę spoza gry."),
	{reader: "seat-1", card: "?"},
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
	if card == "?" {
		return "04998877"
	}
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
	var script, tags strings.Builder
	script.WriteString("# The Bitwa Warszawska demo session (written by companion/bitwagame's\n# TestDemoSessionPlays -update from its demo steps; edit those, not this).\n")
	for i, st := range demo {
		switch {
		case st.say != "":
			fmt.Fprintf(&script, "{\"say\": %q}\n{\"wait\": \"1s\"}\n", st.say)
			continue
		case st.reader != "":
			fmt.Fprintf(&script, "{\"tag\": {\"reader\": %q, \"uid\": %q}}\n{\"untag\": {\"reader\": %q, \"uid\": %q}}\n", st.reader, uidOf(ids, st.card), st.reader, uidOf(ids, st.card))
			if st.card == "?" {
				continue
			}
			took, rej := feed(t, g, scan(st.reader, st.card))
			check(t, g, i, st, took, rej)
		default:
			args := ""
			if len(st.args) > 0 {
				args = fmt.Sprintf(", \"args\": [\"%s\"]", strings.Join(st.args, "\", \""))
			}
			fmt.Fprintf(&script, "{\"key\": {\"keypad\": %q, \"key\": %q%s}}\n", st.keypad, st.key, args)
			took, rej := feed(t, g, press(st.keypad, st.key, st.args...))
			check(t, g, i, st, took, rej)
		}
		script.WriteString("{\"wait\": \"700ms\"}\n")
	}
	s := g.State()
	if !demoEnd(s) {
		t.Errorf("after the demo: round %d stage %s, VP %d:%d, WP 2nd lines %d", s.Round, s.Stage, s.Army(bitwa.WP).VP, s.Army(bitwa.ACz).VP, s.SecondLines(bitwa.WP))
	}
	tags.WriteString("# Tag registry of the Bitwa Warszawska demo table: every card of both\n# decks (written by companion/bitwagame's TestDemoSessionPlays -update;\n# at a real table: sztab tags enroll --cards table.yaml).\ntags:\n")
	for _, c := range cs {
		fmt.Fprintf(&tags, "  - {uid: %q, kind: card, id: %q, label: %q}\n", uidOf(ids, c.ID), c.ID, c.Label)
	}
	dir := filepath.Join("..", "..", "firmware-config", "demo")
	for name, got := range map[string]string{"bitwa-warszawska-demo.jsonl": script.String(), "bitwa-warszawska-tags.yaml": tags.String()} {
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil || string(want) != got {
			t.Errorf("%s is not the demo's steps (%v); run go test ./companion/bitwagame -run DemoSession -update", path, err)
		}
	}
}

func check(t *testing.T, g *Game, i int, st demoStep, took []companion.Action, rej *rules.Rejection) {
	t.Helper()
	if rej != nil {
		s := g.State()
		t.Fatalf("step %d (%s%s %s %v): refused: %s %s; pending %+v active %d", i, st.reader, st.keypad, st.card+st.key, st.args, rej.Code, rej.Reason.EN, s.Pending, s.Active)
	}
	if len(took) == 0 || took[len(took)-1].Type() != st.want {
		var types []string
		for _, a := range took {
			types = append(types, a.Type())
		}
		t.Fatalf("step %d (%s%s %s): took %v, want … %s", i, st.reader, st.keypad, st.card+st.key, types, st.want)
	}
}

// demoEnd is the state the demo ends in: round 2's military stage.
func demoEnd(s bitwa.State) bool {
	return s.Round == 2 && s.Stage == bitwa.StageMilitary
}
