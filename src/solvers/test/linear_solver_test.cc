#include "solvers/linear_solver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace jointdyn::solvers {
namespace {

// Unsymmetric, diagonally dominant sparse matrix (a tridiagonal band plus a few far
// entries), deterministic.
SparseMatrix TestMatrix(int n) {
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < n; ++i) {
    entries.emplace_back(i, i, 4.0 + std::sin(1.0 + i));
    if (i + 1 < n) entries.emplace_back(i, i + 1, -1.0 + 0.3 * std::cos(2.0 * i));
    if (i > 0) entries.emplace_back(i, i - 1, -1.3);
    if (i + 7 < n) entries.emplace_back(i + 7, i, 0.5);
  }
  SparseMatrix a(n, n);
  a.setFromTriplets(entries.begin(), entries.end());
  return a;
}

VecX TestVector(int n) {
  VecX b(n);
  for (int i = 0; i < n; ++i) b(i) = std::cos(0.7 * i) + 0.1 * i;
  return b;
}

TEST(LinearSolver, DenseAndSparseAgreeAndSolve) {
  for (int n : {5, 50, 400}) {
    const SparseMatrix a = TestMatrix(n);
    const VecX b = TestVector(n);
    VecX x_dense, x_sparse;
    auto dense = MakeLinearSolver(LinearSolverKind::kDenseLU, n);
    ASSERT_TRUE(dense->Factor(a));
    ASSERT_TRUE(dense->Solve(b, x_dense));
    // Condition number of this diagonally dominant matrix is O(10): all solutions are
    // accurate to a few ulps of the solution norm.
    const double x_norm = x_dense.lpNorm<Eigen::Infinity>();
    for (auto kind :
         {LinearSolverKind::kSparseLU, LinearSolverKind::kUmfpackLU, LinearSolverKind::kAuto}) {
      auto sparse = MakeLinearSolver(kind, n);
      ASSERT_TRUE(sparse->Factor(a));
      ASSERT_TRUE(sparse->Solve(b, x_sparse));
      EXPECT_LE((x_dense - x_sparse).lpNorm<Eigen::Infinity>(), 1e-13 * x_norm) << n;
    }
    EXPECT_LE((a * x_dense - b).lpNorm<Eigen::Infinity>(), 1e-13 * b.lpNorm<Eigen::Infinity>());
  }
}

TEST(LinearSolver, SparseRefactorsWithSameAndChangedPattern) {
  const int n = 30;
  auto sparse = MakeLinearSolver(LinearSolverKind::kSparseLU, n);
  const VecX b = TestVector(n);
  VecX x;
  SparseMatrix a = TestMatrix(n);
  ASSERT_TRUE(sparse->Factor(a));
  a *= 2.0;  // same pattern, new values
  ASSERT_TRUE(sparse->Factor(a));
  ASSERT_TRUE(sparse->Solve(b, x));
  EXPECT_LE((a * x - b).lpNorm<Eigen::Infinity>(), 1e-13);
  a.coeffRef(0, n - 1) = 0.25;  // new entry: new pattern
  ASSERT_TRUE(sparse->Factor(a));
  ASSERT_TRUE(sparse->Solve(b, x));
  EXPECT_LE((a * x - b).lpNorm<Eigen::Infinity>(), 1e-13);
}

// A well-conditioned matrix in badly mixed units, D1 B D2 (entries from 1e-18 to 1e18, the
// 1-norm condition of the product about 1e36): the dense LU equilibrates it, so it is not
// taken for singular and solves to rounding (unscaled, its condition estimate was far below
// machine epsilon).
TEST(LinearSolver, DenseLUSolvesABadlyScaledRegularMatrix) {
  const SparseMatrix b = TestMatrix(6);
  const Eigen::VectorXd d1 = (VecX(6) << 1.0, 1e-9, 1e9, 1e3, 1e-6, 1.0).finished();
  const Eigen::VectorXd d2 = (VecX(6) << 1e9, 1.0, 1e-9, 1e-3, 1e6, 1e2).finished();
  const MatX a = d1.asDiagonal() * MatX(b) * d2.asDiagonal();
  const VecX x_exact = TestVector(6).cwiseQuotient(d2);  // x = D2^-1 y
  const VecX rhs = a * x_exact;
  auto dense = MakeLinearSolver(LinearSolverKind::kDenseLU, 6);
  const Status status = dense->Factor(a);
  ASSERT_TRUE(status) << status.message;
  VecX x;
  ASSERT_TRUE(dense->Solve(rhs, x));
  EXPECT_LT((d2.cwiseProduct(x - x_exact)).cwiseAbs().maxCoeff(), 1e-13);
}

TEST(LinearSolver, SingularAndNonFiniteMatricesFail) {
  // Two equal rows: exactly singular. A rank-one 3x3: singular after rounding.
  MatX equal_rows(2, 2);
  equal_rows << 1.0, 1.0, 1.0, 1.0;
  MatX rank_one = Eigen::Vector3d(1.0, 0.1, 3.0) * Eigen::RowVector3d(0.3, 1.0 / 3.0, 7.0);
  for (const MatX& dense_matrix : {equal_rows, rank_one}) {
    const SparseMatrix a = dense_matrix.sparseView();
    const VecX b = VecX::Ones(a.rows());
    for (auto kind :
         {LinearSolverKind::kDenseLU, LinearSolverKind::kSparseLU, LinearSolverKind::kUmfpackLU}) {
      auto solver = MakeLinearSolver(kind, static_cast<int>(a.rows()));
      Status status = solver->Factor(a);
      if (status) {
        VecX x;
        status = solver->Solve(b, x);
      }
      EXPECT_FALSE(status) << dense_matrix;
      EXPECT_NE(status.message.find("singular"), std::string::npos) << status.message;
    }
  }
  SparseMatrix bad = TestMatrix(4);
  bad.coeffRef(2, 2) = std::numeric_limits<double>::quiet_NaN();
  for (auto kind :
       {LinearSolverKind::kDenseLU, LinearSolverKind::kSparseLU, LinearSolverKind::kUmfpackLU}) {
    const Status status = MakeLinearSolver(kind, 4)->Factor(bad);
    EXPECT_FALSE(status);
    EXPECT_NE(status.message.find("non-finite"), std::string::npos) << status.message;
  }
}

}  // namespace
}  // namespace jointdyn::solvers
