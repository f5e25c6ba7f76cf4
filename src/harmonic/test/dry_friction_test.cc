// The rigid Coulomb force of harmonic balance (dry_friction.h) against closed forms (the
// square wave), a fine midpoint quadrature of F_s sgn(r'), central differences of its
// coefficients (Jacobian) and its own Jacobian (rate Jacobian), and its degenerate cases.
#include "harmonic/dry_friction.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

namespace jointdyn::harmonic {
namespace {

constexpr double kPi = std::numbers::pi;

// Coefficients of F_s sgn(r'(theta)) by the midpoint rule on `samples` points: the error
// is at most 2 F_s (crossings) (2 pi / samples) / pi per coefficient (each crossing's
// interval is off by at most one cell).
VecX Quadrature(const HarmonicBasis& basis, const VecX& x, double f_s, int samples) {
  const VecX slope = DerivativeMatrix(basis) * x;
  VecX f = VecX::Zero(basis.size());
  for (int j = 0; j < samples; ++j) {
    const double theta = 2.0 * kPi * (j + 0.5) / samples;
    double r = basis.has_static() ? slope(0) : 0.0;
    for (int p = 0; p < basis.num_pairs(); ++p) {
      const int k = basis.PairHarmonic(p), c = basis.CosIndex(p);
      r += slope(c) * std::cos(k * theta) + slope(c + 1) * std::sin(k * theta);
    }
    const double force = r > 0.0 ? f_s : (r < 0.0 ? -f_s : 0.0);
    if (basis.has_static()) f(0) += force / samples;
    for (int p = 0; p < basis.num_pairs(); ++p) {
      const int k = basis.PairHarmonic(p), c = basis.CosIndex(p);
      f(c) += 2.0 * force * std::cos(k * theta) / samples;
      f(c + 1) += 2.0 * force * std::sin(k * theta) / samples;
    }
  }
  return f;
}

// A random displacement state: harmonics decaying like 1 / k, optionally a static offset.
VecX RandomState(const HarmonicBasis& basis, std::mt19937& rng, bool offset) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX x(basis.size());
  for (int c = 0; c < basis.size(); ++c) x(c) = 1e-3 * u(rng) / std::max(1, basis.HarmonicOf(c));
  if (basis.has_static()) x(0) = offset ? 5e-3 * u(rng) : 0.0;
  return x;
}

// r = A cos(theta - phi): the force is the square wave -F_s sgn(sin(theta - phi)), whose
// harmonics are -(4 F_s / (pi k)) sin(k (theta - phi)) for odd k and zero for even k.
TEST(DryFriction, HarmonicMotionGivesTheSquareWave) {
  const HarmonicBasis basis{.harmonics = 7};
  Aft aft(basis, 64);
  const double f_s = 1.5, a = 2e-3;
  DryFrictionForce force(f_s);
  double worst = 0.0;
  for (double phi : {0.0, 0.3, 1.0, 2.5, -2.0}) {
    MatX x = MatX::Zero(basis.size(), 1);
    x(1, 0) = a * std::cos(phi);
    x(2, 0) = a * std::sin(phi);
    x(0, 0) = 0.7;  // a static offset changes nothing
    MatX f, jacobian, d_omega;
    ASSERT_TRUE(force.Evaluate(aft, 50.0, x, f, &jacobian, &d_omega));
    EXPECT_EQ(force.crossings().size(), 2u);
    VecX expected = VecX::Zero(basis.size());
    for (int k = 1; k <= 7; k += 2) {
      const double amplitude = -4.0 * f_s / (kPi * k);  // times sin(k theta - k phi)
      expected(basis.CosIndex(k - 1)) = -amplitude * std::sin(k * phi);
      expected(basis.CosIndex(k - 1) + 1) = amplitude * std::cos(k * phi);
    }
    worst = std::max(worst, (f.col(0) - expected).cwiseAbs().maxCoeff());
    EXPECT_TRUE(jacobian.allFinite());
    EXPECT_EQ(d_omega.cwiseAbs().maxCoeff(), 0.0);  // rate independent
  }
  std::printf("square wave: worst coefficient error %.2e N\n", worst);
  EXPECT_LT(worst, 1e-14);
}

// Random multi-harmonic states (several crossings per period) against the fine quadrature,
// and the Jacobian against central differences of the coefficients (step 1e-7 of the
// state's size: truncation and rounding both about 1e-8 relative, while no crossing
// appears or vanishes). H = 5, N = 64, with and without a static offset.
TEST(DryFriction, CoefficientsAndJacobianAgainstQuadratureAndDifferences) {
  const HarmonicBasis basis{.harmonics = 5};
  Aft aft(basis, 64);
  const double f_s = 2.0;
  DryFrictionForce force(f_s);
  std::mt19937 rng(7);
  double worst_force = 0.0, worst_jacobian = 0.0;
  std::size_t most_crossings = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const bool offset = trial % 2 == 1;
    const MatX x = RandomState(basis, rng, offset);
    MatX f, jacobian;
    ASSERT_TRUE(force.Evaluate(aft, 80.0, x, f, &jacobian, nullptr));
    const std::size_t crossings = force.crossings().size();
    most_crossings = std::max(most_crossings, crossings);
    const int cells = 1 << 18;
    const VecX reference = Quadrature(basis, x.col(0), f_s, cells);
    const double quadrature_bound = 2.0 * f_s * crossings * (2.0 * kPi / cells) / kPi;
    worst_force = std::max(worst_force, (f.col(0) - reference).cwiseAbs().maxCoeff());
    EXPECT_LT((f.col(0) - reference).cwiseAbs().maxCoeff(), quadrature_bound);

    const double h = 1e-7 * x.cwiseAbs().maxCoeff();
    MatX differences(basis.size(), basis.size());
    for (int c = 0; c < basis.size(); ++c) {
      MatX plus = x, minus = x, f_plus, f_minus;
      plus(c, 0) += h;
      minus(c, 0) -= h;
      ASSERT_TRUE(force.Evaluate(aft, 80.0, plus, f_plus, nullptr, nullptr));
      ASSERT_EQ(force.crossings().size(), crossings);
      ASSERT_TRUE(force.Evaluate(aft, 80.0, minus, f_minus, nullptr, nullptr));
      ASSERT_EQ(force.crossings().size(), crossings);
      differences.col(c) = (f_plus - f_minus) / (2.0 * h);
    }
    const double error =
        (jacobian - differences).cwiseAbs().maxCoeff() / jacobian.cwiseAbs().maxCoeff();
    worst_jacobian = std::max(worst_jacobian, error);
    EXPECT_LT(error, 1e-6) << "trial " << trial << (offset ? " (static offset)" : "");
    EXPECT_EQ(jacobian.col(0).cwiseAbs().maxCoeff(), 0.0);  // the offset moves no crossing
  }
  std::printf(
      "random states (H = 5): up to %zu crossings; coefficients against quadrature %.2e N "
      "(midpoint rule, 2^18 cells), Jacobian against central differences %.2e (relative)\n",
      most_crossings, worst_force, worst_jacobian);
  EXPECT_GT(most_crossings, 2u);
}

