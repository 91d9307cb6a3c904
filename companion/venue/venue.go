// Package venue is the organiser's process for a tournament night: it
// follows every table of a venue on the venue broker (the wall of package
// hub: status, live headline), collects the tables' signed results into the
// tournament (rounds, pairings, standings: the Tournament it is given) and
// serves the organiser's pages beside the wall, behind the organiser's
// sign-in.
package venue

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
)

// Tournament is what the venue needs of the tournament core
// (companion/tournament, wired in by `sztab venue`): each call either
// changes the tournament or says why not, changing nothing.
type Tournament interface {
	// PairNext pairs the next round (refused while results are missing).
	PairNext(ctx context.Context) error
	// ForcePairNext pairs the next round although results are missing,
	// by the organiser, with the reason (in the audit trail).
	ForcePairNext(ctx context.Context, by, why string) error
	// ImportPairings reads a round's pairings (CSV) from the organiser's
	// pairing software.
	ImportPairings(ctx context.Context, round int, r io.Reader) error
	// SubmitResult counts a table's result, or refuses it (the refusal,
	// with its reason, is kept and shown by View).
	SubmitResult(ctx context.Context, table string, m wire.ResultMessage) error
	// Correct replaces a table's result in a round, by the organiser, with
	// the reason (kept in the audit trail with the original).
	Correct(ctx context.Context, round int, table string, seats []record.Seat, by, why string) error
	// StartRound starts a round's clock at at.
	StartRound(ctx context.Context, round int, at time.Time) error
	// WriteCSV writes "standings", "pairings" or "results".
	WriteCSV(w io.Writer, what string) error
	// View is everything the pages show.
	View() View
}

// View is the tournament as the organiser's page and the wall show it.
type View struct {
	// Tournament is the tournament's id, which the pairings carry to the
	// tables (wire.PairingMessage) and their results name.
	Tournament string `json:"tournament,omitempty"`
	// Tables are the tournament's tables: a result of any other table is
	// refused by the venue itself, kept in a bounded list (Dropped).
	Tables []string `json:"tables"`
	// Dropped counts the venue's own refusals dropped, oldest first, to
	// keep MaxRefusals.
	Dropped int    `json:"dropped,omitempty"`
	Name    string `json:"name"`
	Venue   string `json:"venue"`
	Game    string `json:"game"`
	// Rounds is how many rounds the tournament has; Round the current one
	// (0 before the first pairing).
	Rounds int    `json:"rounds"`
	Round  int    `json:"round"`
	Clock  *Clock `json:"clock,omitempty"`
	// Pairings are the rounds paired so far, the first first.
	Pairings  []Round     `json:"pairings"`
	Standings []Standing  `json:"standings"`
	Refusals  []Refusal   `json:"refusals"`
	Audit     []AuditNote `json:"audit"`
}

// Clock is the round clock: round Round started at Start, Minutes long.
type Clock struct {
	Round   int       `json:"round"`
	Start   time.Time `json:"start"`
	Minutes int       `json:"minutes"`
}

// Round is one round's pairings.
type Round struct {
	Number int       `json:"number"`
	Tables []Pairing `json:"tables"`
}

// Pairing is one table of a round: its players (seat 1 first) and its
// result's state: "awaiting", "signed", "corrected" or "refused".
type Pairing struct {
	Table   string   `json:"table"`
	Players []string `json:"players"`
	// ID is the pairing's id (random, issued by the tournament) and
	// PlayerIDs the players' ids, seat 1 first: both go to the table in
	// its pairing message, and its signed result must name them.
	ID        string        `json:"id,omitempty"`
	PlayerIDs []string      `json:"player_ids,omitempty"`
	Bye       bool          `json:"bye,omitempty"`
	State     string        `json:"state"`
	Seats     []record.Seat `json:"seats,omitempty"`
	// SampleData: the table signed its result as a game on sample data
	// (record.Statement v5): the pages mark it (wire.SampleDataText).
	SampleData bool `json:"sample_data,omitempty"`
}

