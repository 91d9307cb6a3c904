package mali

// SoldierRoute is where the soldier goes on a black n towards one target:
// Path are the fields he enters in order (his last field is where he
// stops), Arrests the couriers taken on the last field.
type SoldierRoute struct {
	Target  string   `json:"target"`
	Path    []Node   `json:"path"`
	Arrests []string `json:"arrests,omitempty"`
}

// SoldierPath is the soldier's path on a black n: one route, or one per
// courier its owner may choose among (equal distances), each on the path
// Options.SoldierPath picks. No route when no courier can be reached.
func SoldierPath(s State, n int) ([]SoldierRoute, error) { return nil, nil }

// CourierOdds are one courier's chances before the soldier's die. Min and
// Max differ when a player's choice decides (equidistant couriers of one
// player); otherwise they are equal.
type CourierOdds struct {
	Courier   string  `json:"courier"`
	ArrestMin float64 `json:"arrest_min"`
	ArrestMax float64 `json:"arrest_max"`
	RedMin    float64 `json:"red_min"`
	RedMax    float64 `json:"red_max"`
}

// SoldierOdds is, for every courier on the map, the exact chance of being
// arrested this round and of being the one the red move goes to, from the
// die's faces and the map.
func SoldierOdds(s State) ([]CourierOdds, error) { return nil, nil }
