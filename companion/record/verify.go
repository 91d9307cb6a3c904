package record

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	texttemplate "text/template"
)

// The files of an exported record, in its directory.
const (
	RecordFile    = "record.jsonl"
	MarkdownFile  = "summary.md"
	HTMLFile      = "summary.html"
	StatementFile = "result.txt"
	SignatureFile = "result.txt.sig"
	// SummariesSignatureFile signs both summaries' bytes with the
	// statement's key, so that no line of them (players, rulings, counts)
	// can be edited after a signed export.
	SummariesSignatureFile = "summary.sig"
)

// Report is what VerifyPath checked.
type Report struct {
	Identity Identity
	Entries  int
	LastSeq  int64
	Last     Hash
	// Summaries are the summary files that name the record's final hash.
	Summaries []string
	// Statement is the result statement, when there is one; Signed says
	// its signature was checked with the public key given, Unchecked that
	// it is signed but no public key was given.
	Statement *Statement
	Signed    bool
	Unchecked bool
}

// VerifyPath checks an exported record: path is its directory or its
// record.jsonl. It checks the chain of record.jsonl; in a directory, that
// summary.md and summary.html are there and name the chain's final hash,
// and that result.txt, if there, names the same table, final seq and hash.
// With pub, the statement's signature must be there and be pub's. The
// first fault is the error, naming the file.
func VerifyPath(path string, pub ed25519.PublicKey) (Report, error) {
	var r Report
	fi, err := os.Stat(path)
	if err != nil {
		return r, fmt.Errorf("record: %w", err)
	}
	dir, file := path, filepath.Join(path, RecordFile)
	if !fi.IsDir() {
		dir, file = "", path
	}
	f, err := os.Open(file)
	if err != nil {
		return r, fmt.Errorf("record: %w", err)
	}
	rec, err := ReadRecord(f)
	f.Close()
	if err != nil {
		return r, fmt.Errorf("%s: %w", file, err)
	}
	r.Identity, r.Entries, r.LastSeq, r.Last = rec.Header.Identity, len(rec.Entries), rec.LastSeq, rec.Last
	if dir == "" {
		if pub != nil {
			return r, errors.New("record: --pubkey checks the signature of a record's directory; give the directory, not the file")
		}
		return r, nil
	}
	for _, name := range []string{MarkdownFile, HTMLFile} {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			return r, fmt.Errorf("record: summary: %w", err)
		}
		h, err := FinalHashIn(b, name == HTMLFile)
		if err != nil {
			return r, fmt.Errorf("%s: %w", p, err)
		}
		if h != rec.Last {
			return r, fmt.Errorf("%s: names the final hash %s, the record's chain ends in %s (entry %d): the summary is not this record's", p, h, rec.Last, rec.LastSeq)
		}
		r.Summaries = append(r.Summaries, name)
	}
	sp, gp := filepath.Join(dir, StatementFile), filepath.Join(dir, SignatureFile)
	statement, err := os.ReadFile(sp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if pub != nil {
			return r, fmt.Errorf("record: %s: no result statement to check the signature of", sp)
		}
		return r, nil
	case err != nil:
		return r, fmt.Errorf("record: %w", err)
	}
	s, err := ParseStatement(statement)
	if err != nil {
		return r, fmt.Errorf("%s: %w", sp, err)
	}
	if s.Identity != rec.Header.Identity || s.FinalSeq != rec.LastSeq || s.FinalHash != rec.Last.String() {
		return r, fmt.Errorf("%s: states %s through entry %d (%s), the record is %s through entry %d (%s): the statement is not this record's",
			sp, s.Identity, s.FinalSeq, s.FinalHash, rec.Header.Identity, rec.LastSeq, rec.Last)
	}
	r.Statement = &s
	sig, err := os.ReadFile(gp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if pub != nil {
			return r, fmt.Errorf("record: %s: the statement is not signed", gp)
		}
		return r, summariesState(dir, sp, s)
	case err != nil:
		return r, fmt.Errorf("record: %w", err)
	}
	if pub == nil {
		if _, err := ParseSignature(sig); err != nil {
			return r, fmt.Errorf("%s: %w", gp, err)
		}
		r.Unchecked = true
		return r, summariesState(dir, sp, s)
	}
	if _, err := VerifyStatement(statement, sig, pub); err != nil {
		return r, fmt.Errorf("%s: %w", gp, err)
	}
	r.Signed = true
	if err := summariesState(dir, sp, s); err != nil {
		return r, err
	}
	return r, verifySummariesSignature(dir, rec.Last, pub)
}

