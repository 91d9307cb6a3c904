package bitwa

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/rules"
)

// military returns a 2-player game in round 1's military stage with
// Marysia (WP, seat 1) to act and her hand set to cards.
func military(t *testing.T, o Options, hand ...string) State {
	t.Helper()
	s := newGame(t, 2, 1, o)
	s = must(t, s, Blockade{Seat: 1, Marker: "blockade-wp", Place: BlockOrderField, Front: South})
	s = must(t, s, Blockade{Seat: 2, Marker: "blockade-acz", Place: BlockOrderField, Front: South})
	s = must(t, s, Roll{Seat: 1, Dice: []int{6, 2}})
	s = must(t, s, Roll{Seat: 1, Dice: []int{2}})
	if s.Stage != StageMilitary || s.Active != 1 {
		t.Fatalf("not in the military stage with seat 1 to act: %s %d", s.Stage, s.Active)
	}
	s.Player(1).Hand = append([]string{}, hand...)
	return s
}

// clearBoard empties the fronts into the reserves.
func clearBoard(s *State) {
	for i := range s.Armies {
		for f := range s.Armies[i].Fronts {
			s.Armies[i].Reserve += s.Armies[i].Fronts[f].First + s.Armies[i].Fronts[f].Second
			s.Armies[i].Fronts[f] = Line{}
		}
	}
}

// Przykład: liczenie siły Armii. Marysia (WP) on the Central Front has 3
// units on the 2nd line and 1 on the 1st: 5. Janek (ACz) 2 and 1: 4. WP
// wins, moves the advantage marker; both lose their 1st lines.
func TestExampleArmyStrength(t *testing.T) {
	s := military(t, Options{}, "1-dp")
	clearBoard(&s)
	wp, acz := s.Army(WP), s.Army(ACz)
	wp.Fronts[1], acz.Fronts[1] = Line{First: 1, Second: 3}, Line{First: 1, Second: 2}
	wp.Reserve, acz.Reserve = 17, 18
	if got := s.Strength(WP, Central); got != 5 {
		t.Errorf("WP strength %d, want 5", got)
	}
	if got := s.Strength(ACz, Central); got != 4 {
		t.Errorf("ACz strength %d, want 4", got)
	}
	s.Player(2).Hand = nil
	s = must(t, s, Pass{Seat: 1}) // Janek has no cards: the battle stage follows
	if s.Round != 2 {
		t.Fatalf("round %d, want 2", s.Round)
	}
	// One battle won (+1) on the bonus front (die 2: Central, +1).
	if s.Army(WP).VP != 2 || s.Army(ACz).VP != 0 {
		t.Errorf("VP %d:%d, want 2:0", s.Army(WP).VP, s.Army(ACz).VP)
	}
	if l := s.Army(WP).Fronts[1]; l.First != 0 || l.Second != 3 {
		t.Errorf("WP central after the losses %+v, want 0/3", l)
	}
	if l := s.Army(ACz).Fronts[1]; l.First != 0 || l.Second != 2 {
		t.Errorf("ACz central after the losses %+v, want 0/2", l)
	}
}

// Przykład: limit Oddziałów i odrzucenie karty Dowódcy. Galica (limit 6)
// with 6 units on the 2nd line, replaced by Haller (limit 4): two go back.
func TestExampleGalicaReplacedByHaller(t *testing.T) {
	s := military(t, Options{}, "galica", "haller")
	s = must(t, s, PlayCard{Seat: 1, Card: "galica", Front: Central, Choice: 0})
	if s.Limit(WP, Central) != 6 {
		t.Fatalf("limit %d, want 6", s.Limit(WP, Central))
	}
	s.Army(WP).Fronts[1].Second = 6
	s.Army(WP).Reserve -= 5
	s = must(t, s, Pass{Seat: 2})
	reserve := s.Army(WP).Reserve
	next, evs, err := Apply(s, PlayCard{Seat: 1, Card: "haller", Front: Central, Choice: 0})
	if err != nil {
		t.Fatal(err)
	}
	if got := next.Army(WP).Fronts[1].Second; got != 4 {
		t.Errorf("2nd line %d, want 4", got)
	}
	if got := next.Army(WP).Reserve - reserve; got != 2 {
		t.Errorf("%d units back to the reserve, want 2", got)
	}
	if !hasEvent(evs, "over_limit") || !hasEvent(evs, "commander_replaced") {
		t.Errorf("events %v", types(evs))
	}
	if !contains(next.Army(WP).Discard, "galica") {
		t.Errorf("galica not discarded")
	}
}

