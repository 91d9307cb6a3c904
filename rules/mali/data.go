// Package mali is the rules engine of "Mali Powstańcy. Warszawa 1944", the
// board game of the scouts' field post: couriers (harcerze) carry order cards
// between the objects of a city map while a German soldier hunts them (basic
// variant) or districts fall to the enemy (extended variant). It is pure:
// Apply takes a state and an action (die rolls, drawn cards and players'
// choices included) and returns the next state and the events, or a
// *rules.Rejection and the state unchanged. It does no I/O; its data files
// are embedded and a club may replace any of them (Load).
package mali

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/rules"
)

// Node is a field of the map: an object's id ("past"), or a road field
// written "<road id>/<k>", k counted from the road's first object (A) from 1.
type Node string

// District is a part of the city. Only Mokotów is named in the rulebook.
type District struct {
	ID      string `yaml:"id" json:"id"`
	Name    string `yaml:"name" json:"name"`
	Assumed bool   `yaml:"assumed" json:"assumed,omitempty"`
}

// Object is a place printed on the map (an order's start or target).
type Object struct {
	ID       string `yaml:"id" json:"id"`
	Name     string `yaml:"name" json:"name"`
	District string `yaml:"district" json:"district"`
	// Start marks the three start objects (plac Wilsona, PAST-a, Stary
	// Mokotów); Soldier the German soldier's start (plac Narutowicza).
	Start   bool `yaml:"start" json:"start,omitempty"`
	Soldier bool `yaml:"soldier" json:"soldier,omitempty"`
	Assumed bool `yaml:"assumed" json:"assumed,omitempty"`
	// X and Y place the object on the printed board, in millimetres from
	// its top-left corner: the screens draw the map there and a board
	// calibration finds the pawns there. Road fields lie evenly between
	// their objects. Not rules: the engine never reads them.
	X float64 `yaml:"x" json:"x,omitempty"`
	Y float64 `yaml:"y" json:"y,omitempty"`
}

// Road joins objects A and B through its road fields; Fields lists the
// district of each field from A to B. A road may have no fields at all
// (PWPW – Cytadela): one step then crosses it.
type Road struct {
	ID      string   `yaml:"id" json:"id"`
	A       string   `yaml:"a" json:"a"`
	B       string   `yaml:"b" json:"b"`
	Fields  []string `yaml:"fields" json:"fields"`
	Assumed bool     `yaml:"assumed" json:"assumed,omitempty"`
}

// Field is the Node of the road's k-th field (1-based from A).
func (r Road) Field(k int) Node { return Node(r.ID + "/" + strconv.Itoa(k)) }

// Map is the city: districts, objects and roads.
type Map struct {
	Districts []District `yaml:"districts" json:"districts"`
	Objects   []Object   `yaml:"objects" json:"objects"`
	Roads     []Road     `yaml:"roads" json:"roads"`
}

// OrderCard is one of the 42 order cards.
type OrderCard struct {
	ID      string `yaml:"id" json:"id"`
	From    string `yaml:"from" json:"from"`
	To      string `yaml:"to" json:"to"`
	Points  int    `yaml:"points" json:"points"`
	Assumed bool   `yaml:"assumed" json:"assumed,omitempty"`
}

// Secret goal kinds ("Opis sekretnych celów").
const (
	GoalMostFromDistrict = "most_from_district" // deliver the most orders from district Param
	GoalMostOrders       = "most_orders"        // deliver the most orders
	GoalDistricts        = "districts"          // deliver orders to N (Param: 4, 5 or 6) districts
	GoalMostImportant    = "most_important"     // deliver the order worth the most points
)

// Goal is one of the 24 secret goal cards (extended variant).
type Goal struct {
	ID     string `yaml:"id" json:"id"`
	Kind   string `yaml:"kind" json:"kind"`
	Param  string `yaml:"param" json:"param,omitempty"`
	Colour string `yaml:"colour" json:"colour"`
	Points int    `yaml:"points" json:"points"`
	// Assumed is true for every card: the rulebook prints none of them.
	Assumed bool `yaml:"assumed" json:"assumed,omitempty"`
}

