// Package west1920 is the rules engine of "How the West was Saved: the
// Russo-Polish War, April–October 1920" (Stephen Pole), the two-player
// hex-and-counter wargame: event cards, resource points, depots and supply,
// activation chits, movement, combat, replacement, strategic movement and
// reinforcements over 14 stages.
//
// The counters stay on the paper map; the engine keeps the authoritative
// record of every counter and computes what is tedious: supply, depot
// networks, activation chances, combat odds and results. It is pure: Apply
// takes a State and an Action and returns the next State and the Events, or
// a *rules.Rejection with the State unchanged. Every die is an input carried
// by an action (the engine says who rolls in State.Pending), so a journal
// replays byte for byte. Data (map, order of battle, cards) is embedded,
// parsed from bytes and replaceable; see data/*.yaml and AMBIGUITIES.md.
package west1920

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/rules"
)

// Sides and nations.
const (
	Polish  = "polish"  // the Polish player (Poles and Ukrainians)
	Russian = "russian" // the Russian player (Russians and Lithuanians)

	NatPolish     = "polish"
	NatUkrainian  = "ukrainian"
	NatRussian    = "russian"
	NatLithuanian = "lithuanian"
)

// Unit types (1.2).
const (
	Cavalry   = "cavalry"
	Infantry  = "infantry"
	Artillery = "artillery"
)

// Terrain (1.3, the Terrain Effects table).
const (
	Clear     = "clear"
	Forest    = "forest"
	Swamp     = "swamp"
	Hill      = "hill"
	Lake      = "lake"
	Mountains = "mountains"
	Sea       = "sea"
	Pripet    = "pripet"
)

var terrainLetters = map[byte]string{'.': Clear, 'f': Forest, 's': Swamp, 'h': Hill, 'L': Lake, 'M': Mountains, 'W': Sea, 'P': Pripet}

// Neutral countries (1.3, 13.3, 13.5).
const (
	Czechoslovakia = "czechoslovakia"
	Latvia         = "latvia"
	Lithuania      = "lithuania"
	EastPrussia    = "east_prussia"
)

// City is a city or fortification on the map.
type City struct {
	ID        string `yaml:"id" json:"id"`
	Name      string `yaml:"name" json:"name"`
	Hex       Hex    `yaml:"hex" json:"hex"`
	Victory   bool   `yaml:"victory" json:"victory,omitempty"`
	Fortified bool   `yaml:"fortified" json:"fortified,omitempty"`
}

// River is a river drawn along hex sides "CCRR/CCRR"; Bridges are some of
// its sides.
type River struct {
	Name    string   `yaml:"name" json:"name"`
	Sides   []string `yaml:"sides" json:"sides"`
	Bridges []string `yaml:"bridges" json:"bridges"`
}

// Bases names the main supply bases (5.0).
type Bases struct {
	Russian    string `yaml:"russian" json:"russian"`
	Polish     string `yaml:"polish" json:"polish"`
	Lithuanian string `yaml:"lithuanian" json:"lithuanian"`
}

// MapData is data/map.yaml.
type MapData struct {
	Assumed         bool             `yaml:"assumed" json:"assumed,omitempty"`
	Columns         int              `yaml:"columns" json:"columns"`
	Rows            int              `yaml:"rows" json:"rows"`
	Terrain         []string         `yaml:"terrain" json:"terrain"`
	Cities          []City           `yaml:"cities" json:"cities"`
	Rivers          []River          `yaml:"rivers" json:"rivers"`
	Countries       map[string][]Hex `yaml:"countries" json:"countries"`
	NSLine          []int            `yaml:"ns_line" json:"ns_line"`
	Bases           Bases            `yaml:"bases" json:"bases"`
	EastSouthOfSejm []Hex            `yaml:"east_south_of_sejm" json:"east_south_of_sejm"`
}

// UnitType gives the combat factors [front, flank] of a kind of unit.
type UnitType struct {
	Side   string `yaml:"side" json:"side"`
	Nation string `yaml:"nation" json:"nation"`
	Type   string `yaml:"type" json:"type"`
	Full   [2]int `yaml:"full" json:"full"`
	Weak   [2]int `yaml:"weak" json:"weak"`
	// Assumed marks an entry the project had to guess (docs/box.md; not
	// game state, so not journalled).
	Assumed bool `yaml:"assumed" json:"-"`
}

