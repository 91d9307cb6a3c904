//go:build !cgo

package vision

import (
	"context"
	"log/slog"
)

// Pipeline is the camera pipeline. This build has no OpenCV: Open fails
// with ErrNoCamera.
type Pipeline struct{}

// Open fails: the build has no camera support.
func Open(cfg Config, log *slog.Logger) (*Pipeline, error) { return nil, ErrNoCamera }

// Run fails: the build has no camera support.
func (p *Pipeline) Run(ctx context.Context, emit func(Snapshot)) error { return ErrNoCamera }

// Close does nothing.
func (p *Pipeline) Close() error { return nil }

// OnImage does nothing.
func (p *Pipeline) OnImage(func(jpeg []byte)) {}

// Measure does nothing.
func (p *Pipeline) Measure(...Pair) {}

// Annotate fails: the build has no camera support.
func (p *Pipeline) Annotate(...Pair) ([]byte, error) { return nil, ErrNoCamera }

// Reload fails: the build has no camera support.
func (p *Pipeline) Reload() error { return ErrNoCamera }

// Last has no snapshot.
func (p *Pipeline) Last() (Snapshot, bool) { return Snapshot{}, false }

// Stats are empty.
func (p *Pipeline) Stats() Stats { return Stats{} }
