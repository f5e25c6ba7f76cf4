// The reduced state of analysis: static (StaticOptions::reduction). The extended state
// [q; h] (free DOFs q, held DOFs h) is x_ext = W x with
//
//   W = [V  L]    V  the reduction basis on the free DOFs: the CMS basis (Craig-Bampton on
//       [0  E]       the boundary reference nodes, free-free orthogonalized) [+ joint modes]
//                 E  per prescribed support, the indicator of the DOFs it holds
//                 L  = -K_ff^-1 K_fh E, the static lift of those DOFs
//
// so x = [y; a]: the modal coordinates y and one amplitude a_s per prescribed support (its
// value), the held entries of the reduced state; the other held DOFs stay zero. With the
// lift, a prescribed displacement deforms the structure as the full model does when
// nothing else acts (the constraint modes of Craig-Bampton for the held DOFs).
#pragma once

#include <string>
#include <vector>

#include "analysis/observer.h"
#include "analysis/static.h"
#include "core/status.h"
#include "fe/fe_model.h"
#include "solvers/residual_model.h"

namespace jointdyn::analysis {

struct StaticBasis {
  Status status;          // a failed stage (Craig-Bampton, TVDs, joint modes, the lift)
  MatX w;                 // W: extended DOFs x (r + prescribed supports)
  std::vector<int> held;  // the amplitude entries of x: r .. r + supports - 1
  std::string description;
};

// `extended_stiffness`: K on [q; h] (free DOFs first). Throws InputError for reduction keys
// that do not fit the model (boundary names, the joint-mode contact).
StaticBasis BuildStaticBasis(const StaticReduction& reduction,
                             const std::vector<PrescribedMotion>& prescribed,
                             const fe::FeModel& model,
                             const solvers::SparseMatrix& extended_stiffness, Observer& observer);

}  // namespace jointdyn::analysis