// UnitData is one combat unit of the order of battle. Hex is its start hex
// ("" for a unit that arrives later); Front/Flank values come from types
// unless given.
type UnitData struct {
	ID       string  `yaml:"id" json:"id"`
	Name     string  `yaml:"name" json:"name"`
	Side     string  `yaml:"side" json:"side"`
	Nation   string  `yaml:"nation" json:"nation"`
	Type     string  `yaml:"type" json:"type"`
	Hex      Hex     `yaml:"hex" json:"hex,omitempty"`
	Facing   string  `yaml:"facing" json:"facing,omitempty"`
	OneSided bool    `yaml:"one_sided" json:"one_sided,omitempty"`
	Full     *[2]int `yaml:"full" json:"full,omitempty"`
	Weak     *[2]int `yaml:"weak" json:"weak,omitempty"`
	// Assumed marks an entry the project had to guess (docs/box.md; not
	// game state, so not journalled).
	Assumed bool `yaml:"assumed" json:"-"`
}

// HQData is one HQ (dowództwo). Zone is N or S for Russian HQs (13.1).
type HQData struct {
	ID     string `yaml:"id" json:"id"`
	Name   string `yaml:"name" json:"name"`
	Side   string `yaml:"side" json:"side"`
	Nation string `yaml:"nation" json:"nation"`
	Zone   string `yaml:"zone" json:"zone,omitempty"`
	Hex    Hex    `yaml:"hex" json:"hex,omitempty"`
	// Assumed marks an entry the project had to guess (docs/box.md; not
	// game state, so not journalled).
	Assumed bool `yaml:"assumed" json:"-"`
}

// Reinforcement is one arrival (12.0).
type Reinforcement struct {
	Stage int      `yaml:"stage" json:"stage"`
	Side  string   `yaml:"side" json:"side"`
	Hex   Hex      `yaml:"hex" json:"hex"`
	Units []string `yaml:"units" json:"units"`
	// Assumed marks an entry the project had to guess (docs/box.md; not
	// game state, so not journalled).
	Assumed bool `yaml:"assumed" json:"-"`
}

// OOBData is data/oob.yaml.
type OOBData struct {
	Assumed        bool             `yaml:"assumed" json:"assumed,omitempty"`
	Types          []UnitType       `yaml:"types" json:"types"`
	Units          []UnitData       `yaml:"units" json:"units"`
	HQs            []HQData         `yaml:"hqs" json:"hqs"`
	Depots         map[string][]Hex `yaml:"depots" json:"depots"`
	BaseRP         map[string][]int `yaml:"base_rp" json:"base_rp"`
	Reinforcements []Reinforcement  `yaml:"reinforcements" json:"reinforcements"`
	// AssumedFields names the sections (depots, base_rp) still the
	// project's guess (docs/box.md; not journalled).
	AssumedFields []string `yaml:"assumed_fields" json:"-"`
}

// Effect is one instruction of an event card in the effect language
// documented at the top of data/cards.yaml.
type Effect struct {
	Do      string `yaml:"do" json:"do"`
	Side    string `yaml:"side" json:"side,omitempty"`
	N       int    `yaml:"n" json:"n,omitempty"`
	Stacks  int    `yaml:"stacks" json:"stacks,omitempty"`
	Role    string `yaml:"role" json:"role,omitempty"`
	Needs   string `yaml:"needs" json:"needs,omitempty"`
	Type    string `yaml:"type" json:"type,omitempty"`
	Zone    string `yaml:"zone" json:"zone,omitempty"`
	Place   string `yaml:"place" json:"place,omitempty"`
	To      string `yaml:"to" json:"to,omitempty"`
	Adj     string `yaml:"adjacent" json:"adjacent,omitempty"`
	Chooser string `yaml:"chooser" json:"chooser,omitempty"`
	Assumed bool   `yaml:"assumed" json:"assumed,omitempty"`
}

// Card is one event card: the Polish and Russian columns, or Both for a
// single-instruction card (3.2).
type Card struct {
	ID int `yaml:"id" json:"id"`
	// Title is as printed (Polish); TitleEN its English, optional (a
	// club's pack enrols the Polish print): see Titles.
	Title   string   `yaml:"title" json:"title"`
	TitleEN string   `yaml:"title_en" json:"title_en,omitempty"`
	Polish  []Effect `yaml:"polish" json:"polish,omitempty"`
	Russian []Effect `yaml:"russian" json:"russian,omitempty"`
	Both    []Effect `yaml:"both" json:"both,omitempty"`
}

// Titles is the card's title in both languages: the English is the
// Polish as printed when the data has none.
func (c Card) Titles() rules.Text {
	if c.TitleEN == "" {
		return rules.Text{PL: c.Title, EN: c.Title}
	}
	return rules.Text{PL: c.Title, EN: c.TitleEN}
}

// Single reports a single-instruction card (3.2).
func (c Card) Single() bool { return len(c.Both) > 0 }

// CardsData is data/cards.yaml.
type CardsData struct {
	Cards []Card `yaml:"cards" json:"cards"`
}

