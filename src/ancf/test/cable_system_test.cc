// ANCF cable structures (cable_system.h) against beam theory: a cantilever under a small
// tip load (Euler-Bernoulli, which cubic elements reproduce exactly), under its own weight
// (exact at the nodes), under a large tip load against the elastica (an independent
// shooting solution, converging at fourth order), its bending frequencies, and its free
// vibration in time integration; a moving pulley as a damped oscillator.
#include "ancf/cable_system.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "time/integrator.h"

namespace jointdyn::ancf {
namespace {

constexpr double kLength = 1.0, kEi = 2.0, kEa = 1e7, kRhoA = 0.5;

// A cantilever along x, clamped at the origin (position and slope), n elements.
CableModel Cantilever(int n) {
  CableModel m =
      StraightCable({0.0, 0.0}, {kLength, 0.0}, n,
                    {.axial_stiffness = kEa, .bending_stiffness = kEi, .mass_per_length = kRhoA});
  m.fixed = {0, 1, 2, 3};
  return m;
}

// Tip deflection under the tip load P (downwards) by Newton in `increments` load steps.
Vec2 TipUnderLoad(int n, double load, int increments) {
  CableModel m = Cantilever(n);
  m.loads = {{n, 1, time::TimeFunction::Ramp(0.0, -load)}};
  CableSystem system(m);
  VecX q = system.InitialPositions();
  for (int i = 1; i <= increments; ++i) {
    const solvers::NewtonResult r = SolveStatic(system, double(i) / increments, q);
    EXPECT_TRUE(r.status) << r.status.message;
  }
  return q.segment<2>(4 * n) - Vec2(kLength, 0.0);
}

// Cubic elements hold the cubic deflection of a tip load exactly, on any mesh: the tip at
// 1e-3 L equals P L^3 / 3 EI up to the geometric nonlinearity, O((1e-3)^2).
TEST(CableSystem, CantileverUnderSmallTipLoadIsEulerBernoulli) {
  const double load = 1e-3 * 3.0 * kEi / (kLength * kLength * kLength);
  for (const int n : {1, 2, 8}) {
    const Vec2 tip = TipUnderLoad(n, load, 1);
    const double exact = -load * std::pow(kLength, 3) / (3.0 * kEi);
    std::printf("cantilever under a small tip load, %d elements: tip error %.2e\n", n,
                tip.y() / exact - 1.0);
    EXPECT_NEAR(tip.y() / exact, 1.0, 2e-6) << n << " elements";
  }
}

// Under its own weight (q = rho A g per length) the tip deflects q L^4 / (8 EI): cubic
// elements with the consistent load give Euler-Bernoulli's nodal deflections exactly on any
// mesh (up to the geometric nonlinearity at a tip deflection of 1e-3 L).
TEST(CableSystem, CantileverUnderItsWeightHasTheExactNodalDeflection) {
  const double g = 1e-3 * 8.0 * kEi / (kRhoA * std::pow(kLength, 4));  // tip 1e-3 L
  const double exact = -kRhoA * g * std::pow(kLength, 4) / (8.0 * kEi);
  std::vector<double> errors;
  for (const int n : {1, 2, 4, 8}) {
    CableModel m = Cantilever(n);
    m.gravity = {0.0, -g};
    CableSystem system(m);
    VecX q = system.InitialPositions();
    ASSERT_TRUE(SolveStatic(system, 0.0, q).status);
    errors.push_back(std::abs(q(4 * n + 1) / exact - 1.0));
    std::printf("cantilever under its weight, %d elements: tip error %.2e\n", n, errors.back());
  }
  for (const double e : errors) EXPECT_LT(e, 2e-6);
}

// The elastica of a cantilever under a tip load P (EI theta'' = P cos(theta), theta(0) = 0,
// theta'(L) = 0) by shooting on theta'(0) with RK4: the tip's displacement.
Vec2 ElasticaTip(double load) {
  const auto integrate = [&](double start, Vec2* tip) {
    double theta = 0.0, rate = start, x = 0.0, y = 0.0;
    const int steps = 20000;
    const double h = kLength / steps;
    const auto f = [&](double t) { return load / kEi * std::cos(t); };
    for (int i = 0; i < steps; ++i) {  // RK4 on (theta, rate, x, y)
      const double k1t = rate, k1r = f(theta), k1x = std::cos(theta), k1y = std::sin(theta);
      const double t2 = theta + 0.5 * h * k1t, r2 = rate + 0.5 * h * k1r;
      const double k2t = r2, k2r = f(t2), k2x = std::cos(t2), k2y = std::sin(t2);
      const double t3 = theta + 0.5 * h * k2t, r3 = rate + 0.5 * h * k2r;
      const double k3t = r3, k3r = f(t3), k3x = std::cos(t3), k3y = std::sin(t3);
      const double t4 = theta + h * k3t, r4 = rate + h * k3r;
      const double k4t = r4, k4r = f(t4), k4x = std::cos(t4), k4y = std::sin(t4);
      theta += h / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t);
      rate += h / 6.0 * (k1r + 2 * k2r + 2 * k3r + k4r);
      x += h / 6.0 * (k1x + 2 * k2x + 2 * k3x + k4x);
      y += h / 6.0 * (k1y + 2 * k2y + 2 * k3y + k4y);
    }
    if (tip) *tip = {x - kLength, y};
    return rate;  // theta'(L), zero at the solution
  };
  double lo = -load * kLength / kEi, hi = 0.0;  // theta'(0) between -P L / EI and 0
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    (integrate(mid, nullptr) > 0.0 ? hi : lo) = mid;
  }
  Vec2 tip;
  integrate(0.5 * (lo + hi), &tip);
  return tip;
}

