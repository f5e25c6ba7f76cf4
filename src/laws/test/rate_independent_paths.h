// Slip paths and drivers shared by the rate-independent friction tests (Dahl, Valanis,
// Bouc-Wen, Masing): monotonic ramps, triangle-wave cycles, circles, loop work.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "laws/law_point.h"

namespace jointdyn::laws::paths {

// Slip points from 0 to length * direction in `steps` equal steps (steps + 1 points).
inline std::vector<Vec2> Ramp(const Vec2& direction, double length, int steps) {
  std::vector<Vec2> path;
  for (int i = 0; i <= steps; ++i) path.push_back(direction * (length * i / steps));
  return path;
}

// Triangle wave 0 -> A -> -A -> 0 along `direction`, equal slip steps A / per_quarter,
// hitting the reversal points exactly.
inline std::vector<Vec2> TriangleWave(const Vec2& direction, double amplitude, int per_quarter,
                                      int cycles) {
  std::vector<Vec2> path{Vec2::Zero()};
  for (int i = 1; i <= 4 * per_quarter * cycles; ++i) {
    const int k = i % (4 * per_quarter);
    const double u = static_cast<double>(k) / per_quarter;  // in [0, 4)
    const double shape = u <= 1.0 ? u : (u <= 3.0 ? 2.0 - u : u - 4.0);
    path.push_back(direction * (amplitude * shape));
  }
  return path;
}

// A radial ramp (per_revolution / 4 steps) to (radius, 0), then `revolutions` turns
// counter-clockwise with per_revolution equal steps each.
inline std::vector<Vec2> Circle(double radius, int per_revolution, int revolutions) {
  std::vector<Vec2> path = Ramp(Vec2(1.0, 0.0), radius, per_revolution / 4);
  for (int i = 1; i <= per_revolution * revolutions; ++i) {
    const double theta = 2.0 * M_PI * i / per_revolution;
    path.emplace_back(radius * std::cos(theta), radius * std::sin(theta));
  }
  return path;
}

// Steps a fresh point along `path` at constant `pressure` and returns the responses.
inline std::vector<TangentialResponse> Walk(const TangentialLaw& law, const std::vector<Vec2>& path,
                                            double pressure) {
  LawPoint point(law);
  std::vector<TangentialResponse> responses;
  responses.reserve(path.size());
  for (const Vec2& s : path) {
    TangentialResponse r;
    const Status status = point.Step({s, pressure, 1e-3}, r);
    EXPECT_TRUE(status.ok) << status.message;
    responses.push_back(r);
  }
  return responses;
}

// Work (trapezoidal) of the last of `cycles` triangle-wave cycles: the loop energy once
// the response is periodic.
inline double LastCycleWork(const TangentialLaw& law, const Vec2& direction, double amplitude,
                            double pressure, int per_quarter, int cycles) {
  const std::vector<Vec2> path = TriangleWave(direction, amplitude, per_quarter, cycles);
  const std::vector<TangentialResponse> r = Walk(law, path, pressure);
  const size_t start = path.size() - 1 - 4 * per_quarter;
  double work = 0.0;
  for (size_t i = start + 1; i < path.size(); ++i)
    work += 0.5 * (r[i].traction + r[i - 1].traction).dot(path[i] - path[i - 1]);
  return work;
}

// Three-parameter Coulomb steady loop energy 4 R_G (A - R_G / c1) (zero in stick).
inline double CoulombLoopEnergy(double r_g, double c1, double amplitude) {
  return amplitude > r_g / c1 ? 4.0 * r_g * (amplitude - r_g / c1) : 0.0;
}

inline double ObservedOrder(double error_coarse, double error_fine) {
  return std::log2(error_coarse / error_fine);
}

// Vanishing slip limit R_G = mu p (p -> 0+), shared by the slider laws (c1(), c2(), mu()):
// from the virgin state, a slip excursion of 1e-7 m steps keeps the slider traction
// |tau - c2 s| within R_G (1 + rel), with finite tangents.
template <class Law>
void ExpectSafeFromVirginAtTinyPressure(const Law& law, const Vec2& e, double p, double rel) {
  const double r_g = law.mu() * p;
  LawPoint point(law);
  for (int i = 0; i <= 20; ++i) {
    TangentialResponse r;
    const Vec2 s = (i < 10 ? i : 20 - i) * 1e-7 * e;
    const Status status = point.Step({s, p, 1e-3}, r);
    ASSERT_TRUE(status.ok) << status.message;
    EXPECT_LE((r.traction - law.c2() * s).norm(), r_g * (1 + rel)) << law.type() << " p " << p;
    EXPECT_TRUE(r.d_traction_d_slip.allFinite() && r.d_traction_d_pressure.allFinite());
  }
}

// Loaded to saturation at `loaded_pressure` (slip 1e-5 m along e), then the pressure drops
// to p while the slip moves on by ds: the slider traction stays within
// R_G (1 + |z_n| / q) with q = c1 |ds|, and the tangents stay finite.
template <class Law>
void ExpectSafeAfterPressureDrop(const Law& law, const Vec2& e, double loaded_pressure, double p,
                                 double ds) {
  const double r_g = law.mu() * p;
  LawPoint loaded(law);
  TangentialResponse r;
  ASSERT_TRUE(loaded.Step({1e-5 * e, loaded_pressure, 1e-3}, r).ok);
  const double z_n = (r.traction - law.c2() * 1e-5 * e).norm();
  const Vec2 s = (1e-5 + ds) * e;
  const Status status = loaded.Trial({s, p, 1e-3}, r);
  ASSERT_TRUE(status.ok) << status.message;
  const double q = law.c1() * std::abs(ds);
  EXPECT_LE((r.traction - law.c2() * s).norm(), r_g * (1.0 + z_n / q) * (1 + 1e-12))
      << law.type() << " p " << p << " ds " << ds;
  EXPECT_TRUE(r.d_traction_d_slip.allFinite() && r.d_traction_d_pressure.allFinite());
}

// mu = 0: R_G = 0 exactly, the traction is exactly the parallel spring c2 s.
template <class Law>
void ExpectFrictionlessIsTheParallelSpring(const Law& law, const Vec2& e, double pressure) {
  LawPoint point(law);
  for (int i = 0; i <= 4; ++i) {
    TangentialResponse r;
    ASSERT_TRUE(point.Step({i * 1e-6 * e, pressure, 1e-3}, r).ok);
    EXPECT_EQ(r.traction, Vec2(law.c2() * (i * 1e-6 * e)));
  }
}

}  // namespace jointdyn::laws::paths
