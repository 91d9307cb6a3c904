package box

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/mali"
	"github.com/sztab/sztab/rules/west1920"
)

// Entry is one entry of a collection as the enrolment page shows it.
type Entry struct {
	Index int    `json:"index"`
	Label string `json:"label"`
	Line  int    `json:"line"`
	// Kind is the entry's kind (the values of the collection's Kind).
	Kind          string   `json:"kind,omitempty"`
	Assumed       bool     `json:"assumed"`
	AssumedFields []string `json:"assumed_fields,omitempty"`
	// Values are the entry's fields as typed: a text as it is, anything
	// else as one line of YAML.
	Values map[string]string `json:"values"`
	// Extra are fields the entry has beyond the declared ones.
	Extra []string `json:"extra,omitempty"`
	// Card says the entry is a card that carries a tag; Tags are the
	// UIDs bound to it.
	Card bool     `json:"card"`
	Tags []string `json:"tags,omitempty"`
	id   string
}

// CollectionState is a collection and its entries.
type CollectionState struct {
	Collection
	Entries []Entry `json:"entries"`
	// Counts are the entries per kind; Left those still assumed.
	Counts map[string]int `json:"counts,omitempty"`
	Left   int            `json:"left"`
}

// State is what the enrolment page shows of a pack.
type State struct {
	Game    string       `json:"game"`
	Title   rules.Text   `json:"title"`
	Edition rules.Text   `json:"edition"`
	Version string       `json:"version"`
	Facts   []rules.Text `json:"facts"`
	// Collections, with their entries; Left and Total over all of them.
	Collections []CollectionState `json:"collections"`
	Left        int               `json:"left"`
	Total       int               `json:"total"`
	// Assumed is everything still assumed in the pack (boards included),
	// one line each: an entry by its name, else as sztab box check says it.
	Assumed []rules.Text `json:"assumed"`
	// Problem is why the pack does not check now, if it does not.
	Problem *Problem `json:"problem,omitempty"`
}

// Problem is a refusal as the page shows it: the file, the line, the
// reason in both languages.
type Problem struct {
	File   string     `json:"file"`
	Line   int        `json:"line,omitempty"`
	Reason rules.Text `json:"reason"`
}

func problemOf(err error) *Problem {
	var e *Error
	if errors.As(err, &e) {
		return &Problem{File: filepath.Base(e.File), Line: e.Line, Reason: e.Reason}
	}
	// The engines' loaders that say why in both languages.
	var me *mali.DataError
	if errors.As(err, &me) {
		return &Problem{File: filepath.Base(me.File), Line: me.Line, Reason: me.Reason}
	}
	var we *west1920.DataError
	if errors.As(err, &we) {
		r := rules.Text{PL: we.Entry + ": " + we.Reason.PL, EN: we.Entry + ": " + we.Reason.EN}
		return &Problem{File: filepath.Base(we.File), Line: we.Line, Reason: r}
	}
	msg := strings.TrimPrefix(err.Error(), "box: ")
	return &Problem{Reason: rules.Text{PL: msg, EN: msg}}
}

// inPack says a problem's files by their names in the pack, not their
// whole paths.
func inPack(p *Problem, dir string) *Problem {
	for _, t := range []*string{&p.Reason.PL, &p.Reason.EN} {
		*t = strings.ReplaceAll(*t, dir+string(filepath.Separator), "")
	}
	return p
}

