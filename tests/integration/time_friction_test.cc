// A mass on a spring with Coulomb friction (laws::CoulombLaw through a LawPoint): free
// decay against the rigid-plastic closed form, history committed only on accepted steps,
// and the law dissipation against the slider's loop area.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "laws/coulomb.h"
#include "laws/law_point.h"
#include "time/integrator.h"
#include "time/test/test_systems.h"

namespace jointdyn::time {
namespace {

constexpr double kPi = 3.14159265358979323846;

// m x'' + k x + tau(x) = 0, tau from a Coulomb law with stick stiffness c1 and limit
// R = mu * 1 N (whole-interface units: traction in N, pressure 1 N).
class FrictionOscillator final : public testing::UnitMassSdof {
 public:
  FrictionOscillator(double k, double c1, double friction_force)
      : k_(k), law_({c1, 0.0, friction_force}, 1), point_(law_) {}
  Status InternalForce(const StepPoint& point, VecX& f, Matrix* stiffness, Matrix*) override {
    x_ = (*point.q)(0);
    if (Status status = point_.Trial({Vec2(x_, 0.0), 1.0, point.dt}, response_); !status) {
      return status;
    }
    f(0) = k_ * x_ + response_.traction.x();
    if (stiffness) stiffness->sparse().coeffRef(0, 0) = k_ + response_.d_traction_d_slip(0, 0);
    return Status::Ok();
  }
  void ExternalForce(double, VecX&) const override {}
  void Commit() override {
    // The initial commit places the slider for x0 (from the virgin state): no step.
    if (steps_committed_++ > 0)
      slider_travel_ += std::abs(point_.trial()[0] - point_.committed()[0]);
    point_.Commit();
  }
  double StoredEnergy() const override { return 0.5 * k_ * x_ * x_ + response_.stored_energy; }

  // Total slider travel over the committed steps [m]: times the friction force, the loop
  // area.
  double slider_travel() const { return slider_travel_; }

 private:
  double k_;
  laws::CoulombLaw law_;
  laws::LawPoint point_;
  double x_ = 0.0;
  laws::TangentialResponse response_;
  double slider_travel_ = 0.0;
  int steps_committed_ = 0;
};

TEST(Friction, FreeDecayLosesFourFOverKPerCycle) {
  // 1 Hz oscillator, friction force 0.5 N: each half cycle the amplitude falls by 2 F / k
  // (rigid-plastic Coulomb, Den Hartog), until it stops within |x| <= F / k.
  const double k = 4.0 * kPi * kPi, friction = 0.5, c1 = 1000.0 * k, x0 = 0.2;
  FrictionOscillator system(k, c1, friction);
  IntegratorOptions options;
  options.scheme = Scheme::kNewmark;
  options.t_end = 6.0;
  options.dt = 5e-4;
  std::vector<double> turning_points;
  double previous_v = 0.0, previous_x = x0;
  const TransientResult result =
      Integrate(system, options, VecX::Constant(1, x0), VecX::Zero(1), [&](const StepRecord& r) {
        const double v = (*r.v)(0);
        if (previous_v != 0.0 && v * previous_v < 0.0) turning_points.push_back(previous_x);
        previous_v = v;
        previous_x = (*r.q)(0);
      });
  ASSERT_TRUE(result.status) << result.status.message;
  const double drop = 2.0 * friction / k;
  const int expected_half_cycles = static_cast<int>(std::ceil((x0 - friction / k) / drop));
  std::printf(
      "friction decay: %zu turning points (rigid-plastic: %d); first |x| %.5f, %.5f, "
      "%.5f m (exact %.5f, %.5f, %.5f)\n",
      turning_points.size(), expected_half_cycles, std::abs(turning_points.at(0)),
      std::abs(turning_points.at(1)), std::abs(turning_points.at(2)), x0 - drop, x0 - 2 * drop,
      x0 - 3 * drop);
  // Before sticking for good: the stick spring (F / c1 = 1.3e-5 m) and the step (the
  // turning point is the last step before the velocity changes sign: v dt = 0) limit the
  // agreement.
  for (int i = 0; i < expected_half_cycles - 1; ++i) {
    EXPECT_NEAR(std::abs(turning_points.at(i)), x0 - (i + 1) * drop, 2e-4) << i;
  }
  // Dissipation: the trapezoidal work of the law minus its stored energy equals the loop
  // area F * (slider travel), up to the quadrature error of the steps where it switches.
  const double loop_area = friction * system.slider_travel();
  const EnergyBalance& e = result.energy;
  std::printf(
      "friction: law dissipation %.6f J, loop area %.6f J, energy lost %.6f J, "
      "numerical %.2e J, %d steps, %d Newton iterations, %d factorizations\n",
      e.law_dissipation, loop_area, e.initial_stored - e.kinetic - e.stored,
      e.numerical_dissipation, result.accepted_steps, result.newton_iterations,
      result.factorizations);
  EXPECT_NEAR(e.law_dissipation, loop_area, 1e-3 * loop_area);
  EXPECT_GT(loop_area, 0.9 * (0.5 * k * x0 * x0 - 0.5 * k * std::pow(friction / k, 2)));
}

}  // namespace
}  // namespace jointdyn::time
