// Mode-shape orthogonalization to free-free modes (seed 000 eq. 10-11, seed 003 eq.
// 2.86-2.87): the reduced eigenproblem (V^T K V - lambda V^T M V) y = 0 of a basis V (for
// example Craig-Bampton's, or one extended by joint modes) gives new trial vectors
// Phi_free = V Y that are M-orthonormal and K-orthogonal (V^T K V -> diag(lambda)); the
// columns with zero eigenvalue are the rigid-body motions the basis contains and are
// dropped. Seed 003 sec. 4.1: v = 10 fixed-interface modes + s = 12 constraint modes of
// the free friction bar leave m = 16 free-free modes after removing 6 rigid-body modes.
//
// Rigid criterion. With the eigenvalues ascending, lambda_0 <= .. <= lambda_(m-1), the rigid
// modes are the first r, where r is the smallest index with
//
//   max(|lambda_0|, .., |lambda_(r-1)|, floor) <= rigid_ratio * lambda_r,
//   floor = m * eps * max_i |lambda_i|   (the rounding level of the reduced eigenproblem),
//
// i.e. lambda_r is the first elastic eigenvalue and every rigid eigenvalue is below
// rigid_ratio times it (default 1e-6: rigid "frequencies" below 1e-3 times the first elastic
// frequency; rounding gave 4e-13 on the 543-DOF test bar and 3e-10 at 2e5 DOFs). No such r: no
// rigid mode (r = 0). Any eigenvalue from r on that is not positive is a failure.
#pragma once

#include <string>

#include "core/status.h"
#include "reduction/basis.h"

namespace jointdyn::reduction {

struct FreeFreeOptions {
  double rigid_ratio = 1e-6;  // see the rigid criterion above [-], in (0, 1)
  Status Validate() const;
};

struct FreeFreeResult {
  Status status;             // failure: options, V^T M V not positive definite, K not semidefinite
  ReductionBasis basis;      // the elastic free-free modes V Y, M-orthonormal, ascending frequency
  VecX frequencies;          // of the columns of basis [Hz]
  MatX transform;            // Y of the kept columns (basis.vectors = V Y), m x (m - r)
  VecX rigid_eigenvalues;    // lambda of the dropped modes [rad^2/s^2] (rounding level)
  int rigid_modes = 0;       // r
  double rigid_ratio = 0.0;  // max |rigid lambda| / first elastic lambda (0 when r = 0) [-]
  double seconds = 0.0;      // wall time [s]
};

// `stiffness` and `mass` are V^T K V and V^T M V of `basis` (Project(), or the Craig-Bampton
// result's). The sign of each mode is chosen so that its largest entry is positive.
FreeFreeResult OrthogonalizeToFreeFree(const ReductionBasis& basis, const MatX& stiffness,
                                       const MatX& mass, const FreeFreeOptions& options = {});

// "removed 6 rigid-body modes (max |lambda| / first elastic lambda = 3e-12); 16 free-free
// modes [Hz]: 80.1 .. 9000".
std::string Summary(const FreeFreeResult& result);

}  // namespace jointdyn::reduction
