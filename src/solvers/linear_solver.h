// Linear solvers behind one interface: factor once, solve many right-hand sides.
#pragma once

#include <memory>

#include "core/status.h"
#include "solvers/residual_model.h"

namespace jointdyn::solvers {

enum class LinearSolverKind {
  kAuto,      // dense LU up to 64 unknowns, sparse LU above (measured: sparse LU is 3x
              // faster on a 100-DOF banded system, bench/transient_throughput)
  kDenseLU,   // Eigen PartialPivLU on the densified matrix
  kSparseLU,  // Eigen SparseLU (general, unsymmetric: friction tangents are unsymmetric)
};

class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  // Fails (Status) for a singular or non-finite matrix.
  virtual Status Factor(const SparseMatrix& a) = 0;
  virtual Status Solve(const VecX& b, VecX& x) const = 0;
};

std::unique_ptr<LinearSolver> MakeLinearSolver(LinearSolverKind kind, int size);

}  // namespace jointdyn::solvers
