package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion/box"
)

func newBoxEnrolCmd() *cobra.Command {
	var game, dir string
	cmd := &cobra.Command{
		Use:   "enrol --game GAME --pack DIR",
		Short: "Enrol a box's cards one by one from the terminal",
		Long: `For each card of the pack still assumed, shows its fields with their
values and allowed values and what the rulebook fixes, reads what is printed
on the card (an empty line keeps a value; YAML for lists) and a tag UID to
bind, checks the pack at once and saves it. Stop any time (Ctrl-D) and run it
again to go on. A DIR that does not exist is started from the sample data.
Bitwa Warszawska and Mali Powstańcy (docs/box.md).`,
		Example: "  sztab box enrol --game bitwa-warszawska --pack ./nasze-pudelko",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := box.Open(dir); err != nil {
				p, serr := box.Shipped(game)
				if serr != nil {
					return serr
				}
				p.Meta.Version = "1"
				if werr := box.Write(p, dir); werr != nil {
					return err
				}
			}
			p, err := box.Open(dir)
			if err != nil {
				return err
			}
			if p.Meta.Game != game {
				return fmt.Errorf("box: the pack %s is game %s, not %s (paczka jest grą %s)", dir, p.Meta.Game, game, p.Meta.Game)
			}
			return box.Enrol(dir, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&game, "game", "", "the game's config id")
	cmd.Flags().StringVar(&dir, "pack", "", "the pack's directory")
	_ = cmd.MarkFlagRequired("game")
	_ = cmd.MarkFlagRequired("pack")
	return cmd
}
