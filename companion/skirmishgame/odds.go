package skirmishgame

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/rules/dice"
	"github.com/sztab/sztab/rules/skirmish"
)

// flagFor maps the shot odds' parameter names to this command's flags.
var flagFor = map[string]string{
	skirmish.ParamAttacks: "--attacks",
	skirmish.ParamHit:     "--hit",
	skirmish.ParamWound:   "--wound",
	skirmish.ParamSave:    "--save",
	skirmish.ParamModels:  "--models",
	skirmish.ParamLives:   "--lives",
	skirmish.ParamPolicy:  "--policy",
}

type oddsJSON struct {
	Wounds     map[string]float64 `json:"wounds"`
	Mean       float64            `json:"mean"`
	Killed     map[string]float64 `json:"killed,omitempty"`
	KilledMean *float64           `json:"killed_mean,omitempty"`
}

func newOddsCmd() *cobra.Command {
	var (
		seq    skirmish.Sequence
		damage string
		lives  int
		models int
		policy string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "odds",
		Short: "Exact odds of a skirmish shot: unsaved wounds and models killed",
		Long: `Prints the exact distribution of unsaved wounds of a shot (hit → wound →
save), its mean and P(at least k); with --lives, also the distribution of
models killed. Thresholds are "at least" values 2–7; 7 means impossible
(--save 7: no save).`,
		Example: `  sztab odds --attacks 5 --hit 2 --wound 3 --save 4
  sztab odds --attacks 2 --hit 2 --damage D6 --save 4 --lives 2 --models 5 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch strings.ToUpper(damage) {
			case "1", "":
			case "D6":
				seq.DamageD6 = true
				if cmd.Flags().Changed("wound") {
					return fmt.Errorf("--wound and --damage D6 do not go together: a d6-wound weapon rolls no wound dice")
				}
				seq.Wound = 0
			default:
				return fmt.Errorf("--damage %q: want 1 or D6", damage)
			}
			var target *skirmish.Target
			if cmd.Flags().Changed("lives") || cmd.Flags().Changed("models") {
				target = &skirmish.Target{Models: models, Lives: lives, Policy: skirmish.Allocation(policy)}
			}
			odds, err := seq.Exact(target)
			if err != nil {
				var pe *skirmish.ParamError
				if errors.As(err, &pe) && flagFor[pe.Param] != "" {
					return fmt.Errorf("%s %v %s", flagFor[pe.Param], pe.Value, pe.Reason)
				}
				return err
			}
			if asJSON {
				return writeOddsJSON(cmd.OutOrStdout(), odds)
			}
			writeOddsText(cmd.OutOrStdout(), odds)
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&seq.Attacks, "attacks", 0, "attack dice: models × shots per model")
	f.IntVar(&seq.Hit, "hit", 0, "to-hit threshold (2–7)")
	f.IntVar(&seq.Wound, "wound", 0, "to-wound threshold (2–7)")
	f.IntVar(&seq.Save, "save", 7, "the target's save threshold after cover (2–7; 7 = no save)")
	f.StringVar(&damage, "damage", "1", "wounds per hit: 1, or D6 (Panzerschreck, Panzerfaust, grenades)")
	f.IntVar(&lives, "lives", 1, "lives per target model; asks for the models killed")
	f.IntVar(&models, "models", 5, "models in the target unit (with --lives)")
	f.StringVar(&policy, "policy", "spread", "wound allocation: spread (unwounded first) or focus (wounded first)")
	f.BoolVar(&asJSON, "json", false, `print {"wounds": {"0": p0, ...}, "mean": m} (plus "killed")`)
	cmd.MarkFlagRequired("attacks")
	cmd.MarkFlagRequired("hit")
	return cmd
}

func writeOddsJSON(w io.Writer, o skirmish.SequenceOdds) error {
	out := oddsJSON{Wounds: o.Unsaved.Map(), Mean: o.Unsaved.Mean()}
	if o.Killed != nil {
		out.Killed = o.Killed.Map()
		m := o.Killed.Mean()
		out.KilledMean = &m
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeOddsText(w io.Writer, o skirmish.SequenceOdds) {
	s := o.Sequence
	wound := fmt.Sprintf("wound %d+", s.Wound)
	if s.DamageD6 {
		wound = "d6 wounds per hit"
	}
	save := fmt.Sprintf("save %d+", s.Save)
	if s.Save >= 7 {
		save = "no save"
	}
	fmt.Fprintf(w, "%d attacks, hit %d+, %s, %s\n\n", s.Attacks, s.Hit, wound, save)
	oddsTable(w, "unsaved wounds", o.Unsaved)
	fmt.Fprintf(w, "mean %.4f\n", o.Unsaved.Mean())
	if o.Killed != nil {
		t := o.Target
		pol := t.Policy
		if pol == "" {
			pol = skirmish.Spread
		}
		fmt.Fprintf(w, "\nagainst %d models of %d lives (%s allocation)\n\n", t.Models, t.Lives, pol)
		oddsTable(w, "models killed", o.Killed)
		fmt.Fprintf(w, "mean %.4f\n", o.Killed.Mean())
	}
}

func oddsTable(w io.Writer, what string, d dice.Dist) {
	fmt.Fprintf(w, "%-16s %10s %10s\n", what, "P(= k)", "P(≥ k)")
	for k := 0; k < d.Len(); k++ {
		if d.P(k) == 0 && d.AtLeast(k) == 0 {
			break
		}
		fmt.Fprintf(w, "%-16d %9.4f%% %9.4f%%\n", k, 100*d.P(k), 100*d.AtLeast(k))
	}
}