// The force depends on the velocity omega r' only: d f / d X = R omega DerivativeMatrix
// with R the rate Jacobian, to rounding.
TEST(DryFriction, JacobianIsTheRateJacobianThroughTheVelocity) {
  const HarmonicBasis basis{.harmonics = 5};
  Aft aft(basis, 64);
  DryFrictionForce force(1.0);
  std::mt19937 rng(3);
  const double omega = 120.0;
  for (int trial = 0; trial < 4; ++trial) {
    const MatX x = RandomState(basis, rng, true);
    MatX f, jacobian, rate;
    ASSERT_TRUE(force.Evaluate(aft, omega, x, f, &jacobian, nullptr));
    ASSERT_TRUE(force.RateJacobian(aft, omega, x, rate));
    const MatX through_velocity = rate * omega * DerivativeMatrix(basis);
    EXPECT_LT((jacobian - through_velocity).cwiseAbs().maxCoeff(),
              1e-12 * jacobian.cwiseAbs().maxCoeff());
    // Rate Jacobian: a positive semi-definite weighting of phi phi^T (dissipative).
    VecX w = VecX::Ones(basis.size());
    w(0) = 2.0;  // undo the static term's projection weight 1/2: w R symmetric
    const MatX symmetric = w.asDiagonal() * rate;
    EXPECT_LT((symmetric - symmetric.transpose()).cwiseAbs().maxCoeff(),
              1e-14 * symmetric.cwiseAbs().maxCoeff());
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatX>(symmetric).eigenvalues().minCoeff(),
              -1e-12 * symmetric.cwiseAbs().maxCoeff());
  }
}

