package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The organiser's password never comes from the command line: a file or
// the environment, and without either the venue does not start.
func TestVenueOrganiserPassword(t *testing.T) {
	dir := t.TempDir()
	pwFile := filepath.Join(dir, "org")
	os.WriteFile(pwFile, []byte("tajne\nreszta\n"), 0o600)
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == organiserEnv {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		file, env, want, wantErr string
	}{
		{pwFile, "", "tajne", ""},
		{pwFile, "z-env", "tajne", ""},
		{"", "z-env", "z-env", ""},
		{"", "", "", "--organiser-password-file or set $SZTAB_ORGANISER_PASSWORD"},
		{empty, "", "", "--organiser-password-file " + empty + ": the first line is empty"},
		{filepath.Join(dir, "none"), "", "", "--organiser-password-file: open"},
	}
	for _, tt := range tests {
		got, err := organiserPassword(tt.file, env(tt.env))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("file %q env %q: got %q, %v; want an error with %q", tt.file, tt.env, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("file %q env %q: got %q, %v; want %q", tt.file, tt.env, got, err, tt.want)
		}
	}

	root := newRoot()
	var help strings.Builder
	root.SetOut(&help)
	root.SetArgs([]string{"venue", "--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--organiser-password-file", "$SZTAB_ORGANISER_PASSWORD", "--tournament", "--db", "--password-file"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("help does not mention %s", want)
		}
	}
	if strings.Contains(help.String(), "--organiser-password ") {
		t.Error("the organiser's password can be given on the command line")
	}
	t.Setenv(organiserEnv, "")
	root = newRoot()
	root.SetArgs([]string{"venue", "--venue", "v", "--listen", "127.0.0.1:0"})
	if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "organiser's password") {
		t.Errorf("no organiser's password: %v", err)
	}
	root = newRoot()
	root.SetArgs([]string{"venue", "--venue", "v", "--listen", "127.0.0.1:0", "--organiser-password-file", pwFile, "--tournament", filepath.Join(dir, "none.yaml")})
	if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "tournament") {
		t.Errorf("no tournament file: %v", err)
	}
}
