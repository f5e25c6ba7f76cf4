#include "solvers/linear_solver.h"

#include <Eigen/LU>
#include <Eigen/SparseLU>
#include <Eigen/UmfPackSupport>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"

namespace jointdyn::solvers {
namespace {

constexpr int kDenseLimit = 64;  // kAuto: dense LU for sparse matrices up to this many unknowns
// Sparse LU: a relative backward error above this marks a numerically singular matrix
// (a stable solve of a regular system gives about n * machine epsilon).
constexpr double kBackwardErrorLimit = 1e-8;

Status CheckInput(const Matrix& a) {
  JD_CHECK(a.rows() == a.cols(), "linear solver: the matrix must be square");
  if (!a.AllFinite()) return Status::Failure("matrix has non-finite entries");
  return Status::Ok();
}

Status CheckSolution(const VecX& x) {
  if (!x.allFinite()) return Status::Failure("solution has non-finite entries");
  return Status::Ok();
}

// Dense LU of the equilibrated matrix R A C (R, C diagonal: the rows, then the columns,
// scaled to a largest entry of about 1, as LAPACK's dgeequ), so that the singularity test does not
// mistake units for singularity: the reduced jointed structures mix mass-normalized modal
// coordinates with stiffness-normalized joint modes and penalty contact (harmonic balance
// of the friction bar with 60 joint modes: 1-norm condition estimate 1e16 unscaled).
class DenseLU final : public LinearSolver {
 public:
  Status Factor(const Matrix& a) override {
    factored_ = false;
    if (Status status = CheckInput(a); !status) return status;
    MatX scaled = a.is_dense() ? a.dense() : MatX(a.sparse());
    row_scale_ = Reciprocal(scaled.cwiseAbs().rowwise().maxCoeff());
    scaled = row_scale_.asDiagonal() * scaled;
    column_scale_ = Reciprocal(scaled.cwiseAbs().colwise().maxCoeff().transpose());
    lu_.compute(scaled * column_scale_.asDiagonal());
    // Reciprocal condition estimate (1-norm): below machine epsilon the matrix is
    // numerically singular and the solution would be noise.
    const double rcond = lu_.rcond();
    if (!(rcond >= std::numeric_limits<double>::epsilon())) {
      return Status::Failure("singular matrix (dense LU, reciprocal condition estimate " +
                             FormatValue(rcond) + " after equilibration)");
    }
    factored_ = true;
    return Status::Ok();
  }

  Status Solve(const VecX& b, VecX& x) const override {
    JD_CHECK(factored_, "dense LU: Solve() without a successful Factor()");
    x = column_scale_.cwiseProduct(lu_.solve(row_scale_.cwiseProduct(b)));
    return CheckSolution(x);
  }

 private:
  // 1 / v rounded to a power of 2 (the scaling itself exact), and 1 for a zero entry (an
  // empty row or column stays singular).
  static VecX Reciprocal(const VecX& v) {
    return v.unaryExpr(
        [](double e) { return e > 0.0 ? std::exp2(-std::round(std::log2(e))) : 1.0; });
  }

  VecX row_scale_, column_scale_;
  Eigen::PartialPivLU<MatX> lu_;
  bool factored_ = false;
};

// UMFPACK through Eigen, with UMFPACK's reciprocal condition estimate (smallest over
// largest pivot magnitude) of the last factorization, which Eigen keeps but does not expose.
class UmfPack final : public Eigen::UmfPackLU<SparseMatrix> {
 public:
  double rcond() const { return m_umfpackInfo(UMFPACK_RCOND); }
};

// Eigen's SparseLU or UMFPACK: the same protocol.
template <class Factorization>
class SparseLUSolver final : public LinearSolver {
 public:
  explicit SparseLUSolver(const char* name) : name_(name) {
    // UMFPACK refines each solution iteratively by default (up to 2 steps, which triples
    // the solve time); the backward-error check below guards the unrefined solution.
    if constexpr (requires { lu_.umfpackControl(); }) lu_.umfpackControl()(UMFPACK_IRSTEP) = 0;
  }

