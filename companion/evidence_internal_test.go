package companion

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sztab/sztab/hardware"

	"github.com/sztab/sztab/vision"
)

// A snapshot too big for one entry keeps the models the entry names (by
// id or unit) and the distances between them, within the bound; a small
// one is kept whole.
func TestEvidenceSnapshotBound(t *testing.T) {
	big := &vision.Snapshot{Seq: 3, CalibrationMM: 2}
	for i := range 300 {
		unit := fmt.Sprintf("unit-%d", i/5)
		big.Models = append(big.Models, vision.ModelPosition{ID: fmt.Sprintf("m-%d", i), Unit: unit, X: float64(i), Y: 10, BaseMM: 25, SigmaMM: 0.7})
	}
	big.Distances = []vision.PairDistance{{A: "unit-3", B: "unit-9"}, {A: "unit-3", B: "unit-40"}}
	tests := []struct {
		name       string
		snap       *vision.Snapshot
		body       string
		wantModels int
		wantOnly   string
		wantDist   int
	}{
		{"small, whole", demoSnap(), `{"type":"end_phase"}`, 4, "", 0},
		{"big, the units named", big, `{"type":"declare_shot","shooter":"unit-3","target":"unit-9"}`, 10, "involved", 1},
		{"big, one model named", big, `{"type":"move","model":"m-17"}`, 1, "involved", 0},
		{"big, everything named", big, everyUnit(), 0, "bound", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := snapshotSeen(tc.snap, false, []byte(tc.body))
			b, _ := json.Marshal(got)
			if len(b) > MaxSnapshotEvidence {
				t.Errorf("%d bytes, bound %d", len(b), MaxSnapshotEvidence)
			}
			if got.Only != tc.wantOnly || got.Total != len(tc.snap.Models) || len(got.Distances) != tc.wantDist {
				t.Errorf("only %q, total %d, %d distances; want %q, %d, %d", got.Only, got.Total, len(got.Distances), tc.wantOnly, len(tc.snap.Models), tc.wantDist)
			}
			if tc.wantModels > 0 && len(got.Models) != tc.wantModels {
				t.Errorf("%d models kept, want %d", len(got.Models), tc.wantModels)
			}
			if tc.wantOnly == "bound" && (len(got.Models) == 0 || len(got.Models) >= len(tc.snap.Models)) {
				t.Errorf("%d models kept at the bound, want some but not all", len(got.Models))
			}
			for _, m := range got.Models {
				if m.SigmaMM == 0 {
					t.Errorf("model %s lost its uncertainty", m.ID)
				}
			}
		})
	}
}

func demoSnap() *vision.Snapshot {
	s := &vision.Snapshot{Seq: 1}
	for i := range 4 {
		s.Models = append(s.Models, vision.ModelPosition{ID: fmt.Sprint("ak-", i), Unit: "ak", SigmaMM: 0.5})
	}
	return s
}

func everyUnit() string {
	var names []string
	for i := range 300 {
		names = append(names, fmt.Sprintf("%q", fmt.Sprintf("m-%d", i)))
	}
	return `{"models":[` + strings.Join(names, ",") + `]}`
}

// A ruling's code pins the picture of the entry it rules on: the store
// keeps it whatever the policy says.
func TestEvidenceKeepPinsTheEntrysPicture(t *testing.T) {
	dir := t.TempDir()
	d, stop := serveTally(t, dir, "", Options{})
	defer stop()
	pic := []byte("\xff\xd8 a picture \xff\xd9")
	d.inputs <- Input{Snapshot: &vision.Snapshot{Seq: 1, Models: []vision.ModelPosition{{ID: "m1", SigmaMM: 1}}}, Image: pic}
	d.inputs <- Input{Tag: &hardware.TagEvent{Reader: "r1", UID: "04998877", Present: true}}
	for end := time.Now().Add(10 * time.Second); d.Seq() < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("seq %d, want the unknown tag's notice at 2", d.Seq())
		}
	}
	if err := d.table.keepEvidence(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(pic)
	if _, err := os.Stat(filepath.Join(dir, "j.db.evidence", hex.EncodeToString(sum[:])+".keep")); err != nil {
		t.Errorf("the picture of entry 2 is not pinned: %v", err)
	}
	if err := d.table.keepEvidence(context.Background(), 1); err != nil {
		t.Errorf("an entry without a picture: %v, want nothing done", err)
	}
	if err := d.table.keepEvidence(context.Background(), 99); err == nil || !strings.Contains(err.Error(), "no entry 99") {
		t.Errorf("no such entry: got %v", err)
	}
}
