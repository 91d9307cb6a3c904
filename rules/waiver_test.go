package rules

import (
	"slices"
	"testing"
)

func TestWaiver(t *testing.T) {
	var none *Waiver
	if err := none.Breach("too_far", "za daleko", "too far"); err == nil {
		t.Fatal("a nil waiver let a breach stand")
	}
	if none.Waived() != nil || none.Codes() != nil {
		t.Fatal("a nil waiver says it waived something")
	}
	w := Allow("too_far", "out_of_range")
	tests := []struct {
		code string
		pass bool
	}{
		{"too_far", true},
		{"not_your_turn", false},
		{"too_far", true},
		{"out_of_range", true},
	}
	for _, tc := range tests {
		err := w.Breach(tc.code, "pl %d", "en %d", 1)
		if (err == nil) != tc.pass {
			t.Fatalf("%s: got %v, want pass=%v", tc.code, err, tc.pass)
		}
		if !tc.pass {
			rej, ok := AsRejection(err)
			if !ok || rej.Code != tc.code || rej.Reason.EN != "en 1" {
				t.Fatalf("%s: got %#v, want the rejection", tc.code, err)
			}
		}
	}
	if got, want := w.Waived(), []string{"too_far", "out_of_range"}; !slices.Equal(got, want) {
		t.Fatalf("waived %v, want %v (each once, in order)", got, want)
	}
}
