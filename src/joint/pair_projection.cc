#include "joint/pair_projection.h"

#include <algorithm>
#include <string>
#include <utility>

#include "core/error.h"

namespace jointdyn::joint {

PairProjection::PairProjection(SparseRows r) : is_sparse_(true), sparse_(std::move(r)) {
  JD_CHECK(sparse_.rows() % 3 == 0, "PairProjection: three rows per pair");
  sparse_.makeCompressed();
  const int* outer = sparse_.outerIndexPtr();
  const int* inner = sparse_.innerIndexPtr();
  for (int i = 0; i < num_pairs(); ++i) {
    const int n = outer[3 * i + 1] - outer[3 * i];
    for (int a = 1; a < 3; ++a) {
      JD_CHECK(
          outer[3 * i + a + 1] - outer[3 * i + a] == n &&
              std::equal(inner + outer[3 * i], inner + outer[3 * i + 1], inner + outer[3 * i + a]),
          "PairProjection: the rows of pair " + std::to_string(i) + " differ in pattern");
    }
  }
}

PairProjection::PairProjection(DenseRows r) : is_sparse_(false), dense_(std::move(r)) {
  JD_CHECK(dense_.rows() % 3 == 0, "PairProjection: three rows per pair");
}

int PairProjection::PairLength(int pair) const {
  if (!is_sparse_) return cols();
  return sparse_.outerIndexPtr()[3 * pair + 1] - sparse_.outerIndexPtr()[3 * pair];
}

const double* PairProjection::RowData(int row) const {
  if (is_sparse_) return sparse_.valuePtr() + sparse_.outerIndexPtr()[row];
  return dense_.data() + static_cast<Eigen::Index>(row) * dense_.cols();
}

double* PairProjection::RowData(int row) {
  if (is_sparse_) return sparse_.valuePtr() + sparse_.outerIndexPtr()[row];
  return dense_.data() + static_cast<Eigen::Index>(row) * dense_.cols();
}

void PairProjection::Apply(const VecX& x, VecX& z) const {
  JD_CHECK(x.size() == cols(), "PairProjection::Apply: state size");
  if (is_sparse_) {
    z.noalias() = sparse_ * x;
  } else {
    z.noalias() = dense_ * x;
  }
}

void PairProjection::ApplyTranspose(const VecX& y, VecX& f) const {
  JD_CHECK(y.size() == rows(), "PairProjection::ApplyTranspose: size");
  if (is_sparse_) {
    f.noalias() = sparse_.transpose() * y;
  } else {
    f.noalias() = dense_.transpose() * y;
  }
}

void PairProjection::ScaleRows(std::span<const Mat3> blocks, std::span<const double> scale,
                               PairProjection& w) const {
  JD_CHECK(w.is_sparse_ == is_sparse_ && w.rows() == rows() && w.cols() == cols() &&
               (!is_sparse_ || w.sparse_.nonZeros() == sparse_.nonZeros()) &&
               static_cast<int>(blocks.size()) == num_pairs() &&
               static_cast<int>(scale.size()) == num_pairs(),
           "PairProjection::ScaleRows: w must be shaped like R, one block per pair");
  for (int i = 0; i < num_pairs(); ++i) {
    const double* r0 = RowData(3 * i);
    const double* r1 = RowData(3 * i + 1);
    const double* r2 = RowData(3 * i + 2);
    double* w0 = w.RowData(3 * i);
    double* w1 = w.RowData(3 * i + 1);
    double* w2 = w.RowData(3 * i + 2);
    const Mat3 b = scale[i] * blocks[i];
    for (int k = 0, n = PairLength(i); k < n; ++k) {
      const double v0 = r0[k], v1 = r1[k], v2 = r2[k];
      w0[k] = b(0, 0) * v0 + b(0, 1) * v1 + b(0, 2) * v2;
      w1[k] = b(1, 0) * v0 + b(1, 1) * v1 + b(1, 2) * v2;
      w2[k] = b(2, 0) * v0 + b(2, 1) * v1 + b(2, 2) * v2;
    }
  }
}

void PairProjection::TransposeTimes(const PairProjection& w, solvers::SparseMatrix& j) const {
  JD_CHECK(is_sparse_ && w.is_sparse_ && w.rows() == rows(),
           "PairProjection::TransposeTimes: sparse operators of equal shape");
  j = sparse_.transpose() * w.sparse_;
}

void PairProjection::TransposeTimes(const PairProjection& w, MatX& j) const {
  JD_CHECK(!is_sparse_ && !w.is_sparse_ && w.rows() == rows(),
           "PairProjection::TransposeTimes: dense operators of equal shape");
  j.resize(cols(), cols());
  j.noalias() = dense_.transpose() * w.dense_;
}

PairProjection PairProjection::Compose(const solvers::SparseMatrix& t) const {
  JD_CHECK(is_sparse_ && t.rows() == cols(), "PairProjection::Compose: sparse R, T rows = cols");
  // The sparse product keeps structural zeros, so equal row patterns stay equal.
  return PairProjection(SparseRows(sparse_ * t));
}

PairProjection PairProjection::Compose(const MatX& v) const {
  JD_CHECK(v.rows() == cols(), "PairProjection::Compose: basis rows = cols");
  if (is_sparse_) return PairProjection(DenseRows(sparse_ * v));
  return PairProjection(DenseRows(dense_ * v));
}

}  // namespace jointdyn::joint
