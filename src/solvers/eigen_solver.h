// The generalized symmetric eigenproblem K phi = lambda M phi (K symmetric, M symmetric
// positive definite, both sparse) for the eigenvalues nearest a shift sigma: Lanczos
// (Spectra's SymGEigsShiftSolver) on the shift-inverted operator (K - sigma M)^-1 M, with
// K - sigma M factored once by the supernodal Cholesky (sparse_cholesky.h), as
// ../shared/design/LIBRARIES.md recommends. K - sigma M must be positive definite: sigma
// below the lowest eigenvalue (for a free-free structure with rigid-body modes, K is
// singular and sigma < 0 is required).
//
// The eigenvectors are M-normalized (phi^T M phi = 1) and returned in ascending order of
// lambda = omega^2 [rad^2/s^2].
#pragma once

#include "core/status.h"
#include "solvers/residual_model.h"
#include "solvers/sparse_cholesky.h"

namespace jointdyn::solvers {

struct EigenOptions {
  int count = 10;             // eigenpairs wanted, >= 1 and < size
  double shift = 0.0;         // sigma [rad^2/s^2]: the wanted eigenvalues lie above it
  int subspace = 0;           // Lanczos vectors, > count (0: max(2 count + 1, 20), capped by size)
  double tolerance = 1e-10;   // relative residual of the Ritz pairs [-], > 0
  int max_iterations = 1000;  // restarts [-], >= 1
  Status Validate() const;
};

struct EigenResult {
  Status status;                  // failure: K - sigma M not positive definite, or no convergence
  VecX values;                    // lambda, ascending [rad^2/s^2]
  MatX vectors;                   // M-normalized, one per column
  int converged = 0;              // converged Ritz pairs
  int operator_applications = 0;  // solves with the factor
  double factor_seconds = 0.0;
  double solve_seconds = 0.0;
};

EigenResult SolveGeneralizedEigen(const SparseMatrix& stiffness, const SparseMatrix& mass,
                                  const EigenOptions& options);
// The same with K - shift M already factored by the caller (`shifted`, for options.shift),
// so that one factorization serves the eigenproblem and other solves (the Craig-Bampton
// stage factors K_ii once for its normal modes and its constraint modes). factor_seconds
// is 0 in the result.
EigenResult SolveGeneralizedEigen(const SparseCholesky& shifted, const SparseMatrix& mass,
                                  const EigenOptions& options);

}  // namespace jointdyn::solvers
