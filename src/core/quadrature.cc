#include "core/quadrature.h"

#include <cmath>
#include <numbers>

#include "core/error.h"

namespace jointdyn {

void GaussLegendre(int n, VecX& points, VecX& weights) {
  JD_CHECK(n >= 1, "GaussLegendre: n must be >= 1");
  points.resize(n);
  weights.resize(n);
  for (int i = 0; i < n; ++i) {
    // Newton on P_n from the Chebyshev-like first guess; the three-term recurrence gives
    // P_n and its derivative.
    double x = std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5));
    double dp = 1.0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      double p0 = 1.0, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1.0);
      const double step = p1 / dp;
      x -= step;
      if (std::abs(step) <= 1e-16) break;
    }
    points(n - 1 - i) = x;
    weights(n - 1 - i) = 2.0 / ((1.0 - x * x) * dp * dp);
  }
}

}  // namespace jointdyn
