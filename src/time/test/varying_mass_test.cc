// Configuration-dependent inertia (SecondOrderSystem::mass_varies()): a rigid bar pinned at
// its end P, on the coordinates of P and its angle, so that M(q) and the quadratic velocity
// terms vary with the angle (seed 003 eq. 2.44), against the angle equation
// I_P theta'' = -m g d cos(theta) integrated independently; second order in dt; energy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "time/integrator.h"
#include "time/test/test_systems.h"

namespace jointdyn::time {
namespace {

constexpr double kMass = 1.3, kArm = 0.3, kInertia = 0.039, kGravity = 9.81;

// q = (x_P, y_P, theta); the centre of mass at P + A(theta) (d, 0). P is held at the origin
// by two linear constraints. Inertia force f = M(q) a - Q_v with
//   a_G = P'' + A S d theta'' - A d theta'^2,  f_P = m a_G,  f_theta = m (A S d) . a_G + J theta''.
class OffsetBar final : public SecondOrderSystem {
 public:
  int size() const override { return 3; }
  const Matrix& mass() const override { return storage_; }
  const Matrix& damping() const override { return storage_; }
  bool mass_varies() const override { return true; }
  Status Inertia(const VecX& q, const VecX& v, const VecX& a, VecX& f, Matrix* mass, Matrix* d_dq,
                 Matrix* d_dv) override {
    f = Force(q, v, a);
    if (mass)
      for (int j = 0; j < 3; ++j) mass->dense().col(j) = Force(q, VecX::Zero(3), VecX::Unit(3, j));
    // The tangents by central differences: this is a test system for the integrator.
    const double h = 1e-6;
    for (int j = 0; j < 3; ++j) {
      const VecX e = h * VecX::Unit(3, j);
      if (d_dq) d_dq->dense().col(j) = (Force(q + e, v, a) - Force(q - e, v, a)) / (2 * h);
      if (d_dv) d_dv->dense().col(j) = (Force(q, v + e, a) - Force(q, v - e, a)) / (2 * h);
    }
    return Status::Ok();
  }
  Status InternalForce(const StepPoint&, VecX&, Matrix*, Matrix*) override { return Status::Ok(); }
  // Gravity at the centre of mass: -m g on y_P and its moment -m g d cos(theta) about P.
  void ExternalForce(double, VecX& f) const override { f(1) = -kMass * kGravity; }
  bool has_configuration_loads() const override { return true; }
  Status ConfigurationLoad(double, const VecX& q, VecX& f, Matrix* tangent) override {
    f(2) = -kMass * kGravity * kArm * std::cos(q(2));
    if (tangent) tangent->dense()(2, 2) = kMass * kGravity * kArm * std::sin(q(2));
    return Status::Ok();
  }
  void Commit() override {}
  double StoredEnergy() const override { return 0.0; }
  int constraint_count() const override { return 2; }
  Status Constraints(double, const VecX& q, VecX& c, SparseMatrix* jacobian) override {
    c = q.head(2);
    if (jacobian) *jacobian = MatX(MatX::Identity(2, 3)).sparseView();
    return Status::Ok();
  }

 private:
  static VecX Force(const VecX& q, const VecX& v, const VecX& a) {
    const double c = std::cos(q(2)), s = std::sin(q(2));
    const Vec2 ad(kArm * c, kArm * s), asd(-kArm * s, kArm * c);  // A d, A S d
    const Vec2 a_g = a.head<2>() + asd * a(2) - ad * v(2) * v(2);
    VecX f(3);
    f << kMass * a_g, kMass * asd.dot(a_g) + kInertia * a(2);
    return f;
  }
  Matrix storage_ = MatX(MatX::Zero(3, 3));
};

// theta(t) from rest at theta0 by RK4 with a step far below the integrator's.
double ReferenceAngle(double theta0, double t_end, int steps) {
  const double i_p = kInertia + kMass * kArm * kArm, dt = t_end / steps;
  const auto f = [&](double th) { return -kMass * kGravity * kArm * std::cos(th) / i_p; };
  double y = theta0, z = 0.0;
  for (int i = 0; i < steps; ++i) testing::Rk4Step(f, dt, y, z);
  return y;
}

TEST(VaryingMass, OffsetBarFollowsTheAngleEquationAtSecondOrder) {
  const double theta0 = 0.3, t_end = 1.5;
  const double reference = ReferenceAngle(theta0, t_end, 1 << 16);
  std::vector<double> errors;
  for (const double dt : {t_end / 400, t_end / 800}) {
    OffsetBar bar;
    IntegratorOptions options;
    options.alpha = -0.02;
    options.t_end = t_end;
    options.dt = dt;
    options.position_scale = kArm;
    double energy_drift = 0.0;
    VecX q_end;
    const TransientResult result = Integrate(
        bar, options, Eigen::Vector3d(0.0, 0.0, theta0), VecX::Zero(3), [&](const StepRecord& r) {
          q_end = *r.q;
          energy_drift = std::max(
              energy_drift,
              std::abs(r.energy->kinetic - r.energy->external_work - r.energy->constraint_work));
        });
    ASSERT_TRUE(result.status) << result.status.message;
    errors.push_back(std::abs(q_end(2) - reference));
    std::printf(
        "offset bar dt = %.2e s: angle error %.3e rad, |T - W_external| %.2e J, "
        "numerical dissipation %.2e J, %.2f Newton iterations per step\n",
        dt, errors.back(), energy_drift, result.energy.numerical_dissipation,
        double(result.newton_iterations) / result.accepted_steps);
    EXPECT_LT(std::abs(q_end(0)) + std::abs(q_end(1)), 1e-12);
    EXPECT_LT(errors.back(), 1e-3);
  }
  EXPECT_NEAR(std::log2(errors[0] / errors[1]), 2.0, 0.2);
}

}  // namespace
}  // namespace jointdyn::time
