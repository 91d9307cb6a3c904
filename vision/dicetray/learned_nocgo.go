//go:build !cgo

package dicetray

func openLearned(Options) (TrayReader, error) { return nil, ErrNoOpenCV }

// Annotate fails: the build has no OpenCV.
func Annotate(Frame, Reading) ([]byte, error) { return nil, ErrNoOpenCV }
