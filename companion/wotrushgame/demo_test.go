package wotrushgame

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
)

var update = flag.Bool("update", false, "rewrite the demo's script and tags in firmware-config/demo")

// demoStep is one step of the demo session: a narration, a card scanned on
// a reader, or a key (a seat's button, or a page's command with args).
type demoStep struct {
	say    string
	reader string
	card   string
	keypad string
	key    string
	args   []string
	// want is an action type the step must produce ("" for a narration).
	want string
}

func say(s string) demoStep { return demoStep{say: s} }
func on(reader, card, want string) demoStep {
	return demoStep{reader: reader, card: card, want: want}
}
func key(keypad, k, want string, args ...string) demoStep {
	return demoStep{keypad: keypad, key: k, args: args, want: want}
}

// demo is the demo session (firmware-config/demo/wot-rush-demo.jsonl is
// written from it with -update).
var demo = []demoStep{
	say("World of Tanks: Rush — Ania i Bartek, po trzy Bazy; Ania ma kartę pierwszego gracza."),
	say("Ktoś kładzie na czytniku rynku kartę spoza gry."),
	{reader: Market, card: "?"},
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
	if card == "?" {
		return "04998877"
	}
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
	var script, tags strings.Builder
	script.WriteString("# The World of Tanks: Rush demo session (written by companion/wotrushgame's\n# TestDemoSessionPlays -update from its demo steps; edit those, not this).\n")
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
			check(t, i, st, took, rej)
		default:
			args := ""
			if len(st.args) > 0 {
				args = fmt.Sprintf(", \"args\": [\"%s\"]", strings.Join(st.args, "\", \""))
			}
			fmt.Fprintf(&script, "{\"key\": {\"keypad\": %q, \"key\": %q%s}}\n", st.keypad, st.key, args)
			took, rej := feed(t, g, press(st.keypad, st.key, st.args...))
			check(t, i, st, took, rej)
		}
		script.WriteString("{\"wait\": \"700ms\"}\n")
	}
	s := g.State()
	b := s.Player(2).Bases[0]
	if b.Card != "BASE-2-1" || !b.Damaged {
		t.Errorf("after the demo Bartek's first base is %+v, want BASE-2-1 damaged", b)
	}
	tags.WriteString("# Tag registry of the World of Tanks: Rush demo table: every card of a\n# two-player game (written by companion/wotrushgame's TestDemoSessionPlays\n# -update; at a real table: sztab tags enroll --cards table.yaml).\ntags:\n")
	for _, c := range cs {
		fmt.Fprintf(&tags, "  - {uid: %q, kind: card, id: %q, label: %q}\n", uidOf(ids, c.ID), c.ID, c.Label)
	}
	dir := filepath.Join("..", "..", "firmware-config", "demo")
	for name, got := range map[string]string{"wot-rush-demo.jsonl": script.String(), "wot-rush-tags.yaml": tags.String()} {
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil || string(want) != got {
			t.Errorf("%s is not the demo's steps (%v); run go test ./companion/wotrushgame -run DemoSession -update", path, err)
		}
	}
}

func check(t *testing.T, i int, st demoStep, took []companion.Action, rej *rules.Rejection) {
	t.Helper()
	if rej != nil {
		t.Fatalf("step %d (%s%s %s %v): refused: %s %s", i, st.reader, st.keypad, st.card+st.key, st.args, rej.Code, rej.Reason.EN)
	}
	if len(took) == 0 || took[len(took)-1].Type() != st.want {
		var types []string
		for _, a := range took {
			types = append(types, a.Type())
		}
		t.Fatalf("step %d (%s%s %s): took %v, want … %s", i, st.reader, st.keypad, st.card+st.key, types, st.want)
	}
}
