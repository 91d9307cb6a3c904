package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion"
)

func init() { register(newPlayCmd) }

func newPlayCmd() *cobra.Command {
	var game, script, view, lang string
	var data []string
	sc := companion.Script{}
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play a scripted game through the engine and print the final state",
		Long: `Reads a script of actions (JSON Lines, one action a line, with the dice each
action consumes written in it; "-" for standard input), applies them through
the same engine the daemon uses and prints the final state as the chosen
viewer sees it. A refused action prints its reason and line and stops play
with exit status 1, unless --continue, which reports it and goes on.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			spec, ok := games.Lookup(game)
			if !ok {
				return fmt.Errorf("play: --game %q: not a game this Sztab plays (%s)", game, strings.Join(games.IDs(), ", "))
			}
			if spec.Play == nil {
				return fmt.Errorf("play: game %s has no scripts yet", game)
			}
			if lang != "pl" && lang != "en" {
				return fmt.Errorf("play: --lang %q: want pl or en", lang)
			}
			viewer, err := parseViewer(view)
			if err != nil {
				return err
			}
			sc.Files = map[string]string{}
			for _, d := range data {
				name, path, ok := strings.Cut(d, "=")
				if !ok || name == "" || path == "" {
					return fmt.Errorf("play: --data %q: want name=path", d)
				}
				sc.Files[name] = path
			}
			if script == "-" {
				sc.Data, err = io.ReadAll(os.Stdin)
			} else {
				sc.Data, err = os.ReadFile(script)
			}
			if err != nil {
				return err
			}
			sc.Name, sc.View, sc.Lang = script, viewer, lang
			sc.Out, sc.Err = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return spec.Play(sc)
		},
	}
	cmd.Flags().StringVar(&game, "game", defaultGame, "game the script is for")
	cmd.Flags().StringVar(&script, "script", "", "script file (JSON Lines; - for standard input)")
	cmd.Flags().BoolVar(&sc.JSON, "json", false, "print the final state as JSON")
	cmd.Flags().BoolVar(&sc.Continue, "continue", false, "report refused actions and go on")
	cmd.Flags().BoolVar(&sc.Events, "events", false, "print every action's events")
	cmd.Flags().StringVar(&view, "view", "public", "whose view to print: public, referee or a seat number")
	cmd.Flags().StringVar(&lang, "lang", "pl", "language of the text output: pl or en")
	cmd.Flags().StringArrayVar(&data, "data", nil, "a game data file instead of the embedded one, as name=path (skirmish: weapons, units, orders)")
	cmd.MarkFlagRequired("script")
	return cmd
}

func parseViewer(v string) (companion.Viewer, error) {
	switch v {
	case "public", "":
		return companion.Public, nil
	case "referee":
		return companion.Viewer{Role: companion.RoleReferee}, nil
	}
	seat, err := strconv.Atoi(v)
	if err != nil || seat < 1 {
		return companion.Viewer{}, fmt.Errorf("play: --view %q: want public, referee or a seat number", v)
	}
	return companion.Viewer{Role: companion.RolePlayer, Seat: seat}, nil
}
