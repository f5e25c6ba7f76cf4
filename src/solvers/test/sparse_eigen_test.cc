// The supernodal Cholesky factorization and the shift-invert Lanczos eigensolver against
// dense Eigen results and the closed-form spectrum of a spring-mass chain.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "solvers/eigen_solver.h"
#include "solvers/sparse_cholesky.h"

namespace jointdyn::solvers {
namespace {

// Chain of n masses m and n + 1 springs k (both ends fixed, or free when `free`).
void Chain(int n, double k, double m, bool free, SparseMatrix& stiffness, SparseMatrix& mass) {
  std::vector<Eigen::Triplet<double>> kt, mt;
  for (int i = 0; i < n; ++i) {
    const bool left = i > 0 || !free, right = i < n - 1 || !free;
    kt.emplace_back(i, i, k * (left ? 1.0 : 0.0) + k * (right ? 1.0 : 0.0));
    if (i + 1 < n) {
      kt.emplace_back(i, i + 1, -k);
      kt.emplace_back(i + 1, i, -k);
    }
    mt.emplace_back(i, i, m);
  }
  stiffness.resize(n, n);
  mass.resize(n, n);
  stiffness.setFromTriplets(kt.begin(), kt.end());
  mass.setFromTriplets(mt.begin(), mt.end());
}

// A random sparse symmetric positive definite matrix (diagonally dominant).
SparseMatrix RandomSpd(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> col(0, n - 1);
  MatX dense = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    for (int e = 0; e < 3; ++e) {
      const int j = col(rng);
      const double v = u(rng);
      dense(i, j) += v;
      dense(j, i) += v;
    }
  }
  for (int i = 0; i < n; ++i) dense(i, i) = dense.row(i).cwiseAbs().sum() + 1.0;
  SparseMatrix a = dense.sparseView();
  a.makeCompressed();
  return a;
}

TEST(SparseCholesky, SolvesBlocksLikeDenseCholesky) {
  std::mt19937 rng(5);
  const SparseMatrix a = RandomSpd(300, rng);
  SparseCholesky cholesky;
  ASSERT_TRUE(cholesky.Factor(a)) << cholesky.Factor(a).message;
  EXPECT_GE(cholesky.factor_nonzeros(), (a.nonZeros() + a.rows()) / 2.0);
  const MatX b = MatX::Random(300, 7);
  MatX x;
  cholesky.Solve(b, x);
  const MatX reference = Eigen::LLT<MatX>(MatX(a)).solve(b);
  EXPECT_LT((x - reference).norm() / reference.norm(), 1e-12);
  // One column at a time gives the same columns.
  EXPECT_LT((cholesky.Solve(VecX(b.col(3))) - x.col(3)).norm(), 1e-12 * x.col(3).norm());
  // Refactor with the same pattern and other values.
  SparseMatrix scaled = 2.0 * a;
  ASSERT_TRUE(cholesky.Refactor(scaled));
  cholesky.Solve(b, x);
  EXPECT_LT((x - 0.5 * reference).norm() / reference.norm(), 1e-12);
}

TEST(SparseCholesky, ReportsWhereItBreaksDown) {
  SparseMatrix k, m;
  Chain(10, 1.0, 1.0, /*free=*/true, k, m);  // singular: a rigid-body mode
  k.makeCompressed();
  SparseCholesky cholesky;
  const Status status = cholesky.Factor(k);
  ASSERT_FALSE(status);
  EXPECT_NE(status.message.find("not positive definite"), std::string::npos) << status.message;
  EXPECT_FALSE(cholesky.factored());
  SparseMatrix bad = m;
  bad.coeffRef(2, 2) = std::nan("");
  bad.makeCompressed();
  EXPECT_FALSE(cholesky.Factor(bad));
}

// Fixed-fixed chain: lambda_j = (2 k / m) (1 - cos(j pi / (n + 1))), j = 1 .. n.
TEST(GeneralizedEigen, ChainSpectrumInClosedForm) {
  const int n = 400;
  const double k = 1e4, m = 0.5;
  SparseMatrix stiffness, mass;
  Chain(n, k, m, false, stiffness, mass);
  const EigenResult result = SolveGeneralizedEigen(stiffness, mass, {.count = 8});
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_EQ(result.values.size(), 8);
  for (int j = 1; j <= 8; ++j) {
    const double exact = 2.0 * k / m * (1.0 - std::cos(j * std::numbers::pi / (n + 1)));
    EXPECT_NEAR(result.values(j - 1), exact, 1e-9 * exact) << "mode " << j;
  }
  // M-orthonormal and K phi = lambda M phi.
  const MatX& phi = result.vectors;
  EXPECT_LT((phi.transpose() * mass * phi - MatX::Identity(8, 8)).norm(), 1e-9);
  for (int j = 0; j < 8; ++j) {
    const VecX r = stiffness * phi.col(j) - result.values(j) * (mass * phi.col(j));
    EXPECT_LT(r.norm(), 1e-7 * result.values(j) * (mass * phi.col(j)).norm());
  }
  EXPECT_GT(result.operator_applications, 0);
}

// A free chain has a rigid-body mode: a zero shift fails with advice, a negative one finds
// lambda = 0 and the elastic modes lambda_j = (2 k / m) (1 - cos(j pi / n)).
TEST(GeneralizedEigen, FreeStructureNeedsNegativeShift) {
  const int n = 50;
  SparseMatrix stiffness, mass;
  Chain(n, 2.0, 1.0, true, stiffness, mass);
  const EigenResult zero = SolveGeneralizedEigen(stiffness, mass, {.count = 3});
  ASSERT_FALSE(zero.status);
  EXPECT_NE(zero.status.message.find("negative shift"), std::string::npos) << zero.status.message;
  const EigenResult result = SolveGeneralizedEigen(stiffness, mass, {.count = 3, .shift = -1.0});
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_NEAR(result.values(0), 0.0, 1e-10);
  for (int j = 1; j < 3; ++j)
    EXPECT_NEAR(result.values(j), 4.0 * (1.0 - std::cos(j * std::numbers::pi / n)), 1e-10);
}

TEST(GeneralizedEigen, MatchesDenseSolverOnRandomPair) {
  std::mt19937 rng(9);
  const SparseMatrix k = RandomSpd(120, rng), m = RandomSpd(120, rng);
  const EigenResult result = SolveGeneralizedEigen(k, m, {.count = 6});
  ASSERT_TRUE(result.status) << result.status.message;
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> dense{MatX(k), MatX(m)};
  for (int j = 0; j < 6; ++j)
    EXPECT_NEAR(result.values(j), dense.eigenvalues()(j), 1e-10 * dense.eigenvalues()(j));
}

TEST(GeneralizedEigen, ReusesTheCallersFactor) {
  // The factor of K - sigma M made by the caller gives the same pairs as the solver's own.
  std::mt19937 rng(11);
  const SparseMatrix k = RandomSpd(120, rng), m = RandomSpd(120, rng);
  const EigenOptions options{.count = 5, .shift = -0.5};
  SparseMatrix shifted = k - options.shift * m;
  shifted.makeCompressed();
  SparseCholesky factor;
  ASSERT_TRUE(factor.Factor(shifted));
  const EigenResult reused = SolveGeneralizedEigen(factor, m, options);
  const EigenResult own = SolveGeneralizedEigen(k, m, options);
  ASSERT_TRUE(reused.status) << reused.status.message;
  ASSERT_TRUE(own.status) << own.status.message;
  EXPECT_EQ(reused.factor_seconds, 0.0);
  for (int j = 0; j < 5; ++j) {
    EXPECT_NEAR(reused.values(j), own.values(j), 1e-12 * own.values(j));
    // Same vector up to sign (M-normalized, distinct eigenvalues).
    EXPECT_NEAR(std::abs(reused.vectors.col(j).dot(m * own.vectors.col(j))), 1.0, 1e-9);
  }
}

TEST(GeneralizedEigen, RejectsBadOptions) {
  SparseMatrix k, m;
  Chain(5, 1.0, 1.0, false, k, m);
  EXPECT_FALSE(SolveGeneralizedEigen(k, m, {.count = 5}).status);
  EXPECT_FALSE(SolveGeneralizedEigen(k, m, {.count = 0}).status);
  EXPECT_FALSE(SolveGeneralizedEigen(k, m, {.count = 2, .subspace = 2}).status);
}

}  // namespace
}  // namespace jointdyn::solvers
