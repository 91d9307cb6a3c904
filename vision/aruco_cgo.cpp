//go:build cgo

#include "aruco_cgo.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

namespace {

struct Detector {
	cv::Ptr<cv::aruco::Dictionary> dict;
	cv::Ptr<cv::aruco::DetectorParameters> params;
};

}  // namespace

extern "C" SztabDetector Sztab_NewDetector(int dictionary, SztabArucoParams p, char **err) {
	try {
		Detector *d = new Detector;
		d->dict = cv::aruco::getPredefinedDictionary(dictionary);
		cv::Ptr<cv::aruco::DetectorParameters> q = cv::aruco::DetectorParameters::create();
		q->adaptiveThreshWinSizeMin = p.winMin;
		q->adaptiveThreshWinSizeMax = p.winMax;
		q->adaptiveThreshWinSizeStep = p.winStep;
		q->adaptiveThreshConstant = p.threshConst;
		q->minMarkerPerimeterRate = p.minPerimeterRate;
		q->maxMarkerPerimeterRate = p.maxPerimeterRate;
		q->polygonalApproxAccuracyRate = p.polyAccuracy;
		q->minCornerDistanceRate = p.minCornerDistRate;
		q->minDistanceToBorder = p.minDistToBorder;
		q->minMarkerDistanceRate = p.minMarkerDistRate;
		q->cornerRefinementMethod = p.refine;
		q->cornerRefinementWinSize = p.refineWin;
		q->cornerRefinementMaxIterations = p.refineMaxIter;
		q->cornerRefinementMinAccuracy = p.refineMinAcc;
		q->perspectiveRemovePixelPerCell = p.pxPerCell;
		q->perspectiveRemoveIgnoredMarginPerCell = p.ignoredMargin;
		q->maxErroneousBitsInBorderRate = p.maxErrBorder;
		q->minOtsuStdDev = p.minOtsu;
		q->errorCorrectionRate = p.errCorrection;
		q->useAruco3Detection = p.aruco3 != 0;
		q->minSideLengthCanonicalImg = p.minSideCanonical;
		q->minMarkerLengthRatioOriginalImg = static_cast<float>(p.minLenRatioOriginal);
		d->params = q;
		return d;
	} catch (const std::exception &e) {
		*err = strdup(e.what());
	} catch (...) {
		*err = strdup("unknown C++ exception");
	}
	return nullptr;
}

extern "C" void Sztab_FreeDetector(SztabDetector d) { delete static_cast<Detector *>(d); }

static float *packCorners(const std::vector<std::vector<cv::Point2f>> &cs) {
	float *out = static_cast<float *>(std::malloc(sizeof(float) * 8 * (cs.size() + 1)));
	if (out == nullptr) {
		return nullptr;
	}
	for (size_t i = 0; i < cs.size(); i++) {
		for (int k = 0; k < 4 && k < static_cast<int>(cs[i].size()); k++) {
			out[8 * i + 2 * k] = cs[i][k].x;
			out[8 * i + 2 * k + 1] = cs[i][k].y;
		}
	}
	return out;
}

extern "C" int Sztab_Detect(SztabDetector h, void *mat, int **ids, float **corners, int *nrejected, float **rejected, char **err) {
	*ids = nullptr;
	*corners = nullptr;
	try {
		Detector *d = static_cast<Detector *>(h);
		cv::Mat *img = static_cast<cv::Mat *>(mat);
		std::vector<std::vector<cv::Point2f>> cs;
		std::vector<std::vector<cv::Point2f>> rej;
		std::vector<int> is;
		if (rejected != nullptr) {
			cv::aruco::detectMarkers(*img, d->dict, cs, is, d->params, rej);
			*nrejected = static_cast<int>(rej.size());
			*rejected = rej.empty() ? nullptr : packCorners(rej);
		} else {
			cv::aruco::detectMarkers(*img, d->dict, cs, is, d->params);
		}
		int n = static_cast<int>(is.size());
		if (n == 0) {
			return 0;
		}
		*ids = static_cast<int *>(std::malloc(sizeof(int) * n));
		*corners = static_cast<float *>(std::malloc(sizeof(float) * 8 * n));
		if (*ids == nullptr || *corners == nullptr) {
			std::free(*ids);
			std::free(*corners);
			*ids = nullptr;
			*corners = nullptr;
			*err = strdup("out of memory");
			return -1;
		}
		for (int i = 0; i < n; i++) {
			(*ids)[i] = is[i];
			for (int k = 0; k < 4; k++) {
				(*corners)[8 * i + 2 * k] = cs[i][k].x;
				(*corners)[8 * i + 2 * k + 1] = cs[i][k].y;
			}
		}
		return n;
	} catch (const std::exception &e) {
		*err = strdup(e.what());
	} catch (...) {
		*err = strdup("unknown C++ exception");
	}
	return -1;
}

extern "C" int Sztab_MarkerBits(int dictionary, int id, unsigned char *out) {
	try {
		cv::Ptr<cv::aruco::Dictionary> d = cv::aruco::getPredefinedDictionary(dictionary);
		if (id < 0 || id >= d->bytesList.rows) {
			return -1;
		}
		cv::Mat bits = cv::aruco::Dictionary::getBitsFromByteList(d->bytesList.rowRange(id, id + 1), d->markerSize);
		for (int r = 0; r < bits.rows; r++) {
			for (int c = 0; c < bits.cols; c++) {
				out[r * bits.cols + c] = bits.at<unsigned char>(r, c) ? 1 : 0;
			}
		}
		return d->markerSize;
	} catch (...) {
		return -1;
	}
}

extern "C" void Sztab_Free(void *p) { std::free(p); }