// Die colours.
const (
	Black = "black" // the soldier moves
	Red   = "red"   // the courier nearest to him may move
)

// DieFace is one face of the die: its colour and number. Every face is
// equally likely.
type DieFace struct {
	Colour string `yaml:"colour" json:"colour"`
	Value  int    `yaml:"value" json:"value"`
	// Assumed: the rulebook does not print the faces (a box pack lists
	// them; not in the journal, whose start_game records the faces).
	Assumed bool `yaml:"assumed" json:"-"`
}

// Data is all the game data an engine runs with. It travels inside
// StartGame so a journal replays the same after the files are edited.
type Data struct {
	Map    Map         `json:"map"`
	Orders []OrderCard `json:"orders"`
	Goals  []Goal      `json:"goals"`
	Die    []DieFace   `json:"die"`
}

// File is one data file as a club hands it in: its name (map.yaml,
// orders.yaml, goals.yaml or die.yaml; a directory part is ignored) and its
// bytes.
type File struct {
	Name string
	Data []byte
}

// DataError is a data file that does not load: the file, the line (0 when
// the problem is not one line's) and what is wrong.
type DataError struct {
	File   string
	Line   int
	Reason rules.Text
}

func (e *DataError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("mali: %s:%d: %s", e.File, e.Line, e.Reason.EN)
	}
	return fmt.Sprintf("mali: %s: %s", e.File, e.Reason.EN)
}

func dataErr(file string, line int, pl, en string, args ...any) *DataError {
	return &DataError{File: file, Line: line, Reason: rules.Textf(pl, en, args...)}
}

// Catalogue is Data checked and indexed for look-ups.
type Catalogue struct {
	Data Data
	// Objects, Roads, Orders and Goals by id.
	Objects   map[string]Object
	Roads     map[string]Road
	Orders    map[string]OrderCard
	Goals     map[string]Goal
	Districts map[string]District
	// Nodes lists every field of the map: the objects in file order, then
	// each road's fields from A to B, roads in file order. It is the fixed
	// order the soldier's path uses among equal choices.
	Nodes []Node
	// DistrictOf is the district of every node.
	DistrictOf map[Node]string
	// adj lists a node's neighbours with the road they are on.
	adj   map[Node][]edge
	index map[Node]int
	// where is, for a road field, its road and k.
	where map[Node]roadPos
}

type edge struct {
	To   Node
	Road string
}

type roadPos struct {
	Road string
	K    int
}

//go:embed data/*.yaml
var dataFS embed.FS

// DataFiles are the names of the data files, in load order.
var DataFiles = []string{"map.yaml", "orders.yaml", "goals.yaml", "die.yaml"}

// DefaultFiles returns the embedded data files, for users who want to edit
// a copy.
func DefaultFiles() []File {
	out := make([]File, 0, len(DataFiles))
	for _, n := range DataFiles {
		b, _ := dataFS.ReadFile("data/" + n)
		out = append(out, File{Name: n, Data: b})
	}
	return out
}

// DefaultCatalogue parses the embedded data files.
func DefaultCatalogue() (*Catalogue, error) { return Load() }

