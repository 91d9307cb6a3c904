package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	out, err := runSztab(t, "play", "--game", "skirmish", "--script", "../../rules/skirmish/testdata/games/readme.jsonl", "--lang", "en")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(strings.ToLower(out), "armia krajowa") {
		t.Errorf("final state lacks the winner:\n%s", out)
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
