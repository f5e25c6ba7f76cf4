#include "solvers/sparse_cholesky.h"

#include <cholmod.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"

namespace jointdyn::solvers {

struct SparseCholesky::Impl {
  cholmod_common common;
  cholmod_factor* factor = nullptr;

  Impl() {
    cholmod_start(&common);
    common.supernodal = CHOLMOD_SUPERNODAL;
    common.print = 0;
    common.error_handler = nullptr;  // failures are reported through Status
  }
  ~Impl() {
    FreeFactor();
    cholmod_finish(&common);
  }
  void FreeFactor() {
    if (factor != nullptr) cholmod_free_factor(&factor, &common);
  }
};

namespace {

// Below this reciprocal condition estimate ((min / max diagonal of L)^2) the matrix is
// taken as singular: a rigid-body mode factors with a pivot at rounding level, about
// 1e-16 relative (measured on free spring chains).
constexpr double kSingularRcond = 100.0 * std::numeric_limits<double>::epsilon();

// A CHOLMOD view of the lower triangle of a (no copy: CHOLMOD reads Eigen's arrays).
cholmod_sparse View(const SparseMatrix& a) {
  cholmod_sparse view{};
  view.nrow = static_cast<std::size_t>(a.rows());
  view.ncol = static_cast<std::size_t>(a.cols());
  view.nzmax = static_cast<std::size_t>(a.nonZeros());
  view.p = const_cast<int*>(a.outerIndexPtr());
  view.i = const_cast<int*>(a.innerIndexPtr());
  view.x = const_cast<double*>(a.valuePtr());
  view.stype = -1;  // symmetric, lower triangle stored (the upper one is ignored)
  view.itype = CHOLMOD_INT;
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  view.sorted = 1;
  view.packed = 1;
  return view;
}

Status CheckMatrix(const SparseMatrix& a) {
  JD_CHECK(a.isCompressed(), "SparseCholesky: the matrix must be compressed");
  if (a.rows() != a.cols() || a.rows() == 0)
    return Status::Failure("Cholesky factorization: the matrix is " + std::to_string(a.rows()) +
                           " x " + std::to_string(a.cols()) + ", not square and non-empty");
  for (int k = 0; k < a.nonZeros(); ++k) {
    if (!std::isfinite(a.valuePtr()[k]))
      return Status::Failure("Cholesky factorization: the matrix has a non-finite entry");
  }
  return Status::Ok();
}

}  // namespace

SparseCholesky::SparseCholesky() : impl_(std::make_unique<Impl>()) {}
SparseCholesky::~SparseCholesky() = default;

bool SparseCholesky::factored() const { return impl_->factor != nullptr; }

Status SparseCholesky::Factor(const SparseMatrix& a) {
  impl_->FreeFactor();
  size_ = 0;
  if (Status status = CheckMatrix(a); !status) return status;
  cholmod_sparse view = View(a);
  impl_->factor = cholmod_analyze(&view, &impl_->common);
  if (impl_->factor == nullptr)
    return Status::Failure("Cholesky factorization: the symbolic analysis failed (CHOLMOD status " +
                           std::to_string(impl_->common.status) + ", out of memory?)");
  size_ = static_cast<int>(a.rows());
  return Refactor(a);
}

Status SparseCholesky::Refactor(const SparseMatrix& a) {
  JD_CHECK(factored() && a.rows() == size_, "SparseCholesky::Refactor: Factor() first");
  if (Status status = CheckMatrix(a); !status) return status;
  cholmod_sparse view = View(a);
  cholmod_factorize(&view, impl_->factor, &impl_->common);
  const int status = impl_->common.status;
  const std::size_t minor = impl_->factor->minor;
  if (status == CHOLMOD_OK && minor == static_cast<std::size_t>(size_)) {
    // A singular positive semidefinite matrix may factor with a rounding-sized pivot.
    const double rcond = cholmod_rcond(impl_->factor, &impl_->common);
    if (rcond >= kSingularRcond) return Status::Ok();
    impl_->FreeFactor();
    size_ = 0;
    return Status::Failure(
        "Cholesky factorization: the matrix is not positive definite (numerically singular: "
        "reciprocal condition estimate " +
        FormatValue(rcond) + "; for a stiffness matrix: a DOF or part not supported)");
  }
  impl_->FreeFactor();
  size_ = 0;
  if (status == CHOLMOD_NOT_POSDEF || minor < static_cast<std::size_t>(a.rows()))
    return Status::Failure(
        "Cholesky factorization: the matrix is not positive definite (breakdown at column " +
        std::to_string(minor) + "; for a stiffness matrix: a DOF or part not supported)");
  return Status::Failure("Cholesky factorization failed (CHOLMOD status " + std::to_string(status) +
                         ", out of memory?)");
}

void SparseCholesky::Solve(const MatX& b, MatX& x) const {
  JD_CHECK(factored() && b.rows() == size_, "SparseCholesky::Solve: factor first, sizes");
  cholmod_dense view{};
  view.nrow = static_cast<std::size_t>(b.rows());
  view.ncol = static_cast<std::size_t>(b.cols());
  view.nzmax = view.nrow * view.ncol;
  view.d = view.nrow;
  view.x = const_cast<double*>(b.data());
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  cholmod_dense* solution = cholmod_solve(CHOLMOD_A, impl_->factor, &view, &impl_->common);
  JD_CHECK(solution != nullptr, "SparseCholesky::Solve: CHOLMOD failed (out of memory?)");
  x = Eigen::Map<const MatX>(static_cast<const double*>(solution->x), b.rows(), b.cols());
  cholmod_free_dense(&solution, &impl_->common);
}

VecX SparseCholesky::Solve(const VecX& b) const {
  MatX x;
  Solve(MatX(b), x);
  return x.col(0);
}

double SparseCholesky::factor_nonzeros() const {
  if (!factored()) return 0.0;
  const cholmod_factor* f = impl_->factor;
  return static_cast<double>(f->is_super ? f->xsize : f->nzmax);
}

}  // namespace jointdyn::solvers
