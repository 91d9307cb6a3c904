// Package yamlsafe decodes YAML with gopkg.in/yaml.v3 as the callers would,
// except that a panic inside the library is an error. yaml.v3 v3.0.1 (the
// last release; the repository is archived) panics with "hash of
// unhashable type" on a mapping that has both a merge key (<<) and a
// mapping or sequence as a key, for instance "<<: x\n{a}: 1"
// (go-yaml/yaml#895, #932, #1050): any file of a table, however it is
// checked after decoding, could stop the daemon.
package yamlsafe

import (
	"fmt"

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
