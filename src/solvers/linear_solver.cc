#include "solvers/linear_solver.h"

#include <Eigen/LU>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"

namespace jointdyn::solvers {
namespace {

constexpr int kDenseLimit = 64;  // kAuto: dense LU up to this many unknowns
// Sparse LU: a relative backward error above this marks a numerically singular matrix
// (a stable solve of a regular system gives about n * machine epsilon).
constexpr double kBackwardErrorLimit = 1e-8;

bool AllFinite(const SparseMatrix& a) {
  for (int k = 0; k < a.outerSize(); ++k) {
    for (SparseMatrix::InnerIterator it(a, k); it; ++it) {
      if (!std::isfinite(it.value())) return false;
    }
  }
  return true;
}

Status CheckInput(const SparseMatrix& a) {
  JD_CHECK(a.rows() == a.cols(), "linear solver: the matrix must be square");
  if (!AllFinite(a)) return Status::Failure("matrix has non-finite entries");
  return Status::Ok();
}

// Same sparsity pattern of two compressed matrices.
bool SamePattern(const SparseMatrix& a, const SparseMatrix& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols() || a.nonZeros() != b.nonZeros()) return false;
  const auto n_outer = static_cast<std::size_t>(a.outerSize() + 1);
  const auto n_inner = static_cast<std::size_t>(a.nonZeros());
  return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + n_outer, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + n_inner, b.innerIndexPtr());
}

Status CheckSolution(const VecX& x) {
  if (!x.allFinite()) return Status::Failure("solution has non-finite entries");
  return Status::Ok();
}

class DenseLU final : public LinearSolver {
 public:
  Status Factor(const SparseMatrix& a) override {
    factored_ = false;
    if (Status status = CheckInput(a); !status) return status;
    lu_.compute(MatX(a));
    // Reciprocal condition estimate (1-norm): below machine epsilon the matrix is
    // numerically singular and the solution would be noise.
    const double rcond = lu_.rcond();
    if (!(rcond >= std::numeric_limits<double>::epsilon())) {
      return Status::Failure("singular matrix (dense LU, reciprocal condition estimate " +
                             FormatValue(rcond) + ")");
    }
    factored_ = true;
    return Status::Ok();
  }

  Status Solve(const VecX& b, VecX& x) const override {
    JD_CHECK(factored_, "dense LU: Solve() without a successful Factor()");
    x = lu_.solve(b);
    return CheckSolution(x);
  }

 private:
  Eigen::PartialPivLU<MatX> lu_;
  bool factored_ = false;
};

class SparseLU final : public LinearSolver {
 public:
  Status Factor(const SparseMatrix& a) override {
    factored_ = false;
    if (Status status = CheckInput(a); !status) return status;
    SparseMatrix compressed = a;
    compressed.makeCompressed();
    const bool same_pattern = analyzed_ && SamePattern(compressed, a_);
    a_.swap(compressed);
    // The symbolic analysis (column ordering) is redone only when the pattern changes.
    if (!same_pattern) lu_.analyzePattern(a_);
    analyzed_ = true;
    lu_.factorize(a_);
    if (lu_.info() != Eigen::Success) {
      return Status::Failure("singular matrix (sparse LU: " + lu_.lastErrorMessage() + ")");
    }
    factored_ = true;
    return Status::Ok();
  }

  Status Solve(const VecX& b, VecX& x) const override {
    JD_CHECK(factored_, "sparse LU: Solve() without a successful Factor()");
    // Eigen's SparseLU::solve is not const: solving does not change the factors.
    x = const_cast<Eigen::SparseLU<SparseMatrix>&>(lu_).solve(b);
    if (Status status = CheckSolution(x); !status) return status;
    // SparseLU reports only exactly zero pivots: a nearly singular matrix shows in the
    // backward error of the solution.
    const double backward_error = (a_ * x - b).lpNorm<Eigen::Infinity>();
    const double scale =
        MaxAbsEntry(a_) * x.lpNorm<Eigen::Infinity>() + b.lpNorm<Eigen::Infinity>();
    if (backward_error > kBackwardErrorLimit * scale) {
      return Status::Failure("singular matrix (sparse LU: backward error " +
                             FormatValue(backward_error / scale) + ")");
    }
    return Status::Ok();
  }

 private:
  Eigen::SparseLU<SparseMatrix> lu_;
  SparseMatrix a_;  // the factored matrix (compressed), for the pattern and the backward error
  bool analyzed_ = false;
  bool factored_ = false;
};

}  // namespace

std::unique_ptr<LinearSolver> MakeLinearSolver(LinearSolverKind kind, int size) {
  switch (kind) {
    case LinearSolverKind::kAuto:
      if (size <= kDenseLimit) return std::make_unique<DenseLU>();
      return std::make_unique<SparseLU>();
    case LinearSolverKind::kDenseLU:
      return std::make_unique<DenseLU>();
    case LinearSolverKind::kSparseLU:
      return std::make_unique<SparseLU>();
  }
  JD_CHECK(false, "unknown LinearSolverKind");
}

}  // namespace jointdyn::solvers
