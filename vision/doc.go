// Package vision turns camera frames into table snapshots: every model's
// position on the table in millimetres, its identity, and the distances
// between models, each with an uncertainty.
//
// The pieces, in the order a frame meets them:
//
//   - sources (source_cgo.go): a V4L2 device, a GStreamer pipeline (the
//     Raspberry Pi camera through libcamerasrc), a video file or a
//     directory of images, reopened when they stop delivering;
//   - detection (detector_cgo.go, aruco_cgo.cpp): OpenCV's ArUco
//     detectMarkers through a small cgo shim (gocv's contrib package does
//     not build against Debian's OpenCV), then the package's own subpixel
//     corner refinement and decoder for the candidates OpenCV rejects
//     (refine.go, square.go; pure Go);
//   - localisation (localise.go, calibration.go, crossval.go, geom): lens
//     distortion removed from the corners (calibrated, or estimated from
//     the fiducials), the table frame (a RANSAC homography to the
//     fiducials, refined by Levenberg–Marquardt) and the camera pose, so
//     markers on top of bases are placed without parallax error; each
//     position's uncertainty takes the calibration's leave-one-fiducial-out
//     error, the detection and the bases' height tolerance;
//   - stillness (tracker.go, pipeline_cgo.go): a snapshot once the table
//     has been still for a few frames, models that go unseen kept at their
//     last position and marked occluded; a table where nothing moved costs
//     only the comparison of two eighth-size images;
//   - the snapshot (snapshot.go, distance.go): positions with SigmaMM,
//     base-to-base distances in mm and kroki with their bounds, and
//     Distance.Check, which says "too close to call" instead of deciding;
//   - an annotated JPEG of each snapshot (annotate_cgo.go).
//
// Everything that needs OpenCV is in files built with cgo; without cgo the
// package still builds, its geometry, calibration maths, registry, config
// and tracker work, and Open returns ErrNoCamera. The synthetic table in
// vision/synth renders frames with known ground truth for the tests and
// benchmarks.
package vision
