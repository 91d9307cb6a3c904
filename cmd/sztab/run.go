package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules"
)

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
			if _, err := cfg.CheckGame(games); err != nil {
				return err
			}
			return companion.Run(cmd.Context(), cfg, companion.Options{
				Games:    games,
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