// Data is all the game data an engine runs with; it travels inside
// StartGame so a journal replays the same after the files are edited.
type Data struct {
	Map   MapData   `json:"map"`
	OOB   OOBData   `json:"oob"`
	Cards CardsData `json:"cards"`
}

//go:embed data/map.yaml
var mapYAML []byte

//go:embed data/oob.yaml
var oobYAML []byte

//go:embed data/cards.yaml
var cardsYAML []byte

// Embedded file names, as errors name them.
const (
	MapFile   = "map.yaml"
	OOBFile   = "oob.yaml"
	CardsFile = "cards.yaml"
)

// DefaultFiles returns copies of the embedded data files.
func DefaultFiles() map[string][]byte {
	return map[string][]byte{MapFile: slices.Clone(mapYAML), OOBFile: slices.Clone(oobYAML), CardsFile: slices.Clone(cardsYAML)}
}

// DefaultCatalogue parses the embedded data.
func DefaultCatalogue() (*Catalogue, error) {
	return ParseCatalogue(MapFile, mapYAML, OOBFile, oobYAML, CardsFile, cardsYAML)
}

// dataError is a check that failed at a YAML path; ParseCatalogue turns
// the path into a line of the file.
type dataError struct {
	file   string
	path   []any // keys (string) and indices (int)
	reason rules.Text
}

func (e *dataError) Error() string { return e.reason.EN }

func bad(file string, path []any, pl, en string, args ...any) error {
	return &dataError{file: file, path: path, reason: rules.Textf(pl, en, args...)}
}

// DataError is a data file that does not check: the file, the line (0 when
// the data did not come from a file: StartGame's), the entry and what is
// wrong, in Polish and English. Error() reads "west1920: FILE:LINE: ENTRY:
// reason".
type DataError struct {
	File   string
	Line   int
	Entry  string
	Reason rules.Text
}

func (e *DataError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("west1920: %s:%d: %s: %s", e.File, e.Line, e.Entry, e.Reason.EN)
	}
	return fmt.Sprintf("west1920: %s: %s: %s", e.File, e.Entry, e.Reason.EN)
}

// ParseCatalogue parses the three data files (the formats of data/*.yaml)
// and checks them. Errors read "west1920: FILE:LINE: …" and name the entry
// and the hex.
func ParseCatalogue(mapName string, mapData []byte, oobName string, oob []byte, cardsName string, cards []byte) (*Catalogue, error) {
	var d Data
	if err := mapCache.decode(mapData, &d.Map); err != nil {
		return nil, fmt.Errorf("west1920: %s: %w", mapName, err)
	}
	if err := oobCache.decode(oob, &d.OOB); err != nil {
		return nil, fmt.Errorf("west1920: %s: %w", oobName, err)
	}
	if err := cardsCache.decode(cards, &d.Cards); err != nil {
		return nil, fmt.Errorf("west1920: %s: %w", cardsName, err)
	}
	c, err := newCatalogue(d)
	if err != nil {
		var de *dataError
		if errors.As(err, &de) {
			name, data := mapName, mapData
			switch de.file {
			case OOBFile:
				name, data = oobName, oob
			case CardsFile:
				name, data = cardsName, cards
			}
			return nil, &DataError{File: name, Line: lineOf(data, de.path), Entry: pathString(de.path), Reason: de.reason}
		}
		return nil, fmt.Errorf("west1920: %w", err)
	}
	return c, nil
}

// NewCatalogue checks data as StartGame carries it.
func NewCatalogue(d Data) (*Catalogue, error) {
	c, err := newCatalogue(d)
	if err != nil {
		var de *dataError
		if errors.As(err, &de) {
			return nil, &DataError{File: de.file, Entry: pathString(de.path), Reason: de.reason}
		}
		return nil, fmt.Errorf("west1920: %w", err)
	}
	return c, nil
}

func pathString(p []any) string {
	var b strings.Builder
	for i, x := range p {
		switch x := x.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", x)
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, x)
		}
	}
	return b.String()
}

// lineOf walks a YAML document by keys and indices; it returns the line of
// the deepest node found (0 when even the first is missing).
func lineOf(data []byte, path []any) int {
	var doc yaml.Node
	if err := yamlsafe.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return 0
	}
	n := doc.Content[0]
	line := n.Line
	for _, p := range path {
		var next *yaml.Node
		switch p := p.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == p {
						next = n.Content[i+1]
						line = n.Content[i].Line
						break
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && p >= 0 && p < len(n.Content) {
				next = n.Content[p]
			}
		}
		if next == nil {
			return line
		}
		n = next
		line = n.Line
	}
	return line
}

// Hex limits.
const (
	MaxColumns = 60
	MaxRows    = 60
)

