package wotrush

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestEachAchievement checks each of the 12 achievements printed on the
// rulebook's last pages on its own: a winner, a tie ("Jeśli wymogi zostały
// spełnione przez kilku graczy … nikt nie otrzymuje karty"), and the edge
// its wording implies. Three players, seat 3 always behind, so a tie at the
// top is between two players and still gives nobody the card.
func TestEachAchievement(t *testing.T) {
	type arrange func(s *State)
	// give puts cards into seat's Magazine (the squad is "karty w swoim
	// ręku, Garażu i w Magazynie").
	give := func(seat int, ids ...string) arrange {
		return func(s *State) {
			for _, id := range ids {
				take(s, id)
				s.Player(seat).Magazine = append(s.Player(seat).Magazine, id)
			}
		}
	}
	// guard puts a vehicle on seat's first base: a defender of a surviving
	// base, not in the squad unless DefendersInSquad.
	guard := func(seat int, id string) arrange {
		return func(s *State) { defendWith(s, seat, 0, id) }
	}
	destroyed := func(seat, n int) arrange {
		return func(s *State) { s.Player(seat).BasesDestroyed = n }
	}
	// capture moves the base card of victim's base i to seat's Magazine
	// (as an attack does), counting it.
	capture := func(seat, victim int) arrange {
		return func(s *State) {
			vp := s.Player(victim)
			b := vp.Bases[0].Card
			vp.Bases = vp.Bases[1:]
			s.Player(seat).Magazine = append(s.Player(seat).Magazine, b)
			s.Player(seat).BasesDestroyed++
		}
	}
	scrap := func(seat int, id string) arrange {
		return func(s *State) {
			s.Player(seat).Magazine = removeOne(s.Player(seat).Magazine, id)
			s.Scrapyard = append(s.Scrapyard, id)
		}
	}
	type row struct {
		ach, name string
		o         Options
		do        []arrange
		winner    int // 0: nobody
	}
	rows := []row{
		// 1. "Otrzymuje je gracz, który zniszczył najwięcej Baz."
		{"ACH-01", "winner", Options{}, []arrange{capture(1, 2), capture(1, 3), capture(2, 3)}, 1},
		{"ACH-01", "tie", Options{}, []arrange{capture(1, 3), capture(2, 3)}, 0},
		{"ACH-01", "nobody destroyed a base: a tie at 0", Options{}, nil, 0},
		// "zniszczył", not "posiada": the bases destroyed count even when
		// their cards were scrapped (Demontaż) or never taken.
		{"ACH-01", "counts the destroying, not the base cards kept", Options{},
			[]arrange{capture(1, 2), capture(1, 3), scrap(1, "BASE-2-1"), scrap(1, "BASE-3-1"), capture(2, 3)}, 1},
		{"ACH-01", "a Siege kill counts (the counter)", Options{}, []arrange{destroyed(2, 1)}, 2},

		// 2.–6. "najwięcej Lekkich Czołgów … niezależnie od kraju".
		{"ACH-02", "winner, nations mixed", Options{}, []arrange{give(1, "SU-01", "DE-01"), give(2, "US-01")}, 1},
		{"ACH-02", "tie", Options{}, []arrange{give(1, "SU-01"), give(2, "DE-01")}, 0},
		{"ACH-02", "a defender is not in the squad", Options{}, []arrange{give(1, "SU-01"), give(2, "DE-01", "US-01")}, 2},
		{"ACH-03", "winner, nations mixed", Options{}, []arrange{give(1, "SU-06", "DE-07"), give(2, "US-07")}, 1},
		{"ACH-03", "tie", Options{}, []arrange{give(1, "SU-06"), give(2, "DE-07")}, 0},
		// "ocalałe Bazy gracza nie są częścią oddziału", nor (our choice)
		// their defenders.
		{"ACH-03", "a defender of a surviving base does not count", Options{},
			[]arrange{give(1, "SU-06"), guard(1, "SU-07"), give(2, "DE-06", "DE-07")}, 2},
		{"ACH-03", "option: defenders in the squad", Options{DefendersInSquad: true},
			[]arrange{give(1, "SU-06"), guard(1, "SU-07"), give(2, "DE-06")}, 1},
		{"ACH-04", "winner", Options{}, []arrange{give(1, "SU-12", "DE-12"), give(2, "US-12")}, 1},
		{"ACH-04", "tie", Options{}, []arrange{give(1, "SU-12"), give(2, "DE-15")}, 0},
		// Both icons are "Działa Samobieżne": tank destroyer and artillery.
		{"ACH-04", "tank destroyers and artillery both count", Options{},
			[]arrange{give(1, "SU-12", "SU-15"), give(2, "DE-12")}, 1},
		{"ACH-05", "winner", Options{}, []arrange{give(1, "SU-17", "DE-17"), give(2, "US-18")}, 1},
		{"ACH-05", "tie (the rulebook's example of a tie)", Options{}, []arrange{give(1, "SU-17"), give(2, "DE-17")}, 0},
		{"ACH-05", "a scrapped heavy is out of the squad", Options{},
			[]arrange{give(1, "SU-17", "SU-18"), scrap(1, "SU-18"), give(2, "DE-17", "DE-18")}, 2},
		{"ACH-06", "winner", Options{}, []arrange{give(1, "SU-21", "DE-21"), give(2, "US-21")}, 1},
		{"ACH-06", "tie", Options{}, []arrange{give(1, "SU-21"), give(2, "DE-21")}, 0},
		// Jednostki Pomocnicze are vehicles: Koszary (Technicy,
		// Wolontariusze) are not, however many.
		{"ACH-06", "barracks are not support units", Options{},
			[]arrange{give(1, "SU-21"), give(2, "TECH-1-1", "VOL-1-1", "TECH-3-1")}, 1},

		// 7.–10. "najwięcej Orderów Czerwonego Sztandaru" etc.: medals,
		// a double counts 2 (our reading; option "cards").
		{"ACH-07", "winner: a double beats a single", Options{}, []arrange{give(1, "OCS-2-01"), give(2, "OCS-1-01")}, 1},
		{"ACH-07", "tie: a double against two singles", Options{}, []arrange{give(1, "OCS-2-01"), give(2, "OCS-1-01", "OCS-1-02")}, 0},
		{"ACH-07", "option cards: two singles beat a double", Options{MedalAchievement: "cards"},
			[]arrange{give(1, "OCS-2-01"), give(2, "OCS-1-01", "OCS-1-02")}, 2},
		{"ACH-08", "winner", Options{}, []arrange{give(1, "ZK-1-01", "ZK-1-02"), give(2, "ZK-1-03")}, 1},
		{"ACH-08", "tie", Options{}, []arrange{give(1, "ZK-1-01"), give(2, "ZK-1-02")}, 0},
		{"ACH-08", "other nations' medals do not count", Options{},
			[]arrange{give(1, "ZK-1-01"), give(2, "OCS-2-01", "MH-2-01", "MM-2-01")}, 1},
		{"ACH-09", "winner", Options{}, []arrange{give(1, "MH-2-01"), give(2, "MH-1-01")}, 1},
		{"ACH-09", "tie", Options{}, []arrange{give(1, "MH-1-01"), give(3, "MH-1-02")}, 0},
		{"ACH-09", "other nations' medals do not count", Options{},
			[]arrange{give(2, "MH-1-01"), give(1, "ZK-2-01", "OCS-2-01")}, 2},
		{"ACH-10", "winner", Options{}, []arrange{give(3, "MM-1-01", "MM-1-02"), give(2, "MM-1-03")}, 3},
		{"ACH-10", "tie", Options{}, []arrange{give(1, "MM-2-01"), give(2, "MM-2-02")}, 0},
		{"ACH-10", "option cards: a double is one card", Options{MedalAchievement: "cards"},
			[]arrange{give(1, "MM-2-01"), give(2, "MM-1-01", "MM-1-02")}, 2},

		// 11. "najwięcej kart z dwoma Medalami": cards with two medals,
		// any nation; singles do not count however many.
		{"ACH-11", "winner, nations mixed", Options{}, []arrange{give(1, "OCS-2-01", "ZK-2-01"), give(2, "MH-2-01")}, 1},
		{"ACH-11", "tie", Options{}, []arrange{give(1, "OCS-2-01"), give(2, "MM-2-01")}, 0},
		{"ACH-11", "singles do not count", Options{},
			[]arrange{give(1, "OCS-2-01"), give(2, "ZK-1-01", "ZK-1-02", "ZK-1-03", "MH-1-01")}, 1},

		// 12. "najwięcej kart w swoim oddziale, wliczając karty Medali i
		// zniszczonych Baz" — every card of hand, Garage and Magazine.
		{"ACH-12", "winner", Options{}, []arrange{give(1, "SU-01")}, 1},
		{"ACH-12", "tie: the equal starting squads", Options{}, nil, 0},
		{"ACH-12", "medals and captured bases count", Options{},
			[]arrange{give(1, "SU-01"), give(2, "OCS-1-01"), capture(2, 3)}, 2},
		{"ACH-12", "surviving bases and their defenders do not", Options{},
			[]arrange{give(1, "SU-01", "SU-02"), give(2, "DE-01"), guard(2, "DE-07"), guard(1, "SU-07"), capture(2, 3)}, 0},
	}
	cat := defaultCat(t)
	covered := map[string]bool{}
	for _, r := range rows {
		covered[r.ach] = true
		t.Run(r.ach+" "+r.name, func(t *testing.T) {
			st, err := cat.NewGame(Setup{Players: []PlayerInfo{{1, "A"}, {2, "B"}, {3, "C"}}, First: 1, Seed: 1,
				Options: r.o})
			if err != nil {
				t.Fatal(err)
			}
			s, _ := mustApply(t, State{}, st)
			// Only the achievement under test is in play.
			s.Box = removeOne(append(s.Box, s.Achievements...), r.ach)
			s.Achievements = []string{r.ach}
			for _, f := range r.do {
				f(&s)
			}
			checkConservation(t, s)
			evs := s.score()
			for _, p := range s.Players {
				want := []string{}
				if p.Seat == r.winner {
					want = []string{r.ach}
				}
				if !slices.Equal(append([]string{}, p.Won...), want) {
					counts := []int{}
					for _, q := range s.Players {
						counts = append(counts, s.AchievementCount(q.Seat, *s.Cards[r.ach].Achievement))
					}
					t.Fatalf("seat %d won %v, want %v (counts %v)", p.Seat, p.Won, want, counts)
				}
				if got := s.Result.Scores[p.Seat-1].AchievementPoints; got != 5*len(want) {
					t.Errorf("seat %d: %d achievement points", p.Seat, got)
				}
			}
			var ev *Event
			for i := range evs {
				if evs[i].Type == "achievement" {
					ev = &evs[i]
				}
			}
			if ev == nil || ev.Card != r.ach || ev.Seat != r.winner {
				t.Errorf("achievement event %+v, want seat %d", ev, r.winner)
			}
			// A card won leaves the table; a tied one stays there.
			if stays := slices.Contains(s.Achievements, r.ach); stays != (r.winner == 0) {
				t.Errorf("achievements left on the table %v", s.Achievements)
			}
		})
	}
	for _, ac := range cat.Data.Components.Achievements {
		if !covered[ac.ID] {
			t.Errorf("%s has no direct test", ac.ID)
		}
	}
}

