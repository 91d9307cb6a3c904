package wotrushgame

import (
	"fmt"
	"io"
	"strings"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/wotrush"
)

// play runs a script of wot-rush actions for `sztab play` (the format of
// rules/wotrush/testdata/games: a setup line, then one action a line).
func play(sc gamespec.Script) error {
	var files DataFiles
	for name, path := range sc.Files {
		switch name {
		case "vehicles":
			files.Vehicles = path
		case "components":
			files.Components = path
		default:
			return fmt.Errorf("wotrushgame: --data %s: the game's data files are vehicles and components", name)
		}
	}
	cat, err := LoadCatalogue(files, func(p string) string { return p })
	if err != nil {
		return err
	}
	lines, err := wotrush.ParseScript(cat, sc.Name, sc.Data)
	if err != nil {
		return err
	}
	final, steps := wotrush.Play(lines, sc.Continue)
	v := final.View(wotrush.Viewer{Referee: sc.View.Role == gamespec.RoleReferee, Seat: sc.View.Seat})
	asJSON := v
	asJSON.Cards = nil
	return gamespec.ReportScript(sc, steps, asJSON, func(w io.Writer) { printState(w, v, sc.Lang) })
}

// printState is a short text summary of a state.
func printState(w io.Writer, s wotrush.State, lang string) {
	t := func(pl, en string) string {
		if lang == "en" {
			return en
		}
		return pl
	}
	txt := func(x rules.Text) string { return t(x.PL, x.EN) }
	name := func(id string) string {
		if c, ok := s.Cards[id]; ok {
			return txt(c.Name)
		}
		return id
	}
	names := func(ids []string) string {
		var out []string
		for _, id := range ids {
			out = append(out, name(id))
		}
		if len(out) == 0 {
			return "—"
		}
		return strings.Join(out, ", ")
	}
	fmt.Fprintf(w, "%s %d, %s %d\n", t("Runda", "Round"), s.Round, t("tura", "turn"), s.Turn)
	if s.Result != nil {
		fmt.Fprintf(w, "%s: %s\n", t("Wynik", "Result"), txt(s.Result.Text))
		for _, sc := range s.Result.Scores {
			p := s.Player(sc.Seat)
			fmt.Fprintf(w, "  %s: %d (%s %d, %s %d, %s %d)\n", p.Name, sc.Total, t("medale", "medals"), sc.MedalPoints,
				t("bazy", "bases"), sc.BasePoints, t("osiągnięcia", "achievements"), sc.AchievementPoints)
		}
	} else if p := s.Player(s.Active); p != nil {
		fmt.Fprintf(w, "%s: %s\n", t("Tura gracza", "Turn of"), p.Name)
	}
	fmt.Fprintf(w, "%s: %s\n", t("Rezerwa", "Reserve"), names(s.Reserve))
	for _, p := range s.Players {
		var bases []string
		for _, b := range p.Bases {
			x := t("Baza ", "base ") + b.Card[strings.LastIndex(b.Card, "-")+1:]
			if b.Damaged {
				x += t(" uszkodzona", " damaged")
			}
			if b.Defender != "" {
				x += t(", broni: ", ", defended by ") + name(b.Defender)
			}
			bases = append(bases, x)
		}
		fmt.Fprintf(w, "  %s: %s %s; %s %d, %s %d, %s %d\n", p.Name, t("Bazy", "bases"), strings.Join(bases, "; "),
			t("ręka", "hand"), p.HandSize, t("Garaż", "Garage"), p.GarageSize, t("Magazyn", "Magazine"), len(p.Magazine))
		if len(p.Hand) > 0 {
			fmt.Fprintf(w, "    %s: %s\n", t("ręka", "hand"), names(p.Hand))
		}
	}
	if s.Pending != nil {
		fmt.Fprintf(w, "%s: %s\n", t("Czeka", "Waiting"), txt(s.Pending.Text))
	}
}