// Standing is one player's line in the standings.
type Standing struct {
	Rank      int        `json:"rank"`
	Tie       bool       `json:"tie,omitempty"`
	Player    string     `json:"player"`
	Club      string     `json:"club,omitempty"`
	Points    float64    `json:"points"`
	Played    int        `json:"played"`
	TieBreaks []TieBreak `json:"tie_breaks,omitempty"`
	// SampleData counts the player's counted games played on sample data.
	SampleData int `json:"sample_data,omitempty"`
}

// TieBreak is one tie-break's value for a player.
type TieBreak struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Refusal is a result not counted, and why.
type Refusal struct {
	At     time.Time `json:"at"`
	Table  string    `json:"table"`
	Round  int       `json:"round,omitempty"`
	Reason string    `json:"reason"`
	// ReasonPL is the reason in Polish, where there is one.
	ReasonPL string `json:"reason_pl,omitempty"`
}

// AuditNote is one entry of the audit trail: who did what, when, why.
type AuditNote struct {
	At   time.Time `json:"at"`
	Who  string    `json:"who"`
	What string    `json:"what"`
	Why  string    `json:"why,omitempty"`
}

// Options configure a venue.
type Options struct {
	// Hub are the wall's options: broker, venue, listen address, log…
	// (Results, Login and Wrap are the venue's own).
	Hub        hub.Options
	Tournament Tournament
	// Organiser signs in on /login for the organiser's pages.
	Organiser display.Credential
	// MaxUpload bounds a pairing import (default 1 MiB).
	MaxUpload int64
	// Clock tells the time (the round clock's start, refusals); nil is
	// time.Now.
	Clock func() time.Time
	// Pairings, if set, publishes one retained message and waits for the
	// broker's acknowledgement: the venue tells each table its pairing
	// through it (wire.PairingMessage on the table's .../pairing), from a
	// goroutine of its own that Run starts, one message at a time. Nil:
	// through the wall's own connection (hub.Publish), whose every
	// (re)connect calls RepublishPairings; one login, one connection.
	Pairings func(topic string, payload []byte) error
}

// MaxRefusals bounds the refusals the venue keeps itself (results of
// tables the tournament does not have, unreadable messages, a table id
// claimed twice): anyone may publish on a broker without logins, so the
// oldest are dropped (View.Dropped counts them). They are never stored nor
// shown on the wall.
const MaxRefusals = 200

// MaxResultBytes bounds a result message read from the broker: a
// statement with eight seats is under 2 KiB.
const MaxResultBytes = 64 << 10

// Venue is the organiser's process.
type Venue struct {
	opts Options
	log  *slog.Logger
	hub  *hub.Hub
	// ctx is Run's, for the tournament calls made from the broker's
	// callbacks.
	ctx context.Context

	// mu guards the tournament calls (one at a time: an organiser's click
	// and a table's result do not interleave) and refusals.
	mu sync.Mutex
	// refusals are results refused before they reached the tournament
	// (unreadable, a table the tournament does not have, a table id
	// claimed twice), at most MaxRefusals; dropped counts those dropped.
	refusals []Refusal
	dropped  int
	// known are the tournament's tables (View.Tables).
	known map[string]bool
	// held are results of tables two daemons are online as, by table (the
	// latest), until the hub can tell a restart from a conflict.
	held map[string][]byte

	// pairMu guards the pairing messages: pairWant is what each table's
	// pairing topic should hold (an empty payload clears it), pairSent
	// what the broker acknowledged since the last (re)connect; pairKick
	// wakes the publishing goroutine.
	pairMu   sync.Mutex
	pairWant map[string][]byte
	pairSent map[string][]byte
	pairGen  int // counts RepublishPairings
	pairKick chan struct{}
}

