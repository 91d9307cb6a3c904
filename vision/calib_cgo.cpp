//go:build cgo

#include "calib_cgo.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

extern "C" int Sztab_FindChessboard(void *mat, int cols, int rows, float *corners, char **err) {
	try {
		cv::Mat *img = static_cast<cv::Mat *>(mat);
		cv::Mat gray;
		if (img->channels() == 3) {
			cv::cvtColor(*img, gray, cv::COLOR_BGR2GRAY);
		} else if (img->channels() == 4) {
			cv::cvtColor(*img, gray, cv::COLOR_BGRA2GRAY);
		} else {
			gray = *img;
		}
		std::vector<cv::Point2f> pts;
		cv::Size size(cols, rows);
		bool found = cv::findChessboardCornersSB(gray, size, pts, cv::CALIB_CB_NORMALIZE_IMAGE);
		if (!found) {
			found = cv::findChessboardCorners(gray, size, pts, cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE);
			if (found) {
				cv::cornerSubPix(gray, pts, cv::Size(5, 5), cv::Size(-1, -1),
				                 cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 50, 0.001));
			}
		}
		if (!found || static_cast<int>(pts.size()) != cols * rows) {
			return 0;
		}
		for (size_t i = 0; i < pts.size(); i++) {
			corners[2 * i] = pts[i].x;
			corners[2 * i + 1] = pts[i].y;
		}
		return 1;
	} catch (const std::exception &e) {
		*err = strdup(e.what());
	} catch (...) {
		*err = strdup("unknown C++ exception");
	}
	return -1;
}

extern "C" double Sztab_CalibrateCamera(int views, int n, const float *obj, const float *img, int width, int height, int fixK3, double *k, double *dist, char **err) {
	try {
		std::vector<std::vector<cv::Point3f>> objs(views);
		std::vector<std::vector<cv::Point2f>> imgs(views);
		for (int v = 0; v < views; v++) {
			for (int i = 0; i < n; i++) {
				const float *o = obj + 3 * (v * n + i);
				const float *p = img + 2 * (v * n + i);
				objs[v].push_back(cv::Point3f(o[0], o[1], o[2]));
				imgs[v].push_back(cv::Point2f(p[0], p[1]));
			}
		}
		cv::Mat K, D;
		std::vector<cv::Mat> rv, tv;
		double rms = cv::calibrateCamera(objs, imgs, cv::Size(width, height), K, D, rv, tv, fixK3 ? cv::CALIB_FIX_K3 : 0,
		                                 cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100, 1e-12));
		for (int i = 0; i < 9; i++) {
			k[i] = K.at<double>(i / 3, i % 3);
		}
		for (int i = 0; i < 5; i++) {
			dist[i] = i < static_cast<int>(D.total()) ? D.at<double>(i) : 0;
		}
		return rms;
	} catch (const std::exception &e) {
		*err = strdup(e.what());
	} catch (...) {
		*err = strdup("unknown C++ exception");
	}
	return -1;
}
