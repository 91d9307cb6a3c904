package companion

import (
	"strings"
	"testing"

	"github.com/sztab/sztab/internal/fuzzseed"
)

// FuzzSplitEvidence: an entry's events, as read back from a journal file
// (anyone may have written it), never panic the reader; evidence that is
// read names a well-formed image, and encodes back to what reads the same.
func FuzzSplitEvidence(f *testing.F) {
	for _, s := range []string{
		`[]`, `null`, `[{"type":"deployed"}]`,
		`[{"type":"x"},{"type":"evidence","input":"tag","tag":{"reader":"stol","uid":"04A1B2C3","present":true}}]`,
		`[{"type":"evidence","input":"key","key":{"keypad":"keypad","key":"3","from":"public"},"dice":[{"value":3,"origin":"keypad","device":"keypad"}]}]`,
		`[{"type":"evidence","input":"snapshot","snapshot":{"seq":1,"models":[{"id":"a","unit":"u","x_mm":1,"y_mm":2,"base_mm":25,"sigma_mm":0.5}],"models_total":1},"image":{"sha256":"` + strings.Repeat("ab", 32) + `","bytes":10,"type":"image/jpeg"}}]`,
		`[{"type":"evidence","image":{"sha256":"../x"}}]`,
		`[{"type":"evidence","unknown":1}]`,
	} {
		f.Add([]byte(s))
	}
	for _, s := range fuzzseed.JSON("events") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, ev, err := SplitEvidence(data)
		if err != nil || ev == nil {
			return
		}
		if ev.Image != nil {
			if _, err := parseSHA(ev.Image.SHA256); err != nil {
				t.Fatalf("read an image name that is not a sha256: %q", ev.Image.SHA256)
			}
		}
		b, err := withEvidence([]byte(`[]`), ev)
		if err != nil {
			t.Fatal(err)
		}
		_, again, err := SplitEvidence(b)
		if err != nil || again == nil {
			t.Fatalf("evidence written back does not read: %v\n%s", err, b)
		}
	})
}