// TestAchievementPointsFromData: an achievement won is worth
// components.yaml's achievement_points (the rulebook's 5 by default, a
// table's edited file otherwise), not a 5 of the code's own.
func TestAchievementPointsFromData(t *testing.T) {
	for _, points := range []int{5, 7, 0} {
		t.Run(fmt.Sprint(points), func(t *testing.T) {
			files := DefaultFiles()
			comp := strings.Replace(string(files[ComponentsFile]), "achievement_points: 5", fmt.Sprintf("achievement_points: %d", points), 1)
			cat, err := ParseCatalogue(VehiclesFile, files[VehiclesFile], ComponentsFile, []byte(comp))
			if err != nil {
				t.Fatal(err)
			}
			st, err := cat.NewGame(Setup{Players: []PlayerInfo{{1, "A"}, {2, "B"}}, First: 1, Seed: 1, Achievements: []string{"ACH-01", "ACH-12", "ACH-11"}})
			if err != nil {
				t.Fatal(err)
			}
			s, _ := mustApply(t, State{}, st)
			// A leads the squad (ACH-12) and the bases destroyed (ACH-01).
			s.Deck = removeOne(s.Deck, "SU-01")
			s.Player(1).Magazine = append(s.Player(1).Magazine, "SU-01")
			s.Player(1).BasesDestroyed = 1
			s.score()
			a := s.Result.Scores[0]
			if a.AchievementPoints != 2*points || a.Total != a.MedalPoints+a.BasePoints+2*points {
				t.Errorf("achievement_points %d: A won %v for %d points (total %d), want %d", points, a.Achievements, a.AchievementPoints, a.Total, 2*points)
			}
		})
	}
}
