package skirmish

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sztab/sztab/rules"
)

// UnitSpec is one unit of an army list: which card, how many soldiers,
// whether it has its commander, which weapons.
type UnitSpec struct {
	ID   string `json:"id" yaml:"id"`
	Card string `json:"card" yaml:"card"`
	// Owner is the seat, in Setup.Units only (an ArmyList belongs to one).
	Owner int `json:"owner,omitempty" yaml:"owner"`
	// Models is the number of soldiers, not counting the commander.
	Models    int  `json:"models" yaml:"models"`
	Commander bool `json:"commander,omitempty" yaml:"commander"`
	// Weapon replaces the card's default weapon for every model.
	Weapon string `json:"weapon,omitempty" yaml:"weapon"`
	// Swaps give some models another weapon, from the first model on.
	Swaps []ModelSwap `json:"swaps,omitempty" yaml:"swaps"`
	// Name overrides the card name on displays ("AK pluton Zośka").
	Name string `json:"name,omitempty" yaml:"name"`
}

// ModelSwap arms Models models of a unit with Weapon.
type ModelSwap struct {
	Weapon string `json:"weapon" yaml:"weapon"`
	Models int    `json:"models" yaml:"models"`
}

// ArmyList is one player's army ("WYBÓR ARMII"), the format of an army
// file and of SubmitArmy.
type ArmyList struct {
	Faction string `json:"faction" yaml:"faction"`
	// Points is the limit the list was built for; `sztab army check` uses
	// it, a game uses its own Options.Points.
	Points int        `json:"points,omitempty" yaml:"points"`
	Units  []UnitSpec `json:"units" yaml:"units"`
}

// Violation is one way an army list breaks the rules.
type Violation struct {
	// Code is stable: no_units, unknown_faction, bad_id, duplicate_id,
	// unknown_card, wrong_faction, under_minimum, over_maximum,
	// no_commander, weapon_not_allowed, civilian_weapon, too_many_swaps,
	// unit_limit, weapon_limit, over_limit.
	Code   string     `json:"code"`
	Unit   string     `json:"unit,omitempty"`
	Reason rules.Text `json:"reason"`
}

// ArmyReport is the outcome of checking an army list.
type ArmyReport struct {
	Faction    string       `json:"faction"`
	Limit      int          `json:"limit"`
	Cost       int          `json:"cost"`
	Units      []UnitReport `json:"units"`
	Violations []Violation  `json:"violations"`
}

// Legal reports whether the list broke no rule.
func (r ArmyReport) Legal() bool { return len(r.Violations) == 0 }

// UnitReport is one unit of a checked list: its cost and what each model
// carries, so players know which miniature is which.
type UnitReport struct {
	ID     string        `json:"id"`
	Card   string        `json:"card"`
	Name   string        `json:"name"`
	Cost   int           `json:"cost"`
	Models []ModelReport `json:"models"`
}

// ModelReport is one model of a unit.
type ModelReport struct {
	ID        string `json:"id"`
	Weapon    string `json:"weapon"`
	Commander bool   `json:"commander,omitempty"`
	Cost      int    `json:"cost"`
}

func violation(code, unit, pl, en string, args ...any) Violation {
	return Violation{Code: code, Unit: unit, Reason: rules.Textf(pl, en, args...)}
}

