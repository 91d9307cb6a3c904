package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/tournament"
	"github.com/sztab/sztab/internal/golden"
)

var updateRecord = flag.Bool("update-record", false, "rewrite the export's golden files in testdata/record")

// maliJournal plays the README's Mali Powstańcy game
// (rules/mali/testdata/games/readme.jsonl) on the demo table's config
// through the game's engine and journals it as the daemon does, with a
// fixed clock, a refused action among them. It returns the journal's path
// and the table's config.
func maliJournal(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	if err := writeDemo(dir); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "mali-powstancy.yaml")
	cfg, err := companion.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := games.Lookup(cfg.Game)
	g, err := spec.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mali.journal.db")
	j, err := companion.OpenJournal(path, companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	script, err := os.ReadFile("../../rules/mali/testdata/games/readme.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 8, 1, 17, 0, 0, 0, time.UTC)
	ctx := context.Background()
	sc := bufio.NewScanner(bytes.NewReader(script))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var a companion.Action
		if strings.Contains(line, `"type":"setup"`) {
			// The script's setup is the table's opening action, built
			// from the demo config (the same game).
			a, err = g.Start()
		} else {
			a, err = g.DecodeAction([]byte(line))
		}
		if err != nil {
			t.Fatalf("readme.jsonl:%d: %v", n, err)
		}
		events, commit, err := g.Apply(a)
		if err != nil {
			t.Fatalf("readme.jsonl:%d: %v", n, err)
		}
		body, _ := g.EncodeAction(a)
		ev, _ := json.Marshal(events)
		at = at.Add(20 * time.Second)
		if _, err := j.Append(ctx, companion.KindAction, cfg.Game, at, body, ev); err != nil {
			t.Fatal(err)
		}
		commit()
		if n == 6 {
			at = at.Add(time.Second)
			notice := `{"type":"rejected","code":"not_your_turn","text":{"pl":"nie twoja kolej","en":"not your turn"},"action":"play_card"}`
			if _, err := j.Append(ctx, companion.KindNotice, cfg.Game, at, []byte(notice), []byte(`[`+notice+`]`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return path, cfgPath
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// The export of the README's Mali game: record.jsonl, summary.md and
// summary.html as golden files (a fixed clock; -update-record rewrites
// them), and the export verifies.
func TestExportGolden(t *testing.T) {
	path, cfg := maliJournal(t)
	out := filepath.Join(t.TempDir(), "rec")
	now = func() time.Time { return time.Date(2026, 8, 2, 9, 0, 0, 0, time.UTC) }
	defer func() { now = time.Now }()
	if o, err := runSztab(t, "export", "--journal", path, "--config", cfg, "--out", out); err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	for _, name := range []string{record.RecordFile, record.MarkdownFile, record.HTMLFile} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "record", name), got, *updateRecord)
	}
	// The export is the record: it verifies.
	if o, err := runSztab(t, "verify", "--record", out); err != nil || !strings.Contains(o, "OK: record") || !strings.Contains(o, "summary.html names the same final hash") {
		t.Errorf("verify of the export: %v\n%s", err, o)
	}
	// A second export to the same place is refused unless --force.
	if _, err := runSztab(t, "export", "--journal", path, "--config", cfg, "--out", out); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("export over an export: got %v, want refused", err)
	}
	// Without the table's config, a game that needs its section says so.
	if _, err := runSztab(t, "export", "--journal", path, "--out", t.TempDir()); err == nil || !strings.Contains(err.Error(), "give --config") {
		t.Errorf("export without the config: got %v, want a hint to give --config", err)
	}
}

// editSQLite changes a journal behind Sztab's back, as sqlite3 would.
func editSQLite(t *testing.T, path, stmt string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(stmt)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("%s changed %d rows, want 1", stmt, n)
	}
}

