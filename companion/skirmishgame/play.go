package skirmishgame

import (
	"fmt"
	"io"
	"strings"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/skirmish"
)

// play runs a script of skirmish actions for `sztab play`: the engine the
// daemon uses, the final state as the viewer sees it.
func play(sc gamespec.Script) error {
	var files DataFiles
	for name, path := range sc.Files {
		switch name {
		case "weapons":
			files.Weapons = path
		case "units":
			files.Units = path
		case "orders":
			files.Orders = path
		default:
			return fmt.Errorf("skirmishgame: --data %s: the skirmish game's data files are weapons, units and orders", name)
		}
	}
	cat, err := LoadCatalogue(files, func(p string) string { return p })
	if err != nil {
		return err
	}
	lines, err := skirmish.ParseScript(cat, sc.Name, sc.Data)
	if err != nil {
		return err
	}
	final, steps := skirmish.Play(lines, sc.Continue)
	v := final.View(skirmish.Viewer{Referee: sc.View.Role == gamespec.RoleReferee, Seat: sc.View.Seat})
	return gamespec.ReportScript(sc, steps, v, func(w io.Writer) { printState(w, v, sc.Lang) })
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
