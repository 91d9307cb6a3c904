package skirmish

import (
	"bufio"
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sztab/sztab/internal/fuzzseed"
)

// The fuzz targets of the skirmish formats: play scripts, actions as the
// journal and MQTT carry them, army lists and the game data files. Their
// seeds (the real files in testdata and the embedded data, and hostile
// inputs) run in every plain `go test`; `make fuzz` explores further.

// scriptLines are the lines of the example games, each a seed of its own.
func scriptLines(f *testing.F) [][]byte {
	var out [][]byte
	for _, game := range fuzzseed.Files(f, "testdata/games/*.jsonl") {
		sc := bufio.NewScanner(bytes.NewReader(game))
		sc.Buffer(nil, 1<<22)
		for sc.Scan() {
			if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 && l[0] != '#' {
				out = append(out, append([]byte(nil), l...))
			}
		}
	}
	return out
}

// FuzzParseScript: a script parses or is refused with its line; every
// action parsed survives the journal's codec unchanged, and playing the
// script is deterministic (twice the same steps, event for event).
func FuzzParseScript(f *testing.F) {
	cat, err := DefaultCatalogue()
	if err != nil {
		f.Fatal(err)
	}
	for _, game := range fuzzseed.Files(f, "testdata/games/*.jsonl") {
		f.Add(game)
	}
	for _, d := range fuzzseed.JSON("type") {
		f.Add(d)
	}
	f.Add([]byte(`{"type":"dice","values":[1,2,3,4,5,6,7,0,-1,9223372036854775807],"origin":"camera"}`))
	f.Add([]byte(`{"type":"dice","values":[3],"origin":42}`))
	f.Add([]byte(`{"type":"roll_off","rolls":[{"seat":1,"value":5},{"seat":2,"value":5,"origin":"keypad"}]}`))
	f.Add([]byte(`{"type":"roll_off","rolls":{"seat":1}}`))
	f.Add([]byte(`{"type":"draw_orders","seat":1,"cards":["x"]}`))
	f.Add([]byte(`{"type":"setup","type":"setup","players":[]}`))
	f.Add([]byte("# comment\n\n   \n{\"type\":\"end_phase\"}\r\n"))
	f.Add([]byte(`{"type":"end_phase"}` + "\n" + strings.Repeat("x", 1<<22+1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, err := ParseScript(cat, "fuzz.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "skirmish: fuzz.jsonl") {
				t.Fatalf("error does not name the script: %v", err)
			}
			return
		}
		last := 0
		for _, l := range lines {
			if l.Line <= last {
				t.Fatalf("line %d after line %d", l.Line, last)
			}
			last = l.Line
			checkActionCodec(t, l.Action)
		}
		s1, steps1 := Play(lines, true)
		_, steps2 := Play(lines, true)
		if !reflect.DeepEqual(steps1, steps2) {
			t.Fatalf("two plays of the same script differ")
		}
		// The journal keeps each action as EncodeAction wrote it: a game
		// replayed from it is the game played, byte for byte.
		replayed := make([]ScriptLine, len(lines))
		for i, l := range lines {
			enc, _ := EncodeAction(l.Action)
			a, err := DecodeAction(enc)
			if err != nil {
				t.Fatal(err)
			}
			replayed[i] = ScriptLine{Line: l.Line, Action: a}
		}
		s3, steps3 := Play(replayed, true)
		if a, b := mustJSON(t, s1), mustJSON(t, s3); !bytes.Equal(a, b) {
			t.Fatalf("the game replayed from the journal's form differs:\n played   %s\n replayed %s", a, b)
		}
		for i := range steps1 {
			if a, b := mustJSON(t, steps1[i].Events), mustJSON(t, steps3[i].Events); !bytes.Equal(a, b) || (steps1[i].Err == nil) != (steps3[i].Err == nil) {
				t.Fatalf("line %d replayed from the journal's form gives other events:\n played   %s (%v)\n replayed %s (%v)", steps1[i].Line, a, steps1[i].Err, b, steps3[i].Err)
			}
		}
	})
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkActionCodec: a decoded action re-encodes to something that decodes
// to the same action. The encoding is the canonical form: an empty list
// that omitempty leaves out comes back nil, so the check is that encoding
// is a fixed point (encode, decode, encode gives the same bytes) and that
// decoding the canonical form gives the same action each time.
func checkActionCodec(t *testing.T, a Action) {
	t.Helper()
	enc, err := EncodeAction(a)
	if err != nil {
		t.Fatalf("%s: does not encode: %v", a.Type(), err)
	}
	back, err := DecodeAction(enc)
	if err != nil {
		t.Fatalf("%s: EncodeAction wrote what DecodeAction refuses: %v\n%s", a.Type(), err, enc)
	}
	if back.Type() != a.Type() {
		t.Fatalf("round trip changed the type: %s → %s", a.Type(), back.Type())
	}
	enc2, err := EncodeAction(back)
	if err != nil {
		t.Fatalf("%s: the decoded action does not encode: %v", a.Type(), err)
	}
	if !bytes.Equal(enc, enc2) {
		t.Fatalf("round trip changed the action:\n was  %s\n now  %s", enc, enc2)
	}
	again, err := DecodeAction(enc2)
	if err != nil || !reflect.DeepEqual(again, back) {
		t.Fatalf("decoding %s twice gives %#v, then %#v (%v)", enc2, back, again, err)
	}
}

// FuzzDecodeAction: an action decodes or is refused; a decoded action
// round-trips through EncodeAction.
func FuzzDecodeAction(f *testing.F) {
	cat, err := DefaultCatalogue()
	if err != nil {
		f.Fatal(err)
	}
	for _, l := range scriptLines(f) {
		f.Add(l)
		if a, err := parseScriptLine(cat, l); err == nil {
			if enc, err := EncodeAction(a); err == nil {
				f.Add(enc)
			}
		}
	}
	for _, d := range fuzzseed.JSON("type") {
		f.Add(d)
	}
	for _, typ := range Actions.Types() {
		f.Add([]byte(`{"type":"` + typ + `"}`))
	}
	f.Add([]byte(`{"type":"dice","rolls":[{"value":1e999}]}`))
	f.Add([]byte(`{"type":"deploy","unit":"a","models":[{"model":"a-1","x":1e308,"y":-1e308,"sigma":-1}]}`))
	f.Add([]byte(`{"TYPE":"end_phase"}`))
	f.Add([]byte(`{"type":"end_phase","Type":"dice"}`))
	f.Add([]byte(`{"type":"submit_army","seat":1,"army":{"faction":"Armia Krajowa","units":[{"id":"a","card":"ak_soldier","models":4,"swaps":[{"weapon":"MP 40","models":9223372036854775807}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := DecodeAction(data)
		if err != nil {
			if a != nil {
				t.Fatalf("an error and an action: %v, %#v", err, a)
			}
			return
		}
		if reflect.ValueOf(a).Kind() == reflect.Pointer {
			t.Fatalf("DecodeAction returned a pointer: %#v", a)
		}
		checkActionCodec(t, a)
	})
}

// FuzzArmyList: an army file, decoded as `sztab army check` decodes it
// (strict YAML into ArmyList), and checked. The report adds up, and the
// list checks the same after the JSON round trip SubmitArmy gives it.
func FuzzArmyList(f *testing.F) {
	cat, err := DefaultCatalogue()
	if err != nil {
		f.Fatal(err)
	}
	for _, a := range fuzzseed.Files(f, "testdata/armies/*.yaml") {
		f.Add(a)
	}
	for _, d := range fuzzseed.YAML("units") {
		f.Add(d)
	}
	for _, n := range fuzzseed.Numbers {
		f.Add([]byte("faction: Armia Krajowa\npoints: " + n + "\nunits:\n  - {id: a, card: ak_soldier, models: " + n + "}\n"))
		f.Add([]byte("faction: Armia Krajowa\nunits:\n  - {id: a, card: ak_soldier, models: 4, swaps: [{weapon: MP 40, models: 1}, {weapon: MP 40, models: " + n + "}]}\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var list ArmyList
		if err := strictYAML(data, &list); err != nil {
			return
		}
		r := cat.CheckArmy(list, 0)
		if r.Legal() != (len(r.Violations) == 0) {
			t.Fatalf("Legal() %v with %d violations", r.Legal(), len(r.Violations))
		}
		cost := 0
		for _, u := range r.Units {
			sum := 0
			for _, m := range u.Models {
				sum += m.Cost
			}
			if sum != u.Cost {
				t.Fatalf("unit %s costs %d, its models %d", u.ID, u.Cost, sum)
			}
			cost += u.Cost
		}
		if cost != r.Cost {
			t.Fatalf("the army costs %d, its units %d", r.Cost, cost)
		}
		if r.Legal() && (len(r.Units) != len(list.Units) || (r.Limit > 0 && r.Cost > r.Limit)) {
			t.Fatalf("a legal list of %d units reports %d, cost %d of %d", len(list.Units), len(r.Units), r.Cost, r.Limit)
		}
		for _, v := range r.Violations {
			if v.Code == "" || v.Reason.PL == "" || v.Reason.EN == "" {
				t.Fatalf("a violation without a code or a reason in both languages: %+v", v)
			}
		}
		js, err := json.Marshal(list)
		if err != nil {
			t.Fatal(err)
		}
		var back ArmyList
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatalf("the list's JSON does not decode: %v\n%s", err, js)
		}
		if r2 := cat.CheckArmy(back, 0); !reflect.DeepEqual(r2, r) {
			t.Fatalf("the list checks differently after its JSON round trip:\n got  %+v\n want %+v", r2, r)
		}
	})
}

// FuzzParseCatalogue: the three data files parse and check, or are
// refused. A catalogue accepted is consistent (every name it refers to is
// in it) and rebuilds the same from the JSON StartGame carries it in.
func FuzzParseCatalogue(f *testing.F) {
	files := DefaultFiles()
	weapons, units, orders := files["weapons.yaml"], files["units.yaml"], files["orders.yaml"]
	f.Add(weapons, units, orders)
	f.Add(weapons, units, []byte(nil))
	for _, d := range fuzzseed.YAML("weapons") {
		f.Add(d, units, orders)
	}
	for _, d := range fuzzseed.YAML("units") {
		f.Add(weapons, d, orders)
	}
	for _, d := range fuzzseed.YAML("orders") {
		f.Add(weapons, units, d)
	}
	for _, n := range fuzzseed.Numbers {
		w := "weapons:\n  - {name: X, type: t, class: rifle, range: " + n + ", shots: " + n + ", hit: 4, wound: 4, jump: no_loss, mg_bonus: {per_round: " + n + ", max: " + n + "}}\n"
		u := "factions: [{name: F}]\nunits:\n  - {id: u, name: U, faction: F, cost: " + n + ", min_models: 1, max_models: " + n + ", max_units: " + n + ", weapon: X, defence: 4, lives: " + n + ", move: " + n + "}\n"
		f.Add([]byte(w), []byte(u), []byte(nil))
	}
	f.Fuzz(func(t *testing.T, weapons, units, orders []byte) {
		c, err := ParseCatalogue(weapons, units, orders)
		if err != nil {
			if c != nil {
				t.Fatalf("an error and a catalogue: %v", err)
			}
			return
		}
		checkCatalogue(t, c)
		js, err := json.Marshal(c.Data)
		if err != nil {
			t.Fatal(err)
		}
		var d Data
		if err := json.Unmarshal(js, &d); err != nil {
			t.Fatalf("the data's JSON does not decode: %v", err)
		}
		c2, err := NewCatalogue(d)
		if err != nil {
			t.Fatalf("the data is refused after its JSON round trip: %v\n%s", err, js)
		}
		if js2, _ := json.Marshal(c2.Data); !bytes.Equal(js, js2) {
			t.Fatalf("the data changed in its JSON round trip:\n%s\n%s", js, js2)
		}
	})
}

func checkCatalogue(t *testing.T, c *Catalogue) {
	t.Helper()
	if len(c.Weapons) != len(c.Data.Weapons) || len(c.Units) != len(c.Data.Units) ||
		len(c.Factions) != len(c.Data.Factions) || len(c.Orders) != len(c.Data.Orders) || len(c.WeaponOrder) != len(c.Data.Weapons) {
		t.Fatalf("the index and the data differ in size")
	}
	for _, u := range c.Units {
		if _, ok := c.Factions[u.Faction]; !ok {
			t.Fatalf("unit %s: faction %q not in the catalogue", u.ID, u.Faction)
		}
		if _, ok := c.Weapons[u.Weapon]; !ok {
			t.Fatalf("unit %s: weapon %q not in the catalogue", u.ID, u.Weapon)
		}
		for _, s := range u.Swaps {
			if _, ok := c.Weapons[s.Weapon]; !ok {
				t.Fatalf("unit %s: swap %q not in the catalogue", u.ID, s.Weapon)
			}
		}
		if u.MinModels < 1 || u.MaxModels < u.MinModels {
			t.Fatalf("unit %s: models %d–%d", u.ID, u.MinModels, u.MaxModels)
		}
	}
	for _, o := range c.Orders {
		if _, ok := c.Factions[o.Faction]; !ok {
			t.Fatalf("order %s: faction %q not in the catalogue", o.ID, o.Faction)
		}
	}
}