// sztab verify --journal: OK with the count and the last hash, or the
// first entry that does not match and why; the daemon refuses the same
// journal at start.
func TestVerifyJournal(t *testing.T) {
	path, _ := maliJournal(t)
	o, err := runSztab(t, "verify", "--journal", path)
	if err != nil || !strings.Contains(o, "OK: journal") || !strings.Contains(o, "35 entries") || !strings.Contains(o, "last seq 35, last hash ") {
		t.Fatalf("verify of an untouched journal: %v\n%s", err, o)
	}
	for _, tc := range []struct{ name, edit, want string }{
		{"the soldier's die changed", `UPDATE journal SET body = replace(body, '"value":3', '"value":6') WHERE seq = 26 AND body LIKE '%roll_die%"value":3%'`, "entry 26: hash mismatch"},
		{"a row deleted", `DELETE FROM journal WHERE seq = 12`, "entry 13: missing seq: entry 12 is not there"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, _ := maliJournal(t)
			editSQLite(t, path, tc.edit)
			_, err := runSztab(t, "verify", "--journal", path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) == 0 {
				t.Fatalf("got %v, want it to say %q", err, tc.want)
			}
			_, err = companion.OpenJournal(path, companion.JournalIdentity{Venue: "demo", Table: "stol-2", Game: "mali-powstancy"}, quiet)
			if !errors.Is(err, companion.ErrJournalTampered) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("OpenJournal: got %v, want ErrJournalTampered saying %q", err, tc.want)
			}
		})
	}
	if _, err := runSztab(t, "verify"); err == nil {
		t.Error("verify without --journal or --record: no error")
	}
}

