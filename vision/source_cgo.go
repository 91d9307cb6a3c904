//go:build cgo

package vision

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gocv.io/x/gocv"
)

// frameSource delivers frames. Read returns io.EOF at the end of a finite
// source that does not loop.
type frameSource interface {
	Read(dst *gocv.Mat) error
	// Time is when the frame last read was taken: the clock for a camera,
	// the frame's place in the sequence for a file or a directory.
	Time() time.Time
	Close() error
	Name() string
}

var errNoFrame = errors.New("no frame")

// openSource opens the configured source.
func openSource(cfg Config) (frameSource, error) {
	switch kind := cfg.sourceKind(); kind {
	case SourceV4L2:
		n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(cfg.Source), "/dev/video"))
		if err != nil {
			return nil, fmt.Errorf("vision: camera %q: want /dev/videoN", cfg.Source)
		}
		if _, err := os.Stat(cfg.Source); err != nil {
			return nil, fmt.Errorf("vision: camera: %w", err)
		}
		vc, err := gocv.VideoCaptureDeviceWithAPI(n, gocv.VideoCaptureV4L2)
		if err != nil || !vc.IsOpened() {
			closeCapture(vc)
			return nil, fmt.Errorf("vision: camera %s does not open (in use, or no V4L2 capture device?)", cfg.Source)
		}
		if cfg.Width > 0 {
			vc.Set(gocv.VideoCaptureFrameWidth, float64(cfg.Width))
			vc.Set(gocv.VideoCaptureFrameHeight, float64(cfg.Height))
		}
		if cfg.FPS > 0 {
			vc.Set(gocv.VideoCaptureFPS, cfg.FPS)
		}
		// keep the driver's queue short: the newest frame is what counts
		vc.Set(gocv.VideoCaptureBufferSize, 1)
		return &captureSource{vc: vc, name: cfg.Source, live: true}, nil
	case SourceGStreamer:
		vc, err := gocv.VideoCaptureFileWithAPI(cfg.Source, gocv.VideoCaptureGstreamer)
		if err != nil || !vc.IsOpened() {
			closeCapture(vc)
			return nil, fmt.Errorf("vision: GStreamer pipeline %q does not open (are its elements installed, does it end in appsink?)", cfg.Source)
		}
		return &captureSource{vc: vc, name: "gstreamer", live: true}, nil
	case SourceFile:
		if _, err := os.Stat(cfg.Source); err != nil {
			return nil, fmt.Errorf("vision: video: %w", err)
		}
		vc, err := gocv.VideoCaptureFile(cfg.Source)
		if err != nil || !vc.IsOpened() {
			closeCapture(vc)
			return nil, fmt.Errorf("vision: video %s does not open (not a video OpenCV reads?)", cfg.Source)
		}
		return &captureSource{vc: vc, name: cfg.Source, path: cfg.Source, loop: cfg.Loop, fps: cfg.FPS, start: time.Now()}, nil
	case SourceDir:
		return openDirSource(cfg.Source, cfg.Loop, cfg.FPS)
	default:
		return nil, fmt.Errorf("vision: source kind %q", kind)
	}
}

// captureSource is an OpenCV VideoCapture.
type captureSource struct {
	vc    *gocv.VideoCapture
	name  string
	path  string
	live  bool
	loop  bool
	fps   float64
	start time.Time
	n     int
	at    time.Time
}

func (s *captureSource) Read(dst *gocv.Mat) error {
	if s.vc == nil {
		return fmt.Errorf("vision: video %s is closed", s.path)
	}
	if s.vc.Read(dst) && !dst.Empty() {
		s.n++
		if s.live {
			s.at = time.Now()
		} else {
			s.at = s.start.Add(frameTime(s.n, s.fps))
		}
		return nil
	}
	if s.live {
		return errNoFrame
	}
	if !s.loop {
		return io.EOF
	}
	// a file at its end: open it again
	s.vc.Close()
	vc, err := gocv.VideoCaptureFile(s.path)
	if err != nil {
		closeCapture(vc)
		s.vc = nil
		return fmt.Errorf("vision: video %s does not open again", s.path)
	}
	s.vc = vc
	if !s.vc.Read(dst) || dst.Empty() {
		return fmt.Errorf("vision: video %s: no frames", s.path)
	}
	s.n++
	s.at = s.start.Add(frameTime(s.n, s.fps))
	return nil
}

func frameTime(n int, fps float64) time.Duration {
	if fps <= 0 {
		fps = 10
	}
	return time.Duration(float64(n) / fps * float64(time.Second))
}

func (s *captureSource) Time() time.Time { return s.at }
func (s *captureSource) Close() error {
	if s.vc == nil {
		return nil
	}
	return s.vc.Close()
}

// closeCapture frees a capture gocv made even though opening failed.
func closeCapture(vc *gocv.VideoCapture) {
	if vc != nil {
		vc.Close()
	}
}
func (s *captureSource) Name() string { return s.name }

// dirSource reads the images of a directory in name order.
type dirSource struct {
	dir   string
	files []string
	i     int
	n     int
	loop  bool
	fps   float64
	start time.Time
	at    time.Time
}

var imageExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".bmp": true, ".tif": true, ".tiff": true, ".pgm": true, ".ppm": true}

func openDirSource(dir string, loop bool, fps float64) (*dirSource, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("vision: image directory: %w", err)
	}
	s := &dirSource{dir: dir, loop: loop, fps: fps, start: time.Now()}
	for _, e := range ents {
		if !e.IsDir() && imageExts[strings.ToLower(filepath.Ext(e.Name()))] {
			s.files = append(s.files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(s.files)
	if len(s.files) == 0 {
		return nil, fmt.Errorf("vision: image directory %s has no images", dir)
	}
	return s, nil
}

func (s *dirSource) Read(dst *gocv.Mat) error {
	if s.i >= len(s.files) {
		if !s.loop {
			return io.EOF
		}
		s.i = 0
	}
	path := s.files[s.i]
	s.i++
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("vision: %w", err)
	}
	img := gocv.IMRead(path, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		return fmt.Errorf("vision: %s is not an image OpenCV reads", path)
	}
	img.CopyTo(dst)
	s.n++
	s.at = s.start.Add(frameTime(s.n, s.fps))
	return nil
}

func (s *dirSource) Time() time.Time { return s.at }
func (s *dirSource) Close() error    { return nil }
func (s *dirSource) Name() string    { return s.dir }
