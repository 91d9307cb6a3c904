//go:build !cgo

package vision

import (
	"context"
	"log/slog"
)

// CalibrateTableFrom fails: the build has no camera support.
func CalibrateTableFrom(ctx context.Context, cfg Config, opt TableOptions, log *slog.Logger) (*Calibration, error) {
	return nil, ErrNoCamera
}

// CalibrateLensFrom fails: the build has no camera support.
func CalibrateLensFrom(ctx context.Context, cfg Config, opt LensOptions, log *slog.Logger) (*LensCalibration, error) {
	return nil, ErrNoCamera
}

// SnapshotOf fails: the build has no camera support.
func SnapshotOf(ctx context.Context, cfg Config, image string, pairs []Pair, log *slog.Logger) (Snapshot, []byte, error) {
	return Snapshot{}, nil, ErrNoCamera
}
