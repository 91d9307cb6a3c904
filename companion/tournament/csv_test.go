package tournament

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/internal/golden"
)

// scripted is a small tournament played to a fixed script: five players,
// two rounds, a draw, a correction, a bye.
func scripted(t *testing.T) *fixture {
	f := newFixture(t, "skirmish", 5, 3)
	ctx := context.Background()
	r1, err := f.tr.PairNext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f.playRound(r1)
	r2, err := f.tr.PairNext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.submit(r2.Tables[0].Table, seat(1, record.Draw, 7), seat(2, record.Draw, 7)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.submit(r2.Tables[1].Table, seat(1, record.Loss, 2), seat(2, record.Win, 11)); err != nil {
		t.Fatal(err)
	}
	var ref *Refusal
	if _, err := f.submit("t03", seat(1, record.Win, 1), seat(2, record.Loss, 0)); !errors.As(err, &ref) {
		t.Fatalf("t03 not paired: %v", err)
	}
	if err := f.tr.Correct(ctx, 2, r2.Tables[1].Table, []record.Seat{seat(1, record.Loss, 2), seat(2, record.Win, 9)}, "sędzia", "a unit counted twice"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.tr.ForcePairNext(ctx, "sędzia", "test"); err == nil {
		// round 2 is complete: not forced really, but allowed.
		if err := f.tr.StartRound(ctx, 3, f.now); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestCSVGolden(t *testing.T) {
	f := scripted(t)
	for _, what := range []string{"standings", "pairings", "results"} {
		var b bytes.Buffer
		if err := f.tr.WriteCSV(&b, what); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "testdata/"+what+".csv", b.Bytes(), *update)
	}
	view, err := json.MarshalIndent(f.tr.View(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/view.json", append(view, '\n'), *update)
	if err := f.tr.WriteCSV(&bytes.Buffer{}, "players"); err == nil {
		t.Error("WriteCSV players: no error")
	}
}

func TestImportRoundTrip(t *testing.T) {
	a := newFixture(t, "wot-rush", 11, 3)
	ctx := context.Background()
	r, err := a.tr.PairNext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	a.tr.WriteCSV(&b, "pairings")
	c := newFixture(t, "wot-rush", 11, 3)
	got, err := c.tr.ImportPairings(ctx, 1, &b)
	if err != nil {
		t.Fatal(err)
	}
	r.Source = "import"
	if !reflect.DeepEqual(got, r) {
		t.Errorf("imported %+v, want %+v", got, r)
	}
	// A re-import of round 1 replaces it while it has no result.
	again := "table,seat,player\nt01,1,p01\nt01,2,p02\nt01,3,p03\nt02,1,p04\nt02,2,p05\n"
	if _, err := c.tr.ImportPairings(ctx, 1, strings.NewReader(again)); err != nil {
		t.Fatal(err)
	}
	v := c.tr.View()
	if len(v.Paired) != 1 || len(v.Paired[0].Tables) != 2 || v.Audit[len(v.Audit)-1].Why != "imported" {
		t.Errorf("after re-import: %+v", v.Paired)
	}
	if _, err := c.submit("t02", seat(1, record.Win, 3), seat(2, record.Loss, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.tr.ImportPairings(ctx, 1, strings.NewReader(again)); err == nil || !strings.Contains(err.Error(), "has results already") {
		t.Errorf("re-import over a result: %v", err)
	}
	if _, err := c.tr.ImportPairings(ctx, 3, strings.NewReader(again)); err == nil || !strings.Contains(err.Error(), "next round is 2") {
		t.Errorf("import of round 3: %v", err)
	}
}

func TestImportErrors(t *testing.T) {
	f := newFixture(t, "skirmish", 4, 2)
	ctx := context.Background()
	const head = "round,table,seat,player,name\n"
	cases := []struct {
		name, csv, want string
	}{
		{"empty", "", "line 1: no header"},
		{"no player column", "table,seat\nt01,1\n", `line 1: no "player" column`},
		{"column twice", "table,seat,player,seat\n", "line 1, column 4 (seat)"},
		{"no rows", head, "line 2: no pairings"},
		{"unknown player", head + "1,t01,1,p01,A\n1,t01,2,p99,B\n", `line 3, column 4 (player): "p99" is not a player`},
		{"player twice", head + "1,t01,1,p01,A\n1,t02,1,p01,A\n", `line 3, column 4 (player): "p01" twice in the round (also line 2)`},
		{"unknown table", head + "1,t09,1,p01,A\n", `line 2, column 2 (table): "t09" is not a table`},
		{"seat out of range", head + "1,t01,3,p01,A\n", `line 2, column 3 (seat): "3", want a seat from 1 to 2`},
		{"seat not a number", head + "1,t01,x,p01,A\n", `line 2, column 3 (seat): "x"`},
		{"seat twice", head + "1,t01,1,p01,A\n1,t01,1,p02,B\n", "line 3, column 3 (seat): table t01 seat 1 twice (also line 2)"},
		{"lone player", head + "1,t01,1,p01,A\n1,t01,2,p02,B\n1,t02,2,p03,C\n", "line 4: table t02 has 1 player"},
		{"other round", head + "2,t01,1,p01,A\n", `line 2, column 1 (round): "2", importing round 1`},
		{"bye with a seat", head + "1,bye,1,p01,A\n", `line 2, column 3 (seat): "1": a bye has no seat`},
		{"bare quote", head + "1,t01,1,p\"01,A\n", "line 2, character 10: bare \" in non-quoted-field"},
		{"short row", "table,seat,player\nt01,1\n", "line 2"},
	}
	before, _ := json.Marshal(f.tr.View())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.tr.ImportPairings(ctx, 1, strings.NewReader(c.csv))
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "tournament: ") {
				t.Fatalf("got %v, want an error with %q", err, c.want)
			}
		})
	}
	after, _ := json.Marshal(f.tr.View())
	if !bytes.Equal(before, after) {
		t.Errorf("a refused import changed the tournament")
	}
	// The good one, byes included.
	r, err := f.tr.ImportPairings(ctx, 1, strings.NewReader("\ufeffTable,Seat,Player\nt02,2,p01\nt02,1,p02\nbye,,p03\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Round{Number: 1, Source: "import", Tables: []Pairing{{Table: "t02", Players: []string{"p02", "p01"}, ID: r.Tables[0].ID}}, Byes: []string{"p03"}}
	if !reflect.DeepEqual(r, want) || len(r.Tables[0].ID) != 32 {
		t.Errorf("got %+v, want %+v", r, want)
	}
}
