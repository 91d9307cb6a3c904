package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBrokerPasswordSources(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == passwordEnv {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		name    string
		pw      password
		env     string
		want    string
		wantErr string
	}{
		{"flag", password{flag: "tajne"}, "", "tajne", ""},
		{"flag over the environment", password{flag: "tajne"}, "inne", "tajne", ""},
		{"file, first line", password{file: file("a", "tajne\ndrugi wiersz\n")}, "inne", "tajne", ""},
		{"file with CRLF", password{file: file("b", "tajne\r\n")}, "", "tajne", ""},
		{"file without a newline", password{file: file("c", "tajne")}, "", "tajne", ""},
		{"environment", password{}, "z-env", "z-env", ""},
		{"none", password{}, "", "", ""},
		{"flag and file", password{flag: "x", file: file("d", "y\n")}, "", "", "give one, not both"},
		{"missing file", password{file: filepath.Join(dir, "none")}, "", "", "--password-file"},
		{"empty file", password{file: file("e", "\n")}, "", "", "first line is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.pw.resolve(env(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %q, %v, want an error mentioning %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v, want %q", got, err, tt.want)
			}
		})
	}
}

// Both commands take the three sources, say so in their help and refuse
// --password with --password-file before connecting anywhere.
func TestHubAndWatchPasswordFlags(t *testing.T) {
	pwFile := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(pwFile, []byte("tajne\n"), 0o600)
	for cmd, required := range map[string]string{"hub": "--venue", "watch": "--table"} {
		t.Run(cmd, func(t *testing.T) {
			root := newRoot()
			var help strings.Builder
			root.SetOut(&help)
			root.SetArgs([]string{cmd, "--help"})
			if err := root.Execute(); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"--password-file", "$SZTAB_PASSWORD", "process list"} {
				if !strings.Contains(help.String(), want) {
					t.Errorf("help does not mention %s:\n%s", want, help.String())
				}
			}
			root = newRoot()
			root.SetArgs([]string{cmd, required, "v", "--password", "x", "--password-file", pwFile})
			if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "not both") {
				t.Errorf("--password with --password-file: got %v, want an error", err)
			}
		})
	}
}
