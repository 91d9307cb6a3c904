// Package layers checks the import graph: data flows one way (sensors →
// companion → rules → companion → MQTT), so the lower layers never import
// the higher ones, and no production package leans on a test harness.
package layers

import (
	"os/exec"
	"path"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/internal/gamestest"
)

const module = "github.com/sztab/sztab/"

// imports are the repository's production packages (test files aside)
// and the repository packages each imports.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, ":")
		pkg = strings.TrimPrefix(pkg, module)
		graph[pkg] = nil
		for _, d := range strings.Fields(deps) {
			if strings.HasPrefix(d, module) {
				graph[pkg] = append(graph[pkg], strings.TrimPrefix(d, module))
			}
		}
	}
	return graph
}

// under says whether pkg is prefix or a package below it.
func under(pkg, prefix string) bool { return pkg == prefix || strings.HasPrefix(pkg, prefix+"/") }

// harnesses are the test harnesses: only tests import them.
var harnesses = []string{"internal/tabletest", "internal/twoworlds", "internal/brokertest", "internal/golden",
	"internal/chromium", "internal/pagecheck", "internal/wait", "internal/fuzzseed", "internal/logbuf", "internal/testclock",
	"internal/gamestest"}

func TestLayers(t *testing.T) {
	graph := imports(t)
	if len(graph) < 40 {
		t.Fatalf("go list found %d packages: not this repository", len(graph))
	}
	for _, rule := range []struct {
		layer  string
		may    []string // the repository packages it may import (prefixes)
		reason string
	}{
		{"rules", []string{"rules", "internal/yamlsafe"}, "an engine is pure: no I/O, no daemon, no camera"},
		{"hardware", []string{"hardware", "vision", "internal/yamlsafe"}, "drivers know no game and no daemon (the simulator sends camera snapshots)"},
		{"vision", []string{"vision", "internal/yamlsafe", "internal/atomicfile"}, "the camera reports geometry; it decides no rule and knows no daemon"},
		{"companion/wire", []string{"companion/wire", "companion/record", "rules"}, "the wire contract is read by the daemon, the hub, the watch and the venue: it imports none of them"},
		{"companion/record", []string{"companion/record"}, "the signed record is checked by the organiser without a daemon"},
		{"gamespec", []string{"gamespec", "companion/wire", "companion/record", "rules", "hardware", "vision", "internal/yamlsafe"},
			"the game contract imports nothing of the daemon: a game builds against it alone"},
		{"companion/tournament", []string{"companion/tournament", "companion/record", "companion/wire", "gamespec", "internal/yamlsafe"},
			"the tournament core knows no daemon and no game: the binary hands it the registry, whose specs give each game's defaults"},
	} {
		for pkg, deps := range graph {
			if !under(pkg, rule.layer) {
				continue
			}
			for _, d := range deps {
				ok := false
				for _, m := range rule.may {
					ok = ok || under(d, m)
				}
				if !ok {
					t.Errorf("%s imports %s: %s may import only %v (%s)", pkg, d, rule.layer, rule.may, rule.reason)
				}
			}
		}
	}
	for pkg, deps := range graph {
		if slices.Contains(harnesses, pkg) {
			continue
		}
		for _, d := range deps {
			if slices.Contains(harnesses, d) {
				t.Errorf("%s imports the test harness %s: production code never does", pkg, d)
			}
		}
	}
}

// A game package (the package of a registered game's constructor, the
// test-only sixth's too) builds against the game contract: it imports
// the daemon package companion not at all. Of the packages under
// companion/ it may import only the wire contract and the signed record
// (which gamespec itself imports) and the club's box packs
// (companion/box, which still imports the daemon for the tag registry's
// parser: that link is box's, not the game's).
func TestGamePackagesImportNoDaemon(t *testing.T) {
	graph := imports(t)
	var pkgs []string
	for _, spec := range gamestest.All {
		fn := runtime.FuncForPC(reflect.ValueOf(spec.New).Pointer()).Name()
		pkg, ok := strings.CutPrefix(fn, module)
		if !ok {
			t.Fatalf("%s: the constructor %s is not in this module", spec.ID, fn)
		}
		dir, last := path.Split(pkg)
		last, _, _ = strings.Cut(last, ".")
		pkgs = append(pkgs, dir+last)
	}
	may := []string{"gamespec", "companion/wire", "companion/record", "companion/box", "rules", "hardware", "vision", "internal/yamlsafe"}
	for _, pkg := range pkgs {
		deps, ok := graph[pkg]
		if !ok {
			t.Fatalf("go list does not know the game package %s", pkg)
		}
		for _, d := range deps {
			ok := under(d, pkg)
			for _, m := range may {
				ok = ok || under(d, m)
			}
			if !ok {
				t.Errorf("the game package %s imports %s: a game imports only %v (the contract, not the daemon)", pkg, d, may)
			}
		}
	}
}

// The game contract links nothing of the daemon, not even through another
// package: no broker, no MQTT client, no journal database.
func TestGameContractLinksNoDaemon(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", module+"gamespec").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"rules") {
		t.Fatalf("go list -deps gamespec found %d packages, not rules: not this repository", len(deps))
	}
	for _, d := range deps {
		if d == module+"companion" || strings.HasPrefix(d, "github.com/mochi-mqtt/") ||
			strings.HasPrefix(d, "github.com/eclipse/paho") || strings.HasPrefix(d, "modernc.org/sqlite") {
			t.Errorf("the game contract links %s", d)
		}
	}
}
