package vision

import (
	"errors"
	"time"
)

// ErrNoCamera is returned by Open and the other camera functions in a
// build without cgo (CGO_ENABLED=0), which has no OpenCV.
var ErrNoCamera = errors.New("vision: built without camera support (CGO_ENABLED=0)")

// Stats count what the pipeline has done.
type Stats struct {
	Frames int `json:"frames"`
	// Detections are frames that went through marker detection;
	// StillFrames were found unchanged and cost only the comparison.
	Detections int `json:"detections"`
	// RegionDetections are the Detections made only around what changed
	// since the last detected frame (FullEvery).
	RegionDetections int `json:"region_detections"`
	StillFrames      int `json:"still_frames"`
	Snapshots        int `json:"snapshots"`
	Errors           int `json:"errors"`
	Reopens          int `json:"reopens"`
	// Recovered are markers OpenCV could not read that the pipeline's own
	// decoder did.
	Recovered int `json:"recovered"`
	// LastFrame is when the last frame arrived.
	LastFrame time.Time `json:"last_frame"`
}

// Pair names two models or two units whose distance is drawn on the
// annotated image.
type Pair struct{ A, B string }