TEST(CableSystem, CantileverUnderLargeTipLoadFollowsTheElastica) {
  const double load = 2.0 * kEi / (kLength * kLength);  // P L^2 / EI = 2
  const Vec2 exact = ElasticaTip(load);
  std::vector<double> errors;
  for (const int n : {4, 8, 16}) {
    const Vec2 tip = TipUnderLoad(n, load, 10);
    errors.push_back((tip - exact).norm() / kLength);
    std::printf(
        "elastica P L^2 / EI = 2, %2d elements: tip (%.6f, %.6f) L, exact (%.6f, %.6f) L, "
        "error %.2e L\n",
        n, tip.x(), tip.y(), exact.x(), exact.y(), errors.back());
  }
  EXPECT_NEAR(exact.y(), -0.49346, 2e-5);  // Bisshopp and Drucker's table
  EXPECT_LT(errors.back(), 1e-5);
  EXPECT_GT(errors[0] / errors[2], 10.0);
}

// The clamped cable's bending frequencies from its tangent stiffness and consistent mass
// (straight, the clamp's coordinates removed) against Euler-Bernoulli's
// (beta_k L)^2 sqrt(EI / (rho A L^4)) / 2 pi; then its free vibration from the first mode's
// shape in time integration (the clamp as constraints) has that frequency: the time
// between zero crossings of the tip's displacement.
TEST(CableSystem, CantileverVibratesAtItsBendingFrequencies) {
  const int n = 8;
  CableSystem system(Cantilever(n));
  const int size = system.size(), free = size - 4;
  const VecX q0 = system.InitialPositions(), zero = VecX::Zero(size);
  VecX f = zero;
  Matrix k, d;
  k.SetZeroLike(system.mass());
  d.SetZeroLike(system.mass());
  ASSERT_TRUE(system.InternalForce({0.0, 1e-3, &q0, &zero, &q0, false}, f, &k, &d));
  const MatX kf = k.ToDense().bottomRightCorner(free, free);
  const MatX mf = system.mass().ToDense().bottomRightCorner(free, free);
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eigen(kf, mf);
  const double scale = std::sqrt(kEi / (kRhoA * std::pow(kLength, 4))) / (2.0 * M_PI);
  const double beta[3] = {1.8751040687, 4.6940911330, 7.8547574382};
  for (int mode = 0; mode < 3; ++mode) {
    const double hz = std::sqrt(eigen.eigenvalues()(mode)) / (2.0 * M_PI);
    const double exact = beta[mode] * beta[mode] * scale;
    std::printf("cantilever bending mode %d: %.6f Hz, Euler-Bernoulli %.6f Hz, error %.1e\n",
                mode + 1, hz, exact, hz / exact - 1.0);
    EXPECT_NEAR(hz / exact, 1.0, 1e-5 * std::pow(10.0, 1.5 * mode));  // 2e-6, 8e-5, 6e-4
  }
  const double f1 = std::sqrt(eigen.eigenvalues()(0)) / (2.0 * M_PI);
  VecX q = q0;
  const VecX shape = eigen.eigenvectors().col(0);
  q.tail(free) += 1e-3 * kLength * shape / shape(free - 3);  // tip y 1e-3 L
  time::IntegratorOptions options;
  options.alpha = 0.0;
  options.t_end = 2.2 / f1;
  options.dt = 1.0 / (f1 * 400.0);
  options.position_scale = kLength;
  options.newton.line_search = solvers::LineSearch::kNone;  // as SolveStatic (StaticNewton)
  // The residual's scale: above the axial forces' rounding (EA / L_e 1e-16 L: about 1e-8 N).
  options.force_scale = 10.0;
  std::vector<double> crossings;
  double t_prev = 0.0, y_prev = 0.0;
  const time::TransientResult result =
      time::Integrate(system, options, q, zero, [&](const time::StepRecord& r) {
        const double y = (*r.q)(4 * n + 1);
        if (r.t > 0.0 && y_prev * y < 0.0)
          crossings.push_back(t_prev - y_prev * (r.t - t_prev) / (y - y_prev));
        t_prev = r.t;
        y_prev = y;
      });
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_GE(crossings.size(), 4u);
  const double period = crossings[3] - crossings[1];
  std::printf("cantilever free vibration: %.6f Hz against its first mode's %.6f Hz (%.1e)\n",
              1.0 / period, f1, 1.0 / (period * f1) - 1.0);
  EXPECT_NEAR(1.0 / (period * f1), 1.0, 1e-4);  // the trapezoidal rule: (w h)^2 / 12 = 2e-5
}

