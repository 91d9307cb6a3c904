package yamlsafe

import (
	"bytes"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Inputs that make yaml.v3 v3.0.1 panic: the first two found by fuzzing
// Sztab's parsers, into a struct; the last from go-yaml/yaml#895, into any.
var panics = []struct {
	in      string
	intoAny bool
}{
	{in: "<<:\n{heardd1 }:"},
	{in: "<<:  keypads\n{1}:"},
	{in: "<<:\n? -"},
	{in: "0:\n<<:\n  {}:\n", intoAny: true},
}

type target struct {
	Name string   `yaml:"name"`
	List []string `yaml:"list"`
}

func TestPanicsAreErrors(t *testing.T) {
	for _, p := range panics {
		into := func() any {
			if p.intoAny {
				return new(any)
			}
			return new(target)
		}
		unhashable := func(how string, err error) {
			if err == nil || !strings.Contains(err.Error(), "unhashable") {
				t.Errorf("%s(%q): %v, want the panic as an error", how, p.in, err)
			}
		}
		dec := yaml.NewDecoder(bytes.NewReader([]byte(p.in)))
		dec.KnownFields(true)
		unhashable("Decode", Decode(dec, into()))
		unhashable("Unmarshal", Unmarshal([]byte(p.in), into()))
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(p.in), &n); err != nil {
			t.Fatalf("%q does not parse as a node: %v", p.in, err)
		}
		unhashable("DecodeNode", DecodeNode(&n, into()))
	}
}

func TestSameAsYAML(t *testing.T) {
	in := "name: x\nlist: [a, b]\n"
	var got, want target
	if err := Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(in), &want); err != nil {
		t.Fatal(err)
	}
	if got.Name != want.Name || strings.Join(got.List, ",") != strings.Join(want.List, ",") {
		t.Errorf("got %+v, want %+v", got, want)
	}
	dec := yaml.NewDecoder(strings.NewReader("name: x\ncolour: red\n"))
	dec.KnownFields(true)
	if err := Decode(dec, &got); err == nil || !strings.Contains(err.Error(), "field colour not found") {
		t.Errorf("unknown field: got %v, want yaml's own error", err)
	}
}

func TestStrictAndEntryLine(t *testing.T) {
	var v struct {
		Cards []struct {
			ID string `yaml:"id"`
		} `yaml:"cards"`
	}
	doc := []byte("# cards\ncards:\n  - {id: a}\n  - {id: b}\nother: 1\n")
	if err := Strict(doc, &v); err == nil || !strings.Contains(err.Error(), "field other not found") {
		t.Errorf("an unknown field: %v", err)
	}
	if err := Strict([]byte("# nothing\n"), &v); err != ErrEmpty {
		t.Errorf("an empty document: %v", err)
	}
	for _, tc := range []struct {
		key   string
		index int
		want  int
	}{{"cards", 1, 4}, {"cards", 0, 3}, {"cards", 5, 3}, {"other", 0, 5}, {"missing", 0, 0}} {
		if got := EntryLine(doc, tc.key, tc.index); got != tc.want {
			t.Errorf("EntryLine(%s, %d) = %d, want %d", tc.key, tc.index, got, tc.want)
		}
	}
}
