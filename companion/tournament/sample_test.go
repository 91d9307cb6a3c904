package tournament

import (
	"bytes"
	"context"
	"encoding/csv"
	"slices"
	"testing"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/games"
)

// A table's result signed as a game on sample data (statement v5,
// sample_data: true) counts like any other and is marked as such: on the
// result, on its table in the round's view and on each of its players'
// standings lines, after a reopening and after the organiser corrects it;
// the other table's result and players are not marked.
func TestSampleDataResultIsMarked(t *testing.T) {
	ctx := context.Background()
	// A game of two seats a table that reads box packs: its tables play
	// on sample data until the club enrols its box.
	game := ""
	for _, s := range games.All {
		if s.Box != nil && s.Tournament.Seats == 2 && game == "" {
			game = s.ID
		}
	}
	if game == "" {
		t.Fatal("no registered game of two seats reads box packs")
	}
	f := newFixture(t, game, 4, 2)
	r, err := f.tr.PairNext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	onSample, other := r.Tables[0], r.Tables[1]
	s := f.statement(onSample.Table, seat(1, record.Win, 12), seat(2, record.Loss, 3))
	s.SampleData = true
	res, err := f.tr.SubmitResult(ctx, onSample.Table, f.message(s, onSample.Table))
	if err != nil {
		t.Fatalf("a v5 statement on sample data: %v", err)
	}
	if !res.SampleData {
		t.Errorf("the result of a statement with sample_data: true is not marked: %+v", res)
	}
	if res, err := f.submit(other.Table, seat(1, record.Draw, 5), seat(2, record.Draw, 5)); err != nil || res.SampleData {
		t.Fatalf("the other table's result (no sample data): %+v, %v", res, err)
	}

	check := func(when string, counted int) {
		t.Helper()
		v := f.tr.View()
		for _, tv := range v.Paired[0].Results {
			want := tv.Table == onSample.Table
			if tv.Signed == nil || tv.Signed.SampleData != want {
				t.Errorf("%s: table %s's result marked %v, want %v: %+v", when, tv.Table, tv.Signed != nil && tv.Signed.SampleData, want, tv.Signed)
			}
		}
		marked := map[string]int{}
		for _, st := range v.Standings {
			marked[st.Player] = st.SampleData
		}
		for _, p := range onSample.Players {
			if marked[p] != counted {
				t.Errorf("%s: %s played on sample data, standings say %d games, want %d", when, p, marked[p], counted)
			}
		}
		for _, p := range other.Players {
			if marked[p] != 0 {
				t.Errorf("%s: %s did not play on sample data, standings say %d games", when, p, marked[p])
			}
		}
	}
	check("counted", 1)

	// The exports say it too: the result's rows, and the players' games.
	csvOf := func(what string) map[string]string {
		var b bytes.Buffer
		if err := f.tr.WriteCSV(&b, what); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&b).ReadAll()
		if err != nil || len(rows) < 2 || rows[0][len(rows[0])-1] != "sample_data" {
			t.Fatalf("%s.csv: %v, the last column %q, want sample_data", what, err, rows[0])
		}
		player := slices.Index(rows[0], "player")
		out := map[string]string{}
		for _, r := range rows[1:] {
			out[r[player]] = r[len(r)-1]
		}
		return out
	}
	results, standings := csvOf("results"), csvOf("standings")
	for _, p := range onSample.Players {
		if results[p] != "true" || standings[p] != "1" {
			t.Errorf("%s played on sample data: results.csv says %q, standings.csv %q; want true and 1", p, results[p], standings[p])
		}
	}
	for _, p := range other.Players {
		if results[p] != "" || standings[p] != "0" {
			t.Errorf("%s did not play on sample data: results.csv says %q, standings.csv %q; want empty and 0", p, results[p], standings[p])
		}
	}
	f.reopen()
	check("after a reopening", 1)
	if err := f.tr.Correct(ctx, 1, onSample.Table, []record.Seat{seat(1, record.Loss, 3), seat(2, record.Win, 12)}, "orga", "karta wyniku"); err != nil {
		t.Fatal(err)
	}
	check("corrected", 1)
}