// summariesMessage is what the summaries' signature signs: both files'
// SHA-256 and the record's final hash.
func summariesMessage(md, html []byte, final Hash) []byte {
	return fmt.Appendf(nil, "sztab summaries v1\n%s sha256 %x\n%s sha256 %x\nfinal %s\n",
		MarkdownFile, sha256.Sum256(md), HTMLFile, sha256.Sum256(html), final)
}

// SignSummaries is the summaries' signature file.
func SignSummaries(md, html []byte, final Hash, key ed25519.PrivateKey) []byte {
	sig := ed25519.Sign(key, summariesMessage(md, html, final))
	return []byte(signaturePrefix + base64.StdEncoding.EncodeToString(sig) + "\n")
}

// verifySummariesSignature checks summary.sig over the directory's two
// summaries with pub.
func verifySummariesSignature(dir string, final Hash, pub ed25519.PublicKey) error {
	gp := filepath.Join(dir, SummariesSignatureFile)
	data, err := os.ReadFile(gp)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("record: %s: the summaries are not signed (the statement is): export the record again with --sign", gp)
	}
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	sig, err := ParseSignature(data)
	if err != nil {
		return fmt.Errorf("%s: %w", gp, err)
	}
	md, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
	if err != nil {
		return fmt.Errorf("record: summary: %w", err)
	}
	html, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		return fmt.Errorf("record: summary: %w", err)
	}
	if !ed25519.Verify(pub, summariesMessage(md, html, final), sig) {
		return fmt.Errorf("%s: key %s: the signature does not match: a summary was changed after it was signed, or another key signed it", gp, Fingerprint(pub))
	}
	return nil
}

// summariesState checks that both summaries state the result of the
// statement at sp: they name the final hash (checked before), and their
// result line must be the statement's too, so a summary whose result was
// edited after the export (the pages an organiser reads) is caught.
func summariesState(dir, sp string, s Statement) error {
	for _, name := range []string{MarkdownFile, HTMLFile} {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("record: summary: %w", err)
		}
		if want := resultLine(s, name == HTMLFile); !bytes.Contains(b, []byte("\n"+want+"\n")) {
			return fmt.Errorf("%s: does not state the result of %s (want the line %q): the summary or the statement was changed after the export", p, sp, want)
		}
	}
	return nil
}

var (
	resultMarkdown = texttemplate.Must(texttemplate.New("md").Parse(`The game is **{{.State}}**: {{.EN}}{{if .PL}} / {{.PL}}{{end}}`))
	resultHTML     = htmltemplate.Must(htmltemplate.New("html").Parse(`<p>The game is <strong>{{.State}}</strong>: {{.EN}}{{if .PL}} / {{.PL}}{{end}}</p>`))
)

// resultLine is the summary's result line for the statement s, as the
// summary's templates (summary.go, "Result") write it.
func resultLine(s Statement, html bool) string {
	v := struct{ State, EN, PL string }{"not finished", s.Result.EN, s.Result.PL}
	if s.Finished {
		v.State = "finished"
	}
	var b strings.Builder
	if html {
		resultHTML.Execute(&b, v)
	} else {
		resultMarkdown.Execute(&b, v)
	}
	return b.String()
}