// An export signed with the table's key verifies with its public key, and
// not when a line, a summary's hash, the statement or the key differ.
func TestExportSignedAndVerify(t *testing.T) {
	path, cfg := maliJournal(t)
	dir := t.TempDir()
	key := filepath.Join(dir, "table.key")
	o, err := runSztab(t, "keygen", "--out", key)
	if err != nil || !strings.Contains(o, "fingerprint ") {
		t.Fatalf("keygen: %v\n%s", err, o)
	}
	if fi, err := os.Stat(key); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("private key file: %v, mode %v, want 0600", err, fi.Mode().Perm())
	}
	if _, err := runSztab(t, "keygen", "--out", key); err == nil || !strings.Contains(err.Error(), "never replaced") {
		t.Errorf("keygen over a key: got %v, want refused", err)
	}
	other := filepath.Join(dir, "other.key")
	if _, err := runSztab(t, "keygen", "--out", other); err != nil {
		t.Fatal(err)
	}
	clean := filepath.Join(dir, "rec")
	o, err = runSztab(t, "export", "--journal", path, "--config", cfg, "--out", clean, "--sign", key)
	if err != nil || !strings.Contains(o, "result signed with table key") {
		t.Fatalf("export --sign: %v\n%s", err, o)
	}
	st, _ := os.ReadFile(filepath.Join(clean, record.StatementFile))
	if !strings.Contains(string(st), "finished: true") || !strings.Contains(string(st), "final_seq: 35") {
		t.Errorf("statement:\n%s", st)
	}
	// The demo plays on the shipped (assumed) data: the signed result says
	// so, as the table's own statement does (docs/box.md).
	if !strings.Contains(string(st), "sample_data: true") {
		t.Errorf("the statement of a game on sample data does not say so:\n%s", st)
	}
	o, err = runSztab(t, "verify", "--record", clean, "--pubkey", key+".pub")
	if err != nil || !strings.Contains(o, "signature good") {
		t.Fatalf("verify of the signed export: %v\n%s", err, o)
	}
	if o, err := runSztab(t, "verify", "--record", clean); err != nil || !strings.Contains(o, "NOT checked") {
		t.Errorf("verify without --pubkey: %v\n%s, want the signature reported unchecked", err, o)
	}

	// copyRecord is a fresh copy of the clean export to damage.
	copyRecord := func(t *testing.T) string {
		d := filepath.Join(t.TempDir(), "rec")
		os.MkdirAll(d, 0o755)
		ents, _ := os.ReadDir(clean)
		for _, e := range ents {
			b, _ := os.ReadFile(filepath.Join(clean, e.Name()))
			os.WriteFile(filepath.Join(d, e.Name()), b, 0o644)
		}
		return d
	}
	replace := func(t *testing.T, file, old, new string) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(old)) {
			t.Fatalf("%s has no %q", file, old)
		}
		os.WriteFile(file, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644)
	}
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, d string)
		pubkey string
		want   string
	}{{
		name: "a line altered",
		damage: func(t *testing.T, d string) {
			replace(t, filepath.Join(d, record.RecordFile), `"type":"roll_die","colour":"black","value":3`, `"type":"roll_die","colour":"black","value":6`)
		},
		want: "entry 26: hash mismatch",
	}, {
		name: "a line removed",
		damage: func(t *testing.T, d string) {
			b, _ := os.ReadFile(filepath.Join(d, record.RecordFile))
			lines := strings.SplitAfter(string(b), "\n")
			os.WriteFile(filepath.Join(d, record.RecordFile), []byte(strings.Join(append(lines[:5:5], lines[6:]...), "")), 0o644)
		},
		want: "entry 6: missing seq",
	}, {
		name: "the Markdown summary's hash differs",
		damage: func(t *testing.T, d string) {
			b, _ := os.ReadFile(filepath.Join(d, record.MarkdownFile))
			h, _ := record.FinalHashIn(b, false)
			replace(t, filepath.Join(d, record.MarkdownFile), h.String(), strings.Repeat("0", 64))
		},
		want: "summary.md: names the final hash 0000",
	}, {
		name: "the HTML summary's hash differs",
		damage: func(t *testing.T, d string) {
			b, _ := os.ReadFile(filepath.Join(d, record.HTMLFile))
			h, _ := record.FinalHashIn(b, true)
			replace(t, filepath.Join(d, record.HTMLFile), h.String(), strings.Repeat("1", 64))
		},
		want: "summary.html: names the final hash 1111",
	}, {
		name: "the Markdown summary's result altered",
		damage: func(t *testing.T, d string) {
			replace(t, filepath.Join(d, record.MarkdownFile), "game over: Bartek wins", "game over: Ania wins")
		},
		want: "summary.md: does not state the result of",
	}, {
		name: "the HTML summary's result altered",
		damage: func(t *testing.T, d string) {
			replace(t, filepath.Join(d, record.HTMLFile), "koniec gry: wygrywa Bartek", "koniec gry: wygrywa Ania")
		},
		want: "summary.html: does not state the result of",
	}, {
		name: "the result altered",
		damage: func(t *testing.T, d string) {
			replace(t, filepath.Join(d, record.StatementFile), "Bartek wins", "a draw")
		},
		pubkey: key + ".pub", want: "the signature does not match",
	}, {
		name: "the result's winner altered",
		damage: func(t *testing.T, d string) {
			replace(t, filepath.Join(d, record.StatementFile), "finished: true", "finished: false")
		},
		pubkey: key + ".pub", want: "the signature does not match",
	}, {
		name:   "another table's key",
		damage: func(t *testing.T, d string) {},
		pubkey: other + ".pub", want: "the signature does not match",
	}, {
		name:   "the signature removed",
		damage: func(t *testing.T, d string) { os.Remove(filepath.Join(d, record.SignatureFile)) },
		pubkey: key + ".pub", want: "the statement is not signed",
	}, {
		name: "a player's name altered in a signed summary",
		damage: func(t *testing.T, d string) {
			replace(t, filepath.Join(d, record.MarkdownFile), "Bartek", "Bartosz")
		},
		pubkey: key + ".pub", want: "a summary was changed after it was signed",
	}, {
		name: "a line of the HTML summary altered",
		damage: func(t *testing.T, d string) {
			replace(t, filepath.Join(d, record.HTMLFile), "<h2>Players</h2>", "<h2>Gracze</h2>")
		},
		pubkey: key + ".pub", want: "a summary was changed after it was signed",
	}, {
		name:   "the summaries' signature removed",
		damage: func(t *testing.T, d string) { os.Remove(filepath.Join(d, record.SummariesSignatureFile)) },
		pubkey: key + ".pub", want: "the summaries are not signed",
	}, {
		name:   "a private key given as the public key",
		damage: func(t *testing.T, d string) {},
		pubkey: key, want: "the other file of the pair",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			d := copyRecord(t)
			tc.damage(t, d)
			args := []string{"verify", "--record", d}
			if tc.pubkey != "" {
				args = append(args, "--pubkey", tc.pubkey)
			}
			_, err := runSztab(t, args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want it to say %q", err, tc.want)
			}
		})
	}

	t.Run("a malformed key file to sign with", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad.key")
		for _, tc := range []struct{ data, want string }{
			{"not a key\n", "not a PEM file"},
			{"", "not a PEM file"},
		} {
			os.WriteFile(bad, []byte(tc.data), 0o600)
			_, err := runSztab(t, "export", "--journal", path, "--config", cfg, "--out", t.TempDir(), "--sign", bad)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), bad) {
				t.Errorf("--sign %q: got %v, want it to say %q and name the file", tc.data, err, tc.want)
			}
		}
		_, err := runSztab(t, "export", "--journal", path, "--config", cfg, "--out", t.TempDir(), "--sign", key+".pub")
		if err == nil || !strings.Contains(err.Error(), "the other file of the pair") {
			t.Errorf("--sign with the public key: got %v", err)
		}
	})
}

