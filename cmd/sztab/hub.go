package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/ops"
	"github.com/sztab/sztab/companion/watch"
)

func init() { register(newHubCmd); register(newWatchCmd) }

// passwordEnv is the environment variable a broker password may come from.
const passwordEnv = "SZTAB_PASSWORD"

// password is a broker password's sources: --password (seen by anyone who
// can list processes), --password-file or $SZTAB_PASSWORD.
type password struct{ flag, file string }

func (p *password) addFlags(cmd *cobra.Command, what string) {
	f := cmd.Flags()
	f.StringVar(&p.flag, "password", "", what+" (shows in the process list: prefer --password-file or $"+passwordEnv+")")
	f.StringVar(&p.file, "password-file", "", "file whose first line is the "+what+" (not with --password); with neither flag, $"+passwordEnv+" is used")
}

// resolve returns --password, else the first line of --password-file,
// else $SZTAB_PASSWORD (read with getenv), else "".
func (p password) resolve(getenv func(string) string) (string, error) {
	switch {
	case p.flag != "" && p.file != "":
		return "", fmt.Errorf("--password and --password-file: give one, not both")
	case p.flag != "":
		return p.flag, nil
	case p.file != "":
		return firstLine("--password-file", p.file)
	}
	return getenv(passwordEnv), nil
}

// firstLine reads a password file given with flag: its first line.
func firstLine(flag, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", flag, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return "", fmt.Errorf("%s: %w", flag, err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	if line = strings.TrimSuffix(line, "\r"); line == "" {
		return "", fmt.Errorf("%s %s: the first line is empty", flag, path)
	}
	return line, nil
}

func newHubCmd() *cobra.Command {
	var o hub.Options
	var pw password
	var allow []string
	cmd := &cobra.Command{
		Use:     "hub",
		Short:   "Serve the venue wall: every table of a venue, live, from any MQTT broker",
		Example: `  sztab hub --broker tcp://broker.venue:1883 --venue klub-pod-wieza --listen :8090`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.Password, err = pw.resolve(os.Getenv); err != nil {
				return err
			}
			if o.MetricsAllow, err = ops.ParseAllow(allow); err != nil {
				return fmt.Errorf("--metrics-allow%w", err)
			}
			o.Log = slog.Default().With("venue", o.Venue, "table", "hub", "game", "hub")
			o.Version = companion.Version
			h, err := hub.New(o)
			if err != nil {
				return err
			}
			go func() { o.Log.Info("venue wall", "url", "http://"+h.Addr()+"/") }()
			return h.Run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Broker, "broker", "tcp://127.0.0.1:1883", "venue MQTT broker URL, or several comma-separated (every node of a NATS cluster: the hub follows the next when one goes away)")
	f.StringVar(&o.Venue, "venue", "", "venue id (as in the tables' configs)")
	f.StringVar(&o.Listen, "listen", ":8090", "address of the wall page")
	f.StringVar(&o.Username, "username", "", "broker user name")
	pw.addFlags(cmd, "broker password")
	f.StringSliceVar(&allow, "metrics-allow", nil, "addresses or CIDR prefixes that may read /metrics on the wall's listener (default: loopback only)")
	wallFlags(cmd, &o)
	cmd.MarkFlagRequired("venue")
	return cmd
}

func newWatchCmd() *cobra.Command {
	o := watch.Options{Out: os.Stdout}
	var pw password
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Follow one table's live state in the terminal",
		Long: `Shows a table's live state in the terminal: units, the shot in progress, rulings
waiting, the last events. With the referee's credentials (--username and
--password, --password-file or $SZTAB_PASSWORD) it shows the referee's view,
dice fairness included, and takes the referee's rulings from the keyboard:
n next phase, c confirm, x cancel, u undo, 1–6 a die, each followed by Enter (sent to the table's referee/command topic once the
referee's view has arrived; the watch says whether the table took each).`,
		Example: `  sztab watch --broker tcp://127.0.0.1:1884 --table stol-1`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.Password, err = pw.resolve(os.Getenv); err != nil {
				return err
			}
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
	pw.addFlags(cmd, "broker password")
	f.BoolVar(&o.Clear, "clear", true, "redraw in place (false: print each frame)")
	f.DurationVar(&o.NoStatusAfter, "no-status-after", watch.DefaultNoStatusAfter, "once connected, say \"no such table\" when the table's status has not come within this time")
	cmd.MarkFlagRequired("table")
	return cmd
}

// wallFlags are the wall's pacing and connection caps (hub.Options), for
// `sztab hub` and `sztab venue`.
func wallFlags(cmd *cobra.Command, o *hub.Options) {
	f := cmd.Flags()
	f.DurationVar(&o.WallEvery, "wall-every", hub.DefaultWallEvery, "the wall goes to its pages at most this often while tables change faster")
	f.Int64Var(&o.WallBandwidth, "wall-bandwidth", hub.DefaultWallBandwidth, "bytes a second the wall may send to all its pages together (many spectators: it goes less often)")
	f.IntVar(&o.MaxConns, "max-conns", hub.DefaultMaxConns, "live pages the wall serves at most")
	f.IntVar(&o.MaxConnsPerAddr, "max-conns-per-addr", display.DefaultMaxConnsPerAddr, "live pages from one address at most (raise it behind a proxy)")
	f.StringVar(&o.Heads, "heads", "", "file to keep the journal heads the tables publish in (JSON; read back at start): sztab verify --journal J --heads FILE checks a journal against it")
}