// Load parses the data files given, taking the embedded default for each
// one not given, and checks everything. Errors are *DataError values naming
// the file and line.
func Load(files ...File) (*Catalogue, error) {
	byName := map[string]File{}
	for _, f := range DefaultFiles() {
		byName[f.Name] = f
	}
	for _, f := range files {
		base := path.Base(strings.ReplaceAll(f.Name, "\\", "/"))
		if !slices.Contains(DataFiles, base) {
			return nil, dataErr(f.Name, 0, "nieznany plik danych; oczekiwano jednego z %[1]v", "unknown data file; want one of %[1]v", DataFiles)
		}
		byName[base] = File{Name: f.Name, Data: f.Data}
	}
	var d Data
	lines := map[string]int{}
	if err := decodeFile(byName["map.yaml"], &d.Map, lines); err != nil {
		return nil, err
	}
	var o struct {
		Orders []OrderCard `yaml:"orders"`
	}
	if err := decodeFile(byName["orders.yaml"], &o, lines); err != nil {
		return nil, err
	}
	var g struct {
		Goals []Goal `yaml:"goals"`
	}
	if err := decodeFile(byName["goals.yaml"], &g, lines); err != nil {
		return nil, err
	}
	var die struct {
		Faces []DieFace `yaml:"faces"`
	}
	if err := decodeFile(byName["die.yaml"], &die, lines); err != nil {
		return nil, err
	}
	d.Orders, d.Goals, d.Die = o.Orders, g.Goals, die.Faces
	names := map[string]string{}
	for _, n := range DataFiles {
		names[n] = byName[n].Name
	}
	return newCatalogue(d, names, lines)
}

