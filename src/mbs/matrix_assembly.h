// Adds entries and blocks to a system tangent stored dense or sparse (solvers/matrix.h): the
// multibody systems' mass, stiffness and load tangents are dense for rigid and reduced
// bodies and sparse with an unreduced flexible body (thousands of coordinates) or a cable.
// Dense storage is written at once; sparse storage too where its pattern has the entry
// (a target set up by Matrix::SetZeroLike from a matrix with the full pattern); other
// entries are collected as triplets until Finish(), which adds them to the matrix.
#pragma once

#include <Eigen/Sparse>
#include <algorithm>
#include <vector>

#include "core/types.h"
#include "solvers/matrix.h"

namespace jointdyn::mbs {

// Systems with more coordinates (an unreduced flexible body) store their mass and tangents
// sparse, the others dense.
inline constexpr int kDenseCoordinates = 400;

// An empty matrix of n x n stored dense up to `dense_coordinates`, sparse beyond.
inline solvers::Matrix EmptyTangent(int n, int dense_coordinates) {
  if (n > dense_coordinates) return solvers::SparseMatrix(n, n);
  return MatX(MatX::Zero(n, n));
}

class MatrixAssembly {
 public:
  // `target` may be null: every call does nothing.
  explicit MatrixAssembly(solvers::Matrix* target) : target_(target) {}

  bool active() const { return target_ != nullptr; }
  void Add(Eigen::Index row, Eigen::Index col, double value) {
    if (!target_ || value == 0.0) return;
    if (target_->is_dense())
      target_->dense()(row, col) += value;
    else if (double* entry = Find(row, col))
      *entry += value;
    else
      triplets_.emplace_back(row, col, value);
  }
  // factor * block at (row, col).
  void AddBlock(Eigen::Index row, Eigen::Index col, const MatX& block, double factor = 1.0) {
    if (!target_) return;
    if (target_->is_dense()) {
      target_->dense().block(row, col, block.rows(), block.cols()) += factor * block;
      return;
    }
    for (Eigen::Index j = 0; j < block.cols(); ++j)
      for (Eigen::Index i = 0; i < block.rows(); ++i) Add(row + i, col + j, factor * block(i, j));
  }
  void AddBlock(Eigen::Index row, Eigen::Index col, const solvers::Matrix& block,
                double factor = 1.0) {
    if (block.is_dense())
      AddBlock(row, col, block.dense(), factor);
    else
      AddBlock(row, col, block.sparse(), factor);
  }
  void AddBlock(Eigen::Index row, Eigen::Index col, const solvers::SparseMatrix& block,
                double factor = 1.0) {
    if (!target_) return;
    for (int k = 0; k < block.outerSize(); ++k)
      for (solvers::SparseMatrix::InnerIterator it(block, k); it; ++it)
        Add(row + it.row(), col + it.col(), factor * it.value());
  }
  // Adds the collected triplets to a sparse target (nothing for a dense one).
  void Finish() {
    if (!target_ || target_->is_dense() || triplets_.empty()) return;
    solvers::SparseMatrix& s = target_->sparse();
    solvers::SparseMatrix added(s.rows(), s.cols());
    added.setFromTriplets(triplets_.begin(), triplets_.end());
    s += added;
    triplets_.clear();
  }

 private:
  // The stored entry (row, col) of a compressed sparse target, or null.
  double* Find(Eigen::Index row, Eigen::Index col) {
    solvers::SparseMatrix& s = target_->sparse();
    if (!s.isCompressed()) return nullptr;
    const int* inner = s.innerIndexPtr();
    const int* begin = inner + s.outerIndexPtr()[col];
    const int* end = inner + s.outerIndexPtr()[col + 1];
    const int* it = std::lower_bound(begin, end, int(row));
    return it != end && *it == row ? s.valuePtr() + (it - inner) : nullptr;
  }

  solvers::Matrix* target_;
  std::vector<Eigen::Triplet<double>> triplets_;
};

}  // namespace jointdyn::mbs
