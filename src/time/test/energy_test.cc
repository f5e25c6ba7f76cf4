// Energy balance: the energy-conserving Newmark variant with discrete gradients closes
// the balance to Newton tolerance on a conservative nonlinear chain; HHT dissipates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "time/integrator.h"
#include "time/test/test_systems.h"

namespace jointdyn::time {
namespace {

using testing::LinearSystem;
using testing::QuarticChain;

// Three unit masses on springs V(d) = 100 d^2 / 2 + 1e5 d^4 / 4: at |d| ~ 0.05 m the
// quartic force is 2.5 times the linear one.
constexpr double kLinear = 100.0, kQuartic = 1e5;

VecX InitialPositions() { return Eigen::Vector3d(0.05, -0.03, 0.08); }

double InitialEnergy() {
  const VecX q = InitialPositions();
  double energy = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double d = q(i) - (i > 0 ? q(i - 1) : 0.0);
    energy += 0.5 * kLinear * d * d + 0.25 * kQuartic * std::pow(d, 4);
  }
  return energy;
}

TransientResult RunChain(QuarticChain& chain, IntegratorOptions options) {
  options.t_end = 2.0;
  options.dt = 2e-3;
  return Integrate(chain, options, InitialPositions(), VecX::Zero(3));
}

TEST(Energy, ConservingVariantClosesTheBalance) {
  QuarticChain chain(3, kLinear, kQuartic);
  IntegratorOptions options;
  options.scheme = Scheme::kNewmark;
  options.energy_conserving = true;
  const TransientResult result = RunChain(chain, options);
  ASSERT_TRUE(result.status) << result.status.message;
  const EnergyBalance& e = result.energy;
  const double e0 = InitialEnergy();
  EXPECT_NEAR(e.initial_stored, e0, 1e-12 * e0);
  const double total = e.kinetic + e.stored;
  std::printf(
      "energy-conserving: E0 = %.6f J, E(end) = %.12f J, relative drift %.2e, "
      "numerical dissipation %.2e J, law dissipation %.2e J, %d Newton iterations in "
      "%d steps\n",
      e0, total, (total - e0) / e0, e.numerical_dissipation, e.law_dissipation,
      result.newton_iterations, result.accepted_steps);
  EXPECT_LE(std::abs(total - e0), 1e-6 * e0);
  EXPECT_LE(std::abs(e.numerical_dissipation), 1e-6 * e0);
  EXPECT_LE(std::abs(e.law_dissipation), 1e-6 * e0);
  EXPECT_GT(e.kinetic, 0.01 * e0);  // the chain moves: energy changes form
}

TEST(Energy, ConservingVariantWithExternalWork) {
  // A force on the last mass does work; the balance still closes.
  QuarticChain chain(3, kLinear, kQuartic, [](double t) {
    return VecX(Eigen::Vector3d(0.0, 0.0, 5.0 * std::sin(7.0 * t)));
  });
  IntegratorOptions options;
  options.scheme = Scheme::kNewmark;
  options.energy_conserving = true;
  const TransientResult result = RunChain(chain, options);
  ASSERT_TRUE(result.status) << result.status.message;
  const EnergyBalance& e = result.energy;
  const double change = e.kinetic + e.stored - e.initial_kinetic - e.initial_stored;
  std::printf(
      "energy-conserving, forced: external work %.6f J, change of T + V %.6f J, "
      "numerical dissipation %.2e J\n",
      e.external_work, change, e.numerical_dissipation);
  EXPECT_GT(std::abs(e.external_work), 0.01 * InitialEnergy());
  EXPECT_LE(std::abs(e.numerical_dissipation),
            1e-6 * std::max(std::abs(e.external_work), InitialEnergy()));
}

TEST(Energy, PlainNewmarkDoesNotConserveNonlinearEnergy) {
  // The control for the tests above: average acceleration with end-point forces satisfies
  // the trapezoidal balance (equilibrium holds at both ends of each step), but the
  // trapezoidal work of the quartic springs differs from their change of potential: the
  // energy drifts and shows as (spurious) law dissipation.
  QuarticChain chain(3, kLinear, kQuartic);
  IntegratorOptions options;
  options.scheme = Scheme::kNewmark;
  const TransientResult result = RunChain(chain, options);
  ASSERT_TRUE(result.status) << result.status.message;
  const EnergyBalance& e = result.energy;
  const double e0 = InitialEnergy();
  const double drift = e.kinetic + e.stored - e0;
  std::printf(
      "plain Newmark: energy drift %.3e J (%.2e of E0), law dissipation %.3e J, "
      "numerical %.2e J\n",
      drift, drift / e0, e.law_dissipation, e.numerical_dissipation);
  EXPECT_GT(std::abs(drift), 1e-4 * e0);
  EXPECT_NEAR(e.law_dissipation, -drift, 1e-9 * e0);
  EXPECT_LE(std::abs(e.numerical_dissipation), 1e-9 * e0);
}

TEST(Energy, HhtDissipatesNumerically) {
  double previous = 0.0;
  for (double alpha : {-0.05, -0.1, -0.3}) {
    QuarticChain chain(3, kLinear, kQuartic);
    IntegratorOptions options;
    options.scheme = Scheme::kHht;
    options.alpha = alpha;
    const TransientResult result = RunChain(chain, options);
    ASSERT_TRUE(result.status) << result.status.message;
    const EnergyBalance& e = result.energy;
    const double e0 = InitialEnergy();
    std::printf(
        "HHT alpha = %.2f: numerical dissipation %.4f J (%.2f %% of E0), law "
        "dissipation (quadrature) %.2e J\n",
        alpha, e.numerical_dissipation, 100.0 * e.numerical_dissipation / e0, e.law_dissipation);
    EXPECT_GT(e.numerical_dissipation, 1e-3 * e0);
    EXPECT_GT(e.numerical_dissipation, previous);  // grows with |alpha|
    previous = e.numerical_dissipation;
  }
}

TEST(Energy, ViscousDissipationOfALinearOscillator) {
  // m x'' + c x' + k x = 0 with Newmark average acceleration: the trapezoidal sums are
  // exact for this scheme on linear systems, so the viscous work equals the energy lost.
  LinearSystem system(MatX::Ones(1, 1), MatX::Constant(1, 1, 0.4), MatX::Constant(1, 1, 40.0));
  IntegratorOptions options;
  options.scheme = Scheme::kNewmark;
  options.t_end = 5.0;
  options.dt = 0.01;
  const TransientResult result = Integrate(system, options, VecX::Ones(1), VecX::Zero(1));
  ASSERT_TRUE(result.status);
  const EnergyBalance& e = result.energy;
  EXPECT_NEAR(e.initial_stored, 20.0, 1e-12);
  EXPECT_GT(e.viscous_dissipation, 0.5 * 20.0);
  EXPECT_NEAR(e.initial_stored - e.kinetic - e.stored, e.viscous_dissipation, 1e-8 * 20.0);
  EXPECT_NEAR(e.numerical_dissipation, 0.0, 1e-8 * 20.0);
}

}  // namespace
}  // namespace jointdyn::time
