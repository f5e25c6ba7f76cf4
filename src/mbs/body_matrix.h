// A flexible body's (f + n) x (f + n) matrix (its mass or an inertia tangent) from its
// frame rows (f x (f + n), dense), its frame columns below them (n x f, dense) and its
// n x n elastic block (sparse: an unreduced body's is as sparse as its FE mass matrix; full
// for a reduced basis, whose matrix is then built dense); f the frame's coordinates (3
// planar, 7 spatial).
#pragma once

#include <vector>

#include "core/types.h"
#include "solvers/matrix.h"

namespace jointdyn::mbs {

// A dense or sparse expression as a sparse matrix (a reduced basis' products are dense).
template <class E>
solvers::SparseMatrix ToSparse(const Eigen::MatrixBase<E>& a) {
  return MatX(a).sparseView();
}
template <class E>
solvers::SparseMatrix ToSparse(const Eigen::SparseMatrixBase<E>& a) {
  return solvers::SparseMatrix(a);
}

class BodyMatrix {
 public:
  BodyMatrix(int frame, int n)
      : frame_(frame), n_(n), rows_(MatX::Zero(frame, frame + n)), columns_(MatX::Zero(n, frame)) {}
  MatX& rows() { return rows_; }
  MatX& columns() { return columns_; }
  // Dense with a dense elastic block (a reduced basis).
  solvers::Matrix Build(const MatX& elastic) const {
    MatX m(frame_ + n_, frame_ + n_);
    m.topRows(frame_) = rows_;
    m.bottomLeftCorner(n_, frame_) = columns_;
    m.bottomRightCorner(n_, n_) = elastic;
    return m;
  }
  // Dense when the elastic block is full (a reduced basis), else sparse.
  solvers::Matrix Build(const solvers::SparseMatrix& elastic) const {
    if (elastic.nonZeros() == Eigen::Index(n_) * n_) return Build(MatX(elastic));
    std::vector<Eigen::Triplet<double>> entries;
    for (int i = 0; i < frame_; ++i)
      for (int j = 0; j < frame_ + n_; ++j)
        if (rows_(i, j) != 0.0) entries.emplace_back(i, j, rows_(i, j));
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < frame_; ++j)
        if (columns_(i, j) != 0.0) entries.emplace_back(frame_ + i, j, columns_(i, j));
    for (int k = 0; k < elastic.outerSize(); ++k)
      for (solvers::SparseMatrix::InnerIterator it(elastic, k); it; ++it)
        entries.emplace_back(frame_ + it.row(), frame_ + it.col(), it.value());
    solvers::SparseMatrix m(frame_ + n_, frame_ + n_);
    m.setFromTriplets(entries.begin(), entries.end());
    return m;
  }

 private:
  int frame_, n_;
  MatX rows_, columns_;
};

}  // namespace jointdyn::mbs
