// Index-3 constraints with Lagrange multipliers (seed 003 eq. 2.55-2.61): a pendulum in
// Cartesian coordinates against the angle equation integrated independently.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "time/integrator.h"
#include "time/test/test_systems.h"

namespace jointdyn::time {
namespace {

using testing::Pendulum;

constexpr double kPi = 3.14159265358979323846;
constexpr double kMass = 2.0, kGravity = 9.81, kLength = 0.8;

// The reference: theta'' = -(g / L) sin theta (theta from the downward vertical), RK4 with
// a step far below the integrator's, from theta = pi / 2 (horizontal) at rest.
struct AngleReference {
  std::vector<double> theta, rate;
  double dt;

  explicit AngleReference(double t_end, int steps) : dt(t_end / steps) {
    double y = 0.5 * kPi, z = 0.0;
    auto f = [](double th) { return -kGravity / kLength * std::sin(th); };
    theta.push_back(y);
    rate.push_back(z);
    for (int i = 0; i < steps; ++i) {
      testing::Rk4Step(f, dt, y, z);
      theta.push_back(y);
      rate.push_back(z);
    }
  }
  // Position (x, y) and rod tension / L (the multiplier of c = (x^2 + y^2 - L^2) / 2) at
  // t, a multiple of dt.
  Eigen::Vector2d Position(double t) const {
    const double th = theta[Index(t)];
    return {kLength * std::sin(th), -kLength * std::cos(th)};
  }
  double Multiplier(double t) const {
    const std::size_t i = Index(t);
    // Tension: m (g cos theta + L theta'^2); C_q' lambda = lambda (x, y) = tension (x, y) / L.
    return kMass * (kGravity * std::cos(theta[i]) + kLength * rate[i] * rate[i]) / kLength;
  }
  std::size_t Index(double t) const { return static_cast<std::size_t>(std::lround(t / dt)); }
};

struct PendulumRun {
  double position_error = 0.0, multiplier_error = 0.0, constraint_violation = 0.0;
  double energy_drift = 0.0;
  TransientResult result;
};

PendulumRun RunPendulum(IntegratorOptions options, const AngleReference& reference) {
  Pendulum pendulum(kMass, kGravity, kLength);
  PendulumRun run;
  const double e0 = 0.0;  // at rest, horizontal: potential m g y = 0
  run.result = Integrate(
      pendulum, options, Eigen::Vector2d(kLength, 0.0), Eigen::Vector2d::Zero(),
      [&](const StepRecord& r) {
        const VecX& q = *r.q;
        run.position_error = std::max(run.position_error, (q - reference.Position(r.t)).norm());
        run.multiplier_error =
            std::max(run.multiplier_error, std::abs((*r.lambda)(0) - reference.Multiplier(r.t)));
        run.constraint_violation = std::max(run.constraint_violation, std::abs(q.norm() - kLength));
        const double energy = 0.5 * kMass * r.v->squaredNorm() + kMass * kGravity * q(1);
        run.energy_drift = std::max(run.energy_drift, std::abs(energy - e0));
      });
  return run;
}

TEST(Constraints, PendulumConvergesAtSecondOrder) {
  const double t_end = 2.0;
  const AngleReference reference(t_end, 1 << 17);
  for (double alpha : {0.0, -0.1}) {
    std::vector<double> position_errors, multiplier_errors;
    for (double dt : {t_end / 512, t_end / 1024, t_end / 2048}) {
      IntegratorOptions options;
      options.scheme = Scheme::kHht;
      options.alpha = alpha;
      options.t_end = t_end;
      options.dt = dt;
      options.position_scale = kLength;
      const PendulumRun run = RunPendulum(options, reference);
      ASSERT_TRUE(run.result.status) << run.result.status.message;
      std::printf(
          "pendulum HHT alpha = %.1f, dt = %.2e: position error %.3e m, multiplier "
          "error %.3e N/m (max %.1f), constraint |q| - L %.1e m, energy drift %.2e J, "
          "%.2f Newton iterations per step\n",
          alpha, dt, run.position_error, run.multiplier_error, 3.0 * kMass * kGravity / kLength,
          run.constraint_violation, run.energy_drift,
          static_cast<double>(run.result.newton_iterations) / run.result.accepted_steps);
      // Position-level constraint (eq. 2.59) to Newton tolerance.
      EXPECT_LE(run.constraint_violation, 1e-9 * kLength);
      position_errors.push_back(run.position_error);
      multiplier_errors.push_back(run.multiplier_error);
    }
    for (std::size_t i = 0; i + 1 < position_errors.size(); ++i) {
      const double order = std::log2(position_errors[i] / position_errors[i + 1]);
      const double multiplier_order = std::log2(multiplier_errors[i] / multiplier_errors[i + 1]);
      std::printf("pendulum HHT alpha = %.1f: position order %.3f, multiplier order %.3f\n", alpha,
                  order, multiplier_order);
      EXPECT_NEAR(order, 2.0, 0.1);
      // With numerical damping the multiplier (rod force) converges at second order too.
      if (alpha < 0.0) {
        EXPECT_NEAR(multiplier_order, 2.0, 0.1);
      }
    }
  }
}

TEST(Constraints, ConsistentInitialMultiplier) {
  // Released horizontally at rest: no rod tension (lambda0 = 0), a0 = (0, -g).
  // Released hanging down with speed u: lambda0 = m (g + u^2 / L) / L, a0 = (0, u^2 / L).
  Pendulum pendulum(kMass, kGravity, kLength);
  IntegratorOptions options;
  options.t_end = options.dt;  // one step
  const double u = 1.5;
  std::vector<StepRecord> records;
  VecX lambda0, a0;
  Integrate(pendulum, options, Eigen::Vector2d(0.0, -kLength), Eigen::Vector2d(u, 0.0),
            [&](const StepRecord& r) {
              if (r.t == 0.0) {
                lambda0 = *r.lambda;
                a0 = *r.a;
              }
            });
  ASSERT_EQ(lambda0.size(), 1);
  EXPECT_NEAR(lambda0(0), kMass * (kGravity + u * u / kLength) / kLength, 1e-12);
  EXPECT_NEAR(a0(0), 0.0, 1e-12);
  EXPECT_NEAR(a0(1), u * u / kLength, 1e-12);
}

}  // namespace
}  // namespace jointdyn::time
