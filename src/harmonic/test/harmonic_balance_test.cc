// The harmonic-balance residual: linear systems against the direct complex solution, the
// analytic derivatives against central differences, condensation against the full
// equations, and the errors for inconsistent systems.
#include "harmonic/harmonic_balance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <string>

#include "core/error.h"
#include "harmonic/continuation.h"
#include "laws/contact_point.h"
#include "laws/coulomb.h"

namespace jointdyn::harmonic {
namespace {

// A chain of n unit masses: ground - k - m0 - k - m1 - ... - m(n-1), proportional damping,
// a cos force on the first DOF and a sin force of the third harmonic on the last.
HarmonicSystem Chain(int n, double k = 1e4, double c = 2.0) {
  HarmonicSystem system;
  system.mass = MatX::Identity(n, n);
  system.stiffness = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    system.stiffness(i, i) += k;
    if (i + 1 < n) {
      system.stiffness(i, i) += k;
      system.stiffness(i + 1, i + 1) += k;
      system.stiffness(i, i + 1) -= k;
      system.stiffness(i + 1, i) -= k;
    }
  }
  system.damping = c / k * system.stiffness;
  system.excitation = {{.dof = 0, .harmonic = 1, .cos_amplitude = 2.0},
                       {.dof = n - 1, .harmonic = 3, .sin_amplitude = 0.5},
                       {.dof = 1, .harmonic = 0, .cos_amplitude = 1.0}};
  return system;
}

NonlinearElement Polynomial(std::vector<double> c, int a, int b) {
  return {std::make_unique<MarchedForce>(std::make_unique<PolynomialKernel>(std::move(c)),
                                         MarchOptions{}),
          {a},
          {b}};
}

NonlinearElement Jenkins(double k_t, double f_s, int a, int b) {
  auto law = std::make_shared<laws::CoulombLaw>(laws::CoulombParams{k_t, 0.0, f_s}, 1);
  return {
      std::make_unique<MarchedForce>(std::make_unique<TangentialKernel>(law, 1.0), MarchOptions{}),
      {a},
      {b}};
}

// The seed 004 node-to-node element in 2D between DOFs (0, 1, 2) and (3, 4, 5): tangential
// x, y and the normal approach, with a preload of 5 N.
NonlinearElement Contact2d() {
  const laws::NodeToNodeParams params{.k_t = 3e3, .k_n = 1e4, .mu = 0.3, .n0 = 5.0};
  return {
      std::make_unique<MarchedForce>(
          std::make_unique<ContactKernel>(laws::MakeNodeToNodeElement(params, 2)), MarchOptions{}),
      {0, 1, 2},
      {3, 4, 5}};
}

PeriodicOptions Tight() {
  PeriodicOptions options;
  options.newton.residual_tolerance = 1e-13;
  options.newton.increment_tolerance = 1e-12;
  options.newton.max_iterations = 50;
  return options;
}

// A linear spring written as a nonlinear element is solved exactly: per harmonic
// Q = (K + k_e - k^2 w^2 M + i k w C)^-1 F, condensed or not.
TEST(HarmonicBalance, LinearElementMatchesTheDirectSolution) {
  const int n = 5;
  const double omega = 80.0, k_e = 3e3;
  const HarmonicBasis basis{.harmonics = 3};
  HarmonicSystem reference = Chain(n);
  reference.stiffness(2, 2) += k_e;
  reference.stiffness(3, 3) += k_e;
  reference.stiffness(2, 3) -= k_e;
  reference.stiffness(3, 2) -= k_e;
  for (bool condense : {false, true}) {
    HarmonicSystem system = Chain(n);
    system.elements.push_back(Polynomial({0.0, k_e}, 2, 3));
    HarmonicBalance hb(std::move(system), {.basis = basis, .samples = 16, .condense = condense});
    EXPECT_EQ(hb.num_unknowns(), (condense ? 2 : n) * basis.size());
    const PeriodicResult solved = SolvePeriodic(hb, omega, 1.0, Tight());
    ASSERT_TRUE(solved.status) << solved.status.message;
    for (int k : {0, 1, 3}) {
      const std::complex<double> i(0.0, 1.0);
      const Eigen::MatrixXcd d = (reference.stiffness - k * k * omega * omega * reference.mass)
                                     .cast<std::complex<double>>() +
                                 i * (k * omega) * reference.damping;
      Eigen::VectorXcd f = Eigen::VectorXcd::Zero(n);
      for (const ExcitationTerm& term : reference.excitation) {
        if (term.harmonic == k) f(term.dof) += term.cos_amplitude - i * term.sin_amplitude;
      }
      const Eigen::VectorXcd q = d.partialPivLu().solve(f);
      const int c = k == 0 ? 0 : basis.CosIndex(k - 1);
      for (int dof = 0; dof < n; ++dof) {
        EXPECT_NEAR(solved.point.coefficients(dof, c), q(dof).real(), 1e-12 * q.norm());
        if (k > 0) {
          EXPECT_NEAR(solved.point.coefficients(dof, c + 1), -q(dof).imag(), 1e-12 * q.norm());
        }
      }
    }
    // The second harmonic is not excited and stays zero.
    EXPECT_LT(solved.point.coefficients.col(basis.CosIndex(1)).cwiseAbs().maxCoeff(), 1e-15);
    // Half the level halves the harmonics; the static force is not scaled.
    const PeriodicResult half = SolvePeriodic(hb, omega, 0.5, Tight());
    ASSERT_TRUE(half.status) << half.status.message;
    const MatX& full = solved.point.coefficients;
    EXPECT_LT((half.point.coefficients.col(0) - full.col(0)).cwiseAbs().maxCoeff(),
              1e-12 * full.col(0).cwiseAbs().maxCoeff());
    EXPECT_LT(
        (half.point.coefficients.rightCols(6) - 0.5 * full.rightCols(6)).cwiseAbs().maxCoeff(),
        1e-12 * full.cwiseAbs().maxCoeff());
  }
}

// Without nonlinear elements the condensed problem has no unknowns: the continuation
// steps the frequency alone and recovers every point directly (compared with the complex
// solution of the first harmonic at each frequency).
TEST(HarmonicBalance, LinearSystemContinuesWithoutUnknowns) {
  const HarmonicBasis basis{.harmonics = 3};
  HarmonicSystem system = Chain(3);
  const HarmonicSystem reference = Chain(3);
  HarmonicBalance hb(std::move(system), {.basis = basis, .samples = 16});
  EXPECT_EQ(hb.num_unknowns(), 0);
  ContinuationOptions options;
  options.start = 20.0;
  options.end = 200.0;
  const ContinuationResult result = Continue(hb, options);
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_EQ(result.stop_reason, "reached the end");
  EXPECT_GT(result.points.size(), 10u);
  for (const SolutionPoint& point : result.points) {
    const std::complex<double> i(0.0, 1.0);
    const Eigen::MatrixXcd d = (reference.stiffness - point.omega * point.omega * reference.mass)
                                   .cast<std::complex<double>>() +
                               i * point.omega * reference.damping;
    const Eigen::VectorXcd q = d.partialPivLu().solve(Eigen::VectorXcd::Unit(3, 0) * 2.0);
    for (int dof = 0; dof < 3; ++dof) {
      EXPECT_NEAR(point.coefficients(dof, 1), q(dof).real(), 1e-12 * q.norm());
      EXPECT_NEAR(point.coefficients(dof, 2), -q(dof).imag(), 1e-12 * q.norm());
    }
  }
}

// dR/dq, dR/domega and dR/dlevel against central differences (condensed: the omega
// derivative of the Schur complement and of the condensed force).
TEST(HarmonicBalance, DerivativesMatchCentralDifferences) {
  const HarmonicBasis basis{.harmonics = 3};
  for (bool condense : {false, true}) {
    HarmonicSystem system = Chain(4);
    system.elements.push_back(Polynomial({0.0, 1e3, 2e6, 3e9}, 1, 2));
    system.elements.push_back(Polynomial({0.0, 0.0, 0.0, 5e9}, 3, -1));
    HarmonicBalance hb(std::move(system), {.basis = basis, .samples = 32, .condense = condense});
    const int n = hb.num_unknowns();
    VecX q(n);
    for (int i = 0; i < n; ++i) q(i) = 1e-4 * std::sin(1.0 + 3.0 * i);
    const double omega = 90.0, level = 0.7;
    VecX r, d_omega, d_level, plus, minus;
    MatX d_q;
    ASSERT_TRUE(hb.Evaluate(q, omega, level, r, &d_q, &d_omega, &d_level));
    double error = 0.0;
    const double h = 1e-9;
    for (int col = 0; col < n; ++col) {
      VecX qp = q, qm = q;
      qp(col) += h;
      qm(col) -= h;
      ASSERT_TRUE(hb.Evaluate(qp, omega, level, plus, nullptr, nullptr, nullptr));
      ASSERT_TRUE(hb.Evaluate(qm, omega, level, minus, nullptr, nullptr, nullptr));
      error = std::max(error, ((plus - minus) / (2 * h) - d_q.col(col)).cwiseAbs().maxCoeff());
    }
    EXPECT_LT(error, 1e-6 * d_q.cwiseAbs().maxCoeff()) << "condense " << condense;
    ASSERT_TRUE(hb.Evaluate(q, omega + 1e-5, level, plus, nullptr, nullptr, nullptr));
    ASSERT_TRUE(hb.Evaluate(q, omega - 1e-5, level, minus, nullptr, nullptr, nullptr));
    EXPECT_LT(((plus - minus) / 2e-5 - d_omega).cwiseAbs().maxCoeff(),
              1e-6 * d_omega.cwiseAbs().maxCoeff())
        << "condense " << condense;
    ASSERT_TRUE(hb.Evaluate(q, omega, level + 0.1, plus, nullptr, nullptr, nullptr));
    EXPECT_LT(((plus - r) / 0.1 - d_level).cwiseAbs().maxCoeff(), 1e-12) << "condense " << condense;
  }
}

// The same for a three-component element (the 2D contact with normal load variation,
// sliding and separating at this point): its Jacobian mapped from relative to absolute
// coordinates (eq. 26-27) against central differences of the residual.
TEST(HarmonicBalance, ContactElementDerivativesMatchCentralDifferences) {
  const HarmonicBasis basis{.harmonics = 3};
  HarmonicSystem system = Chain(7);
  system.elements.push_back(Contact2d());
  HarmonicBalance hb(std::move(system), {.basis = basis, .samples = 256});
  EXPECT_EQ(hb.num_unknowns(), 6 * basis.size());
  const int n = hb.num_unknowns();
  VecX q(n);
  for (int i = 0; i < n; ++i) q(i) = 1e-3 * std::sin(1.0 + 3.0 * i);
  VecX r, plus, minus;
  MatX d_q;
  ASSERT_TRUE(hb.Evaluate(q, 70.0, 1.0, r, &d_q, nullptr, nullptr));
  MatX reference(n, n);
  const double h = 1e-10;
  for (int col = 0; col < n; ++col) {
    VecX qp = q, qm = q;
    qp(col) += h;
    qm(col) -= h;
    ASSERT_TRUE(hb.Evaluate(qp, 70.0, 1.0, plus, nullptr, nullptr, nullptr));
    ASSERT_TRUE(hb.Evaluate(qm, 70.0, 1.0, minus, nullptr, nullptr, nullptr));
    reference.col(col) = (plus - minus) / (2 * h);
  }
  EXPECT_LT((reference - d_q).cwiseAbs().maxCoeff(), 1e-6 * d_q.cwiseAbs().maxCoeff());
}

// Condensation changes the unknowns, not the solution: a chain of 6 masses with Jenkins
// elements between masses 3 and 4 and from mass 5 to ground (both slipping), H = 3, solved
// condensed (3 nonlinear DOFs) and over all 6 DOFs, agrees to 1e-10 of the largest
// coefficient.
TEST(HarmonicBalance, CondensedAndFullSolutionsAgree) {
  const HarmonicBasis basis{.harmonics = 3};
  MatX solutions[2];
  int iterations[2];
  for (bool condense : {false, true}) {
    HarmonicSystem system = Chain(6);
    system.elements.push_back(Jenkins(4e3, 0.05, 3, 4));
    system.elements.push_back(Jenkins(2e3, 0.1, 5, -1));
    HarmonicBalance hb(std::move(system), {.basis = basis, .samples = 512, .condense = condense});
    EXPECT_EQ(hb.num_unknowns(), (condense ? 3 : 6) * basis.size());
    const PeriodicResult solved = SolvePeriodic(hb, 60.0, 1.0, Tight());
    ASSERT_TRUE(solved.status) << solved.status.message;
    solutions[condense] = solved.point.coefficients;
    iterations[condense] = solved.newton.iterations;
  }
  const double size = solutions[0].cwiseAbs().maxCoeff();
  const double difference = (solutions[0] - solutions[1]).cwiseAbs().maxCoeff();
  std::printf("condensed vs full: %.2e of %.2e m (Newton iterations %d full, %d condensed)\n",
              difference, size, iterations[0], iterations[1]);
  EXPECT_LT(difference, 1e-10 * size);
}

// The same with the 2D contact element (normal load variation, static preload balanced by
// the static term) in a chain of 9 DOFs: 6 nonlinear DOFs of 9.
TEST(HarmonicBalance, CondensedAndFullSolutionsAgreeWithContact) {
  const HarmonicBasis basis{.harmonics = 3};
  MatX solutions[2];
  for (bool condense : {false, true}) {
    HarmonicSystem system = Chain(9);
    system.excitation[0].cos_amplitude = 20.0;  // enough to slide and lift off
    system.elements.push_back(Contact2d());
    HarmonicBalance hb(std::move(system), {.basis = basis, .samples = 256, .condense = condense});
    const PeriodicResult solved = SolvePeriodic(hb, 150.0, 1.0, Tight());
    ASSERT_TRUE(solved.status) << solved.status.message;
    solutions[condense] = solved.point.coefficients;
    std::printf("contact, %s: %d Newton iterations, %d periods\n", condense ? "condensed" : "full",
                solved.newton.iterations, solved.point.periods);
  }
  // It does lift off (normal approach below -n0 / k_n = -0.5 mm) and slide (tangential
  // motion beyond the stick range mu n0 / k_t = 0.5 mm).
  Aft aft(basis, 256);
  VecX normal(256), tangential(256);
  aft.ToTime((solutions[1].row(2) - solutions[1].row(5)).transpose(), normal);
  aft.ToTime((solutions[1].row(0) - solutions[1].row(3)).transpose(), tangential);
  EXPECT_LT(normal.minCoeff(), -5e-4);
  EXPECT_GT(tangential.maxCoeff() - tangential.minCoeff(), 2 * 5e-4);
  const double size = solutions[0].cwiseAbs().maxCoeff();
  EXPECT_LT((solutions[0] - solutions[1]).cwiseAbs().maxCoeff(), 1e-10 * size);
}

// A symmetric system (cubic springs, Jenkins elements, harmonic forcing, no static
// force) keeps only odd harmonics: the odd-only basis (no static term, pairs 1, 3, 5)
// gives the full basis's solution, whose even terms vanish.
TEST(HarmonicBalance, OddOnlyBasisMatchesTheFullBasisForSymmetricSystems) {
  MatX solutions[2];
  for (bool odd : {false, true}) {
    HarmonicSystem system = Chain(4);
    system.excitation = {{.dof = 0, .harmonic = 1, .cos_amplitude = 3.0}};
    system.elements.push_back(Polynomial({0.0, 0.0, 0.0, 1e12}, 1, 2));
    system.elements.push_back(Jenkins(4e3, 0.3, 3, -1));
    HarmonicBalance hb(std::move(system),
                       {.basis = {.harmonics = 5, .odd_only = odd}, .samples = 256});
    const PeriodicResult solved = SolvePeriodic(hb, 70.0, 1.0, Tight());
    ASSERT_TRUE(solved.status) << solved.status.message;
    solutions[odd] = solved.point.coefficients;
  }
  const HarmonicBasis full{.harmonics = 5};
  const HarmonicBasis odd{.harmonics = 5, .odd_only = true};
  const double size = solutions[0].cwiseAbs().maxCoeff();
  for (int pair = 0; pair < odd.num_pairs(); ++pair) {  // harmonics 1, 3, 5
    const int k = odd.PairHarmonic(pair);
    for (int r = 0; r < 2; ++r) {
      EXPECT_LT(
          (solutions[1].col(odd.CosIndex(pair) + r) - solutions[0].col(full.CosIndex(k - 1) + r))
              .cwiseAbs()
              .maxCoeff(),
          1e-10 * size);
    }
  }
  // The third harmonic is there (the test is not trivially linear); even terms vanish.
  EXPECT_GT(solutions[0].col(full.CosIndex(2)).cwiseAbs().maxCoeff(), 1e-4 * size);
  for (int c :
       {0, full.CosIndex(1), full.CosIndex(1) + 1, full.CosIndex(3), full.CosIndex(3) + 1}) {
    EXPECT_LT(solutions[0].col(c).cwiseAbs().maxCoeff(), 1e-10 * size) << "coefficient " << c;
  }
}

TEST(HarmonicBalance, InconsistentSystemsNameTheKey) {
  auto expect_error = [](HarmonicSystem system, const std::string& key) {
    try {
      HarmonicBalance hb(std::move(system), {.basis = {.harmonics = 1}, .samples = 8});
      ADD_FAILURE() << "no error for " << key;
    } catch (const InputError& error) {
      EXPECT_EQ(error.key(), key) << error.what();
    }
  };
  HarmonicSystem bad_damping = Chain(3);
  bad_damping.damping = MatX::Zero(2, 2);
  expect_error(std::move(bad_damping), "damping");
  HarmonicSystem bad_dof = Chain(3);
  bad_dof.excitation[0].dof = 3;
  expect_error(std::move(bad_dof), "excitation[0].dof");
  HarmonicSystem bad_harmonic = Chain(3);  // the chain excites harmonic 3, H = 1 here
  expect_error(std::move(bad_harmonic), "excitation[1].harmonic");
  HarmonicSystem same_ends = Chain(3);
  same_ends.excitation.resize(1);
  same_ends.elements.push_back(Polynomial({0.0, 1.0}, 1, 1));
  expect_error(std::move(same_ends), "elements[0].dof_b[0]");

  const Status samples = HarmonicOptions{.basis = {.harmonics = 5}, .samples = 10}.Validate();
  EXPECT_FALSE(samples.ok);
  EXPECT_NE(samples.message.find("harmonic.samples = 10: must be >= 2 H + 1 = 11"),
            std::string::npos)
      << samples.message;
}

// A rigid-body mode of the linear part makes D_LL singular for the static term: a status,
// not NaN.
TEST(HarmonicBalance, SingularCondensationIsAStatus) {
  HarmonicSystem system;
  system.mass = MatX::Identity(2, 2);
  system.damping = MatX::Zero(2, 2);
  system.stiffness = MatX::Zero(2, 2);  // two free masses
  system.elements.push_back(Polynomial({0.0, 1e3}, 0, -1));
  HarmonicBalance hb(std::move(system), {.basis = {.harmonics = 1}, .samples = 8});
  VecX r;
  const Status status =
      hb.Evaluate(VecX::Zero(hb.num_unknowns()), 10.0, 1.0, r, nullptr, nullptr, nullptr);
  EXPECT_FALSE(status.ok);
  EXPECT_NE(status.message.find("singular at harmonic 0"), std::string::npos) << status.message;
}

// An arc-length corrector may step to omega <= 0: a failed evaluation (the step is cut),
// not an internal error.
TEST(HarmonicBalance, NonPositiveFrequencyIsAStatus) {
  HarmonicSystem system;
  system.mass = MatX::Identity(1, 1);
  system.damping = MatX::Zero(1, 1);
  system.stiffness = MatX::Identity(1, 1);
  system.elements.push_back(Polynomial({0.0, 1e3}, 0, -1));
  HarmonicBalance hb(std::move(system), {.basis = {.harmonics = 1}, .samples = 8});
  VecX r;
  for (double omega : {0.0, -2.0, std::nan("")}) {
    const Status status =
        hb.Evaluate(VecX::Zero(hb.num_unknowns()), omega, 1.0, r, nullptr, nullptr, nullptr);
    EXPECT_FALSE(status.ok);
    EXPECT_NE(status.message.find("positive, finite frequency"), std::string::npos)
        << status.message;
  }
}

}  // namespace
}  // namespace jointdyn::harmonic
