package tournament

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
)

// MaxRefusalsKept is how many different refused messages of one table
// a round keeps; more are refused and logged only.
const MaxRefusalsKept = 50

// SubmitResult takes a table's result message (as retained on
// sztab/v1/<venue>/<table>/result) for the current round. It counts only
// when all hold:
//   - table is one of Config.Tables and is paired in the current round;
//   - the message is signed, and the signature verifies with that
//     table's key (not another table's);
//   - the statement is a finished game of this tournament's venue and
//     game, from that table, with the seats' outcomes (v2), one seat per
//     player of the pairing (seat i is the pairing's player i);
//   - a statement that names its round (v3: the round the venue told the
//     table, wire.PairingMessage) names the current one;
//   - a statement without a round (v2) comes from a table whose earlier
//     rounds all have its signed result: when one has none (the organiser
//     entered it from the paper card, or forced the next round without
//     it), a late result from that round could not be told from this
//     round's, and the organiser corrects the round it belongs to;
//   - the table has no other result for the round.
//
// Anything else is a *Refusal, kept (Refusals; once per distinct
// message) and logged; nothing in the standings changes. The same result
// again (a retained message delivered twice, even rounds later) is
// accepted once: the second time Result.Duplicate is set and nothing is
// written.
func (t *Tournament) SubmitResult(ctx context.Context, table string, m wire.ResultMessage) (Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	res, refused := t.check(table, m)
	if refused == nil {
		if res.Duplicate {
			return res, nil
		}
		d := resultData{Result: res, Statement: m.Statement, Signature: m.Signature}
		if err := t.write(ctx, kindResult, "table "+table, "", d); err != nil {
			return Result{}, err
		}
		res.At = t.current().results[table].signed.At
		t.log.Info("tournament: result accepted", "round", res.Round, "table", table, "key", res.Key)
		return res, nil
	}
	reason, round := refused.text, refused.round
	if cur := t.current(); cur != nil && round == 0 {
		round = cur.Number
	}
	h := sha256.Sum256([]byte(table + "\x00" + m.Statement + "\x00" + m.Signature + "\x00" + reason))
	ref := &Refusal{Table: clip(table), Round: round, Reason: reason, Key: clip(m.Key), Hash: hex.EncodeToString(h[:12])}
	t.log.Warn("tournament: result refused", "round", round, "table", ref.Table, "reason", reason)
	if i := slices.IndexFunc(t.refusals, func(r Refusal) bool { return r.Hash == ref.Hash && r.Round == round }); i >= 0 {
		r := t.refusals[i]
		return Result{}, &r
	}
	n := 0
	for _, r := range t.refusals {
		if r.Table == ref.Table && r.Round == round {
			n++
		}
	}
	if n >= MaxRefusalsKept {
		// A table sending ever other bad results: logged, not stored.
		ref.At = t.now().UTC()
		return Result{}, ref
	}
	if err := t.write(ctx, kindRefused, "table "+table, "", ref); err != nil {
		return Result{}, err
	}
	r := t.refusals[len(t.refusals)-1]
	return Result{}, &r
}

// refusal is why a result is refused and the round it is about (0: the
// current one).
type refusal struct {
	text  string
	round int
}

func refuse(format string, args ...any) *refusal {
	return &refusal{text: fmt.Sprintf(format, args...)}
}

// check is SubmitResult's decision: the result, or why it is refused.
func (t *Tournament) check(table string, m wire.ResultMessage) (Result, *refusal) {
	pub, ok := t.keys[table]
	if !ok {
		return Result{}, refuse("table %q is not a table of this tournament", clip(table))
	}
	if strings.TrimSpace(m.Statement) == "" {
		return Result{}, refuse("the message has no statement")
	}
	if m.Signature == "" {
		return Result{}, refuse("unsigned: a result counts only with the table's signature (set the table's key, sztab keygen)")
	}
	st, err := record.VerifyStatement([]byte(m.Statement), []byte(m.Signature), pub)
	if errors.Is(err, record.ErrBadSignature) {
		for _, tb := range t.cfg.Tables {
			if tb.ID == table {
				continue
			}
			if _, e := record.VerifyStatement([]byte(m.Statement), []byte(m.Signature), t.keys[tb.ID]); e == nil {
				return Result{}, refuse("signed with the key of table %s (%s), not table %s's (%s)", tb.ID, record.Fingerprint(t.keys[tb.ID]), table, record.Fingerprint(pub))
			}
		}
		return Result{}, refuse("the signature does not verify with table %s's key %s: the statement was changed after signing, or an unknown key signed it", table, record.Fingerprint(pub))
	}
	if err != nil {
		return Result{}, &refusal{text: err.Error()}
	}
	switch {
	case st.Venue != t.cfg.Venue:
		return Result{}, refuse("a statement for venue %q, this tournament is at %q", clip(st.Venue), t.cfg.Venue)
	case st.Game != t.cfg.Game:
		return Result{}, refuse("a statement of game %q, this tournament plays %q", clip(st.Game), t.cfg.Game)
	case st.Table != table:
		return Result{}, refuse("the statement is table %q's, sent as table %q", clip(st.Table), table)
	case !st.Finished:
		return Result{}, refuse("the game is not finished")
	case st.Seats == nil:
		return Result{}, refuse("a v1 statement without the seats' outcomes: the table's software is older than the venue")
	}
	fp := record.Fingerprint(pub)
	// The same game again, in any round: accepted once.
	for _, r := range t.rounds {
		if tr := r.results[table]; tr != nil && tr.signed != nil && tr.signed.FinalHash == st.FinalHash && slices.Equal(tr.signed.Seats, st.Seats) {
			d := *tr.signed
			d.Duplicate = true
			return d, nil
		}
	}
	cur := t.current()
	if cur == nil {
		return Result{}, refuse("no round is paired yet")
	}
	if r := t.checkRound(table, st.Round, cur); r != nil {
		return Result{}, r
	}
	p, ok := cur.pairing(table)
	if !ok {
		return Result{}, refuse("table %s is not paired in round %d", table, cur.Number)
	}
	if err := checkSeats(st.Seats, len(p.Players)); err != nil {
		return Result{}, &refusal{text: err.Error()}
	}
	if tr := cur.results[table]; tr != nil && (tr.signed != nil || tr.corrected != nil) {
		return Result{}, refuse("table %s already has a result for round %d; a different one is not taken (the organiser corrects results)", table, cur.Number)
	}
	return Result{Round: cur.Number, Table: table, Players: slices.Clone(p.Players), Seats: st.Seats, Text: st.Result, Key: fp, FinalHash: st.FinalHash}, nil
}

