package companion

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sztab/sztab/internal/atomicfile"
)

// EvidenceConfig is how much of the camera's images the table keeps beside
// its journal (`evidence:` in the config). The images of entries a ruling
// flagged are pinned and never pruned; the newest image is never pruned.
type EvidenceConfig struct {
	// MaxMB bounds the images' total size, in MiB (0: 512). The oldest
	// go first.
	MaxMB int `yaml:"max_mb"`
	// MaxDays prunes images older than this many days (0: no age limit).
	MaxDays int `yaml:"max_days"`
}

// DefaultEvidenceMB is the images' bound when the config gives none.
const DefaultEvidenceMB = 512

// Policy is the pruning policy the config says.
func (c EvidenceConfig) Policy() EvidencePolicy {
	p := EvidencePolicy{MaxBytes: int64(c.MaxMB) << 20, MaxAge: time.Duration(c.MaxDays) * 24 * time.Hour}
	if c.MaxMB == 0 {
		p.MaxBytes = DefaultEvidenceMB << 20
	}
	return p
}

// EvidencePolicy bounds an EvidenceStore: MaxBytes in total (0: no bound),
// nothing older than MaxAge (0: no age limit).
type EvidencePolicy struct {
	MaxBytes int64
	MaxAge   time.Duration
}

// EvidenceDir is the directory of a journal's images: beside the journal,
// named after it (t1.journal.db → t1.journal.db.evidence).
func EvidenceDir(journal string) string { return journal + ".evidence" }

// Files of an evidence directory: <sha256>.jpg an image, <sha256>.keep its
// pin, and prunedLog one line per pruned image ("<sha256> <time> <why>").
const (
	imageExt  = ".jpg"
	pinExt    = ".keep"
	prunedLog = "pruned.log"
)

// EvidenceStore keeps the annotated camera images of journal entries, each
// in a file named by its SHA-256, pruned by its policy. It is the table's
// only writer; readers (sztab verify, sztab review) read the files.
type EvidenceStore struct {
	dir    string
	policy EvidencePolicy
	log    *slog.Logger

	mu     sync.Mutex
	files  map[string]storedImage // by sha256 hex
	pinned map[string]bool
	total  int64
	newest string
}

type storedImage struct {
	size int64
	at   time.Time
}

// OpenEvidenceStore opens (or makes) the image directory dir.
func OpenEvidenceStore(dir string, p EvidencePolicy, log *slog.Logger) (*EvidenceStore, error) {
	if log == nil {
		log = slog.Default()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("companion: evidence images: %w", err)
	}
	s := &EvidenceStore{dir: dir, policy: p, log: log, files: map[string]storedImage{}, pinned: map[string]bool{}}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("companion: evidence images: %w", err)
	}
	for _, e := range ents {
		name := e.Name()
		switch {
		case strings.HasSuffix(name, pinExt):
			if _, err := parseSHA(strings.TrimSuffix(name, pinExt)); err == nil {
				s.pinned[strings.TrimSuffix(name, pinExt)] = true
			}
		case strings.HasSuffix(name, imageExt):
			sha := strings.TrimSuffix(name, imageExt)
			if _, err := parseSHA(sha); err != nil {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue
			}
			s.files[sha] = storedImage{size: fi.Size(), at: fi.ModTime()}
			s.total += fi.Size()
		}
	}
	return s, nil
}

// Dir is the store's directory.
func (s *EvidenceStore) Dir() string { return s.dir }

// Size is the images' total size in bytes and their number.
func (s *EvidenceStore) Size() (int64, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total, len(s.files)
}

