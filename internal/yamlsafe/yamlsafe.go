// Package yamlsafe decodes YAML with gopkg.in/yaml.v3 as the callers would,
// except that a panic inside the library is an error. yaml.v3 v3.0.1 (the
// last release; the repository is archived) panics with "hash of
// unhashable type" on a mapping that has both a merge key (<<) and a
// mapping or sequence as a key, for instance "<<: x\n{a}: 1"
// (go-yaml/yaml#895, #932, #1050): any file of a table, however it is
// checked after decoding, could stop the daemon.
package yamlsafe

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// Decode is dec.Decode(v).
func Decode(dec *yaml.Decoder, v any) (err error) {
	defer recoverInto(&err)
	return dec.Decode(v)
}

// Unmarshal is yaml.Unmarshal(data, v).
func Unmarshal(data []byte, v any) (err error) {
	defer recoverInto(&err)
	return yaml.Unmarshal(data, v)
}

// DecodeNode is n.Decode(v).
func DecodeNode(n *yaml.Node, v any) (err error) {
	defer recoverInto(&err)
	return n.Decode(v)
}

func recoverInto(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("yaml: the document cannot be decoded (%v; a merge key << beside a mapping or list used as a key?)", r)
	}
}

// ErrEmpty is a document with nothing in it.
var ErrEmpty = errors.New("empty file")

// Strict decodes data into v refusing fields v does not have; an empty
// document is ErrEmpty.
func Strict(data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	err := Decode(dec, v)
	if errors.Is(err, io.EOF) {
		return ErrEmpty
	}
	return err
}

// EntryLine is the line of entry index of the top-level list key, the
// key's own line when it is not a list that long, 0 when there is no such
// key: where an error about that entry points.
func EntryLine(data []byte, key string, index int) int {
	var doc yaml.Node
	if err := Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return 0
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return 0
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			l := m.Content[i+1]
			if l.Kind == yaml.SequenceNode && index < len(l.Content) {
				return l.Content[index].Line
			}
			return l.Line
		}
	}
	return 0
}
