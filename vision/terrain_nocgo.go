//go:build !cgo

package vision

import (
	"context"
	"log/slog"
)

// CalibrateTerrainFrom fails: the build has no camera support.
func CalibrateTerrainFrom(ctx context.Context, cfg Config, opt TerrainOptions, log *slog.Logger) (*TerrainCalibration, error) {
	return nil, ErrNoCamera
}
