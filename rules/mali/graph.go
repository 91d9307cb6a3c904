package mali

import (
	"slices"
	"sort"
)

// The map as the state sees it: which fields a courier may enter and which
// roads may be used, given the blocked roads, the fallen districts and the
// soldier.

func (s *State) blocked(road string) bool {
	for _, b := range s.Blocks {
		if b.Road == road {
			return true
		}
	}
	return false
}

func (s *State) fallen(district string) bool {
	for _, d := range s.Districts {
		if d.ID == district {
			return d.Fallen
		}
	}
	return false
}

func (s *State) district(id string) *DistrictState {
	for i := range s.Districts {
		if s.Districts[i].ID == id {
			return &s.Districts[i]
		}
	}
	return nil
}

// onBlockedRoad says whether n is a field of a blocked road.
func (s *State) onBlockedRoad(n Node) bool {
	road, _, ok := s.cat.RoadOf(n)
	return ok && s.blocked(road)
}

// enterable is a field a courier may stand on: on the map, not the
// soldier's, not on a blocked road, not in a fallen district.
func (s *State) enterable(n Node) bool {
	if _, ok := s.cat.DistrictOf[n]; !ok {
		return false
	}
	return n != s.Soldier && !s.onBlockedRoad(n) && !s.fallen(s.cat.DistrictOf[n])
}

// courierEdge says whether a courier may step from a to b.
func (s *State) courierEdge(a, b Node) bool {
	for _, e := range s.cat.adj[a] {
		if e.To == b && !s.blocked(e.Road) {
			return s.enterable(b)
		}
	}
	return false
}

// objectNeighbours are the objects a jump from object id may reach: joined
// by a road that is not blocked, enterable. A jump passes over the soldier
// on the road.
func (s *State) jumpTargets(id string) []Node {
	var out []Node
	for _, r := range s.cat.Data.Map.Roads {
		if s.blocked(r.ID) {
			continue
		}
		var other string
		switch id {
		case r.A:
			other = r.B
		case r.B:
			other = r.A
		default:
			continue
		}
		if s.enterable(Node(other)) {
			out = append(out, Node(other))
		}
	}
	return out
}

// distances is a breadth-first search from start over the edges ok lets
// through.
func (c *Catalogue) distances(start Node, ok func(e edge, from Node) bool) map[Node]int {
	d := map[Node]int{start: 0}
	queue := []Node{start}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range c.adj[n] {
			if _, seen := d[e.To]; seen || !ok(e, n) {
				continue
			}
			d[e.To] = d[n] + 1
			queue = append(queue, e.To)
		}
	}
	return d
}

// Distance is the number of steps between two fields on the bare map.
func (c *Catalogue) Distance(a, b Node) (int, bool) {
	d, ok := c.distances(a, func(edge, Node) bool { return true })[b]
	return d, ok
}

// soldierEdges are the edges the soldier may use.
func (s *State) soldierEdge(e edge, _ Node) bool {
	return !s.Options.SoldierAvoidsBlocked || !s.blocked(e.Road)
}

// nearestSafe are the enterable fields nearest to n (a courier that must
// leave), searching through any field but not along blocked roads (unless
// n itself is on one), in map order.
func (s *State) nearestSafe(n Node) []Node {
	startRoad, _, onRoad := s.cat.RoadOf(n)
	d := s.cat.distances(n, func(e edge, from Node) bool {
		return !s.blocked(e.Road) || (onRoad && e.Road == startRoad)
	})
	best := -1
	var out []Node
	for _, m := range s.cat.Nodes {
		dm, ok := d[m]
		if !ok || m == n || !s.enterable(m) {
			continue
		}
		switch {
		case best < 0 || dm < best:
			best, out = dm, []Node{m}
		case dm == best:
			out = append(out, m)
		}
	}
	return out
}

func (c *Catalogue) sortNodes(ns []Node) {
	sort.Slice(ns, func(i, j int) bool { return c.index[ns[i]] < c.index[ns[j]] })
}

func nodeStrings(ns []Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = string(n)
	}
	return out
}

func containsNode(ns []Node, n Node) bool { return slices.Contains(ns, n) }
