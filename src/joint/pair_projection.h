// The relative-displacement operator R of a joint: three rows per contact pair that map a
// state x (all mesh DOFs u, the independent DOFs q = T^-1 u, or modal coordinates) to the
// pair's relative displacement in its local frame, z_i = R_i x (seed 003, eq. 3.79 / D.16).
//
// The same operator serves the full FE model (R sparse) and a reduced one (R V dense for a
// basis V): the joint operator's one loop over pairs reads and writes contiguous per-pair
// triples and calls the four products below, which are the only places where sparse and
// dense differ. Forces and tangents follow as f = R^T y and J = R^T blockdiag(B_i) R.
//
// Storage is row-major, so the three rows of a pair are contiguous. A sparse R stores the
// same column pattern in all three rows of a pair (explicit zeros where a frame component
// vanishes), so scaling a pair's rows by a 3 x 3 block keeps the pattern.
#pragma once

#include <Eigen/Sparse>
#include <span>

#include "core/types.h"
#include "solvers/residual_model.h"

namespace jointdyn::joint {

using SparseRows = Eigen::SparseMatrix<double, Eigen::RowMajor>;
using DenseRows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class PairProjection {
 public:
  PairProjection() = default;
  // 3 * num_pairs rows; a sparse R must be compressed with equal patterns in the three rows
  // of every pair (checked: an internal invariant of the builders).
  explicit PairProjection(SparseRows r);
  explicit PairProjection(DenseRows r);

  bool is_sparse() const { return is_sparse_; }
  int num_pairs() const { return static_cast<int>(rows() / 3); }
  int rows() const { return static_cast<int>(is_sparse_ ? sparse_.rows() : dense_.rows()); }
  int cols() const { return static_cast<int>(is_sparse_ ? sparse_.cols() : dense_.cols()); }
  const SparseRows& sparse() const { return sparse_; }
  const DenseRows& dense() const { return dense_; }

  // z = R x (z is resized to rows()).
  void Apply(const VecX& x, VecX& z) const;
  // f = R^T y (f is resized to cols()).
  void ApplyTranspose(const VecX& y, VecX& f) const;
  // w = blockdiag(scale_i B_i) R: rows of pair i combined by scale_i * blocks[i]. `w` must
  // have R's shape (and pattern): make it once with a copy of R and reuse it.
  void ScaleRows(std::span<const Mat3> blocks, std::span<const double> scale,
                 PairProjection& w) const;
  // j = R^T w for w from ScaleRows (sparse R: sparse j; dense R: dense j, no allocation
  // once j has its size).
  void TransposeTimes(const PairProjection& w, solvers::SparseMatrix& j) const;
  void TransposeTimes(const PairProjection& w, MatX& j) const;

  // R T: the operator on the state y with x = T y (sparse R only; the result is sparse).
  PairProjection Compose(const solvers::SparseMatrix& t) const;
  // R V: the operator on modal coordinates for a dense basis V (the result is dense).
  PairProjection Compose(const MatX& v) const;

 private:
  int PairLength(int pair) const;  // stored entries in each row of a pair
  const double* RowData(int row) const;
  double* RowData(int row);

  bool is_sparse_ = true;
  SparseRows sparse_;
  DenseRows dense_;
};

}  // namespace jointdyn::joint
