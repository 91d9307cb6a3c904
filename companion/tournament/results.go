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
//   - table is one of Config.Tables;
//   - the message is signed, and the signature verifies with that
//     table's key (not another table's);
//   - the statement is a finished game of this tournament's venue and
//     game, from that table, with the seats' outcomes;
//   - the statement is bound to its pairing (record.Statement v4): it
//     names this tournament's id, and the id of the pairing this
//     tournament issued to that table in the current round, with that
//     round and that pairing's players, seat by seat; one seat per
//     player (seat i is the pairing's player i);
//   - the table has no other result for that pairing.
//
// A statement without a pairing (v1 to v3: made before the table heard
// the pairing, a game played outside the tournament, older software),
// of another tournament, of a pairing never issued or issued to another
// table, for another round or naming other players is refused; so is a
// late result for an earlier round's pairing (the organiser corrects that
// round). Each is a *Refusal, kept (Refusals; once per distinct message,
// at most MaxRefusalsKept a table and round) and logged; nothing in the
// standings changes. A result for a table not in Config.Tables is refused
// and not kept (anyone may publish on a broker without logins: such
// refusals would grow without bound; the venue keeps a bounded list). The
// same result again (a retained message delivered twice, even rounds
// later) is accepted once: the second time Result.Duplicate is set and
// nothing is written.
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
		res.At = t.rounds[res.Round-1].results[table].signed.At
		t.log.Info("tournament: result accepted", "round", res.Round, "table", table, "key", res.Key, "pairing", res.Pairing)
		return res, nil
	}
	reason, round := refused.text, refused.round
	if cur := t.current(); cur != nil && round == 0 {
		round = cur.Number
	}
	h := sha256.Sum256([]byte(table + "\x00" + m.Statement + "\x00" + m.Signature + "\x00" + reason))
	ref := &Refusal{Table: clip(table), Round: round, Reason: reason, ReasonPL: refused.pl, Key: clip(m.Key), Hash: hex.EncodeToString(h[:12])}
	t.log.Warn("tournament: result refused", "round", round, "table", ref.Table, "reason", reason, "reason_pl", refused.pl)
	if refused.unknown {
		ref.At = t.now().UTC()
		return Result{}, ref
	}
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

// refusal is why a result is refused (text in English, pl in Polish where
// there is one) and the round it is about (0: the current one); unknown
// is a table not of this tournament (not kept).
type refusal struct {
	text, pl string
	round    int
	unknown  bool
}

func refuse(format string, args ...any) *refusal {
	return &refusal{text: fmt.Sprintf(format, args...)}
}

// refuse2 is a refusal in Polish and English (the same arguments).
func refuse2(pl, en string, args ...any) *refusal {
	return &refusal{text: fmt.Sprintf(en, args...), pl: fmt.Sprintf(pl, args...)}
}

