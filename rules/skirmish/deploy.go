package skirmish

import (
	"fmt"
	"strings"

	"github.com/sztab/sztab/rules"
)

// Deployment ("Rozmieszczenie"): "Przez jakąkolwiek fazę gracze po kolei
// rozmieszczają swoje oddziały (jeden po drugim) w odległości maksymalnej 12
// kroków od krawędzi stołu. Modele piechoty powinny znajdować się o minimum 3
// kroki od siebie. Modele w oddziale muszą stać od siebie maksymalnie na
// odległość 2 kroków."
//
// Our reading, written down because the two spacing sentences contradict
// each other if both are about the same models:
//   - zone: the whole base lies within 12 kroki of the player's own edge;
//   - coherency: the models of a unit form a chain in which each link is at
//     most 2 kroki base to base (every pair within 2 is impossible for a
//     line of five);
//   - gap: "3 kroki" is the space between units, so every model stands at
//     least 3 kroki base to base from every model of any other unit already
//     on the table (friend or foe). Options.UnitGap = 0 switches it off.
// Units deploy one at a time, players in turn from the first player; a player
// with nothing left to deploy is skipped.

func (s *State) deploy(a Deploy) ([]Event, error) {
	if s.Phase != PhaseDeployment {
		return nil, rules.Reject("wrong_phase", "rozmieszczenie jest po wyborze armii i scenariusza (teraz: %[1]s)",
			"deployment comes after the armies and the scenario (now: %[2]s)", s.Phase.Name().PL, s.Phase.Name().EN)
	}
	u := s.unit(a.Unit)
	switch {
	case u == nil || u.Owner != s.ActiveSeat():
		// A unit in no army is refused as another player's is: the refusal
		// is public, and their list is hidden until deployed.
		return nil, rules.Reject("not_your_turn", "teraz oddział rozmieszcza %s", "it is %s's turn to deploy", s.Players[s.Active].Name)
	}
	if u.Deployed {
		return nil, rules.Reject("already_deployed", "%s już stoi na stole", "%s is already on the table", u.Name)
	}
	at, err := s.placements(u, a.Models, true)
	if err != nil {
		return nil, err
	}
	_, owner := s.player(u.Owner)
	ids := make([]string, 0, len(at))
	for _, m := range u.Models {
		if !m.Removed {
			ids = append(ids, m.ID)
		}
	}
	for _, id := range ids {
		p := at[id]
		far := Measure{Kroki: s.fromEdge(owner.Edge, p.Point) + p.Base/2, Uncertainty: 2 * p.Sigma}
		q := rules.Textf("czy cała podstawka %s jest do %s kroków od krawędzi (%s)?", "is all of %s's base within %s kroki of the edge (%s)?",
			id, fmtNum(s.Options.DeployDepth), owner.Edge)
		ok, err := s.within("deploy_zone:"+id, far, s.Options.DeployDepth, q)
		if err != nil {
			return nil, err
		}
		if !ok {
			if err := s.waiver.Breach("deploy_zone", "%[1]s: podstawka sięga %[2]s od krawędzi, wolno najwyżej %[3]s", "%[1]s: its base reaches %[4]s kroki from the edge, at most %[5]s allowed",
				id, plKroki(roundMeasure(far)), fmtNum(s.Options.DeployDepth), fmtMeasure(roundMeasure(far)), fmtNum(s.Options.DeployDepth)); err != nil {
				return nil, err
			}
		}
	}
	if err := s.coherent(u, ids, at); err != nil {
		return nil, err
	}
	if s.Options.UnitGap > 0 {
		for i := range s.Units {
			other := &s.Units[i]
			if other.ID == u.ID || !other.Deployed {
				continue
			}
			for _, id := range ids {
				p := at[id]
				for _, om := range other.Models {
					if om.Removed || om.At == nil {
						continue
					}
					g := baseGap(p.Point, p.Base, *om.At, om.Base)
					q := rules.Textf("czy %[1]s stoi bliżej niż %[2]s od %[3]s?", "is %[1]s closer than %[4]s kroki to %[3]s?", id, plKrokiN(s.Options.UnitGap), om.ID, fmtNum(s.Options.UnitGap))
					// "within" the gap means too close; exactly 3 kroki is allowed.
					tooNear, err := s.within("unit_gap:"+id+":"+om.ID, Measure{Kroki: g.Kroki + 1e-9, Uncertainty: g.Uncertainty}, s.Options.UnitGap, q)
					if err != nil {
						return nil, err
					}
					if tooNear {
						if err := s.waiver.Breach("too_close", "%[1]s stoi %[2]s od %[3]s (%[4]s); między oddziałami minimum %[5]s",
							"%[1]s stands %[6]s kroki from %[3]s (%[4]s); units keep at least %[7]s kroki apart",
							id, plKroki(roundMeasure(g)), om.ID, other.Name, plKrokiN(s.Options.UnitGap), fmtMeasure(roundMeasure(g)), fmtNum(s.Options.UnitGap)); err != nil {
							return nil, err
						}
					}
				}
			}
		}
	}
	for _, id := range ids {
		m := u.model(id)
		p := at[id]
		pt := p.Point
		m.At, m.Base = &pt, p.Base
	}
	u.Deployed = true
	evs := []Event{{Type: "deployed", Seat: u.Owner, Unit: u.ID, Models: ids,
		Text: rules.Textf("%[1]s rozmieszcza oddział: %[2]s (%[3]s)", "%[1]s deploys %[2]s (%[4]d models)", owner.Name, u.Name, plN(len(ids), "model", "modele", "modeli"), len(ids))}}
	return append(evs, s.nextDeployer()...), nil
}

