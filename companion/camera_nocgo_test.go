//go:build !cgo

package companion_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
)

// A cgo-free build (the Pi's cross-built daemon) refuses a camera clearly.
func TestCameraWithoutCgoIsAClearError(t *testing.T) {
	dir := t.TempDir()
	cfg := demoConfig(t, dir, "mqtt:\n  listen: \"127.0.0.1:0\"\n", false)
	markers, err := os.ReadFile("../firmware-config/markers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "markers.yaml"), markers, 0o644)
	os.WriteFile(filepath.Join(dir, "calibration.yaml"), []byte("{}\n"), 0o644)
	text := string(cfg.Raw()) + "camera:\n  source: /dev/video0\n  markers: markers.yaml\n  calibration: calibration.yaml\n  camera_height_mm: 1500\n"
	c, err := companion.ParseConfig(cfg.Path(), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	d := open(t, c)
	defer d.Close()
	err = d.Serve(context.Background())
	if err == nil || !strings.Contains(err.Error(), "built without camera support") {
		t.Errorf("got %v, want the built-without-camera error", err)
	}
}