// A moving pulley out of the cable's reach, on its spring and damper to the ground under
// gravity, released 10 mm above its centre: the damped oscillator m y'' + c y' + k y = -m g
// (the trapezoidal rule's phase error (w h)^2 / 12 is 3e-5 here).
TEST(CableSystem, MovingPulleyIsADampedOscillator) {
  const double mass = 2.0, k = 800.0, c = 4.0, g = 9.81;
  CableModel m = Cantilever(2);
  m.gravity = {0.0, -g};
  m.contact = {.width = 0.01, .normal_stiffness = 1e9};
  m.pulleys = {{.centre = {5.0, 5.0},
                .radius = 0.1,
                .inertia = 0.01,
                .moves = true,
                .shift = {0.0, 0.01},
                .mass = mass,
                .centre_stiffness = k,
                .centre_damping = c}};
  CableSystem system(m);
  time::IntegratorOptions options;
  options.scheme = time::Scheme::kNewmark;
  options.t_end = 0.5;
  options.dt = 1e-3;
  VecX q;
  const time::TransientResult r =
      time::Integrate(system, options, system.InitialPositions(), system.InitialVelocities(),
                      [&](const time::StepRecord& rec) { q = *rec.q; });
  ASSERT_TRUE(r.status) << r.status.message;
  const double w = std::sqrt(k / mass), zeta = c / (2.0 * std::sqrt(k * mass));
  const double wd = w * std::sqrt(1.0 - zeta * zeta), equilibrium = -mass * g / k;
  const double t = 0.5, start = 0.01 - equilibrium;
  const double exact = equilibrium + start * std::exp(-zeta * w * t) *
                                         (std::cos(wd * t) + zeta * w / wd * std::sin(wd * t));
  const int body = system.circles()[system.PulleyCircle(0)].body;
  const double x = q(system.CoordinateIndex(body, mbs::Coordinate::kX));
  const double y = q(system.CoordinateIndex(body, mbs::Coordinate::kY));
  std::printf("moving pulley at t = 0.5 s: y - y0 = %.7f m, exact %.7f m\n", y - 5.0, exact);
  EXPECT_NEAR(x, 5.0, 1e-12);
  EXPECT_NEAR(y - 5.0, exact, 2e-5);
  EXPECT_NEAR(r.energy.numerical_dissipation, 0.0, 1e-6);
}

