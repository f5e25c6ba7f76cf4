// Ring-down identification (analysis/ring_down.h) against closed forms: a linear viscous
// decay (frequency and damping ratio exact but for the sampling), a decay with a static
// offset, and a Coulomb-damped oscillator (amplitude falling by 4 F / k per period at the
// undamped frequency: the equivalent damping ratio of each period in closed form).
#include "analysis/ring_down.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace jointdyn::analysis {
namespace {

constexpr double kPi = std::numbers::pi;

TEST(RingDown, LinearViscousDecayGivesItsFrequencyAndDampingRatio) {
  const double f = 120.0, zeta = 0.02, w = 2 * kPi * f, wd = w * std::sqrt(1 - zeta * zeta);
  for (const double offset : {0.0, 0.3}) {
    std::vector<double> t, y;
    for (int k = 0; k < 40 * 200; ++k) {  // 40 periods, 200 samples each
      t.push_back(k / (200.0 * f));
      y.push_back(offset + 2.0 * std::exp(-zeta * w * t.back()) * std::cos(wd * t.back() + 0.4));
    }
    const std::vector<RingDownPoint> points = IdentifyRingDown(t, y);
    ASSERT_GE(points.size(), 70u);
    for (size_t i = 0; i < points.size(); ++i) {
      EXPECT_NEAR(points[i].frequency / f, 1.0, 1e-6) << i;
      EXPECT_NEAR(points[i].damping_ratio / zeta, 1.0, 1e-4) << i;
      if (i > 0) {
        EXPECT_LT(points[i].amplitude, points[i - 1].amplitude);
      }
    }
    EXPECT_NEAR(points.front().amplitude, 2.0 * std::exp(-zeta * w * 1.0 / f), 0.05);
  }
}

// m x'' + k x + F sgn(x') = 0 from x0 at rest: half-cycles of the undamped period, each
// ending |x| lower by 2 F / k. Over one period from half-amplitude H the amplitude drops
// by 4 F / k: D from the log decrement of (H, H - 4 F / k).
TEST(RingDown, CoulombDecayGivesTheEquivalentDampingOfEachPeriod) {
  const double w = 2 * kPi * 50.0, u = 0.01;  // u = F / k [m]
  std::vector<double> t, y;
  double x = 1.0, time = 0.0;
  int sign = 1;  // moving towards -x: friction pushes +
  const int samples = 400;
  while (std::abs(x) > 3 * u) {
    // Half-cycle about the centre sign * u ... the motion x(t) = c + (x - c) cos(w s).
    const double centre = sign * u;
    for (int k = 0; k < samples; ++k) {
      const double s = k * kPi / (w * samples);
      t.push_back(time + s);
      y.push_back(centre + (x - centre) * std::cos(w * s));
    }
    time += kPi / w;
    x = 2 * centre - x;
    sign = -sign;
  }
  const std::vector<RingDownPoint> points = IdentifyRingDown(t, y);
  ASSERT_GE(points.size(), 30u);
  for (const RingDownPoint& p : points) {
    // Half-amplitudes H0 = H2 + 4u and sqrt(H0 H2) = amplitude; the period is the
    // undamped one, reported as f = 1 / (T sqrt(1 - D^2)).
    const double h2 = -2 * u + std::sqrt(4 * u * u + p.amplitude * p.amplitude);
    const double delta = std::log((h2 + 4 * u) / h2);
    const double ratio = delta / std::hypot(2 * kPi, delta);
    EXPECT_NEAR(p.damping_ratio, ratio, 1e-6) << p.amplitude;
    // The extrema sit on a jump of the curvature (the friction reverses there): their
    // parabola is biased by up to 3e-5 near the end at 800 samples per period.
    EXPECT_NEAR(p.frequency * std::sqrt(1 - ratio * ratio) / 50.0, 1.0, 1e-4) << p.amplitude;
  }
}

}  // namespace
}  // namespace jointdyn::analysis
