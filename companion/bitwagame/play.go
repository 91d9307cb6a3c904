package bitwagame

import (
	"fmt"
	"io"
	"strings"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/bitwa"
)

// play runs a script of bitwa actions for `sztab play` (the format of
// rules/bitwa/testdata/games: a setup line, then one action a line).
func play(sc gamespec.Script) error {
	var files DataFiles
	for name, path := range sc.Files {
		switch name {
		case "cards":
			files.Cards = path
		case "components":
			files.Components = path
		default:
			return fmt.Errorf("bitwagame: --data %s: the game's data files are cards and components", name)
		}
	}
	cat, err := LoadCatalogue(files, func(p string) string { return p })
	if err != nil {
		return err
	}
	lines, err := bitwa.ParseScript(cat, sc.Name, sc.Data)
	if err != nil {
		return err
	}
	final, steps := bitwa.Play(lines, sc.Continue)
	v := final.View(bitwa.Viewer{Referee: sc.View.Role == gamespec.RoleReferee, Seat: sc.View.Seat})
	asJSON := v
	asJSON.Cards, asJSON.Comp = nil, bitwa.Components{}
	return gamespec.ReportScript(sc, steps, asJSON, func(w io.Writer) { printState(w, v, sc.Lang) })
}

// printState is a short text summary of a state: the round, the result or
// whom the game waits for, the board of each army and the hands shown.
func printState(w io.Writer, s bitwa.State, lang string) {
	t := func(pl, en string) string {
		if lang == "en" {
			return en
		}
		return pl
	}
	txt := func(x rules.Text) string { return t(x.PL, x.EN) }
	if st, ok := stageName[s.Stage]; ok {
		fmt.Fprintf(w, "%s %d, %s\n", t("Runda", "Round"), s.Round, txt(st))
	} else {
		fmt.Fprintf(w, "%s %d\n", t("Runda", "Round"), s.Round)
	}
	if s.Result != nil {
		fmt.Fprintf(w, "%s: %s\n", t("Wynik", "Result"), txt(s.Result.Text))
	} else if s.Pending != nil {
		fmt.Fprintf(w, "%s: %s\n", t("Czeka", "Waiting"), txt(s.Pending.Text))
	} else if p := s.Player(s.Active); p != nil {
		fmt.Fprintf(w, "%s: %s\n", t("Akcja gracza", "Turn of"), p.Name)
	}
	if s.Bonus != "" {
		fmt.Fprintf(w, "%s: %s\n", t("Dodatkowa Punktacja", "Bonus front"), txt(frontName(s, s.Bonus)))
	}
	for i, ar := range bitwa.Armies {
		a := s.Armies[i]
		var fronts []string
		for fi, f := range bitwa.Fronts {
			x := fmt.Sprintf("%s %d/%d", txt(frontName(s, f)), a.Fronts[fi].First, a.Fronts[fi].Second)
			if c := a.Commanders[fi]; c != nil {
				x += " [" + txt(s.Cards[c.Card].Names()) + "]"
			}
			if a.Orders[fi] != "" {
				x += " {" + txt(s.Cards[a.Orders[fi]].Names()) + "}"
			}
			fronts = append(fronts, x)
		}
		fmt.Fprintf(w, "  %s: %s %d, %s; %s %d, %s %d\n", strings.ToUpper(ar), t("PZ", "VP"), a.VP, strings.Join(fronts, ", "),
			t("Rezerwa", "reserve"), a.Reserve, t("talia", "deck"), a.DeckLen)
	}
	for _, p := range s.Players {
		line := fmt.Sprintf("  %s (%s): %s %d", p.Name, strings.ToUpper(p.Army), t("ręka", "hand"), p.HandCount)
		if p.Passed {
			line += t(", pas", ", passed")
		}
		fmt.Fprintln(w, line)
		if len(p.Hand) > 0 {
			var names []string
			for _, id := range p.Hand {
				names = append(names, txt(s.Cards[id].Names()))
			}
			fmt.Fprintf(w, "    %s: %s\n", t("ręka", "hand"), strings.Join(names, ", "))
		}
	}
}
