package hardware

import (
	"context"
	"time"
)

// Clock is the time the drivers read and wait on. Debounce, long presses,
// polling and blinking all go through it, so tests drive them with a fake
// clock instead of waiting.
type Clock interface {
	Now() time.Time
	// Sleep pauses for d, or until ctx ends (then it returns ctx.Err()).
	Sleep(ctx context.Context, d time.Duration) error
}

// SystemClock is the wall clock.
func SystemClock() Clock { return systemClock{} }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
