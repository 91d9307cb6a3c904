package main

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/ops"
	"github.com/sztab/sztab/companion/venue"
)

func init() { register(newVenueCmd) }

// organiserEnv is the environment variable the organiser's password may
// come from.
const organiserEnv = "SZTAB_ORGANISER_PASSWORD"

// organiserPassword reads the organiser's password: the first line of
// file, else $SZTAB_ORGANISER_PASSWORD. There is no flag for it: a
// command line is seen by anyone who can list processes.
func organiserPassword(file string, getenv func(string) string) (string, error) {
	if file != "" {
		return firstLine("--organiser-password-file", file)
	}
	if p := getenv(organiserEnv); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("the organiser's password: give --organiser-password-file or set $%s", organiserEnv)
}

func newVenueCmd() *cobra.Command {
	var o venue.Options
	var pw password
	var allow []string
	var tournamentFile, dbPath, orgFile string
	cmd := &cobra.Command{
		Use:   "venue",
		Short: "Run a tournament night: the venue wall, the organiser's page, results into standings",
		Long: `Runs the organiser's process for a venue: it follows every table of the venue on
the venue broker (status, live headline, and each table's signed result once its
game is over), counts the results into the tournament (--tournament, stored in
--db) and serves, on --listen, the venue wall (/: tables, standings, round clock)
and the organiser's page (/organiser: rounds and pairings, results, corrections,
refusals, CSV exports, a printable page) behind the organiser's sign-in. It
tells each table its pairing (retained on sztab/v1/<venue>/<table>/pairing):
the table names that round in its signed result, so that a late result is
never counted in another round. The venue's broker login must be allowed to
write those topics (firmware-config/mosquitto/acl.example).

The organiser's password comes from --organiser-password-file or
$SZTAB_ORGANISER_PASSWORD, never from the command line. The broker password, as
for sztab hub: --password-file or $SZTAB_PASSWORD. sztab hub is the wall alone.`,
		Example: `  sztab venue --broker tcp://broker.venue:1883 --venue klub-pod-wieza \
    --tournament tournament.yaml --db venue.db --organiser-password-file /etc/sztab/organiser`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.Hub.Password, err = pw.resolve(os.Getenv); err != nil {
				return err
			}
			if o.Organiser.Password, err = organiserPassword(orgFile, os.Getenv); err != nil {
				return err
			}
			if o.Hub.MetricsAllow, err = ops.ParseAllow(allow); err != nil {
				return fmt.Errorf("--metrics-allow%w", err)
			}
			o.Hub.Log = slog.Default().With("venue", o.Hub.Venue, "table", "venue", "game", "venue")
			o.Hub.Version = companion.Version
			t, closer, err := openTournament(cmd.Context(), tournamentFile, dbPath, o.Hub.Venue, o.Hub.Log)
			if err != nil {
				return err
			}
			defer closer.Close()
			o.Tournament = t
			// The venue tells each table its pairing through the wall's own
			// connection: one login, one connection (a broker that makes
			// the login the client id would otherwise push one off with the
			// other, for ever).
			v, err := venue.New(o)
			if err != nil {
				return err
			}
			go func() {
				o.Hub.Log.Info("venue wall", "url", "http://"+v.Addr()+"/")
				o.Hub.Log.Info("organiser's page", "url", "http://"+v.Addr()+"/organiser", "user", o.Organiser.User)
			}()
			return v.Run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Hub.Broker, "broker", "tcp://127.0.0.1:1883", "venue MQTT broker URL")
	f.StringVar(&o.Hub.Venue, "venue", "", "venue id (as in the tables' configs and the tournament file)")
	f.StringVar(&o.Hub.Listen, "listen", ":8090", "address of the wall and the organiser's page")
	f.StringVar(&o.Hub.Username, "username", "", "broker user name")
	pw.addFlags(cmd, "broker password")
	f.StringVar(&tournamentFile, "tournament", "tournament.yaml", "the tournament file (firmware-config/venue/tournament.example.yaml)")
	f.StringVar(&dbPath, "db", "venue.db", "the tournament's database (SQLite): rounds, results, corrections, audit; reopened after a restart")
	f.StringVar(&o.Organiser.User, "organiser", "organizator", "the organiser's user name on /login")
	f.StringVar(&orgFile, "organiser-password-file", "", "file whose first line is the organiser's password (else $"+organiserEnv+")")
	f.StringSliceVar(&allow, "metrics-allow", nil, "addresses or CIDR prefixes that may read /metrics (default: loopback only)")
	wallFlags(cmd, &o.Hub)
	cmd.MarkFlagRequired("venue")
	return cmd
}
