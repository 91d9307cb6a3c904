package main

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/internal/atomicfile"
	"github.com/sztab/sztab/rules/dice"
)

func init() { register(newVerifyCmd); register(newExportCmd); register(newKeygenCmd) }

// now is the export's clock (a test fixes it).
var now = time.Now

func newVerifyCmd() *cobra.Command {
	var journal, rec, pubkey, head, heads string
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check a journal's hash chain, or an exported record, its summaries and its signed result",
		Long: `verify --journal FILE checks the journal's hash chain, entry by entry, and
prints the number of entries and the last hash, or names the first entry that
does not match and why (exit status 1). It only reads the journal: it may run
beside the daemon playing on it.

The chain alone does not show entries cut from the journal's end (deleted,
with SQLite's seq counter and the published mark set back): the entries left
still chain. To catch that, check the journal against a head recorded
elsewhere:

  --head SEQ:HASH  the head the table published in its status (seq and mark,
                   as sztab hub/venue show it), or the final seq and hash an
                   export or a signed result names
  --heads FILE     the heads file sztab hub --heads FILE (or sztab venue
                   --heads FILE) keeps: the furthest head it saw of this
                   journal

A journal short of the head, or whose entry at the head's seq is another
one, is reported (exit status 1): "the journal ends at entry 40 but the
table published entry 47 (…): 7 entries are missing from its end".

verify --record DIR checks an export (sztab export): the chain of
record.jsonl, that summary.md and summary.html name its final hash, that
result.txt (if there) states the same table, final seq and hash, and with
--pubkey FILE (the table's public key, from sztab keygen) the statement's
signature.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			if (journal == "") == (rec == "") {
				return errors.New("verify: give --journal FILE or --record DIR")
			}
			if journal != "" {
				if pubkey != "" {
					return errors.New("verify: --pubkey checks an export's signed result: use it with --record")
				}
				if head != "" && heads != "" {
					return errors.New("verify: give --head or --heads, not both")
				}
				j, err := companion.ReadJournal(journal)
				if err != nil {
					return fmt.Errorf("verify: %w", err)
				}
				defer j.Close()
				c := j.Chain()
				// The images its entries name (their hashes are in the chain).
				ic, err := companion.CheckEvidenceImages(cmd.Context(), j, c.LastSeq)
				if err != nil {
					return fmt.Errorf("verify: %w", err)
				}
				var recorded []companion.RecordedHead
				switch {
				case head != "":
					h, err := companion.ParseHead(head)
					if err != nil {
						return fmt.Errorf("verify: --head: %w", err)
					}
					h.Where = "given with --head"
					recorded = append(recorded, h)
				case heads != "":
					if recorded, err = headsFor(heads, j); err != nil {
						return fmt.Errorf("verify: %w", err)
					}
				}
				for _, h := range recorded {
					if err := j.CheckHead(cmd.Context(), h); err != nil {
						return fmt.Errorf("verify: journal %s: %w", journal, err)
					}
				}
				fmt.Fprintf(out, "OK: journal %s (%s): %d entries, chained %s\nlast seq %d, last hash %s\n", journal, j.Identity(), c.Entries, c.Since, c.LastSeq, c.LastHash)
				for _, h := range recorded {
					fmt.Fprintf(out, "it holds the head recorded elsewhere: %s\n", h)
				}
				if len(recorded) == 0 {
					fmt.Fprintln(out, "(the chain checked on its own: entries cut from its end are caught only against a head recorded elsewhere, --head or --heads)")
				}
				writeImageCheck(out, ic)
				return nil
			}
			var pub ed25519.PublicKey
			if pubkey != "" {
				b, err := os.ReadFile(pubkey)
				if err != nil {
					return fmt.Errorf("verify: --pubkey: %w", err)
				}
				if pub, err = record.ParsePublicKey(b); err != nil {
					return fmt.Errorf("verify: %s: %w", pubkey, err)
				}
			}
			r, err := record.VerifyPath(rec, pub)
			if err != nil {
				return fmt.Errorf("verify: %w", err)
			}
			fmt.Fprintf(out, "OK: record %s (%s): %d entries, last seq %d, last hash %s\n", rec, r.Identity, r.Entries, r.LastSeq, r.Last)
			for _, s := range r.Summaries {
				fmt.Fprintf(out, "%s names the same final hash\n", s)
			}
			switch {
			case r.Signed:
				fmt.Fprintf(out, "result statement signed by table key %s: signature good\n", record.Fingerprint(pub))
			case r.Unchecked:
				fmt.Fprintln(out, "result statement signed; signature NOT checked (give --pubkey with the table's public key)")
			case r.Statement != nil:
				fmt.Fprintln(out, "result statement not signed")
			}
			if r.Statement != nil && r.Statement.Round > 0 {
				fmt.Fprintf(out, "the result is for round %d of the venue's tournament\n", r.Statement.Round)
			}
			if r.Statement != nil && r.Statement.Pairing != "" {
				fmt.Fprintf(out, "bound to pairing %s of tournament %s, players %s (seat 1 first)\n",
					r.Statement.Pairing, r.Statement.Tournament, strings.Join(r.Statement.Players, ", "))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&journal, "journal", "", "journal (SQLite file) to check")
	cmd.Flags().StringVar(&rec, "record", "", "exported record to check: its directory, or its record.jsonl")
	cmd.Flags().StringVar(&head, "head", "", "with --journal: SEQ:HASH, a head recorded elsewhere (the seq and mark the table published, or an export's final seq and hash) the journal must hold")
	cmd.Flags().StringVar(&heads, "heads", "", "with --journal: the heads file of sztab hub/venue --heads; the journal must hold the furthest head it saw of it")
	cmd.Flags().StringVar(&pubkey, "pubkey", "", "the table's public key (PEM), to check the signed result")
	return cmd
}

func newExportCmd() *cobra.Command {
	var journal, config, outDir, sign string
	var force bool
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write a journal's game record: JSONL, a Markdown and a printable HTML summary, a signed result",
		Long: `export reads the journal (checking its chain, changing nothing) and writes to
--out DIR:

  record.jsonl   the identity, then every entry with its hash and previous hash
  summary.md     the table, the game, times, players, result, counts, dice
  summary.html   the same as a printable page
  result.txt     with --sign KEYFILE: the result statement (table, final seq
  result.txt.sig and hash, result) and its Ed25519 signature
  summary.sig    with --sign: the Ed25519 signature of both summaries' bytes

The players and the result come from replaying the journal through the game,
as the daemon does at start. Without --config the game is built from the
journal alone (its identity and the game's section the daemon keeps in it);
--config names the table's config for a journal made before journals kept it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if outDir == "" {
				return errors.New("export: --out DIR is required")
			}
			var cfg *companion.Config
			if config != "" {
				var err error
				if cfg, err = companion.LoadConfig(config); err != nil {
					return fmt.Errorf("export: %w", err)
				}
				if journal == "" {
					if journal, err = cfg.JournalPath(); err != nil {
						return err
					}
				}
			}
			if journal == "" {
				return errors.New("export: give --journal FILE (or --config with the table's journal)")
			}
			var key ed25519.PrivateKey
			if sign != "" {
				b, err := os.ReadFile(sign)
				if err != nil {
					return fmt.Errorf("export: --sign: %w", err)
				}
				if key, err = record.ParsePrivateKey(b); err != nil {
					return fmt.Errorf("export: %s: %w", sign, err)
				}
			}
			if !force {
				if _, err := os.Stat(filepath.Join(outDir, record.RecordFile)); err == nil {
					return fmt.Errorf("export: %s already holds a record; give another --out or --force to replace it", outDir)
				}
			}
			j, err := companion.ReadJournal(journal)
			if err != nil {
				return fmt.Errorf("export: %w", err)
			}
			defer j.Close()
			files, sum, err := exportRecord(cmd, j, cfg, key)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(outDir, 0o755); err != nil {
				return fmt.Errorf("export: %w", err)
			}
			for _, f := range files {
				if err := atomicfile.Write(filepath.Join(outDir, f.name), f.data, 0o644); err != nil {
					return fmt.Errorf("export: %w", err)
				}
			}
			if key == nil { // a statement left by an earlier export is not this one's
				for _, n := range []string{record.StatementFile, record.SignatureFile, record.SummariesSignatureFile} {
					if err := os.Remove(filepath.Join(outDir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
						return fmt.Errorf("export: %w", err)
					}
				}
			}
			var pub ed25519.PublicKey
			if key != nil {
				pub = key.Public().(ed25519.PublicKey)
			}
			if _, err := record.VerifyPath(outDir, pub); err != nil {
				return fmt.Errorf("export: the written record does not verify: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "exported %d entries of %s to %s\nfinal seq %d, final hash %s\n", sum.Entries, j.Identity(), outDir, sum.FinalSeq, sum.FinalHash)
			if key != nil {
				fmt.Fprintf(cmd.OutOrStdout(), "result signed with table key %s\n", sum.Signed)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&journal, "journal", "", "journal (SQLite file) to export")
	cmd.Flags().StringVar(&config, "config", "", "the table's config, when its game needs it to be built")
	cmd.Flags().StringVar(&outDir, "out", "", "directory to write the record to")
	cmd.Flags().StringVar(&sign, "sign", "", "the table's private key (PEM, from sztab keygen): sign the result")
	cmd.Flags().BoolVar(&force, "force", false, "replace a record already in --out")
	return cmd
}

// headsFor reads the heads a hub or venue kept (hub.Heads) for the
// journal j: the furthest head of this journal, named by its id. A record
// with no head of it is an error that says what the record has instead.
func headsFor(path string, j *companion.Journal) ([]companion.RecordedHead, error) {
	hs, err := hub.ReadHeads(path)
	if err != nil {
		return nil, err
	}
	id := j.Identity()
	if hs.Venue != id.Venue {
		return nil, fmt.Errorf("%s is venue %q's record; the journal is %s", path, hs.Venue, id)
	}
	seen := hs.Tables[id.Table]
	jid := j.JournalID()
	var others []string
	for _, s := range seen {
		if s.Journal == jid && jid != "" {
			where := fmt.Sprintf("as %s kept it, seen %s", path, s.Seen.Format(time.RFC3339))
			if s.WentBack != nil {
				where += fmt.Sprintf("; later the table published entry %d of the same journal, at %s", s.WentBack.Seq, s.WentBack.Seen.Format(time.RFC3339))
			}
			return []companion.RecordedHead{{Journal: s.Journal, Seq: s.Seq, Mark: s.Mark, Where: where}}, nil
		}
		others = append(others, fmt.Sprintf("journal %s up to entry %d", s.Journal, s.Seq))
	}
	if jid == "" {
		return nil, fmt.Errorf("the journal has no head key, so no head it published can be found in %s (a journal the daemon has not opened since heads were published, or its head key was deleted)", path)
	}
	if len(others) == 0 {
		return nil, fmt.Errorf("%s holds no head of table %q: the hub never saw it publish one", path, id.Table)
	}
	return nil, fmt.Errorf("%s holds no head of this journal (%s) of table %q, only %s: another journal of the table, or this one's head key was replaced", path, jid, id.Table, strings.Join(others, ", "))
}

type outFile struct {
	name string
	data []byte
}

// exportRecord builds the record's files from an open journal.
func exportRecord(cmd *cobra.Command, j *companion.Journal, cfg *companion.Config, key ed25519.PrivateKey) ([]outFile, record.Summary, error) {
	ctx := cmd.Context()
	id := j.Identity()
	chain := j.Chain()
	spec, ok := games.Lookup(id.Game)
	if !ok {
		return nil, record.Summary{}, fmt.Errorf("export: the journal's game %q is not one this Sztab plays", id.Game)
	}
	given := cfg != nil
	if !given {
		var err error
		// The journal's identity and the game's section kept in it: the
		// replay takes the game's setup from its opening action. (The tag
		// registry is named, never read.)
		if cfg, err = journalConfig(j); err != nil {
			return nil, record.Summary{}, fmt.Errorf("export: %w", err)
		}
	} else if cfg.Venue != id.Venue || cfg.Table != id.Table || cfg.Game != id.Game {
		return nil, record.Summary{}, fmt.Errorf("export: --config is for venue %q, table %q, game %q; the journal is %s", cfg.Venue, cfg.Table, cfg.Game, id)
	}
	g, err := spec.New(cfg)
	if err != nil {
		return nil, record.Summary{}, fmt.Errorf("export: %w", buildError(j, given, err))
	}
	gr, err := companion.ReplayJournal(ctx, j, g, id.Table, dice.WatchConfig{Significance: cfg.Dice.Fairness.Significance, MinRolls: cfg.Dice.Fairness.MinRolls}, chain.LastSeq)
	if err != nil {
		return nil, record.Summary{}, fmt.Errorf("export: %w", err)
	}
	var jsonl bytes.Buffer
	w, err := record.NewWriter(&jsonl, record.Identity(id))
	if err != nil {
		return nil, record.Summary{}, err
	}
	err = j.Entries(ctx, 0, func(e companion.Entry) error {
		if e.Seq > chain.LastSeq {
			return nil
		}
		return w.Write(record.Line{Seq: e.Seq, At: e.At.UTC().Format(time.RFC3339Nano), Kind: e.Kind, Game: e.Game, Body: e.Body, Events: e.Events, Prev: e.Prev, Hash: e.Hash})
	})
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return nil, record.Summary{}, fmt.Errorf("export: %w", err)
	}
	sum := record.Summary{
		Identity:  record.Identity(id),
		GameTitle: record.Text{PL: spec.Title.PL, EN: spec.Title.EN},
		Exported:  now().UTC().Format(time.RFC3339),
		Chained:   chain.Since,
		Entries:   gr.Entries, Actions: gr.Actions, Notices: gr.Notices, Refusals: gr.Refusals,
		FinalSeq: w.Chain().LastSeq(), FinalHash: w.Chain().Last().String(),
		Finished: gr.Finished,
		Result:   record.Text{PL: gr.Result.PL, EN: gr.Result.EN},
	}
	sum.Rulings, sum.Corrections, sum.Breaches = gr.Rulings, gr.Corrections, gr.Breaches
	if !gr.First.IsZero() {
		sum.Start, sum.End = gr.First.UTC().Format(time.RFC3339), gr.Last.UTC().Format(time.RFC3339)
	}
	for _, p := range gr.Players {
		sum.Players = append(sum.Players, record.Player{Seat: p.Seat, Name: p.Name, Side: p.Side})
	}
	for _, t := range gr.Standing {
		sum.Standing = append(sum.Standing, record.Text{PL: t.PL, EN: t.EN})
	}
	for _, d := range gr.Dice {
		sum.Dice = append(sum.Dice, record.Die{Source: d.Key, Rolls: d.Rolls, Faces: d.Faces, ChiSquare: d.ChiSquare, PValue: d.PValue, Loaded: d.Loaded})
	}
	files := []outFile{{record.RecordFile, jsonl.Bytes()}}
	if key != nil {
		st := record.Statement{Identity: sum.Identity, FinalSeq: sum.FinalSeq, FinalHash: sum.FinalHash, Finished: sum.Finished, Result: sum.Result, Seats: gr.Seats}
		// A game on data its rulebook does not print says so in its signed
		// result, as the table's own statement does (v5, docs/box.md).
		if sd, ok := g.(companion.SampleDataer); ok && sd.SampleData() {
			st.SampleData = true
		}
		if gr.Seats != nil {
			// The round the venue paired the game in and its pairing, as
			// the table's own statement names them (v3, v4); none for a
			// game without one.
			if st.Round, _, err = j.Round(ctx); err != nil {
				return nil, sum, fmt.Errorf("export: %w", err)
			}
			b, err := j.Pairing(ctx)
			if err != nil {
				return nil, sum, fmt.Errorf("export: %w", err)
			}
			if b.Pairing != "" && st.Round > 0 {
				st.Tournament, st.Pairing, st.Players = b.Tournament, b.Pairing, b.Players
			}
		}
		sum.Signed = record.Fingerprint(key.Public().(ed25519.PublicKey))
		files = append(files, outFile{record.StatementFile, st.Marshal()}, outFile{record.SignatureFile, record.Sign(st, key)})
	}
	md, err := sum.Markdown()
	if err != nil {
		return nil, sum, err
	}
	html, err := sum.HTML()
	if err != nil {
		return nil, sum, err
	}
	files = append(files, outFile{record.MarkdownFile, md}, outFile{record.HTMLFile, html})
	if key != nil {
		files = append(files, outFile{record.SummariesSignatureFile, record.SignSummaries(md, html, w.Chain().Last(), key)})
	}
	return files, sum, nil
}

func newKeygenCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "keygen",
		Short: "Make a table's Ed25519 key for signing results",
		Long: `keygen writes a new Ed25519 key: the private key to --out FILE (PEM, mode
0600; keep it on the table), the public key to FILE.pub (give it to the
organiser, who lists it in the tournament file's tables and checks results
with sztab verify --record DIR --pubkey FILE.pub). A missing directory of
FILE is made (mode 0700). It never replaces a key file.`,
		Example: `  sztab keygen --out keys/t01.key   # keys/t01.key and keys/t01.key.pub`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return errors.New("keygen: --out FILE is required")
			}
			priv, pub, err := record.GenerateKey()
			if err != nil {
				return err
			}
			files := []struct {
				name string
				data []byte
				perm os.FileMode
			}{{out, priv, 0o600}, {out + ".pub", pub, 0o644}}
			for _, f := range files {
				if fi, err := os.Stat(f.name); err == nil && fi.IsDir() {
					return fmt.Errorf("keygen: --out %s is a directory; give the private key's file name (%s)", f.name, filepath.Join(f.name, "table.key"))
				} else if err == nil {
					return fmt.Errorf("keygen: %s exists; a key file is never replaced (remove it first if you mean it)", f.name)
				}
			}
			if dir := filepath.Dir(out); dir != "" {
				if err := os.MkdirAll(dir, 0o700); err != nil {
					return fmt.Errorf("keygen: making the directory %s for the key %s: %w", dir, out, err)
				}
			}
			for i, f := range files {
				what := [...]string{"private", "public"}[i]
				fh, err := os.OpenFile(f.name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, f.perm)
				if err != nil {
					return fmt.Errorf("keygen: writing the %s key %s: %w", what, f.name, err)
				}
				if _, err := fh.Write(f.data); err != nil {
					fh.Close()
					return fmt.Errorf("keygen: writing the %s key %s: %w", what, f.name, err)
				}
				if err := fh.Close(); err != nil {
					return fmt.Errorf("keygen: writing the %s key %s: %w", what, f.name, err)
				}
			}
			k, _ := record.ParsePublicKey(pub)
			fmt.Fprintf(cmd.OutOrStdout(), "private key %s (keep it on the table)\npublic key  %s.pub (for the organiser)\nfingerprint %s\n", out, out, record.Fingerprint(k))
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "private key file to write (the public key goes to FILE.pub)")
	return cmd
}