type placed struct {
	Point
	Base float64
}

// placements checks a list of placements against a unit: known models,
// each once, on the table; with all, every living model must be placed.
func (s *State) placements(u *Unit, ps []Placement, all bool) (map[string]placed, error) {
	at := map[string]placed{}
	for _, p := range ps {
		m := u.model(p.Model)
		switch {
		case m == nil:
			return nil, rules.Reject("unknown_model", "%s nie ma modelu %q", "%s has no model %q", u.Name, p.Model)
		case m.Removed:
			return nil, rules.Reject("model_removed", "%s nie żyje i zszedł ze stołu", "%s is dead and off the table", p.Model)
		case p.Sigma < 0 || p.Base < 0:
			return nil, rules.Reject("bad_measurement", "%s: błędny pomiar", "%s: bad measurement", p.Model)
		}
		if _, dup := at[p.Model]; dup {
			return nil, rules.Reject("bad_measurement", "%s podany dwa razy", "%s given twice", p.Model)
		}
		pt := Point{X: p.X, Y: p.Y, Sigma: p.Sigma}
		if !s.onTable(pt) {
			return nil, rules.Reject("not_on_table", "%s w (%s, %s) jest poza stołem %s×%s", "%s at (%s, %s) is off the %s×%s table",
				p.Model, fmtNum(p.X), fmtNum(p.Y), fmtNum(s.Options.Table.Width), fmtNum(s.Options.Table.Depth))
		}
		base := p.Base
		if base == 0 {
			base = m.Base
		}
		if base == 0 {
			base = s.Options.Base
		}
		at[p.Model] = placed{Point: pt, Base: base}
	}
	if all {
		var missing []string
		for _, m := range u.Models {
			if _, ok := at[m.ID]; !ok && !m.Removed {
				missing = append(missing, m.ID)
			}
		}
		if len(missing) > 0 {
			// The refusal is public and the unit is not deployed: it names
			// neither the missing models nor how many (the army list is
			// hidden); the owner's view shows the models without a position.
			return nil, rules.Reject("models_missing", "%s: nie wszystkie modele oddziału stoją na stole; rozmieszcza się cały oddział",
				"%s: not all of the unit's models are on the table; a whole unit deploys", u.Name)
		}
	}
	return at, nil
}