// Enrolment is the state of p's enrolment.
func Enrolment(p *Pack) (*State, error) {
	s := &State{Game: p.Meta.Game, Edition: p.Meta.Edition, Version: p.Meta.Version, Facts: facts(p.Meta.Game)}
	r, err := Check(p)
	if err != nil {
		s.Problem = problemOf(err)
	}
	// What is still assumed, in words: an entry by its name and its
	// collection, its fields by their labels.
	named := map[string]Named{}
	tags := tagsByCard(p.Tags)
	for _, c := range collections[p.Meta.Game] {
		cs := CollectionState{Collection: c, Counts: map[string]int{}}
		for i, f := range cs.Fields {
			if f.choicesFrom != nil {
				cs.Fields[i].Choices = f.choicesFrom(p)
			}
		}
		_, nodes, keys, err := entries(p.Files[c.File], c.List)
		if err != nil {
			return nil, refuse(p.Name(c.File), yamlLine(err), "błędny YAML: %[1]v", "bad YAML: %[1]v", err)
		}
		for i, n := range nodes {
			e := entryOf(c, i, n, keys[i])
			e.Tags = tags[e.id]
			if len(c.Kind) > 0 {
				cs.Counts[e.Kind]++
			}
			if e.Assumed || len(e.AssumedFields) > 0 {
				cs.Left++
			}
			cs.Entries = append(cs.Entries, e)
			if e.id != "" {
				named[c.File+"\x00"+e.id] = Named{c, e}
			}
		}
		s.Left += cs.Left
		s.Total += len(cs.Entries)
		s.Collections = append(s.Collections, cs)
	}
	if r != nil {
		for _, a := range r.Assumed {
			a.File = filepath.Base(a.File)
			n, ok := named[a.File+"\x00"+a.Entry]
			if !ok {
				s.Assumed = append(s.Assumed, rules.Text{PL: a.String(), EN: a.String()})
				continue
			}
			s.Assumed = append(s.Assumed, n.words(a.Fields))
		}
	}
	return s, nil
}

// Named is an entry with its collection, to say it in words.
type Named struct {
	c Collection
	e Entry
}

func (n Named) words(fields []string) rules.Text {
	t := rules.Text{PL: n.e.Label + " (" + n.c.Title.PL + ")", EN: n.e.Label + " (" + n.c.Title.EN + ")"}
	for i, f := range fields {
		sep := ": "
		if i > 0 {
			sep = ", "
		}
		label := rules.Text{PL: f, EN: f}
		if d, ok := n.c.field(f); ok {
			label = d.Label
		}
		t.PL += sep + label.PL
		t.EN += sep + label.EN
	}
	return t
}