// sideInfo is what lies on one side of a hex.
const (
	sideRiver  = 1
	sideBridge = 2
)

// Board is the map compiled for fast searches: hexes are indexed
// 0…Columns·Rows−1 (column-major).
type Board struct {
	Columns, Rows int
	terrain       []string
	difficult     []bool
	impassable    []bool // lakes, mountains, sea, Pripet
	country       []string
	south         []bool
	eastEdge      []bool
	city          []int // index into Cities or -1
	nb            [][6]int32
	side          [][6]uint8
}

// Catalogue is Data checked and indexed.
type Catalogue struct {
	Data     Data
	Board    *Board
	Cities   map[string]City // by id
	Units    map[string]UnitData
	HQs      map[string]HQData
	Cards    map[int]Card
	cityAt   map[Hex]City
	sejmEdge map[Hex]bool
}

func (b *Board) index(k coord) int {
	if k.c < 1 || k.r < 1 || k.c > b.Columns || k.r > b.Rows {
		return -1
	}
	return (k.c-1)*b.Rows + (k.r - 1)
}

func (b *Board) coordOf(i int) coord { return coord{i/b.Rows + 1, i%b.Rows + 1} }

// Index is the board index of h, or −1 when h is not a hex of the map.
func (b *Board) Index(h Hex) int {
	k, ok := parseHex(h)
	if !ok {
		return -1
	}
	return b.index(k)
}

// HexAt is the hex of board index i.
func (b *Board) HexAt(i int) Hex { return b.coordOf(i).hex() }

// Size is the number of hexes.
func (b *Board) Size() int { return b.Columns * b.Rows }

// Neighbour is the hex across side d of i, or −1 off the map.
func (b *Board) Neighbour(i int, d Dir) int { return int(b.nb[i][d]) }

// DirTo is the side of a that touches b, or −1 when they are not neighbours.
func (b *Board) DirTo(a, c int) Dir {
	for d := N; d <= NW; d++ {
		if int(b.nb[a][d]) == c {
			return d
		}
	}
	return -1
}

// Distance is the hex distance (steps, ignoring terrain).
func (b *Board) Distance(a, c int) int { return hexDist(b.coordOf(a), b.coordOf(c)) }

// Terrain of hex i.
func (b *Board) Terrain(i int) string { return b.terrain[i] }

// Difficult reports forest, swamp or hill (1.3).
func (b *Board) Difficult(i int) bool { return b.difficult[i] }

// Country is the neutral country hex i lies in, or "".
func (b *Board) Country(i int) string { return b.country[i] }

// South reports a hex south of the Russian N/S command line (13.1).
func (b *Board) South(i int) bool { return b.south[i] }

// EastEdge reports a hex of the eastern map edge (the Russian main base, 5.0).
func (b *Board) EastEdge(i int) bool { return b.eastEdge[i] }

// River reports a river on the side of i towards d; bridged reports a bridge there.
func (b *Board) River(i int, d Dir) (river, bridged bool) {
	s := b.side[i][d]
	return s&sideRiver != 0, s&sideBridge != 0
}

// unbridged reports an unbridged river between neighbours a and c.
func (b *Board) unbridged(a int, d Dir) bool { return b.side[a][d] == sideRiver }

