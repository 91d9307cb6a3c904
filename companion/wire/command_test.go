package wire

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseCommandArguments(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		from       Sender
		want       []string
		err        string
	}{
		{name: "arguments of a command that names them", data: `{"name":"move","args":["red-1","plac-wilsona"]}`, from: Seat, want: []string{"red-1", "plac-wilsona"}},
		{name: "an empty list is none", data: `{"name":"next","args":[]}`, from: Ref},
		{name: "a command without arguments given one", data: `{"name":"next","args":["x"]}`, from: Ref, err: `command "next" takes no arguments`},
		{name: "too many", data: `{"name":"move","args":["1","2","3","4","5","6","7","8","9"]}`, from: Ref, err: "9 arguments, at most 8"},
		{name: "too long", data: `{"name":"move","args":["` + strings.Repeat("x", 65) + `"]}`, from: Ref, err: "argument 1 is longer than 64 bytes"},
		{name: "a control character", data: `{"name":"move","args":["ok","a\nb"]}`, from: Ref, err: "argument 2 is longer than 64 bytes, not UTF-8 or holds control characters"},
		{name: "not strings", data: `{"name":"move","args":[1]}`, from: Ref, err: "cannot unmarshal number"},
		{name: "the sender may not", data: `{"name":"move","args":["a"]}`, from: Keys, err: `unknown command "move"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseCommand([]byte(tc.data), fuzzVocabulary, tc.from)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %+v, %v; want an error with %q", c, err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(c.Args, tc.want) {
				t.Fatalf("got %+v, %v; want args %q", c, err, tc.want)
			}
		})
	}
}