// No motion (no harmonics, or a static offset only): zero force and zero Jacobians (the
// documented choice in the set-valued law). Any motion, however small, has the full force
// (homogeneous of degree 0). Non-finite input fails with a message, never NaN.
TEST(DryFriction, DegenerateStates) {
  const HarmonicBasis basis{.harmonics = 3};
  Aft aft(basis, 32);
  DryFrictionForce force(1.0, "joint");
  MatX f, jacobian, d_omega, rate;
  for (double offset : {0.0, 3e-3}) {
    MatX x = MatX::Zero(basis.size(), 1);
    x(0, 0) = offset;
    ASSERT_TRUE(force.Evaluate(aft, 10.0, x, f, &jacobian, &d_omega));
    ASSERT_TRUE(force.RateJacobian(aft, 10.0, x, rate));
    EXPECT_EQ(f.cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ(jacobian.cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ(rate.cwiseAbs().maxCoeff(), 0.0);
    EXPECT_TRUE(force.crossings().empty());
  }
  MatX tiny = MatX::Zero(basis.size(), 1);
  tiny(2, 0) = 1e-200;  // r = 1e-200 sin(theta): f = F_s sgn(cos theta)
  ASSERT_TRUE(force.Evaluate(aft, 10.0, tiny, f, &jacobian, nullptr));
  EXPECT_NEAR(f(1, 0), 4.0 / kPi, 1e-14);
  EXPECT_TRUE(jacobian.allFinite());

  MatX bad = MatX::Zero(basis.size(), 1);
  bad(1, 0) = std::nan("");
  const Status status = force.Evaluate(aft, 10.0, bad, f, &jacobian, nullptr);
  EXPECT_FALSE(status);
  EXPECT_NE(status.message.find("dry friction 'joint'"), std::string::npos) << status.message;
}

// Tangential roots: r' = cos(theta - phi) + cos(2 (theta - phi)) touches zero at
// theta = phi + pi (a double root, r' <= 0 around it) and crosses at phi +- pi/3. The touch
// switches the force for no time: the coefficients are those of the two transversal
// crossings (against the quadrature), and the Jacobian stays finite. At phi = 0 the touch
// falls on a sample (N even).
TEST(DryFriction, TangentialRootsKeepTheForceAndAFiniteJacobian) {
  const HarmonicBasis basis{.harmonics = 2};
  Aft aft(basis, 64);
  DryFrictionForce force(1.0);
  for (double phi : {0.0, 0.1234}) {
    MatX x = MatX::Zero(basis.size(), 1);
    // r = sin(theta - phi) + sin(2 (theta - phi)) / 2.
    x(1, 0) = -std::sin(phi);
    x(2, 0) = std::cos(phi);
    x(3, 0) = -0.5 * std::sin(2.0 * phi);
    x(4, 0) = 0.5 * std::cos(2.0 * phi);
    MatX f, jacobian, rate;
    ASSERT_TRUE(force.Evaluate(aft, 10.0, x, f, &jacobian, nullptr));
    ASSERT_TRUE(force.RateJacobian(aft, 10.0, x, rate));
    const VecX reference = Quadrature(basis, x.col(0), 1.0, 1 << 18);
    EXPECT_LT((f.col(0) - reference).cwiseAbs().maxCoeff(), 1e-4) << "phi = " << phi;
    EXPECT_TRUE(jacobian.allFinite());
    EXPECT_TRUE(rate.allFinite());
    // The transversal crossings are among them; a touch kept by rounding is a pair of
    // crossings closer than 1e-6 rad.
    int transversal = 0;
    for (const auto& c : force.crossings()) {
      for (double root : {phi + kPi / 3.0, phi + 5.0 * kPi / 3.0})
        if (std::abs(c.theta - root) < 1e-12) ++transversal;
    }
    EXPECT_EQ(transversal, 2) << "phi = " << phi;
  }
}

}  // namespace
}  // namespace jointdyn::harmonic
