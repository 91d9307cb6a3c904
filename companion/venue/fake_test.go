package venue

import (
	"context"
	"crypto/ed25519"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
)

// fakeTournament stands in for companion/tournament (written on another
// branch at the same time; `sztab venue` wires the real one): a small
// tournament that checks what the real one checks of a result (the table's
// key, the pairing, venue and game), pairs players in standings order and
// scores a win 1, a draw ½.
type fakeTournament struct {
	mu                sync.Mutex
	name, venue, game string
	rounds            int
	players           []string
	keys              map[string]ed25519.PublicKey
	tables            []string
	now               func() time.Time

	pairings []Round
	clock    *Clock
	refusals []Refusal
	audit    []AuditNote
}

func (f *fakeTournament) current() *Round {
	if len(f.pairings) == 0 {
		return nil
	}
	return &f.pairings[len(f.pairings)-1]
}

func (f *fakeTournament) note(who, what, why string) {
	f.audit = append(f.audit, AuditNote{At: f.now().UTC(), Who: who, What: what, Why: why})
}

func (f *fakeTournament) PairNext(ctx context.Context) error { return f.pair(false, "organiser", "") }

func (f *fakeTournament) ForcePairNext(ctx context.Context, by, why string) error {
	return f.pair(true, by, why)
}

func (f *fakeTournament) pair(force bool, by, why string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r := f.current(); r != nil && !force {
		for _, p := range r.Tables {
			if p.State == "awaiting" {
				return fmt.Errorf("tournament: round %d: table %s has no result yet", r.Number, p.Table)
			}
		}
	}
	if len(f.pairings) >= f.rounds {
		return fmt.Errorf("tournament: all %d rounds are paired", f.rounds)
	}
	order := []string{}
	for _, s := range f.standings() {
		order = append(order, s.Player)
	}
	r := Round{Number: len(f.pairings) + 1}
	for i := 0; i+1 < len(order); i += 2 {
		r.Tables = append(r.Tables, Pairing{Table: f.tables[i/2], Players: []string{order[i], order[i+1]}, State: "awaiting"})
	}
	if len(order)%2 == 1 {
		r.Tables = append(r.Tables, Pairing{Players: []string{order[len(order)-1]}, Bye: true, State: "signed",
			Seats: []record.Seat{{Seat: 1, Outcome: record.Win}}})
	}
	f.pairings = append(f.pairings, r)
	f.note(by, fmt.Sprintf("round %d paired", r.Number), why)
	return nil
}

func (f *fakeTournament) ImportPairings(ctx context.Context, round int, in io.Reader) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if round != len(f.pairings)+1 {
		return fmt.Errorf("tournament: import: round %d, the next round is %d", round, len(f.pairings)+1)
	}
	cr := csv.NewReader(in)
	cr.FieldsPerRecord = 3
	rows, err := cr.ReadAll()
	if err != nil {
		return fmt.Errorf("tournament: import: %w", err)
	}
	r := Round{Number: round}
	for i, row := range rows {
		if i == 0 {
			if !slices.Equal(row, []string{"table", "seat1", "seat2"}) {
				return fmt.Errorf("tournament: import: line 1: header %q, want table,seat1,seat2", strings.Join(row, ","))
			}
			continue
		}
		if !slices.Contains(f.tables, row[0]) {
			return fmt.Errorf("tournament: import: line %d, column 1: no table %q", i+1, row[0])
		}
		for c, p := range row[1:] {
			if !slices.Contains(f.players, p) {
				return fmt.Errorf("tournament: import: line %d, column %d: no player %q", i+1, c+2, p)
			}
		}
		r.Tables = append(r.Tables, Pairing{Table: row[0], Players: row[1:], State: "awaiting"})
	}
	if len(r.Tables) == 0 {
		return errors.New("tournament: import: no pairings")
	}
	f.pairings = append(f.pairings, r)
	f.note("organiser", fmt.Sprintf("round %d imported", round), "")
	return nil
}

func (f *fakeTournament) refuse(table string, round int, why string) error {
	f.refusals = append(f.refusals, Refusal{At: f.now().UTC(), Table: table, Round: round, Reason: why})
	return errors.New("tournament: " + why)
}