func newCatalogue(d Data) (*Catalogue, error) {
	m := d.Map
	const mf = MapFile
	if m.Columns < 2 || m.Columns > MaxColumns || m.Rows < 2 || m.Rows > MaxRows {
		return nil, bad(mf, []any{"columns"}, "mapa %d×%d heksów; oczekiwano 2–%d kolumn i 2–%d rzędów", "a map of %d×%d hexes; want 2–%d columns and 2–%d rows", m.Columns, m.Rows, MaxColumns, MaxRows)
	}
	if len(m.Terrain) != m.Rows {
		return nil, bad(mf, []any{"terrain"}, "%d rzędów terenu, oczekiwano %d (rows)", "%d terrain rows, want %d (rows)", len(m.Terrain), m.Rows)
	}
	b := &Board{Columns: m.Columns, Rows: m.Rows}
	n := m.Columns * m.Rows
	b.terrain = make([]string, n)
	b.difficult = make([]bool, n)
	b.impassable = make([]bool, n)
	b.country = make([]string, n)
	b.south = make([]bool, n)
	b.eastEdge = make([]bool, n)
	b.city = make([]int, n)
	b.nb = make([][6]int32, n)
	b.side = make([][6]uint8, n)
	for r, row := range m.Terrain {
		if len(row) != m.Columns {
			return nil, bad(mf, []any{"terrain", r}, "rząd %02d ma %d liter, oczekiwano %d (columns)", "row %02d has %d letters, want %d (columns)", r+1, len(row), m.Columns)
		}
		for c := 0; c < m.Columns; c++ {
			t, ok := terrainLetters[row[c]]
			if !ok {
				return nil, bad(mf, []any{"terrain", r}, "heks %s: litera terenu %q, oczekiwano jednej z . f s h L M W P", "hex %s: terrain letter %q, want one of . f s h L M W P", coord{c + 1, r + 1}.hex(), row[c])
			}
			i := b.index(coord{c + 1, r + 1})
			b.terrain[i] = t
			b.difficult[i] = t == Forest || t == Swamp || t == Hill
			b.impassable[i] = t == Lake || t == Mountains || t == Sea || t == Pripet
		}
	}
	for i := 0; i < n; i++ {
		k := b.coordOf(i)
		for dd := N; dd <= NW; dd++ {
			b.nb[i][dd] = int32(b.index(k.step(dd)))
		}
		b.city[i] = -1
		b.eastEdge[i] = k.c == m.Columns
	}
	if len(m.NSLine) != m.Columns {
		return nil, bad(mf, []any{"ns_line"}, "%d wartości, oczekiwano jednej na kolumnę (%d)", "%d values, want one per column (%d)", len(m.NSLine), m.Columns)
	}
	for i := 0; i < n; i++ {
		k := b.coordOf(i)
		b.south[i] = k.r >= m.NSLine[k.c-1]
	}
	cat := &Catalogue{Data: d, Board: b, Cities: map[string]City{}, Units: map[string]UnitData{}, HQs: map[string]HQData{},
		Cards: map[int]Card{}, cityAt: map[Hex]City{}, sejmEdge: map[Hex]bool{}}
	hexAt := func(path []any, h Hex) (int, error) {
		i := b.Index(h)
		if i < 0 {
			return -1, bad(mf, path, "heksu %q nie ma na mapie (CCRR, kolumny 01–%02d, rzędy 01–%02d)", "hex %q is not on the map (CCRR, columns 01–%02d, rows 01–%02d)", h, m.Columns, m.Rows)
		}
		return i, nil
	}
	for ci, c := range m.Cities {
		p := []any{"cities", ci}
		if c.ID == "" || c.Name == "" {
			return nil, bad(mf, p, "miasto potrzebuje id i nazwy", "a city needs id and name")
		}
		if _, dup := cat.Cities[c.ID]; dup {
			return nil, bad(mf, p, "miasto %q podane dwa razy", "city %q listed twice", c.ID)
		}
		i, err := hexAt(p, c.Hex)
		if err != nil {
			return nil, err
		}
		if b.impassable[i] {
			return nil, bad(mf, p, "miasto %s na niedostępnym heksie %s (%s)", "city %s on impassable hex %s (%s)", c.Name, c.Hex, b.terrain[i])
		}
		if b.city[i] >= 0 {
			return nil, bad(mf, p, "na heksie %s są dwa miasta", "hex %s holds two cities", c.Hex)
		}
		b.city[i] = ci
		cat.Cities[c.ID] = c
		cat.cityAt[c.Hex] = c
	}
	for ri, rv := range m.Rivers {
		if rv.Name == "" {
			return nil, bad(mf, []any{"rivers", ri}, "rzeka potrzebuje nazwy", "a river needs a name")
		}
		for si, s := range rv.Sides {
			p := []any{"rivers", ri, "sides", si}
			a, dd, err := b.parseSide(s)
			if err != nil {
				return nil, bad(mf, p, "rzeka %[1]s: %[2]s", "river %[1]s: %[3]s", rv.Name, err.PL, err.EN)
			}
			o := b.Neighbour(a, dd)
			b.side[a][dd] |= sideRiver
			b.side[o][dd.Opposite()] |= sideRiver
		}
		for si, s := range rv.Bridges {
			p := []any{"rivers", ri, "bridges", si}
			a, dd, err := b.parseSide(s)
			if err != nil {
				return nil, bad(mf, p, "most na rzece %[1]s: %[2]s", "bridge on the %[1]s: %[3]s", rv.Name, err.PL, err.EN)
			}
			if b.side[a][dd]&sideRiver == 0 {
				return nil, bad(mf, p, "most %s: na tym boku heksu nie ma rzeki", "bridge %s: no river on that side", s)
			}
			o := b.Neighbour(a, dd)
			b.side[a][dd] |= sideBridge
			b.side[o][dd.Opposite()] |= sideBridge
		}
	}
	for _, name := range sortedKeys(m.Countries) {
		if !slices.Contains([]string{Czechoslovakia, Latvia, Lithuania, EastPrussia}, name) {
			return nil, bad(mf, []any{"countries", name}, "kraj %q, oczekiwano czechoslovakia, latvia, lithuania albo east_prussia", "country %q, want czechoslovakia, latvia, lithuania or east_prussia", name)
		}
		for hi, h := range m.Countries[name] {
			i, err := hexAt([]any{"countries", name, hi}, h)
			if err != nil {
				return nil, err
			}
			if b.country[i] != "" && b.country[i] != name {
				return nil, bad(mf, []any{"countries", name, hi}, "heks %s leży w %s i w %s", "hex %s is in %s and %s", h, b.country[i], name)
			}
			b.country[i] = name
		}
	}
	if m.Bases.Russian != "east_edge" {
		return nil, bad(mf, []any{"bases", "russian"}, "rosyjską bazą jest wschodnia krawędź mapy (5.0): wpisz east_edge", "the Russian base is the eastern edge (5.0): write east_edge")
	}
	for _, k := range [][2]string{{"polish", m.Bases.Polish}, {"lithuanian", m.Bases.Lithuanian}} {
		if _, ok := cat.Cities[k[1]]; !ok {
			return nil, bad(mf, []any{"bases", k[0]}, "baza %q nie jest id miasta", "base %q is not a city id", k[1])
		}
	}
	for hi, h := range m.EastSouthOfSejm {
		i, err := hexAt([]any{"east_south_of_sejm", hi}, h)
		if err != nil {
			return nil, err
		}
		if !b.eastEdge[i] {
			return nil, bad(mf, []any{"east_south_of_sejm", hi}, "heks %s nie leży na wschodniej krawędzi", "hex %s is not on the eastern edge", h)
		}
		cat.sejmEdge[h] = true
	}
	if err := cat.checkOOB(); err != nil {
		return nil, err
	}
	if err := cat.checkCards(); err != nil {
		return nil, err
	}
	return cat, nil
}

