package wire

import (
	"errors"
	"strings"
	"testing"
)

// A topic under another contract version is refused with the version it
// is and the one this build speaks; anything else is no Sztab topic.
func TestCheckVersion(t *testing.T) {
	for _, tc := range []struct {
		topic, other string // other: the version named, "" for none
		ok           bool
	}{
		{TopicsFor("klub", "stol-1").State, "", true},
		{"sztab/v2/klub/stol-1/state", "v2", false},
		{"sztab/v10/klub/stol-1/pairing", "v10", false},
		{"sztab/v0/klub/stol-1/state", "", false},
		{"sztab/v01/klub/stol-1/state", "", false},
		{"sztab/x/klub/stol-1/state", "", false},
		{"sztab/", "", false},
		{"sztab/v1", "", false},
		{"sztab/v2", "", false},
		{"other/v1/klub", "", false},
	} {
		err := CheckVersion(tc.topic)
		if tc.ok {
			if err != nil {
				t.Errorf("%s: %v", tc.topic, err)
			}
			continue
		}
		var ov *ErrOtherVersion
		switch {
		case err == nil:
			t.Errorf("%s: read as this build's contract", tc.topic)
		case tc.other == "" && errors.As(err, &ov):
			t.Errorf("%s: %v, want no version named", tc.topic, err)
		case tc.other != "" && (!errors.As(err, &ov) || ov.Version != tc.other ||
			!strings.Contains(err.Error(), "this sztab speaks "+Version+": a sztab release that speaks "+tc.other+" is needed") ||
			!strings.Contains(ov.Polish(), "potrzebne wydanie sztab, które zna "+tc.other)):
			t.Errorf("%s: %v, want it to name %s and %s", tc.topic, err, tc.other, Version)
		}
	}
	if got := AnyVersion("klub", "+", "status"); got != "sztab/+/klub/+/status" || CheckVersion(strings.Replace(got, "+", "v1", 1)) != nil {
		t.Errorf("AnyVersion: %s", got)
	}
}

// Whatever topic a broker hands over, CheckVersion answers without a
// panic, and accepts only this build's contract.
func FuzzCheckVersion(f *testing.F) {
	for _, s := range []string{"sztab/v1/a/b/state", "sztab/v2/a/b/state", "sztab/v/a", "sztab/v99999999999/a", "", "sztab"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, topic string) {
		if CheckVersion(topic) == nil && !strings.HasPrefix(topic, Root) {
			t.Fatalf("%q accepted", topic)
		}
	})
}
