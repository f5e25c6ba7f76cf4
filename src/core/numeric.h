// Small numerical helpers shared by all layers.
#pragma once

#include <cmath>

namespace jointdyn {

// Sign with sgn(0) = 0.
inline double Sign(double x) { return (x > 0.0) - (x < 0.0); }

// |a - b| <= atol + rtol * max(|a|, |b|).
inline bool NearlyEqual(double a, double b, double rtol, double atol = 0.0) {
  return std::abs(a - b) <= atol + rtol * std::max(std::abs(a), std::abs(b));
}

}  // namespace jointdyn