// check is SubmitResult's decision: the result, or why it is refused.
func (t *Tournament) check(table string, m wire.ResultMessage) (Result, *refusal) {
	pub, ok := t.keys[table]
	if !ok {
		r := refuse2("stół %q nie jest stołem tego turnieju", "table %q is not a table of this tournament", clip(table))
		r.unknown = true
		return Result{}, r
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
		r := &refusal{text: err.Error()}
		var pl interface{ Polish() string }
		if errors.As(err, &pl) {
			r.pl = pl.Polish() // a newer statement: the release that reads it
		}
		return Result{}, r
	}
	switch {
	case st.Venue != t.cfg.Venue:
		return Result{}, refuse("a statement for venue %q, this tournament is at %q", clip(st.Venue), t.cfg.Venue)
	case st.Game != t.cfg.TableGame(table):
		return Result{}, refuse("a statement of game %q, table %s plays %q", clip(st.Game), table, t.cfg.TableGame(table))
	case st.Table != table:
		return Result{}, refuse("the statement is table %q's, sent as table %q", clip(st.Table), table)
	case !st.Finished:
		return Result{}, refuse("the game is not finished")
	case st.Seats == nil:
		return Result{}, refuse("a v1 statement without the seats' outcomes: the table's software is older than the venue")
	case st.Pairing == "":
		return Result{}, refuse2("wynik nie wskazuje parowania (v%d): gra rozegrana, zanim stół usłyszał parowanie tej rundy, poza turniejem albo starszym programem; nie liczy się: organizator wpisuje wynik",
			"the result names no pairing (v%d): a game played before the table heard this round's pairing, outside the tournament, or by older software; it does not count: the organiser enters the result", version(st))
	case st.Tournament != t.id:
		return Result{}, refuse2("wynik innego turnieju (%s), to jest turniej %s", "a result of another tournament (%s), this one is %s", clip(st.Tournament), t.id)
	}
	at, p, ok := t.issued(st.Pairing)
	switch {
	case !ok:
		return Result{}, refuse2("parowanie %s nie zostało wydane przez ten turniej", "pairing %s was never issued by this tournament", clip(st.Pairing))
	case p.Table != table:
		return Result{}, refuse2("parowanie %s wydano stołowi %s, nie stołowi %s", "pairing %s was issued to table %s, not table %s", clip(st.Pairing), p.Table, table)
	case st.Round != at.Number:
		return Result{}, refuse2("wynik podaje rundę %d, a parowanie %s jest z rundy %d", "the result names round %d, pairing %s is round %d's", st.Round, clip(st.Pairing), at.Number)
	case !slices.Equal(st.Players, p.Players):
		return Result{}, refuse2("wynik podaje graczy %s, a parowanie stołu %s w rundzie %d to %s", "the result names players %s, table %s's pairing in round %d is %s",
			clipList(st.Players), table, at.Number, strings.Join(p.Players, ", "))
	}
	fp := record.Fingerprint(pub)
	// The same game again, in any round: accepted once.
	if tr := at.results[table]; tr != nil && tr.signed != nil && tr.signed.FinalHash == st.FinalHash && slices.Equal(tr.signed.Seats, st.Seats) {
		d := *tr.signed
		d.Duplicate = true
		return d, nil
	}
	if cur := t.current(); at != cur {
		return Result{}, late(table, at, cur)
	}
	if err := checkSeats(st.Seats, len(p.Players)); err != nil {
		return Result{}, &refusal{text: err.Error()}
	}
	if tr := at.results[table]; tr != nil && (tr.signed != nil || tr.corrected != nil) {
		return Result{}, refuse("table %s already has a result for round %d; a different one is not taken (the organiser corrects results)", table, at.Number)
	}
	return Result{Round: at.Number, Table: table, Players: slices.Clone(p.Players), Seats: st.Seats, Text: st.Result, Key: fp, FinalHash: st.FinalHash, Pairing: st.Pairing, SampleData: st.SampleData}, nil
}

// issued is the round and the pairing this tournament issued with id.
func (t *Tournament) issued(id string) (*roundState, Pairing, bool) {
	for _, r := range t.rounds {
		for _, p := range r.Tables {
			if p.ID != "" && p.ID == id {
				return r, p, true
			}
		}
	}
	return nil, Pairing{}, false
}

// version is a statement's version, for a refusal.
func version(st record.Statement) int {
	switch {
	case st.Pairing != "":
		return 4
	case st.Round > 0:
		return 3
	case st.Seats != nil:
		return 2
	}
	return 1
}

// late is the refusal of table's result for its pairing in round at, an
// earlier round than cur: the table catching up after being away. It
// counts nowhere by itself (the round it was played in is over, by the
// organiser's correction or a forced pairing); the organiser corrects
// that round if it should count.
func late(table string, at, cur *roundState) *refusal {
	round := at.Number
	r := &refusal{round: round,
		text: fmt.Sprintf("a result for round %d; round %d is being played", round, cur.Number),
		pl:   fmt.Sprintf("wynik rundy %d, a trwa runda %d", round, cur.Number)}
	switch tr := at.results[table]; {
	case tr != nil && tr.corrected != nil:
		r.text += fmt.Sprintf("; round %d's result of table %s was entered by the organiser; this late signed result is not counted: correct round %d if it should count", round, table, round)
		r.pl += fmt.Sprintf("; wynik rundy %d stołu %s wpisał organizator; ten spóźniony podpisany wynik się nie liczy: popraw rundę %d, jeśli ma się liczyć", round, table, round)
	case tr != nil && tr.signed != nil:
		r.text += fmt.Sprintf("; table %s has another signed result for round %d, which counts", table, round)
		r.pl += fmt.Sprintf("; stół %s ma inny podpisany wynik rundy %d, który się liczy", table, round)
	default:
		r.text += fmt.Sprintf("; round %d has no result of table %s (round %d was paired without it); this late signed result is not counted: correct round %d if it should count", round, table, cur.Number, round)
		r.pl += fmt.Sprintf("; runda %d nie ma wyniku stołu %s (rundę %d sparowano bez niego); ten spóźniony podpisany wynik się nie liczy: popraw rundę %d, jeśli ma się liczyć", round, table, cur.Number, round)
	}
	return r
}

func clipList(ss []string) string {
	if len(ss) > 8 {
		ss = ss[:8]
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clip(s)
	}
	return strings.Join(out, ", ")
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