// coherent checks the chain rule: the graph linking models at most
// Coherency apart must be connected. Links the camera cannot decide are
// asked about only where they would join two groups.
func (s *State) coherent(u *Unit, ids []string, at map[string]placed) error {
	n := len(ids)
	if n < 2 {
		return nil
	}
	type link struct {
		i, j int
		key  string
		m    Measure
	}
	var sure, maybe []link
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := at[ids[i]], at[ids[j]]
			l := link{i, j, "coherency:" + ids[i] + ":" + ids[j], baseGap(a.Point, a.Base, b.Point, b.Base)}
			switch judge(l.m, s.Options.Coherency) {
			case inside:
				sure = append(sure, l)
			case tooClose:
				if in, ok := s.ruled(l.key); ok {
					if in {
						sure = append(sure, l)
					}
				} else {
					maybe = append(maybe, l)
				}
			}
		}
	}
	groups := func(links []link) []int {
		g := make([]int, n)
		for i := range g {
			g[i] = i
		}
		var find func(int) int
		find = func(x int) int {
			for g[x] != x {
				x = g[x]
			}
			return x
		}
		for _, l := range links {
			g[find(l.i)] = find(l.j)
		}
		for i := range g {
			g[i] = find(i)
		}
		return g
	}
	g := groups(sure)
	connected := func(g []int) bool {
		for i := range g {
			if g[i] != g[0] {
				return false
			}
		}
		return true
	}
	if connected(g) {
		return nil
	}
	if !connected(groups(append(append([]link{}, sure...), maybe...))) {
		// Name a model cut off from the first model's group.
		for i := range g {
			if g[i] != g[0] {
				return rules.Reject("unit_coherency", "%s: %s stoi dalej niż %s kroki od reszty oddziału", "%s: %s stands more than %s kroki from the rest of the unit",
					u.Name, ids[i], fmtNum(s.Options.Coherency))
			}
		}
	}
	for _, l := range maybe {
		if g[l.i] != g[l.j] {
			return &needCall{Call{Key: l.key, Measured: l.m, Limit: s.Options.Coherency,
				Question: rules.Textf("czy %s i %s stoją do %s kroków od siebie?", "are %s and %s within %s kroki of each other?", ids[l.i], ids[l.j], fmtNum(s.Options.Coherency))}}
		}
	}
	return nil
}

// nextDeployer hands deployment to the next player with units left, or
// starts the game when everything is on the table.
func (s *State) nextDeployer() []Event {
	n := len(s.Players)
	for k := 1; k <= n; k++ {
		i := (s.Active + k) % n
		seat := s.Players[i].Seat
		for _, u := range s.Units {
			if u.Owner == seat && !u.Deployed {
				s.Active = i
				return nil
			}
		}
	}
	return s.startPlay()
}

// move records the new positions of the active player's models ("Faza
// ruchu"): each may end at most its move from where it stood when the phase
// began ("tak aby podstawka skończyła ruch w limicie maksymalnej wartości"),
// measured centre to centre, the straight line from start to end. A model
// whose path crossed an obstacle jumped it; its weapon says whether it may
// ("skok = niemożliwy") and what it costs (MoveLoss). Unit coherency is a
// deployment rule only: the rulebook sets none for movement.
func (s *State) move(a Move) ([]Event, error) {
	evs, err := s.moveModels(a)
	if err != nil || !a.EndPhase {
		return evs, err
	}
	end, err := s.endPhase()
	return append(evs, end...), err
}