// Put stores a JPEG (once: the same bytes are one file) durably, prunes
// by the policy, and returns its reference for the journal.
func (s *EvidenceStore) Put(jpeg []byte, now time.Time) (ImageRef, error) {
	sum := sha256.Sum256(jpeg)
	sha := hex.EncodeToString(sum[:])
	ref := ImageRef{SHA256: sha, Bytes: len(jpeg), Type: "image/jpeg"}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.files[sha]; !ok {
		if err := atomicfile.Write(filepath.Join(s.dir, sha+imageExt), jpeg, 0o600); err != nil {
			return ImageRef{}, fmt.Errorf("companion: evidence image: %w", err)
		}
		s.files[sha] = storedImage{size: int64(len(jpeg)), at: now}
		s.total += int64(len(jpeg))
	}
	s.newest = sha
	s.prune(now)
	return ref, nil
}

// Pin keeps the image sha whatever the policy says (an entry a ruling
// flagged). Pinning an image not stored (pruned before) does nothing.
func (s *EvidenceStore) Pin(sha string) error {
	if _, err := parseSHA(sha); err != nil {
		return fmt.Errorf("companion: evidence pin: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.files[sha]; !ok || s.pinned[sha] {
		return nil
	}
	if err := atomicfile.Write(filepath.Join(s.dir, sha+pinExt), nil, 0o600); err != nil {
		return fmt.Errorf("companion: evidence pin: %w", err)
	}
	s.pinned[sha] = true
	return nil
}

// Prune applies the policy now; it returns the images it removed.
func (s *EvidenceStore) Prune(now time.Time) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prune(now)
}

func (s *EvidenceStore) prune(now time.Time) []string {
	type cand struct {
		sha string
		storedImage
	}
	var cands []cand
	for sha, f := range s.files {
		if !s.pinned[sha] && sha != s.newest {
			cands = append(cands, cand{sha, f})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return strings.Compare(a.sha, b.sha)
	})
	var removed []string
	var log bytes.Buffer
	drop := func(c cand, why string) {
		if err := os.Remove(filepath.Join(s.dir, c.sha+imageExt)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.log.Warn("evidence image not pruned", "image", c.sha, "err", err)
			return
		}
		delete(s.files, c.sha)
		s.total -= c.size
		removed = append(removed, c.sha)
		fmt.Fprintf(&log, "%s %s %s\n", c.sha, now.UTC().Format(time.RFC3339), why)
	}
	rest := cands[:0]
	for _, c := range cands {
		if s.policy.MaxAge > 0 && now.Sub(c.at) > s.policy.MaxAge {
			drop(c, "age")
			continue
		}
		rest = append(rest, c)
	}
	for _, c := range rest {
		if s.policy.MaxBytes <= 0 || s.total <= s.policy.MaxBytes {
			break
		}
		drop(c, "size")
	}
	if log.Len() > 0 {
		f, err := os.OpenFile(filepath.Join(s.dir, prunedLog), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err == nil {
			_, err = f.Write(log.Bytes())
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			s.log.Warn("evidence: the list of pruned images not written", "err", err)
		}
		s.log.Info("evidence: images pruned by policy", "dir", s.dir, "removed", len(removed), "bytes", s.total, "images", len(s.files))
	}
	return removed
}

// parseSHA checks a SHA-256 in lower-case hex.
func parseSHA(s string) ([]byte, error) {
	if len(s) != 64 {
		return nil, fmt.Errorf("sha256 %q: want 64 hex digits", s)
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return nil, fmt.Errorf("sha256 %q: want lower-case hex digits", s)
		}
	}
	return hex.DecodeString(s)
}

// ErrEvidenceTampered: an image beside the journal is not the image its
// entry names (its bytes changed), or it is gone and the store did not
// prune it.
var ErrEvidenceTampered = errors.New("an evidence image does not match its journal entry")

// EvidenceImage is one image a journal entry names, as found beside the
// journal.
type EvidenceImage struct {
	Seq    int64 // the first entry naming it
	SHA256 string
	// State is "present" (its bytes hash to its name), "pruned" (removed
	// by the policy, pruned.log says when) or "missing".
	State string
}

// ImageCheck is what CheckEvidenceImages found.
type ImageCheck struct {
	Dir string
	// NoDir says the journal has no image directory beside it (copied
	// without it): nothing was checked.
	NoDir                               bool
	Referenced, Present, Pruned, Pinned int
}