// entries parses a data file and returns its root and the entries under
// list, in file order (a mapping's values, named by their keys).
func entries(data []byte, list string) (*yaml.Node, []*yaml.Node, []string, error) {
	var root yaml.Node
	if err := yamlsafe.Unmarshal(data, &root); err != nil {
		return nil, nil, nil, err
	}
	if len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return &root, nil, nil, nil
	}
	l := value(root.Content[0], list)
	if l == nil {
		return &root, nil, nil, nil
	}
	var out []*yaml.Node
	var keys []string
	switch l.Kind {
	case yaml.SequenceNode:
		for _, n := range l.Content {
			if n.Kind == yaml.MappingNode {
				out = append(out, n)
				keys = append(keys, "")
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(l.Content); i += 2 {
			if n := l.Content[i+1]; n.Kind == yaml.MappingNode {
				out = append(out, n)
				keys = append(keys, l.Content[i].Value)
			}
		}
	}
	return &root, out, keys, nil
}

// entryOf is entry n, the i-th of collection c; key is the key it stands
// under in a mapping ("" in a list).
func entryOf(c Collection, i int, n *yaml.Node, key string) Entry {
	e := Entry{Index: i, Line: n.Line, Values: map[string]string{}}
	for j := 0; j+1 < len(n.Content); j += 2 {
		k, v := n.Content[j].Value, n.Content[j+1]
		switch k {
		case "assumed":
			e.Assumed = v.Value == "true"
			continue
		case "assumed_fields":
			for _, f := range v.Content {
				e.AssumedFields = append(e.AssumedFields, f.Value)
			}
			continue
		case "id":
			e.id, e.Card = v.Value, true
			continue
		}
		if v.Kind == yaml.ScalarNode {
			e.Values[k] = v.Value
		} else {
			e.Values[k] = flow(v)
		}
		if _, ok := c.field(k); !ok {
			e.Extra = append(e.Extra, k)
		}
	}
	e.Kind = c.kindOf(e.Values)
	switch {
	case e.Values["name"] != "":
		e.Label = e.Values["name"]
	case e.Values["title"] != "":
		e.Label = e.Values["title"]
	case key != "":
		e.Label = key
		for _, w := range c.Names {
			if w.Value == key {
				e.Label = w.Text.PL
				if w.Text.EN != w.Text.PL {
					e.Label += " / " + w.Text.EN
				}
			}
		}
	case e.id != "":
		e.Label = e.id
	default:
		e.Label = entryName(n, "")
	}
	if e.id == "" {
		e.id = key
	}
	return e
}

// Submission is one entry typed on the page: its collection, its index,
// every field's text (empty: the entry does not have the field) and the
// UID of the tag laid on a reader, if any.
type Submission struct {
	File   string            `json:"file"`
	List   string            `json:"list"`
	Index  int               `json:"index"`
	Values map[string]string `json:"values"`
	UID    string            `json:"uid,omitempty"`
}

// Apply returns p with sub's entry replaced by what was typed and no
// longer assumed, and the tag bound to its card, if the result passes
// Check; else the refusal (file, line, reason). p is not changed.
func Apply(p *Pack, sub Submission) (*Pack, error) {
	var col *Collection
	for _, c := range collections[p.Meta.Game] {
		if c.File == sub.File && c.List == sub.List {
			col = &c
			break
		}
	}
	if col == nil {
		return nil, refuse(p.Name(MetaFile), 0, "gra %[1]s nie ma listy %[2]s w %[3]s", "game %[1]s has no list %[2]s in %[3]s", p.Meta.Game, sub.List, sub.File)
	}
	root, nodes, keys, err := entries(p.Files[col.File], col.List)
	if err != nil {
		return nil, refuse(p.Name(col.File), yamlLine(err), "błędny YAML: %[1]v", "bad YAML: %[1]v", err)
	}
	if sub.Index < 0 || sub.Index >= len(nodes) {
		return nil, refuse(p.Name(col.File), 0, "nie ma pozycji numer %[1]d (jest ich %[2]d)", "there is no entry number %[1]d (there are %[2]d)", sub.Index+1, len(nodes))
	}
	n := nodes[sub.Index]
	old := entryOf(*col, sub.Index, n, keys[sub.Index])
	for _, name := range append(fieldNames(*col), old.Extra...) {
		typed, given := sub.Values[name]
		if !given {
			continue
		}
		typed = strings.TrimSpace(typed)
		f, declared := col.field(name)
		if typed == "" {
			drop(n, name)
			continue
		}
		var v *yaml.Node
		if declared && f.Type == "text" {
			v = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: typed}
		} else {
			var doc yaml.Node
			if err := yamlsafe.Unmarshal([]byte(typed), &doc); err != nil || len(doc.Content) != 1 {
				return nil, refuse(p.Name(col.File), n.Line, "%[1]s: nie rozumiem %[2]q (YAML: %[3]s)", "%[4]s: not understood: %[2]q (YAML: %[3]s)",
					f.Label.PL, typed, yamlWhy(err), f.Label.EN)
			}
			v = doc.Content[0]
			v.Style &^= yaml.LiteralStyle | yaml.FoldedStyle
			if v.Kind != yaml.ScalarNode {
				v.Style |= yaml.FlowStyle
			}
		}
		set(n, name, v)
	}
	dropStaleEnglish(n, old.Values)
	drop(n, "assumed")
	drop(n, "assumed_fields")
	data, err := encode(root)
	if err != nil {
		return nil, err
	}
	q := *p
	q.Files = cloneFiles(p.Files)
	q.Files[col.File] = data
	q.Own = map[string]bool{col.File: true}
	for f := range p.Own {
		q.Own[f] = true
	}
	if uid := strings.TrimSpace(sub.UID); uid != "" {
		id := old.id
		if value(n, "id") == nil {
			return nil, refuse(p.Name(col.File), n.Line, "ta pozycja nie jest kartą ze znacznikiem", "this entry is not a card that carries a tag")
		}
		q.Tags = addTag(p.Tags, uid, id)
	}
	if _, err := Check(&q); err != nil {
		return nil, err
	}
	return &q, nil
}

func yamlWhy(err error) string {
	if err == nil {
		return "jedna wartość / one value"
	}
	return err.Error()
}

func fieldNames(c Collection) []string {
	out := make([]string, len(c.Fields))
	for i, f := range c.Fields {
		out[i] = f.Name
	}
	return out
}

// set sets mapping m's key to v, appending the key when it is not there.
func set(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
}