func (f *fakeTournament) SubmitResult(ctx context.Context, table string, m wire.ResultMessage) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.current()
	if r == nil {
		return f.refuse(table, 0, "no round is paired")
	}
	i := slices.IndexFunc(r.Tables, func(p Pairing) bool { return p.Table == table })
	if i < 0 {
		return f.refuse(table, r.Number, fmt.Sprintf("table %s is not paired in round %d", table, r.Number))
	}
	key, ok := f.keys[table]
	if !ok {
		return f.refuse(table, r.Number, "no key for table "+table)
	}
	s, err := record.VerifyStatement([]byte(m.Statement), []byte(m.Signature), key)
	if err != nil {
		return f.refuse(table, r.Number, err.Error())
	}
	if s.Venue != f.venue || s.Game != f.game || s.Table != table || !s.Finished || len(s.Seats) != len(r.Tables[i].Players) {
		return f.refuse(table, r.Number, "statement is not this tournament's finished game at this table")
	}
	p := &r.Tables[i]
	if p.State != "awaiting" {
		if slices.Equal(p.Seats, s.Seats) {
			return nil
		}
		return f.refuse(table, r.Number, "a different result for a table already reported")
	}
	p.Seats, p.State, p.SampleData = s.Seats, "signed", s.SampleData
	f.note("table "+table, fmt.Sprintf("round %d result", r.Number), "")
	return nil
}

func (f *fakeTournament) Correct(ctx context.Context, round int, table string, seats []record.Seat, by, why string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if round < 1 || round > len(f.pairings) {
		return fmt.Errorf("tournament: correct: no round %d", round)
	}
	r := &f.pairings[round-1]
	i := slices.IndexFunc(r.Tables, func(p Pairing) bool { return p.Table == table })
	if i < 0 {
		return fmt.Errorf("tournament: correct: table %s is not paired in round %d", table, round)
	}
	if len(seats) != len(r.Tables[i].Players) {
		return fmt.Errorf("tournament: correct: %d seats, the pairing has %d", len(seats), len(r.Tables[i].Players))
	}
	r.Tables[i].Seats, r.Tables[i].State = seats, "corrected"
	f.note(by, fmt.Sprintf("round %d table %s corrected", round, table), why)
	return nil
}

func (f *fakeTournament) StartRound(ctx context.Context, round int, at time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if round != len(f.pairings) || round == 0 {
		return fmt.Errorf("tournament: start: round %d is not the round paired last", round)
	}
	f.clock = &Clock{Round: round, Start: at, Minutes: 90}
	f.note("organiser", fmt.Sprintf("round %d clock started", round), "")
	return nil
}

func (f *fakeTournament) WriteCSV(w io.Writer, what string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	cw := csv.NewWriter(w)
	switch what {
	case "standings":
		cw.Write([]string{"rank", "player", "points", "played"})
		for _, s := range f.standings() {
			cw.Write([]string{fmt.Sprint(s.Rank), s.Player, fmt.Sprint(s.Points), fmt.Sprint(s.Played)})
		}
	case "pairings", "results":
		cw.Write([]string{"round", "table", "seat1", "seat2", "state"})
		for _, r := range f.pairings {
			for _, p := range r.Tables {
				cw.Write(append(append([]string{fmt.Sprint(r.Number), p.Table}, p.Players...), p.State))
			}
		}
	default:
		return fmt.Errorf("tournament: no export %q", what)
	}
	cw.Flush()
	return cw.Error()
}

func (f *fakeTournament) standings() []Standing {
	pts, played, sample := map[string]float64{}, map[string]int{}, map[string]int{}
	for _, r := range f.pairings {
		for _, p := range r.Tables {
			for _, s := range p.Seats {
				name := p.Players[s.Seat-1]
				played[name]++
				if p.SampleData {
					sample[name]++
				}
				pts[name] += map[string]float64{record.Win: 1, record.Draw: 0.5}[s.Outcome]
			}
		}
	}
	out := []Standing{}
	for _, name := range f.players {
		out = append(out, Standing{Player: name, Points: pts[name], Played: played[name], SampleData: sample[name]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Points > out[j].Points })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Points == out[i-1].Points {
			out[i].Rank, out[i].Tie, out[i-1].Tie = out[i-1].Rank, true, true
		}
	}
	return out
}

func (f *fakeTournament) View() View {
	f.mu.Lock()
	defer f.mu.Unlock()
	v := View{Name: f.name, Venue: f.venue, Game: f.game, Rounds: f.rounds, Tables: slices.Clone(f.tables), Round: len(f.pairings), Clock: f.clock,
		Standings: f.standings(), Refusals: slices.Clone(f.refusals), Audit: slices.Clone(f.audit)}
	for _, r := range f.pairings {
		r.Tables = slices.Clone(r.Tables)
		v.Pairings = append(v.Pairings, r)
	}
	return v
}
