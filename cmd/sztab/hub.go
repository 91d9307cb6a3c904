package main

import (
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/watch"
)

func init() { register(newHubCmd); register(newWatchCmd) }

func newHubCmd() *cobra.Command {
	var o hub.Options
	cmd := &cobra.Command{
		Use:     "hub",
		Short:   "Serve the venue wall: every table of a venue, live, from any MQTT broker",
		Example: `  sztab hub --broker tcp://broker.venue:1883 --venue klub-pod-wieza --listen :8090`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Log = slog.Default()
			h, err := hub.New(o)
			if err != nil {
				return err
			}
			go func() { slog.Info("venue wall", "url", "http://"+h.Addr()+"/") }()
			return h.Run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Broker, "broker", "tcp://127.0.0.1:1883", "venue MQTT broker URL")
	f.StringVar(&o.Venue, "venue", "", "venue id (as in the tables' configs)")
	f.StringVar(&o.Listen, "listen", ":8090", "address of the wall page")
	f.StringVar(&o.Username, "username", "", "broker user name")
	f.StringVar(&o.Password, "password", "", "broker password")
	cmd.MarkFlagRequired("venue")
	return cmd
}

func newWatchCmd() *cobra.Command {
	o := watch.Options{Out: os.Stdout}
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Follow one table's live state in the terminal",
		Long: `Shows a table's live state in the terminal: units, the shot in progress, rulings
waiting, the last events. With the referee's credentials (--username/--password)
it shows the referee's view, dice fairness included, and takes the referee's
rulings from the keyboard: n next phase, c confirm, x cancel, u undo, 1–6 a die,
each followed by Enter (sent to the table's referee/command topic once the
referee's view has arrived; the watch says whether the table took each).`,
		Example: `  sztab watch --broker tcp://127.0.0.1:1884 --table stol-1`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Username != "" {
				o.Commands = cmd.InOrStdin()
			}
			return watch.Run(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Broker, "broker", "tcp://127.0.0.1:1883", "MQTT broker URL")
	f.StringVar(&o.Venue, "venue", "", "venue id (default: any)")
	f.StringVar(&o.Table, "table", "", "table id")
	f.StringVar(&o.Lang, "lang", "pl", "pl or en")
	f.StringVar(&o.Username, "username", "", "broker user name (the referee's for the referee view)")
	f.StringVar(&o.Password, "password", "", "broker password")
	f.BoolVar(&o.Clear, "clear", true, "redraw in place (false: print each frame)")
	cmd.MarkFlagRequired("table")
	return cmd
}
