//go:build cgo

package companion

// cgoBuild: this binary has cgo, and so OpenCV and the camera.
const cgoBuild = true
