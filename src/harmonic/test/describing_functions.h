// Closed-form first-harmonic describing functions used as references by the harmonic
// tests: the force of an element driven by r = A cos(theta) has the first harmonic
// a1 cos(theta) + b1 sin(theta); the complex describing function is nu = (a1 - i b1) / A,
// so that a drive of complex amplitude X (r = Re X e^{i theta}) gives the force nu X.
#pragma once

#include <cmath>
#include <complex>
#include <numbers>

namespace jointdyn::harmonic::testing {

// Jenkins element (stick spring k_t [N/m] in series with a Coulomb slider of limit F_s [N])
// in its steady loop (the stop operator): stuck for k_t A <= F_s; otherwise, from the
// reversal at theta = 0, f = F_s - k_t A (1 - cos theta) until it reaches -F_s at
// cos theta* = 1 - 2 u, u = F_s / (k_t A), then -F_s until theta = pi, and f(theta + pi) =
// -f(theta). Integrating f cos and f sin over the half period:
//   a1 = (2 / pi) [(2 F_s - k_t A) sin theta* + k_t A (theta* / 2 + sin(2 theta*) / 4)],
//   b1 = -(4 F_s / pi) (1 - u).
inline std::complex<double> JenkinsDescribingFunction(double k_t, double f_s, double amplitude) {
  if (k_t * amplitude <= f_s) return k_t;
  const double u = f_s / (k_t * amplitude);
  const double theta = std::acos(1.0 - 2.0 * u);
  const double a1 = 2.0 / std::numbers::pi *
                    ((2.0 * f_s - k_t * amplitude) * std::sin(theta) +
                     k_t * amplitude * (0.5 * theta + 0.25 * std::sin(2.0 * theta)));
  const double b1 = -4.0 * f_s / std::numbers::pi * (1.0 - u);
  return {a1 / amplitude, -b1 / amplitude};
}

// Cubic spring k3 r^3: the first harmonic of (A cos)^3 is (3/4) A^3 cos.
inline std::complex<double> CubicDescribingFunction(double k3, double amplitude) {
  return 0.75 * k3 * amplitude * amplitude;
}

}  // namespace jointdyn::harmonic::testing