// checkRound is the round check of a result of table whose statement
// names round (0: a v2 statement, which names none), cur being played.
//
// A table names the round it heard from the venue while its game was on
// (wire.PairingMessage): a v3 result for an earlier round is the table
// catching up after being away, and counts nowhere by itself (the round
// it was played in is over, by the organiser's correction or a forced
// pairing); one for a later round is a table that heard a pairing this
// tournament does not have (another venue process, a restored database).
// A v2 result cannot say which round it is for: it counts in the current
// round only when the table has a signed result in every earlier round it
// was paired in, so that no late one is still outstanding.
func (t *Tournament) checkRound(table string, round int, cur *roundState) *refusal {
	if round > 0 {
		if round == cur.Number {
			return nil
		}
		r := &refusal{text: fmt.Sprintf("a result for round %d; round %d is being played", round, cur.Number)}
		if round > cur.Number {
			r.text += fmt.Sprintf(" (round %d is not paired here: is the table on another venue's broker?)", round)
			return r
		}
		r.round = round
		earlier := t.rounds[round-1]
		if _, ok := earlier.pairing(table); !ok {
			r.text += fmt.Sprintf("; table %s was not paired in round %d", table, round)
			return r
		}
		switch tr := earlier.results[table]; {
		case tr != nil && tr.corrected != nil:
			r.text += fmt.Sprintf("; round %d's result of table %s was entered by the organiser; this late signed result is not counted: correct round %d if it should count", round, table, round)
		case tr != nil && tr.signed != nil:
			r.text += fmt.Sprintf("; table %s has another signed result for round %d, which counts", table, round)
		default:
			r.text += fmt.Sprintf("; round %d has no result of table %s (round %d was paired without it); this late signed result is not counted: correct round %d if it should count", round, table, cur.Number, round)
		}
		return r
	}
	for _, r := range t.rounds[:cur.Number-1] {
		if _, ok := r.pairing(table); !ok {
			continue
		}
		tr := r.results[table]
		if tr != nil && tr.signed != nil {
			continue
		}
		how := "has no result (the next round was paired without it)"
		if tr != nil && tr.corrected != nil {
			how = "was entered by the organiser"
		}
		return refuse("a result without a round (a v2 statement from the table), and round %d's result of table %s %s: cannot tell which round this result is for; the organiser corrects the round it belongs to", r.Number, table, how)
	}
	return nil
}

// checkSeats checks a result's seats against a table of n players.
func checkSeats(seats []record.Seat, n int) error {
	if len(seats) != n {
		return fmt.Errorf("%d seats in the result, the pairing has %d players", len(seats), n)
	}
	seen := make([]bool, n+1)
	for i, s := range seats {
		if s.Seat < 1 || s.Seat > n {
			return fmt.Errorf("seat %d (entry %d): the table has seats 1 to %d", s.Seat, i+1, n)
		}
		if seen[s.Seat] {
			return fmt.Errorf("seat %d twice", s.Seat)
		}
		seen[s.Seat] = true
		if s.Outcome != record.Win && s.Outcome != record.Draw && s.Outcome != record.Loss {
			return fmt.Errorf("seat %d: outcome %q, want win, draw or loss", s.Seat, clip(s.Outcome))
		}
		if s.Score < -1000000 || s.Score > 1000000 {
			return fmt.Errorf("seat %d: score %d out of range", s.Seat, s.Score)
		}
	}
	return nil
}

// Correct sets a table's result for a round (seat i is the pairing's
// player i), over whatever the table signed or an earlier correction;
// the original stays in the store and the audit trail. by and why are
// required.
func (t *Tournament) Correct(ctx context.Context, round int, table string, seats []record.Seat, by, why string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if strings.TrimSpace(by) == "" || strings.TrimSpace(why) == "" {
		return fmt.Errorf("tournament: correct round %d table %s: a correction needs who and why, for the audit trail", round, table)
	}
	if round < 1 || round > len(t.rounds) {
		return fmt.Errorf("tournament: correct round %d table %s: %d rounds are paired", round, table, len(t.rounds))
	}
	p, ok := t.rounds[round-1].pairing(table)
	if !ok {
		return fmt.Errorf("tournament: correct round %d table %s: the table is not paired in that round", round, table)
	}
	seats = slices.Clone(seats)
	slices.SortFunc(seats, func(a, b record.Seat) int { return a.Seat - b.Seat })
	if err := checkSeats(seats, len(p.Players)); err != nil {
		return fmt.Errorf("tournament: correct round %d table %s: %w", round, table, err)
	}
	if err := t.write(ctx, kindCorrect, by, why, correctData{Round: round, Table: table, Seats: seats}); err != nil {
		return err
	}
	t.log.Info("tournament: result corrected", "round", round, "table", table, "by", by, "why", why)
	return nil
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
