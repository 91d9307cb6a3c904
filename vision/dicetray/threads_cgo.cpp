// OpenCV's thread count, for the dicetray package (threads_cgo.go).
#include <opencv2/core.hpp>
#include "threads_cgo.h"

extern "C" void Sztab_SetNumThreads(int n) { cv::setNumThreads(n); }
extern "C" int Sztab_GetNumThreads(void) { return cv::getNumThreads(); }