// ReadEvidenceImage reads the image sha of journal, checking that its
// bytes hash to its name.
func ReadEvidenceImage(journal, sha string) ([]byte, error) {
	if _, err := parseSHA(sha); err != nil {
		return nil, fmt.Errorf("companion: evidence image: %w", err)
	}
	b, err := os.ReadFile(filepath.Join(EvidenceDir(journal), sha+imageExt))
	if err != nil {
		return nil, fmt.Errorf("companion: evidence image: %w", err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != sha {
		return nil, fmt.Errorf("companion: evidence image %s: %w: its bytes hash to %x", sha, ErrEvidenceTampered, sum)
	}
	return b, nil
}

// PrunedImages reads the pruned.log of a journal's image directory: the
// pruned images and when (empty if none were).
func PrunedImages(journal string) (map[string]string, error) {
	out := map[string]string{}
	b, err := os.ReadFile(filepath.Join(EvidenceDir(journal), prunedLog))
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("companion: evidence: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 {
			out[f[0]] = strings.Join(f[1:], " ")
		}
	}
	return out, nil
}

// CheckEvidenceImages checks every image the journal's entries name
// (through seq through; 0: all) against the files beside the journal: an
// image whose bytes changed, or one gone that the store did not prune, is
// an error naming the entry (ErrEvidenceTampered). A journal without its
// image directory (copied alone) is not checked: NoDir says so. The list
// of pruned images is the table's word, not the chain's.
func CheckEvidenceImages(ctx context.Context, j *Journal, through int64) (ImageCheck, error) {
	c := ImageCheck{Dir: EvidenceDir(j.Path())}
	if fi, err := os.Stat(c.Dir); err != nil || !fi.IsDir() {
		c.NoDir = true
	}
	pruned, err := PrunedImages(j.Path())
	if err != nil {
		return c, err
	}
	seen := map[string]bool{}
	err = j.Entries(ctx, 0, func(e Entry) error {
		if through > 0 && e.Seq > through {
			return errStop
		}
		_, ev, err := SplitEvidence(e.Events)
		if err != nil {
			return &JournalError{Path: j.Path(), Err: fmt.Errorf("entry %d: %w", e.Seq, err)}
		}
		if ev == nil || ev.Image == nil || seen[ev.Image.SHA256] {
			return nil
		}
		sha := ev.Image.SHA256
		seen[sha] = true
		c.Referenced++
		if c.NoDir {
			return nil
		}
		switch st := imageState(j.Path(), sha, pruned); st {
		case "present":
			c.Present++
			if _, err := os.Stat(filepath.Join(c.Dir, sha+pinExt)); err == nil {
				c.Pinned++
			}
		case "pruned":
			c.Pruned++
		case "missing":
			return &JournalError{Path: j.Path(), Err: fmt.Errorf("entry %d: image %s: %w: it is gone, and the table did not prune it", e.Seq, sha, ErrEvidenceTampered)}
		default:
			return &JournalError{Path: j.Path(), Err: fmt.Errorf("entry %d: image %s: %w: %s", e.Seq, sha, ErrEvidenceTampered, st)}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return c, err
	}
	return c, nil
}

// imageState says what became of an image: present, pruned, missing, or
// why its file is not it.
func imageState(journal, sha string, pruned map[string]string) string {
	b, err := os.ReadFile(filepath.Join(EvidenceDir(journal), sha+imageExt))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, ok := pruned[sha]; ok {
			return "pruned"
		}
		return "missing"
	case err != nil:
		return err.Error()
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != sha {
		return fmt.Sprintf("its bytes changed (they hash to %x)", sum)
	}
	return "present"
}

// ImageState is what became of the image sha of journal: "present",
// "pruned", "missing", or why its file is not that image.
func ImageState(journal, sha string) string {
	pruned, _ := PrunedImages(journal)
	return imageState(journal, sha, pruned)
}
