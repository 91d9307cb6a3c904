package west1920

// Supply and depot networks (5.2, 5.3, 6.0), recomputed for the whole map.
//
// "No more than three hexes between" (5.2, 6.0): the hexes strictly between
// the two ends count, each difficult hex (forest, swamp, hill) as two; the
// ends (the depot or base, and the unit or new depot) do not count and the
// four prohibitions of 5.2 apply to the hexes between only (AMBIGUITIES.md,
// 5.2/6.0). A step across an unbridged river is never allowed, including
// the first and the last step (the Zamość example: two hexes between, but
// the river stops supply). The Russian main base is the eastern edge: a hex
// of the last column is next to it (zero between).

// Range is the most hexes between a unit and its supply source (6.0).
const (
	SupplyRange         = 3
	RussianCavalryRange = 6
)

const unreached = int8(127)

// Supply is the supply state of the whole map: for each side's source
// network the smallest count of hexes between a source and each hex (0 next
// to a source or on it), or 127 when farther than the longest range.
type Supply struct {
	Polish     []int8 `json:"-"`
	Russian    []int8 `json:"-"`
	Lithuanian []int8 `json:"-"`
	// Connected tells, per State.Depots index, whether the depot is linked
	// to its main base by the depot network (5.2, 5.3).
	Connected []bool `json:"connected"`
}

// occupancy is who stands where, for one side's point of view.
type occupancy struct {
	friendCombat []bool
	// friendScreen: a friendly unit that screens the hex (5.2, 9.5b):
	// a combat unit, or an HQ unless the option screen is combat_unit.
	friendScreen []bool
	enemyAny     []bool // enemy combat unit or HQ ("zajęty przez wrogą jednostkę")
	enemyCombat  []bool
}

func (s *State) occupancy(side string) occupancy {
	n := s.cat.Board.Size()
	o := occupancy{make([]bool, n), make([]bool, n), make([]bool, n), make([]bool, n)}
	b := s.cat.Board
	for _, u := range s.Units {
		if u.Status != OnMap {
			continue
		}
		i := b.Index(u.Hex)
		if i < 0 {
			continue
		}
		if u.Side == side {
			o.friendCombat[i], o.friendScreen[i] = true, true
		} else {
			o.enemyCombat[i] = true
			o.enemyAny[i] = true
		}
	}
	for _, h := range s.HQs {
		if h.Status != OnMap {
			continue
		}
		i := b.Index(h.Hex)
		switch {
		case i < 0:
		case h.Side != side:
			o.enemyAny[i] = true
		case s.Options.Screen != "combat_unit":
			o.friendScreen[i] = true
		}
	}
	return o
}

// passable reports whether any unit may be on hex i (1.3, 13.3).
func (s *State) passable(i int) bool {
	b := s.cat.Board
	if b.impassable[i] {
		return false
	}
	switch b.country[i] {
	case "":
		return true
	case Lithuania:
		return s.Lithuania
	}
	return false
}

// exposed reports whether hex i is next to an enemy combat unit with
// neither an unbridged river between nor a friendly unit on i to screen it
// (5.2's fourth prohibition, 6.0, 9.5b).
func (s *State) exposed(i int, o *occupancy) bool {
	if o.friendScreen[i] {
		return false
	}
	b := s.cat.Board
	for d := N; d <= NW; d++ {
		j := b.nb[i][d]
		if j >= 0 && o.enemyCombat[j] && !b.unbridged(i, d) {
			return true
		}
	}
	return false
}

// between reports whether hex i may lie between a source and its end
// (5.2's four prohibitions) and what it counts.
func (s *State) between(i int, o *occupancy) (cost int8, ok bool) {
	b := s.cat.Board
	if !s.passable(i) || o.enemyAny[i] || s.exposed(i, o) {
		return 0, false
	}
	if b.difficult[i] {
		return 2, true
	}
	return 1, true
}

// reach runs the bucketed search from the sources (source[i]: a depot or
// base city, through cost 0) and the east edge (edge: a hex next to the
// base, itself a hex between), up to budget hexes between.
func (s *State) reach(o *occupancy, source []bool, edge bool, budget int8, best []int8, cost []int8) {
	b := s.cat.Board
	n := b.Size()
	for i := 0; i < n; i++ {
		best[i] = unreached
		c, ok := s.between(i, o)
		if !ok {
			c = -1
		}
		cost[i] = c
	}
	buckets := make([][]int32, budget+1)
	for i := 0; i < n; i++ {
		if source[i] || (edge && b.eastEdge[i] && s.passable(i)) {
			best[i] = 0
			buckets[0] = append(buckets[0], int32(i))
		}
	}
	for k := int8(0); k <= budget; k++ {
		for len(buckets[k]) > 0 {
			a := int(buckets[k][len(buckets[k])-1])
			buckets[k] = buckets[k][:len(buckets[k])-1]
			if best[a] != k {
				continue
			}
			var through int8
			switch {
			case source[a]:
				through = 0
			case cost[a] < 0:
				continue
			default:
				through = k + cost[a]
			}
			if through > budget {
				continue
			}
			for d := N; d <= NW; d++ {
				c := int(b.nb[a][d])
				if c < 0 || b.unbridged(a, d) || through >= best[c] {
					continue
				}
				best[c] = through
				buckets[through] = append(buckets[through], int32(c))
			}
		}
	}
}

