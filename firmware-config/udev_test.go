package firmwareconfig

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Debian 12's udevadm (systemd 252) has no `udevadm verify` (253 added
// it), so the rules are parsed here the way udev reads them
// (udev(7)): comma-separated KEY{attr}OP"value" pairs, each key known,
// each operator one the key takes, at least one match and one assignment.
var udevPair = regexp.MustCompile(`^([A-Z_]+)(\{[^}]+\})?(==|!=|\+=|-=|:=|=)"([^"]*)"$`)

// udevKeys: the keys the rules may use, and whether each is a match (==,
// !=) or an assignment (=, +=, -=, :=). ENV and TAG are both.
var udevKeys = map[string]struct{ match, assign, attr bool }{
	"ACTION": {match: true}, "DEVPATH": {match: true}, "KERNEL": {match: true}, "KERNELS": {match: true},
	"NAME": {match: true, assign: true}, "SYMLINK": {match: true, assign: true}, "SUBSYSTEM": {match: true},
	"SUBSYSTEMS": {match: true}, "DRIVER": {match: true}, "DRIVERS": {match: true},
	"ATTR": {match: true, assign: true, attr: true}, "ATTRS": {match: true, attr: true},
	"ENV": {match: true, assign: true, attr: true}, "TAG": {match: true, assign: true},
	"GROUP": {assign: true}, "MODE": {assign: true}, "OWNER": {assign: true}, "RUN": {assign: true, attr: true},
}

func parseUdevRule(line string) error {
	var match, assign int
	for _, field := range strings.Split(line, ",") {
		m := udevPair.FindStringSubmatch(strings.TrimSpace(field))
		if m == nil {
			return fmt.Errorf("%q is not KEY{attr}OP\"value\"", strings.TrimSpace(field))
		}
		key, attr, op := m[1], m[2], m[3]
		k, ok := udevKeys[key]
		switch {
		case !ok:
			return fmt.Errorf("unknown key %s", key)
		case (attr != "") != k.attr && !(key == "RUN" && attr == ""):
			return fmt.Errorf("%s: attribute %q", key, attr)
		case op == "==" || op == "!=":
			if !k.match {
				return fmt.Errorf("%s cannot be matched (%s)", key, op)
			}
			match++
		default:
			if !k.assign {
				return fmt.Errorf("%s cannot be assigned (%s)", key, op)
			}
			assign++
		}
		if key == "MODE" && !regexp.MustCompile(`^0[0-7]{3}$`).MatchString(m[4]) {
			return fmt.Errorf("MODE %q is not an octal mode", m[4])
		}
	}
	if match == 0 || assign == 0 {
		return fmt.Errorf("a rule needs a match and an assignment (%d, %d)", match, assign)
	}
	return nil
}

// TestUdevRulesParse: every rule of the shipped file (the Debian
// package's /lib/udev/rules.d/99-sztab.rules) parses, and each device kind
// the daemon opens gets the sztab group.
func TestUdevRulesParse(t *testing.T) {
	f, err := os.Open("udev/99-sztab.rules")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	subsystems := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := parseUdevRule(line); err != nil {
			t.Errorf("99-sztab.rules:%d: %v", n, err)
		}
		if m := regexp.MustCompile(`SUBSYSTEM=="([^"]+)"`).FindStringSubmatch(line); m != nil && strings.Contains(line, `GROUP="sztab"`) {
			subsystems[m[1]] = true
		}
	}
	for _, s := range []string{"spidev", "gpio", "i2c-dev", "video4linux", "media"} {
		if !subsystems[s] {
			t.Errorf("no rule gives the sztab group the %s devices", s)
		}
	}
}

// TestUdevParserRefuses: the parser can fail.
func TestUdevParserRefuses(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`SUBSYSTEM=="spidev", GROUP="sztab", MODE="0660"`, ""},
		{`SUBSYSTEM=="spidev" GROUP="sztab"`, "is not"},
		{`SUBSYSTEM="spidev", GROUP="sztab"`, "cannot be assigned"},
		{`SUBSYSTEM=="spidev", GROUP=="sztab"`, "cannot be matched"},
		{`SUBSYSTEMZ=="spidev", GROUP="sztab"`, "unknown key"},
		{`SUBSYSTEM=="spidev", MODE="660x"`, "octal"},
		{`SUBSYSTEM=="spidev", ENV="x"`, "attribute"},
		{`SUBSYSTEM=="spidev"`, "needs a match and an assignment"},
		{`SUBSYSTEM=="spidev", GROUP="sztab`, "is not"},
	} {
		err := parseUdevRule(tc.line)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.line, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want an error with %q", tc.line, err, tc.want)
		}
	}
}