  Status Factor(const Matrix& a) override {
    factored_ = checked_ = false;
    if (Status status = CheckInput(a); !status) return status;
    SparseMatrix compressed = a.is_dense() ? SparseMatrix(a.dense().sparseView()) : a.sparse();
    compressed.makeCompressed();
    const bool same_pattern = analyzed_ && SamePattern(compressed, a_);
    a_.swap(compressed);
    max_abs_entry_ = MaxAbsEntry(a_);  // once per factorization, not per solve
    // The symbolic analysis (column ordering) is redone only when the pattern changes.
    if (!same_pattern) lu_.analyzePattern(a_);
    analyzed_ = true;
    lu_.factorize(a_);
    if (lu_.info() != Eigen::Success) {
      std::string detail = "numerical issue";
      if constexpr (requires { lu_.lastErrorMessage(); }) detail = lu_.lastErrorMessage();
      return Status::Failure("singular matrix (" + std::string(name_) + ": " + detail + ")");
    }
    if constexpr (requires { lu_.rcond(); }) {
      // Pivots below machine epsilon relative to the largest: numerically singular.
      if (!(lu_.rcond() >= std::numeric_limits<double>::epsilon()))
        return Status::Failure("singular matrix (" + std::string(name_) +
                               ", reciprocal condition estimate " + FormatValue(lu_.rcond()) + ")");
    }
    factored_ = true;
    return Status::Ok();
  }

  Status Solve(const VecX& b, VecX& x) const override {
    JD_CHECK(factored_, std::string(name_) + ": Solve() without a successful Factor()");
    // Eigen's sparse LU solve() is not const: solving does not change the factors.
    x = const_cast<Factorization&>(lu_).solve(b);
    if (Status status = CheckSolution(x); !status) return status;
    // Sparse LU reports only exactly zero pivots: a nearly singular matrix shows in the
    // backward error of the solution, the factorization's property: checked on its first.
    if (checked_) return Status::Ok();
    checked_ = true;
    const double backward_error = (a_ * x - b).lpNorm<Eigen::Infinity>();
    const double scale = max_abs_entry_ * x.lpNorm<Eigen::Infinity>() + b.lpNorm<Eigen::Infinity>();
    if (backward_error > kBackwardErrorLimit * scale) {
      return Status::Failure("singular matrix (" + std::string(name_) + ": backward error " +
                             FormatValue(backward_error / scale) + ")");
    }
    return Status::Ok();
  }

 private:
  const char* name_;
  Factorization lu_;
  SparseMatrix a_;  // the factored matrix (compressed), for the pattern and the backward error
  double max_abs_entry_ = 0.0;    // of a_
  mutable bool checked_ = false;  // the backward error of a solution with this factorization
  bool analyzed_ = false;
  bool factored_ = false;
};

using SparseLU = SparseLUSolver<Eigen::SparseLU<SparseMatrix>>;
using UmfpackLU = SparseLUSolver<UmfPack>;

// kAuto above kDenseLimit: chooses per factorization by the storage.
class AutoLU final : public LinearSolver {
 public:
  Status Factor(const Matrix& a) override {
    active_ =
        a.is_dense() ? static_cast<LinearSolver*>(&dense_) : static_cast<LinearSolver*>(&sparse_);
    return active_->Factor(a);
  }
  Status Solve(const VecX& b, VecX& x) const override {
    JD_CHECK(active_ != nullptr, "auto LU: Solve() without Factor()");
    return active_->Solve(b, x);
  }

 private:
  DenseLU dense_;
  UmfpackLU sparse_{"UMFPACK LU"};
  LinearSolver* active_ = nullptr;
};

}  // namespace

std::unique_ptr<LinearSolver> MakeLinearSolver(LinearSolverKind kind, int size) {
  switch (kind) {
    case LinearSolverKind::kAuto:
      if (size <= kDenseLimit) return std::make_unique<DenseLU>();
      return std::make_unique<AutoLU>();
    case LinearSolverKind::kDenseLU:
      return std::make_unique<DenseLU>();
    case LinearSolverKind::kSparseLU:
      return std::make_unique<SparseLU>("sparse LU");
    case LinearSolverKind::kUmfpackLU:
      return std::make_unique<UmfpackLU>("UMFPACK LU");
  }
  JD_CHECK(false, "unknown LinearSolverKind");
}

}  // namespace jointdyn::solvers
