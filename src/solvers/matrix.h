// A matrix stored dense or sparse, whichever its model has: the Jacobians Newton factors
// (ResidualModel) and the mass, damping and tangents of a SecondOrderSystem. A full FE or
// lumped model is sparse; a reduced model on modal coordinates (V^T K V, a joint on R V) and
// harmonic balance are dense, and stay dense: no full-pattern sparse copies. The linear
// solvers factor each storage with its own method (linear_solver.h: kAuto takes dense LU
// for dense storage).
#pragma once

#include <Eigen/Sparse>
#include <utility>

#include "core/types.h"

namespace jointdyn::solvers {

using SparseMatrix = Eigen::SparseMatrix<double>;  // column-major

// Largest |entry| of a sparse matrix (0 when it has none).
double MaxAbsEntry(const SparseMatrix& a);

// Same sparsity pattern of two compressed matrices.
bool SamePattern(const SparseMatrix& a, const SparseMatrix& b);

class Matrix {
 public:
  Matrix() = default;  // sparse, 0 x 0
  // Implicit: a Matrix is either storage (Eigen expressions are evaluated into it).
  Matrix(SparseMatrix sparse) : sparse_(std::move(sparse)) {}
  Matrix(MatX dense) : dense_(std::move(dense)), is_dense_(true) {}
  template <class Derived>
  Matrix(const Eigen::SparseMatrixBase<Derived>& sparse) : sparse_(sparse) {}
  template <class Derived>
  Matrix(const Eigen::MatrixBase<Derived>& dense) : dense_(dense), is_dense_(true) {}

  bool is_dense() const { return is_dense_; }
  Eigen::Index rows() const { return is_dense_ ? dense_.rows() : sparse_.rows(); }
  Eigen::Index cols() const { return is_dense_ ? dense_.cols() : sparse_.cols(); }
  // The storage (an internal error when the matrix is stored the other way).
  const MatX& dense() const;
  MatX& dense();
  const SparseMatrix& sparse() const;
  SparseMatrix& sparse();

  // Zero with the size and the storage of `like` (the memory of the dense storage is
  // reused when the size is unchanged: no allocation per Newton iteration); sparse: with
  // like's pattern (explicit zeros), so that matrices assembled onto a fixed pattern add
  // value by value and keep the factorization's symbolic analysis.
  void SetZeroLike(const Matrix& like);
  // this += factor * other (same size). Sparse plus dense becomes dense; two compressed
  // sparse matrices of the same pattern add value by value (no allocation).
  void AddScaled(double factor, const Matrix& other);

  VecX operator*(const VecX& x) const;  // a member: no conversion of the left operand
  MatX ToDense() const;
  double MaxAbsEntry() const;  // largest |entry| (0 when it has none)
  bool AllFinite() const;

 private:
  MatX dense_;
  SparseMatrix sparse_;
  bool is_dense_ = false;
};

}  // namespace jointdyn::solvers
