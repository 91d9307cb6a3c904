//go:build !cgo

package vision

import (
	"context"
	"log/slog"

	"github.com/sztab/sztab/vision/board"
)

// CalibrateBoardFrom needs OpenCV (cgo).
func CalibrateBoardFrom(ctx context.Context, cfg Config, opt BoardOptions, log *slog.Logger) (*board.Calibration, error) {
	return nil, ErrNoCamera
}
