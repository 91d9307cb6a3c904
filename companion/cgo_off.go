//go:build !cgo

package companion

// cgoBuild: this binary has no cgo, so no OpenCV and no camera.
const cgoBuild = false
