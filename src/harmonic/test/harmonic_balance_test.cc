// The harmonic-balance residual: linear systems against the direct complex solution, the
// analytic derivatives against central differences, condensation against the full
// equations, and the errors for inconsistent systems.
#include "harmonic/harmonic_balance.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "harmonic/continuation.h"
#include "harmonic/test/dense_system.h"
#include "laws/contact_point.h"
#include "laws/coulomb.h"

namespace jointdyn::harmonic {
namespace {

// A chain of n unit masses: ground - k - m0 - k - m1 - ... - m(n-1), proportional damping,
// a cos force on the first DOF and a sin force of the third harmonic on the last.
HarmonicSystem Chain(int n, double k = 1e4, double c = 2.0) {
  MatX stiffness = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    stiffness(i, i) += k;
    if (i + 1 < n) {
      stiffness(i, i) += k;
      stiffness(i + 1, i + 1) += k;
      stiffness(i, i + 1) -= k;
      stiffness(i + 1, i) -= k;
    }
  }
  HarmonicSystem system = DenseSystem(MatX::Identity(n, n), c / k * stiffness, stiffness);
  system.excitation = {{.dof = 0, .harmonic = 1, .cos_amplitude = 2.0},
                       {.dof = n - 1, .harmonic = 3, .sin_amplitude = 0.5},
                       {.dof = 1, .harmonic = 0, .cos_amplitude = 1.0}};
  return system;
}

NonlinearElement Polynomial(std::vector<double> c, int a, int b) {
  return Between(std::make_unique<MarchedForce>(std::make_unique<PolynomialKernel>(std::move(c)),
                                                MarchOptions{}),
                 {a}, {b});
}

NonlinearElement Jenkins(double k_t, double f_s, int a, int b) {
  auto law = std::make_shared<laws::CoulombLaw>(laws::CoulombParams{k_t, 0.0, f_s}, 1);
  return Between(
      std::make_unique<MarchedForce>(std::make_unique<TangentialKernel>(law, 1.0), MarchOptions{}),
      {a}, {b});
}

// The seed 004 node-to-node element in 2D between DOFs (0, 1, 2) and (3, 4, 5): tangential
// x, y and the normal approach, with a preload of 5 N.
NonlinearElement Contact2d() {
  const laws::NodeToNodeParams params{.k_t = 3e3, .k_n = 1e4, .mu = 0.3, .n0 = 5.0};
  return Between(
      std::make_unique<MarchedForce>(
          std::make_unique<ContactKernel>(laws::MakeNodeToNodeElement(params, 2)), MarchOptions{}),
      {0, 1, 2}, {3, 4, 5});
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
// Elements on linear combinations of DOFs (like the pairs of a reduced joint on the rows
// of R V): two cubic springs on the same three DOFs with different weights form one group;
// the residual's Jacobian (condensed or not) against central differences.
TEST(HarmonicBalance, ElementsOnCombinationsOfDofsMatchDifferences) {
  const HarmonicBasis basis{.harmonics = 3};
  for (bool condense : {false, true}) {
    HarmonicSystem system = Chain(5);
    for (const std::vector<DofWeight>& terms :
         {std::vector<DofWeight>{{0, 0.3}, {2, -1.2}, {3, 0.5}},
          std::vector<DofWeight>{{3, 2.0}, {2, 1.0}, {0, -1.0}}}) {
      NonlinearElement element{
          std::make_unique<MarchedForce>(
              std::make_unique<PolynomialKernel>(std::vector<double>{0.0, 2e3, 1e6, 3e9}),
              MarchOptions{}),
          {terms}};
      system.elements.push_back(std::move(element));
    }
    HarmonicBalance hb(std::move(system), {.basis = basis, .samples = 32, .condense = condense});
    EXPECT_EQ(hb.num_unknowns(), (condense ? 3 : 5) * basis.size());
    VecX q = VecX::LinSpaced(hb.num_unknowns(), -1e-3, 2e-3);
    VecX residual, plus, minus, d_omega;
    MatX jacobian;
    ASSERT_TRUE(hb.Evaluate(q, 50.0, 1.0, residual, &jacobian, &d_omega, nullptr));
    MatX reference(q.size(), q.size());
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      VecX qp = q, qm = q;
      qp(i) += 1e-7;
      qm(i) -= 1e-7;
      ASSERT_TRUE(hb.Evaluate(qp, 50.0, 1.0, plus, nullptr, nullptr, nullptr));
      ASSERT_TRUE(hb.Evaluate(qm, 50.0, 1.0, minus, nullptr, nullptr, nullptr));
      reference.col(i) = (plus - minus) / 2e-7;
    }
    EXPECT_LT((jacobian - reference).cwiseAbs().maxCoeff(), 1e-6 * reference.cwiseAbs().maxCoeff());
  }
}

TEST(HarmonicBalance, LinearElementMatchesTheDirectSolution) {
  const int n = 5;
  const double omega = 80.0, k_e = 3e3;
  const HarmonicBasis basis{.harmonics = 3};
  HarmonicSystem reference = Chain(n);
  reference.stiffness.coeffRef(2, 2) += k_e;
  reference.stiffness.coeffRef(3, 3) += k_e;
  reference.stiffness.coeffRef(2, 3) -= k_e;
  reference.stiffness.coeffRef(3, 2) -= k_e;
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

// The sparse condensation against a dense reference on a random 9-DOF system with
// different patterns in M (diagonal), K and C, nonlinear DOFs 2 and 6 (a zero force
// between them), excitation on linear and nonlinear DOFs: per harmonic the Schur complement
// S = D_NN - D_NL D_LL^-1 D_LN, the condensed force F_N - D_NL D_LL^-1 F_L, their omega
// derivatives and the recovered linear DOFs, computed densely with a full-pivoting LU,
// agree with Evaluate() and Recover() to rounding. Symmetric matrices (the solver reuses
// D_LL^-1 D_LN for D_NL D_LL^-1) and unsymmetric ones (transposed solves).
TEST(HarmonicBalance, SparseCondensationMatchesADenseReference) {
  const int n = 9;
  const std::vector<int> nn = {2, 6}, ll = {0, 1, 3, 4, 5, 7, 8};
  const HarmonicBasis basis{.harmonics = 3};
  const double omega = 3.1, level = 0.8;
  const std::complex<double> i(0.0, 1.0);
  for (bool symmetric : {true, false}) {
    std::srand(7);
    const MatX sparsity = (MatX::Random(n, n).array().abs() > 0.5).cast<double>().matrix();
    const MatX a = MatX::Random(n, n).cwiseProduct(sparsity);
    MatX k = a * a.transpose() + n * MatX::Identity(n, n);
    MatX c = 0.1 * (MatX::Random(n, n).cwiseProduct(sparsity.transpose()));
    c = c * c.transpose();
    if (!symmetric) {
      k += 0.3 * MatX::Random(n, n).cwiseProduct(sparsity);
      c += 0.05 * MatX::Random(n, n);
    }
    const MatX m = (VecX::Random(n).array().abs() + 0.5).matrix().asDiagonal();
    HarmonicSystem system = DenseSystem(m, c, k);
    system.excitation = {{.dof = 0, .harmonic = 1, .cos_amplitude = 1.5, .sin_amplitude = -0.4},
                         {.dof = 6, .harmonic = 1, .cos_amplitude = 0.7},
                         {.dof = 4, .harmonic = 3, .sin_amplitude = 2.0},
                         {.dof = 8, .harmonic = 0, .cos_amplitude = 1.1}};
    system.elements.push_back(Polynomial({0.0}, 2, 6));
    const std::vector<ExcitationTerm> excitation = system.excitation;
    HarmonicBalance hb(std::move(system), {.basis = basis, .samples = 16});
    ASSERT_EQ(hb.unknown_dofs(), nn);
    const int size = hb.num_unknowns();
    VecX q(size);
    for (int j = 0; j < size; ++j) q(j) = std::cos(1.0 + 2.0 * j);
    VecX r, d_omega;
    MatX d_q, coefficients;
    ASSERT_TRUE(hb.Evaluate(q, omega, level, r, &d_q, &d_omega, nullptr));
    ASSERT_TRUE(hb.Recover(q, omega, level, coefficients));
    double error = 0.0, largest = 0.0;
    auto compare = [&](double value, double reference) {
      error = std::max(error, std::abs(value - reference));
      largest = std::max(largest, std::abs(reference));
    };
    const CoefficientLayout& layout = hb.layout();
    for (int h = 0; h <= basis.harmonics; ++h) {
      const double kw = h * omega;
      const Eigen::MatrixXcd d = (k - kw * kw * m).cast<std::complex<double>>() + i * kw * c;
      const Eigen::MatrixXcd dd =
          (-2.0 * h * kw * m).cast<std::complex<double>>() + i * double(h) * c;
      Eigen::VectorXcd f = Eigen::VectorXcd::Zero(n);
      for (const ExcitationTerm& term : excitation)
        if (term.harmonic == h) f(term.dof) += term.cos_amplitude - i * term.sin_amplitude;
      const Eigen::FullPivLU<Eigen::MatrixXcd> lu(d(ll, ll));
      const Eigen::MatrixXcd y = lu.solve(d(ll, nn));
      const Eigen::VectorXcd w = lu.solve(f(ll));
      const Eigen::MatrixXcd s = d(nn, nn) - d(nn, ll) * y;
      const Eigen::MatrixXcd ds =
          dd(nn, nn) - dd(nn, ll) * y - d(nn, ll) * lu.solve(dd(ll, nn) - dd(ll, ll) * y);
      const Eigen::VectorXcd fb = f(nn) - d(nn, ll) * w;
      const Eigen::VectorXcd dfb = -dd(nn, ll) * w + d(nn, ll) * lu.solve(dd(ll, ll) * w);
      const int cos = h == 0 ? 0 : basis.CosIndex(h - 1);
      Eigen::VectorXcd q_n(2);
      for (int p = 0; p < 2; ++p) {
        q_n(p) = h == 0
                     ? std::complex<double>(q(layout.Index(p, 0)), 0.0)
                     : std::complex<double>(q(layout.Index(p, cos)), -q(layout.Index(p, cos + 1)));
      }
      const double scale = h == 0 ? 1.0 : level;  // the static force is not leveled
      const Eigen::VectorXcd residual = s * q_n - scale * fb;
      const Eigen::VectorXcd residual_omega = ds * q_n - scale * dfb;
      const Eigen::VectorXcd q_l = scale * w - y * q_n;
      for (int p = 0; p < 2; ++p) {
        const int row = layout.Index(p, cos);
        compare(r(row), residual(p).real());
        if (h > 0) {
          compare(r(row + 1), -residual(p).imag());
          compare(d_omega(row), residual_omega(p).real());
          compare(d_omega(row + 1), -residual_omega(p).imag());
        }
        for (int t = 0; t < 2; ++t) {
          const int col = layout.Index(t, cos);
          compare(d_q(row, col), s(p, t).real());
          if (h == 0) continue;
          compare(d_q(row, col + 1), s(p, t).imag());
          compare(d_q(row + 1, col), -s(p, t).imag());
          compare(d_q(row + 1, col + 1), s(p, t).real());
        }
      }
      for (int l = 0; l < static_cast<int>(ll.size()); ++l) {
        compare(coefficients(ll[l], cos), q_l(l).real());
        if (h > 0) compare(coefficients(ll[l], cos + 1), -q_l(l).imag());
      }
    }
    EXPECT_LT(error, 1e-13 * largest) << (symmetric ? "symmetric" : "unsymmetric");
  }
}

// The dense paths refuse sizes they are not meant for, naming what to change: the
// uncondensed equations of a 1000-DOF chain with H = 7 (15000 unknowns) and the
// stability analysis of its condensed form.
TEST(HarmonicBalance, DensePathsRefuseLargeSystems) {
  const HarmonicBasis basis{.harmonics = 7};
  HarmonicSystem system = Chain(1000);
  system.excitation.resize(1);
  system.elements.push_back(Jenkins(4e3, 0.05, 999, -1));
  try {
    HarmonicBalance hb(Chain(1000), {.basis = basis, .samples = 64, .condense = false});
    ADD_FAILURE() << "no error for the uncondensed 1000-DOF chain";
  } catch (const InputError& error) {
    EXPECT_EQ(error.key(), "harmonic.condense") << error.what();
    EXPECT_NE(std::string(error.what()).find("15000 unknowns"), std::string::npos) << error.what();
  }
  HarmonicBalance hb(std::move(system), {.basis = basis, .samples = 64});
  EXPECT_EQ(hb.num_unknowns(), basis.size());
  PeriodicOptions options;
  options.stability = true;
  const PeriodicResult solved = SolvePeriodic(hb, 1.0, 1.0, options);
  EXPECT_FALSE(solved.status.ok);
  EXPECT_NE(solved.status.message.find("stability: false"), std::string::npos)
      << solved.status.message;
  MatX jacobian;
  EXPECT_FALSE(hb.FullJacobian(solved.point.coefficients, 1.0, jacobian).ok);
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
  bad_damping.damping = solvers::SparseMatrix(2, 2);
  expect_error(std::move(bad_damping), "damping");
  HarmonicSystem bad_dof = Chain(3);
  bad_dof.excitation[0].dof = 3;
  expect_error(std::move(bad_dof), "excitation[0].dof");
  HarmonicSystem bad_harmonic = Chain(3);  // the chain excites harmonic 3, H = 1 here
  expect_error(std::move(bad_harmonic), "excitation[1].harmonic");
  HarmonicSystem same_ends = Chain(3);
  same_ends.excitation.resize(1);
  same_ends.elements.push_back(Polynomial({0.0, 1.0}, 1, 1));
  expect_error(std::move(same_ends), "elements[0].terms[0]");

  const Status samples = HarmonicOptions{.basis = {.harmonics = 5}, .samples = 10}.Validate();
  EXPECT_FALSE(samples.ok);
  EXPECT_NE(samples.message.find("harmonic.samples = 10: must be >= 2 H + 1 = 11"),
            std::string::npos)
      << samples.message;
}

// A rigid-body mode of the linear part makes D_LL singular for the static term: a status,
// not NaN.
TEST(HarmonicBalance, SingularCondensationIsAStatus) {
  HarmonicSystem system =  // two free masses
      DenseSystem(MatX::Identity(2, 2), MatX::Zero(2, 2), MatX::Zero(2, 2));
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
  HarmonicSystem system = DenseSystem(MatX::Identity(1, 1), MatX::Zero(1, 1), MatX::Identity(1, 1));
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