// CheckArmy checks a list against the unit cards, the faction's weapon
// limits and a point limit (0: the list's own Points, and none if that is
// 0 too). Every violation is reported, not only the first.
func (c *Catalogue) CheckArmy(a ArmyList, limit int) ArmyReport {
	if limit == 0 {
		limit = a.Points
	}
	r := ArmyReport{Faction: a.Faction, Limit: limit, Units: []UnitReport{}, Violations: []Violation{}}
	add := func(v Violation) { r.Violations = append(r.Violations, v) }
	faction, okFaction := c.Factions[a.Faction]
	if !okFaction {
		var names []string
		for _, f := range c.Data.Factions {
			names = append(names, f.Name)
		}
		add(violation("unknown_faction", "", "nieznana frakcja %q (są: %s)", "unknown faction %q (there are: %s)", a.Faction, strings.Join(names, ", ")))
	}
	if len(a.Units) == 0 {
		add(violation("no_units", "", "armia musi mieć co najmniej jeden oddział", "an army needs at least one unit"))
	}
	ids := map[string]bool{}
	perCard := map[string]int{}
	carried := map[string]int{}
	for i, spec := range a.Units {
		name := spec.ID
		switch {
		case spec.ID == "":
			name = fmt.Sprintf("#%d", i+1)
			add(violation("bad_id", name, "oddział %s nie ma identyfikatora", "unit %s has no id", name))
		case ids[spec.ID]:
			add(violation("duplicate_id", name, "oddział %q występuje dwa razy", "unit %q is listed twice", spec.ID))
		}
		ids[spec.ID] = true
		card, ok := c.Units[spec.Card]
		if !ok {
			add(violation("unknown_card", name, "%s: nie ma karty jednostki %q", "%s: no unit card %q", name, spec.Card))
			continue
		}
		if okFaction && card.Faction != a.Faction {
			add(violation("wrong_faction", name, "%s: %s należy do frakcji %s, nie %s", "%s: %s belongs to %s, not %s", name, card.Name, card.Faction, a.Faction))
		}
		perCard[card.ID]++
		if spec.Models < card.MinModels {
			add(violation("under_minimum", name, "%[1]s: %[5]s, minimum dla karty %[3]s to %[4]d", "%[1]s: %[2]d models, the minimum for %[3]s is %[4]d",
				name, spec.Models, card.Name, card.MinModels, plN(spec.Models, "model", "modele", "modeli")))
		}
		if spec.Models > card.MaxModels {
			add(violation("over_maximum", name, "%[1]s: %[5]s, maksimum dla karty %[3]s to %[4]d", "%[1]s: %[2]d models, the maximum for %[3]s is %[4]d",
				name, spec.Models, card.Name, card.MaxModels, plN(spec.Models, "model", "modele", "modeli")))
		}
		if spec.Commander && card.Commander == nil {
			add(violation("no_commander", name, "%s: %s nie ma dowódcy", "%s: %s has no commander", name, card.Name))
		}
		if spec.Models > MaxUnitModels {
			// Over any card's maximum (reported above): a report of each
			// of its models would be as long as the number is large.
			continue
		}
		models, weaponVs := c.armUnit(card, spec, faction, name)
		r.Violations = append(r.Violations, weaponVs...)
		ur := UnitReport{ID: spec.ID, Card: card.ID, Name: card.Name, Models: models}
		if spec.Name != "" {
			ur.Name = spec.Name
		}
		for _, m := range models {
			ur.Cost += m.Cost
			carried[m.Weapon]++
		}
		r.Cost += ur.Cost
		r.Units = append(r.Units, ur)
	}
	for _, card := range c.Data.Units {
		if n := perCard[card.ID]; card.MaxUnits > 0 && n > card.MaxUnits {
			add(violation("unit_limit", "", "karta %[2]s: %[4]s, limit armii to %[3]d", "%[1]d units of %[2]s, the army's limit is %[3]d", n, card.Name, card.MaxUnits, plN(n, "oddział", "oddziały", "oddziałów")))
		}
	}
	if okFaction {
		for _, l := range faction.WeaponLimits {
			if n := carried[l.Weapon]; n > l.Max {
				add(violation("weapon_limit", "", "%[1]s: nosi ją %[4]s, limit to %[3]d", "%[1]s: %[2]d models carry it, the limit is %[3]d", l.Weapon, n, l.Max, plN(n, "model", "modele", "modeli")))
			}
		}
	}
	if limit > 0 && r.Cost > limit {
		add(violation("over_limit", "", "armia kosztuje %d pkt, limit to %d pkt", "the army costs %d pts, the limit is %d pts", r.Cost, limit))
	}
	return r
}

