//go:build !cgo

package main

import "errors"

func openCVVersion() string { return "none (built without cgo: no camera)" }

func readFrame(string) (int, int, error) {
	return 0, 0, errors.New("built without cgo: no camera")
}
