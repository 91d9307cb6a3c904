package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	rec "github.com/sztab/sztab/companion/record"
	firmwareconfig "github.com/sztab/sztab/firmware-config"
)

// releasesDir keeps, for each release, what a table of it wrote: for every
// game a finished game's journal, the table's config and tag registry, and
// the export with the signed statement (testdata/releases/VERSION/GAME/).
// Every later version must read them all (TestReleasesStillRead).
const releasesDir = "testdata/releases"

var writeRelease = flag.Bool("write-release", false, "write testdata/releases/VERSION for this version (companion.Version), once per release")

// TestWriteRelease writes this version's files with -write-release (at a
// release: go test ./cmd/sztab -run TestWriteRelease -write-release).
func TestWriteRelease(t *testing.T) {
	if !*writeRelease {
		return
	}
	dir := filepath.Join(releasesDir, companion.Version)
	if _, err := os.Stat(dir); err == nil {
		t.Fatalf("%s exists: a release's files are never rewritten", dir)
	}
	for _, g := range goldenGames() {
		out := filepath.Join(dir, g.game)
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		// The demo config, its simulated session and its tag registry, as
		// shipped.
		cfgData, err := firmwareconfig.Demo.ReadFile("demo/" + g.file)
		if err != nil {
			t.Fatal(err)
		}
		script := strings.TrimSuffix(g.file, ".yaml") + "-demo.jsonl"
		scriptData, err := firmwareconfig.Demo.ReadFile("demo/" + script)
		if err != nil {
			t.Fatal(err)
		}
		mustWrite(t, filepath.Join(out, script), scriptData)
		mustWrite(t, filepath.Join(out, "table.yaml"), cfgData)
		cfg, err := companion.LoadConfig(filepath.Join(out, "table.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		tags, err := firmwareconfig.Demo.ReadFile("demo/" + filepath.Base(cfg.Tags))
		if err != nil {
			t.Fatal(err)
		}
		mustWrite(t, filepath.Join(out, filepath.Base(cfg.Tags)), tags)
		journal := filepath.Join(out, "game.sqlite")
		writeGoldenJournal(t, journal, companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, g.golden, g.parse, g.codec)
		// The signed statement: an export signed by a key made now; the
		// private half is not kept.
		priv, pub, err := rec.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		tmp := t.TempDir()
		mustWrite(t, filepath.Join(tmp, "table.key"), priv)
		mustWrite(t, filepath.Join(out, "table.key.pub"), pub)
		if o, err := runSztab(t, "export", "--journal", journal, "--config", filepath.Join(out, "table.yaml"),
			"--out", filepath.Join(out, "export"), "--sign", filepath.Join(tmp, "table.key")); err != nil {
			t.Fatalf("export: %v\n%s", err, o)
		}
		// SQLite's and the journal lock's files, left by the reading.
		for _, f := range []string{"-shm", "-wal", ".lock"} {
			os.Remove(journal + f)
		}
	}
}

// TestReleasesStillRead: the files every earlier release wrote are read by
// this one: each journal's chain checks, its export's signed statement
// verifies with the release's key, the config and tag registry load, and
// the journal replayed through this version's game gives the same record
// and the same result (table, final seq and hash, winner and scores).
func TestReleasesStillRead(t *testing.T) {
	releases, err := os.ReadDir(releasesDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(releases) == 0 {
		t.Fatal("no release under testdata/releases")
	}
	for _, r := range releases {
		for _, g := range goldenGames() {
			t.Run(r.Name()+"/"+g.game, func(t *testing.T) {
				src := filepath.Join(releasesDir, r.Name(), g.game)
				dir := t.TempDir()
				// A copy: reading a journal may leave SQLite's files beside it.
				for _, f := range []string{"table.yaml", "game.sqlite", "table.key.pub"} {
					copyFile(t, filepath.Join(src, f), filepath.Join(dir, f))
				}
				cfg, err := companion.LoadConfig(filepath.Join(src, "table.yaml"))
				if err != nil {
					t.Fatalf("the release's config: %v", err)
				}
				if o, err := runSztab(t, "tags", "check", "--registry", cfg.Resolve(cfg.Tags)); err != nil {
					t.Errorf("the release's tag registry: %v\n%s", err, o)
				}
				journal := filepath.Join(dir, "game.sqlite")
				if o, err := runSztab(t, "verify", "--journal", journal); err != nil {
					t.Errorf("verify --journal: %v\n%s", err, o)
				}
				if o, err := runSztab(t, "verify", "--record", filepath.Join(src, "export"), "--pubkey", filepath.Join(dir, "table.key.pub")); err != nil {
					t.Errorf("the release's signed statement: %v\n%s", err, o)
				}
				old, err := rec.ParseStatement(readFile(t, filepath.Join(src, "export", "result.txt")))
				if err != nil {
					t.Fatal(err)
				}
				// Replayed by this version, signed by another key.
				priv, _, _ := rec.GenerateKey()
				mustWrite(t, filepath.Join(dir, "table.key"), priv)
				if o, err := runSztab(t, "export", "--journal", journal, "--config", filepath.Join(src, "table.yaml"),
					"--out", filepath.Join(dir, "export"), "--sign", filepath.Join(dir, "table.key")); err != nil {
					t.Fatalf("export of the release's journal: %v\n%s", err, o)
				}
				if !bytes.Equal(readFile(t, filepath.Join(src, "export", "record.jsonl")), readFile(t, filepath.Join(dir, "export", "record.jsonl"))) {
					t.Error("the journal's record (entries, hashes) differs from the release's export")
				}
				now, err := rec.ParseStatement(readFile(t, filepath.Join(dir, "export", "result.txt")))
				if err != nil {
					t.Fatal(err)
				}
				if now.Table != old.Table || now.FinalSeq != old.FinalSeq || now.FinalHash != old.FinalHash {
					t.Errorf("replayed: table %s seq %d hash %s; the release said %s seq %d hash %s", now.Table, now.FinalSeq, now.FinalHash, old.Table, old.FinalSeq, old.FinalHash)
				}
				if now.Result != old.Result {
					t.Errorf("replayed result %q / %q; the release said %q / %q", now.Result.PL, now.Result.EN, old.Result.PL, old.Result.EN)
				}
				for _, s := range append([]string{g.winner}, g.scores...) {
					if !strings.Contains(old.Result.EN, s) {
						t.Errorf("the release's result %q does not say %q", old.Result.EN, s)
					}
				}
			})
		}
	}
}

func mustWrite(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	mustWrite(t, to, readFile(t, from))
}
