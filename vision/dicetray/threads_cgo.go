//go:build cgo

package dicetray

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include "threads_cgo.h"
*/
import "C"

// SetOpenCVThreads sets the threads OpenCV's parallel loops use, for the
// whole process (0: run them sequentially; a negative: OpenCV's
// default), and returns the count before. Benchmarks set 1 on both
// sides of a ratio so that other work on the machine does not move it.
func SetOpenCVThreads(n int) int {
	before := int(C.Sztab_GetNumThreads())
	C.Sztab_SetNumThreads(C.int(n))
	return before
}
