package box

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/rules"
)

// Assumed is one thing in a pack that is still the project's guess, not
// the printed box: a whole file, an entry (a card, a place) or some of an
// entry's fields.
type Assumed struct {
	File string `json:"file"`
	Line int    `json:"line"`
	// Entry is the entry's id ("" for the whole file).
	Entry string `json:"entry,omitempty"`
	// Fields are the entry's assumed fields (none: the whole entry).
	Fields []string `json:"fields,omitempty"`
}

func (a Assumed) String() string {
	s := fmt.Sprintf("%s:%d: ", a.File, a.Line)
	switch {
	case a.Entry == "" && len(a.Fields) > 0:
		return s + strings.Join(a.Fields, ", ")
	case a.Entry == "":
		return s + "cały plik / the whole file"
	case len(a.Fields) > 0:
		return s + a.Entry + " (" + strings.Join(a.Fields, ", ") + ")"
	}
	return s + a.Entry
}

// Report is what Check found in a pack that passed.
type Report struct {
	Game    string    `json:"game"`
	Edition string    `json:"edition"`
	Version string    `json:"version"`
	Assumed []Assumed `json:"assumed"`
	// Shipped names the data files the pack takes from the shipped pack.
	Shipped []string `json:"shipped,omitempty"`
	// Tags is how many tags tags.yaml binds.
	Tags int `json:"tags"`
}

// Check validates p: the engine's loader (schema, duplicates, references
// between cards and places), the counts the rulebook prints, the places its
// rules name, the map's connectivity and the tags' cards. A pack that does
// not pass is refused with an error naming the file, the line and the
// reason. The report lists what is still assumed.
func Check(p *Pack) (*Report, error) {
	g, ok := lookup(p.Meta.Game)
	if !ok {
		return nil, refuse(p.Name(MetaFile), 0, "nieznana gra %[1]q", "unknown game %[1]q", p.Meta.Game)
	}
	for _, name := range g.Files {
		var root yaml.Node
		if err := yamlsafe.Unmarshal(p.Files[name], &root); err != nil {
			return nil, refuse(p.Name(name), yamlLine(err), "błędny YAML: %[1]v", "bad YAML: %[1]v", err)
		}
	}
	if err := g.check(p); err != nil {
		return nil, located(err)
	}
	r := &Report{Game: g.ID, Edition: p.Meta.Edition.PL + " / " + p.Meta.Edition.EN, Version: p.Meta.Version}
	if p.Tags != nil {
		n, err := checkTags(p)
		if err != nil {
			return nil, err
		}
		r.Tags = n
	}
	for _, name := range g.Files {
		if !p.Own[name] && !p.Shipped() {
			r.Shipped = append(r.Shipped, name)
		}
		as, err := findAssumed(p.Name(name), p.Files[name])
		if err != nil {
			return nil, err
		}
		r.Assumed = append(r.Assumed, as...)
	}
	return r, nil
}

// IsAssumed says whether p holds any assumed data (a quick Check without
// the engine: the pack the engines already loaded).
func IsAssumed(p *Pack) bool {
	for _, b := range p.Files {
		if AnyAssumed(b) {
			return true
		}
	}
	return false
}

// AnyAssumed says whether any of the data files marks anything assumed
// (or does not parse, so cannot say it does not).
func AnyAssumed(files ...[]byte) bool {
	for _, b := range files {
		if as, err := findAssumed("", b); err != nil || len(as) > 0 {
			return true
		}
	}
	return false
}

// checkTags reads tags.yaml (the tag registry's format) and checks every
// card tag names a card of the pack.
func checkTags(p *Pack) (int, error) {
	name := p.Name(TagsFile)
	if err := duplicateTags(name, p.Tags); err != nil {
		return 0, err
	}
	if _, err := companion.ParseTags(name, p.Tags); err != nil {
		return 0, fmt.Errorf("box: %w", err)
	}
	var file struct {
		Tags []yaml.Node `yaml:"tags"`
	}
	if err := yamlsafe.Unmarshal(p.Tags, &file); err != nil {
		return 0, refuse(name, yamlLine(err), "błędny YAML: %[1]v", "bad YAML: %[1]v", err)
	}
	ids := map[string]bool{}
	for _, b := range p.Files {
		collectIDs(b, ids)
	}
	for _, n := range file.Tags {
		var t companion.Tag
		if err := yamlsafe.DecodeNode(&n, &t); err != nil {
			return 0, refuse(name, n.Line, "%[1]v", "%[1]v", err)
		}
		if t.Kind == "card" && !ids[t.ID] {
			return 0, refuse(name, n.Line, "znacznik %[1]s: karta %[2]q nie jest w paczce", "tag %[1]s: card %[2]q is not in the pack", t.UID, t.ID)
		}
	}
	return len(file.Tags), nil
}

