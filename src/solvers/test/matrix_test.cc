// solvers::Matrix: the operations on either storage agree with the same operations on the
// dense equivalent, mixed storage becomes dense, and the linear solvers factor a matrix
// stored dense to the same solution as stored sparse.
#include "solvers/matrix.h"

#include <gtest/gtest.h>

#include <limits>

#include "core/error.h"
#include "solvers/linear_solver.h"

namespace jointdyn::solvers {
namespace {

// A deterministic unsymmetric matrix with zeros (a band and a far entry), diagonally dominant.
MatX Banded(int n, double shift) {
  MatX a = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    a(i, i) = 4.0 + shift + 0.1 * i;
    if (i + 1 < n) a(i, i + 1) = -1.0 + 0.05 * i;
    if (i > 0) a(i, i - 1) = -1.3;
  }
  a(n - 1, 0) = 0.7;
  return a;
}

TEST(Matrix, SumsProductsAndNormsAgreeOnBothStorages) {
  const int n = 7;
  const MatX a = Banded(n, 0.0), b = Banded(n, 2.0).transpose();
  const VecX x = VecX::LinSpaced(n, -1.0, 2.0);
  const MatX expected = 0.5 * a + 3.0 * b;
  for (const bool dense_a : {false, true}) {
    for (const bool dense_b : {false, true}) {
      const Matrix ma = dense_a ? Matrix(a) : Matrix(a.sparseView());
      const Matrix mb = dense_b ? Matrix(b) : Matrix(b.sparseView());
      Matrix sum;
      sum.SetZeroLike(ma);
      EXPECT_EQ(sum.is_dense(), dense_a);
      EXPECT_EQ(sum.rows(), n);
      EXPECT_EQ(sum.MaxAbsEntry(), 0.0);
      sum.AddScaled(0.5, ma);
      sum.AddScaled(3.0, mb);
      EXPECT_EQ(sum.is_dense(), dense_a || dense_b);  // sparse + dense becomes dense
      EXPECT_EQ(sum.ToDense(), expected);
      EXPECT_LE((sum * x - expected * x).lpNorm<Eigen::Infinity>(), 1e-14);
      EXPECT_EQ(sum.MaxAbsEntry(), expected.cwiseAbs().maxCoeff());
      EXPECT_TRUE(sum.AllFinite());
    }
  }
  // Dense storage is reused: zeroing keeps the size and the buffer.
  Matrix dense(a);
  const double* buffer = dense.dense().data();
  dense.SetZeroLike(Matrix(b));
  EXPECT_EQ(dense.dense().data(), buffer);
  EXPECT_EQ(dense.ToDense(), MatX::Zero(n, n));
}

TEST(Matrix, NonFiniteEntriesAndTheWrongStorageAreFound) {
  MatX a = Banded(3, 0.0);
  a(1, 2) = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(Matrix(a).AllFinite());
  EXPECT_FALSE(Matrix(a.sparseView()).AllFinite());
  EXPECT_THROW(Matrix(a).sparse(), InternalError);
  EXPECT_THROW(Matrix(a.sparseView()).dense(), InternalError);
}

TEST(Matrix, EverySolverFactorsBothStoragesToTheSameSolution) {
  for (const int n : {5, 80}) {  // kAuto: dense LU below 64 unknowns, UMFPACK above
    const MatX a = Banded(n, 0.0);
    const VecX b = VecX::LinSpaced(n, 1.0, -1.0);
    const VecX reference = a.partialPivLu().solve(b);
    for (const auto kind : {LinearSolverKind::kAuto, LinearSolverKind::kDenseLU,
                            LinearSolverKind::kSparseLU, LinearSolverKind::kUmfpackLU}) {
      for (const Matrix& stored : {Matrix(a), Matrix(a.sparseView())}) {
        auto solver = MakeLinearSolver(kind, n);
        VecX x;
        ASSERT_TRUE(solver->Factor(stored));
        ASSERT_TRUE(solver->Solve(b, x));
        // Condition number O(10): a few ulps of the solution norm.
        EXPECT_LE((x - reference).lpNorm<Eigen::Infinity>(),
                  1e-13 * reference.lpNorm<Eigen::Infinity>())
            << n << " " << static_cast<int>(kind) << " dense " << stored.is_dense();
      }
    }
  }
}

}  // namespace
}  // namespace jointdyn::solvers
