// Command sztab is the table companion daemon and its tools.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion/ops"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRoot().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "sztab:", err)
		os.Exit(exitCode(err))
	}
}

// exitCoder lets a command choose its exit status.
type exitCoder interface{ ExitCode() int }

func exitCode(err error) int {
	if e, ok := err.(exitCoder); ok {
		return e.ExitCode()
	}
	return 1
}

func newRoot() *cobra.Command {
	var level, format string
	root := &cobra.Command{
		Use:           "sztab",
		Short:         "Sztab: the game table companion",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			var l slog.Level
			if err := l.UnmarshalText([]byte(level)); err != nil {
				return fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
			}
			log, err := ops.NewLogger(os.Stderr, format, l, os.Getenv)
			if err != nil {
				return err
			}
			slog.SetDefault(log)
			return nil
		},
	}
	root.PersistentFlags().StringVar(&level, "log-level", "info", "log level: debug, info, warn, error")
	root.PersistentFlags().StringVar(&format, "log-format", "auto", "log format: text, json, or auto (json under systemd, text on a terminal)")
	for _, c := range subcommands {
		root.AddCommand(c())
	}
	// The games' own subcommands (`sztab army`, `sztab odds`), each
	// declared by its game's spec.
	for _, g := range games {
		for _, c := range g.Tools {
			root.AddCommand(c())
		}
	}
	return root
}

// subcommands are registered in init: run, demo and version below, the
// others by the file that defines each one.
var subcommands []func() *cobra.Command

func register(c func() *cobra.Command) { subcommands = append(subcommands, c) }

func init() { register(newRunCmd); register(newDemoCmd); register(newVersionCmd) }