// parseSide reads "CCRR/CCRR" and returns the first hex and the side
// towards the second.
func (b *Board) parseSide(s string) (int, Dir, *rules.Text) {
	x, y, ok := strings.Cut(s, "/")
	if !ok {
		t := rules.Textf("bok heksu %q: oczekiwano CCRR/CCRR", "side %q: want CCRR/CCRR", s)
		return 0, 0, &t
	}
	a, c := b.Index(Hex(x)), b.Index(Hex(y))
	if a < 0 || c < 0 {
		t := rules.Textf("bok heksu %q: heksu nie ma na mapie", "side %q: a hex is not on the map", s)
		return 0, 0, &t
	}
	dd := b.DirTo(a, c)
	if dd < 0 {
		t := rules.Textf("bok heksu %q nie istnieje: %s i %s nie sąsiadują", "side %q does not exist: %s and %s are not neighbours", s, x, y)
		return 0, 0, &t
	}
	return a, dd, nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func sideOK(s string) bool { return s == Polish || s == Russian }

func (c *Catalogue) typeOf(u UnitData) (UnitType, bool) {
	for _, t := range c.Data.OOB.Types {
		if t.Side == u.Side && t.Nation == u.Nation && t.Type == u.Type {
			return t, true
		}
	}
	return UnitType{}, false
}

func (c *Catalogue) checkOOB() error {
	o := c.Data.OOB
	const f = OOBFile
	natSide := map[string]string{NatPolish: Polish, NatUkrainian: Polish, NatRussian: Russian, NatLithuanian: Russian}
	for ti, t := range o.Types {
		p := []any{"types", ti}
		if natSide[t.Nation] != t.Side || !slices.Contains([]string{Cavalry, Infantry, Artillery}, t.Type) {
			return bad(f, p, "typ %s/%s/%s: potrzebna strona, jej narodowość i kawaleria, piechota albo artyleria", "type %s/%s/%s: want a side, its nation and cavalry, infantry or artillery", t.Side, t.Nation, t.Type)
		}
		for _, v := range append(t.Full[:], t.Weak[:]...) {
			if v < 0 || v > 20 {
				return bad(f, p, "współczynnik walki %d, oczekiwano 0–20", "combat factor %d, want 0–20", v)
			}
		}
	}
	for ui, u := range o.Units {
		p := []any{"units", ui}
		if u.ID == "" || u.Name == "" {
			return bad(f, p, "jednostka potrzebuje id i nazwy", "a unit needs id and name")
		}
		if _, dup := c.Units[u.ID]; dup {
			return bad(f, p, "jednostka %q podana dwa razy", "unit %q listed twice", u.ID)
		}
		if natSide[u.Nation] != u.Side {
			return bad(f, p, "jednostka %s: narodowość %q nie walczy po stronie %q", "unit %s: nation %q does not fight for side %q", u.ID, u.Nation, u.Side)
		}
		t, ok := c.typeOf(u)
		if !ok && (u.Full == nil || u.Weak == nil) {
			return bad(f, p, "jednostka %s: brak typu %s %s %s w types i brak wartości full/weak", "unit %s: no %s %s %s under types and no full/weak values", u.ID, u.Side, u.Nation, u.Type)
		}
		if u.Full == nil {
			v := t.Full
			u.Full = &v
		}
		if u.Weak == nil {
			v := t.Weak
			u.Weak = &v
		}
		if u.Hex != "" {
			i := c.Board.Index(u.Hex)
			if i < 0 {
				return bad(f, p, "jednostka %s: heksu %q nie ma na mapie", "unit %s: hex %q is not on the map", u.ID, u.Hex)
			}
			if c.Board.impassable[i] || c.Board.country[i] != "" {
				return bad(f, p, "jednostka %s zaczyna na heksie %s, niedostępnym lub neutralnym", "unit %s starts on hex %s, impassable or neutral", u.ID, u.Hex)
			}
		}
		if u.Type != Artillery && u.Hex != "" {
			if _, ok := ParseDir(u.Facing); !ok {
				return bad(f, p, "jednostka %s: kierunek %q, oczekiwano N, NE, SE, S, SW lub NW", "unit %s: facing %q, want N, NE, SE, S, SW or NW", u.ID, u.Facing)
			}
		}
		c.Units[u.ID] = u
	}
	// 1.2: every cavalry and infantry unit of a stack faces the same way;
	// at most four combat units a hex.
	byHex := map[Hex][]UnitData{}
	for _, u := range o.Units {
		if u.Hex != "" {
			byHex[u.Hex] = append(byHex[u.Hex], u)
		}
	}
	for ui, u := range o.Units {
		st := byHex[u.Hex]
		if u.Hex == "" {
			continue
		}
		if len(st) > StackLimit {
			return bad(f, []any{"units", ui}, "na heksie %s jest %d jednostek bojowych; limit stosu to %d (1.2)", "hex %s holds %d combat units; the stacking limit is %d (1.2)", u.Hex, len(st), StackLimit)
		}
		for _, v := range st {
			if v.Side != u.Side {
				return bad(f, []any{"units", ui}, "na heksie %s są jednostki obu stron", "hex %s holds units of both sides", u.Hex)
			}
			if u.Type != Artillery && v.Type != Artillery && u.Facing != v.Facing {
				return bad(f, []any{"units", ui}, "heks %s: %s zwrócona na %s, %s na %s; stos ma jeden kierunek (1.2)", "hex %s: %s faces %s, %s faces %s; a stack faces one way (1.2)", u.Hex, u.ID, u.Facing, v.ID, v.Facing)
			}
		}
	}
	for hi, h := range o.HQs {
		p := []any{"hqs", hi}
		if h.ID == "" || h.Name == "" {
			return bad(f, p, "dowództwo potrzebuje id i nazwy", "an HQ needs id and name")
		}
		if _, dup := c.HQs[h.ID]; dup || c.Units[h.ID].ID != "" {
			return bad(f, p, "id %q użyte dwa razy", "id %q used twice", h.ID)
		}
		if natSide[h.Nation] != h.Side {
			return bad(f, p, "dowództwo %s: narodowość %q nie walczy po stronie %q", "HQ %s: nation %q does not fight for side %q", h.ID, h.Nation, h.Side)
		}
		if h.Nation == NatRussian && h.Zone != "N" && h.Zone != "S" {
			return bad(f, p, "rosyjskie dowództwo %s: strefa %q, oczekiwano N lub S (13.1)", "Russian HQ %s: zone %q, want N or S (13.1)", h.ID, h.Zone)
		}
		if h.Hex != "" && c.Board.Index(h.Hex) < 0 {
			return bad(f, p, "dowództwo %s: heksu %q nie ma na mapie", "HQ %s: hex %q is not on the map", h.ID, h.Hex)
		}
		c.HQs[h.ID] = h
	}
	for _, side := range sortedKeys(o.Depots) {
		if !sideOK(side) {
			return bad(f, []any{"depots", side}, "strona %q, oczekiwano polish albo russian", "side %q, want polish or russian", side)
		}
		for di, h := range o.Depots[side] {
			if _, ok := c.cityAt[h]; !ok {
				return bad(f, []any{"depots", side, di}, "magazyn na heksie %s, który nie jest miastem (5.2)", "depot hex %s is not a city (5.2)", h)
			}
		}
	}
	for _, side := range []string{Polish, Russian} {
		rp := o.BaseRP[side]
		if len(rp) != Stages {
			return bad(f, []any{"base_rp", side}, "%d wartości, oczekiwano jednej na etap (%d)", "%d values, want one per stage (%d)", len(rp), Stages)
		}
		for _, v := range rp {
			if v < 0 || v > 50 {
				return bad(f, []any{"base_rp", side}, "bazowe PZ %d, oczekiwano 0–50", "base RP %d, want 0–50", v)
			}
		}
	}
	placed := map[string]bool{}
	for ri, r := range o.Reinforcements {
		p := []any{"reinforcements", ri}
		if r.Stage < 1 || r.Stage > Stages || !sideOK(r.Side) {
			return bad(f, p, "etap %d strona %q: oczekiwano 1–%d oraz polish albo russian", "stage %d side %q: want 1–%d and polish or russian", r.Stage, r.Side, Stages)
		}
		if i := c.Board.Index(r.Hex); i < 0 || c.Board.impassable[i] {
			return bad(f, p, "heks przybycia %q nie jest dostępnym heksem mapy", "arrival hex %q is not a passable hex of the map", r.Hex)
		}
		for _, id := range r.Units {
			u, isU := c.Units[id]
			h, isH := c.HQs[id]
			switch {
			case !isU && !isH:
				return bad(f, p, "jednostki %q nie ma w ordre de bataille", "unit %q is not in the order of battle", id)
			case isU && (u.Side != r.Side || u.Hex != ""), isH && (h.Side != r.Side || h.Hex != ""):
				return bad(f, p, "jednostka %q nie jest jednostką strony %s poza mapą na początku gry", "unit %q is not a %s unit off the map at the start", id, r.Side)
			case placed[id]:
				return bad(f, p, "jednostka %q przybywa dwa razy", "unit %q arrives twice", id)
			}
			placed[id] = true
		}
	}
	return nil
}

var effectKinds = []string{"rp", "strategic_limit", "no_strategic", "combat_bonus", "front_cf", "artillery_zero", "cf_if", "move_limit",
	"eliminate", "weaken_nearest", "desertion", "no_depot_removal", "forced_retreat", "no_chit", "replace_free", "relocate",
	"extra_moves", "no_activation_roll", "return_eliminated", "lithuania_joins"}

func (c *Catalogue) checkCards() error {
	const f = CardsFile
	for ci, card := range c.Data.Cards.Cards {
		p := []any{"cards", ci}
		if card.ID < 1 || card.ID > 99 || card.Title == "" {
			return bad(f, p, "karta %d: potrzebny numer 1–99 i tytuł", "card %d: want an id 1–99 and a title", card.ID)
		}
		if _, dup := c.Cards[card.ID]; dup {
			return bad(f, p, "karta %d podana dwa razy", "card %d listed twice", card.ID)
		}
		if card.Single() != (len(card.Polish) == 0 && len(card.Russian) == 0) {
			return bad(f, p, "karta %d: albo both (karta pojedynczej instrukcji), albo polish i russian", "card %d: either both (a single-instruction card) or polish and russian", card.ID)
		}
		for _, col := range []struct {
			name string
			effs []Effect
		}{{"polish", card.Polish}, {"russian", card.Russian}, {"both", card.Both}} {
			for ei, e := range col.effs {
				ep := append(slices.Clone(p), col.name, ei)
				if !slices.Contains(effectKinds, e.Do) {
					return bad(f, ep, "karta %d: efekt %q, oczekiwano jednego z: %s", "card %d: effect %q, want one of %s", card.ID, e.Do, strings.Join(effectKinds, ", "))
				}
				if e.Side != "" && !sideOK(e.Side) || e.Chooser != "" && !sideOK(e.Chooser) {
					return bad(f, ep, "karta %d: side/chooser to polish albo russian", "card %d: side/chooser must be polish or russian", card.ID)
				}
				if e.N < -20 || e.N > 20 {
					return bad(f, ep, "karta %d: n %d, oczekiwano −20…20", "card %d: n %d, want −20…20", card.ID, e.N)
				}
			}
		}
		c.Cards[card.ID] = card
	}
	if len(c.Cards) != 40 {
		return bad(f, []any{"cards"}, "%d kart, oczekiwano 40 kart talii (3.1)", "%d cards, want the 40 of the deck (3.1)", len(c.Cards))
	}
	for _, id := range SingleCards {
		if !c.Cards[id].Single() {
			return bad(f, []any{"cards"}, "karta %d musi być kartą pojedynczej instrukcji (3.1)", "card %d must be a single-instruction card (3.1)", id)
		}
	}
	return nil
}

// SingleCards are the single-instruction cards taken out before the
// stage-1 draw (3.1).
var SingleCards = []int{2, 4, 7, 8, 13, 22, 32}

func itoa(i int) string { return strconv.Itoa(i) }
