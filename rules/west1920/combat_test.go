package west1920

import (
	"github.com/sztab/sztab/rules/dice"
	"math"
	"strconv"
	"testing"
)

func TestWhiteMinusRed(t *testing.T) {
	d := WhiteMinusRed()
	if d.Min != -5 || d.Max() != 5 {
		t.Fatalf("range: got %d…%d, want -5…5", d.Min, d.Max())
	}
	var want [11]float64
	for w := 1; w <= 6; w++ {
		for r := 1; r <= 6; r++ {
			want[w-r+5] += 1.0 / 36
		}
	}
	for k := -5; k <= 5; k++ {
		if !near(d.P(k), want[k+5], tol) {
			t.Errorf("P(%d): got %v, want %v", k, d.P(k), want[k+5])
		}
	}
	if !near(d.Mean(), 0, tol) || !near(d.AtLeast(3), 6.0/36, tol) || !near(d.AtMost(-5), 1.0/36, tol) {
		t.Errorf("got mean %v, P(≥3) %v, P(≤-5) %v, want 0, 1/6, 1/36", d.Mean(), d.AtLeast(3), d.AtMost(-5))
	}
	if m := d.Map(); len(m) != 11 || !near(m["-2"], 4.0/36, tol) {
		t.Errorf("Map: got %v, want 11 outcomes with -2 at 4/36", m)
	}
	// Rule 4.0's example: base 12, white 6 − red 3 = 15; 2 − 4 = 10.
	rp := ResourcePoints(12)
	if rp.Min != 7 || rp.Max() != 17 || !near(rp.P(15), 3.0/36, tol) || !near(rp.P(10), 4.0/36, tol) || !near(rp.Mean(), 12, tol) {
		t.Errorf("ResourcePoints(12): got %d…%d P(15)=%v P(10)=%v mean %v, want 7…17, 3/36, 4/36, 12",
			rp.Min, rp.Max(), rp.P(15), rp.P(10), rp.Mean())
	}
}

