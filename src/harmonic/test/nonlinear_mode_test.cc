// Nonlinear modes (EPMC) against closed forms: a linear two-DOF system with Rayleigh damping
// (every amplitude: the eigenfrequency, the Rayleigh damping ratio and the mode shape), the
// Duffing oscillator with one harmonic (omega^2 = omega0^2 + 3/4 k3 A^2 / m, no
// dissipation from the spring) and the SDOF with a Jenkins element with one harmonic (the
// describing function: frequency and damping ratio from microslip to gross slip); and the
// refusals (condensed equations, amplitudes out of order).
#include "harmonic/nonlinear_mode.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>

#include "harmonic/test/dense_system.h"
#include "harmonic/test/describing_functions.h"

namespace jointdyn::harmonic {
namespace {

std::vector<double> LogSpaced(double from, double to, int count) {
  std::vector<double> values;
  for (int i = 0; i < count; ++i)
    values.push_back(from * std::pow(to / from, static_cast<double>(i) / (count - 1)));
  return values;
}

NonlinearModeOptions ModeOptions(const VecX& shape, double omega, std::vector<double> amplitudes) {
  NonlinearModeOptions options;
  options.shape = shape;
  options.omega = omega;
  options.amplitudes = std::move(amplitudes);
  options.newton.residual_tolerance = 1e-12;
  options.newton.increment_tolerance = 1e-10;
  return options;
}

// m = 1 kg, k = 1e4 N/m, c = 2 N s/m and a nonlinear element to ground.
HarmonicSystem Sdof(std::unique_ptr<NonlinearForce> force) {
  HarmonicSystem system =
      DenseSystem(MatX::Constant(1, 1, 1.0), MatX::Constant(1, 1, 2.0), MatX::Constant(1, 1, 1e4));
  system.elements.push_back(Between(std::move(force), {0}, {-1}));
  return system;
}

TEST(NonlinearMode, LinearSystemGivesItsModesAndRayleighDamping) {
  MatX mass(2, 2), stiffness(2, 2);
  mass << 1.0, 0.0, 0.0, 2.0;
  stiffness << 3e4, -1e4, -1e4, 1e4;
  const double alpha = 1.0, beta = 1e-5;
  const MatX damping = alpha * mass + beta * stiffness;
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eigen(stiffness, mass);
  HarmonicBalance hb(DenseSystem(mass, damping, stiffness),
                     {.basis = {.harmonics = 3}, .samples = 64, .condense = false});
  for (int mode = 0; mode < 2; ++mode) {
    const double omega = std::sqrt(eigen.eigenvalues()(mode));
    const VecX phi = eigen.eigenvectors().col(mode);
    const NonlinearModeResult result =
        ContinueNonlinearMode(hb, ModeOptions(phi, omega, {1e-3, 1e-1, 10.0}));
    ASSERT_TRUE(result.status) << result.status.message;
    ASSERT_EQ(result.points.size(), 3u);
    for (const ModePoint& point : result.points) {
      EXPECT_NEAR(point.omega / omega, 1.0, 1e-12);
      EXPECT_NEAR(point.damping_ratio(), alpha / (2.0 * omega) + 0.5 * beta * omega, 1e-12);
      const double error = (point.coefficients.col(1) - point.amplitude * phi).norm() +
                           point.coefficients.rightCols(5).norm();
      EXPECT_LT(error, 1e-10 * point.amplitude) << "mode " << mode;
    }
  }
}

TEST(NonlinearMode, DuffingBackboneWithOneHarmonic) {
  const double k3 = 1e9;  // N/m^3: 3/4 k3 A^2 = k at A = 3.7 mm
  HarmonicBalance hb(Sdof(CubicForce(k3)),
                     {.basis = {.harmonics = 1}, .samples = 64, .condense = false});
  const NonlinearModeResult result =
      ContinueNonlinearMode(hb, ModeOptions(VecX::Ones(1), 100.0, LogSpaced(1e-4, 1e-2, 11)));
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_EQ(result.points.size(), 11u);
  for (const ModePoint& point : result.points) {
    const double a = point.amplitude;  // m = 1: A = a
    EXPECT_NEAR(point.omega / std::sqrt(1e4 + 0.75 * k3 * a * a), 1.0, 1e-12) << "A = " << a;
    EXPECT_NEAR(point.xi, 2.0, 1e-10) << "A = " << a;  // c / m: the spring dissipates nothing
  }
  EXPECT_GT(result.points.back().omega / 100.0, 2.9);  // 3/4 k3 A^2 = 7.5 k at the last
  std::printf("Duffing backbone: %zu amplitudes, %d Newton iterations, %.3f s\n",
              result.points.size(), result.newton_iterations, result.seconds);
}

// A first iterate other than the linear mode (ModeGuess), scaled to the first amplitude:
// at the Duffing solution of A = 1 cm (omega three times omega0) given at another scale it
// is converged at once, while the linear mode needs Newton iterations; a guess of the wrong
// size is refused naming the option.
TEST(NonlinearMode, StartsFromAGuessScaledToTheFirstAmplitude) {
  const double k3 = 1e9, a = 1e-2;
  HarmonicBalance hb(Sdof(CubicForce(k3)),
                     {.basis = {.harmonics = 1}, .samples = 64, .condense = false});
  NonlinearModeOptions options = ModeOptions(VecX::Ones(1), 100.0, {a});
  const NonlinearModeResult from_linear = ContinueNonlinearMode(hb, options);
  ASSERT_TRUE(from_linear.status) << from_linear.status.message;
  options.guess = ModeGuess{.mean = VecX::Zero(1),
                            .cosine = VecX::Constant(1, 3.0),
                            .omega = std::sqrt(1e4 + 0.75 * k3 * a * a),
                            .xi = 2.0};
  const NonlinearModeResult guessed = ContinueNonlinearMode(hb, options);
  ASSERT_TRUE(guessed.status) << guessed.status.message;
  EXPECT_GE(from_linear.newton_iterations, 4);
  EXPECT_LE(guessed.newton_iterations, 1);
  EXPECT_NEAR(guessed.points[0].omega / from_linear.points[0].omega, 1.0, 1e-12);
  EXPECT_NEAR(guessed.points[0].coefficients(0, 1), a, 1e-14);
  options.guess->mean = VecX::Zero(2);
  const NonlinearModeResult refused = ContinueNonlinearMode(hb, options);
  EXPECT_FALSE(refused.status);
  EXPECT_NE(refused.status.message.find("nonlinear_mode.guess"), std::string::npos);
}

// omega^2 = (k + Re nu(A)) / m and xi = c / m + Im nu(A) / (m omega) (the sine balance of
// the EPMC equation with one harmonic), nu the Jenkins describing function.
TEST(NonlinearMode, JenkinsSdofMatchesTheDescribingFunction) {
  const double k_t = 5e3, f_s = 1.0;  // stuck omega0 = sqrt(1.5e4), slip from A = 2e-4 m
  HarmonicBalance hb(Sdof(CoulombForce(k_t, 0.0, f_s)),
                     {.basis = {.harmonics = 1}, .samples = 1024, .condense = false});
  const NonlinearModeResult result = ContinueNonlinearMode(
      hb, ModeOptions(VecX::Ones(1), std::sqrt(1.5e4), LogSpaced(1e-5, 1e-2, 31)));
  ASSERT_TRUE(result.status) << result.status.message;
  double worst_omega = 0.0, worst_xi = 0.0, most_damped = 0.0;
  for (const ModePoint& point : result.points) {
    most_damped = std::max(most_damped, point.damping_ratio());
    const std::complex<double> nu = testing::JenkinsDescribingFunction(k_t, f_s, point.amplitude);
    const double omega = std::sqrt(1e4 + nu.real());
    const double xi = 2.0 + nu.imag() / omega;
    worst_omega = std::max(worst_omega, std::abs(point.omega / omega - 1.0));
    worst_xi = std::max(worst_xi, std::abs(point.xi / xi - 1.0));
  }
  std::printf(
      "Jenkins mode: %zu amplitudes (%d refined), %d Newton iterations, %.3f s; "
      "worst relative error omega %.2e, xi %.2e; D from %.4f (stuck) up to %.4f\n",
      result.points.size(), result.refinements, result.newton_iterations, result.seconds,
      worst_omega, worst_xi, result.points.front().damping_ratio(), most_damped);
  EXPECT_LT(worst_omega, 1e-5);
  EXPECT_LT(worst_xi, 1e-4);
  // From stuck (omega0, c / (2 m omega0)) through microslip (friction damping) to gross
  // slip (towards 100 rad/s, the friction's share of the damping falling as 1 / A).
  EXPECT_NEAR(result.points.front().omega, std::sqrt(1.5e4), 1e-9);
  EXPECT_NEAR(result.points.front().damping_ratio(), 1.0 / std::sqrt(1.5e4), 1e-12);
  EXPECT_LT(result.points.back().omega, 105.0);
  EXPECT_GT(most_damped, 4.0 * result.points.front().damping_ratio());
}

TEST(NonlinearMode, RefusesCondensedEquationsAndUnorderedAmplitudes) {
  const auto system = [] {
    MatX stiffness(2, 2);
    stiffness << 2.0, -1.0, -1.0, 1.0;
    HarmonicSystem s = DenseSystem(MatX::Identity(2, 2), MatX::Zero(2, 2), stiffness);
    s.elements.push_back(Between(CubicForce(1.0), {0}, {-1}));
    return s;
  };
  HarmonicBalance condensed(system(), {.basis = {.harmonics = 1}, .samples = 16});
  const VecX phi = VecX::Constant(2, std::sqrt(0.5));
  const NonlinearModeResult refused = ContinueNonlinearMode(condensed, ModeOptions(phi, 1.0, {1}));
  EXPECT_FALSE(refused.status);
  EXPECT_NE(refused.status.message.find("no condensation"), std::string::npos);
  HarmonicBalance hb(system(), {.basis = {.harmonics = 1}, .samples = 16, .condense = false});
  const NonlinearModeResult unordered = ContinueNonlinearMode(hb, ModeOptions(phi, 1.0, {2, 1}));
  EXPECT_FALSE(unordered.status);
  EXPECT_NE(unordered.status.message.find("nonlinear_mode.amplitudes"), std::string::npos);
}

}  // namespace
}  // namespace jointdyn::harmonic
