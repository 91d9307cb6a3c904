package west1920game

import (
	"fmt"
	"io"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/west1920"
)

// play runs a script of west1920 actions for `sztab play` (the format of
// rules/west1920/testdata/games: a setup line, then one action a line).
func play(sc gamespec.Script) error {
	var files DataFiles
	for name, path := range sc.Files {
		switch name {
		case "map":
			files.Map = path
		case "oob":
			files.OOB = path
		case "cards":
			files.Cards = path
		default:
			return fmt.Errorf("west1920game: --data %s: the game's data files are map, oob and cards", name)
		}
	}
	cat, err := LoadCatalogue(files, func(p string) string { return p })
	if err != nil {
		return err
	}
	lines, err := west1920.ParseScript(cat, sc.Name, sc.Data)
	if err != nil {
		return err
	}
	final, steps := west1920.Play(lines, sc.Continue)
	v := final.View(west1920.Viewer{Referee: sc.View.Role == gamespec.RoleReferee, Seat: SideOfSeat(sc.View.Seat)})
	return gamespec.ReportScript(sc, steps, v, func(w io.Writer) { printState(w, v, sc.Lang) })
}

// printState is a short text summary of a state.
func printState(w io.Writer, s west1920.State, lang string) {
	t := func(x rules.Text) string {
		if lang == "en" {
			return x.EN
		}
		return x.PL
	}
	ph := phaseName[s.Phase]
	fmt.Fprintf(w, "%s %d/%d · %s\n", t(rules.Text{PL: "Etap", EN: "Stage"}), s.Stage, west1920.Stages, t(ph))
	if s.Result != nil {
		fmt.Fprintf(w, "%s: %s\n", t(rules.Text{PL: "Wynik", EN: "Result"}), t(*s.Result))
	}
	for _, p := range s.Players {
		hand := fmt.Sprint(p.Hand)
		if len(p.Hand) == 0 && p.HandSize > 0 {
			hand = fmt.Sprintf("(%d)", p.HandSize)
		}
		fmt.Fprintf(w, "  %s: %s %d/%d, %s %s\n", t(sideName(p.Side)), t(rules.Text{PL: "PZ", EN: "RP"}), p.RP(), p.TotalRP, t(rules.Text{PL: "ręka", EN: "hand"}), hand)
	}
	weak, gone := 0, 0
	for _, u := range s.Units {
		switch {
		case u.Status == west1920.Eliminated:
			gone++
		case u.Status == west1920.OnMap && u.Weak:
			weak++
		}
	}
	fmt.Fprintf(w, "%s %d, %s %d, %s %d\n", t(rules.Text{PL: "Magazyny", EN: "Depots"}), len(s.Depots),
		t(rules.Text{PL: "osłabione", EN: "weakened"}), weak, t(rules.Text{PL: "wyeliminowane", EN: "eliminated"}), gone)
	if s.Pending != nil {
		fmt.Fprintf(w, "%s: %s\n", t(rules.Text{PL: "Czeka", EN: "Waiting"}), t(s.Pending.Text))
	}
}
