package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
)

func runTags(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newTagsCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	cmd.SilenceUsage = true
	cmd.SilenceErrors = true
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const enrolCards = `cards:
  - {id: pilsudski, kind: card, label: "Józef Piłsudski"}
  - {id: rozwadowski, kind: card, label: "Tadeusz Rozwadowski"}
  - {id: seat-1, kind: seat, label: "Miejsce 1"}
`

func TestTagsEnrollSimulated(t *testing.T) {
	dir := t.TempDir()
	cards := write(t, dir, "cards.yaml", enrolCards)
	script := write(t, dir, "enrol.jsonl", `# one card after another on front-1
{"tag": {"reader": "front-1", "uid": "04A1B2C3"}}
{"untag": {"reader": "front-1", "uid": "04A1B2C3"}}
{"tag": {"reader": "front-2", "uid": "04FFFFFF"}}
{"tag": {"reader": "front-1", "uid": "04a1b2c3"}}
{"untag": {"reader": "front-1", "uid": "04A1B2C3"}}
{"tag": {"reader": "front-1", "uid": "04:11:22:33:44:55:66"}}
{"untag": {"reader": "front-1", "uid": "04112233445566"}}
{"tag": {"reader": "front-1", "uid": "0102030405060708090A"}}
{"untag": {"reader": "front-1", "uid": "0102030405060708090A"}}
`)
	reg := filepath.Join(dir, "tags.yaml")
	out, err := runTags(t, "enroll", "--registry", reg, "--cards", cards, "--simulate", script, "--reader", "front-1", "--lang", "en")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"[1/3] Place the card Józef Piłsudski on reader front-1.",
		"saved: 04A1B2C3 → Józef Piłsudski",
		"[2/3] Place the card Tadeusz Rozwadowski on reader front-1.",
		"this tag (04A1B2C3) already names Józef Piłsudski; take it off and place the card Tadeusz Rozwadowski.",
		"saved: 04112233445566 → Tadeusz Rozwadowski",
		"saved: 0102030405060708090A → Miejsce 1",
		"Done: 3 tags",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	r, err := companion.LoadTags(reg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 3 {
		t.Errorf("got %d tags, want 3", r.Len())
	}
	for uid, id := range map[string]string{"04A1B2C3": "pilsudski", "04112233445566": "rozwadowski", "0102030405060708090A": "seat-1"} {
		if tag, ok := r.Lookup(uid); !ok || tag.ID != id {
			t.Errorf("Lookup(%s) = %+v, %v; want %s", uid, tag, ok, id)
		}
	}
	if out, err := runTags(t, "check", "--registry", reg, "--cards", cards); err != nil || !strings.Contains(out, "3 tags, no problems") {
		t.Errorf("check after enrolment: %v\n%s", err, out)
	}

	// A second run asks only for the cards still without a tag, and keeps
	// what is there.
	more := write(t, dir, "more.yaml", enrolCards+`  - {id: d6-white, kind: die, label: "biała kość"}
`)
	script2 := write(t, dir, "more.jsonl", `{"tag": {"reader": "front-1", "uid": "04C0FFEE"}}
{"untag": {"reader": "front-1", "uid": "04C0FFEE"}}
`)
	out, err = runTags(t, "enroll", "--registry", reg, "--cards", more, "--simulate", script2)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "[1/1] Połóż kartę biała kość na czytniku.") {
		t.Errorf("second run:\n%s", out)
	}
	if r, err := companion.LoadTags(reg); err != nil || r.Len() != 4 {
		t.Errorf("after the second run: %v, %d tags", err, r.Len())
	}
}

func TestTagsEnrollScriptTooShort(t *testing.T) {
	dir := t.TempDir()
	cards := write(t, dir, "cards.yaml", enrolCards)
	script := write(t, dir, "s.jsonl", `{"tag": {"reader": "r1", "uid": "04A1B2C3"}}
{"untag": {"reader": "r1", "uid": "04A1B2C3"}}
`)
	reg := filepath.Join(dir, "tags.yaml")
	_, err := runTags(t, "enroll", "--registry", reg, "--cards", cards, "--simulate", script)
	if !errors.Is(err, errScriptEnded) {
		t.Fatalf("got %v, want %v", err, errScriptEnded)
	}
	// What was enrolled before the script ran out is kept.
	if r, err := companion.LoadTags(reg); err != nil || r.Len() != 1 {
		t.Errorf("registry after an interrupted enrolment: %v", err)
	}
}

func TestTagsEnrollFromSkirmishUnits(t *testing.T) {
	dir := t.TempDir()
	table := write(t, dir, "table.yaml", `venue: demo
table: t1
game: skirmish
skirmish:
  units:
    - {id: ak, card: ak_soldier, owner: 1, models: 5, name: "AK pluton Zośka"}
`)
	script := write(t, dir, "s.jsonl", `{"tag": {"reader": "r1", "uid": "04A1B2C3"}}
{"untag": {"reader": "r1", "uid": "04A1B2C3"}}
`)
	reg := filepath.Join(dir, "tags.yaml")
	out, err := runTags(t, "enroll", "--registry", reg, "--cards", table, "--simulate", script)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	r, err := companion.LoadTags(reg)
	if err != nil {
		t.Fatal(err)
	}
	if tag, ok := r.Lookup("04A1B2C3"); !ok || tag.Kind != "unit" || tag.ID != "ak" || tag.Label != "AK pluton Zośka" {
		t.Errorf("got %+v, want unit ak", tag)
	}
}

func TestTagsCheckProblems(t *testing.T) {
	dir := t.TempDir()
	cards := write(t, dir, "cards.yaml", enrolCards)
	reg := write(t, dir, "tags.yaml", `tags:
  - {uid: "04A1B2C3", kind: card, id: pilsudski, label: "Józef Piłsudski"}
  - {uid: "04:a1:b2:c3", kind: card, id: rozwadowski, label: "Tadeusz Rozwadowski"}
  - {uid: "04112233445566", kind: card, id: pilsudski, label: "Józef Piłsudski (2)"}
  - {uid: "04C0FFEE", kind: command, id: next, label: "następna faza"}
  - {uid: "04ZZ", kind: card, id: x}
  - {uid: "04D4E5F6", kind: token, id: y}
`)
	out, err := runTags(t, "check", "--registry", reg, "--cards", cards)
	var p problems
	if !errors.As(err, &p) || p.ExitCode() == 0 {
		t.Fatalf("got %v, want problems with a non-zero exit", err)
	}
	for _, want := range []string{
		"tags.yaml:6: hardware: tag UID \"04ZZ\"",
		"tags.yaml:7: tag 04D4E5F6: kind \"token\"",
		"duplicate tag 04A1B2C3: line 2 (card pilsudski), line 3 (card rozwadowski)",
		"card without a tag: seat seat-1 (Miejsce 1)",
		"tag for a card not on the list: card x",
		"tag for a card not on the list: command next",
		"tag for a card not on the list: token y",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if int(p) != 7 {
		t.Errorf("got %d problems, want 7:\n%s", int(p), out)
	}
	// Without a cards list only the registry itself is checked.
	if _, err := runTags(t, "check", "--registry", reg); !errors.As(err, &p) || int(p) != 3 {
		t.Errorf("check without cards: got %v, want 3 problems", err)
	}
}

// A key a tag does not have is a problem `sztab tags check` lists with its
// line, and the daemon's loader (and so enroll) refuses the registry.
func TestTagsCheckUnknownKey(t *testing.T) {
	dir := t.TempDir()
	reg := write(t, dir, "tags.yaml", "tags:\n  - {uid: \"04A1B2C3\", kind: card, id: pilsudski}\n  - {uid: \"04A1B2C4\", kind: card, id: rozwadowski, lable: \"Tadeusz Rozwadowski\"}\n")
	out, err := runTags(t, "check", "--registry", reg)
	var p problems
	if !errors.As(err, &p) || int(p) != 1 || !strings.Contains(out, `tags.yaml:3: unknown key "lable" in a tag`) {
		t.Fatalf("got %v:\n%s\nwant one problem naming line 3 and the key", err, out)
	}
	if _, err := companion.LoadTags(reg); err == nil || !strings.Contains(err.Error(), `tags.yaml:3: unknown key "lable"`) {
		t.Errorf("LoadTags: got %v", err)
	}
}
