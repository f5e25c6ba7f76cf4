// The spatial multibody system: its derivatives against central differences (constraint
// Jacobian, constraint-force tangent, acceleration term with drivers, inertia, spring and
// load tangents), and its motion against closed forms and independent computations: a
// torque-free asymmetric body against Euler's equations (and its energy and angular
// momentum), a pendulum about a tilted axis against the elliptic period, a conical
// pendulum, a driven slider-crank in a tilted plane against its closed form.
#include "mbs/spatial_system.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "mbs/test/differences.h"
#include "time/integrator.h"

namespace jointdyn::mbs::spatial {
namespace {

constexpr double kPi = 3.14159265358979323846;

using testing::ConstraintsAt;
using testing::Differences;

Mat3 Rotation(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

Body Rigid(const std::string& name, double mass, const Vec3& inertia, const Vec3& position,
           const Mat3& orientation = Mat3::Identity()) {
  Body b{name, BodyKind::kRigid, mass, Mat3(inertia.asDiagonal())};
  b.position = position;
  b.orientation = orientation;
  return b;
}

Marker At(const std::string& name, int body, const Vec3& position,
          const Mat3& orientation = Mat3::Identity()) {
  return {name, body, position, orientation};
}

// Two rigid bodies and a point mass with every joint kind, a spring and a load between them
// (not consistent: only the derivatives are checked).
SpatialModel EveryElement() {
  SpatialModel m;
  m.bodies = {Rigid("crank", 2.0, {0.03, 0.05, 0.04}, {0.1, 0.2, -0.1}, Rotation(0.7, {1, 2, 3})),
              Rigid("rod", 1.0, {0.02, 0.01, 0.025}, {0.5, 0.1, 0.2}, Rotation(-0.4, {0, 1, 1})),
              {"mass", BodyKind::kPointMass, 0.5}};
  m.bodies[2].position = {0.9, -0.2, 0.3};
  m.bodies[0].velocity = {0.3, -0.1, 0.2};
  m.bodies[0].angular_velocity = {1.5, -0.5, 2.0};
  m.bodies[1].velocity = {-0.2, 0.4, 0.1};
  m.bodies[1].angular_velocity = {-0.7, 0.3, 0.9};
  m.bodies[2].velocity = {0.1, 0.2, -0.3};
  m.markers = {At("o", kGround, {0.0, 0.05, 0.1}, Rotation(0.2, {0, 0, 1})),
               At("c1", 0, {0.12, -0.03, 0.02}, Rotation(0.1, {1, 0, 0})),
               At("c2", 0, {-0.1, 0.04, 0.0}),
               At("r1", 1, {0.2, 0.05, -0.03}, Rotation(-0.4, {0, 1, 0})),
               At("r2", 1, {-0.15, -0.02, 0.05}, Rotation(0.3, {1, 1, 0})),
               At("p", 2, {0.0, 0.0, 0.0})};
  m.joints = {{"rev", JointKind::kRevolute, 1, 3},      {"pri", JointKind::kPrismatic, 4, 0},
              {"rig", JointKind::kRigid, 0, 2},         {"sph", JointKind::kSpherical, 2, 5},
              {"dis", JointKind::kDistance, 3, 5, 0.4}, {"uni", JointKind::kUniversal, 1, 4}};
  Joint driven{"motor", JointKind::kDrivenRevolute, 2, 4};
  driven.motion = time::TimeFunction::Sinusoid(0.3, 2.0, 0.2, 0.1);
  Joint driver{"lift", JointKind::kPrescribed};
  driver.body = 2;
  driver.coordinate = Coordinate::kZ;
  driver.motion = time::TimeFunction::Ramp(0.1, 0.7);
  m.joints.push_back(driven);
  m.joints.push_back(driver);
  m.springs = {{"s", 2, 5, 300.0, 4.0, 0.2}};
  m.rotational_springs = {{"t", 1, 4, 20.0, 0.5, 0.3}};
  Load load{4};
  load.force = {time::TimeFunction::Constant(3.0), time::TimeFunction::Ramp(1.0, -2.0),
                time::TimeFunction::Constant(0.5)};
  load.torque = {time::TimeFunction::Constant(0.7), time::TimeFunction::Constant(-0.2),
                 time::TimeFunction::Ramp(0.3, 1.0)};
  m.loads = {load};
  m.gravity = {0.0, -9.81, 0.0};
  return m;
}

TEST(SpatialSystem, ConstraintDerivativesMatchCentralDifferences) {
  SpatialSystem system(EveryElement());
  const int n = system.size(), m = system.constraint_count();
  ASSERT_EQ(n, 7 + 7 + 3);
  ASSERT_EQ(m, 5 + 5 + 6 + 3 + 1 + 4 + 6 + 1 + 2);  // joints, then two normalizations
  const double t = 0.13, h = 1e-6;
  const VecX q = system.InitialPositions(), v = system.InitialVelocities();
  VecX c(m);
  SparseMatrix cq;
  system.Constraints(t, q, c, &cq);
  EXPECT_LT((MatX(cq) - Differences(ConstraintsAt(system, t), q, h)).lpNorm<Eigen::Infinity>(),
            1e-8);

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

  // Q_c = -d2c/ds2 along q(s) = q + s v at time t + s (a = 0): covers C_qt and C_tt.
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
}

TEST(SpatialSystem, ForceAndInertiaTangentsMatchCentralDifferences) {
  SpatialSystem system(EveryElement());
  const int n = system.size();
  const double t = 0.13, h = 1e-6;
  const VecX q = system.InitialPositions(), v = system.InitialVelocities();
  const VecX a = VecX::LinSpaced(n, -1.0, 2.0);
  const auto check = [&](const char* what, const MatX& exact, const MatX& differences,
                         double tolerance) {
    EXPECT_LT((exact - differences).lpNorm<Eigen::Infinity>(),
              tolerance * differences.lpNorm<Eigen::Infinity>())
        << what;
  };
  const auto internal = [&](const VecX& x, const VecX& rate, Matrix* k, Matrix* d) {
    VecX f = VecX::Zero(n);
    system.InternalForce({t, 1e-3, &x, &rate, &x, false}, f, k, d);
    return f;
  };
  Matrix k, d;
  k.SetZeroLike(system.mass());
  d.SetZeroLike(system.mass());
  internal(q, v, &k, &d);
  check("spring K", k.dense(),
        Differences([&](const VecX& x) { return internal(x, v, nullptr, nullptr); }, q, h), 1e-6);
  check("spring D", d.dense(),
        Differences([&](const VecX& r) { return internal(q, r, nullptr, nullptr); }, v, h), 1e-6);

  const auto load_of = [&](const VecX& x) {
    VecX f = VecX::Zero(n);
    system.ConfigurationLoad(t, x, f, nullptr);
    return f;
  };
  Matrix load_tangent;
  load_tangent.SetZeroLike(system.mass());
  VecX f = VecX::Zero(n);
  system.ConfigurationLoad(t, q, f, &load_tangent);
  check("load tangent", load_tangent.dense(), Differences(load_of, q, h), 1e-8);

  const auto inertia = [&](const VecX& x, const VecX& rate, const VecX& acc) {
    VecX force(n);
    system.Inertia(x, rate, acc, force, nullptr, nullptr, nullptr);
    return force;
  };
  Matrix mass, d_dq, d_dv;
  for (Matrix* matrix : {&mass, &d_dq, &d_dv}) matrix->SetZeroLike(system.mass());
  system.Inertia(q, v, a, f, &mass, &d_dq, &d_dv);
  check("mass", mass.dense(), Differences([&](const VecX& x) { return inertia(q, v, x); }, a, h),
        1e-8);
  check("inertia d/dq", d_dq.dense(),
        Differences([&](const VecX& x) { return inertia(x, v, a); }, q, h), 1e-7);
  check("inertia d/dv", d_dv.dense(),
        Differences([&](const VecX& x) { return inertia(q, x, a); }, v, h), 1e-7);
}

// The kinetic energy v'M(q)v/2 of Euler parameters equals w'Jw/2 of the angular velocity;
// the initial rates carry the given angular velocity; the rotation matrix is the body's.
TEST(SpatialSystem, EulerParametersCarryTheBodysRotationAndEnergy) {
  SpatialModel m = EveryElement();
  SpatialSystem system(m);
  const VecX q = system.InitialPositions(), v = system.InitialVelocities();
  for (int b = 0; b < 2; ++b) {
    const Body& body = m.bodies[b];
    EXPECT_LT((system.Orientation(b, q) - body.orientation).norm(), 1e-14);
    EXPECT_LT((system.AngularVelocity(b, q, v) - body.angular_velocity).norm(), 1e-14);
    const int first = system.FirstCoordinate(b) + 3;
    const Eigen::Vector4d rate = v.segment<4>(first);
    const Eigen::Matrix4d block = system.mass().dense().block<4, 4>(first, first);
    const Vec3 w_body = body.orientation.transpose() * body.angular_velocity;
    EXPECT_NEAR(0.5 * rate.dot(block * rate), 0.5 * w_body.dot(body.inertia * w_body), 1e-14);
  }
}

// Euler's equations J w' + w x J w = 0 in the body frame by RK4 with a small step: the
// independent reference of the torque-free body.
Vec3 EulerEquations(const Mat3& inertia, Vec3 w, double t_end, int steps) {
  const Mat3 inverse = inertia.inverse();
  const auto rate = [&](const Vec3& x) -> Vec3 { return -inverse * x.cross(inertia * x); };
  const double h = t_end / steps;
  for (int i = 0; i < steps; ++i) {
    const Vec3 k1 = rate(w), k2 = rate(w + 0.5 * h * k1), k3 = rate(w + 0.5 * h * k2),
               k4 = rate(w + h * k3);
    w += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return w;
}

struct SpinRun {
  double energy_drift = 0.0, momentum_drift = 0.0, rate_error = 0.0;
  time::TransientResult result;
};

// A free asymmetric body (J = diag(0.1, 0.2, 0.3) kg m^2, tilted) spinning mainly about its
// axis of largest inertia with a nutation, for 1 s with steps dt and HHT's alpha.
SpinRun Spin(double dt, double alpha) {
  SpatialModel m;
  const Mat3 orientation = Rotation(0.6, {1.0, -1.0, 0.5});
  m.bodies = {Rigid("top", 1.5, {0.1, 0.2, 0.3}, {0.1, 0.2, 0.3}, orientation)};
  const Vec3 w_body(1.0, 2.0, 10.0);
  m.bodies[0].angular_velocity = orientation * w_body;
  m.bodies[0].velocity = {0.2, -0.1, 0.05};
  SpatialSystem system(m);
  time::IntegratorOptions options;
  options.alpha = alpha;
  options.t_end = 1.0;
  options.dt = dt;
  options.position_scale = 0.5;
  SpinRun run;
  double e0 = NAN;
  Vec3 h0;
  VecX q_end, v_end;
  run.result = time::Integrate(
      system, options, system.InitialPositions(), system.InitialVelocities(),
      [&](const time::StepRecord& r) {
        const VecX& q = *r.q;
        const VecX& v = *r.v;
        const Mat3 a = system.Orientation(0, q);
        const Vec3 w = a.transpose() * system.AngularVelocity(0, q, v);
        const double energy =
            0.5 * w.dot(m.bodies[0].inertia * w) + 0.75 * v.head<3>().squaredNorm();
        const Vec3 h = system.AngularMomentum(q, v);
        if (std::isnan(e0)) e0 = energy, h0 = h;
        run.energy_drift = std::max(run.energy_drift, std::abs(energy / e0 - 1.0));
        run.momentum_drift = std::max(run.momentum_drift, (h - h0).norm() / h0.norm());
        q_end = q;
        v_end = v;
      });
  const Vec3 w_end =
      system.Orientation(0, q_end).transpose() * system.AngularVelocity(0, q_end, v_end);
  const Vec3 reference = EulerEquations(m.bodies[0].inertia, w_body, 1.0, 100000);
  run.rate_error = (w_end - reference).norm() / reference.norm();
  return run;
}

TEST(SpatialSystem, TorqueFreeAsymmetricBodyFollowsEulersEquations) {
  std::vector<SpinRun> runs;
  for (const double dt : {1e-3, 2.5e-4}) {  // 630 and 2500 steps per revolution
    runs.push_back(Spin(dt, 0.0));
    const SpinRun& run = runs.back();
    ASSERT_TRUE(run.result.status) << run.result.status.message;
    std::printf(
        "spinning body, dt = %.1e s: body rates vs Euler's equations %.2e, energy drift %.2e, "
        "angular momentum drift %.2e (relative)\n",
        dt, run.rate_error, run.energy_drift, run.momentum_drift);
  }
  EXPECT_LT(runs[1].rate_error, 1e-4);
  EXPECT_LT(runs[1].energy_drift, 1e-6);
  EXPECT_LT(runs[1].momentum_drift, 1e-6);
  EXPECT_NEAR(runs[0].rate_error / runs[1].rate_error, 16.0, 2.0);  // second order
}

// With numerical damping (HHT alpha = -0.05) the scheme stays second order on the varying
// mass of Euler parameters: the mass is taken where the forces are averaged (integrator.cc,
// EvaluateInertia); weighting M(q+) a+ as a constant mass lost an order (energy error
// 9e-3 at dt = 1e-3, halving with the step).
TEST(SpatialSystem, NumericalDampingKeepsTheSecondOrderOnARotatingBody) {
  const SpinRun coarse = Spin(1e-3, -0.05), fine = Spin(5e-4, -0.05);
  ASSERT_TRUE(coarse.result.status && fine.result.status);
  std::printf(
      "spinning body, HHT alpha = -0.05: rate errors %.2e, %.2e (ratio %.2f), energy drifts "
      "%.2e, %.2e\n",
      coarse.rate_error, fine.rate_error, coarse.rate_error / fine.rate_error, coarse.energy_drift,
      fine.energy_drift);
  EXPECT_NEAR(coarse.rate_error / fine.rate_error, 4.0, 0.6);
  EXPECT_NEAR(coarse.energy_drift / fine.energy_drift, 4.0, 0.6);
  EXPECT_LT(fine.energy_drift, 1e-6);
}

// A uniform rod (length l) on a revolute joint about a horizontal axis along (1, 1, 0),
// released at rest at theta0 from the downward vertical, gravity along -z.
SpatialModel TiltedPendulum(double theta0, double length) {
  const double mass = 1.3, half = 0.5 * length;
  const Vec3 axis = Vec3(1.0, 1.0, 0.0).normalized(), pivot(0.1, -0.2, 0.5);
  const Vec3 down = Rotation(theta0, axis) * Vec3(0.0, 0.0, -1.0);
  Mat3 frame;  // x along the rod, z along the axis
  frame << down, axis.cross(down), axis;
  SpatialModel m;
  const double transverse = mass * length * length / 12.0;
  m.bodies = {Rigid("rod", mass, {1e-4, transverse, transverse}, pivot + half * down, frame)};
  m.markers = {At("pivot", kGround, pivot, frame), At("end", 0, {-half, 0.0, 0.0})};
  m.joints = {{"pin", JointKind::kRevolute, 0, 1}};
  m.gravity = {0.0, 0.0, -9.81};
  return m;
}

// The period against the complete elliptic integral (the rotation about the axis reverses
// after half a period); the energy drift and the pin's work are second-order errors.
TEST(SpatialSystem, PendulumAboutATiltedAxisHasTheEllipticPeriod) {
  const double length = 0.6, theta0 = 2.5, mass = 1.3;
  const double exact = 4.0 * std::sqrt((length * length / 3.0) / (9.81 * 0.5 * length)) *
                       std::comp_ellint_1(std::sin(0.5 * theta0));
  SpatialSystem system(TiltedPendulum(theta0, length));
  const Vec3 axis = Vec3(1.0, 1.0, 0.0).normalized();
  time::IntegratorOptions options;
  options.alpha = 0.0;
  options.t_end = 0.6 * exact;
  options.dt = exact / 2000;
  options.position_scale = length;
  double period = 0.0, t_prev = 0.0, w_prev = 0.0, e0 = NAN, drift = 0.0;
  const time::TransientResult result = time::Integrate(
      system, options, system.InitialPositions(), system.InitialVelocities(),
      [&](const time::StepRecord& r) {
        const double w = system.AngularVelocity(0, *r.q, *r.v).dot(axis);
        if (period == 0.0 && w_prev * w < 0.0)
          period = 2.0 * (t_prev - w_prev * (r.t - t_prev) / (w - w_prev));
        if (std::abs(w) > 1e-3) t_prev = r.t, w_prev = w;
        const Mat3 a = system.Orientation(0, *r.q);
        const Vec3 w_body = a.transpose() * system.AngularVelocity(0, *r.q, *r.v);
        const double energy = 0.5 * mass * r.v->head<3>().squaredNorm() +
                              0.5 * w_body.dot(system.model().bodies[0].inertia * w_body) +
                              mass * 9.81 * (*r.q)(2);
        if (std::isnan(e0)) e0 = energy;
        drift = std::max(drift, std::abs(energy - e0));
      });
  ASSERT_TRUE(result.status) << result.status.message;
  const double scale = mass * 9.81 * length;
  std::printf(
      "tilted pendulum: period %.9f s, elliptic %.9f s, error %.2e; energy drift %.2e J, pin "
      "work %.2e J (of %.2f J)\n",
      period, exact, period / exact - 1.0, drift, result.energy.constraint_work, scale);
  EXPECT_NEAR(period / exact, 1.0, 1e-5);
  EXPECT_LT(drift, 5e-5 * scale);
  EXPECT_LT(std::abs(result.energy.constraint_work), 1e-5 * scale);
}

// A point mass on a distance joint circling at half-angle beta: it keeps its height
// L cos(beta) below the pivot and returns after 2 pi / Omega, Omega^2 = g / (L cos(beta)).
TEST(SpatialSystem, ConicalPendulumKeepsItsCircle) {
  const double length = 0.8, beta = 0.7, g = 9.81;
  const double radius = length * std::sin(beta), depth = length * std::cos(beta);
  const double omega = std::sqrt(g / depth), period = 2.0 * kPi / omega;
  const Vec3 pivot(0.3, 0.1, 1.0);
  SpatialModel m;
  m.bodies = {{"bob", BodyKind::kPointMass, 0.4}};
  m.bodies[0].position = pivot + Vec3(radius, 0.0, -depth);
  m.bodies[0].velocity = {0.0, omega * radius, 0.0};
  m.markers = {At("pivot", kGround, pivot), At("bob", 0, Vec3::Zero())};
  m.joints = {{"string", JointKind::kDistance, 0, 1, length}};
  m.gravity = {0.0, 0.0, -g};
  SpatialSystem system(m);
  time::IntegratorOptions options;
  options.alpha = 0.0;
  options.t_end = period;
  options.dt = period / 2000;
  options.position_scale = length;
  double height_error = 0.0;
  VecX q_end;
  const time::TransientResult result = time::Integrate(
      system, options, system.InitialPositions(), system.InitialVelocities(),
      [&](const time::StepRecord& r) {
        height_error = std::max(height_error, std::abs((*r.q)(2) - (pivot.z() - depth)));
        q_end = *r.q;
      });
  ASSERT_TRUE(result.status) << result.status.message;
  const double return_error = (q_end.head<3>() - m.bodies[0].position).norm();
  std::printf(
      "conical pendulum: height error %.2e m, return after one period %.2e m (r = %.2f m)\n",
      height_error, return_error, radius);
  EXPECT_LT(height_error, 1e-9 * length);
  EXPECT_LT(return_error, 1e-4 * radius);
}

// Crank (radius r) driven at constant speed by a driven revolute joint, a massless rod
// (distance joint, length l) to a slider on a prismatic joint, all in a plane tilted in
// space: the slider's travel along the guide is r cos(phi) + sqrt(l^2 - r^2 sin^2(phi)).
TEST(SpatialSystem, DrivenSliderCrankInATiltedPlaneFollowsItsClosedForm) {
  const double r = 0.1, l = 0.35, omega = 20.0;
  const Mat3 tilt = Rotation(0.9, {1.0, 2.0, -0.5});
  const Vec3 guide = tilt.col(0);
  SpatialModel m;
  m.bodies = {Rigid("crank", 1.0, {1e-4, 1e-3, 1e-3}, 0.5 * r * guide, tilt),
              Rigid("slider", 0.5, {1e-4, 1e-4, 1e-4}, (r + l) * guide, tilt)};
  m.markers = {At("origin", kGround, Vec3::Zero(), tilt), At("crank_o", 0, {-0.5 * r, 0.0, 0.0}),
               At("crank_pin", 0, {0.5 * r, 0.0, 0.0}), At("slider", 1, Vec3::Zero())};
  Joint motor{"motor", JointKind::kDrivenRevolute, 0, 1};
  motor.motion = time::TimeFunction::Ramp(0.0, omega);
  m.joints = {
      motor, {"guide", JointKind::kPrismatic, 0, 3}, {"rod", JointKind::kDistance, 2, 3, l}};
  m.gravity = {0.0, 0.0, -9.81};
  SpatialSystem system(m);
  VecX q = system.InitialPositions(), v = system.InitialVelocities();
  double correction = 0.0;
  ASSERT_TRUE(system.ConsistentInitialState(0.0, q, v, 1e-12, correction));
  EXPECT_LT(correction, 1e-15);
  time::IntegratorOptions options;
  options.alpha = -0.05;
  options.t_end = 2.0 * kPi / omega;
  options.dt = options.t_end / 2000;
  options.position_scale = l;
  double position_error = 0.0, velocity_error = 0.0, torque_power = 0.0, t_prev = 0.0;
  const time::TransientResult result =
      time::Integrate(system, options, q, v, [&](const time::StepRecord& rec) {
        const double phi = omega * rec.t, s = std::sin(phi), c = std::cos(phi);
        const double root = std::sqrt(l * l - r * r * s * s);
        const Vec3 x = system.MarkerPosition(*rec.q, 3),
                   w = system.MarkerVelocity(*rec.q, *rec.v, 3);
        position_error = std::max(position_error, (x - (r * c + root) * guide).norm());
        const double rate = -r * s * omega - r * r * s * c * omega / root;
        velocity_error = std::max(velocity_error, (w - rate * guide).norm());
        // The driving torque's work (rectangle rule) against the constraint work.
        torque_power += system.JointForces(0, *rec.q, *rec.lambda)[5] * omega * (rec.t - t_prev);
        t_prev = rec.t;
      });
  ASSERT_TRUE(result.status) << result.status.message;
  std::printf(
      "tilted slider-crank: slider position error %.2e m, velocity error %.2e m/s (peak %.2f), "
      "motor work %.4e J vs constraint work %.4e J\n",
      position_error, velocity_error, r * omega * 1.2, torque_power, result.energy.constraint_work);
  EXPECT_LT(position_error, 1e-9);
  EXPECT_LT(velocity_error, 1e-3 * r * omega);
}

// A heavy symmetric top on a spherical joint (Lagrange's top) in steady precession: at
// tilt theta from the vertical with spin w3 about its axis, it precesses at the slow root
// of I1' cos(theta) W^2 - I3 w3 W + m g d = 0 (I1' about the pivot) without nutation.
TEST(SpatialSystem, HeavyTopPrecessesSteadilyAtTheClosedFormRate) {
  const double m = 0.5, d = 0.05, i1 = 2.5e-4, i3 = 4e-4, w3 = 100.0, g = 9.81, theta = 0.5236;
  const double i1_pivot = i1 + m * d * d, c = std::cos(theta);
  const double precession =
      (i3 * w3 - std::sqrt(i3 * i3 * w3 * w3 - 4.0 * i1_pivot * c * m * g * d)) /
      (2.0 * i1_pivot * c);
  const Vec3 axis(std::sin(theta), 0.0, c), pivot(0.0, 0.0, 0.1);
  Mat3 frame;
  frame << Vec3(c, 0.0, -std::sin(theta)), Vec3::UnitY(), axis;
  SpatialModel model;
  model.bodies = {Rigid("top", m, {i1, i1, i3}, pivot + d * axis, frame)};
  const Vec3 w = precession * Vec3::UnitZ() + (w3 - precession * c) * axis;
  model.bodies[0].angular_velocity = w;
  model.bodies[0].velocity = w.cross(d * axis);
  model.markers = {At("tip", 0, {0.0, 0.0, -d}), At("floor", kGround, pivot)};
  model.joints = {{"pivot", JointKind::kSpherical, 1, 0}};
  model.gravity = {0.0, 0.0, -g};
  SpatialSystem system(model);
  // HHT alpha = -0.05 (the default): with alpha = 0 the normalization rows' parasitic
  // velocity mode (p.v, zero in the exact motion) is undamped and grows at this spin.
  time::IntegratorOptions options;
  options.alpha = -0.05;
  options.t_end = 1.0;
  options.dt = 1e-4;
  options.position_scale = d;
  double tilt_error = 0.0, azimuth = 0.0, previous = 0.0;
  const time::TransientResult result =
      time::Integrate(system, options, system.InitialPositions(), system.InitialVelocities(),
                      [&](const time::StepRecord& r) {
                        const Vec3 s = system.Orientation(0, *r.q).col(2);
                        tilt_error = std::max(tilt_error, std::abs(std::acos(s.z()) - theta));
                        const double now = std::atan2(s.y(), s.x());
                        azimuth += std::remainder(now - previous, 2.0 * kPi);  // unwrapped
                        previous = now;
                      });
  ASSERT_TRUE(result.status) << result.status.message;
  const double rate = azimuth / options.t_end;
  std::printf(
      "heavy top: precession %.6f rad/s, closed form %.6f rad/s (error %.2e), largest tilt "
      "change %.2e rad\n",
      rate, precession, rate / precession - 1.0, tilt_error);
  EXPECT_NEAR(rate / precession, 1.0, 1e-4);
  EXPECT_LT(tilt_error, 1e-4);
}

// A disk on a revolute joint about a tilted axis held by a torsional spring-damper: the
// damped oscillation of its angle about the axis, J phi'' + c phi' + k phi = 0, against
// the closed form (frequency and decay).
TEST(SpatialSystem, TorsionalSpringDamperOscillatesAsItsClosedForm) {
  const double j = 0.02, k = 8.0, c = 0.04, phi0 = 0.4;
  const Mat3 tilt = Rotation(0.8, {1.0, -2.0, 0.5});
  SpatialModel m;
  m.bodies = {
      Rigid("disk", 2.0, {0.01, 0.01, j}, {0.1, 0.2, 0.3}, tilt * Rotation(phi0, {0, 0, 1}))};
  m.markers = {At("axis", kGround, {0.1, 0.2, 0.3}, tilt), At("hub", 0, Vec3::Zero())};
  m.joints = {{"bearing", JointKind::kRevolute, 0, 1}};
  m.rotational_springs = {{"torsion", 0, 1, k, c, 0.0}};
  m.gravity = {0.0, 0.0, -9.81};
  SpatialSystem system(m);
  EXPECT_NEAR(InitialRelativeAngle(m, 0, 1), -phi0, 1e-14);
  time::IntegratorOptions options;
  options.alpha = 0.0;
  options.t_end = 1.0;
  options.dt = 2e-4;
  options.position_scale = 0.1;
  const double w0 = std::sqrt(k / j), zeta = c / (2.0 * std::sqrt(k * j));
  const double wd = w0 * std::sqrt(1.0 - zeta * zeta);
  double error = 0.0, moment_error = 0.0;
  const time::TransientResult result = time::Integrate(
      system, options, system.InitialPositions(), system.InitialVelocities(),
      [&](const time::StepRecord& r) {
        // phi = the disk's angle about the axis from the marker's x axis.
        const Vec3 x = tilt.transpose() * system.Orientation(0, *r.q).col(0);
        const double phi = std::atan2(x.y(), x.x());
        const double exact = phi0 * std::exp(-zeta * w0 * r.t) *
                             (std::cos(wd * r.t) + zeta * w0 / wd * std::sin(wd * r.t));
        error = std::max(error, std::abs(phi - exact));
        const double rate = tilt.col(2).dot(system.AngularVelocity(0, *r.q, *r.v));
        moment_error = std::max(
            moment_error,
            std::abs(system.RotationalSpringMoment(0, *r.q, *r.v) - (-k * phi - c * rate)));
      });
  ASSERT_TRUE(result.status) << result.status.message;
  std::printf("torsional spring-damper: angle error %.2e rad (of %.2f), moment error %.1e N m\n",
              error, phi0, moment_error);
  EXPECT_LT(error, 1e-4 * phi0);
  EXPECT_LT(moment_error, 1e-7 * k * phi0);  // the rates of the joint-consistent state
}

TEST(SpatialSystem, InitialStateIsMadeConsistent) {
  SpatialModel m = TiltedPendulum(0.5, 0.6);
  m.bodies[0].position += Vec3(0.01, -0.02, 0.015);  // off the pin
  m.bodies[0].orientation = Rotation(0.05, {1.0, 0.0, 0.0}) * m.bodies[0].orientation;
  m.bodies[0].velocity = {0.3, 0.1, -0.2};  // not about the axis
  m.bodies[0].angular_velocity = {0.5, -1.0, 2.0};
  SpatialSystem system(m);
  VecX q = system.InitialPositions(), v = system.InitialVelocities();
  double correction = 0.0;
  ASSERT_TRUE(system.ConsistentInitialState(0.0, q, v, 1e-13, correction));
  EXPECT_GT(correction, 1e-3);
  EXPECT_LT((system.MarkerPosition(q, 1) - system.MarkerPosition(q, 0)).norm(), 1e-13);
  EXPECT_LT(system.MarkerVelocity(q, v, 1).norm(), 1e-13);
  const Vec3 axis = Vec3(1.0, 1.0, 0.0).normalized();
  EXPECT_LT((system.Orientation(0, q).col(2) - axis).norm(), 1e-13);
  const Vec3 w = system.AngularVelocity(0, q, v);
  EXPECT_LT((w - w.dot(axis) * axis).norm(), 1e-13);
}

TEST(SpatialSystem, RedundantJointsAreNamedAsSuch) {
  SpatialModel m = TiltedPendulum(0.5, 0.6);
  m.joints.push_back({"again", JointKind::kSpherical, 0, 1});
  SpatialSystem system(m);
  VecX q = system.InitialPositions(), v = system.InitialVelocities();
  double correction = 0.0;
  const Status status = system.ConsistentInitialState(0.0, q, v, 1e-12, correction);
  EXPECT_FALSE(status);
  EXPECT_NE(status.message.find("redundant"), std::string::npos) << status.message;
}

TEST(SpatialModel, RejectsBadInput) {
  const auto rule_of = [](SpatialModel m) {
    try {
      m.Validate();
    } catch (const InputError& e) {
      return e.key() + " = " + e.value() + ": " + e.rule();
    }
    return std::string("accepted");
  };
  const SpatialModel m = EveryElement();
  EXPECT_EQ(rule_of(m), "accepted");
  SpatialModel bad = m;
  bad.bodies[0].inertia(0, 0) = -1.0;
  EXPECT_EQ(rule_of(bad).substr(0, 37), "bodies[0].inertia = smallest eigenval");
  bad = m;
  bad.markers[1].orientation(0, 0) = 2.0;
  EXPECT_NE(rule_of(bad).find("markers[1].orientation"), std::string::npos);
  bad = m;
  bad.joints[0].marker_b = 5;  // a revolute joint on the point mass
  EXPECT_EQ(rule_of(bad),
            "joints[0].marker_b = p: this joint acts on rotations: its markers must be on "
            "rigid or flexible bodies or the ground");
  bad = m;
  bad.springs[0].length = 0.0;
  EXPECT_EQ(rule_of(bad), "springs[0].length = 0: must be > 0");
}

}  // namespace
}  // namespace jointdyn::mbs::spatial
