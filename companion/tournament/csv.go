package tournament

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// The CSV files (RFC 4180, encoding/csv, a header line first).
//
// "standings": rank,tied,player,name,club,points,score,sos,played,wins,draws,losses,byes,head_to_head,sample_data
// (head_to_head empty where the tie-break was not needed)
// (tied is "=" when the rank is shared; sample_data counts the player's
// games played on sample data, Standing.SampleData).
//
// "pairings": round,table,seat,player,name — one row per seat; a bye is
// table "bye" with seat empty.
//
// "results": round,table,state,seat,player,name,outcome,score,points,sample_data —
// one row per seat; state is awaiting/signed/corrected/refused (outcome,
// score and points empty unless counted), "bye" for a bye; sample_data is
// "true" when the table signed its game as played on sample data
// (Result.SampleData), else empty.
//
// Errors name the line and the column (the field's number and name), or
// for a CSV syntax error the line and character.
//
// ImportPairings reads the "pairings" columns: table, seat and player are
// required (by header name, any order); round, if there, must be the round
// imported; other columns (name) are ignored.
var csvColumns = map[string][]string{
	"standings": {"rank", "tied", "player", "name", "club", "points", "score", "sos", "played", "wins", "draws", "losses", "byes", "head_to_head", "sample_data"},
	"pairings":  {"round", "table", "seat", "player", "name"},
	"results":   {"round", "table", "state", "seat", "player", "name", "outcome", "score", "points", "sample_data"},
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// WriteCSV writes "standings", "pairings" or "results" (columns above).
func (t *Tournament) WriteCSV(w io.Writer, what string) error {
	head, ok := csvColumns[what]
	if !ok {
		return fmt.Errorf("tournament: csv: %q, want standings, pairings or results", what)
	}
	v := t.View()
	names := map[string]string{}
	for _, p := range v.Players {
		names[p.ID] = p.Name
	}
	cw := csv.NewWriter(w)
	cw.Write(head)
	switch what {
	case "standings":
		for _, s := range v.Standings {
			tied := ""
			if s.Tied {
				tied = "="
			}
			h2h := ""
			if s.HeadToHead != nil {
				h2h = num(*s.HeadToHead)
			}
			cw.Write([]string{strconv.Itoa(s.Rank), tied, s.Player, s.Name, s.Club, num(s.Points), strconv.Itoa(s.Score), num(s.SOS),
				strconv.Itoa(s.Played), strconv.Itoa(s.Wins), strconv.Itoa(s.Draws), strconv.Itoa(s.Losses), strconv.Itoa(s.Byes), h2h, strconv.Itoa(s.SampleData)})
		}
	case "pairings":
		for _, r := range v.Paired {
			rn := strconv.Itoa(r.Number)
			for _, p := range r.Tables {
				for i, id := range p.Players {
					cw.Write([]string{rn, p.Table, strconv.Itoa(i + 1), id, names[id]})
				}
			}
			for _, id := range r.Byes {
				cw.Write([]string{rn, ByeTable, "", id, names[id]})
			}
		}
	case "results":
		for _, r := range v.Paired {
			rn := strconv.Itoa(r.Number)
			for _, tv := range r.Results {
				for i, id := range tv.Players {
					row := []string{rn, tv.Table, tv.State, strconv.Itoa(i + 1), id, names[id], "", "", "", ""}
					if tv.Signed != nil && tv.Signed.SampleData {
						row[9] = "true"
					}
					for _, s := range tv.Seats {
						if s.Seat == i+1 {
							row[6], row[7], row[8] = s.Outcome, strconv.Itoa(s.Score), num(t.cfg.points(s.Outcome, s.Score))
						}
					}
					cw.Write(row)
				}
			}
			for _, id := range r.Byes {
				cw.Write([]string{rn, ByeTable, "bye", "", id, names[id], v.Bye.Outcome, strconv.Itoa(v.Bye.Score), num(t.cfg.points(v.Bye.Outcome, v.Bye.Score)), ""})
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("tournament: csv %s: %w", what, err)
	}
	return nil
}

// MaxImport bounds a pairings file.
const MaxImport = 4 << 20

// ImportPairings sets a round's pairings from the organiser's pairing
// software (columns above). round is the next round, or the current one
// while none of its results is in (a re-import replaces it). Every player
// is checked (known, once), every table (known, seats 1…n in full, 2 to
// Config.Seats players; exactly 2 when Seats is 2); any fault is an error
// with its line and column, and nothing changes. An import may start a
// round while results of the one before are missing (the organiser's own
// act; those tables count nothing until corrected).
func (t *Tournament) ImportPairings(ctx context.Context, round int, r io.Reader) (Round, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	next := len(t.rounds) + 1
	switch {
	case round == next:
		if t.cfg.Rounds > 0 && round > t.cfg.Rounds {
			return Round{}, fmt.Errorf("tournament: import round %d: the tournament has %d rounds", round, t.cfg.Rounds)
		}
	case round == next-1 && round >= 1:
		cur := t.current()
		if len(cur.missing()) != len(cur.Tables) {
			return Round{}, fmt.Errorf("tournament: import round %d: it has results already; correct them instead", round)
		}
	default:
		return Round{}, fmt.Errorf("tournament: import round %d: the next round is %d", round, next)
	}
	rd, err := ParsePairings(r, round, &t.cfg)
	if err != nil {
		return Round{}, err
	}
	if err := t.issue(&rd); err != nil {
		return Round{}, err
	}
	if err := t.write(ctx, kindRound, "organiser", "imported", rd); err != nil {
		return Round{}, err
	}
	t.log.Info("tournament: pairings imported", "round", round, "tables", len(rd.Tables), "byes", rd.Byes)
	return rd, nil
}

// ParsePairings reads a pairings file for round (ImportPairings' checks,
// without the store).
func ParsePairings(r io.Reader, round int, cfg *Config) (Round, error) {
	fail := func(line, col int, name, format string, args ...any) error {
		where := fmt.Sprintf("line %d", line)
		if col > 0 {
			where += fmt.Sprintf(", column %d", col)
		}
		if name != "" {
			where += " (" + name + ")"
		}
		return fmt.Errorf("tournament: pairings: %s: %s", where, fmt.Sprintf(format, args...))
	}
	lr := &io.LimitedReader{R: r, N: MaxImport + 1}
	cr := csv.NewReader(lr)
	cr.FieldsPerRecord = 0
	head, err := cr.Read()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return Round{}, fmt.Errorf("tournament: pairings: line %d, character %d: %w", pe.Line, pe.Column, pe.Err)
		}
		return Round{}, fmt.Errorf("tournament: pairings: line 1: no header (want table,seat,player): %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if _, ok := col[h]; ok && h != "" {
			return Round{}, fail(1, i+1, h, "column %q twice", h)
		}
		col[h] = i
	}
	for _, need := range []string{"table", "seat", "player"} {
		if _, ok := col[need]; !ok {
			return Round{}, fail(1, 0, "", "no %q column (want table,seat,player; round and name optional)", need)
		}
	}
	players := map[string]bool{}
	for _, p := range cfg.Players {
		players[p.ID] = true
	}
	tables := map[string]int{}
	for i, tb := range cfg.Tables {
		tables[tb.ID] = i
	}
	type seatAt struct {
		player    string
		line, col int
	}
	seats := map[string]map[int]seatAt{}
	firstLine := map[string]int{}
	seen := map[string]int{}
	rd := Round{Number: round, Source: "import"}
	rows := 0
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return Round{}, fmt.Errorf("tournament: pairings: line %d, character %d: %w", pe.Line, pe.Column, pe.Err)
			}
			return Round{}, fmt.Errorf("tournament: pairings: %w", err)
		}
		if lr.N <= 0 {
			return Round{}, fmt.Errorf("tournament: pairings: longer than %d bytes", MaxImport)
		}
		rows++
		field := func(name string) (string, int, int) {
			i := col[name]
			if i >= len(rec) {
				l, _ := cr.FieldPos(0)
				return "", l, 0
			}
			l, _ := cr.FieldPos(i)
			return strings.TrimSpace(rec[i]), l, i + 1
		}
		if _, ok := col["round"]; ok {
			v, l, c := field("round")
			if v != strconv.Itoa(round) {
				return Round{}, fail(l, c, "round", "%q, importing round %d", clip(v), round)
			}
		}
		tb, tl, tc := field("table")
		pl, pline, pc := field("player")
		sv, sl, sc := field("seat")
		if !players[pl] {
			return Round{}, fail(pline, pc, "player", "%q is not a player of this tournament", clip(pl))
		}
		if l, ok := seen[pl]; ok {
			return Round{}, fail(pline, pc, "player", "%q twice in the round (also line %d)", pl, l)
		}
		seen[pl] = pline
		if strings.EqualFold(tb, ByeTable) {
			if sv != "" && sv != "0" {
				return Round{}, fail(sl, sc, "seat", "%q: a bye has no seat", clip(sv))
			}
			rd.Byes = append(rd.Byes, pl)
			continue
		}
		if _, ok := tables[tb]; !ok {
			return Round{}, fail(tl, tc, "table", "%q is not a table of this tournament (or %q)", clip(tb), ByeTable)
		}
		s, err := strconv.Atoi(sv)
		if err != nil || s < 1 || s > cfg.Seats {
			return Round{}, fail(sl, sc, "seat", "%q, want a seat from 1 to %d", clip(sv), cfg.Seats)
		}
		if seats[tb] == nil {
			seats[tb] = map[int]seatAt{}
			firstLine[tb] = tl
		}
		if o, ok := seats[tb][s]; ok {
			return Round{}, fail(sl, sc, "seat", "table %s seat %d twice (also line %d)", tb, s, o.line)
		}
		seats[tb][s] = seatAt{pl, sl, sc}
	}
	if rows == 0 {
		return Round{}, fail(2, 0, "", "no pairings")
	}
	ids := make([]string, 0, len(seats))
	for tb := range seats {
		ids = append(ids, tb)
	}
	slices.SortFunc(ids, func(a, b string) int { return tables[a] - tables[b] })
	for _, tb := range ids {
		n := len(seats[tb])
		if n < 2 {
			return Round{}, fail(firstLine[tb], 0, "", "table %s has %d player, want 2 to %d", tb, n, cfg.Seats)
		}
		p := Pairing{Table: tb}
		for s := 1; s <= n; s++ {
			at, ok := seats[tb][s]
			if !ok {
				return Round{}, fail(firstLine[tb], 0, "", "table %s has %d players but no seat %d", tb, n, s)
			}
			p.Players = append(p.Players, at.player)
		}
		rd.Tables = append(rd.Tables, p)
	}
	return rd, nil
}
