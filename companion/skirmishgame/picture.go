package skirmishgame

import (
	"math"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/rules/skirmish"
	"github.com/sztab/sztab/vision"
)

// Picture is the table seen from above for the screens (panel.js draws it
// as SVG): what the camera saw (models with their uncertainty, terrain,
// markers) and what the shot in progress measures (its lines of fire and
// the weapon's reach). Everything in it lies on the table for everyone to
// see, so every viewer gets it.
type Picture struct {
	WidthMM float64                `json:"width_mm"`
	DepthMM float64                `json:"depth_mm"`
	Models  []vision.ModelPosition `json:"models"`
	Terrain []vision.Terrain       `json:"terrain,omitempty"`
	Markers []vision.TableMarker   `json:"markers,omitempty"`
	// Lines are the declared shot's lines of fire: each firing model to
	// the target model nearest it, with the cover that model has from it.
	Lines []Line `json:"lines,omitempty"`
	// RangeMM is the reach of the selected or firing weapon around its
	// models (base edge to base edge); Ranged lists those models.
	RangeMM float64  `json:"range_mm,omitempty"`
	Ranged  []string `json:"ranged,omitempty"`
	// LastKroki is the last shot's distance as the camera sees it now
	// (nearest base edges, in kroki), with its lines marked Last, while no
	// shot is in progress.
	LastKroki float64 `json:"last_kroki,omitempty"`
}

// Line is one line of fire.
type Line struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Cover string `json:"cover,omitempty"`
	Close bool   `json:"close,omitempty"`
	Last  bool   `json:"last,omitempty"`
}

// tableView is the state a viewer sees with the picture of the table.
type tableView struct {
	skirmish.State
	Table *Picture `json:"table,omitempty"`
}

// View is the state filtered for the viewer, with the table's picture once
// the camera has seen it.
func (g *Game) View(v gamespec.Viewer) any {
	st := g.Adapter.View(v).(skirmish.State)
	if g.snap == nil {
		return st
	}
	return tableView{State: st, Table: g.picture()}
}

func (g *Game) picture() *Picture {
	s := g.State()
	sn := g.snap
	p := &Picture{WidthMM: s.Options.Table.Width * g.krokMM, DepthMM: s.Options.Table.Depth * g.krokMM,
		Models: sn.Models, Terrain: sn.Terrain, Markers: sn.Markers}
	at := map[string]vision.ModelPosition{}
	for _, m := range sn.Models {
		at[m.ID] = m
	}
	unit, weapon := "", ""
	var firing []string
	switch {
	case s.Shot != nil:
		unit, weapon, firing = s.Shot.Shooter, s.Shot.Weapon, s.Shot.Firing
	case s.Selection != nil && s.Selection.Shooter != "":
		unit, weapon = s.Selection.Shooter, s.Selection.Weapon
	}
	u, _ := s.Unit(unit)
	if w, ok := u.Weapon(weapon); unit != "" && ok && w.Range > 0 {
		p.RangeMM = float64(w.Range) * g.krokMM
		for _, m := range u.Models {
			if _, seen := at[m.ID]; seen && !m.Removed && m.Weapon == weapon {
				p.Ranged = append(p.Ranged, m.ID)
			}
		}
	}
	if s.Shot != nil {
		p.Lines, _ = lines(s, at, sn.Terrain, s.Shot.Target, firing)
		return p
	}
	if ls := s.LastShot; ls != nil {
		if su, ok := s.Unit(ls.Shooter); ok {
			var shooters []string
			for _, m := range su.Models {
				if !m.Removed {
					shooters = append(shooters, m.ID)
				}
			}
			var nearest float64
			p.Lines, nearest = lines(s, at, sn.Terrain, ls.Target, shooters)
			for i := range p.Lines {
				p.Lines[i].Last = true
			}
			if len(p.Lines) > 0 {
				p.LastKroki = math.Round(10*nearest/g.krokMM) / 10
			}
		}
	}
	return p
}

// lines are the lines of fire from each firing model the camera sees to
// the target unit's model nearest it, and the shortest of them in mm.
func lines(s skirmish.State, at map[string]vision.ModelPosition, terrain []vision.Terrain, target string, firing []string) ([]Line, float64) {
	tu, _ := s.Unit(target)
	var targets []vision.ModelPosition
	for _, m := range tu.Models {
		if vm, seen := at[m.ID]; seen && !m.Removed {
			targets = append(targets, vm)
		}
	}
	cm := vision.NewCoverMap(terrain)
	var out []Line
	nearest := math.Inf(1)
	for _, id := range firing {
		f, seen := at[id]
		if !seen || len(targets) == 0 {
			continue
		}
		best, bestD := targets[0], math.Inf(1)
		for _, t := range targets {
			if d := vision.EdgeDistance(f, t).MM; d < bestD {
				best, bestD = t, d
			}
		}
		nearest = math.Min(nearest, bestD)
		sight := cm.Sight(f, best)
		out = append(out, Line{From: id, To: best.ID, Cover: sight.Cover, Close: sight.Close})
	}
	return out, nearest
}
