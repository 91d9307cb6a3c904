package tournament

import (
	"slices"
	"time"

	"github.com/sztab/sztab/companion/record"
)

// View is everything the organiser's page and the wall show, as of now.
// It is a copy: the caller may keep and marshal it.
type View struct {
	// ID is the tournament's id (Tournament.ID).
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Venue        string   `json:"venue"`
	Game         string   `json:"game"`
	Seats        int      `json:"seats"`
	Rounds       int      `json:"rounds"`
	RoundMinutes int      `json:"round_minutes"`
	Points       Points   `json:"points"`
	TieBreaks    []string `json:"tie_breaks"`
	Bye          Bye      `json:"bye"`
	Players      []Player `json:"players"`
	Tables       []string `json:"tables"`
	// Current is the latest paired round, 0 before the first.
	Current   int          `json:"current"`
	Clock     Clock        `json:"clock"`
	Paired    []RoundView  `json:"paired"`
	Standings []Standing   `json:"standings"`
	Refusals  []Refusal    `json:"refusals"`
	Audit     []AuditEntry `json:"audit"`
}

// Clock is the current round's clock; Start and Ends are nil until the
// organiser starts it.
type Clock struct {
	Round   int        `json:"round"`
	Start   *time.Time `json:"start,omitempty"`
	Minutes int        `json:"minutes"`
	Ends    *time.Time `json:"ends,omitempty"`
}

// RoundView is a round with each table's result state.
type RoundView struct {
	Round
	Start   *time.Time  `json:"start,omitempty"`
	Minutes int         `json:"minutes,omitempty"`
	Results []TableView `json:"results"`
	// Missing are the tables without a counted result.
	Missing []string `json:"missing,omitempty"`
}

// TableView is one table of a round and its result.
type TableView struct {
	Table string `json:"table"`
	// Pairing is the pairing's id (Pairing.ID).
	Pairing string   `json:"pairing,omitempty"`
	Players []string `json:"players"`
	Names   []string `json:"names"`
	// State is Awaiting, Signed, Corrected or Refused.
	State string `json:"state"`
	// Seats are the counted result (the correction when corrected).
	Seats []record.Seat `json:"seats,omitempty"`
	// Signed is what the table signed, when it did; under a correction it
	// is the original.
	Signed *Result `json:"signed,omitempty"`
}

// View is the tournament now.
func (t *Tournament) View() View {
	t.mu.Lock()
	defer t.mu.Unlock()
	v := View{
		ID: t.id, Name: t.cfg.Name, Venue: t.cfg.Venue, Game: t.cfg.Game, Seats: t.cfg.Seats,
		Rounds: t.cfg.Rounds, RoundMinutes: t.cfg.RoundMinutes, Points: t.cfg.Points,
		TieBreaks: slices.Clone(t.cfg.TieBreaks), Bye: t.cfg.Bye, Players: t.players(),
		Current: len(t.rounds), Standings: t.standings(),
		Refusals: slices.Clone(t.refusals), Audit: slices.Clone(t.audit),
		Paired: []RoundView{},
	}
	if v.Refusals == nil {
		v.Refusals = []Refusal{}
	}
	if v.Audit == nil {
		v.Audit = []AuditEntry{}
	}
	names := map[string]string{}
	for _, p := range v.Players {
		names[p.ID] = p.Name
	}
	for _, tb := range t.cfg.Tables {
		v.Tables = append(v.Tables, tb.ID)
	}
	for _, r := range t.rounds {
		rv := RoundView{Round: r.Round, Minutes: r.minutes, Missing: r.missing(), Results: []TableView{}}
		rv.Tables = slices.Clone(r.Tables)
		if !r.start.IsZero() {
			s := r.start
			rv.Start = &s
		}
		for _, p := range r.Tables {
			tv := TableView{Table: p.Table, Pairing: p.ID, Players: slices.Clone(p.Players), State: Awaiting}
			for _, id := range p.Players {
				tv.Names = append(tv.Names, names[id])
			}
			if tr := r.results[p.Table]; tr != nil {
				switch {
				case tr.corrected != nil:
					tv.State = Corrected
				case tr.signed != nil:
					tv.State = Signed
				case tr.refused:
					tv.State = Refused
				}
				tv.Seats = slices.Clone(tr.counted())
				if tr.signed != nil {
					s := *tr.signed
					tv.Signed = &s
				}
			}
			rv.Results = append(rv.Results, tv)
		}
		v.Paired = append(v.Paired, rv)
	}
	if cur := t.current(); cur != nil {
		v.Clock = Clock{Round: cur.Number, Minutes: t.cfg.RoundMinutes}
		if !cur.start.IsZero() {
			s := cur.start
			e := s.Add(time.Duration(cur.minutes) * time.Minute)
			v.Clock.Start, v.Clock.Ends, v.Clock.Minutes = &s, &e, cur.minutes
		}
	}
	return v
}

// Standings are the standings now.
func (t *Tournament) Standings() []Standing {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.standings()
}

// Refusals are the results refused so far, oldest first.
func (t *Tournament) Refusals() []Refusal {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.refusals)
}
