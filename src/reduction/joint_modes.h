// Joint modes from trial vector derivatives (seed 003 sec. 3.2.2, algorithms 3.2-3.3, eq.
// 3.47-3.61): the g most important directions of the 2 m^2 TVDs (or fictive forces) of
// trial_vector_derivatives.h, appended to the reduction basis.
//
//   kWeightedPodOfTvds  wPOD of the TVDs with W = K_c (eq. 3.47 with A = K_c, 3.50-3.51):
//                       the modes are K_c-orthonormal and capture the most deformation
//                       energy of the TVDs
//   kPodOfTvds          POD of the TVDs with W = I (eq. 3.47 with A = I, 3.48-3.49)
//   kPodOfForces        POD of the fictive forces with W = I (eq. 3.52-3.54), then one
//                       static solve per mode: phi_J = K_c^-1 f_J (eq. 3.57; the K_c factor
//                       of the TVD stage, blocked)
//
// Every snapshot is normalized first (eq. 3.47 / 3.52), so that only the directions count.
// g is either given or the smallest g with w(g) >= target_ratio (eq. 3.61). The POVs and
// w(g) are returned for all snapshots (the plot of w(g) of seed 003 fig. 4.9a).
//
// To append to a basis: ExtendBasis makes the joint modes K-orthogonal to the basis they
// extend (their component in the span of the basis is removed in the K_c inner product:
// it adds nothing, and keeping it makes V^T K V nearly singular) and K_c-normalizes them;
// a mode whose remainder is below `dependency_tolerance` of its K_c-norm is dropped and
// counted.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "reduction/basis.h"
#include "reduction/pod.h"
#include "reduction/trial_vector_derivatives.h"
#include "solvers/residual_model.h"
#include "solvers/sparse_cholesky.h"

namespace jointdyn::reduction {

enum class JointModeMethod { kWeightedPodOfTvds, kPodOfTvds, kPodOfForces };
const char* Name(JointModeMethod method);  // "wPOD of TVDs", "POD of TVDs", "POD of forces"

struct JointModeOptions {
  JointModeMethod method = JointModeMethod::kWeightedPodOfTvds;
  int modes = 0;               // g >= 0; 0: from target_ratio
  double target_ratio = 0.98;  // w(g) to reach when modes = 0, in (0, 1]
  int max_modes = 0;           // when modes = 0: at most this many, >= 0 (0: no limit)
  // PodOptions::rank_tolerance. Below PodOptions' 1e-10: a joint mode is a combination of
  // TVDs whatever its POV, so one near the Gram matrix's rounding (of the order of
  // sqrt(n) eps lambda_1, 4e-14 lambda_1 for n = 1e5) still lies in their span, and
  // ExtendBasis drops it if it depends on the basis. With 1e-10 the POD of TVDs of the friction bar
  // (4 mm) kept 39 modes and stalled at 1.5 % (torsion, gap norm); with 1e-13 it keeps 68 and
  // reaches 0.24 %.
  double rank_tolerance = 1e-13;
  Status Validate() const;  // names the option, value and rule
};

struct JointModeResult {
  Status status;               // failure: options, no TVDs, more modes asked than the rank
  MatX modes;                  // phi_J,1 .. phi_J,g: n x g (zero rows on held DOFs)
  VecX values;                 // all POVs, descending
  VecX ratio;                  // w(1) .. w(k)
  int rank = 0;                // POVs above the rank tolerance (also set when g > rank fails)
  double pod_seconds = 0.0;    // normalization, Gram matrix, eigenproblem, modes [s]
  double solve_seconds = 0.0;  // kPodOfForces: K_c^-1 f_J [s]
};

// `tvd` from ComputeTrialVectorDerivatives with the `factor` of K_c (the rows/columns
// `free_rows` of K) and the `free_rows` given to it. The wPOD weight K_c enters through
// K_c Y = F (the TVDs' fictive forces), so K_c itself is not needed.
JointModeResult ComputeJointModes(const TvdResult& tvd, const solvers::SparseCholesky& factor,
                                  const std::vector<int>& free_rows,
                                  const JointModeOptions& options = {});

struct ExtendResult {
  Status status;
  ReductionBasis basis;  // the input basis with the kept joint modes appended
                         // (VectorKind::kJointMode, named "joint_1" ..)
  int dropped = 0;       // joint modes dependent on the basis
};

// Appends `modes` (n x g) to `basis` after K-orthogonalization against it (K: the model's
// stiffness on all n rows, both triangles). dependency_tolerance in (0, 1). With `mass` (M
// on the same rows) the kept modes are also made M-orthogonal to the rigid-body motions
// in span(basis) (the null space of its K-Gram matrix; none for a held model): the span
// stays the same, but a free structure's joint mode no longer carries a rigid motion far
// larger in the mass norm than its local deformation, which left the extended basis
// nearly dependent in M (the seed-sized connecting rod: squared ratio 1.6e-14).
ExtendResult ExtendBasis(const ReductionBasis& basis, const MatX& modes,
                         const solvers::SparseMatrix& stiffness, VectorKind kind,
                         const std::string& name_prefix, double dependency_tolerance = 1e-8,
                         const solvers::SparseMatrix* mass = nullptr);

}  // namespace jointdyn::reduction
