package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
)

// Action is anything a player, referee or sensor asks an engine to do.
type Action interface {
	// Type is the action's name in the journal and on the wire.
	Type() string
}

// Codec writes and reads a game's actions as JSON objects whose "type"
// field names the action: {"type":"dice","rolls":[…]}. Each action type is
// registered once, by listing a zero value of it in NewCodec.
type Codec struct {
	prefix string
	types  map[string]reflect.Type
}

// NewCodec registers the actions of one game; prefix starts its error
// messages ("skirmish"). Actions are value types (not pointers); a type
// listed twice, or two types with one name, is a programming error and
// panics.
func NewCodec(prefix string, actions ...Action) *Codec {
	c := &Codec{prefix: prefix, types: map[string]reflect.Type{}}
	for _, a := range actions {
		t := reflect.TypeOf(a)
		if t.Kind() == reflect.Pointer {
			panic(fmt.Sprintf("%s: action %s registered as a pointer", prefix, t))
		}
		if prev, dup := c.types[a.Type()]; dup {
			panic(fmt.Sprintf("%s: action name %q registered for %s and %s", prefix, a.Type(), prev, t))
		}
		c.types[a.Type()] = t
	}
	return c
}

// Types lists the registered action names, sorted.
func (c *Codec) Types() []string {
	out := make([]string, 0, len(c.types))
	for n := range c.types {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Encode writes an action as {"type": ..., fields...}.
func (c *Codec) Encode(a Action) ([]byte, error) {
	if a == nil {
		return nil, fmt.Errorf("%s: encode: no action", c.prefix)
	}
	if t, ok := c.types[a.Type()]; !ok || t != reflect.TypeOf(a) {
		return nil, fmt.Errorf("%s: encode: %T is not one of this game's actions", c.prefix, a)
	}
	body, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("%s: encode %s: %w", c.prefix, a.Type(), err)
	}
	typ, _ := json.Marshal(a.Type())
	if bytes.Equal(body, []byte("{}")) {
		return []byte(`{"type":` + string(typ) + `}`), nil
	}
	return append([]byte(`{"type":`+string(typ)+`,`), body[1:]...), nil
}

// Decode reads what Encode wrote and returns the action as a value. Unknown
// types and unknown fields are errors.
func (c *Codec) Decode(data []byte) (Action, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("%s: action: %w", c.prefix, err)
	}
	var name string
	if raw, ok := fields["type"]; !ok {
		return nil, fmt.Errorf("%s: action: no \"type\" field", c.prefix)
	} else if err := json.Unmarshal(raw, &name); err != nil {
		return nil, fmt.Errorf("%s: action: type: %w", c.prefix, err)
	}
	t, ok := c.types[name]
	if !ok {
		return nil, fmt.Errorf("%s: unknown action type %q", c.prefix, name)
	}
	delete(fields, "type")
	rest, _ := json.Marshal(fields)
	v := reflect.New(t)
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v.Interface()); err != nil {
		return nil, fmt.Errorf("%s: action %s: %w", c.prefix, name, err)
	}
	return v.Elem().Interface().(Action), nil
}