// Przykład: dokładanie i ruch Oddziałami (3 players). Marysia (WP) won the
// supply card and turns its 4 to her army; Janek (ACz, initiative) adds
// one unit to the N and C 2nd lines; Marysia adds 1 to C, moves 1 S→C and
// 2 from C's 2nd to its 1st line; Zuzia does nothing.
func TestExampleThreePlayerSupply(t *testing.T) {
	s := newGame(t, 3, 5, Options{})
	s = must(t, s, Blockade{Seat: 1, Marker: "blockade-wp", Place: BlockOrderField, Front: South})
	s = must(t, s, Blockade{Seat: 2, Marker: "blockade-acz", Place: BlockOrderField, Front: North})
	s = must(t, s, Roll{Seat: 1, Dice: []int{2, 6, 4}}) // Janek token 1, Zuzia 2, Marysia 3
	if s.Player(2).Token != 1 || s.Player(3).Token != 2 || s.Player(1).Token != 3 {
		t.Fatalf("tokens %d %d %d", s.Player(1).Token, s.Player(2).Token, s.Player(3).Token)
	}
	if len(s.Player(2).Hand) != 6 || len(s.Player(1).Hand) != 3 || len(s.Player(3).Hand) != 3 {
		t.Errorf("hands %d %d %d, want 3 6 3", len(s.Player(1).Hand), len(s.Player(2).Hand), len(s.Player(3).Hand))
	}
	// Jump to the end of round 1 with the supply card won by WP.
	s = must(t, s, Roll{Seat: 1, Dice: []int{1}})
	s = must(t, s, Fight{Seat: 2, Card: s.Player(2).Hand[0], Resource: ResFunds})
	s = must(t, s, Fight{Seat: 3, Card: s.Player(3).Hand[0], Resource: ResSupply})
	for _, seat := range []int{1, 2, 3} {
		if seat != s.Active {
			s.Player(seat).Hand = nil
		}
	}
	s = must(t, s, Pass{Seat: s.Active})
	if s.Round != 2 || s.Pending == nil {
		t.Fatalf("round %d pending %+v", s.Round, s.Pending)
	}
	s = must(t, s, Roll{Seat: 2, Dice: []int{3}})
	// ACz won the funds: Janek turns the initiative face to himself, hands
	// out the tokens, and, alone, draws up to the sum 3+3.
	if s.Pending.Kind != DecideTurnCard || s.Pending.Resource != ResFunds || s.Pending.Army != ACz {
		t.Fatalf("pending %+v, want the funds face for ACz", s.Pending)
	}
	s = must(t, s, TurnCard{Seat: 2, Face: 0})
	s = must(t, s, AssignInitiative{Seat: 2, Order: []int{2, 3, 1}})
	if s.Player(2).Limit != 6 || s.Player(1).Limit+s.Player(3).Limit != 7 {
		t.Errorf("limits %d %d %d, want ACz 6 and WP 4+3", s.Player(1).Limit, s.Player(2).Limit, s.Player(3).Limit)
	}
	if s.Pending == nil || s.Pending.Kind != DecideTurnCard || s.Pending.Resource != ResSupply {
		t.Fatalf("pending %+v, want the supply face", s.Pending)
	}
	s = must(t, s, TurnCard{Seat: 1, Face: 0})
	if s.Pending.Kind != DecideSupply || s.Pending.Army != ACz || s.Pending.N != 2 {
		t.Fatalf("pending %+v, want ACz supply 2 first (initiative)", s.Pending)
	}
	s = must(t, s, Supply{Seat: 2, Add: []string{North, Central}})
	if s.Pending.Kind != DecideSupply || s.Pending.Army != WP || s.Pending.N != 4 {
		t.Fatalf("pending %+v, want WP supply 4", s.Pending)
	}
	before := s.Army(WP).Fronts
	// Zuzia does nothing: Marysia answers for the army.
	s = must(t, s, Supply{Seat: 1, Add: []string{Central}, Moves: []UnitMove{{From: "S2", To: "C2", N: 1}, {From: "C2", To: "C1", N: 2}}})
	after := s.Army(WP).Fronts
	if after[1].First != before[1].First+2 || after[1].Second != before[1].Second+1+1-2 || after[2].Second != before[2].Second-1 {
		t.Errorf("WP fronts %+v → %+v", before, after)
	}
	// Five actions are one too many.
	bad := Supply{Seat: 1, Add: []string{Central, Central}, Moves: []UnitMove{{From: "C2", To: "C1", N: 3}}}
	_ = bad
}

func hasEvent(evs []Event, typ string) bool {
	for _, e := range evs {
		if e.Type == typ {
			return true
		}
	}
	return false
}

