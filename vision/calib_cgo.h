// Chessboard lens calibration for the vision package, through OpenCV's
// calib3d.
#ifndef SZTAB_CALIB_CGO_H
#define SZTAB_CALIB_CGO_H

#ifdef __cplusplus
extern "C" {
#endif

// Sztab_FindChessboard looks for a chessboard of cols×rows inner corners
// in mat (a cv::Mat*, grey or BGR) and writes their subpixel positions
// (x y, row by row) into corners (2·cols·rows floats). It returns 1 when
// found, 0 when not, -1 with *err set on failure.
int Sztab_FindChessboard(void *mat, int cols, int rows, float *corners, char **err);

// Sztab_CalibrateCamera runs calibrateCamera over views of n points each
// (obj: 3 floats per point, img: 2 floats per point). It writes the camera
// matrix (9 doubles, row-major) and k1 k2 p1 p2 k3 (5 doubles) and returns
// the RMS reprojection error, or -1 with *err set.
// With fixK3 the sixth-order radial term is held at 0 (most lenses that
// are not fisheyes do better so).
double Sztab_CalibrateCamera(int views, int n, const float *obj, const float *img, int width, int height, int fixK3, double *k, double *dist, char **err);

#ifdef __cplusplus
}
#endif

#endif
