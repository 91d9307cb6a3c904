package companion_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/games"
	"github.com/sztab/sztab/internal/tabletest"
)

// TestPublishedNoticesAreTheContracts plays every registered game's demo
// through the daemon and reads its journal: every notice the table
// published (each is journaled as it is published) is of a type the wire
// contract declares, the ones the watch and the pages are told of.
// TestEveryNoticeNamesAContractType (package wire) reads the producers.
func TestPublishedNoticesAreTheContracts(t *testing.T) {
	seen := map[wire.NoticeType]int{}
	for _, spec := range games.All {
		if spec.Demo == "" {
			continue
		}
		t.Run(spec.ID, func(t *testing.T) {
			r := tabletest.PlayDemo(t, t.TempDir(), spec.Demo, spec, 1)
			r.Stop(t)
			j, err := companion.ReadJournal(r.JournalPath())
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			err = j.Entries(context.Background(), 0, func(e companion.Entry) error {
				if e.Kind != companion.KindNotice {
					return nil
				}
				var n struct {
					Type wire.NoticeType `json:"type"`
				}
				if err := json.Unmarshal(e.Body, &n); err != nil {
					t.Errorf("entry %d: %v", e.Seq, err)
				}
				if !n.Type.Declared() {
					t.Errorf("entry %d: %s published a notice of type %q, which the wire contract does not declare", e.Seq, spec.ID, n.Type)
				}
				seen[n.Type]++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	if len(seen) == 0 {
		t.Errorf("no demo published a notice: the check read nothing")
	}
	t.Logf("notices published by the demos: %v", seen)
}
