package companion

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/internal/brokertest"
)

// The next game at a table with a journal_dir, on a real Mosquitto and
// Run's loop, driven over MQTT only: the referee's new_game command
// refuses to leave an unfinished game without a reason, players other
// than the venue's pairing's and a round the venue already counted; it
// starts the next game in the next journal, bound to the pairing it was
// started under, whose result names it. A pairing that first comes while
// a game is under way does not bind that game. Every journal stays whole.
func TestNextGameFromTheRefereesCommand(t *testing.T) {
	m := brokertest.StartMosquitto(t, "allow_anonymous true\n")
	dir := t.TempDir()
	_, spec := roundTable(t, dir, m.URL())
	cfg, err := ParseConfig(filepath.Join(dir, "t1.yaml"), []byte("venue: v\ntable: t1\ngame: skirmish\ntags: tags.yaml\njournal_dir: games\nresult_key: t1.key\n"+
		"mqtt:\n  broker: \""+m.URL()+"\"\ndisplay:\n  referee: {user: sedzia, password: tajne}\n"))
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedLog{}
	ctx, cancel := context.WithCancel(context.Background())
	var opens atomic.Int32
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, cfg, Options{Games: Games{spec}, Log: slog.New(slog.NewTextHandler(logs, nil)), opened: func(*Daemon) { opens.Add(1) }})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	topics := wire.TopicsFor("v", "t1")
	watch := record(t, m.Addr, topics.Base+"#")
	ref := mqttClientAs(t, m.Addr, "sedzia", "tajne")
	n := 0
	send := func(name string, args []string, text string) wire.CommandResult {
		t.Helper()
		n++
		id := fmt.Sprintf("c%d", n)
		b, _ := json.Marshal(wire.Command{Name: name, ID: id, Args: args, Text: text})
		if tok := ref.Publish(topics.RefereeCommand, 1, false, b); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("publish %s: %v", name, tok.Error())
		}
		var ev struct{ Event wire.CommandResult }
		json.Unmarshal([]byte(watch.wait(t, topics.RefereeEvents, `"id":"`+id+`"`)), &ev)
		return ev.Event
	}
	play := func(dice ...string) {
		t.Helper()
		for _, k := range dice {
			if res := send(k, nil, ""); !res.OK {
				t.Fatalf("die %s refused: %+v", k, res)
			}
		}
	}
	pair := func(round int, result string) {
		t.Helper()
		b, _ := json.Marshal(wire.PairingMessage{Venue: "v", Table: "t1", Round: round, Players: []string{"Ania", "Bartek"}, Result: result,
			Tournament: "tour-0001", Pairing: fmt.Sprintf("pair-r%d-t1", round), PlayerIDs: []string{"ania", "bartek"}})
		if result == "clear" {
			b = nil
		}
		before := strings.Count(logs.String(), "pairing")
		if tok := ref.Publish(topics.Pairing, 1, true, b); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
		defer func() {
			if t.Failed() {
				t.Log(logs.String())
			}
		}()
		waitFor(t, "the table to hear the pairing", func() bool {
			return strings.Count(logs.String(), "pairing")+strings.Count(logs.String(), "paired") > before
		})
	}
	refused := func(res wire.CommandResult, code string) {
		t.Helper()
		if res.OK || res.Code != code {
			t.Fatalf("new_game answered %+v, want refused %s", res, code)
		}
	}
	games := filepath.Join(dir, "games")
	journal := func(n int) string { return filepath.Join(games, fmt.Sprintf("game-%04d.db", n)) }
	bound := func(n int) (int, Binding) {
		t.Helper()
		j, err := ReadJournal(journal(n))
		if err != nil {
			t.Fatalf("game %d's journal: %v", n, err)
		}
		defer j.Close()
		round, _, err := j.Round(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		b, err := j.Pairing(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return round, b
	}
	nextGame := func(want int32) {
		t.Helper()
		waitFor(t, fmt.Sprintf("the table to open game %d", want), func() bool { return opens.Load() == want })
		watch.wait(t, topics.Status, `"online"`)
	}
	nextGame(1)

	// Game 1, a club game: it is not over, and no reason is given.
	refused(send(CmdNewGame, nil, ""), "game_not_over")
	play("6", "3", "2")
	st := statementOf(t, watch.wait(t, topics.Result, "statement"))
	if st.Round != 0 {
		t.Fatalf("game 1 names round %d", st.Round)
	}
	// The venue pairs round 1 after game 1 is over: other players are
	// refused; the next game takes the pairing's.
	pair(1, "awaiting")
	refused(send(CmdNewGame, []string{"Bartek", "Ania"}, ""), "players_not_paired")
	if res := send(CmdNewGame, nil, ""); !res.OK || !strings.Contains(res.Text.EN, "") {
		t.Fatalf("new_game: %+v", res)
	}
	nextGame(2)
	if round, b := bound(2); round != 1 || b.Pairing != "pair-r1-t1" || b.Tournament != "tour-0001" {
		t.Fatalf("game 2 is bound to round %d, %+v; want round 1, pair-r1-t1", round, b)
	}
	if round, b := bound(1); round != 0 || b.Pairing != "" {
		t.Fatalf("game 1 took round %d, %+v, after it was over", round, b)
	}
	before := watch.all(topics.Result)
	play("1", "1", "1")
	waitFor(t, "game 2's result", func() bool {
		return watch.last(topics.Result) != "" && !strings.Contains(before, watch.last(topics.Result))
	})
	if st := statementOf(t, watch.last(topics.Result)); st.Round != 1 || st.Pairing != "pair-r1-t1" {
		t.Fatalf("game 2's statement: round %d, pairing %q", st.Round, st.Pairing)
	}
	// The venue has counted round 1: no next game until round 2 is paired.
	pair(1, wire.PairingSigned)
	refused(send(CmdNewGame, nil, ""), "round_counted")

	// Unpaired, the referee starts game 3 (a friendly); round 2's pairing
	// comes while it is under way: it does not bind it.
	pair(0, "clear")
	if res := send(CmdNewGame, nil, ""); !res.OK {
		t.Fatalf("new_game: %+v", res)
	}
	nextGame(3)
	play("4")
	pair(2, "awaiting")
	waitFor(t, "the log to say the game was under way", func() bool { return strings.Contains(logs.String(), "came while a game was under way") })
	if round, b := bound(3); round != 0 || b.Pairing != "" {
		t.Fatalf("game 3, under way when round 2 was paired, took round %d, %+v", round, b)
	}
	// Left unfinished (with the reason) for game 4, started under round 2.
	if res := send(CmdNewGame, []string{"Ania", "Bartek"}, "a friendly; the round begins"); !res.OK {
		t.Fatalf("new_game: %+v", res)
	}
	nextGame(4)
	if round, b := bound(4); round != 2 || b.Pairing != "pair-r2-t1" {
		t.Fatalf("game 4: round %d, %+v", round, b)
	}
	for i := 1; i <= 4; i++ {
		j, err := ReadJournal(journal(i))
		if err != nil {
			t.Fatalf("game %d's journal is not whole: %v", i, err)
		}
		j.Close()
	}
	if _, err := os.Stat(journal(5)); err == nil {
		t.Fatal("a fifth journal")
	}
}

// The next game's journal is whole from its start: it keeps the game's
// part of the config (an export builds the game from it) and the players
// before the table reopens on it.
func TestNextGameJournalKeepsItsConfig(t *testing.T) {
	dir := t.TempDir()
	cfg, err := ParseConfig(filepath.Join(dir, "t1.yaml"), []byte("venue: v\ntable: t1\ngame: skirmish\ntags: tags.yaml\njournal_dir: games\n"+
		"measure: {krok_mm: 30}\nskirmish:\n  template: centre\n"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "game-0002.db")
	tb := &table{cfg: cfg, log: slog.New(slog.DiscardHandler)}
	if err := tb.prepareGame(context.Background(), path, []string{"Ola", "Piotr"}, nil); err != nil {
		t.Fatal(err)
	}
	j, err := ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	want, _ := cfg.GameConfig()
	got, ok, err := j.GameConfig(context.Background())
	if err != nil || !ok || string(got) != string(want) {
		t.Fatalf("kept config %q, %v, %v; want %q", got, ok, err, want)
	}
	if !strings.Contains(string(got), "template: centre") {
		t.Fatalf("kept config %q lacks the game's section", got)
	}
}
