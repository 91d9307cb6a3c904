package main

import (
	"strings"
	"testing"
)

// TestVersion: sztab version names the release, the journal schema and
// the wire contract; --frame reads an image through OpenCV (the check
// make test-deb runs on the arm64 package under qemu) and refuses one it
// cannot read.
func TestVersion(t *testing.T) {
	frame := []string{"frame: ../../vision/testdata/golden/hands-2304x1296.jpg 2304x1296\n"}
	frameErr := ""
	if strings.HasPrefix(openCVVersion(), "none") {
		// the cgo-free build (make pi, the arm64 test run) has no camera
		// and says so
		frame, frameErr = nil, "built without cgo: no camera"
	}
	for _, tc := range []struct {
		args    []string
		want    []string
		wantErr string
	}{
		{[]string{"version"}, []string{"sztab 0.", "journal schema: 2\n", "wire contract: v1 (sztab/v1/)\n", "OpenCV: "}, ""},
		{[]string{"version", "--frame", "../../vision/testdata/golden/hands-2304x1296.jpg"}, frame, frameErr},
		{[]string{"version", "--frame", "testdata/no-such-frame.jpg"}, nil, "--frame testdata/no-such-frame.jpg: "},
	} {
		out, err := runSztab(t, tc.args...)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%v: %v", tc.args, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%v: got %v, want %q", tc.args, err, tc.wantErr)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: no %q in\n%s", tc.args, w, out)
			}
		}
	}
}
