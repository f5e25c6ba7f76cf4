// Sparse Cholesky factorization A = L L^T of a symmetric positive definite matrix through
// CHOLMOD's supernodal factorization (SuiteSparse; ../shared/design/LIBRARIES.md measured
// it 16-40x faster than Eigen's simplicial LDL^T on 3D elasticity stiffness matrices).
// Factor once, then solve blocks of right-hand sides: one blocked solve of many columns
// runs at BLAS-3 speed, far faster than the same columns one at a time.
//
// The matrix is read from its lower triangle (the upper one is ignored), so a full
// symmetric matrix and a lower-triangular one give the same factor. The fill-reducing
// ordering is CHOLMOD's default (AMD, METIS when it finds a better one).
#pragma once

#include <memory>

#include "core/status.h"
#include "solvers/residual_model.h"

namespace jointdyn::solvers {

class SparseCholesky {
 public:
  SparseCholesky();
  ~SparseCholesky();
  SparseCholesky(const SparseCholesky&) = delete;
  SparseCholesky& operator=(const SparseCholesky&) = delete;

  // Symbolic analysis and numeric factorization of a (square, compressed). Fails (Status)
  // for a matrix that is not positive definite, naming the first column where the
  // factorization broke down (for a stiffness matrix: an unsupported DOF), or for
  // non-finite entries. A failure leaves no factor.
  Status Factor(const SparseMatrix& a);
  // Numeric factorization only, for a matrix with the pattern of the last Factor()
  // (e.g. K - sigma M for another sigma).
  Status Refactor(const SparseMatrix& a);

  bool factored() const;
  int size() const { return size_; }
  // x = A^-1 b for every column of b (size() rows).
  void Solve(const MatX& b, MatX& x) const;
  VecX Solve(const VecX& b) const;
  // Nonzeros of the factor L (with the supernodal padding) [-].
  double factor_nonzeros() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int size_ = 0;
};

}  // namespace jointdyn::solvers
