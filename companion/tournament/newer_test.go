package tournament

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
)

// A result signed by a table of a later release, in a statement version
// this build does not read, is refused with the version it is and the
// release needed, in Polish and English (issue #34, item 3); the
// standings do not change.
func TestResultOfANewerStatementRefused(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "mali-powstancy", 4, 2)
	f.cfg.Seats = 2
	f.reopen()
	if _, err := f.tr.PairNext(ctx); err != nil {
		t.Fatal(err)
	}
	st := f.statement("t01", seat(1, record.Win, 9), seat(2, record.Loss, 2))
	st.SampleData = true // the newest this build signs
	text := string(st.Marshal())
	next := record.StatementVersion + 1
	newer := strings.Replace(text, fmt.Sprintf("v%d\n", record.StatementVersion), fmt.Sprintf("v%d\n", next), 1) + "new_field: 1\n"
	if newer == text+"new_field: 1\n" {
		t.Fatalf("the statement is not v%d:\n%s", record.StatementVersion, text)
	}
	sig := ed25519.Sign(f.priv["t01"], []byte(newer))
	_, err := f.tr.SubmitResult(ctx, "t01", wire.ResultMessage{Statement: newer, Signature: "ed25519 " + base64.StdEncoding.EncodeToString(sig) + "\n",
		Key: record.Fingerprint(f.priv["t01"].Public().(ed25519.PublicKey))})
	var ref *Refusal
	if !errors.As(err, &ref) {
		t.Fatalf("a v%d statement: %v, want a refusal", next, err)
	}
	en := fmt.Sprintf("a sztab release that reads v%d is needed", next)
	pl := fmt.Sprintf("potrzebne wydanie sztab, które czyta wersję %d", next)
	if !strings.Contains(ref.Reason, en) || !strings.Contains(ref.ReasonPL, pl) {
		t.Errorf("refused:\n%q\n%q\nwant %q and %q", ref.Reason, ref.ReasonPL, en, pl)
	}
	for _, s := range f.tr.Standings() {
		if s.Played != 0 {
			t.Errorf("the standings changed: %+v", s)
		}
	}
}
