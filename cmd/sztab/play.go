package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion/skirmishgame"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/skirmish"
)

func init() { register(newPlayCmd) }

func newPlayCmd() *cobra.Command {
	var game, script, view, lang string
	var asJSON, keepGoing, events bool
	var files skirmishgame.DataFiles
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
			if game != "skirmish" {
				return fmt.Errorf("play: game %q: only skirmish is scripted so far", game)
			}
			if lang != "pl" && lang != "en" {
				return fmt.Errorf("play: --lang %q: want pl or en", lang)
			}
			viewer, err := parseViewer(view)
			if err != nil {
				return err
			}
			cat, err := loadCatalogue(files)
			if err != nil {
				return err
			}
			var data []byte
			if script == "-" {
				data, err = io.ReadAll(os.Stdin)
			} else {
				data, err = os.ReadFile(script)
			}
			if err != nil {
				return err
			}
			lines, err := skirmish.ParseScript(cat, script, data)
			if err != nil {
				return err
			}
			final, steps := skirmish.Play(lines, keepGoing)
			out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
			refused := 0
			for _, st := range steps {
				if events {
					fmt.Fprint(out, st.Transcript(lang))
				}
				if st.Err != nil {
					refused++
					fmt.Fprintf(errOut, "%s:%d: %s\n", script, st.Line, refusal(st.Err))
				}
			}
			v := final.View(viewer)
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(v); err != nil {
					return err
				}
			} else {
				printState(out, v, lang)
			}
			if refused > 0 && !keepGoing {
				return &skirmishExit{code: 1, msg: fmt.Sprintf("%s: play stopped at a refused action", script)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&game, "game", "skirmish", "game the script is for")
	cmd.Flags().StringVar(&script, "script", "", "script file (JSON Lines; - for standard input)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the final state as JSON")
	cmd.Flags().BoolVar(&keepGoing, "continue", false, "report refused actions and go on")
	cmd.Flags().BoolVar(&events, "events", false, "print every action's events")
	cmd.Flags().StringVar(&view, "view", "public", "whose view to print: public, referee or a seat number")
	cmd.Flags().StringVar(&lang, "lang", "pl", "language of the text output: pl or en")
	dataFlags(cmd, &files)
	cmd.MarkFlagRequired("script")
	return cmd
}

func parseViewer(v string) (skirmish.Viewer, error) {
	switch v {
	case "public", "":
		return skirmish.Viewer{}, nil
	case "referee":
		return skirmish.Viewer{Referee: true}, nil
	}
	seat, err := strconv.Atoi(v)
	if err != nil || seat < 1 {
		return skirmish.Viewer{}, fmt.Errorf("play: --view %q: want public, referee or a seat number", v)
	}
	return skirmish.Viewer{Seat: seat}, nil
}

func refusal(err error) string {
	if rej, ok := rules.AsRejection(err); ok {
		return fmt.Sprintf("refused %s: %s / %s", rej.Code, rej.Reason.PL, rej.Reason.EN)
	}
	return err.Error()
}

// printState is a short text summary of a state.
func printState(w io.Writer, s skirmish.State, lang string) {
	t := func(pl, en string) string {
		if lang == "en" {
			return en
		}
		return pl
	}
	txt := func(x rules.Text) string { return t(x.PL, x.EN) }
	if s.Scenario != nil {
		fmt.Fprintf(w, "%s %d: %s\n", t("Scenariusz", "Scenario"), s.Scenario.Number, txt(s.Scenario.Name))
	}
	fmt.Fprintf(w, "%s %d: %s\n", t("Runda", "Round"), s.Round, txt(s.Phase.Name()))
	if s.Result != nil {
		fmt.Fprintf(w, "%s: %s\n", t("Wynik", "Result"), txt(s.Result.Text))
	} else if len(s.Players) > 0 {
		fmt.Fprintf(w, "%s: %s\n", t("Gracz", "Player"), s.Players[s.Active].Name)
	}
	names := map[int]string{}
	for _, p := range s.Players {
		names[p.Seat] = p.Name
	}
	for _, sd := range s.Sides {
		var who []string
		for _, seat := range sd.Seats {
			who = append(who, names[seat])
		}
		fmt.Fprintf(w, "  %s (%s): %s %d, %s %d (%d %s), %s %d, %s %d\n", sd.Faction, strings.Join(who, ", "),
			t("modele", "models"), sd.Alive, t("zabici", "kills"), sd.Kills, sd.KillPoints, t("pkt", "pts"),
			t("punkty celu", "objective points"), sd.ObjectivePoints, t("rozkazy", "order points"), sd.OrderPoints)
	}
	for _, u := range s.Units {
		var models []string
		for _, m := range u.Models {
			switch {
			case m.Removed:
				models = append(models, m.ID+" †")
			default:
				models = append(models, fmt.Sprintf("%s %d/%d", m.ID, m.Remaining(), m.Lives))
			}
		}
		fmt.Fprintf(w, "  %-12s %-24s %s: %s\n", u.ID, u.Name, names[u.Owner], strings.Join(models, ", "))
	}
	for _, ps := range s.Seats {
		if ps.Hand != nil {
			var cards []string
			for _, h := range ps.Hand {
				cards = append(cards, h.ID)
			}
			fmt.Fprintf(w, "  %s %s: %s\n", t("Rozkazy na ręce", "Orders in hand of"), names[ps.Seat], strings.Join(cards, ", "))
		}
	}
	if s.Call != nil {
		fmt.Fprintf(w, "%s: %s\n", t("Czeka na rozstrzygnięcie", "Waiting for a ruling"), txt(s.Call.Question))
	}
	if sh := s.Shot; sh != nil {
		fmt.Fprintf(w, "%s: %s → %s (%s), %s %s, %d/%d\n", t("Strzał", "Shot"), sh.Shooter, sh.Target, sh.Weapon, t("etap", "stage"), sh.Stage, len(sh.Entered), sh.Need)
	}
	if ls := s.LastShot; ls != nil {
		fmt.Fprintf(w, "%s: %s → %s (%s): %s %v, %s %v\n", t("Ostatni strzał", "Last shot"), ls.Shooter, ls.Target, ls.Weapon,
			t("ranni", "wounded"), ls.Wounded, t("zabici", "killed"), ls.Killed)
	}
}
