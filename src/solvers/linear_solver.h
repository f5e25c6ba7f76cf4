// Linear solvers behind one interface: factor once, solve many right-hand sides.
#pragma once

#include <memory>

#include "core/status.h"
#include "solvers/matrix.h"

namespace jointdyn::solvers {

enum class LinearSolverKind {
  // Per factorization: dense LU for a dense matrix (reduced models, harmonic balance: on
  // r = 100, dense LU factors 1.4x and solves 4.8x faster than SparseLU on the same matrix
  // stored sparse, bench/linear_solvers); for a sparse one dense LU up to 64 unknowns
  // (measured: sparse LU is 3x faster on a 100-DOF banded system,
  // bench/transient_throughput), above UMFPACK (on the HHT matrix of the 29 826-DOF tet10
  // friction bar with an unsymmetric Coulomb tangent: 2.3x faster refactorization and 2.2x
  // faster solve than SparseLU, bench/linear_solvers).
  kAuto,
  kDenseLU,    // Eigen PartialPivLU (a sparse matrix is densified)
  kSparseLU,   // Eigen SparseLU (general, unsymmetric: friction tangents are unsymmetric)
  kUmfpackLU,  // UMFPACK (SuiteSparse) through Eigen's UmfPackSupport: unsymmetric multifrontal
};

class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  // Fails (Status) for a singular or non-finite matrix. The sparse kinds factor a dense
  // matrix by its nonzero entries (for comparisons; kAuto factors it dense).
  virtual Status Factor(const Matrix& a) = 0;
  virtual Status Solve(const VecX& b, VecX& x) const = 0;
};

std::unique_ptr<LinearSolver> MakeLinearSolver(LinearSolverKind kind, int size);

}  // namespace jointdyn::solvers
