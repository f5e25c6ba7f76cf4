// A reduction basis: trial vectors V (n x m, one per column, in the DOF numbering of the
// model's K and M) with the kind and name of each column, so that the stages of the
// reduction (Craig-Bampton, free-free orthogonalization, joint modes, preload modes) can
// append to and reorder one basis and say what it holds: users of other FE codes ask
// which modes a basis has, in which order, and which were removed
// (../shared/design/LIBRARIES.md), so Describe() prints it.
//
// Reduced matrices: x ~ V q gives V^T K V and V^T M V (Project); the units of q follow
// the columns (m or rad for constraint modes, kg^(1/2) m for M-normalized modes).
#pragma once

#include <string>
#include <vector>

#include "core/types.h"
#include "solvers/residual_model.h"

namespace jointdyn::reduction {

enum class VectorKind {
  kFixedInterfaceMode,  // Craig-Bampton: normal mode with the boundary DOFs held (M-normalized)
  kConstraintMode,      // Craig-Bampton: static response to a unit boundary displacement
  kFreeFreeMode,        // after mode-shape orthogonalization: elastic, M-orthonormal
  kJointMode,           // from trial vector derivatives (joint_modes.h), K-normalized
  kPreloadMode,         // static solution under a preload with contact (eq. 3.63)
  kUnitDof,             // one independent DOF of the FE model (an unreduced body: x = I q)
};

const char* Name(VectorKind kind);  // "fixed-interface mode", ...

struct BasisColumn {
  VectorKind kind = VectorKind::kFixedInterfaceMode;
  std::string name;  // unique in the basis: "fixed_interface_3", "constraint_tip.uz"
};

struct ReductionBasis {
  MatX vectors;                      // V, n x m
  std::vector<BasisColumn> columns;  // m entries, in the order of V's columns

  int num_dofs() const { return static_cast<int>(vectors.rows()); }
  int size() const { return static_cast<int>(vectors.cols()); }
  int Count(VectorKind kind) const;
  // Appends the columns of `more` (n rows; any n when the basis is empty) with kind `kind`,
  // named names[j].
  void Append(const MatX& more, VectorKind kind, const std::vector<std::string>& names);
};

// V^T A V for a sparse symmetric A (both triangles stored, as fe::Assemble and
// fe::DofMap::Reduce give them), symmetrized.
MatX Project(const MatX& v, const solvers::SparseMatrix& a);

// "22 vectors: 10 fixed-interface modes (columns 1-10), 12 constraint modes (columns
// 11-22: constraint_mount.ux .. constraint_tip.rz)": one entry per run of equal kinds.
std::string Describe(const ReductionBasis& basis);

}  // namespace jointdyn::reduction