// ComputeSupply recomputes supply and the depot networks for the whole map.
func (s State) ComputeSupply() Supply { return s.computeSupply() }

func (s *State) computeSupply() Supply {
	b := s.cat.Board
	n := b.Size()
	sup := Supply{Connected: make([]bool, len(s.Depots))}
	cost := make([]int8, n)
	for _, side := range []string{Polish, Russian} {
		o := s.occupancy(side)
		src := make([]bool, n)
		edge := side == Russian
		if side == Polish {
			src[b.Index(s.cat.Cities[s.cat.Data.Map.Bases.Polish].Hex)] = true
		}
		// 5.2: the network grows from the main base, depot by depot.
		best := make([]int8, n)
		for {
			s.reach(&o, src, edge, SupplyRange, best, cost)
			grew := false
			for di, d := range s.Depots {
				i := b.Index(d.Hex)
				if d.Side == side && !sup.Connected[di] && best[i] <= SupplyRange {
					sup.Connected[di], src[i], grew = true, true, true
				}
			}
			if !grew {
				break
			}
		}
		// 6.0: every depot supplies, connected or not (5.4: the network
		// matters only for new depots).
		for _, d := range s.Depots {
			if d.Side == side {
				src[b.Index(d.Hex)] = true
			}
		}
		budget := int8(SupplyRange)
		if side == Russian {
			budget = RussianCavalryRange
		}
		s.reach(&o, src, edge, budget, best, cost)
		if side == Polish {
			sup.Polish = best
		} else {
			sup.Russian = best
			// 13.3: Lithuanians are supplied from Kaunas only.
			if s.Lithuania {
				lsrc := make([]bool, n)
				lsrc[b.Index(s.cat.Cities[s.cat.Data.Map.Bases.Lithuanian].Hex)] = true
				lb := make([]int8, n)
				s.reach(&o, lsrc, false, SupplyRange, lb, cost)
				sup.Lithuanian = lb
			}
		}
	}
	return sup
}

// suppliedAt reports whether a unit of this kind would be supplied on hex i.
func (sup *Supply) suppliedAt(u *Unit, i int) bool {
	if i < 0 {
		return false
	}
	switch {
	case u.Nation == NatLithuanian:
		return sup.Lithuanian != nil && sup.Lithuanian[i] <= SupplyRange
	case u.Side == Polish:
		return sup.Polish[i] <= SupplyRange
	case u.Type == Cavalry:
		return sup.Russian[i] <= RussianCavalryRange
	default:
		return sup.Russian[i] <= SupplyRange
	}
}

// Supplied reports whether unit id is supplied now (6.0); HQs always are.
func (s State) Supplied(id string) bool {
	if h := s.hq(id); h != nil {
		return h.Status == OnMap
	}
	u := s.unit(id)
	if u == nil || u.Status != OnMap {
		return false
	}
	sup := s.computeSupply()
	return sup.suppliedAt(u, s.cat.Board.Index(u.Hex))
}

// DepotCost is what a depot costs this stage (5.3): 1 connected, 2 not
// connected (set up in an earlier stage).
func DepotCost(connected bool) int {
	if connected {
		return 1
	}
	return 2
}

// canBuildDepot checks 5.2 for a new depot of side on h.
func (s *State) canBuildDepot(side string, h Hex) error {
	b := s.cat.Board
	i := b.Index(h)
	if i < 0 {
		return rejectf("bad_hex", "heks %q nie leży na mapie", "hex %q is not on the map", h)
	}
	city, ok := s.cat.cityAt[h]
	if !ok {
		return rejectf("not_a_city", "magazyn tylko w mieście (5.2); %s nim nie jest", "a depot only in a city (5.2); %s is not one", h)
	}
	if s.depotAt(h) >= 0 {
		return rejectf("depot_there", "w %s już jest magazyn", "%s already has a depot", city.Name)
	}
	held := false
	for _, u := range s.Units {
		if u.Status == OnMap && u.Hex == h {
			if u.Side != side {
				return rejectf("enemy_there", "%s zajmuje wróg", "the enemy holds %s", city.Name)
			}
			held = true
		}
	}
	if !held {
		return rejectf("city_not_held", "magazyn tylko w mieście zajmowanym przez sojuszniczą jednostkę bojową (5.2): %s", "a depot only in a city held by a friendly combat unit (5.2): %s", city.Name)
	}
	sup := s.computeSupply()
	// The new depot must be within range of the network (5.2): the base
	// or a connected depot of the side.
	o := s.occupancy(side)
	n := b.Size()
	src := make([]bool, n)
	if side == Polish {
		src[b.Index(s.cat.Cities[s.cat.Data.Map.Bases.Polish].Hex)] = true
	}
	for di, d := range s.Depots {
		if d.Side == side && sup.Connected[di] {
			src[b.Index(d.Hex)] = true
		}
	}
	best, cost := make([]int8, n), make([]int8, n)
	s.reach(&o, src, side == Russian, SupplyRange, best, cost)
	if best[i] > SupplyRange {
		return rejectf("not_connected", "%s: więcej niż %d heksy przerwy do sieci magazynów (5.2)", "%s: more than %d hexes between it and the depot network (5.2)", city.Name, SupplyRange)
	}
	return nil
}
