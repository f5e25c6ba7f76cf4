// The planar multibody system: its derivatives against central differences (constraint
// Jacobian, constraint-force tangent, acceleration term, spring and load tangents), and
// its motion against closed forms: the large-amplitude pendulum's period (complete
// elliptic integral), the slider-crank's kinematics, energy and constraint work.
#include "mbs/planar_system.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "mbs/jet.h"
#include "mbs/test/differences.h"
#include "time/integrator.h"

namespace jointdyn::mbs {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(Jet, DerivativesOfACompositeMatchDifferences) {
  using J2 = Jet<2>;
  const auto f = [](const J2& x, const J2& y) {
    return sin(x * y) + sqrt(x * x + y * y) * cos(y) + atan2(y - 2.0 * x, x * y);
  };
  const double x0 = 0.7, y0 = -1.3, h = 1e-5;
  const J2 value = f(J2::Variable(x0, 0), J2::Variable(y0, 1));
  const auto scalar = [&](double x, double y) { return f(J2(x), J2(y)).v; };
  EXPECT_NEAR(value.g(0), (scalar(x0 + h, y0) - scalar(x0 - h, y0)) / (2 * h), 1e-9);
  EXPECT_NEAR(value.g(1), (scalar(x0, y0 + h) - scalar(x0, y0 - h)) / (2 * h), 1e-9);
  const double hxy = (scalar(x0 + h, y0 + h) - scalar(x0 + h, y0 - h) - scalar(x0 - h, y0 + h) +
                      scalar(x0 - h, y0 - h)) /
                     (4 * h * h);
  const double hxx = (scalar(x0 + h, y0) - 2 * scalar(x0, y0) + scalar(x0 - h, y0)) / (h * h);
  EXPECT_NEAR(value.h(0, 1), hxy, 1e-5);
  EXPECT_NEAR(value.h(1, 0), hxy, 1e-5);
  EXPECT_NEAR(value.h(0, 0), hxx, 1e-5);
}

// Two rigid bodies and a point mass with every joint kind, spring, bushing and load between
// them.
PlanarModel EveryElement() {
  PlanarModel m;
  m.bodies = {{"crank", BodyKind::kRigid, 2.0, 0.03, {0.1, 0.2}, 0.4, {0.3, -0.1}, 1.5},
              {"rod", BodyKind::kRigid, 1.0, 0.02, {0.5, 0.1}, -0.3, {-0.2, 0.4}, -0.7},
              {"mass", BodyKind::kPointMass, 0.5, 0.0, {0.9, -0.2}, 0.0, {0.1, 0.2}, 0.0}};
  m.markers = {{"o", kGround, {0.0, 0.05}, 0.2}, {"c1", 0, {0.12, -0.03}, 0.1},
               {"c2", 0, {-0.1, 0.04}, 0.0},     {"r1", 1, {0.2, 0.05}, -0.4},
               {"r2", 1, {-0.15, -0.02}, 0.3},   {"p", 2, {0.0, 0.0}, 0.5}};
  m.joints = {{"rev", JointKind::kRevolute, 1, 3},
              {"pri", JointKind::kPrismatic, 4, 2},
              {"rig", JointKind::kRigid, 0, 2},
              {"dis", JointKind::kDistance, 3, 5, 0.4}};
  Joint driver{"drive", JointKind::kPrescribed};
  driver.body = 1;
  driver.coordinate = Coordinate::kAngle;
  driver.motion = time::TimeFunction::Sinusoid(0.3, 2.0, 0.2, 0.1);
  m.joints.push_back(driver);
  m.springs = {{"s", 2, 5, 300.0, 4.0, 0.2}};
  m.rotational_springs = {{"t", 1, 4, 20.0, 0.5, 0.3}};
  m.bushings = {{"b", 0, 3, 150.0, 2.0}};
  Load load{4, time::TimeFunction::Constant(3.0), time::TimeFunction::Ramp(1.0, -2.0),
            time::TimeFunction::Constant(0.7)};
  m.loads = {load};
  m.gravity = {0.0, -9.81};
  return m;
}

using testing::ConstraintsAt;
using testing::Differences;

TEST(PlanarSystem, DerivativesMatchCentralDifferences) {
  PlanarSystem system(EveryElement());
  const int n = system.size(), m = system.constraint_count();
  ASSERT_EQ(n, 8);
  ASSERT_EQ(m, 2 + 2 + 3 + 1 + 1);
  const double t = 0.13, h = 1e-6;
  const VecX q = system.InitialPositions();
  const VecX v = system.InitialVelocities();
  const auto c_of = ConstraintsAt(system, t);
  VecX c(m);
  SparseMatrix cq;
  system.Constraints(t, q, c, &cq);
  EXPECT_LT((MatX(cq) - Differences(c_of, q, h)).lpNorm<Eigen::Infinity>(), 1e-8);

  // (C_q' lambda)_q against differences of C_q' lambda.
  const VecX lambda = VecX::LinSpaced(m, -2.0, 3.0);
  const auto force_of = [&](const VecX& x) {
    VecX c_x(m);
    SparseMatrix j;
    system.Constraints(t, x, c_x, &j);
    return VecX(j.transpose() * lambda);
  };
  SparseMatrix tangent;
  system.ConstraintForceTangent(t, q, lambda, tangent);
  EXPECT_LT((MatX(tangent) - Differences(force_of, q, h)).lpNorm<Eigen::Infinity>(), 1e-7);

  // Q_c: c along the motion q(s) = q + s v at time t + s has second derivative
  // C_q a - Q_c with a = 0, so Q_c = -d2c/ds2.
  const auto along = [&](double s) {
    VecX c_s(m);
    system.Constraints(t + s, VecX(q + s * v), c_s, nullptr);
    return c_s;
  };
  const double hs = 1e-4;
  const VecX second = (along(hs) - 2.0 * along(0.0) + along(-hs)) / (hs * hs);
  VecX q_c = VecX::Zero(m);
  system.ConstraintAccelerationTerm(t, q, v, q_c);
  EXPECT_LT((q_c + second).lpNorm<Eigen::Infinity>(), 1e-5);

  // Springs: K and D against differences of f_int in q and in v.
  const auto internal = [&](const VecX& x, const VecX& rate, Matrix* k, Matrix* d) {
    VecX f = VecX::Zero(n);
    system.InternalForce({t, 1e-3, &x, &rate, &x, false}, f, k, d);
    return f;
  };
  Matrix k, d;
  k.SetZeroLike(system.mass());
  d.SetZeroLike(system.mass());
  internal(q, v, &k, &d);
  const MatX k_fd =
      Differences([&](const VecX& x) { return internal(x, v, nullptr, nullptr); }, q, h);
  const MatX d_fd =
      Differences([&](const VecX& r) { return internal(q, r, nullptr, nullptr); }, v, h);
  EXPECT_LT((k.dense() - k_fd).lpNorm<Eigen::Infinity>(), 1e-5 * k_fd.lpNorm<Eigen::Infinity>());
  EXPECT_LT((d.dense() - d_fd).lpNorm<Eigen::Infinity>(), 1e-6 * d_fd.lpNorm<Eigen::Infinity>());

  // Loads at markers: the tangent against differences.
  const auto load_of = [&](const VecX& x) {
    VecX f = VecX::Zero(n);
    system.ConfigurationLoad(t, x, f, nullptr);
    return f;
  };
  Matrix load_tangent;
  load_tangent.SetZeroLike(system.mass());
  VecX f = VecX::Zero(n);
  system.ConfigurationLoad(t, q, f, &load_tangent);
  EXPECT_LT((load_tangent.dense() - Differences(load_of, q, h)).lpNorm<Eigen::Infinity>(), 1e-8);
}

// A rigid bar (length l, mass m, J = m l^2 / 12) pinned at one end to the ground, at rest
// at theta0 from the downward vertical.
PlanarModel Pendulum(double theta0, double length) {
  const double mass = 1.3, half = 0.5 * length;
  PlanarModel m;
  // Angle of the bar's x axis from the global x axis; hanging down is -pi/2.
  const double angle = -0.5 * kPi + theta0;
  m.bodies = {{"bar",
               BodyKind::kRigid,
               mass,
               mass * length * length / 12.0,
               {half * std::cos(angle), half * std::sin(angle)},
               angle}};
  m.markers = {{"pivot", kGround}, {"end", 0, {-half, 0.0}}};
  m.joints = {{"pin", JointKind::kRevolute, 0, 1}};
  m.gravity = {0.0, -9.81};
  return m;
}

struct PendulumRun {
  double period = 0.0, energy_drift = 0.0;
  time::TransientResult result;
};

PendulumRun RunPendulum(double theta0, double length, double dt, double t_end) {
  PlanarSystem system(Pendulum(theta0, length));
  time::IntegratorOptions options;
  options.scheme = time::Scheme::kHht;
  options.alpha = 0.0;
  options.t_end = t_end;
  options.dt = dt;
  options.position_scale = length;
  // Released at rest at theta0 > 0: the angular velocity is negative first and changes
  // sign from - to + at the far side, half a period later (interpolated linearly).
  PendulumRun run;
  double t_prev = 0.0, w_prev = 0.0, e0 = NAN;
  const int angle = system.CoordinateIndex(0, Coordinate::kAngle);
  run.result = time::Integrate(
      system, options, system.InitialPositions(), system.InitialVelocities(),
      [&](const time::StepRecord& r) {
        const double w = (*r.v)(angle);
        if (run.period == 0.0 && w_prev < 0.0 && w >= 0.0)
          run.period = 2.0 * (t_prev - w_prev * (r.t - t_prev) / (w - w_prev));
        t_prev = r.t;
        w_prev = w;
        const double energy = 0.5 * r.v->dot(system.mass() * *r.v) + 1.3 * 9.81 * (*r.q)(1);
        if (std::isnan(e0)) e0 = energy;
        run.energy_drift = std::max(run.energy_drift, std::abs(energy - e0));
      });
  return run;
}

// The period against the complete elliptic integral; the energy drift and the work of the
// pin's force (zero in the exact motion) are discretization errors of second order.
TEST(PlanarSystem, LargeAmplitudePendulumHasTheEllipticPeriod) {
  const double length = 0.6, theta0 = 2.5;  // 143 degrees
  // Physical pendulum: T = 4 sqrt(I_O / (m g d)) K(sin(theta0 / 2)), I_O = m l^2 / 3, d = l / 2.
  const double exact = 4.0 * std::sqrt((length * length / 3.0) / (9.81 * 0.5 * length)) *
                       std::comp_ellint_1(std::sin(0.5 * theta0));
  const double energy = 1.3 * 9.81 * length;  // the scale of the energies [J]
  std::vector<PendulumRun> runs;
  for (const double steps : {2000.0, 4000.0}) {
    runs.push_back(RunPendulum(theta0, length, exact / steps, 0.6 * exact));
    const PendulumRun& run = runs.back();
    ASSERT_TRUE(run.result.status) << run.result.status.message;
    std::printf(
        "pendulum theta0 = %.2f rad, dt = T / %.0f: period %.9f s, elliptic %.9f s, "
        "error %.2e; energy drift %.2e J, constraint work %.2e J (of %.2f J)\n",
        theta0, steps, run.period, exact, run.period / exact - 1.0, run.energy_drift,
        run.result.energy.constraint_work, energy);
    EXPECT_NEAR(run.period / exact, 1.0, 1e-5);
    EXPECT_LT(std::abs(run.result.energy.constraint_work), 1e-5 * energy);
    EXPECT_LT(run.energy_drift, 5e-5 * energy);
  }
  EXPECT_NEAR((runs[0].period / exact - 1.0) / (runs[1].period / exact - 1.0), 4.0, 0.4);
  EXPECT_NEAR(runs[0].result.energy.constraint_work / runs[1].result.energy.constraint_work, 4.0,
              0.4);
  EXPECT_NEAR(runs[0].energy_drift / runs[1].energy_drift, 4.0, 0.4);
}

// Crank (radius r, pinned at the origin) driven at constant speed, connecting rod (length
// l) to a slider on the x axis: x = r cos(phi) + sqrt(l^2 - r^2 sin^2(phi)).
TEST(PlanarSystem, SliderCrankFollowsItsClosedForm) {
  const double r = 0.1, l = 0.35, omega = 20.0;
  PlanarModel m;
  const double x0 = r + l;
  m.bodies = {{"crank", BodyKind::kRigid, 1.0, 1.0 * r * r / 12.0, {0.5 * r, 0.0}, 0.0},
              {"rod", BodyKind::kRigid, 0.8, 0.8 * l * l / 12.0, {r + 0.5 * l, 0.0}, 0.0},
              {"slider", BodyKind::kRigid, 0.5, 1e-3, {x0, 0.0}, 0.0}};
  m.markers = {{"origin", kGround},
               {"crank_o", 0, {-0.5 * r, 0.0}},
               {"crank_pin", 0, {0.5 * r, 0.0}},
               {"rod_a", 1, {-0.5 * l, 0.0}},
               {"rod_b", 1, {0.5 * l, 0.0}},
               {"slider", 2},
               {"guide", kGround}};
  m.joints = {{"main", JointKind::kRevolute, 0, 1},
              {"crank_pin", JointKind::kRevolute, 2, 3},
              {"wrist", JointKind::kRevolute, 4, 5},
              {"guide", JointKind::kPrismatic, 6, 5}};
  Joint drive{"drive", JointKind::kPrescribed};
  drive.body = 0;
  drive.motion = time::TimeFunction::Ramp(0.0, omega);
  m.joints.push_back(drive);
  m.gravity = {0.0, -9.81};
  PlanarSystem system(m);
  VecX q = system.InitialPositions(), v = system.InitialVelocities();
  double correction = 0.0;
  ASSERT_TRUE(system.ConsistentInitialState(0.0, q, v, 1e-12, correction));
  time::IntegratorOptions options;
  options.alpha = -0.05;
  options.t_end = 2.0 * kPi / omega;
  options.dt = options.t_end / 2000;
  options.position_scale = l;
  const int x = system.CoordinateIndex(2, Coordinate::kX);
  double position_error = 0.0, velocity_error = 0.0;
  const time::TransientResult result =
      time::Integrate(system, options, q, v, [&](const time::StepRecord& rec) {
        const double phi = omega * rec.t, s = std::sin(phi), c = std::cos(phi);
        const double root = std::sqrt(l * l - r * r * s * s);
        position_error = std::max(position_error, std::abs((*rec.q)(x) - (r * c + root)));
        const double rate = -r * s * omega - r * r * s * c * omega / root;
        velocity_error = std::max(velocity_error, std::abs((*rec.v)(x)-rate));
      });
  ASSERT_TRUE(result.status) << result.status.message;
  std::printf(
      "slider-crank: slider position error %.2e m, velocity error %.2e m/s (peak %.2f), "
      "driver work %.4e J, numerical dissipation %.2e J\n",
      position_error, velocity_error, r * omega * 1.2, result.energy.constraint_work,
      result.energy.numerical_dissipation);
  EXPECT_LT(position_error, 1e-9);
  EXPECT_LT(velocity_error, 1e-3 * r * omega);
}

TEST(PlanarSystem, InitialStateIsMadeConsistent) {
  PlanarModel m = Pendulum(0.5, 0.6);
  m.bodies[0].position += Vec2(0.01, -0.02);  // off the pin
  m.bodies[0].velocity = {0.3, 0.1};          // not along the circle
  PlanarSystem system(m);
  VecX q = system.InitialPositions(), v = system.InitialVelocities();
  double correction = 0.0;
  ASSERT_TRUE(system.ConsistentInitialState(0.0, q, v, 1e-13, correction));
  EXPECT_GT(correction, 1e-3);
  EXPECT_LT(system.MarkerPosition(q, 1).norm(), 1e-13);
  EXPECT_LT(system.MarkerVelocity(q, v, 1).norm(), 1e-13);
}

TEST(PlanarSystem, RedundantJointsAreNamedAsSuch) {
  PlanarModel m = Pendulum(0.5, 0.6);
  m.joints.push_back({"again", JointKind::kRevolute, 0, 1});
  PlanarSystem system(m);
  VecX q = system.InitialPositions(), v = system.InitialVelocities();
  double correction = 0.0;
  const Status status = system.ConsistentInitialState(0.0, q, v, 1e-12, correction);
  EXPECT_FALSE(status);
  EXPECT_NE(status.message.find("redundant"), std::string::npos) << status.message;
}

TEST(PlanarModel, RejectsBadInput) {
  const auto rule_of = [](PlanarModel m) {
    try {
      m.Validate();
    } catch (const InputError& e) {
      return e.key() + " = " + e.value() + ": " + e.rule();
    }
    return std::string("accepted");
  };
  PlanarModel m = Pendulum(0.5, 0.6);
  EXPECT_EQ(rule_of(m), "accepted");
  PlanarModel bad = m;
  bad.bodies[0].inertia = 0.0;
  EXPECT_EQ(rule_of(bad), "bodies[0].inertia = 0: must be > 0");
  bad = m;
  bad.joints[0].marker_b = 7;
  EXPECT_EQ(rule_of(bad), "joints[0].marker_b = 7: is no marker");
  bad = m;
  bad.markers[0].body = 0;
  EXPECT_EQ(rule_of(bad),
            "joints[0].marker_b = end: is on the body of marker_a: connect two "
            "different bodies");
}

}  // namespace
}  // namespace jointdyn::mbs