// decodeFile decodes one YAML file strictly and records, for every list
// entry, its line under "<file base>:<list key>[i]".
func decodeFile(f File, v any, lines map[string]int) error {
	var root yaml.Node
	if err := yamlsafe.Unmarshal(f.Data, &root); err != nil {
		return dataErr(f.Name, yamlLine(err), "błędny YAML: %[1]v", "bad YAML: %[1]v", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(f.Data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, v); err != nil && !errors.Is(err, errEOF) {
		if err.Error() == "EOF" {
			return dataErr(f.Name, 0, "pusty plik", "empty file")
		}
		return dataErr(f.Name, yamlLine(err), "błędne dane: %[1]v", "bad data: %[1]v", err)
	}
	base := path.Base(strings.ReplaceAll(f.Name, "\\", "/"))
	for _, n := range DataFiles {
		if strings.EqualFold(base, n) {
			base = n
		}
	}
	if len(root.Content) == 1 && root.Content[0].Kind == yaml.MappingNode {
		m := root.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			key, val := m.Content[i].Value, m.Content[i+1]
			if val.Kind != yaml.SequenceNode {
				continue
			}
			for j, item := range val.Content {
				lines[fmt.Sprintf("%s:%s[%d]", base, key, j)] = item.Line
			}
		}
	}
	return nil
}

var errEOF = errors.New("EOF")

// yamlLine pulls "line N" out of a yaml.v3 error, or 0.
func yamlLine(err error) int {
	s := err.Error()
	i := strings.Index(s, "line ")
	if i < 0 {
		return 0
	}
	j := i + 5
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	n, _ := strconv.Atoi(s[i+5 : j])
	return n
}

// NewCatalogue checks data handed in as values (StartGame carries it) and
// indexes it. Errors name the list and entry, as no file is known.
func NewCatalogue(d Data) (*Catalogue, error) {
	names := map[string]string{}
	for _, n := range DataFiles {
		names[n] = n
	}
	return newCatalogue(d, names, nil)
}

func newCatalogue(d Data, names map[string]string, lines map[string]int) (*Catalogue, error) {
	at := func(file, list string, i int) (string, int) {
		return names[file], lines[fmt.Sprintf("%s:%s[%d]", file, list, i)]
	}
	c := &Catalogue{Data: d, Objects: map[string]Object{}, Roads: map[string]Road{},
		Orders: map[string]OrderCard{}, Goals: map[string]Goal{}, Districts: map[string]District{},
		DistrictOf: map[Node]string{}, adj: map[Node][]edge{}, index: map[Node]int{}, where: map[Node]roadPos{}}
	m := d.Map
	for i, di := range m.Districts {
		f, l := at("map.yaml", "districts", i)
		switch {
		case di.ID == "" || strings.Contains(di.ID, "/"):
			return nil, dataErr(f, l, "dzielnica bez id lub z „/” w id", "district without an id or with a \"/\" in it")
		case c.Districts[di.ID].ID != "":
			return nil, dataErr(f, l, "dzielnica %[1]q podana dwa razy", "district %[1]q listed twice", di.ID)
		}
		c.Districts[di.ID] = di
	}
	starts, soldiers := 0, 0
	for i, o := range m.Objects {
		f, l := at("map.yaml", "objects", i)
		switch {
		case o.ID == "" || strings.Contains(o.ID, "/"):
			return nil, dataErr(f, l, "obiekt bez id lub z „/” w id", "object without an id or with a \"/\" in it")
		case c.Objects[o.ID].ID != "":
			return nil, dataErr(f, l, "obiekt %[1]q podany dwa razy", "object %[1]q listed twice", o.ID)
		case c.Districts[o.District].ID == "":
			return nil, dataErr(f, l, "obiekt %[1]q: nieznana dzielnica %[2]q", "object %[1]q: unknown district %[2]q", o.ID, o.District)
		}
		if o.Start {
			starts++
		}
		if o.Soldier {
			soldiers++
		}
		c.Objects[o.ID] = o
		n := Node(o.ID)
		c.index[n] = len(c.Nodes)
		c.Nodes = append(c.Nodes, n)
		c.DistrictOf[n] = o.District
	}
	if starts != 3 || soldiers != 1 {
		return nil, dataErr(names["map.yaml"], 0, "mapa musi mieć 3 obiekty startowe (start: true) i 1 start żołnierza (soldier: true); jest %[1]d i %[2]d",
			"the map needs 3 start objects (start: true) and 1 soldier start (soldier: true); it has %[1]d and %[2]d", starts, soldiers)
	}
	pairs := map[[2]string]bool{}
	for i, r := range m.Roads {
		f, l := at("map.yaml", "roads", i)
		switch {
		case r.ID == "" || strings.Contains(r.ID, "/"):
			return nil, dataErr(f, l, "droga bez id lub z „/” w id", "road without an id or with a \"/\" in it")
		case c.Roads[r.ID].ID != "" || c.Objects[r.ID].ID != "":
			return nil, dataErr(f, l, "id drogi %[1]q już użyte", "road id %[1]q already used", r.ID)
		case c.Objects[r.A].ID == "":
			return nil, dataErr(f, l, "droga %[1]q prowadzi do nieistniejącego obiektu %[2]q", "road %[1]q leads to %[2]q, which is not an object", r.ID, r.A)
		case c.Objects[r.B].ID == "":
			return nil, dataErr(f, l, "droga %[1]q prowadzi do nieistniejącego obiektu %[2]q", "road %[1]q leads to %[2]q, which is not an object", r.ID, r.B)
		case r.A == r.B:
			return nil, dataErr(f, l, "droga %[1]q zaczyna się i kończy w %[2]q", "road %[1]q starts and ends at %[2]q", r.ID, r.A)
		}
		key := [2]string{min(r.A, r.B), max(r.A, r.B)}
		if pairs[key] {
			return nil, dataErr(f, l, "druga droga między %[1]q a %[2]q", "a second road between %[1]q and %[2]q", r.A, r.B)
		}
		pairs[key] = true
		for k, dist := range r.Fields {
			if c.Districts[dist].ID == "" {
				return nil, dataErr(f, l, "droga %[1]q, pole %[2]d: nieznana dzielnica %[3]q", "road %[1]q, field %[2]d: unknown district %[3]q", r.ID, k+1, dist)
			}
		}
		c.Roads[r.ID] = r
		prev := Node(r.A)
		for k := range r.Fields {
			n := r.Field(k + 1)
			c.index[n] = len(c.Nodes)
			c.Nodes = append(c.Nodes, n)
			c.DistrictOf[n] = r.Fields[k]
			c.where[n] = roadPos{Road: r.ID, K: k + 1}
			c.link(prev, n, r.ID)
			prev = n
		}
		c.link(prev, Node(r.B), r.ID)
	}
	if len(c.Nodes) > 0 {
		seen := map[Node]bool{c.Nodes[0]: true}
		queue := []Node{c.Nodes[0]}
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			for _, e := range c.adj[n] {
				if !seen[e.To] {
					seen[e.To] = true
					queue = append(queue, e.To)
				}
			}
		}
		for _, o := range m.Objects {
			if !seen[Node(o.ID)] {
				return nil, dataErr(names["map.yaml"], lines["map.yaml:objects["+strconv.Itoa(c.index[Node(o.ID)])+"]"],
					"mapa nie jest spójna: do %[1]q nie prowadzi żadna droga z %[2]q", "the map is not connected: no road leads from %[2]q to %[1]q", o.ID, c.Nodes[0])
			}
		}
	}
	for i, o := range d.Orders {
		f, l := at("orders.yaml", "orders", i)
		switch {
		case o.ID == "" || o.ID == VictoryCard:
			return nil, dataErr(f, l, "rozkaz bez id lub z id %[1]q", "order without an id or with the id %[1]q", VictoryCard)
		case c.Orders[o.ID].ID != "":
			return nil, dataErr(f, l, "rozkaz %[1]q podany dwa razy", "order %[1]q listed twice", o.ID)
		case c.Objects[o.From].ID == "" || c.Objects[o.To].ID == "":
			return nil, dataErr(f, l, "rozkaz %[1]q: nieznany obiekt %[2]q lub %[3]q", "order %[1]q: unknown object %[2]q or %[3]q", o.ID, o.From, o.To)
		case o.From == o.To:
			return nil, dataErr(f, l, "rozkaz %[1]q: start i cel to ten sam obiekt", "order %[1]q: start and target are the same object", o.ID)
		case o.Points < 1:
			return nil, dataErr(f, l, "rozkaz %[1]q: punkty %[2]d, minimum 1", "order %[1]q: %[2]d points, want at least 1", o.ID, o.Points)
		}
		c.Orders[o.ID] = o
	}
	colours := map[string]bool{}
	for i, g := range d.Goals {
		f, l := at("goals.yaml", "goals", i)
		switch {
		case g.ID == "":
			return nil, dataErr(f, l, "cel bez id", "goal without an id")
		case c.Goals[g.ID].ID != "":
			return nil, dataErr(f, l, "cel %[1]q podany dwa razy", "goal %[1]q listed twice", g.ID)
		case g.Colour == "":
			return nil, dataErr(f, l, "cel %[1]q bez koloru", "goal %[1]q has no colour", g.ID)
		case g.Points < 0:
			return nil, dataErr(f, l, "cel %[1]q: ujemne punkty", "goal %[1]q: negative points", g.ID)
		}
		switch g.Kind {
		case GoalMostFromDistrict:
			if c.Districts[g.Param].ID == "" {
				return nil, dataErr(f, l, "cel %[1]q: nieznana dzielnica %[2]q", "goal %[1]q: unknown district %[2]q", g.ID, g.Param)
			}
		case GoalDistricts:
			n, err := strconv.Atoi(g.Param)
			if err != nil || n < 1 || n > len(m.Districts) {
				return nil, dataErr(f, l, "cel %[1]q: liczba dzielnic %[2]q poza 1–%[3]d", "goal %[1]q: district count %[2]q outside 1–%[3]d", g.ID, g.Param, len(m.Districts))
			}
		case GoalMostOrders, GoalMostImportant:
			if g.Param != "" {
				return nil, dataErr(f, l, "cel %[1]q: rodzaj %[2]s nie ma parametru", "goal %[1]q: kind %[2]s takes no param", g.ID, g.Kind)
			}
		default:
			return nil, dataErr(f, l, "cel %[1]q: nieznany rodzaj %[2]q", "goal %[1]q: unknown kind %[2]q", g.ID, g.Kind)
		}
		colours[g.Colour] = true
		c.Goals[g.ID] = g
	}
	if len(d.Goals) > 0 && len(colours) < 3 {
		return nil, dataErr(names["goals.yaml"], 0, "cele w %[1]d kolorach; gracz zatrzymuje trzy w różnych kolorach, potrzeba co najmniej 3",
			"goals in %[1]d colours; a player keeps three of different colours, so at least 3 are needed", len(colours))
	}
	if len(d.Die) == 0 {
		return nil, dataErr(names["die.yaml"], 0, "kostka bez ścianek", "the die has no faces")
	}
	for i, fc := range d.Die {
		f, l := at("die.yaml", "faces", i)
		if (fc.Colour != Black && fc.Colour != Red) || fc.Value < 1 {
			return nil, dataErr(f, l, "ścianka %[1]s %[2]d: kolor black/red i liczba od 1", "face %[1]s %[2]d: want colour black or red and a value of at least 1", fc.Colour, fc.Value)
		}
	}
	return c, nil
}

