// Linear solvers behind one interface: factor once, solve many right-hand sides.
#pragma once

#include <memory>

#include "core/status.h"
#include "solvers/residual_model.h"

namespace jointdyn::solvers {

enum class LinearSolverKind {
  // Dense LU up to 64 unknowns (measured: sparse LU is 3x faster on a 100-DOF banded
  // system, bench/transient_throughput); above, per factorization: dense LU when at least a
  // quarter of the entries is stored (reduced models store all: on r = 100, dense LU
  // factors 1.4x and solves 4.8x faster than SparseLU), else UMFPACK (on the HHT matrix of
  // the 29 826-DOF tet10 friction bar with an unsymmetric Coulomb tangent: 2.3x faster
  // refactorization and 2.2x faster solve than SparseLU, bench/linear_solvers).
  kAuto,
  kDenseLU,    // Eigen PartialPivLU on the densified matrix
  kSparseLU,   // Eigen SparseLU (general, unsymmetric: friction tangents are unsymmetric)
  kUmfpackLU,  // UMFPACK (SuiteSparse) through Eigen's UmfPackSupport: unsymmetric multifrontal
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