// New checks the options and returns a venue; Run starts it.
func New(o Options) (*Venue, error) {
	if o.Tournament == nil {
		return nil, errors.New("venue: no tournament")
	}
	if o.Organiser.User == "" || o.Organiser.Password == "" {
		return nil, errors.New("venue: the organiser's user name and password are required (the organiser's page is not served without a sign-in)")
	}
	if o.MaxUpload <= 0 {
		o.MaxUpload = 1 << 20
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Hub.Log == nil {
		o.Hub.Log = slog.Default()
	}
	v := &Venue{opts: o, log: o.Hub.Log, ctx: context.Background(),
		held: map[string][]byte{}, pairWant: map[string][]byte{}, pairSent: map[string][]byte{}, pairKick: make(chan struct{}, 1)}
	ho := o.Hub
	ho.Results = v.result
	ho.Login = o.Organiser
	ho.Wrap = v.wrap
	ho.OtherContract = v.otherContract
	if o.Pairings == nil {
		ho.Connected = v.RepublishPairings
	}
	h, err := hub.New(ho)
	if err != nil {
		return nil, fmt.Errorf("venue: %w", err)
	}
	v.hub = h
	if o.Pairings == nil {
		v.opts.Pairings = h.Publish
	}
	v.known = map[string]bool{}
	for _, tb := range o.Tournament.View().Tables {
		v.known[tb] = true
	}
	v.refresh()
	return v, nil
}

// Addr is the pages' address once Run listens.
func (v *Venue) Addr() string { return v.hub.Addr() }

// Hub is the venue's wall.
func (v *Venue) Hub() *hub.Hub { return v.hub }

// Run serves the wall and the organiser's pages and follows the venue
// until ctx ends.
func (v *Venue) Run(ctx context.Context) error {
	v.mu.Lock()
	v.ctx = ctx
	v.mu.Unlock()
	if v.opts.Pairings != nil {
		done := make(chan struct{})
		defer func() { <-done }()
		go func() { defer close(done); v.publishPairings(ctx) }()
	}
	return v.hub.Run(ctx)
}

// result takes a table's result message from the broker.
func (v *Venue) result(table string, payload []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.known[table] {
		// Anyone may publish on a broker without logins: a result of a
		// made-up table goes no further than the bounded list.
		v.refuseText(table, fmt.Sprintf("stół %q nie jest stołem tego turnieju", clip(table)),
			fmt.Sprintf("venue: result not counted: table %q is not a table of this tournament", clip(table)))
		return
	}
	m, err := ParseResult(payload)
	if err != nil {
		v.refuse(table, err.Error())
		return
	}
	if conflict, why := v.hub.Conflict(table); conflict {
		v.refuse(table, "venue: result not counted: "+why)
		return
	}
	if v.hub.Contested(table) {
		v.hold(table, payload)
		return
	}
	if err := v.opts.Tournament.SubmitResult(v.ctx, table, m); err != nil {
		// The tournament keeps the refusal (View.Refusals), with its
		// reason in Polish where it has one.
		var pl interface{ Polish() string }
		if errors.As(err, &pl) {
			v.log.Warn("venue: result refused", "table", clip(table), "reason", err.Error(), "reason_pl", pl.Polish())
		} else {
			v.log.Warn("venue: result refused", "table", clip(table), "reason", err.Error())
		}
	} else {
		v.log.Info("venue: result counted", "table", table)
	}
	v.refreshLocked()
}

// otherContract keeps a result published under another wire contract (a
// newer release's table) as a refusal that says which release reads it;
// the wall shows the table's contract itself (hub.Wall.Unreadable).
func (v *Venue) otherContract(topic string, e *wire.ErrOtherVersion) {
	parts := strings.SplitN(topic, "/", 5) // sztab/{version}/{venue}/{table}/{suffix}
	if len(parts) < 5 || parts[4] != "result" {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.refuseText(parts[3], "wynik nie liczy się: "+e.Polish(), "venue: result not counted: "+e.English())
	v.refreshLocked()
}

// hold keeps the result of a table two daemons are online as (v.mu held):
// a restarted table whose old connection's will has not come yet, or two
// daemons claiming one id. It is taken again once the hub's grace is over:
// counted if one daemon is left, refused if it is the conflict.
func (v *Venue) hold(table string, payload []byte) {
	_, waiting := v.held[table]
	v.held[table] = payload
	v.log.Info("venue: result held: two daemons are online as the table; decided when the hub can tell a restart from a conflict", "table", table)
	if waiting {
		return
	}
	time.AfterFunc(v.hub.ConflictGrace()+100*time.Millisecond, func() {
		v.mu.Lock()
		p := v.held[table]
		delete(v.held, table)
		v.mu.Unlock()
		if v.ctx.Err() == nil {
			v.result(table, p)
		}
	})
}

// ParseResult reads a table's result message (wire.ResultMessage).
func ParseResult(payload []byte) (wire.ResultMessage, error) {
	var m wire.ResultMessage
	if len(payload) > MaxResultBytes {
		return m, fmt.Errorf("venue: result: %d bytes, more than %d", len(payload), MaxResultBytes)
	}
	if err := json.Unmarshal(payload, &m); err != nil {
		return m, fmt.Errorf("venue: result: not a result message: %w", err)
	}
	if m.Statement == "" {
		return m, errors.New("venue: result: no statement")
	}
	return m, nil
}

// refuse keeps a refusal the tournament never saw (v.mu held); the same
// refusal of a table again (a retained message delivered after a
// reconnect) is kept once.
func (v *Venue) refuse(table, reason string) { v.refuseText(table, "", reason) }

// refuseText is refuse with the reason in Polish too. At most MaxRefusals
// are kept, the oldest dropped and counted; once they are being dropped
// (a flood), one in a hundred is logged, with the count.
func (v *Venue) refuseText(table, pl, reason string) {
	table = clip(table)
	for _, r := range v.refusals {
		if r.Table == table && r.Reason == reason {
			return
		}
	}
	if v.dropped == 0 || v.dropped%100 == 0 {
		v.log.Warn("venue: result refused", "table", table, "reason", reason, "reason_pl", pl, "dropped", v.dropped)
	}
	v.refusals = append(v.refusals, Refusal{At: v.opts.Clock().UTC(), Table: table, Reason: reason, ReasonPL: pl})
	if n := len(v.refusals) - MaxRefusals; n > 0 {
		v.dropped += n
		v.refusals = slices.Delete(v.refusals, 0, n)
	}
}

// view is the tournament's view with the venue's own refusals (v.mu held).
func (v *Venue) view() View {
	vw := v.opts.Tournament.View()
	vw.Refusals = append(append([]Refusal{}, vw.Refusals...), v.refusals...)
	vw.Dropped = v.dropped
	return vw
}

func (v *Venue) refresh() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.refreshLocked()
}

// refreshLocked puts the standings and the clock on the wall (v.mu held).
func (v *Venue) refreshLocked() {
	vw := v.opts.Tournament.View()
	b := &hub.Board{Title: vw.Name, Round: vw.Round, Rounds: vw.Rounds, Standings: []hub.Standing{}}
	if vw.Clock != nil {
		b.Clock = &hub.Clock{Round: vw.Clock.Round, Start: vw.Clock.Start, Minutes: vw.Clock.Minutes}
	}
	for _, s := range vw.Standings {
		st := hub.Standing{Rank: s.Rank, Tie: s.Tie, Name: s.Player, Club: s.Club, Points: s.Points, Played: s.Played}
		if s.SampleData > 0 {
			text := wire.SampleDataText
			st.SampleData = &text
		}
		b.Standings = append(b.Standings, st)
	}
	v.hub.SetBoard(b)
	v.wantPairings(vw)
}

// wantPairings works out each table's pairing message from the view: the
// tables of the current round get theirs, every other table that was
// paired in an earlier round gets its topic cleared (it is not paired
// now); a change wakes the publisher.
//
// A table's message names the earlier rounds it has no result in (Missing:
// the next round was forced without it): a table that was away then
// cannot tell whether its game is that round's, and names no round.
func (v *Venue) wantPairings(vw View) {
	want := map[string][]byte{}
	missing := map[string][]int{}
	for _, r := range vw.Pairings {
		for _, p := range r.Tables {
			if p.Bye || p.Table == "" {
				continue
			}
			topic := wire.TopicsFor(v.opts.Hub.Venue, p.Table).Pairing
			if r.Number != vw.Round {
				if _, ok := want[topic]; !ok {
					want[topic] = []byte{}
				}
				if r.Number < vw.Round && p.State != wire.PairingSigned && p.State != wire.PairingCorrected {
					missing[p.Table] = append(missing[p.Table], r.Number)
				}
				continue
			}
			m := wire.PairingMessage{Venue: v.opts.Hub.Venue, Table: p.Table, Round: r.Number,
				Players: p.Players, Result: p.State, Missing: missing[p.Table]}
			if p.ID != "" && vw.Tournament != "" && len(p.PlayerIDs) == len(p.Players) {
				m.Tournament, m.Pairing, m.PlayerIDs = vw.Tournament, p.ID, p.PlayerIDs
			}
			want[topic], _ = json.Marshal(m)
		}
	}
	v.pairMu.Lock()
	defer v.pairMu.Unlock()
	changed := len(want) != len(v.pairWant)
	for topic, b := range want {
		if old, ok := v.pairWant[topic]; !ok || !bytes.Equal(old, b) {
			changed = true
		}
	}
	if !changed {
		return
	}
	v.pairWant = want
	v.kickPairings()
}

// RepublishPairings publishes every table's pairing again: the broker may
// have lost its retained messages (a restart without persistence, another
// node of a cluster). The pairing connection's OnConnect calls it.
func (v *Venue) RepublishPairings() {
	v.pairMu.Lock()
	defer v.pairMu.Unlock()
	v.pairSent = map[string][]byte{}
	v.pairGen++
	v.kickPairings()
}

func (v *Venue) kickPairings() {
	select {
	case v.pairKick <- struct{}{}:
	default:
	}
}

// publishPairings sends what the tables' pairing topics should hold and
// the broker has not acknowledged, in topic order, until ctx ends; a
// publication that fails is logged and tried again a second later.
func (v *Venue) publishPairings(ctx context.Context) {
	retry := time.NewTimer(time.Hour)
	retry.Stop()
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-v.pairKick:
		case <-retry.C:
		}
		v.pairMu.Lock()
		var topics []string
		for topic, b := range v.pairWant {
			if sent, ok := v.pairSent[topic]; !ok || !bytes.Equal(sent, b) {
				topics = append(topics, topic)
			}
		}
		v.pairMu.Unlock()
		slices.Sort(topics)
		failed := false
		for _, topic := range topics {
			v.pairMu.Lock()
			b, ok := v.pairWant[topic]
			gen := v.pairGen
			v.pairMu.Unlock()
			if !ok {
				continue
			}
			if err := v.opts.Pairings(topic, b); err != nil {
				v.log.Warn("venue: a table's pairing is not published yet; trying again", "topic", topic, "err", err)
				failed = true
				break
			}
			v.log.Info("venue: pairing published", "topic", topic, "pairing", string(b))
			v.pairMu.Lock()
			if gen == v.pairGen {
				// Not when a reconnect came meanwhile: then it goes again.
				v.pairSent[topic] = b
			}
			v.pairMu.Unlock()
		}
		if failed && ctx.Err() == nil {
			retry.Reset(time.Second)
		}
	}
}
