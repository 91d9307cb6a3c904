package main

import (
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion/fleet"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
)

func init() { register(newSimCmd) }

func newSimCmd() *cobra.Command {
	o := fleet.Options{Games: games, Demo: firmwareconfig.Demo}
	var gameList, user string
	var pw password
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "Run N simulated tables against a venue broker",
		Long: `Runs --tables simulated tables in one process, each a real daemon playing its
game's demo script (firmware-config/demo/<game>-demo.jsonl) on simulated
hardware, with its own journal under --dir/<table>, publishing to the venue
broker --broker (Mosquitto, or every node of a NATS cluster, comma-separated:
a table goes on to the next node when its node goes away). Table ids are
t001, t002, …; the games (all five, or --games) are dealt round robin.
A table that cannot start is reported by id with the reason and the others
play. Ctrl-C stops every table cleanly ("offline" published, journals closed).`,
		Example: `  sztab sim --tables 20 --broker tcp://127.0.0.1:1883 --venue turniej
  sztab sim --tables 5 --broker tcp://n1:1883,tcp://n2:1883,tcp://n3:1883 --games skirmish,wot-rush --speed 0.5`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.Password, err = pw.resolve(os.Getenv); err != nil {
				return err
			}
			o.Username = user
			if gameList != "" && gameList != "all" {
				o.Only = strings.Split(gameList, ",")
			}
			if o.Dir == "" {
				if o.Dir, err = os.MkdirTemp("", "sztab-sim-"); err != nil {
					return err
				}
			}
			o.Log = slog.Default().With("venue", o.Venue)
			f, err := fleet.Open(cmd.Context(), o)
			if err != nil {
				return err
			}
			for _, fail := range f.Failed {
				fmt.Fprintf(cmd.ErrOrStderr(), "sztab sim: %v\n", fail)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d tables playing on %s (venue %s), journals in %s; Ctrl-C stops them.\n", len(f.Tables), o.Broker, o.Venue, o.Dir)
			for _, t := range f.Tables {
				fmt.Fprintf(cmd.OutOrStdout(), "  %s  %s\n", t.ID, t.Game)
			}
			err = f.Serve(cmd.Context())
			if err == nil && len(f.Failed) > 0 {
				return fmt.Errorf("sim: %d of %d tables did not start", len(f.Failed), o.Tables)
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&o.Tables, "tables", 5, "how many tables")
	fl.StringVar(&o.Broker, "broker", "", "venue broker URL, or several comma-separated (every node of a NATS cluster)")
	fl.StringVar(&o.Venue, "venue", "sim", "venue id")
	fl.StringVar(&o.Dir, "dir", "", "directory of the tables' files and journals (default: a new temporary one)")
	fl.Float64Var(&o.Speed, "speed", 1, "pace of the scripts (1 real time, 0 no pauses)")
	fl.StringVar(&gameList, "games", "all", "games to deal: all, or ids comma-separated")
	fl.StringVar(&user, "username", "", "broker login of every table (none: anonymous)")
	fl.BoolVar(&o.TableLogins, "table-logins", false, "each table logs in as its table id (t001, …) with the broker password (Mosquitto with the venue ACL)")
	fl.BoolVar(&o.Screens, "screens", false, "serve each table's screens on a free loopback port")
	pw.addFlags(cmd, "broker password")
	cmd.MarkFlagRequired("broker")
	return cmd
}