func types(evs []Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// TestBadInput: typed refusals in Polish and English, the state unchanged.
func TestBadInput(t *testing.T) {
	base := military(t, Options{}, "galica", "haller", "1-dp", "do-broni")
	withBlock := base
	withBlock.Blockades = append([]Marker{}, Marker{Marker: "blockade-acz", Army: WP, Place: BlockOrderField, Front: North}, Marker{Marker: "blockade-wp", Army: ACz, Place: BlockLine2, Front: North})
	cases := []struct {
		name string
		s    State
		a    Action
		code string
	}{
		{"card not in hand", base, PlayCard{Seat: 1, Card: "pilsudski", Front: North}, "not_in_hand"},
		{"unknown card", base, PlayCard{Seat: 1, Card: "no-such-card", Front: North}, "unknown_card"},
		{"order on a blocked field", withBlock, PlayCard{Seat: 1, Card: "do-broni", Front: North}, "blocked_field"},
		{"effect out of range", base, PlayCard{Seat: 1, Card: "galica", Front: North, Choice: 5}, "out_of_range"},
		{"unknown front", base, PlayCard{Seat: 1, Card: "galica", Front: "X"}, "bad_front"},
		{"out of turn", base, Pass{Seat: 2}, "not_your_turn"},
		{"unknown seat", base, Pass{Seat: 9}, "unknown_seat"},
		{"activate without commander", base, Activate{Seat: 1, Card: "1-dp", Front: North}, "no_commander"},
		{"special blockade", base, Blockade{Seat: 1, Card: "1-dp", Marker: "blockade-special", Place: BlockLine1, Front: North}, "special_fixed"},
		{"unknown resource", base, Fight{Seat: 1, Card: "1-dp", Resource: "gold"}, "unknown_resource"},
		{"answer without a decision", base, Move{Seat: 1}, "no_decision"},
		{"roll out of range", func() State { s := base; s.Pending = &Pending{Kind: DecideRollBonus, Seat: 1}; return s }(), Roll{Seat: 1, Dice: []int{7}}, "out_of_range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { refused(t, c.s, c.a, c.code) })
	}
	// A unit move with no units, and between fronts under a 2nd-line blockade.
	s := must(t, base, PlayCard{Seat: 1, Card: "galica", Front: North, Choice: 1})
	if s.Pending == nil || s.Pending.Kind != DecideMove {
		t.Fatalf("pending %+v", s.Pending)
	}
	refused(t, s, Move{Seat: 1, Moves: []UnitMove{{From: "N1", To: "C1", N: 1}}}, "no_units")
	refused(t, s, Move{Seat: 1, Moves: []UnitMove{{From: "N2", To: "C2", N: 3}}}, "too_many")
	refused(t, s, Move{Seat: 1, Moves: []UnitMove{{From: "Z2", To: "C2", N: 1}}}, "bad_position")
	blocked := s
	blocked.Blockades = append(slices0(), Marker{Marker: "blockade-acz", Army: WP, Place: BlockLine2, Front: South})
	refused(t, blocked, Move{Seat: 1, Moves: []UnitMove{{From: "N2", To: "C2", N: 1}}}, "blocked_line2")
	// A commander over its 2nd-line limit: the standard 3 on a front without one.
	refused(t, s, Move{Seat: 1, Moves: []UnitMove{{From: "C2", To: "N2", N: 1}}}, "")
	s2 := must(t, s, Move{Seat: 1, Moves: []UnitMove{{From: "C2", To: "N2", N: 1}}})
	_ = s2
	over := s
	over.Army(WP).Fronts[0].Second = 4 // Galica's limit 6 on N
	over.Army(WP).Fronts[1].Second = 3
	over.Army(WP).Reserve -= 5
	refused(t, over, Move{Seat: 1, Moves: []UnitMove{{From: "N2", To: "C2", N: 1}}}, "over_limit")
	// The same commander twice in a round.
	s3 := must(t, s, Move{Seat: 1})
	s3 = must(t, s3, Pass{Seat: 2})
	refused(t, s3, Activate{Seat: 1, Card: "1-dp", Front: North, Choice: 0}, "used_twice")
	// Acting after passing.
	s4 := must(t, s3, Pass{Seat: 1})
	if s4.Phase == PhaseRound && s4.Stage == StageMilitary {
		refused(t, s4, Pass{Seat: 1}, "passed")
	}
}

func slices0() []Marker { return []Marker{} }

// refused applies a and wants a Rejection with code (any code when ""),
// PL and EN reasons, and s unchanged.
func refused(t *testing.T, s State, a Action, code string) {
	t.Helper()
	before, _ := json.Marshal(s)
	next, evs, err := Apply(s, a)
	if code == "" {
		if err == nil {
			return // accepted: this case only checks that nothing panics
		}
	}
	rej, ok := rules.AsRejection(err)
	if !ok {
		t.Fatalf("%s: got %v, want a rejection %s", a.Type(), err, code)
	}
	if code != "" && rej.Code != code {
		t.Errorf("%s: code %s (%s), want %s", a.Type(), rej.Code, rej.Reason.EN, code)
	}
	if rej.Reason.PL == "" || rej.Reason.EN == "" || rej.Reason.PL == rej.Reason.EN {
		t.Errorf("reason not in both languages: %+v", rej.Reason)
	}
	if evs != nil {
		t.Errorf("events on a refusal: %v", evs)
	}
	after, _ := json.Marshal(s)
	got, _ := json.Marshal(next)
	if !bytes.Equal(before, after) || !bytes.Equal(before, got) {
		t.Errorf("%s: the state changed on a refusal", a.Type())
	}
	if !strings.HasPrefix(err.Error(), "rules: ") {
		t.Errorf("error %q", err)
	}
}

// TestWaivedOverLimitGoesBack: the referee may let a move over the 2nd-line
// limit stand (the breach is recorded), but the surplus goes back to the
// Reserve at once: "Jeśli gracz zapomni o tej zasadzie i przekroczy limit
// Oddziałów, to po odkryciu tego faktu, musi natychmiast odłożyć
// nadwyżkowe Oddziały na pole Rezerwy" (3A, Zagranie karty Oddziału).
func TestWaivedOverLimitGoesBack(t *testing.T) {
	base := military(t, Options{}, "galica", "haller", "1-dp", "do-broni")
	s := must(t, base, PlayCard{Seat: 1, Card: "galica", Front: North, Choice: 1})
	if s.Pending == nil || s.Pending.Kind != DecideMove {
		t.Fatalf("pending %+v", s.Pending)
	}
	over := s
	over.Army(WP).Fronts[0].Second = 4 // Galica's limit 6 on N
	over.Army(WP).Fronts[1].Second = 3 // the standard 3 on C
	over.Army(WP).Reserve -= 5
	reserve := over.Army(WP).Reserve
	w := rules.Allow("over_limit")
	next, evs, err := ApplyAllowing(over, Move{Seat: 1, Moves: []UnitMove{{From: "N2", To: "C2", N: 1}}}, w)
	if err != nil {
		t.Fatalf("the waived move: %v", err)
	}
	if !slices.Equal(w.Waived(), []string{"over_limit"}) {
		t.Errorf("waived %v, want the breach recorded: [over_limit]", w.Waived())
	}
	a := next.Army(WP)
	if a.Fronts[0].Second != 3 || a.Fronts[1].Second != 3 || a.Reserve != reserve+1 {
		t.Errorf("N2 %d, C2 %d, reserve %d: want 3, 3 (the surplus unit back) and %d", a.Fronts[0].Second, a.Fronts[1].Second, a.Reserve, reserve+1)
	}
	if !hasEvent(evs, "over_limit") {
		t.Errorf("no over_limit event: %v", evs)
	}
	// A supply over the limit, waived: the surplus goes back too.
	sup := over
	sup.Pending = &Pending{Kind: DecideSupply, Seat: 1, Army: WP, N: 2, Resource: ResSupply}
	w = rules.Allow("over_limit")
	next, _, err = ApplyAllowing(sup, Supply{Seat: 1, Add: []string{Central, Central}}, w)
	if err != nil {
		t.Fatalf("the waived supply: %v", err)
	}
	if a := next.Army(WP); a.Fronts[1].Second != 3 || a.Reserve != reserve || !slices.Equal(w.Waived(), []string{"over_limit"}) {
		t.Errorf("C2 %d, reserve %d, waived %v: want 3, %d, [over_limit]", a.Fronts[1].Second, a.Reserve, w.Waived(), reserve)
	}
}

// TestWaiverUnusedChangesNothing: an action that breaks no rule gives the
// same state with the referee's waiver as without, and the waiver notes no
// breach, although the engine probes the moves a card allows (a probe
// over the limit is not the player's breach).
func TestWaiverUnusedChangesNothing(t *testing.T) {
	base := military(t, Options{}, "galica", "haller", "1-dp", "do-broni")
	base.Army(WP).Fronts[1].Second = 3 // C2 full: a probe N2>C2 is over the limit
	base.Army(WP).Reserve -= 2
	play := PlayCard{Seat: 1, Card: "galica", Front: North, Choice: 1}
	want, _, err := Apply(base, play)
	if err != nil {
		t.Fatal(err)
	}
	w := rules.Allow(Allowable...)
	got, _, err := ApplyAllowing(base, play, w)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(want)
	b, _ := json.Marshal(got)
	if !bytes.Equal(a, b) || len(w.Waived()) != 0 {
		t.Errorf("with an unused waiver: waived %v, same state %v", w.Waived(), bytes.Equal(a, b))
	}
}
