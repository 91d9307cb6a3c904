package brokertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Root is the repository's top, found from the test's working directory
// (a package's folder) by its go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("brokertest: no go.mod above the test's folder")
		}
		dir = up
	}
}

// Login is a user name and password in the broker's password file.
type Login struct{ User, Password string }

// StartShippedMosquitto runs Mosquitto with the very files the README tells
// an organiser to copy, firmware-config/mosquitto/mosquitto.conf.example
// and acl.example, changed only where a test must: its listener is the
// test's free loopback port, the password and ACL files are in the test's
// folder (the password file made by mosquitto_passwd with logins), and the
// example's venue "klub" is venue.
func StartShippedMosquitto(t testing.TB, venue string, logins ...Login) *Mosquitto {
	t.Helper()
	root := Root(t)
	conf, err := os.ReadFile(filepath.Join(root, "firmware-config/mosquitto/mosquitto.conf.example"))
	if err != nil {
		t.Fatal(err)
	}
	acl, err := os.ReadFile(filepath.Join(root, "firmware-config/mosquitto/acl.example"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	aclFile, passwd := filepath.Join(dir, "acl"), filepath.Join(dir, "passwd")
	if err := os.WriteFile(aclFile, []byte(strings.ReplaceAll(string(acl), "/klub/", "/"+venue+"/")), 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err := exec.LookPath("mosquitto_passwd")
	if err != nil {
		bin = "/usr/bin/mosquitto_passwd" // make test installs mosquitto
	}
	for i, l := range logins {
		args := []string{"-b", passwd, l.User, l.Password}
		if i == 0 {
			args = append([]string{"-c"}, args...)
		}
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("brokertest: mosquitto_passwd: %v %s", err, out)
		}
	}
	// The test's own listener comes first: the example's settings after
	// it apply to it.
	settings := strings.NewReplacer("listener 1883\n", "", "/etc/mosquitto/passwd", passwd, "/etc/mosquitto/sztab.acl", aclFile).Replace(string(conf))
	if !strings.Contains(settings, aclFile) || !strings.Contains(settings, passwd) || strings.Contains(settings, "listener 1883") {
		t.Fatalf("brokertest: mosquitto.conf.example no longer has the listener and paths this replaces:\n%s", conf)
	}
	return StartMosquitto(t, settings)
}

// FullLog is all Mosquitto has logged so far.
func (m *Mosquitto) FullLog() string {
	data, err := os.ReadFile(m.p.log)
	if err != nil {
		m.t.Fatalf("brokertest: mosquitto's log: %v", err)
	}
	return string(data)
}
