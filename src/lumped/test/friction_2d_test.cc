// The coupled 2D friction element in a transient run against a closed-form steady state:
// a point mass m in the plane (DOFs x, y) on a 2D Jenkins element to ground (stick spring
// k_t in series with a Coulomb slider of limit mu p, coulomb dim 2 with c2 = 0) and
// dampers c, driven by a rotating force F (cos w t, sin w t). Once sliding, the slider w
// moves on a circle and the element force is tau = k_t (s - w) with |tau| = mu p along the
// slider velocity; with s = rho e^(i psi), tau = mu p i e^(i (psi - delta)) the force lags
// the slip velocity i w s by delta, and w = s - tau / k_t moving along tau requires
// sin(delta) = r0 / rho, r0 = mu p / k_t. The equation of motion m s'' + c s' + tau = F
// then gives rho from
//   (m w^2 rho - mu p sin(delta))^2 + (c w rho + mu p cos(delta))^2 = F^2
// (one root in rho > r0, by bisection). A 1D pair of elements would give neither a
// constant |tau| nor a circular path.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <tuple>

#include "laws/coulomb.h"
#include "lumped/lumped_system.h"
#include "time/integrator.h"

namespace jointdyn::lumped {
namespace {

using time::TimeFunction;

TEST(Friction2d, RotatingForceGivesTheClosedFormCircularSteadyState) {
  const double m = 1.0, c = 0.5, k_t = 500.0, mu = 0.5, p = 2.0, f = 3.0;
  const double omega = 2.0 * std::numbers::pi * 2.0;  // 2 Hz [rad/s]
  const double r0 = mu * p / k_t;                     // elastic stretch in slip [m]
  // The closed-form radius: the residual grows with rho beyond r0.
  const auto residual = [&](double rho) {
    const double sin_d = r0 / rho, cos_d = std::sqrt(1.0 - sin_d * sin_d);
    return std::hypot(m * omega * omega * rho - mu * p * sin_d, c * omega * rho + mu * p * cos_d) -
           f;
  };
  double lo = r0, hi = 10.0 * f / (m * omega * omega);
  ASSERT_LT(residual(lo), 0.0);
  ASSERT_GT(residual(hi), 0.0);
  for (int i = 0; i < 200; ++i) (residual(0.5 * (lo + hi)) > 0.0 ? hi : lo) = 0.5 * (lo + hi);
  const double rho = 0.5 * (lo + hi), sin_delta = r0 / rho;

  LumpedModel model;
  model.dofs = {{"x", m}, {"y", m}};
  model.dampers = {{"cx", 0, kGround, c}, {"cy", 1, kGround, c}};
  NormalSource normal;
  normal.pressure = TimeFunction::Constant(p);
  model.friction.push_back(
      {"contact",
       {0, 1},
       {kGround, kGround},
       std::make_shared<laws::CoulombLaw>(laws::CoulombParams{k_t, 0.0, mu}, 2),
       normal});
  // F cos(w t) = F sin(w t + 90 deg) on x, F sin(w t) on y.
  const double hz = omega / (2.0 * std::numbers::pi);
  model.loads = {{0, TimeFunction::Sinusoid(f, hz, 0.5 * std::numbers::pi, 0.0)},
                 {1, TimeFunction::Sinusoid(f, hz, 0.0, 0.0)}};

  // Over the last of 40 periods (the transient has died out under the friction force):
  // the signed relative errors of the radius |v| / w (the circle's centre drifts freely)
  // and of the lag, the sine of the angle from the slip velocity v to tau (-sin(delta)),
  // averaged, and the largest error of |tau| against mu p.
  struct Errors {
    double radius = 0.0, lag = 0.0, force = 0.0;
  };
  const auto run = [&](int steps_per_period) {
    LumpedSystem system(model);
    time::IntegratorOptions options;
    options.scheme = time::Scheme::kNewmark;  // average acceleration: no numerical damping
    const double period = 2.0 * std::numbers::pi / omega;
    options.t_end = 40.0 * period;
    options.dt = period / steps_per_period;
    options.newton.residual_tolerance = 1e-10;
    Errors e;
    int samples = 0;
    const time::TransientResult result = time::Integrate(
        system, options, system.initial_positions(), system.initial_velocities(),
        [&](const time::StepRecord& r) {
          if (r.t <= options.t_end - period + 0.5 * options.dt) return;
          const Vec2 v = *r.v;
          const Vec2 tau = system.ElementForces(r.t, *r.q, *r.v)[2].force;
          const double lag = (v.x() * tau.y() - v.y() * tau.x()) / (v.norm() * tau.norm());
          e.radius += (v.norm() / omega - rho) / rho;
          e.lag += (-lag - sin_delta) / sin_delta;
          e.force = std::max(e.force, std::abs(tau.norm() - mu * p) / (mu * p));
          ++samples;
        });
    EXPECT_TRUE(result.status) << result.status.message;
    EXPECT_EQ(samples, steps_per_period);
    e.radius /= samples;
    e.lag /= samples;
    std::printf("%d steps per period: radius error %+.3e, lag error %+.3e, |tau| - mu p %.1e\n",
                steps_per_period, e.radius, e.lag, e.force);
    return e;
  };
  std::printf("rotating force on a 2D Jenkins element: rho %.6e m, sin(delta) %.4f\n", rho,
              sin_delta);
  const Errors coarse = run(400), fine = run(800);
  // The return map puts tau along the slider's chord w_n - w_(n-1), half a step (w dt / 2)
  // behind its tangent: first order in dt, 7 % of delta at 400 steps per period; Newmark's
  // own error is second order. So the errors halve with dt and their Richardson
  // extrapolation 2 e(dt / 2) - e(dt) vanishes to O(dt^2) (measured 9e-6 for the radius, below 1e-6
  // for the lag).
  for (const auto& [name, e1, e2] : {std::tuple{"radius", coarse.radius, fine.radius},
                                     std::tuple{"lag", coarse.lag, fine.lag}}) {
    EXPECT_NEAR(e1 / e2, 2.0, 0.05) << name;
    EXPECT_LT(std::abs(2.0 * e2 - e1), 2e-4) << name;
  }
  EXPECT_LT(std::abs(fine.radius), 2e-3);
  EXPECT_LT(coarse.force, 1e-12);  // sliding all the time: the return map's exact |tau|
  EXPECT_LT(fine.force, 1e-12);
}

}  // namespace
}  // namespace jointdyn::lumped