func (c *Catalogue) link(a, b Node, road string) {
	c.adj[a] = append(c.adj[a], edge{To: b, Road: road})
	c.adj[b] = append(c.adj[b], edge{To: a, Road: road})
}

// VictoryCard is the id of the Victory card (karta Zwycięstwo) in the
// extended variant's deck and on the track.
const VictoryCard = "zwyciestwo"

// IsObject says whether n is an object (not a road field).
func (c *Catalogue) IsObject(n Node) bool { _, ok := c.Objects[string(n)]; return ok }

// RoadOf is the road a road field lies on and its number from A; ok is
// false for objects and unknown nodes.
func (c *Catalogue) RoadOf(n Node) (road string, k int, ok bool) {
	p, ok := c.where[n]
	return p.Road, p.K, ok
}

// Neighbours lists the nodes one step from n, in map order.
func (c *Catalogue) Neighbours(n Node) []Node {
	out := make([]Node, 0, len(c.adj[n]))
	for _, e := range c.adj[n] {
		out = append(out, e.To)
	}
	sort.Slice(out, func(i, j int) bool { return c.index[out[i]] < c.index[out[j]] })
	return out
}

// NeighbourObjects lists the objects joined to object id by a road, with
// the road, in map order.
func (c *Catalogue) NeighbourObjects(id string) []string {
	var out []string
	for _, r := range c.Data.Map.Roads {
		switch id {
		case r.A:
			out = append(out, r.B)
		case r.B:
			out = append(out, r.A)
		}
	}
	return out
}

// RoadBetween is the road joining two objects.
func (c *Catalogue) RoadBetween(a, b string) (Road, bool) {
	for _, r := range c.Data.Map.Roads {
		if (r.A == a && r.B == b) || (r.A == b && r.B == a) {
			return r, true
		}
	}
	return Road{}, false
}

// StartObjects are the three start objects in map order.
func (c *Catalogue) StartObjects() []string {
	var out []string
	for _, o := range c.Data.Map.Objects {
		if o.Start {
			out = append(out, o.ID)
		}
	}
	return out
}

// SoldierStart is the German soldier's start object.
func (c *Catalogue) SoldierStart() string {
	for _, o := range c.Data.Map.Objects {
		if o.Soldier {
			return o.ID
		}
	}
	return ""
}

// Name is a node as players read it: the object's printed name, or "road
// A – B, field k".
func (c *Catalogue) Name(n Node) string {
	if o, ok := c.Objects[string(n)]; ok {
		return o.Name
	}
	if p, ok := c.where[n]; ok {
		r := c.Roads[p.Road]
		return fmt.Sprintf("%s – %s (%d)", c.Objects[r.A].Name, c.Objects[r.B].Name, p.K)
	}
	return string(n)
}
