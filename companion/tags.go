package companion

import (
	"bytes"
	"fmt"
	"os"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/yamlsafe"
)

// TagRegistry maps tag UIDs to what they stand for.
type TagRegistry struct {
	byUID map[string]Tag
	// lines are the file's line of each UID.
	lines map[string]int
}

var tagKinds = map[string]bool{"unit": true, "card": true, "die": true, "seat": true, "command": true}

// LoadTags reads a registry file:
//
//	tags:
//	  - {uid: "04A1B2C3", kind: unit, id: ak, label: "AK pluton"}
func LoadTags(path string) (*TagRegistry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("companion: tags: %w", err)
	}
	return ParseTags(path, data)
}

// ParseTags reads a registry; errors name the file and line.
func ParseTags(path string, data []byte) (*TagRegistry, error) {
	var file struct {
		Tags []yaml.Node `yaml:"tags"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, &file); err != nil {
		return nil, yamlError(path, err)
	}
	r := &TagRegistry{byUID: map[string]Tag{}, lines: map[string]int{}}
	for _, n := range file.Tags {
		var t Tag
		if err := yamlsafe.DecodeNode(&n, &t); err != nil {
			return nil, &ConfigError{File: path, Line: n.Line, Msg: err.Error()}
		}
		if key, line := UnknownTagKey(&n); key != "" {
			return nil, &ConfigError{File: path, Line: line, Msg: unknownTagKeyMsg(key)}
		}
		uid, err := hardware.NormalizeUID(t.UID)
		if err != nil {
			return nil, &ConfigError{File: path, Line: n.Line, Msg: err.Error()}
		}
		t.UID = uid
		if !tagKinds[t.Kind] {
			return nil, &ConfigError{File: path, Line: n.Line, Msg: fmt.Sprintf("tag %s: kind %q, want unit, card, die, seat or command", uid, t.Kind)}
		}
		if t.ID == "" {
			return nil, &ConfigError{File: path, Line: n.Line, Msg: fmt.Sprintf("tag %s: no id", uid)}
		}
		if prev, dup := r.lines[uid]; dup {
			return nil, &ConfigError{File: path, Line: n.Line, Msg: fmt.Sprintf("tag %s is already registered on line %d", uid, prev)}
		}
		r.byUID[uid] = t
		r.lines[uid] = n.Line
	}
	return r, nil
}

// tagKeys are the keys of a registry entry (Tag's yaml fields).
var tagKeys = map[string]bool{"uid": true, "kind": true, "id": true, "label": true}

// UnknownTagKey returns the first key of a registry entry that a tag does
// not have, and its line ("" if none). yaml.v3 decodes a node without
// KnownFields, so a misspelt key ("lable", "knid") would be dropped
// silently.
func UnknownTagKey(n *yaml.Node) (key string, line int) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return "", 0
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			// << merges another entry (or a list of them): their keys count.
			merged := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				merged = v.Content
			}
			for _, m := range merged {
				if key, line := UnknownTagKey(m); key != "" {
					return key, line
				}
			}
			continue
		}
		if k.Kind != yaml.ScalarNode || !tagKeys[k.Value] {
			return k.Value, k.Line
		}
	}
	return "", 0
}

func unknownTagKeyMsg(key string) string {
	return fmt.Sprintf("unknown key %q in a tag (a tag has uid, kind, id and label)", key)
}

// UnknownTagKeyError is the error of an entry with an unknown key, as
// ParseTags says it.
func UnknownTagKeyError(path string, line int, key string) error {
	return &ConfigError{File: path, Line: line, Msg: unknownTagKeyMsg(key)}
}

// Lookup returns what uid stands for.
func (r *TagRegistry) Lookup(uid string) (Tag, bool) {
	u, err := hardware.NormalizeUID(uid)
	if err != nil {
		return Tag{}, false
	}
	t, ok := r.byUID[u]
	return t, ok
}

// Len is the number of registered tags.
func (r *TagRegistry) Len() int { return len(r.byUID) }
