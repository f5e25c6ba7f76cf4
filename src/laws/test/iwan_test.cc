#include "laws/iwan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/quadrature.h"
#include "laws/law_point.h"
#include "laws/test/conformance.h"

namespace jointdyn::laws {
namespace {

using conformance::CaseName;
using conformance::TangentialCase;
using conformance::TangentialConformance;

constexpr double kPi = std::numbers::pi;

// A single-bolt lap joint at the scale of seed 001, sec. 3-4: k_t = 2e7 N/m, mu = 0.3,
// N = 1000 N, so F_s = mu N = 300 N and the slip unit F_s / k_t = 1.5e-5 m.
constexpr double kKt = 2e7;
constexpr double kMu = 0.3;
constexpr double kNormal = 1000.0;
constexpr double kFs = kMu * kNormal;
constexpr double kUnit = kFs / kKt;
// Segalman shape: chi = -0.5, beta = 0.5 (typical of fitted lap joints, Segalman 2005).
constexpr double kChi = -0.5;
constexpr double kBeta = 0.5;

enum class Family { kUniform, kSegalman, kPressure };

std::unique_ptr<IwanLaw> Make(Family family, int elements, int max_turning_points = 32,
                              double chi = kChi) {
  const IwanParams params{
      .k_t = kKt, .mu = kMu, .elements = elements, .max_turning_points = max_turning_points};
  switch (family) {
    case Family::kUniform:
      return MakeUniformIwan(params);
    case Family::kSegalman:
      return MakeSegalmanIwan({.iwan = params, .chi = chi, .beta = kBeta});
    case Family::kPressure:
      return MakePressureIwan(params);
  }
  return nullptr;
}

std::string Name(Family family) {
  switch (family) {
    case Family::kUniform:
      return "uniform";
    case Family::kSegalman:
      return "segalman";
    case Family::kPressure:
      return "pressure";
  }
  return "?";
}

constexpr Family kFamilies[] = {Family::kUniform, Family::kSegalman, Family::kPressure};

std::vector<TangentialCase> Cases() {
  std::vector<TangentialCase> cases;
  for (const Family family : kFamilies) {
    // Closed form, and 50 Jenkins elements (moderate, for speed).
    for (const int elements : {0, 50}) {
      cases.push_back({"iwan_" + Name(family) + (elements == 0 ? "_closed" : "_discrete50"),
                       [family, elements] { return Make(family, elements); }, 2.0 * kUnit, kNormal,
                       1e-3});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Iwan, TangentialConformance, ::testing::ValuesIn(Cases()), CaseName());

// ---------------------------------------------------------------------------------------
// Independent references, written from the literature rather than from iwan_density.cc.

// Odd extension of a backbone given for delta >= 0.
double Odd(double delta, const std::function<double(double)>& positive) {
  return delta >= 0.0 ? positive(delta) : -positive(-delta);
}

// Original Iwan: eq. 1 with phi = 1 / (2 F_s) on [0, 2 F_s]: T = k d - (k d)^2 / (4 F_s).
double UniformBackbone(double delta, double normal) {
  return Odd(delta, [normal](double d) {
    const double fs = kMu * normal, f = kKt * d;
    return f < 2.0 * fs ? f - f * f / (4.0 * fs) : fs;
  });
}

// Seed 001, eq. 12 (valid up to k_t delta = 6 mu N / pi, gross slip at mu N beyond).
double PressureBackbone(double delta, double normal) {
  return Odd(delta, [normal](double d) {
    const double mun = kMu * normal, kd = kKt * d;
    if (kd >= 6.0 * mun / kPi) return mun;
    const double root =
        std::sqrt(kPi * (6.0 - 2.0 * kPi) * kd / (3.0 * mun) + (kPi - 2.0) * (kPi - 2.0));
    return (2.0 * (kPi - 3.0) * kd - 3.0 * std::pow(kPi - 2.0, 2) * mun / kPi) * root /
               (6.0 * std::pow(kPi - 3.0, 2)) +
           (3.0 * std::pow(kPi - 2.0, 3) * mun / kPi + (3.0 * kPi * kPi - 21.0 * kPi + 36.0) * kd) /
               (6.0 * std::pow(kPi - 3.0, 2));
  });
}

// Segalman 2005: phi_max = F_S (1 + beta) / (K_T (beta + (chi + 1) / (chi + 2))),
// R = F_S (chi + 1) / (phi_max^(chi + 2) (beta + (chi + 1) / (chi + 2))), and for
// u < phi_max the monotonic force K_T u - R u^(chi + 2) / ((chi + 1) (chi + 2)).
double SegalmanBackbone(double delta, double normal, double chi) {
  return Odd(delta, [normal, chi](double u) {
    const double fs = kMu * normal, c = (chi + 1.0) / (chi + 2.0);
    const double phi_max = fs * (1.0 + kBeta) / (kKt * (kBeta + c));
    const double r = fs * (chi + 1.0) / (std::pow(phi_max, chi + 2.0) * (kBeta + c));
    if (u >= phi_max) return fs;
    return kKt * u - r * std::pow(u, chi + 2.0) / ((chi + 1.0) * (chi + 2.0));
  });
}

double Backbone(Family family, double delta, double normal) {
  switch (family) {
    case Family::kUniform:
      return UniformBackbone(delta, normal);
    case Family::kSegalman:
      return SegalmanBackbone(delta, normal, kChi);
    case Family::kPressure:
      return PressureBackbone(delta, normal);
  }
  return 0.0;
}

// Gross-slip onset of the backbone [m] (where it has a kink).
double GrossSlipSlip(Family family) {
  switch (family) {
    case Family::kUniform:
      return 2.0 * kUnit;
    case Family::kSegalman:
      return kUnit * (1.0 + kBeta) / (kBeta + (kChi + 1.0) / (kChi + 2.0));
    case Family::kPressure:
      return 6.0 / kPi * kUnit;
  }
  return 0.0;
}

// 10-point Gauss-Legendre rule on [a, b].
double GaussLegendre(const std::function<double(double)>& f, double a, double b) {
  VecX x, w;
  jointdyn::GaussLegendre(10, x, w);
  double sum = 0.0;
  for (int i = 0; i < x.size(); ++i) sum += w(i) * f(0.5 * (a + b) + 0.5 * (b - a) * x(i));
  return 0.5 * (b - a) * sum;
}

// int_0^a f with panels graded geometrically towards 0 (Segalman's backbone has an
// unbounded second derivative there), split at the kink.
double Integrate(const std::function<double(double)>& f, double a, double kink) {
  const auto graded = [&f](double b) {
    double sum = 0.0;
    for (int k = 0; k < 60; ++k)
      sum += GaussLegendre(f, b * std::ldexp(1.0, -k - 1), b * std::ldexp(1.0, -k));
    return sum;
  };
  if (a <= kink) return graded(a);
  double sum = graded(kink);
  for (int k = 0; k < 64; ++k)
    sum += GaussLegendre(f, kink + (a - kink) * k / 64.0, kink + (a - kink) * (k + 1) / 64.0);
  return sum;
}

// ---------------------------------------------------------------------------------------
// Path drivers.

// Piecewise-linear path through `corners`, each leg cut into `steps` equal steps.
std::vector<double> Legs(const std::vector<double>& corners, int steps) {
  std::vector<double> path{corners.front()};
  for (size_t c = 1; c < corners.size(); ++c)
    for (int i = 1; i <= steps; ++i)
      path.push_back(corners[c - 1] + (corners[c] - corners[c - 1]) * i / steps);
  return path;
}

// Path on the integer grid delta = index * unit / 100 through integer corners, so that
// equal indices give bitwise equal slips on every path.
std::vector<double> GridPath(const std::vector<int>& corners) {
  std::vector<double> path{corners.front() * kUnit / 100.0};
  for (size_t c = 1; c < corners.size(); ++c) {
    const int step = corners[c] > corners[c - 1] ? 1 : -1;
    for (int i = corners[c - 1] + step; i != corners[c] + step; i += step)
      path.push_back(i * kUnit / 100.0);
  }
  return path;
}

// Forces of a fresh point stepped along `path` at constant normal load.
std::vector<double> Drive(const TangentialLaw& law, const std::vector<double>& path,
                          double normal = kNormal) {
  LawPoint point(law);
  std::vector<double> forces;
  for (const double s : path) {
    TangentialResponse r;
    const Status status = point.Step({Vec2(s, 0.0), normal, 1e-3}, r);
    EXPECT_TRUE(status.ok) << status.message;
    forces.push_back(r.traction.x());
  }
  return forces;
}

// Trapezoidal work of the forces along the path from sample `begin` to the end.
double Work(const std::vector<double>& path, const std::vector<double>& forces, size_t begin) {
  double work = 0.0;
  for (size_t i = begin + 1; i < path.size(); ++i)
    work += 0.5 * (forces[i] + forces[i - 1]) * (path[i] - path[i - 1]);
  return work;
}

// Dissipation per cycle of a symmetric displacement cycle of amplitude `amplitude`:
// virgin loading to +A, then A -> -A -> A; the closed loop's trapezoidal work.
double CycleDissipation(const TangentialLaw& law, double amplitude, int steps) {
  const auto path = Legs({0.0, amplitude, -amplitude, amplitude}, steps);
  return Work(path, Drive(law, path), steps);
}

// Least-squares slope of log(y) against log(x).
double LogLogSlope(const std::vector<double>& x, const std::vector<double>& y) {
  double mx = 0.0, my = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    mx += std::log(x[i]) / x.size();
    my += std::log(y[i]) / x.size();
  }
  double sxy = 0.0, sxx = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (std::log(x[i]) - mx) * (std::log(y[i]) - my);
    sxx += (std::log(x[i]) - mx) * (std::log(x[i]) - mx);
  }
  return sxy / sxx;
}

std::vector<double> LogSpace(double lo, double hi, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(lo * std::pow(hi / lo, i / (n - 1.0)));
  return v;
}

// ---------------------------------------------------------------------------------------

TEST(Iwan, VirginLoadingFollowsThePublishedBackbones) {
  // Reference: the closed-form backbones above (eq. 1 uniform, seed eq. 12, Segalman 2005),
  // at two normal loads; tolerance: round-off of eq. 12 (about 1e-13 F_s).
  for (const Family family : kFamilies) {
    const auto law = Make(family, 0);
    for (const double normal : {kNormal, 0.37 * kNormal}) {
      for (const double sign : {1.0, -1.0}) {
        const auto path = Legs({0.0, sign * 3.0 * kUnit}, 300);
        const auto forces = Drive(*law, path, normal);
        for (size_t i = 0; i < path.size(); ++i)
          EXPECT_NEAR(forces[i], Backbone(family, path[i], normal), 1e-12 * kMu * normal)
              << Name(family) << " delta " << path[i] << " N " << normal;
      }
    }
  }
}

TEST(Iwan, MasingLoopEnergyMatchesBackboneQuadrature) {
  // Masing loop of amplitude A: upper branch -T_b(A) + 2 T_b((d + A) / 2), lower branch
  // T_b(A) - 2 T_b((A - d) / 2), so W = int_{-A}^{A} (upper - lower) = 8 int_0^A T_b - 4 A T_b(A).
  // T_b from the published closed forms, integrated by Gauss-Legendre; the law's loop work
  // by the trapezoid rule with 4000 steps per leg (relative error ~ 1 / (2 * 4000^2)).
  for (const Family family : kFamilies) {
    const auto law = Make(family, 0);
    for (const double a : {0.3, 1.0, 3.0}) {
      const double amplitude = a * kUnit;
      const auto tb = [family](double d) { return Backbone(family, d, kNormal); };
      const double exact =
          8.0 * Integrate(tb, amplitude, GrossSlipSlip(family)) - 4.0 * amplitude * tb(amplitude);
      const double work = CycleDissipation(*law, amplitude, 4000);
      EXPECT_NEAR(work / exact, 1.0, 1e-6) << Name(family) << " A = " << a << " F_s/k_t";
      std::printf("%s Masing loop energy, A = %.1f F_s / k_t: relative error %.2e\n",
                  Name(family).c_str(), a, std::abs(work / exact - 1.0));
    }
  }
}

TEST(Iwan, UniformMicroslipDissipationSlopeIsThree) {
  // Original Iwan below gross slip: W = 8 int_0^A T_b - 4 A T_b(A) with
  // T_b = k d - (k d)^2 / (4 F_s) gives W = (F_s^2 / k_t) (k_t A / F_s)^3 / 3: slope 3.
  const auto law = Make(Family::kUniform, 0);
  const auto amplitudes = LogSpace(0.01 * kUnit, 0.1 * kUnit, 5);
  std::vector<double> w;
  for (const double a : amplitudes) w.push_back(CycleDissipation(*law, a, 2000));
  const double slope = LogLogSlope(amplitudes, w);
  EXPECT_NEAR(slope, 3.0, 0.01);
  std::printf("iwan_uniform micro-slip dissipation slope %.5f\n", slope);
}

TEST(Iwan, SegalmanMicroslipDissipationSlopeIsThreePlusChi) {
  // Segalman 2005: D ~ A^(3 + chi) below gross slip; for displacement amplitudes it is
  // exact: W = 8 int_0^A T_b - 4 A T_b(A) = 4 R A^(chi + 3) / ((chi + 2) (chi + 3)).
  for (const double chi : {-0.5, -0.2, 0.0}) {
    const auto law = Make(Family::kSegalman, 0, 32, chi);
    const auto amplitudes = LogSpace(0.01 * kUnit, 0.1 * kUnit, 5);
    std::vector<double> w;
    for (const double a : amplitudes) w.push_back(CycleDissipation(*law, a, 2000));
    const double slope = LogLogSlope(amplitudes, w);
    EXPECT_NEAR(slope, 3.0 + chi, 0.01) << "chi = " << chi;
    std::printf("iwan_segalman chi = %.1f: micro-slip dissipation slope %.5f\n", chi, slope);
  }
}

TEST(Iwan, PressureDissipationSlopeOfSeedFigure9) {
  // Seed 001 (fig. 9): "the slope of the curves is about 2.95" in log-log coordinates of W
  // against k_t delta_m / (mu N); the text gives neither the amplitude range nor the
  // sampling. The density (eq. 11) grows with the strength, so in micro-slip the local
  // slope is 3 at small amplitudes and rises above 3 towards gross slip
  // (k_t A / (mu N) = 6 / pi); beyond it falls towards 1. A straight fit reaches 2.95 only
  // across the gross-slip onset. Checked: local slope 3 (+-0.01) at amplitudes 1e-3..2e-3,
  // above 3.05 at 1..1.8 (3.10 by the closed form 4 A M1(A) - 4 M2(A)), and the
  // least-squares slope over 40 log-spaced amplitudes in [0.1, 4] (the range where such a
  // fit gives the seed's value: this pins the reported figure 2.953) within 0.01 of 2.95.
  const auto law = Make(Family::kPressure, 0);
  const auto slope = [&](double lo, double hi, int n) {
    const auto amplitudes = LogSpace(lo * kUnit, hi * kUnit, n);
    std::vector<double> w;
    for (const double a : amplitudes) w.push_back(CycleDissipation(*law, a, 2000));
    return LogLogSlope(amplitudes, w);
  };
  const double small = slope(1e-3, 2e-3, 3), near_gross = slope(1.0, 1.8, 3);
  const double fig9 = slope(0.1, 4.0, 40);
  std::printf(
      "iwan_pressure dissipation slope: %.4f at A in [1e-3, 2e-3], %.4f in [1, 1.8], "
      "fit %.4f over [0.1, 4] (units mu N / k_t)\n",
      small, near_gross, fig9);
  EXPECT_NEAR(small, 3.0, 0.01);
  EXPECT_GT(near_gross, 3.05);
  EXPECT_NEAR(fig9, 2.95, 0.01);
}

TEST(Iwan, PressureClosedFormMatches2000JenkinsElementsOnLoops) {
  // Reference: N_J = 2000 Jenkins elements (midpoint quantile strengths), an independent
  // evaluation path (per-element return mapping, no Masing formula). Tolerance 1e-3 of
  // the largest force of the loop, and 1e-3 relative on the dissipation per cycle.
  const auto closed = Make(Family::kPressure, 0);
  const auto discrete = Make(Family::kPressure, 2000);
  for (const double a : {0.2, 1.0, 3.0}) {
    const double amplitude = a * kUnit;
    const auto path = Legs({0.0, amplitude, -amplitude, amplitude}, 1000);
    const auto fc = Drive(*closed, path), fd = Drive(*discrete, path);
    double scale = 0.0, error = 0.0;
    for (size_t i = 0; i < path.size(); ++i) {
      scale = std::max(scale, std::abs(fc[i]));
      error = std::max(error, std::abs(fc[i] - fd[i]));
    }
    EXPECT_LE(error, 1e-3 * scale) << "A = " << a;
    const double wc = Work(path, fc, 1000), wd = Work(path, fd, 1000);
    EXPECT_NEAR(wd / wc, 1.0, 1e-3) << "A = " << a;
    std::printf(
        "iwan_pressure A = %.1f mu N / k_t: force error %.2e of max, dissipation error "
        "%.2e (N_J = 2000)\n",
        a, error / scale, std::abs(wd / wc - 1.0));
  }
}

// Nested sub-loops with wipe-outs at several levels (hundredths of mu N / k_t): outer
// loop 140 / -60, sub-loops (20, -10) and (50, 30) with (45, 35) inside, closed at 50 and
// 90; then -100 wipes the -60 / 90 pair; 160 wipes everything back to the virgin curve;
// -260 crosses its mirror into negative gross slip.
const std::vector<int> kNestedCorners{0,  140, -60,  20,  -10, 50,  30,   45,
                                      35, 90,  -100, 120, 80,  160, -260, 0};

TEST(Iwan, NestedSubLoopsClosedFormMatches2000JenkinsElements) {
  const auto path = GridPath(kNestedCorners);
  for (const Family family : kFamilies) {
    const auto fc = Drive(*Make(family, 0), path);
    const auto fd = Drive(*Make(family, 2000), path);
    double error = 0.0;
    for (size_t i = 0; i < path.size(); ++i) error = std::max(error, std::abs(fc[i] - fd[i]));
    // Every path reaches gross slip, so the largest force is F_s.
    EXPECT_LE(error, 1e-3 * kFs) << Name(family);
    std::printf("%s nested path: max |closed - discrete| = %.2e F_s (N_J = 2000)\n",
                Name(family).c_str(), error / kFs);
  }
}

TEST(Iwan, StoredEnergyMatchesJenkinsElementsAndEveryStepDissipates) {
  // Reference: the spring energies of N_J = 2000 Jenkins elements (sum of q_i^2 / (2 k_i)),
  // within 1e-3 of the largest energy on the path. Each step is one monotonic move, so
  // for every element the trapezoidal work minus its energy change is >= 0 exactly
  // (stick: equal; slip: (q_n + f)(d_delta - (f - q_n) / k) / 2 >= 0); the closed form
  // integrates the same elements, so its step dissipation is >= 0 up to round-off
  // (1e-12 of F_s times the slip unit).
  const auto path = GridPath(kNestedCorners);
  for (const Family family : kFamilies) {
    const auto closed = Make(family, 0), discrete = Make(family, 2000);
    LawPoint pc(*closed), pd(*discrete);
    TangentialResponse rc, rd, previous;
    double largest = 0.0, error = 0.0, worst_step = 0.0, slip = 0.0;
    for (const double s : path) {
      ASSERT_TRUE(pc.Step({Vec2(s, 0.0), kNormal, 1e-3}, rc).ok);
      ASSERT_TRUE(pd.Step({Vec2(s, 0.0), kNormal, 1e-3}, rd).ok);
      largest = std::max(largest, rc.stored_energy);
      error = std::max(error, std::abs(rc.stored_energy - rd.stored_energy));
      const double work = 0.5 * (rc.traction.x() + previous.traction.x()) * (s - slip);
      worst_step = std::min(worst_step, work - (rc.stored_energy - previous.stored_energy));
      previous = rc;
      slip = s;
    }
    EXPECT_LE(error, 1e-3 * largest) << Name(family);
    EXPECT_GE(worst_step, -1e-12 * kFs * kUnit) << Name(family);
    std::printf(
        "%s nested path: stored energy |closed - discrete| = %.2e of max, worst step "
        "dissipation %.2e F_s unit\n",
        Name(family).c_str(), error / largest, worst_step / (kFs * kUnit));
  }
}

TEST(Iwan, ResponseAtCornersIsIndependentOfTheStepping) {
  // Rate independence of the memory: one increment per leg (several wipe-outs in one
  // increment) lands on the same memory and force as 1/100-unit steps.
  const auto fine = GridPath(kNestedCorners);
  std::vector<double> corners;
  for (const int c : kNestedCorners) corners.push_back(c * kUnit / 100.0);
  for (const Family family : kFamilies) {
    for (const int elements : {0, 2000}) {
      const auto law = Make(family, elements);
      LawPoint coarse(*law), stepped(*law);
      TangentialResponse rc, rs;
      size_t next = 0;
      for (const double s : fine) {
        ASSERT_TRUE(stepped.Step({Vec2(s, 0.0), kNormal, 1e-3}, rs).ok);
        if (s != corners[next]) continue;
        ASSERT_TRUE(coarse.Step({Vec2(s, 0.0), kNormal, 1e-3}, rc).ok);
        ++next;
        if (elements == 0) {
          EXPECT_EQ(rc.traction.x(), rs.traction.x()) << Name(family) << " at " << s;
          EXPECT_EQ(coarse.committed(), stepped.committed()) << Name(family) << " at " << s;
        } else {
          EXPECT_NEAR(rc.traction.x(), rs.traction.x(), 1e-12 * kFs) << Name(family) << " at " << s;
        }
      }
      EXPECT_EQ(next, corners.size());
    }
  }
}

TEST(Iwan, WipeOutContinuesOnTheOuterBranchExactly) {
  // After a sub-loop closes, the force is the outer branch's: bitwise equal to the path
  // without the sub-loop at the same slip, with the same memory.
  const std::vector<int> with{0, 140, -60, 20, -10, 50, 30, 45, 35, 90};
  const std::vector<int> without{0, 140, -60, 90};
  const std::vector<int> to_return{0, 140, -60, 20, -10, 20};
  for (const Family family : kFamilies) {
    const auto law = Make(family, 0);
    const auto a = GridPath(with), b = GridPath(without);
    const auto fa = Drive(*law, a), fb = Drive(*law, b);
    // The last 40 samples of both paths are slips 0.51 .. 0.90 on the branch from -0.60.
    for (int i = 1; i <= 40; ++i) {
      ASSERT_EQ(a[a.size() - i], b[b.size() - i]);
      EXPECT_EQ(fa[fa.size() - i], fb[fb.size() - i]) << Name(family) << " at " << a[a.size() - i];
    }
    // Return-point memory: closing the (20, -10) loop at 20 gives the force of the first
    // visit to 20.
    const auto r = GridPath(to_return);
    const auto fr = Drive(*law, r);
    const size_t first = 140 + 200 + 80;  // index of the first visit to 20
    ASSERT_EQ(r[first], r.back());
    EXPECT_EQ(fr[first], fr.back()) << Name(family);
    // And the memory is the outer branch's again.
    LawPoint pa(*law), pb(*law);
    TangentialResponse out;
    for (const double s : a) ASSERT_TRUE(pa.Step({Vec2(s, 0.0), kNormal, 1e-3}, out).ok);
    for (const double s : b) ASSERT_TRUE(pb.Step({Vec2(s, 0.0), kNormal, 1e-3}, out).ok);
    EXPECT_EQ(pa.committed(), pb.committed()) << Name(family);
  }
}

TEST(Iwan, MemoryOverflowIsAFailureStatus) {
  const auto law = Make(Family::kPressure, 0, 4);
  LawPoint point(*law);
  TangentialResponse r;
  // Shrinking alternating amplitudes: turning points at 100, -90, 80, -70 fill the memory.
  for (const double s : GridPath({0, 100, -90, 80, -70, 60}))
    ASSERT_TRUE(point.Step({Vec2(s, 0.0), kNormal, 1e-3}, r).ok);
  const std::vector<double> before = point.committed();
  const Status status = point.Step({Vec2(0.59 * kUnit, 0.0), kNormal, 1e-3}, r);
  EXPECT_FALSE(status.ok);
  EXPECT_NE(status.message.find("max_turning_points = 4"), std::string::npos) << status.message;
  EXPECT_EQ(point.committed(), before);
  // A reversal whose new point is wiped out in the same increment needs no room.
  EXPECT_TRUE(point.Step({Vec2(-0.75 * kUnit, 0.0), kNormal, 1e-3}, r).ok);
}

TEST(Iwan, ClosedFormIsAFunctionOfSlipHistoryAndCurrentNormalLoad) {
  // The memory holds slips only: after the same slip path at different normal loads, the
  // response at (delta, N) is identical, and |T| <= mu N.
  const auto path = GridPath(kNestedCorners);
  for (const Family family : kFamilies) {
    const auto law = Make(family, 0);
    LawPoint varying(*law), constant(*law);
    TangentialResponse rv, rc;
    for (size_t i = 0; i < path.size(); ++i) {
      const double normal = kNormal * (1.0 + 0.6 * std::sin(0.37 * i));
      ASSERT_TRUE(varying.Step({Vec2(path[i], 0.0), normal, 1e-3}, rv).ok);
      EXPECT_LE(std::abs(rv.traction.x()), kMu * normal * (1.0 + 1e-14));
      ASSERT_TRUE(constant.Step({Vec2(path[i], 0.0), kNormal, 1e-3}, rc).ok);
    }
    EXPECT_EQ(varying.committed(), constant.committed());
    const TangentialInput probe{Vec2(-0.4 * kUnit, 0.0), 0.8 * kNormal, 1e-3};
    ASSERT_TRUE(varying.Trial(probe, rv).ok);
    ASSERT_TRUE(constant.Trial(probe, rc).ok);
    EXPECT_EQ(rv.traction, rc.traction) << Name(family);
  }
}

TEST(Iwan, OpenContactCarriesNothingAndRestartsOnTheVirginCurve) {
  for (const Family family : kFamilies) {
    for (const int elements : {0, 2000}) {
      const auto law = Make(family, elements);
      LawPoint point(*law);
      TangentialResponse r;
      ASSERT_TRUE(point.Step({Vec2(2.5 * kUnit, 0.0), kNormal, 1e-3}, r).ok);
      ASSERT_TRUE(point.Step({Vec2(3.0 * kUnit, 0.0), 0.0, 1e-3}, r).ok);
      EXPECT_EQ(r.state, ContactState::kOpen);
      EXPECT_EQ(r.traction.x(), 0.0);
      EXPECT_EQ(r.stored_energy, 0.0);
      ASSERT_TRUE(point.Step({Vec2(3.0 * kUnit, 0.0), kNormal, 1e-3}, r).ok);
      EXPECT_EQ(r.traction.x(), 0.0);
      // Virgin curve from the re-contact slip (closed form exact, discrete within 1e-3 F_s).
      ASSERT_TRUE(point.Step({Vec2(2.2 * kUnit, 0.0), kNormal, 1e-3}, r).ok);
      EXPECT_NEAR(r.traction.x(), Backbone(family, -0.8 * kUnit, kNormal),
                  (elements == 0 ? 1e-12 : 1e-3) * kFs)
          << Name(family) << " elements " << elements;
    }
  }
}

TEST(Iwan, TypesStateSizesAndParameterChecks) {
  EXPECT_EQ(Make(Family::kUniform, 0)->type(), "iwan_uniform");
  EXPECT_EQ(Make(Family::kSegalman, 0)->type(), "iwan_segalman");
  EXPECT_EQ(Make(Family::kPressure, 0)->type(), "iwan_pressure");
  EXPECT_EQ(Make(Family::kPressure, 0, 32)->state_size(), 35);
  EXPECT_EQ(Make(Family::kPressure, 50)->state_size(), 50);
  EXPECT_EQ(Make(Family::kPressure, 50)->dim(), 1);
  const IwanParams good{.k_t = kKt, .mu = kMu};
  EXPECT_THROW(MakeUniformIwan({.k_t = 0.0, .mu = kMu}), InputError);
  EXPECT_THROW(MakeUniformIwan({.k_t = kKt, .mu = 0.0}), InputError);
  EXPECT_THROW(MakePressureIwan({.k_t = kKt, .mu = kMu, .elements = -1}), InputError);
  EXPECT_THROW(MakePressureIwan({.k_t = kKt, .mu = kMu, .max_turning_points = 0}), InputError);
  EXPECT_THROW(MakeSegalmanIwan({.iwan = good, .chi = -1.0, .beta = 0.5}), InputError);
  EXPECT_THROW(MakeSegalmanIwan({.iwan = good, .chi = 0.1, .beta = 0.5}), InputError);
  try {
    MakeSegalmanIwan({.iwan = good, .chi = -0.5, .beta = -2.0});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "beta = -2: must be >= 0 and finite");
  }
}

}  // namespace
}  // namespace jointdyn::laws
