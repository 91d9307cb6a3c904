package review_test

import (
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/review"
)

// FuzzParseSeq: whatever an address or a command line says, the entry is
// in 1..last or refused.
func FuzzParseSeq(f *testing.F) {
	for _, s := range []string{"1", "last", "first", "0", "-1", "9223372036854775807", "1e3", " 7", "０", ""} {
		f.Add(s, int64(23))
	}
	f.Fuzz(func(t *testing.T, s string, last int64) {
		n, err := review.ParseSeq(s, last)
		if err == nil && (n < 1 || n > last) {
			t.Fatalf("ParseSeq(%q, %d) = %d, outside 1..%d", s, last, n, last)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "review: ") {
			t.Fatalf("error without the package: %v", err)
		}
	})
}
