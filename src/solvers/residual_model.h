// What the nonlinear solvers see: a square system F(x) = 0 with its analytic Jacobian.
// Evaluate() returns a Status instead of throwing: a failure is recoverable (the caller,
// e.g. a time integrator, cuts the step and retries), never NaN.
#pragma once

#include <Eigen/Sparse>
#include <algorithm>
#include <cmath>

#include "core/status.h"
#include "core/types.h"

namespace jointdyn::solvers {

using SparseMatrix = Eigen::SparseMatrix<double>;  // column-major

// Largest |entry| of a sparse matrix (0 when it has none).
inline double MaxAbsEntry(const SparseMatrix& a) {
  double max_abs = 0.0;
  for (int k = 0; k < a.outerSize(); ++k) {
    for (SparseMatrix::InnerIterator it(a, k); it; ++it) {
      max_abs = std::max(max_abs, std::abs(it.value()));
    }
  }
  return max_abs;
}

class ResidualModel {
 public:
  virtual ~ResidualModel() = default;
  virtual int size() const = 0;
  // Residual F(x); when `jacobian` is not null also dF/dx (same sparsity pattern on every
  // call is not required). A failure names what failed.
  virtual Status Evaluate(const VecX& x, VecX& residual, SparseMatrix* jacobian) = 0;
  // Typical magnitudes of the residual components and of the unknowns (> 0), used to scale
  // the convergence tests. Defaults: ones.
  virtual VecX ResidualScale() const { return VecX::Ones(size()); }
  virtual VecX UnknownScale() const { return VecX::Ones(size()); }
};

}  // namespace jointdyn::solvers