// A circle on a body of the mechanism, out of the cable's reach: the body hangs from a
// revolute joint to the ground l above its centre (a physical pendulum), released at 0.05
// rad; its period against 2 pi sqrt((J + m l^2) / (m g l)) with the amplitude's correction
// (1 + theta_0^2 / 16). Checks the mechanism's nonlinear constraint inside the cable's system.
TEST(CableSystem, CircleOnAPendulumSwingsWithItsPeriod) {
  const double mass = 3.0, inertia = 0.02, l = 0.4, g = 9.81, start = 0.05;
  CableModel m = Cantilever(2);
  m.gravity = {0.0, -g};
  m.contact = {.width = 0.01, .normal_stiffness = 1e9};
  const Vec2 pivot(5.0, 5.0);
  m.mechanism.bodies = {{.name = "disc",
                         .mass = mass,
                         .inertia = inertia,
                         .position = pivot + l * Vec2(std::sin(start), -std::cos(start)),
                         .angle = start}};
  m.mechanism.markers = {{.name = "pivot", .body = mbs::kGround, .position = pivot},
                         {.name = "arm", .body = 0, .position = {0.0, l}}};
  m.mechanism.joints = {{.name = "hinge", .marker_a = 0, .marker_b = 1}};
  m.circles = {{.name = "disc", .body = 0, .radius = 0.1}};
  CableSystem system(m);
  EXPECT_EQ(system.constraint_count(), int(m.fixed.size()) + 2);
  time::IntegratorOptions options;
  options.scheme = time::Scheme::kNewmark;
  options.t_end = 3.0;
  options.dt = 1e-3;
  const int angle = system.CoordinateIndex(0, mbs::Coordinate::kAngle);
  std::vector<double> crossings;  // downward zero crossings of the angle
  double last_t = 0.0, last = start;
  const time::TransientResult r =
      time::Integrate(system, options, system.InitialPositions(), system.InitialVelocities(),
                      [&](const time::StepRecord& rec) {
                        const double a = (*rec.q)(angle);
                        if (last > 0.0 && a <= 0.0)
                          crossings.push_back(last_t + (rec.t - last_t) * last / (last - a));
                        last_t = rec.t, last = a;
                      });
  ASSERT_TRUE(r.status) << r.status.message;
  ASSERT_GE(crossings.size(), 2u);
  const double period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
  const double exact = 2.0 * M_PI * std::sqrt((inertia + mass * l * l) / (mass * g * l)) *
                       (1.0 + start * start / 16.0);
  std::printf("pendulum with a circle: period %.6f s, exact %.6f s\n", period, exact);
  EXPECT_NEAR(period / exact, 1.0, 2e-4);  // trapezoidal rule: (w h)^2 / 12 = 2.2e-6
  EXPECT_EQ(system.CountContact(0) + system.CountContact(1) + system.CountContact(-1), 0);
}

TEST(CableModel, RejectsBadInput) {
  const auto rule_of = [](CableModel m) {
    try {
      m.Validate();
    } catch (const InputError& e) {
      return e.key() + " = " + e.value() + ": " + e.rule();
    }
    return std::string("accepted");
  };
  const CableModel m = Cantilever(2);
  EXPECT_EQ(rule_of(m), "accepted");
  CableModel bad = m;
  bad.elements[1].data.length = 0.0;
  EXPECT_EQ(rule_of(bad), "elements[1].length = 0: must be > 0");
  bad = m;
  bad.section.axial_stiffness = -1.0;
  EXPECT_EQ(rule_of(bad), "section.axial_stiffness = -1: must be > 0");
  bad = m;
  bad.fixed.push_back(12);
  EXPECT_EQ(rule_of(bad), "fixed[4].coordinate = 12: is no coordinate");
  bad = m;
  bad.pulleys = {{.radius = 0.1, .moves = true, .centre_stiffness = -1.0}};
  bad.contact.normal_stiffness = 1e9;
  EXPECT_EQ(rule_of(bad), "pulleys[0].moving.stiffness = -1: must be >= 0");
  bad = m;
  bad.circles = {{.name = "C", .body = 0, .radius = 0.1}};
  bad.contact.normal_stiffness = 1e9;
  EXPECT_EQ(rule_of(bad), "circles[0].body = 0: must be a rigid body");
  bad.mechanism.bodies = {{.name = "B", .mass = 1.0, .inertia = 1.0}};
  bad.circles[0].radius = 0.0;
  EXPECT_EQ(rule_of(bad), "circles[0].radius = 0: must be > 0");
}

}  // namespace
}  // namespace jointdyn::ancf
