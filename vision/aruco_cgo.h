// ArUco detection for the vision package: OpenCV's aruco module called
// from Go. gocv's contrib package (which wraps it) does not build against
// Debian's OpenCV, so this small shim does.
#ifndef SZTAB_ARUCO_CGO_H
#define SZTAB_ARUCO_CGO_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	int winMin, winMax, winStep;
	double threshConst;
	double minPerimeterRate, maxPerimeterRate, polyAccuracy, minCornerDistRate;
	int minDistToBorder;
	double minMarkerDistRate;
	int refine, refineWin, refineMaxIter;
	double refineMinAcc;
	int pxPerCell;
	double ignoredMargin, maxErrBorder, minOtsu, errCorrection;
	int aruco3, minSideCanonical;
	double minLenRatioOriginal;
} SztabArucoParams;

typedef void *SztabDetector;

// Sztab_NewDetector returns NULL and sets *err on failure.
SztabDetector Sztab_NewDetector(int dictionary, SztabArucoParams p, char **err);
void Sztab_FreeDetector(SztabDetector d);

// Sztab_Detect finds markers in mat (a cv::Mat*, grey or BGR). It returns
// their number, or -1 with *err set. *ids (n ints) and *corners (8n floats,
// x y per corner, ArUco order) are malloc'd; free them with Sztab_Free.
// When rejected is not NULL, the candidates that did not decode are
// returned too: their number in *nrejected, their corners in *rejected.
int Sztab_Detect(SztabDetector d, void *mat, int **ids, float **corners, int *nrejected, float **rejected, char **err);

// Sztab_MarkerBits writes marker id's bits (1 = white), row-major, into
// out (room for 64) and returns the marker size, or -1.
int Sztab_MarkerBits(int dictionary, int id, unsigned char *out);

void Sztab_Free(void *p);

#ifdef __cplusplus
}
#endif

#endif
