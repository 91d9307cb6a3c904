package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/skirmish"
)

func TestArmyCheck(t *testing.T) {
	out, err := runSztab(t, "army", "check", "../../rules/skirmish/testdata/armies/ak-200.yaml")
	if err != nil || !strings.Contains(out, "lista poprawna / the list is legal") {
		t.Errorf("legal list: %v\n%s", err, out)
	}
	out, err = runSztab(t, "army", "check", "../../rules/skirmish/testdata/armies/illegal.yaml")
	if err == nil || exitCode(err) != 1 {
		t.Errorf("illegal list: error %v (exit %d), want exit 1\n%s", err, exitCode(err), out)
	}
	// The rulebook's example: 4 AK soldiers and a commander, all on MP 40: 45 pts.
	list := filepath.Join(t.TempDir(), "l.yaml")
	os.WriteFile(list, []byte("faction: Armia Krajowa\npoints: 45\nunits:\n  - {id: a, card: ak_soldier, models: 4, commander: true, weapon: MP 40}\n"), 0o644)
	out, err = runSztab(t, "army", "check", "--json", list)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !json.Valid([]byte(out)) || !strings.Contains(out, "45") {
		t.Errorf("rulebook example list: %s", out)
	}
	over := filepath.Join(t.TempDir(), "o.yaml")
	os.WriteFile(over, []byte("faction: Armia Krajowa\npoints: 44\nunits:\n  - {id: a, card: ak_soldier, models: 4, commander: true, weapon: MP 40}\n"), 0o644)
	if out, err := runSztab(t, "army", "check", over); err == nil || !strings.Contains(out, "45") {
		t.Errorf("45 pts against a 44 limit: %v\n%s", err, out)
	}
}

func TestPlayScript(t *testing.T) {
	// The README's game ends in round 2: zoska's second MP 40 burst kills the
	// last four grenadiers, and the Wehrmacht's one kill (zoska-1) is all it
	// scores.
	const script = "../../rules/skirmish/testdata/games/readme.jsonl"
	out, err := runSztab(t, "play", "--game", "skirmish", "--script", script, "--lang", "en")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"\nRound 2: game over\n",
		"\nResult: Armia Krajowa wins: the enemy has no models left on the field\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output: got\n%s\nwant a line %q", out, strings.TrimSpace(want))
		}
	}
	out, err = runSztab(t, "play", "--script", script, "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var final struct {
		Phase  skirmish.Phase   `json:"phase"`
		Round  int              `json:"round"`
		Result *skirmish.Result `json:"result"`
		Sides  []struct {
			Faction string `json:"faction"`
			Alive   int    `json:"alive"`
			Kills   int    `json:"kills"`
		} `json:"sides"`
	}
	if err := json.Unmarshal([]byte(out), &final); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	if final.Phase != skirmish.PhaseOver || final.Round != 2 {
		t.Errorf("got phase %q round %d, want %q round 2", final.Phase, final.Round, skirmish.PhaseOver)
	}
	wantResult := skirmish.Result{Winner: "Armia Krajowa", Seats: []int{1}, Condition: skirmish.WinAnnihilation, Round: 2,
		Text: rules.Text{PL: "zwycięża Armia Krajowa: przeciwnik nie ma już modeli na polu walki", EN: "Armia Krajowa wins: the enemy has no models left on the field"}}
	if final.Result == nil || !reflect.DeepEqual(*final.Result, wantResult) {
		t.Errorf("result: got %+v, want %+v", final.Result, wantResult)
	}
	gotSides := fmt.Sprintf("%+v", final.Sides)
	if want := "[{Faction:Armia Krajowa Alive:4 Kills:4} {Faction:Wehrmacht Alive:0 Kills:1}]"; gotSides != want {
		t.Errorf("sides: got %s, want %s", gotSides, want)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"type":"setup","players":[{"seat":1,"name":"A","faction":"Armia Krajowa"},{"seat":2,"name":"B","faction":"Wehrmacht"}],"options":{"points":200}}
{"type":"end_phase"}
`), 0o644)
	out, err = runSztab(t, "play", "--script", bad)
	if err == nil || !strings.Contains(out+err.Error(), "bad.jsonl:2") {
		t.Errorf("a refused action: %v\n%s", err, out)
	}
	if out, err := runSztab(t, "play", "--script", bad, "--continue"); err != nil {
		t.Errorf("--continue: %v\n%s", err, out)
	}
}
