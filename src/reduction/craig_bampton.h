// Craig-Bampton (fixed-interface component mode synthesis, seed 003 sec. 2.2.3, eq.
// 2.77-2.85): the free DOFs of a model (the rows of K and M after fe::DofMap::Reduce)
// split into boundary DOFs b (typically the 6 DOFs of each reference node of a mounting or
// a load point) and interior DOFs i. The basis is
//
//   V = [Phi  Psi],  Phi = [phi_1 .. phi_v] (boundary rows 0),  Psi = [-K_ii^-1 K_ib; I_bb],
//
// ordered as printed by Describe(): first the v fixed-interface normal modes
// (K_ii - omega^2 M_ii) phi = 0, lowest first and M_ii-normalized, then one constraint mode
// per boundary DOF in the order the boundary DOFs are given (the static response of the
// interior to a unit displacement of that DOF with the other boundary DOFs held at zero).
//
// One factorization: K_ii is factored once (supernodal Cholesky); the Lanczos iteration of
// the normal modes (shift 0) and the b constraint modes (one blocked solve of b right-hand
// sides) both use it. K_ii must be positive definite: the boundary DOFs, held at zero, must
// hold the structure (a model free apart from its boundary is fine: its rigid-body modes lie
// in the span of the constraint modes and are removed by free-free orthogonalization).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "fe/constraints.h"
#include "reduction/basis.h"
#include "solvers/sparse_cholesky.h"

namespace jointdyn::reduction {

struct BoundaryDof {
  int dof = 0;       // row of K and M (an independent DOF of the model)
  std::string name;  // "tip.uz": names the constraint mode and appears in messages
};

// The independent DOFs of the named reference nodes as boundary DOFs, in the order given,
// components ux, uy, uz, rx, ry, rz of each (named "<node>.ux" ..); an entry "<node>.uy"
// names one component only (seed 003 sec. 4.2: the preload nodes' axial DOFs). Supported
// components are fixed and are skipped. Throws InputError ("<key>[1] = tip: ...", key "boundary" by
// default) for an unknown or repeated name, and for a reference node without an independent
// DOF (fully supported, or the reference node of a distributing coupling, whose DOFs depend
// on its face: couple the face rigidly, or give the coupling independent_reference, to make
// the node a boundary node).
std::vector<BoundaryDof> ReferenceNodeBoundary(const fe::DofMap& dofs,
                                               const std::vector<std::string>& reference_nodes,
                                               const std::string& key = "boundary");

struct CraigBamptonOptions {
  int fixed_interface_modes = 10;   // v, >= 0 (0: static (Guyan) constraint modes only)
  double eigen_tolerance = 1e-10;   // relative residual of the normal modes [-], in (0, 1)
  int eigen_subspace = 0;           // Lanczos vectors (0: automatic, see solvers::EigenOptions)
  int eigen_max_iterations = 1000;  // Lanczos restarts, >= 1
  Status Validate() const;          // failure names the option ("craig_bampton.xxx = ...")
};

struct CraigBamptonResult {
  Status status;                     // failure: options, K_ii not positive definite, no convergence
  ReductionBasis basis;              // [Phi Psi], n x (v + b)
  MatX stiffness;                    // V^T K V (units follow the columns)
  MatX mass;                         // V^T M V
  VecX fixed_interface_frequencies;  // f_j = omega_j / (2 pi) of Phi, ascending [Hz]
  int num_dofs = 0;                  // n (free DOFs of the model)
  int num_boundary = 0;              // b
  int num_interior = 0;              // n - b
  int num_fixed_interface_modes = 0;    // v
  int eigen_operator_applications = 0;  // solves with the factor of K_ii in the Lanczos stage
  double factor_nonzeros = 0.0;         // nonzeros of the Cholesky factor of K_ii [-]
  // The factor of K_ii and the rows of K (and of the basis) that are interior, in the
  // order of K_ii's rows: kept for the trial-vector-derivative stage, which solves with
  // K_c = K_ii (boundary held) from this same factorization (trial_vector_derivatives.h).
  std::shared_ptr<const solvers::SparseCholesky> interior_factor;
  std::vector<int> interior_dofs;
  // Wall time of the stages [s]: extraction of K_ii, K_ib, M_ii; Cholesky factorization of
  // K_ii; Lanczos iteration; constraint modes (right-hand sides and the blocked solve);
  // projection V^T K V, V^T M V.
  double partition_seconds = 0.0;
  double factor_seconds = 0.0;
  double eigen_seconds = 0.0;
  double constraint_seconds = 0.0;
  double projection_seconds = 0.0;
};

// K and M: the model's stiffness [N/m] and mass [kg] on its free DOFs (n x n, symmetric,
// both triangles stored). The boundary DOFs must be distinct rows of K.
CraigBamptonResult CraigBampton(const solvers::SparseMatrix& stiffness,
                                const solvers::SparseMatrix& mass,
                                const std::vector<BoundaryDof>& boundary,
                                const CraigBamptonOptions& options);

// The principal submatrix of `a` on `rows` (ascending): K_c = K_ii from K and
// CraigBamptonResult::interior_dofs, for the joint-mode stage (joint_modes.h).
solvers::SparseMatrix PrincipalBlock(const solvers::SparseMatrix& a, const std::vector<int>& rows);

// Several lines for logs and summaries: DOF counts, the basis ordering (Describe) and the
// fixed-interface frequencies, the time of each stage.
std::string Summary(const CraigBamptonResult& result);

}  // namespace jointdyn::reduction
