package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion/box"
)

func init() { register(newBoxCmd) }

func newBoxCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "box",
		Short: "Box packs: a club's own cards and boards (docs/box.md)",
		Long: `A box pack is one directory with everything a printed box holds: pack.yaml
(format, game, edition, version), the game's data files and tags.yaml. A
table config names it with box: DIR. See docs/box.md.`,
	}
	cmd.AddCommand(newBoxCheckCmd(), newBoxInitCmd(), newBoxEnrolCmd())
	return cmd
}

func newBoxCheckCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check PACK",
		Short: "Validate a box pack and list what in it is still assumed",
		Long: `Checks the pack the way the engine loads it (fields and their values,
duplicates, references between cards and places), the counts the rulebook
prints, the places its rules name, the map's connectivity and the tags'
cards; a pack that fails is refused with the file, the line and the reason.
Then lists every entry still marked assumed.`,
		Example: "  sztab box check ./nasze-pudelko",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := box.Open(args[0])
			if err != nil {
				return err
			}
			r, err := box.Check(p)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			}
			printReport(cmd.OutOrStdout(), r)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

func printReport(w io.Writer, r *box.Report) {
	fmt.Fprintf(w, "paczka poprawna / pack OK: %s, %s, wersja / version %s\n", r.Game, r.Edition, r.Version)
	if len(r.Shipped) > 0 {
		fmt.Fprintf(w, "pliki z danych przykładowych / files from the sample data: %v\n", r.Shipped)
	}
	fmt.Fprintf(w, "znaczniki / tags: %d\n", r.Tags)
	if len(r.Assumed) == 0 {
		fmt.Fprintln(w, "nic nie jest założone / nothing is assumed")
		return
	}
	fmt.Fprintf(w, "założone (dane przykładowe) / assumed (sample data): %d\n", len(r.Assumed))
	for _, a := range r.Assumed {
		fmt.Fprintf(w, "  %s\n", a)
	}
}

func newBoxInitCmd() *cobra.Command {
	var game, edition, version string
	cmd := &cobra.Command{
		Use:   "init --game GAME DIR",
		Short: "Start a box pack from the shipped sample data",
		Long: `Writes a new pack directory DIR holding the shipped (assumed) data of
GAME and a pack.yaml; the club then enrols its own box into it (sztab box
enrol) or edits it.`,
		Example: "  sztab box init --game mali-powstancy --edition 'Mali Powstańcy, wyd. 2' ./nasze-pudelko",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := box.Shipped(game)
			if err != nil {
				return err
			}
			if edition != "" {
				p.Meta.Edition.PL, p.Meta.Edition.EN = edition, edition
			}
			p.Meta.Version = version
			if err := box.Write(p, args[0]); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "paczka zapisana / pack written: %s\n", args[0])
			return nil
		},
	}
	cmd.Flags().StringVar(&game, "game", "", "the game's config id")
	cmd.Flags().StringVar(&edition, "edition", "", "the edition's name")
	cmd.Flags().StringVar(&version, "version", "1", "the pack's version")
	_ = cmd.MarkFlagRequired("game")
	return cmd
}