// A journal whose game the venue paired in a round (Journal.SetRound, as
// the table does when it hears its pairing) exports a v3 statement naming
// that round, and verify says so.
func TestExportNamesTheRound(t *testing.T) {
	path, cfgPath := maliJournal(t)
	cfg, err := companion.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	j, err := companion.OpenJournal(path, companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := j.SetRound(context.Background(), 2); err != nil || n != 2 {
		t.Fatalf("set round: %d, %v", n, err)
	}
	j.Close()
	key := filepath.Join(t.TempDir(), "table.key")
	if _, err := runSztab(t, "keygen", "--out", key); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rec")
	if o, err := runSztab(t, "export", "--journal", path, "--config", cfgPath, "--out", out, "--sign", key); err != nil {
		t.Fatalf("export: %v\n%s", err, o)
	}
	st, _ := os.ReadFile(filepath.Join(out, record.StatementFile))
	// The demo plays on the shipped (sample) data: the statement is v5,
	// naming the round and saying so.
	if !strings.HasPrefix(string(st), "sztab result statement v5\n") || !strings.Contains(string(st), "\nround: 2\n") || !strings.HasSuffix(string(st), "\nsample_data: true\n") {
		t.Fatalf("statement:\n%s", st)
	}
	if o, err := runSztab(t, "verify", "--record", out, "--pubkey", key+".pub"); err != nil || !strings.Contains(o, "signature good") || !strings.Contains(o, "for round 2") {
		t.Fatalf("verify: %v\n%s", err, o)
	}
}

// A journal whose game was bound to the venue's pairing (Journal.SetPairing,
// as the table does when the pairing names its ids) exports a v4
// statement naming the pairing, as the table's own does.
func TestExportNamesThePairing(t *testing.T) {
	path, cfgPath := maliJournal(t)
	cfg, err := companion.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	j, err := companion.OpenJournal(path, companion.JournalIdentity{Venue: cfg.Venue, Table: cfg.Table, Game: cfg.Game}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	b := companion.Binding{Tournament: strings.Repeat("1f", 16), Pairing: strings.Repeat("a0", 16), Players: []string{"ania", "bartek"}}
	if n, _, err := j.SetPairing(context.Background(), 2, b); err != nil || n != 2 {
		t.Fatalf("set pairing: %d, %v", n, err)
	}
	j.Close()
	key := filepath.Join(t.TempDir(), "table.key")
	if _, err := runSztab(t, "keygen", "--out", key); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rec")
	if o, err := runSztab(t, "export", "--journal", path, "--config", cfgPath, "--out", out, "--sign", key); err != nil {
		t.Fatalf("export: %v\n%s", err, o)
	}
	st, _ := os.ReadFile(filepath.Join(out, record.StatementFile))
	// On the shipped (sample) data: v5, the pairing and the flag.
	if !strings.HasPrefix(string(st), "sztab result statement v5\n") || !strings.HasSuffix(string(st), "\nround: 2\ntournament: \""+b.Tournament+"\"\npairing: \""+b.Pairing+"\"\nplayers: [\"ania\",\"bartek\"]\nsample_data: true\n") {
		t.Fatalf("statement:\n%s", st)
	}
	if o, err := runSztab(t, "verify", "--record", out, "--pubkey", key+".pub"); err != nil || !strings.Contains(o, "signature good") || !strings.Contains(o, "bound to pairing "+b.Pairing) {
		t.Fatalf("verify: %v\n%s", err, o)
	}
}

// The organiser's steps as the shipped tournament example says them: each
// table's key path, less its .pub, is keygen's --out (into a keys directory
// not made yet), and the tournament then opens with the keys keygen wrote.
func TestKeygenWritesWhatTheTournamentExampleLoads(t *testing.T) {
	dir := t.TempDir()
	shipped, err := os.ReadFile(filepath.Join("..", "..", "firmware-config", "venue", "tournament.example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "tournament.yaml")
	if err := os.WriteFile(file, shipped, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := tournament.LoadConfig(file, games)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Tables) == 0 {
		t.Fatal("the example lists no tables")
	}
	for _, tb := range cfg.Tables {
		priv, ok := strings.CutSuffix(tb.Key, ".pub")
		if !ok {
			t.Fatalf("table %s: key %s is not a name keygen writes (FILE.pub of keygen --out FILE)", tb.ID, tb.Key)
		}
		if o, err := runSztab(t, "keygen", "--out", priv); err != nil || !strings.Contains(o, "public key  "+tb.Key) {
			t.Fatalf("keygen --out %s: %v\n%s", priv, err, o)
		}
	}
	tr, err := tournament.Open(context.Background(), filepath.Join(dir, "venue.db"), cfg)
	if err != nil {
		t.Fatalf("the example does not open with keygen's keys: %v", err)
	}
	tr.Close()
}

// keygen says what went wrong and where: --out in a directory not made yet
// is made (0700), --out naming a directory or under a file is refused with
// the path.
func TestKeygenSaysWhatAndWhere(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plik")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, out, want string
	}{
		{"a missing directory is made", filepath.Join(dir, "keys", "deep", "t01.key"), ""},
		{"a directory", dir, "keygen: --out " + dir + " is a directory; give the private key's file name"},
		{"under a file", filepath.Join(file, "t01.key"), "keygen: making the directory " + file + " for the key " + filepath.Join(file, "t01.key") + ": "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := runSztab(t, "keygen", "--out", tc.out)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("keygen: %v\n%s", err, o)
				}
				for _, f := range []string{tc.out, tc.out + ".pub"} {
					if _, err := os.Stat(f); err != nil {
						t.Errorf("keygen wrote no %s: %v", f, err)
					}
				}
				if fi, err := os.Stat(filepath.Dir(tc.out)); err != nil || fi.Mode().Perm() != 0o700 {
					t.Errorf("the key's directory: %v, mode %v, want 0700", err, fi.Mode().Perm())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}
