package skirmishgame

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/rules/skirmish"
)

// tools are the game's own subcommands, `sztab army` and `sztab odds`
// (GameSpec.Tools).
var tools = []func() *cobra.Command{newArmyCmd, newOddsCmd}

// exitError is an error with its own exit status.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }
func (e *exitError) ExitCode() int { return e.code }

// dataFlags are the data files a command may take instead of the embedded
// ones.
func dataFlags(cmd *cobra.Command, files *DataFiles) {
	cmd.Flags().StringVar(&files.Weapons, "weapons", "", "weapons data file (default: the embedded weapons.yaml)")
	cmd.Flags().StringVar(&files.Units, "units", "", "factions and unit cards file (default: the embedded units.yaml)")
	cmd.Flags().StringVar(&files.Orders, "orders", "", "order cards file (default: the embedded orders.yaml)")
}

func loadCatalogue(files DataFiles) (*skirmish.Catalogue, error) {
	return LoadCatalogue(files, func(p string) string { return p })
}

func newArmyCmd() *cobra.Command {
	army := &cobra.Command{
		Use:   "army",
		Short: "Army lists of the skirmish game (Powstanie Warszawskie)",
	}
	army.AddCommand(newArmyCheckCmd())
	return army
}

func newArmyCheckCmd() *cobra.Command {
	var points int
	var asJSON bool
	var files DataFiles
	cmd := &cobra.Command{
		Use:   "check FILE",
		Short: "Check an army list against the unit cards, the weapon limits and the point limit",
		Long: `Reads an army list (YAML or JSON, "-" for standard input), prints its cost,
what each model carries, and every rule it breaks, in Polish and English.
The exit status is 0 only for a legal list, 1 for an illegal one.

  faction: Armia Krajowa
  points: 200
  units:
    - {id: zoska, card: ak_soldier, models: 4, commander: true, weapon: MP 40}`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cat, err := loadCatalogue(files)
			if err != nil {
				return err
			}
			list, err := readArmy(args[0])
			if err != nil {
				return err
			}
			r := cat.CheckArmy(list, points)
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(r); err != nil {
					return err
				}
			} else {
				printArmy(out, r)
			}
			if !r.Legal() {
				return &exitError{code: 1, msg: fmt.Sprintf("%s: the list breaks %d rules", args[0], len(r.Violations))}
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&points, "points", 0, "point limit (default: the list's own points:)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	dataFlags(cmd, &files)
	return cmd
}

func readArmy(path string) (skirmish.ArmyList, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return skirmish.ArmyList{}, err
	}
	var list skirmish.ArmyList
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &list); err != nil {
		return skirmish.ArmyList{}, fmt.Errorf("%s: %w", path, err)
	}
	return list, nil
}

func printArmy(w io.Writer, r skirmish.ArmyReport) {
	limit := "bez limitu / no limit"
	if r.Limit > 0 {
		limit = fmt.Sprintf("limit %d pkt", r.Limit)
	}
	fmt.Fprintf(w, "%s: %d pkt (%s)\n", r.Faction, r.Cost, limit)
	for _, u := range r.Units {
		fmt.Fprintf(w, "  %-12s %-28s %3d pkt\n", u.ID, u.Name, u.Cost)
		var models []string
		for _, m := range u.Models {
			s := m.ID + " " + m.Weapon
			if m.Commander {
				s += " (dowódca / commander)"
			}
			models = append(models, s)
		}
		fmt.Fprintf(w, "      %s\n", strings.Join(models, "; "))
	}
	if r.Legal() {
		fmt.Fprintln(w, "✓ lista poprawna / the list is legal")
		return
	}
	fmt.Fprintf(w, "✗ lista niepoprawna / the list is not legal (%d):\n", len(r.Violations))
	for _, v := range r.Violations {
		fmt.Fprintf(w, "  - [%s] %s\n    %s\n", v.Code, v.Reason.PL, v.Reason.EN)
	}
}
