package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/rules"
)

// games are the games this binary plays, by config id.
var games = map[string]func(*companion.Config) (companion.Game, error){
	"skirmish": skirmishgame.New,
}

func newGame(cfg *companion.Config) (companion.Game, error) {
	f, ok := games[cfg.Game]
	if !ok {
		return nil, fmt.Errorf("game %q is not built into this binary", cfg.Game)
	}
	return f(cfg)
}

func newRunCmd() *cobra.Command {
	var configPath string
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the table daemon with a table configuration",
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := companion.LoadConfig(configPath)
			if err != nil {
				return err
			}
			return companion.Run(cmd.Context(), cfg, companion.Options{
				NewGame:  newGame,
				Log:      slog.Default(),
				SimSpeed: 1,
				OnEvent:  printEvent(os.Stdout, cfg.Language),
			})
		},
	}
	cmd.Flags().StringVar(&configPath, "config", "/etc/sztab/table.yaml", "table configuration file")
	return cmd
}

// printEvent writes each event's text, in the table's language, to w.
func printEvent(w io.Writer, lang string) func(int64, rules.Text) {
	return func(seq int64, t rules.Text) {
		text := t.PL
		if lang == "en" {
			text = t.EN
		}
		if text != "" {
			fmt.Fprintf(w, "  [%d] %s\n", seq, text)
		}
	}
}
