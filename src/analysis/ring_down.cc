#include "analysis/ring_down.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/error.h"

namespace jointdyn::analysis {
namespace {

struct Extremum {
  int sign = 0;  // +1 maximum, -1 minimum
  double t = 0.0, y = 0.0;
};

// The extremum at sample k (a local maximum or minimum of samples k - 1 .. k + 1) refined
// by the parabola through the three (equally spaced or not: Lagrange form).
Extremum Refine(const std::vector<double>& t, const std::vector<double>& y, size_t k, int sign) {
  const double t0 = t[k - 1], t1 = t[k], t2 = t[k + 1];
  const double y0 = y[k - 1], y1 = y[k], y2 = y[k + 1];
  // y(s) = a s^2 + b s + c in s = t - t1.
  const double h0 = t0 - t1, h2 = t2 - t1;
  const double d0 = (y0 - y1) / h0, d2 = (y2 - y1) / h2;
  const double a = (d2 - d0) / (h2 - h0), b = d0 - a * h0;
  if (!(a != 0.0)) return {sign, t1, y1};
  const double s = std::clamp(-b / (2.0 * a), std::min(h0, h2), std::max(h0, h2));
  return {sign, t1 + s, y1 + s * (b + a * s)};
}

// The alternating extrema of the samples.
std::vector<Extremum> Extrema(const std::vector<double>& t, const std::vector<double>& y) {
  std::vector<Extremum> extrema;
  for (size_t k = 1; k + 1 < y.size(); ++k) {
    int sign = 0;
    if (y[k] > y[k - 1] && y[k] >= y[k + 1]) sign = 1;
    if (y[k] < y[k - 1] && y[k] <= y[k + 1]) sign = -1;
    if (sign == 0) continue;
    const Extremum e = Refine(t, y, k, sign);
    if (!extrema.empty() && extrema.back().sign == sign) {
      if (sign * e.y > sign * extrema.back().y) extrema.back() = e;
      continue;
    }
    extrema.push_back(e);
  }
  return extrema;
}

}  // namespace

std::vector<RingDownPoint> IdentifyRingDown(const std::vector<double>& time,
                                            const std::vector<double>& signal) {
  JD_CHECK(time.size() == signal.size(), "IdentifyRingDown: one sample per time");
  const std::vector<Extremum> e = Extrema(time, signal);
  std::vector<RingDownPoint> points;
  for (size_t i = 0; i + 3 < e.size(); ++i) {
    const double h0 = 0.5 * std::abs(e[i].y - e[i + 1].y);
    const double h2 = 0.5 * std::abs(e[i + 2].y - e[i + 3].y);
    const double period = e[i + 2].t - e[i].t;
    if (!(h0 > 0.0 && h2 > 0.0 && period > 0.0)) continue;
    const double delta = std::log(h0 / h2);
    const double ratio = delta / std::hypot(2.0 * std::numbers::pi, delta);
    points.push_back({std::sqrt(h0 * h2),
                      1.0 / (period * std::sqrt(1.0 - ratio * ratio)),
                      ratio,
                      {e[i].t, e[i + 1].t, e[i + 2].t, e[i + 3].t}});
  }
  return points;
}

double AmplitudeAt(const RingDownPoint& point, const std::vector<double>& time,
                   const std::vector<double>& signal) {
  JD_CHECK(time.size() == signal.size() && time.size() >= 2, "AmplitudeAt: samples");
  std::array<double, 4> y{};
  for (int j = 0; j < 4; ++j) {
    const auto it = std::upper_bound(time.begin() + 1, time.end() - 1, point.times[j]);
    const size_t k = static_cast<size_t>(it - time.begin());
    const double s = (point.times[j] - time[k - 1]) / (time[k] - time[k - 1]);
    y[j] = signal[k - 1] + s * (signal[k] - signal[k - 1]);
  }
  return 0.5 * std::sqrt(std::abs(y[0] - y[1]) * std::abs(y[2] - y[3]));
}

}  // namespace jointdyn::analysis