// duplicateTags refuses a tag bound twice, naming the card it is bound to
// already.
func duplicateTags(name string, tags []byte) error {
	var file struct {
		Tags []yaml.Node `yaml:"tags"`
	}
	if yamlsafe.Unmarshal(tags, &file) != nil {
		return nil // ParseTags says why
	}
	type bound struct {
		id   string
		line int
	}
	seen := map[string]bound{}
	for _, n := range file.Tags {
		var t struct {
			UID string `yaml:"uid"`
			ID  string `yaml:"id"`
		}
		if n.Decode(&t) != nil {
			continue
		}
		uid, err := hardware.NormalizeUID(t.UID)
		if err != nil {
			continue
		}
		if b, dup := seen[uid]; dup {
			return refuse(name, n.Line, "znacznik %[1]s jest już przypisany karcie %[2]q (wiersz %[3]d)", "tag %[1]s is bound already, to card %[2]q (line %[3]d)", uid, b.id, b.line)
		}
		seen[uid] = bound{t.ID, n.Line}
	}
	return nil
}

// collectIDs adds every id: value in a data file to ids.
func collectIDs(data []byte, ids map[string]bool) {
	var root yaml.Node
	if yamlsafe.Unmarshal(data, &root) != nil {
		return
	}
	walk(&root, func(m *yaml.Node) {
		if v := value(m, "id"); v != nil {
			ids[v.Value] = true
		}
	})
}

// findAssumed lists a data file's assumed: true entries and their
// assumed_fields, in file order.
func findAssumed(name string, data []byte) ([]Assumed, error) {
	var root yaml.Node
	if err := yamlsafe.Unmarshal(data, &root); err != nil {
		return nil, refuse(name, yamlLine(err), "błędny YAML: %[1]v", "bad YAML: %[1]v", err)
	}
	var out []Assumed
	top := &root
	if len(root.Content) == 1 {
		top = root.Content[0]
	}
	keys := map[*yaml.Node]string{}
	walk(&root, func(m *yaml.Node) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			keys[m.Content[i+1]] = m.Content[i].Value
		}
	})
	walk(&root, func(m *yaml.Node) {
		a := Assumed{File: name, Line: m.Line}
		if m != top {
			a.Entry = entryName(m, keys[m])
		}
		if v := value(m, "assumed"); v != nil && v.Value == "true" {
			out = append(out, a)
			return
		}
		if v := value(m, "assumed_fields"); v != nil && len(v.Content) > 0 {
			for _, f := range v.Content {
				a.Fields = append(a.Fields, f.Value)
			}
			out = append(out, a)
		}
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out, nil
}

// unmarshalError is a loader's strict-decoding error that names its file
// apart from its line: "game: FILE: yaml: unmarshal errors:\n  line N: …".
var unmarshalError = regexp.MustCompile(`^(?:[a-z0-9]+: )*(.+?): yaml: (?:unmarshal errors:\s*)?line (\d+): (.*)$`)

// located gives a loader's error the file:line form every other refusal
// has (the schema's mistakes: a field the format does not have, a value of
// the wrong type).
func located(err error) error {
	m := unmarshalError.FindStringSubmatch(strings.ReplaceAll(err.Error(), "\n", " "))
	if m == nil {
		return err
	}
	line, _ := strconv.Atoi(m[2])
	return &Error{File: m[1], Line: line, Reason: rules.Text{PL: "błędne pole: " + m[3], EN: "bad field: " + m[3]}}
}

// entryName names an entry of a data file: its id, else the key it stands
// under (a class of classes:), else what it is (side, nation, type), else
// its line.
func entryName(m *yaml.Node, key string) string {
	if id := value(m, "id"); id != nil {
		return id.Value
	}
	if key != "" {
		return key
	}
	var parts []string
	for _, f := range []string{"stage", "side", "nation", "type"} {
		if v := value(m, f); v != nil && v.Value != "" {
			parts = append(parts, v.Value)
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, " ")
	}
	return fmt.Sprintf("line %d", m.Line)
}

// walk calls f on every mapping node under n.
func walk(n *yaml.Node, f func(*yaml.Node)) {
	if n.Kind == yaml.MappingNode {
		f(n)
	}
	for _, c := range n.Content {
		walk(c, f)
	}
}

// value is mapping m's value for key, or nil.
func value(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// entryLine is the line of the entry whose id (or the road field's road) is
// id in a data file, 0 when there is none.
func entryLine(data []byte, id string) int {
	if i := strings.IndexByte(id, '/'); i > 0 {
		id = id[:i]
	}
	var root yaml.Node
	if yamlsafe.Unmarshal(data, &root) != nil {
		return 0
	}
	line := 0
	walk(&root, func(m *yaml.Node) {
		if v := value(m, "id"); v != nil && v.Value == id && line == 0 {
			line = m.Line
		}
	})
	return line
}
