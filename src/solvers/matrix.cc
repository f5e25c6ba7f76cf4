#include "solvers/matrix.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace jointdyn::solvers {

double MaxAbsEntry(const SparseMatrix& a) {
  double max_abs = 0.0;
  for (int k = 0; k < a.outerSize(); ++k) {
    for (SparseMatrix::InnerIterator it(a, k); it; ++it) {
      max_abs = std::max(max_abs, std::abs(it.value()));
    }
  }
  return max_abs;
}

bool SamePattern(const SparseMatrix& a, const SparseMatrix& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols() || a.nonZeros() != b.nonZeros() ||
      !a.isCompressed() || !b.isCompressed())
    return false;
  const auto n_outer = static_cast<std::size_t>(a.outerSize() + 1);
  const auto n_inner = static_cast<std::size_t>(a.nonZeros());
  return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + n_outer, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + n_inner, b.innerIndexPtr());
}

const MatX& Matrix::dense() const {
  JD_CHECK(is_dense_, "Matrix: dense storage expected, the matrix is sparse");
  return dense_;
}

MatX& Matrix::dense() {
  JD_CHECK(is_dense_, "Matrix: dense storage expected, the matrix is sparse");
  return dense_;
}

const SparseMatrix& Matrix::sparse() const {
  JD_CHECK(!is_dense_, "Matrix: sparse storage expected, the matrix is dense");
  return sparse_;
}

SparseMatrix& Matrix::sparse() {
  JD_CHECK(!is_dense_, "Matrix: sparse storage expected, the matrix is dense");
  return sparse_;
}

void Matrix::SetZeroLike(const Matrix& like) {
  is_dense_ = like.is_dense_;
  if (is_dense_) {
    dense_.setZero(like.rows(), like.cols());
    sparse_ = SparseMatrix();
  } else {
    sparse_ = like.sparse_;
    sparse_.makeCompressed();
    std::fill_n(sparse_.valuePtr(), sparse_.nonZeros(), 0.0);
    dense_ = MatX();
  }
}

void Matrix::AddScaled(double factor, const Matrix& other) {
  JD_CHECK(rows() == other.rows() && cols() == other.cols(), "Matrix::AddScaled: sizes differ");
  if (!is_dense_ && other.is_dense_) {
    dense_ = MatX(sparse_);
    sparse_ = SparseMatrix();
    is_dense_ = true;
  }
  if (!other.is_dense_ && other.sparse_.nonZeros() == 0) return;
  if (!is_dense_ && SamePattern(sparse_, other.sparse_)) {
    Eigen::Map<VecX>(sparse_.valuePtr(), sparse_.nonZeros()) +=
        factor * Eigen::Map<const VecX>(other.sparse_.valuePtr(), other.sparse_.nonZeros());
  } else if (!is_dense_) {
    sparse_ += factor * other.sparse_;
  } else if (other.is_dense_) {
    dense_ += factor * other.dense_;
  } else {
    dense_ += factor * other.sparse_;
  }
}

MatX Matrix::ToDense() const { return is_dense_ ? dense_ : MatX(sparse_); }

double Matrix::MaxAbsEntry() const {
  if (!is_dense_) return solvers::MaxAbsEntry(sparse_);
  return dense_.size() == 0 ? 0.0 : dense_.cwiseAbs().maxCoeff();
}

bool Matrix::AllFinite() const {
  if (is_dense_) return dense_.allFinite();
  for (int k = 0; k < sparse_.outerSize(); ++k) {
    for (SparseMatrix::InnerIterator it(sparse_, k); it; ++it) {
      if (!std::isfinite(it.value())) return false;
    }
  }
  return true;
}

VecX Matrix::operator*(const VecX& x) const {
  return is_dense_ ? VecX(dense_ * x) : VecX(sparse_ * x);
}

}  // namespace jointdyn::solvers