// tagsByCard reads a tags.yaml's card tags: card id → UIDs.
func tagsByCard(tags []byte) map[string][]string {
	var file struct {
		Tags []struct {
			UID  string `yaml:"uid"`
			Kind string `yaml:"kind"`
			ID   string `yaml:"id"`
		} `yaml:"tags"`
	}
	out := map[string][]string{}
	if yamlsafe.Unmarshal(tags, &file) != nil {
		return out
	}
	for _, t := range file.Tags {
		if t.Kind == "card" {
			out[t.ID] = append(out[t.ID], t.UID)
		}
	}
	return out
}

// Save writes q, a pack Apply returned, over its directory: the files
// that differ from what is there.
func Save(q *Pack) error {
	write := func(name string, data []byte) error {
		path := filepath.Join(q.Dir, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
			return nil
		}
		tmp := path + ".new"
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return fmt.Errorf("box: %w", err)
		}
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("box: %w", err)
		}
		return nil
	}
	for name := range q.Own {
		if err := write(name, q.Files[name]); err != nil {
			return err
		}
	}
	if q.Tags != nil {
		return write(TagsFile, q.Tags)
	}
	return nil
}

//go:embed static/enrol.html
var enrolHTML []byte

//go:embed static/enrol.js
var enrolJS []byte

// Page is the referee's enrolment page for the pack a table config names
// (the daemon serves it at /referee/box for the referee only; see
// gamespec.GameSpec.Box). title is the game's. Without a pack the page
// says how to start one.
func Page(cfg gamespec.TableConfig, title rules.Text) http.Handler {
	pg := &page{title: title, game: cfg.GameID()}
	if b := cfg.BoxPack(); b != "" {
		pg.dir = cfg.Resolve(b)
	}
	return pg
}

type page struct {
	mu    sync.Mutex
	dir   string
	game  string
	title rules.Text
}

func (pg *page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	switch strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/referee/box"), "/") {
	case "":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(enrolHTML)
	case "/enrol.js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Write(enrolJS)
	case "/state":
		pg.state(w)
	case "/save":
		if r.Method != http.MethodPost {
			http.Error(w, "POST", http.StatusMethodNotAllowed)
			return
		}
		pg.save(w, r)
	default:
		http.NotFound(w, r)
	}
}

// noPack is the state of a table without a pack.
type noPack struct {
	Game   string     `json:"game"`
	Title  rules.Text `json:"title"`
	NoPack rules.Text `json:"no_pack"`
}

func (pg *page) state(w http.ResponseWriter) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.dir == "" {
		writeJSON(w, http.StatusOK, noPack{Game: pg.game, Title: pg.title, NoPack: rules.Text{
			PL: "Ten stół gra na danych przykładowych. Załóż paczkę pudełka (sztab box init) i wpisz ją w konfiguracji stołu jako box:, potem uruchom stół ponownie.",
			EN: "This table plays on the sample data. Start a box pack (sztab box init), name it in the table's config as box: and restart the table."}})
		return
	}
	p, err := Open(pg.dir)
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"game": pg.game, "title": pg.title, "problem": problemOf(err)})
		return
	}
	s, err := Enrolment(p)
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"game": pg.game, "title": pg.title, "problem": problemOf(err)})
		return
	}
	s.Title = pg.title
	if s.Problem != nil {
		s.Problem = inPack(s.Problem, pg.dir)
	}
	writeJSON(w, http.StatusOK, s)
}

func (pg *page) save(w http.ResponseWriter, r *http.Request) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	var sub Submission
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sub); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"problem": Problem{Reason: rules.Text{PL: "błędne żądanie: " + err.Error(), EN: "bad request: " + err.Error()}}})
		return
	}
	if pg.dir == "" {
		writeJSON(w, http.StatusConflict, map[string]any{"problem": Problem{Reason: rules.Text{PL: "stół nie ma paczki pudełka", EN: "the table has no box pack"}}})
		return
	}
	p, err := Open(pg.dir)
	if err == nil {
		var q *Pack
		if q, err = Apply(p, sub); err == nil {
			err = Save(q)
		}
	}
	if err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"problem": inPack(problemOf(err), pg.dir)})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"saved": true})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}
