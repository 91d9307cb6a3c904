package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sztab sim refuses bad input before any table opens: a bad entry in the
// broker list, no tables, an unknown game; its help names the flags.
func TestSimCommandRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--broker", "tcp://127.0.0.1:1883,127.0.0.1:1884"}, `fleet: --broker: wire: broker list: entry 2 of 2 "127.0.0.1:1884"`},
		{[]string{"--broker", "tcp://127.0.0.1:1883", "--tables", "0"}, "fleet: --tables 0, want 1 or more"},
		{[]string{"--broker", "tcp://127.0.0.1:1883", "--games", "skirmish,szachy"}, `fleet: --games: "szachy" is not a game with a demo table`},
		{nil, `required flag(s) "broker" not set`},
	} {
		dir := t.TempDir()
		root := newRoot()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs(append([]string{"sim", "--dir", dir}, tc.args...))
		err := root.ExecuteContext(context.Background())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %s", tc.args, err, tc.want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%v: refused, yet wrote %s", tc.args, filepath.Join(dir, entries[0].Name()))
		}
	}
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"sim", "--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--tables", "--broker", "--venue", "--dir", "--speed", "--games", "--table-logins"} {
		if !strings.Contains(out.String(), flag) {
			t.Errorf("sim --help does not name %s", flag)
		}
	}
}
