package tournament

import (
	"context"
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
	f.reopen()
	check("after a reopening", 1)
	if err := f.tr.Correct(ctx, 1, onSample.Table, []record.Seat{seat(1, record.Loss, 3), seat(2, record.Win, 12)}, "orga", "karta wyniku"); err != nil {
		t.Fatal(err)
	}
	check("corrected", 1)
}
