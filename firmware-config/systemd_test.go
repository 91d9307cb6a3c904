package firmwareconfig

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// systemdAnalyze finds systemd-analyze; under CI a missing one fails the
// test: `make test` installs Debian's systemd package (scripts/deps.sh).
func systemdAnalyze(t *testing.T) string {
	t.Helper()
	if bin, err := exec.LookPath("systemd-analyze"); err == nil {
		return bin
	}
	for _, p := range []string{"/usr/bin/systemd-analyze", "/bin/systemd-analyze"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("systemd-analyze is not installed; `make test` installs it (apt-get install systemd)")
	}
	t.Skip("systemd-analyze is not installed; run `make test`, which installs it")
	return ""
}

// TestSystemdUnitVerifies runs `systemd-analyze verify` on the unit, offline
// (no running systemd): in a root directory holding the unit, the system's
// own units it refers to, and an executable at ExecStart's path. verify
// only warns about a bad value (exit status 0), so any output fails.
func TestSystemdUnitVerifies(t *testing.T) {
	bin := systemdAnalyze(t)
	unit, err := os.ReadFile("systemd/sztab.service")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	mustCopyTree(t, "/usr/lib/systemd/system", filepath.Join(root, "usr/lib/systemd/system"))
	dst := filepath.Join(root, "etc/systemd/system/sztab.service")
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if err := os.WriteFile(dst, unit, 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(root, "usr/bin/sztab")
	os.MkdirAll(filepath.Dir(exe), 0o755)
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	verify := func(path string) (string, error) {
		cmd := exec.Command(bin, "verify", "--man=no", "--root="+root, path)
		cmd.Env = append(os.Environ(), "SYSTEMD_LOG_COLOR=0", "SYSTEMD_PAGER=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := verify(dst); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	// The check can fail: a unit with a bad value is reported.
	bad := strings.Replace(string(unit), "WatchdogSec=30s", "WatchdogSec=thirty", 1)
	os.WriteFile(dst, []byte(bad), 0o644)
	if out, _ := verify(dst); !strings.Contains(out, "thirty") {
		t.Errorf("systemd-analyze verify did not report WatchdogSec=thirty: %q", out)
	}
}

// TestSystemdUnitAsked: the settings the issue asks for are in the unit.
func TestSystemdUnitAsked(t *testing.T) {
	f, err := os.Open("systemd/sztab.service")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if ok && !strings.HasPrefix(k, "#") {
			got[k] = v
		}
	}
	for _, tc := range []struct{ key, want string }{
		{"Type", "notify"}, {"NotifyAccess", "main"}, {"WatchdogSec", "30s"}, {"Restart", "on-failure"},
		{"ProtectSystem", "strict"}, {"ReadWritePaths", "/var/lib/sztab"}, {"NoNewPrivileges", "yes"},
		{"SupplementaryGroups", "spi i2c gpio video"}, {"StateDirectory", "sztab"},
	} {
		if got[tc.key] != tc.want {
			t.Errorf("%s=%q, want %q", tc.key, got[tc.key], tc.want)
		}
	}
	if !strings.Contains(got["ExecStart"], "sztab run --config /etc/sztab/table.yaml") {
		t.Errorf("ExecStart=%q", got["ExecStart"])
	}
}

// mustCopyTree copies a directory of unit files and the symlinks among them.
func mustCopyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case info.IsDir():
			return os.MkdirAll(dst, 0o755)
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, data, 0o644)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}