// TestCombatRulebookExample is "Przykład - rozstrzygnięcie walki" (rule 9):
// Russians 15 (4 units) roll 2, Poles 10 (2 units) roll 4: 17 − 14 = 3, one
// loss to the Poles, none to the Russians, 9.5b.
func TestCombatRulebookExample(t *testing.T) {
	got, err := CombatResult(CombatStack{Combat: 15, Units: 4}, CombatStack{Combat: 10, Units: 2}, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	want := CombatOutcome{Diff: 3, Winner: Attacker, Effect: EffectRetreat, Rule: "9.5b", AttackerLosses: 0, DefenderLosses: 1}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestCombatOutcomeTable(t *testing.T) {
	big := CombatStack{Combat: 0, Units: 4}
	tests := []struct {
		name     string
		att, def CombatStack
		diff     int
		want     CombatOutcome
	}{
		{"tie", big, big, 0, CombatOutcome{Diff: 0, Effect: EffectHold, Rule: "9.5a"}},
		{"+1", big, big, 1, CombatOutcome{Diff: 1, Winner: Attacker, Effect: EffectHold, Rule: "9.5a"}},
		{"+2", big, big, 2, CombatOutcome{Diff: 2, Winner: Attacker, Effect: EffectHold, Rule: "9.5a", DefenderLosses: 1}},
		{"-2", big, big, -2, CombatOutcome{Diff: -2, Winner: Defender, Effect: EffectHold, Rule: "9.5a", AttackerLosses: 1}},
		{"+4", big, big, 4, CombatOutcome{Diff: 4, Winner: Attacker, Effect: EffectRetreat, Rule: "9.5b", DefenderLosses: 2, AttackerLosses: 1}},
		{"+6", big, big, 6, CombatOutcome{Diff: 6, Winner: Attacker, Effect: EffectRetreat, Rule: "9.5b", DefenderLosses: 3, AttackerLosses: 1}},
		{"-6", big, big, -6, CombatOutcome{Diff: -6, Winner: Defender, Effect: EffectRetreat, Rule: "9.5b", AttackerLosses: 3, DefenderLosses: 1}},
		{"+7 winner unhurt", big, big, 7, CombatOutcome{Diff: 7, Winner: Attacker, Effect: EffectRout, Rule: "9.5c", DefenderLosses: 3}},
		{"-9", big, big, -9, CombatOutcome{Diff: -9, Winner: Defender, Effect: EffectRout, Rule: "9.5c", AttackerLosses: 4}},
		{"capped by winner's units", CombatStack{Units: 1}, big, 6,
			CombatOutcome{Diff: 6, Winner: Attacker, Effect: EffectRetreat, Rule: "9.5b", DefenderLosses: 1}},
		{"capped by loser's steps", big, CombatStack{Units: 2, Steps: 3}, 10,
			CombatOutcome{Diff: 10, Winner: Attacker, Effect: EffectRout, Rule: "9.5c", DefenderLosses: 3}},
		{"defender's losses capped by its units", CombatStack{Units: 6}, CombatStack{Units: 1}, -12,
			CombatOutcome{Diff: -12, Winner: Defender, Effect: EffectRout, Rule: "9.5c", AttackerLosses: 1}},
		{"reply from actual losses", CombatStack{Units: 4}, CombatStack{Units: 1, Steps: 1}, 6,
			CombatOutcome{Diff: 6, Winner: Attacker, Effect: EffectRetreat, Rule: "9.5b", DefenderLosses: 1}},
		{"defender wins by 6", CombatStack{Units: 5}, CombatStack{Units: 3}, -6,
			CombatOutcome{Diff: -6, Winner: Defender, Effect: EffectRetreat, Rule: "9.5b", AttackerLosses: 3, DefenderLosses: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := combatOutcome(tt.att, tt.def, tt.diff); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestCombatOdds checks Combat against the 36 pairs of dice.
func TestCombatOdds(t *testing.T) {
	pairs := []struct{ att, def CombatStack }{
		{CombatStack{Combat: 15, Units: 4}, CombatStack{Combat: 10, Units: 2}},
		{CombatStack{Combat: 3, Units: 1}, CombatStack{Combat: 9, Units: 3, Steps: 4}},
		{CombatStack{Combat: 7, Units: 2, Steps: 2}, CombatStack{Combat: 7, Units: 2}},
		{CombatStack{Combat: -1, Units: 1}, CombatStack{Combat: 0, Units: 1}},
	}
	for _, p := range pairs {
		o, err := Combat(p.att, p.def)
		if err != nil {
			t.Fatal(err)
		}
		diff := map[int]float64{}
		var aw, dw, tie, hold, dRet, aRet, dRout, aRout float64
		aLoss := make(dice.Dist, p.att.steps()+1)
		dLoss := make(dice.Dist, p.def.steps()+1)
		for a := 1; a <= 6; a++ {
			for d := 1; d <= 6; d++ {
				out, err := CombatResult(p.att, p.def, a, d)
				if err != nil {
					t.Fatal(err)
				}
				const q = 1.0 / 36
				diff[out.Diff] += q
				aLoss[out.AttackerLosses] += q
				dLoss[out.DefenderLosses] += q
				switch out.Winner {
				case Attacker:
					aw += q
				case Defender:
					dw += q
				default:
					tie += q
				}
				switch {
				case out.Effect == EffectHold:
					hold += q
				case out.Effect == EffectRetreat && out.Winner == Attacker:
					dRet += q
				case out.Effect == EffectRetreat:
					aRet += q
				case out.Winner == Attacker:
					dRout += q
				default:
					aRout += q
				}
			}
		}
		checks := []struct {
			name      string
			got, want float64
		}{
			{"attacker wins", o.AttackerWins, aw}, {"defender wins", o.DefenderWins, dw}, {"tie", o.Tie, tie},
			{"hold", o.Hold, hold}, {"defender retreats", o.DefenderRetreats, dRet}, {"attacker retreats", o.AttackerRetreats, aRet},
			{"defender routed", o.DefenderRouted, dRout}, {"attacker routed", o.AttackerRouted, aRout},
			{"total", o.Diff.Dist.Total(), 1},
		}
		for k, want := range diff {
			checks = append(checks, struct {
				name      string
				got, want float64
			}{"P(diff " + strconv.Itoa(k) + ")", o.Diff.P(k), want})
		}
		for k := range aLoss {
			checks = append(checks, struct {
				name      string
				got, want float64
			}{"P(attacker loses " + strconv.Itoa(k) + ")", o.AttackerLosses.P(k), aLoss[k]})
		}
		for k := range dLoss {
			checks = append(checks, struct {
				name      string
				got, want float64
			}{"P(defender loses " + strconv.Itoa(k) + ")", o.DefenderLosses.P(k), dLoss[k]})
		}
		for _, c := range checks {
			if !near(c.got, c.want, tol) {
				t.Errorf("%+v vs %+v: %s: got %v, want %v", p.att, p.def, c.name, c.got, c.want)
			}
		}
		if len(o.Outcomes) != 11 || o.Outcomes[0].Diff != p.att.Combat-p.def.Combat-5 {
			t.Errorf("outcomes: got %d from %d, want 11 from %d", len(o.Outcomes), o.Outcomes[0].Diff, p.att.Combat-p.def.Combat-5)
		}
	}
}

func TestCoordinatedCombat(t *testing.T) {
	att, def := CombatStack{Combat: 6, Units: 2}, CombatStack{Combat: 8, Units: 2}
	c, err := CoordinatedCombat(att, 3, def)
	if err != nil {
		t.Fatal(err)
	}
	if !near(c.Cancelled+c.Unsupported+c.Supported, 1, tol) || !near(c.Supported, 1.0/3, tol) {
		t.Errorf("coordination roll: got %v/%v/%v, want thirds", c.Cancelled, c.Unsupported, c.Supported)
	}
	if c.WithSupport.Attacker.Combat != 9 || c.WithoutSupport.Attacker.Combat != 6 {
		t.Errorf("support: got %d and %d, want 9 and 6", c.WithSupport.Attacker.Combat, c.WithoutSupport.Attacker.Combat)
	}
	if c.WithSupport.AttackerWins <= c.WithoutSupport.AttackerWins {
		t.Errorf("support should help: got %v with, %v without", c.WithSupport.AttackerWins, c.WithoutSupport.AttackerWins)
	}
}

func TestCombatValidation(t *testing.T) {
	ok := CombatStack{Combat: 5, Units: 2}
	tests := []struct {
		name string
		err  error
		msg  string
	}{
		{"attacker units", second(Combat(CombatStack{Combat: 5}, ok)), "west1920: attacker units 0 is outside 1–1000"},
		{"defender steps", second(Combat(ok, CombatStack{Combat: 5, Units: 2, Steps: 5})), "west1920: defender steps 5 is outside 2–4 for 2 units"},
		{"defender combat", second(Combat(ok, CombatStack{Combat: 5000, Units: 2})), "west1920: defender combat value 5000 is outside −1000…1000"},
		{"attack roll", second(CombatResult(ok, ok, 7, 3)), "west1920: attack roll 7 is outside 1–6"},
		{"defence roll", second(CombatResult(ok, ok, 3, 0)), "west1920: defence roll 0 is outside 1–6"},
		{"support", second(CoordinatedCombat(ok, -1, ok)), "west1920: support combat value -1 is outside 0–1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil || tt.err.Error() != tt.msg {
				t.Errorf("got %v, want %q", tt.err, tt.msg)
			}
		})
	}
}

func second[T any](_ T, err error) error { return err }

const tol = 1e-12

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }
