#include "laws/test/conformance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "laws/law_point.h"

namespace jointdyn::laws::conformance {
namespace {

constexpr int kRandomStates = 200;
constexpr double kTangentTolerance = 1e-6;

// Walks a fresh point along a seeded random path and returns it with its history.
LawPoint RandomState(const TangentialLaw& law, const TangentialCase& c, std::mt19937& rng,
                     Vec2& slip, double& pressure) {
  LawPoint point(law);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> steps(0, 12);
  slip.setZero();
  pressure = c.pressure;
  const int n = steps(rng);
  for (int i = 0; i < n; ++i) {
    slip += c.slip_scale * Vec2(unit(rng), law.dim() == 2 ? unit(rng) : 0.0);
    pressure = c.pressure * (1.0 + 0.5 * unit(rng));
    TangentialResponse response;
    EXPECT_TRUE(point.Step({slip, pressure, c.dt}, response).ok);
  }
  return point;
}

struct Columns {
  Eigen::Matrix<double, 2, 3> d;  // d traction / d (s_x, s_y, p)
  bool smooth = true;             // same state on both sides, one-sided slopes agree
};

// Central differences of the trial traction at `in` from the point's committed history.
Columns CentralDifferences(LawPoint& point, const TangentialInput& in, double h_slip,
                           double h_pressure) {
  Columns result;
  TangentialResponse center;
  EXPECT_TRUE(point.Trial(in, center).ok);
  const int directions = point.law().dim() == 2 ? 3 : 2;
  result.d.setZero();
  for (int k = 0; k < 3; ++k) {
    if (k == 1 && directions == 2) continue;  // 1D: no y column
    const double h = k < 2 ? h_slip : h_pressure;
    TangentialInput plus = in, minus = in;
    if (k < 2) {
      plus.slip[k] += h;
      minus.slip[k] -= h;
    } else {
      plus.pressure += h;
      minus.pressure -= h;
    }
    TangentialResponse rp, rm;
    EXPECT_TRUE(point.Trial(plus, rp).ok);
    EXPECT_TRUE(point.Trial(minus, rm).ok);
    result.d.col(k) = (rp.traction - rm.traction) / (2.0 * h);
    const Vec2 forward = (rp.traction - center.traction) / h;
    const Vec2 backward = (center.traction - rm.traction) / h;
    const double scale = std::max({forward.norm(), backward.norm(), 1e-300});
    if (rp.state != center.state || rm.state != center.state ||
        (forward - backward).norm() > 1e-3 * scale)
      result.smooth = false;
  }
  return result;
}

double Dissipation(const TangentialLaw& law, const TangentialCase& c, const std::vector<Vec2>& path,
                   double dt) {
  LawPoint point(law);
  TangentialResponse previous;
  EXPECT_TRUE(point.Step({path.front(), c.pressure, dt}, previous).ok);
  const double energy_start = previous.stored_energy;
  double work = 0.0;
  for (size_t i = 1; i < path.size(); ++i) {
    TangentialResponse r;
    EXPECT_TRUE(point.Step({path[i], c.pressure, dt}, r).ok);
    work += 0.5 * (previous.traction + r.traction).dot(path[i] - path[i - 1]);
    previous = r;
  }
  return work - (previous.stored_energy - energy_start);
}

std::vector<Vec2> Ellipse(double ax, double ay, int cycles, int per_cycle) {
  std::vector<Vec2> path;
  for (int i = 0; i <= cycles * per_cycle; ++i) {
    const double phase = 2.0 * M_PI * i / per_cycle;
    path.emplace_back(ax * std::sin(phase), ay * (1.0 - std::cos(phase)));
  }
  return path;
}

}  // namespace

TEST_P(TangentialConformance, TangentMatchesCentralDifferences) {
  const TangentialCase& c = GetParam();
  const auto law = c.make();
  std::mt19937 rng(20261122);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  int checked = 0;
  for (int trial = 0; trial < kRandomStates; ++trial) {
    Vec2 slip;
    double pressure;
    LawPoint point = RandomState(*law, c, rng, slip, pressure);
    const TangentialInput in{
        slip + c.slip_scale * Vec2(unit(rng), law->dim() == 2 ? unit(rng) : 0.0),
        c.pressure * (1.0 + 0.5 * unit(rng)), c.dt};
    TangentialResponse analytic;
    ASSERT_TRUE(point.Trial(in, analytic).ok);
    const double h_slip = 1e-6 * c.slip_scale, h_pressure = 1e-6 * c.pressure;
    const Columns fd = CentralDifferences(point, in, h_slip, h_pressure);
    if (!fd.smooth) continue;
    Eigen::Matrix<double, 2, 3> exact;
    exact << analytic.d_traction_d_slip, analytic.d_traction_d_pressure;
    if (law->dim() == 1) exact.col(1).setZero();
    // Scale each block by its own magnitude (slip and pressure columns differ in units),
    // plus the rounding floor of a central difference, 8 eps |tau| / (2 h): a derivative
    // far smaller than |tau| / h cannot be resolved by differences at all.
    for (int block = 0; block < 2; ++block) {
      const auto e = block == 0 ? exact.leftCols(2).eval() : exact.rightCols(1).eval();
      const auto f = block == 0 ? fd.d.leftCols(2).eval() : fd.d.rightCols(1).eval();
      const double scale = std::max(e.norm(), f.norm());
      if (scale == 0.0) continue;
      const double h = block == 0 ? h_slip : h_pressure;
      const double floor =
          8.0 * std::numeric_limits<double>::epsilon() * analytic.traction.norm() / (2.0 * h);
      EXPECT_LE((e - f).norm(), kTangentTolerance * scale + floor)
          << c.name << " state " << trial << (block == 0 ? " d tau/d s" : " d tau/d p")
          << "\nanalytic\n"
          << e << "\ncentral differences\n"
          << f;
    }
    ++checked;
  }
  EXPECT_GE(checked, kRandomStates / 2) << "too many random states at switching points";
}

TEST_P(TangentialConformance, ZeroTractionAtVirginState) {
  const TangentialCase& c = GetParam();
  const auto law = c.make();
  LawPoint point(*law);
  TangentialResponse r;
  ASSERT_TRUE(point.Trial({Vec2::Zero(), c.pressure, c.dt}, r).ok);
  EXPECT_EQ(r.traction.norm(), 0.0);
  EXPECT_EQ(r.stored_energy, 0.0);
}

TEST_P(TangentialConformance, NonNegativeDissipationOverClosedCycles) {
  const TangentialCase& c = GetParam();
  const auto law = c.make();
  const double a = 3.0 * c.slip_scale;
  const double ay = law->dim() == 2 ? 0.7 * a : 0.0;
  for (const double amplitude : {0.01 * a, 0.3 * a, a}) {
    const auto path = Ellipse(amplitude, ay * amplitude / a, 3, 400);
    const double d = Dissipation(*law, c, path, c.dt);
    // Loop work scale: traction at the largest slip times the path length.
    EXPECT_GE(d, -1e-9 * std::abs(d) - 1e-12) << c.name << " amplitude " << amplitude;
  }
  // A random closed polygon.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<Vec2> path{Vec2::Zero()};
  for (int i = 0; i < 300; ++i)
    path.push_back(a * Vec2(unit(rng), law->dim() == 2 ? unit(rng) : 0.0));
  path.push_back(Vec2::Zero());
  // Refine each leg so rate-dependent laws see moderate rates.
  std::vector<Vec2> fine;
  for (size_t i = 0; i + 1 < path.size(); ++i)
    for (int k = 0; k < 20; ++k) fine.push_back(path[i] + (path[i + 1] - path[i]) * (k / 20.0));
  fine.push_back(path.back());
  EXPECT_GE(Dissipation(*law, c, fine, c.dt), -1e-12) << c.name << " random polygon";
}

TEST_P(TangentialConformance, EvaluateCommitRollbackIdempotent) {
  const TangentialCase& c = GetParam();
  const auto law = c.make();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    Vec2 slip;
    double pressure;
    LawPoint point = RandomState(*law, c, rng, slip, pressure);
    const std::vector<double> before = point.committed();
    const TangentialInput a{slip + c.slip_scale * Vec2(unit(rng), unit(rng)), c.pressure, c.dt};
    const TangentialInput b{slip + c.slip_scale * Vec2(unit(rng), unit(rng)), c.pressure, c.dt};
    TangentialResponse ra1, rb, ra2;
    ASSERT_TRUE(point.Trial(a, ra1).ok);
    const std::vector<double> trial_a = point.trial();
    ASSERT_TRUE(point.Trial(b, rb).ok);   // a rejected trial ...
    ASSERT_TRUE(point.Trial(a, ra2).ok);  // ... leaves no trace
    EXPECT_EQ(point.committed(), before);
    EXPECT_EQ(point.trial(), trial_a);
    EXPECT_EQ(ra1.traction, ra2.traction);
    EXPECT_EQ(ra1.d_traction_d_slip, ra2.d_traction_d_slip);
    EXPECT_EQ(ra1.stored_energy, ra2.stored_energy);
    if (law->rate_independent()) {
      // After committing, a zero increment returns the same traction.
      TangentialResponse committed, again;
      ASSERT_TRUE(point.Step(a, committed).ok);
      ASSERT_TRUE(point.Trial(a, again).ok);
      EXPECT_NEAR((again.traction - committed.traction).norm(), 0.0,
                  1e-12 * committed.traction.norm());
    }
  }
}

TEST_P(TangentialConformance, RateIndependentLawsGiveTheSameLoopAt1HzAnd1kHz) {
  const TangentialCase& c = GetParam();
  const auto law = c.make();
  if (!law->rate_independent()) GTEST_SKIP() << c.name << " is rate-dependent";
  const auto path = Ellipse(3.0 * c.slip_scale, law->dim() == 2 ? 2.0 * c.slip_scale : 0.0, 2, 200);
  LawPoint slow(*law), fast(*law);
  for (const Vec2& s : path) {
    TangentialResponse rs, rf;
    ASSERT_TRUE(slow.Step({s, c.pressure, 1.0 / 200}, rs).ok);
    ASSERT_TRUE(fast.Step({s, c.pressure, 1e-3 / 200}, rf).ok);
    EXPECT_NEAR((rs.traction - rf.traction).norm(), 0.0, 1e-12 * rs.traction.norm() + 1e-300);
  }
}

TEST_P(TangentialConformance, RateDependentLawsRejectBadTimeSteps) {
  const TangentialCase& c = GetParam();
  const auto law = c.make();
  if (law->rate_independent()) GTEST_SKIP() << c.name << " does not use dt";
  LawPoint point(*law);
  TangentialResponse r;
  for (const double dt : {0.0, -1e-3, std::nan("")}) {
    const Status status = point.Trial({Vec2(c.slip_scale, 0.0), c.pressure, dt}, r);
    EXPECT_FALSE(status.ok) << c.name << " accepted dt = " << dt;
    EXPECT_NE(status.message.find("dt"), std::string::npos) << status.message;
  }
}

TEST_P(NormalConformance, TangentsMatchCentralDifferences) {
  const NormalCase& c = GetParam();
  const auto law = c.make();
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const double onset = law->contact_onset_gap();
  int checked = 0;
  for (int i = 0; i < kRandomStates; ++i) {
    const double g = onset - c.gap_scale * (1.5 + 1.5 * unit(rng));
    const double v = c.gap_rate_scale * unit(rng);
    const NormalResponse r = law->Evaluate(g, v);
    const double hg = 1e-6 * c.gap_scale, hv = 1e-6 * c.gap_rate_scale;
    const NormalResponse gp = law->Evaluate(g + hg, v), gm = law->Evaluate(g - hg, v);
    const NormalResponse vp = law->Evaluate(g, v + hv), vm = law->Evaluate(g, v - hv);
    const double fwd = (gp.pressure - r.pressure) / hg, bwd = (r.pressure - gm.pressure) / hg;
    if (std::abs(fwd - bwd) > 1e-3 * std::max(std::abs(fwd), std::abs(bwd))) continue;
    const double dg = (gp.pressure - gm.pressure) / (2 * hg);
    const double dv = (vp.pressure - vm.pressure) / (2 * hv);
    EXPECT_NEAR(r.d_pressure_d_gap, dg, kTangentTolerance * std::abs(dg) + 1e-300)
        << c.name << " g = " << g;
    EXPECT_NEAR(r.d_pressure_d_gap_rate, dv, kTangentTolerance * std::abs(dv) + 1e-300)
        << c.name << " g = " << g << " g_dot = " << v;
    // The stored energy is the integral of the elastic pressure: dE/dg = -p(g, 0).
    const double de =
        (law->Evaluate(g + hg, 0.0).stored_energy - law->Evaluate(g - hg, 0.0).stored_energy) /
        (2 * hg);
    const double p0 = law->Evaluate(g, 0.0).pressure;
    EXPECT_NEAR(de, -p0, kTangentTolerance * std::abs(p0) + 1e-300) << c.name << " g = " << g;
    ++checked;
  }
  EXPECT_GE(checked, kRandomStates / 2);
}

TEST_P(NormalConformance, OpenGapCarriesNothingAndPressureIsCompressive) {
  const NormalCase& c = GetParam();
  const auto law = c.make();
  const double onset = law->contact_onset_gap();
  for (const double above : {0.0, 1e-3, 1.0, 1e3}) {
    for (const double v : {-1.0, 0.0, 1.0}) {
      const NormalResponse r = law->Evaluate(onset + above * c.gap_scale, v * c.gap_rate_scale);
      EXPECT_EQ(r.pressure, 0.0) << c.name;
      EXPECT_EQ(r.stored_energy, 0.0) << c.name;
    }
  }
  for (int i = 0; i <= 100; ++i) {
    for (const double v : {-1.0, 0.0, 1.0}) {
      const NormalResponse r = law->Evaluate(onset - 0.05 * i * c.gap_scale, v * c.gap_rate_scale);
      EXPECT_GE(r.pressure, 0.0) << c.name;
      EXPECT_TRUE(std::isfinite(r.pressure) && std::isfinite(r.d_pressure_d_gap));
    }
  }
}

TEST_P(NormalConformance, NonNegativeDissipationOverACycle) {
  const NormalCase& c = GetParam();
  const auto law = c.make();
  const double onset = law->contact_onset_gap();
  // g(t) = onset - A (1 - cos w t): compress and release, with w chosen so the peak gap
  // rate equals the case's rate scale. Work done on the contact: -closed integral of p dg.
  const double amplitude = 2.0 * c.gap_scale;
  const double omega = c.gap_rate_scale / amplitude;
  const int n = 4000;
  double work = 0.0;
  double g_prev = onset, p_prev = 0.0;
  for (int i = 1; i <= n; ++i) {
    const double phase = 2 * M_PI * i / n;
    const double g = onset - amplitude * (1.0 - std::cos(phase));
    const double v = -amplitude * omega * std::sin(phase);
    const double p = law->Evaluate(g, v).pressure;
    work -= 0.5 * (p + p_prev) * (g - g_prev);
    g_prev = g;
    p_prev = p;
  }
  const double peak = law->Evaluate(onset - 2 * amplitude, 0.0).pressure * amplitude;
  EXPECT_GE(work, -1e-6 * peak) << c.name;
}

}  // namespace jointdyn::laws::conformance
