package tournament

import (
	"cmp"
	"slices"

	"github.com/sztab/sztab/companion/record"
)

// Standing is one player's line of the standings.
type Standing struct {
	// Rank is 1 for the best; players tied on the points and every
	// tie-break share a rank (Tied) and are listed by id.
	Rank   int     `json:"rank"`
	Tied   bool    `json:"tied,omitempty"`
	Player string  `json:"player"`
	Name   string  `json:"name"`
	Club   string  `json:"club,omitempty"`
	Points float64 `json:"points"`
	// Score is the summed game score (a bye's as configured).
	Score int `json:"score"`
	// SOS is Buchholz: the sum of the opponents' points.
	SOS    float64 `json:"sos"`
	Played int     `json:"played"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Byes   int     `json:"byes"`
	// HeadToHead is the tie-break's value when it was needed: the points
	// taken from the players tied with this one (nil: not needed).
	HeadToHead *float64 `json:"head_to_head,omitempty"`
	// SampleData counts the player's counted games that ran on sample
	// data (Result.SampleData; a corrected result keeps what its table
	// signed of it).
	SampleData int `json:"sample_data,omitempty"`
}

// TieBreak is the player's value of a tie-break (TieBreakNames), 0 for
// another name; head-to-head is set only where it was needed.
func (s Standing) TieBreak(name string) float64 {
	switch name {
	case TieScore:
		return float64(s.Score)
	case TieSOS:
		return s.SOS
	case TieWins:
		return float64(s.Wins)
	case TieHeadToHead:
		if s.HeadToHead != nil {
			return *s.HeadToHead
		}
	}
	return 0
}

// game is one counted game: a table's effective result.
type game struct {
	players []string
	seats   []record.Seat
	// sample: the game ran on sample data.
	sample bool
}

// points is what an outcome or score is worth.
func (c *Config) points(outcome string, score int) float64 {
	if c.Points.Mode == ModeVP {
		return float64(score)
	}
	switch outcome {
	case record.Win:
		return c.Points.Win
	case record.Draw:
		return c.Points.Draw
	}
	return c.Points.Loss
}

// standings computes the table from the counted games and byes.
func standings(cfg *Config, players []Player, games []game, byes []string) []Standing {
	idx := map[string]int{}
	st := make([]Standing, len(players))
	for i, p := range players {
		idx[p.ID] = i
		st[i] = Standing{Player: p.ID, Name: p.Name, Club: p.Club}
	}
	count := func(s *Standing, outcome string, score int) {
		s.Points += cfg.points(outcome, score)
		s.Score += score
		switch outcome {
		case record.Win:
			s.Wins++
		case record.Draw:
			s.Draws++
		default:
			s.Losses++
		}
	}
	for _, b := range byes {
		s := &st[idx[b]]
		s.Byes++
		count(s, cfg.Bye.Outcome, cfg.Bye.Score)
	}
	// h2h[a][b]: points a took in games with b at the table.
	h2h := map[string]map[string]float64{}
	for _, g := range games {
		for _, seat := range g.seats {
			p := g.players[seat.Seat-1]
			s := &st[idx[p]]
			s.Played++
			if g.sample {
				s.SampleData++
			}
			count(s, seat.Outcome, seat.Score)
			for _, q := range g.players {
				if q != p {
					if h2h[p] == nil {
						h2h[p] = map[string]float64{}
					}
					h2h[p][q] += cfg.points(seat.Outcome, seat.Score)
				}
			}
		}
	}
	for _, g := range games {
		for _, p := range g.players {
			for _, q := range g.players {
				if q != p {
					st[idx[p]].SOS += st[idx[q]].Points
				}
			}
		}
	}
	// Rank by splitting groups, criterion by criterion: head-to-head is
	// only meaningful inside the group tied so far.
	order := make([]int, len(st))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(st[a].Player, st[b].Player) })
	groups := [][]int{order}
	crit := append([]string{"points"}, cfg.TieBreaks...)
	for _, c := range crit {
		var next [][]int
		for _, g := range groups {
			if len(g) == 1 {
				next = append(next, g)
				continue
			}
			val := map[int]float64{}
			for _, i := range g {
				switch c {
				case "points":
					val[i] = st[i].Points
				case TieScore:
					val[i] = float64(st[i].Score)
				case TieSOS:
					val[i] = st[i].SOS
				case TieWins:
					val[i] = float64(st[i].Wins)
				case TieHeadToHead:
					for _, j := range g {
						val[i] += h2h[st[i].Player][st[j].Player]
					}
					h := val[i]
					st[i].HeadToHead = &h
				}
			}
			s := slices.Clone(g)
			slices.SortStableFunc(s, func(a, b int) int { return cmp.Compare(val[b], val[a]) })
			start := 0
			for i := 1; i <= len(s); i++ {
				if i == len(s) || val[s[i]] != val[s[start]] {
					next = append(next, s[start:i])
					start = i
				}
			}
		}
		groups = next
	}
	out := make([]Standing, 0, len(st))
	for _, g := range groups {
		r := len(out) + 1
		for _, i := range g {
			s := st[i]
			s.Rank = r
			s.Tied = len(g) > 1
			out = append(out, s)
		}
	}
	return out
}
