package wotrush

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"
)

var gen = flag.Bool("gen", false, "rewrite the bot-played scripts testdata/games/N-players.jsonl")

// botScore ranks the legal actions for the scripted bot that plays the
// golden games: abilities first, then attacks on bases, big purchases,
// and the turn's end last.
func botScore(s State, a Action) int {
	switch a := a.(type) {
	case PlayCard:
		if a.Skip {
			return 1
		}
		if s.Cards[a.Card].Kind == KindBarracks && s.Cards[a.Card].has(AbResearch) {
			return 2
		}
		if s.Cards[a.Card].has(AbIndestructible) {
			return 90
		}
		if s.Cards[a.Card].has(AbDismantle) {
			engineers := 0
			for _, id := range s.Player(a.Seat).Magazine {
				if s.Cards[id].Kind == KindBarracks {
					engineers++
				}
			}
			if engineers < 3 {
				return -1
			}
		}
		return 60
	case Attack:
		return 70 + 5*len(a.Cards)
	case Fire:
		if s.Cards[a.Target].Kind == KindBase {
			return 80
		}
		return 75
	case Buy:
		c := 0
		for _, id := range a.Cards {
			c += s.Cards[id].Cost
		}
		return 20 + 3*c - len(a.Pay)
	case Research:
		if a.Take == "" {
			return 0
		}
		return 10 + s.Cards[a.Take].Cost
	case Siege:
		if s.Cards[a.Target].Kind == KindBase {
			return 12
		}
		return 11
	case TakeMedals:
		return a.Doubles
	case Dismantle:
		sc := 5
		for _, id := range a.Cards {
			if s.Cards[id].Kind == KindBarracks {
				sc += 10
			} else {
				sc -= 10
			}
		}
		return sc
	case EndTurn:
		return 0
	}
	return 5
}

func botGame(t testing.TB, n int, seed uint64, o Options) []byte {
	cat := defaultCat(t)
	names := []string{"Ala", "Bartek", "Celina", "Darek", "Ewa"}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %d players, played by the scripted bot of gen_test.go (seed %d)\n", n, seed)
	var ps []PlayerInfo
	for i := 0; i < n; i++ {
		ps = append(ps, PlayerInfo{Seat: i + 1, Name: names[i]})
	}
	setup := Setup{Players: ps, First: 1, Seed: seed, Options: o}
	line, _ := jsonNoEscape(setup)
	b.WriteString(`{"type":"setup",` + string(line[1:]) + "\n")
	st, err := cat.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := mustApply(t, State{}, st)
	x := seed
	for i := 0; i < 5000 && s.Phase == PhasePlay; i++ {
		acts := LegalActions(s)
		if len(acts) == 0 {
			t.Fatalf("no legal action: pending %+v playing %+v attack %+v", s.Pending, s.Playing, s.Attack)
		}
		best, bestScore := []Action{}, -1000
		for _, a := range acts {
			sc := botScore(s, a)
			if sc > bestScore {
				best, bestScore = nil, sc
			}
			if sc == bestScore {
				best = append(best, a)
			}
		}
		x = x*6364136223846793005 + 1442695040888963407
		a := best[int((x>>33)%uint64(len(best)))]
		enc, _ := EncodeAction(a)
		b.Write(enc)
		b.WriteString("\n")
		s, _ = mustApply(t, s, a)
	}
	if s.Phase != PhaseOver {
		t.Fatalf("bot game %d/%d did not end: round %d, players %+v medals %+v scrap %d", n, seed, s.Round, s.Players, s.Medals, len(s.Scrapyard))
	}
	return b.Bytes()
}

func TestGenerateBotGames(t *testing.T) {
	if !*gen {
		t.Skip("run with -gen to rewrite the bot games")
	}
	// readme.jsonl is hand-written (a story in its header), not generated.
	for _, g := range []struct {
		n    int
		seed uint64
		o    Options
	}{{2, 11, Options{}}, {3, 12, Options{Medals: "choose", SabotageChooser: "active"}}, {4, 13, Options{}}, {5, 14, Options{OddMedal: "double"}}} {
		data := botGame(t, g.n, g.seed, g.o)
		if g.n == 5 {
			// The 5-player game is the one that must show Niezniszczalność
			// (only heavies carry it): the first seed whose game plays it.
			for seed := g.seed; !bytes.Contains(data, []byte(`"type":"play_card"`)) || !usesIndestructible(t, data); seed++ {
				data = botGame(t, g.n, seed, g.o)
			}
		}
		if err := os.WriteFile(fmt.Sprintf("testdata/games/%d-players.jsonl", g.n), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func usesIndestructible(t testing.TB, data []byte) bool {
	cat := defaultCat(t)
	lines, err := ParseScript(cat, "gen", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if p, ok := l.Action.(PlayCard); ok && !p.Skip {
			if v, ok := cat.Vehicles[p.Card]; ok && hasAbility(v.Abilities, AbIndestructible) {
				return true
			}
		}
	}
	return false
}