// armUnit gives each model of a unit its weapon and cost: soldiers first,
// the commander last; swaps from the first model on. Weapons the card does
// not allow, or civilians may not use, are violations; such a model still
// gets a cost (the default weapon's) so the list's total stays meaningful.
func (c *Catalogue) armUnit(card UnitCard, spec UnitSpec, faction Faction, name string) ([]ModelReport, []Violation) {
	var vs []Violation
	n := max(spec.Models, 0)
	withCommander := spec.Commander && card.Commander != nil
	total := n
	if withCommander {
		total++
	}
	weapons := make([]string, total)
	base := card.Weapon
	if spec.Weapon != "" {
		base = spec.Weapon
	}
	for i := range weapons {
		weapons[i] = base
	}
	next := 0
	for _, sw := range spec.Swaps {
		if sw.Models < 1 {
			vs = append(vs, violation("too_many_swaps", name, "%s: zamiana na %s dla %d modeli", "%s: swap to %s for %d models", name, sw.Weapon, sw.Models))
			continue
		}
		if sw.Models > total-next {
			vs = append(vs, violation("too_many_swaps", name, "%s: zamian broni na %d modeli, a oddział ma %d", "%s: weapon swaps for %d models but the unit has %d",
				name, addCapped(next, sw.Models), total))
			break
		}
		for i := 0; i < sw.Models; i++ {
			weapons[next+i] = sw.Weapon
		}
		next += sw.Models
	}
	checked := map[string]bool{}
	out := make([]ModelReport, total)
	for i, wname := range weapons {
		m := ModelReport{ID: fmt.Sprintf("%s-%d", spec.ID, i+1), Weapon: wname, Cost: card.Cost}
		if withCommander && i == total-1 {
			m.Commander, m.Cost = true, card.Commander.Cost
		}
		extra, allowed := card.SwapCost(wname)
		if !checked[wname] {
			checked[wname] = true
			w, known := c.Weapons[wname]
			switch {
			case !known:
				vs = append(vs, violation("weapon_not_allowed", name, "%s: nie ma broni %q w SPISIE BRONI", "%s: no weapon %q in SPIS BRONI", name, wname))
			case card.Civilian && slices.Contains(faction.CivilianForbidden, w.Class):
				vs = append(vs, violation("civilian_weapon", name, "%s: cywile nie umieją korzystać z broni typu %s (%s)", "%s: civilians cannot use %s weapons (%s)",
					name, w.Type, wname))
			case !allowed:
				vs = append(vs, violation("weapon_not_allowed", name, "%s: %s nie może nosić %s", "%s: %s cannot carry %s", name, card.Name, wname))
			}
		}
		if allowed {
			m.Cost += extra
		}
		out[i] = m
	}
	return out, vs
}

// addCapped is a+b for non-negative a and b, or math.MaxInt when the sum
// would overflow.
func addCapped(a, b int) int {
	if b > math.MaxInt-a {
		return math.MaxInt
	}
	return a + b
}

// buildUnits turns a checked list into the seat's units.
func (c *Catalogue) buildUnits(seat int, a ArmyList, r ArmyReport, o Options) []Unit {
	var units []Unit
	for i, spec := range a.Units {
		card := c.Units[spec.Card]
		u := Unit{ID: spec.ID, Name: r.Units[i].Name, Card: card.ID, Faction: card.Faction, Owner: seat,
			Civilian: card.Civilian, Move: card.Move, Defence: card.Defence, Weapons: []Weapon{}}
		for _, m := range r.Units[i].Models {
			if _, ok := u.Weapon(m.Weapon); !ok {
				u.Weapons = append(u.Weapons, c.Weapons[m.Weapon])
			}
			u.Models = append(u.Models, Model{ID: m.ID, Weapon: m.Weapon, Commander: m.Commander, Cost: m.Cost, Lives: card.Lives, Base: o.Base})
		}
		units = append(units, u)
	}
	return units
}

func reasons(vs []Violation) rules.Text {
	var pl, en []string
	for _, v := range vs {
		pl = append(pl, v.Reason.PL)
		en = append(en, v.Reason.EN)
	}
	return rules.Text{PL: strings.Join(pl, "; "), EN: strings.Join(en, "; ")}
}
