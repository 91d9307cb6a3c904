package maligame

import (
	"fmt"
	"io"
	"strings"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules/mali"
)

// play runs a script of Mali Powstańcy actions for `sztab play`: the engine
// the daemon uses, the final state as the viewer sees it.
func play(sc gamespec.Script) error {
	paths := map[string]string{}
	for name, path := range sc.Files {
		switch name {
		case "map", "orders", "goals", "die":
			paths[name+".yaml"] = path
		default:
			return fmt.Errorf("maligame: --data %s: the game's data files are map, orders, goals and die", name)
		}
	}
	cat, err := LoadCatalogue(paths)
	if err != nil {
		return err
	}
	lines, err := mali.ParseScript(cat, sc.Name, sc.Data)
	if err != nil {
		return err
	}
	final, steps := mali.Play(lines, sc.Continue)
	v := show(final, sc.View, computeBeforeTheDie(final)).(View)
	return gamespec.ReportScript(sc, steps, v, func(w io.Writer) { printState(w, v.State, sc.Lang) })
}

// printState is a short text summary of a state.
func printState(w io.Writer, s mali.State, lang string) {
	t := func(pl, en string) string {
		if lang == "en" {
			return en
		}
		return pl
	}
	cat := s.Catalogue()
	name := func(n mali.Node) string {
		if cat == nil {
			return string(n)
		}
		return cat.Name(n)
	}
	ph := phaseName[s.Phase]
	fmt.Fprintf(w, "%s %d: %s (%s)\n", t("Runda", "Round"), s.Round, t(ph.PL, ph.EN), s.Variant)
	if s.Result != nil {
		fmt.Fprintf(w, "%s: %s\n", t("Wynik", "Result"), t(s.Result.Reason.PL, s.Result.Reason.EN))
		for _, sc := range s.Result.Scores {
			fmt.Fprintf(w, "  %s %d: %d %s (%d %s), %s %d, %s %d = %d\n", t("miejsce", "seat"), sc.Seat, sc.Orders, t("rozkazów", "orders"),
				sc.OrderPoints, t("pkt", "pts"), t("powrót", "home"), sc.HomeBonus, t("cele", "goals"), sc.GoalPoints, sc.Total)
		}
	}
	if s.Soldier != "" {
		fmt.Fprintf(w, "%s: %s\n", t("Żołnierz", "Soldier"), name(s.Soldier))
	}
	for i, f := range s.Track {
		if len(f) > 0 {
			fmt.Fprintf(w, "  %s %d: %s\n", t("tor, pole", "track field"), i+1, strings.Join(f, ", "))
		}
	}
	for _, p := range s.Players {
		var cs []string
		for _, c := range s.Couriers {
			if c.Seat != p.Seat {
				continue
			}
			where := c.Off
			if c.OnMap() {
				where = name(c.At)
			}
			if c.Carrying != "" {
				where += " [" + c.Carrying + "]"
			}
			cs = append(cs, c.ID+" "+where)
		}
		fmt.Fprintf(w, "  %s (%s): %s; %s %v\n", p.Name, p.Colour, strings.Join(cs, ", "), t("dostarczone", "delivered"), p.Delivered)
	}
	if s.Pending != nil && s.Result == nil {
		fmt.Fprintf(w, "%s: %s %d %v\n", t("Czeka na", "Waiting for"), s.Pending.Kind, s.Pending.Seat, s.Pending.Choices)
	}
}
