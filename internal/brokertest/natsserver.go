package brokertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// NATSModule is the Go module the venue's cluster runs, pinned in go.mod
// as a tool (`go get -tool`), so `go build NATSModule` builds that version.
const NATSModule = "github.com/nats-io/nats-server/v2"

// NATSServer is a nats-server program the venue's cluster can run.
type NATSServer struct {
	// Name says which, for a subtest's or a benchmark's name: "module"
	// (NATSModule at the version go.mod pins, built from source) or
	// "debian" (Debian 12's nats-server package, 2.9.10).
	Name string
	// Binary finds or builds the program.
	Binary func(testing.TB) string
}

var (
	// ModuleNATS is NATSModule built by Go (see ModuleNATSBinary): the
	// venue's broker, kept after both were measured (docs/venue-brokers.md).
	ModuleNATS = NATSServer{Name: "module", Binary: ModuleNATSBinary}
	// DebianNATS is Debian's package, measured against it.
	DebianNATS = NATSServer{Name: "debian", Binary: DebianNATSBinary}
)

// NATSServers are the programs a comparison runs: the kept one alone,
// or, with SZTAB_NATS=both (`make bench`, `make drills`), both (the kept
// one first); SZTAB_NATS=debian runs Debian's alone.
func NATSServers() []NATSServer {
	switch os.Getenv("SZTAB_NATS") {
	case "both":
		return []NATSServer{ModuleNATS, DebianNATS}
	case "debian":
		return []NATSServer{DebianNATS}
	}
	return []NATSServer{ModuleNATS}
}

// NATSBinary is the venue's nats-server, the one kept (ModuleNATSBinary).
func NATSBinary(t testing.TB) string { return ModuleNATSBinary(t) }

// DebianNATSBinary is Debian's nats-server (see Binary).
func DebianNATSBinary(t testing.TB) string { return Binary(t, "nats-server", "nats-server") }

var moduleBuild struct {
	sync.Mutex
	bin string
}

// ModuleNATSBinary is NATSModule at the version go.mod pins, built once
// into bin/nats-server-<version> at the repository's top (as `make
// nats-server` does) and used from there by every later test: a test
// process builds it only when that file is missing, under a file lock so
// that the packages `go test` runs at once build it once.
func ModuleNATSBinary(t testing.TB) string {
	t.Helper()
	moduleBuild.Lock()
	defer moduleBuild.Unlock()
	if moduleBuild.bin != "" {
		return moduleBuild.bin
	}
	bin, err := buildModuleNATS(Root(t))
	if err != nil {
		t.Fatal(err)
	}
	moduleBuild.bin = bin
	return bin
}

// NATSModuleVersion is the version of NATSModule that go.mod requires.
func NATSModuleVersion(gomod []byte) (string, error) {
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == NATSModule {
			return f[1], nil
		}
	}
	return "", fmt.Errorf("brokertest: go.mod does not require %s", NATSModule)
}

func buildModuleNATS(root string) (string, error) {
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("brokertest: %w", err)
	}
	version, err := NATSModuleVersion(gomod)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "bin")
	bin := filepath.Join(dir, "nats-server-"+version)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("brokertest: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".nats-server.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", fmt.Errorf("brokertest: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("brokertest: lock %s: %w", lock.Name(), err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil // another test process built it meanwhile
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = "/usr/local/go/bin/go"
	}
	tmp := fmt.Sprintf("%s.%d.tmp", bin, os.Getpid())
	cmd := exec.Command(goBin, "build", "-o", tmp, NATSModule)
	cmd.Dir = root
	// The server runs on this machine, beside the tests: built for it,
	// not for the architecture the tests are built for (make test-arm64
	// sets GOARCH=arm64 and runs the tests under qemu).
	cmd.Env = append(os.Environ(), "GOOS=", "GOARCH=")
	if out, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("brokertest: go build %s (%s): %w\n%s", NATSModule, version, err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", fmt.Errorf("brokertest: %w", err)
	}
	return bin, nil
}
