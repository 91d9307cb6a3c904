//go:build cgo

package vision

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

func writeVideo(t *testing.T, path string, frames int) {
	t.Helper()
	w, err := gocv.VideoWriterFile(path, "MJPG", 10, 320, 180, true)
	if err != nil {
		t.Fatal(err)
	}
	m := gocv.NewMatWithSize(180, 320, gocv.MatTypeCV8UC3)
	for i := 0; i < frames; i++ {
		if err := w.Write(m); err != nil {
			t.Fatal(err)
		}
	}
	m.Close()
	w.Close()
}

func TestSources(t *testing.T) {
	dir := t.TempDir()
	video := filepath.Join(dir, "game.avi")
	writeVideo(t, video, 5)
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)

	read := func(cfg Config, n int) (got int, err error) {
		src, err := openSource(cfg)
		if err != nil {
			return 0, err
		}
		defer src.Close()
		m := gocv.NewMat()
		defer m.Close()
		for got < n {
			if err := src.Read(&m); err != nil {
				return got, err
			}
			got++
		}
		return got, nil
	}
	t.Run("video to its end", func(t *testing.T) {
		got, err := read(Config{Source: video}, 10)
		if got != 5 || !errors.Is(err, io.EOF) {
			t.Errorf("got %d frames, %v; want 5 then EOF", got, err)
		}
	})
	t.Run("video looping", func(t *testing.T) {
		if got, err := read(Config{Source: video, Loop: true}, 12); got != 12 || err != nil {
			t.Errorf("got %d frames, %v; want 12", got, err)
		}
	})
	t.Run("GStreamer pipeline", func(t *testing.T) {
		cfg := Config{Source: "videotestsrc num-buffers=50 ! video/x-raw,width=320,height=240 ! videoconvert ! video/x-raw,format=BGR ! appsink"}
		src, err := openSource(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		m := gocv.NewMat()
		defer m.Close()
		for i := 0; i < 3; i++ {
			if err := src.Read(&m); err != nil {
				t.Fatalf("frame %d: %v", i, err)
			}
		}
		if m.Cols() != 320 || m.Rows() != 240 || m.Channels() != 3 {
			t.Errorf("got a %d×%d×%d frame, want 320×240 BGR", m.Cols(), m.Rows(), m.Channels())
		}
	})
	bad := []struct {
		name string
		cfg  Config
		err  string
	}{
		{"no device", Config{Source: "/dev/video97"}, "/dev/video97"},
		{"bad device name", Config{Source: "/dev/videoX", SourceKind: SourceV4L2}, "want /dev/videoN"},
		{"no file", Config{Source: filepath.Join(dir, "none.mp4")}, "no such file"},
		{"empty directory", Config{Source: empty}, "has no images"},
		{"GStreamer pipeline that does not start", Config{Source: "nosuchelement ! appsink"}, "does not open"},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			if _, err := read(b.cfg, 1); err == nil || !strings.Contains(err.Error(), b.err) || !strings.HasPrefix(err.Error(), "vision: ") {
				t.Errorf("got %v, want a vision error containing %q", err, b.err)
			}
		})
	}
	kinds := map[string]string{"/dev/video0": SourceV4L2, "libcamerasrc ! appsink": SourceGStreamer, video: SourceFile, empty: SourceDir}
	for src, want := range kinds {
		if got := (Config{Source: src}).sourceKind(); got != want {
			t.Errorf("%q: got kind %s, want %s", src, got, want)
		}
	}
}
