// What the nonlinear solvers see: a square system F(x) = 0 with its analytic Jacobian.
// Evaluate() returns a Status instead of throwing: a failure is recoverable (the caller,
// e.g. a time integrator, cuts the step and retries), never NaN.
#pragma once

#include "core/status.h"
#include "core/types.h"
#include "solvers/matrix.h"

namespace jointdyn::solvers {

class ResidualModel {
 public:
  virtual ~ResidualModel() = default;
  virtual int size() const = 0;
  // Residual F(x); when `jacobian` is not null also dF/dx, dense or sparse, whichever the
  // model has (the linear solver factors each storage its own way; the same sparsity
  // pattern on every call is not required). A failure names what failed.
  virtual Status Evaluate(const VecX& x, VecX& residual, Matrix* jacobian) = 0;
  // Typical magnitudes of the residual components and of the unknowns (> 0), used to scale
  // the convergence tests. Defaults: ones.
  virtual VecX ResidualScale() const { return VecX::Ones(size()); }
  virtual VecX UnknownScale() const { return VecX::Ones(size()); }
};

}  // namespace jointdyn::solvers