func (s *State) moveModels(a Move) ([]Event, error) {
	if s.Phase != PhaseMovement {
		return nil, rules.Reject("wrong_phase", "ruch tylko w fazie ruchu (teraz: %[1]s)", "models move only in the movement phase (now: %[2]s)",
			s.Phase.Name().PL, s.Phase.Name().EN)
	}
	if len(a.Models) == 0 {
		return nil, rules.Reject("bad_move", "ruch bez modeli", "a move with no models")
	}
	byUnit := map[string][]Placement{}
	var order []string
	owner := map[string]*Unit{}
	for _, p := range a.Models {
		u := s.unitOfModel(p.Model)
		if u == nil || !u.Deployed {
			return nil, rules.Reject("unknown_model", "nie ma na stole modelu %q", "no model %q on the table", p.Model)
		}
		if u.Owner != s.ActiveSeat() {
			return nil, rules.Reject("not_your_turn", "%s należy do %s; teraz tura gracza %s", "%s belongs to %s; it is %s's turn",
				p.Model, u.Name, s.Players[s.Active].Name)
		}
		if _, ok := byUnit[u.ID]; !ok {
			order = append(order, u.ID)
		}
		byUnit[u.ID] = append(byUnit[u.ID], p)
		owner[p.Model] = u
	}
	jumped := map[string]bool{}
	for _, id := range a.Jumped {
		if owner[id] == nil {
			return nil, rules.Reject("bad_move", "%s skoczył, ale nie ma go w ruchu", "%s jumped but is not among the moves", id)
		}
		jumped[id] = true
	}
	type step struct {
		u    *Unit
		m    *Model
		to   placed
		from Point
		d    Measure
	}
	var steps []step
	for _, uid := range order {
		u := s.unit(uid)
		at, err := s.placements(u, byUnit[uid], false)
		if err != nil {
			return nil, err
		}
		for _, p := range byUnit[uid] {
			m := u.model(p.Model)
			if m.At == nil {
				return nil, rules.Reject("unknown_model", "%s nie ma jeszcze pozycji", "%s has no position yet", m.ID)
			}
			from := *m.At
			if m.From != nil {
				from = *m.From
			}
			to := at[m.ID]
			limit := float64(u.Move)
			if jumped[m.ID] {
				w, _ := u.Weapon(m.Weapon)
				switch w.Jump {
				case JumpImpossible:
					return nil, rules.Reject("cannot_jump", "%s niesie %s: skok niemożliwy", "%s carries %s: it cannot jump", m.ID, w.Name)
				case JumpMoveLoss:
					if s.Options.MoveLoss == MoveLossHalf || s.Options.MoveLoss == MoveLossBoth {
						limit /= 2
					}
				}
			}
			d := displacement(from, to.Point)
			q := rules.Textf("czy %[1]s przeszedł najwyżej %[2]s?", "did %[1]s move at most %[3]s kroki?", m.ID, plKrokiN(limit), fmtNum(limit))
			ok, err := s.within("move:"+m.ID, d, limit, q)
			if err != nil {
				return nil, err
			}
			if !ok {
				extra := rules.Text{}
				if limit < float64(u.Move) {
					extra = rules.Textf(" (połowa ruchu po skoku z %s)", " (half its move after jumping with %s)", m.Weapon)
				}
				if err := s.waiver.Breach("move_too_long", "%[1]s: ruch %[6]s, wolno %[7]s%[4]s", "%[1]s: moved %[2]s kroki, %[3]s allowed%[5]s",
					m.ID, fmtMeasure(roundMeasure(d)), fmtNum(limit), extra.PL, extra.EN, plKroki(roundMeasure(d)), plKrokiN(limit)); err != nil {
					return nil, err
				}
			}
			steps = append(steps, step{u, m, to, from, d})
		}
	}
	var moved, noShot []string
	for _, st := range steps {
		from := st.from
		st.m.From = &from
		pt := st.to.Point
		st.m.At, st.m.Base = &pt, st.to.Base
		if st.d.Kroki > st.d.Uncertainty {
			// Only a move beyond the camera's noise costs the MG bonus.
			st.u.MovedThisRound, st.u.StationaryRounds = true, 0
			moved = append(moved, fmt.Sprintf("%s %s", st.m.ID, fmtNum(round3(st.d.Kroki))))
		}
		if jumped[st.m.ID] {
			st.m.Jumped = true
			if w, _ := st.u.Weapon(st.m.Weapon); w.Jump == JumpMoveLoss && s.Options.MoveLoss != MoveLossHalf {
				noShot = append(noShot, st.m.ID)
			}
		}
	}
	who := s.Players[s.Active].Name
	text := rules.Textf("%s rusza (w krokach): %s", "%s moves (in kroki): %s", who, strings.Join(moved, ", "))
	if len(moved) == 0 {
		text = rules.Textf("%s: pozycje zmierzone, nikt się nie ruszył", "%s: positions measured, nobody moved", who)
	}
	evs := []Event{{Type: "moved", Seat: s.ActiveSeat(), Text: text}}
	if len(noShot) > 0 {
		evs = append(evs, Event{Type: "jumped_no_shot", Models: noShot,
			Text: rules.Textf("po skoku (strata ruchu) nie strzelają w tej turze: %s", "after jumping (strata ruchu) these do not shoot this turn: %s", strings.Join(noShot, ", "))})
	}
	return evs, nil
}

func (s *State) unitOfModel(id string) *Unit {
	for i := range s.Units {
		if s.Units[i].model(id) != nil {
			return &s.Units[i]
		}
	}
	return nil
}
