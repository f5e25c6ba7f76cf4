// The reduced state of analysis: static (StaticOptions::reduction). The extended state
// [q; h] (free DOFs q, held DOFs h) is x_ext = W x with
//
//   W = [V  X  L]    V  the reduction basis on the free DOFs: the CMS basis (Craig-Bampton
//       [0  0  E]       on the boundary reference nodes, free-free orthogonalized), or with
//                       joint modes Craig-Bampton's basis extended by them
//                    X  the load modes K0_ff^-1 f_i of the static loads (each load of the
//                       history, the bolts' preload), K-orthogonalized against V (a load
//                       mode in the span of V, e.g. of a load on boundary DOFs, is dropped)
//                    E  per prescribed support, the indicator of the DOFs it holds
//                    L  = -K0_ff^-1 K0_fh E, the static lift of those DOFs
//
// with K0 the tangent at the start: K and the stiffness of the pairs that touch there
// (clamped surfaces pressed together by the load stay together in the load modes instead of
// passing through each other, as they would on K alone).
//
// so x = [y; a]: the coordinates y of V and X and one amplitude a_s per prescribed support
// (its value), the held entries of the reduced state; the other held DOFs stay zero. With
// X and L the reduced model is the full one for a linear structure (no joint, or a joint
// whose pairs keep their state and stiffness): the static condensation on the loaded DOFs. The
// joint modes' TVDs differentiate V and the sum of the K-normalized load modes and lifts (as the
// preload mode of a reduction, named preload_1 in the basis).
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

// `loads`: the static loads on the free DOFs [N], a column each; `extended_stiffness`: K on
// [q; h] (free DOFs first); `start_tangent`: K0 there. Throws InputError for reduction keys
// that do not fit the model (boundary names, the joint-mode contact).
StaticBasis BuildStaticBasis(const StaticReduction& reduction, const MatX& loads,
                             const std::vector<PrescribedMotion>& prescribed,
                             const fe::FeModel& model,
                             const solvers::SparseMatrix& extended_stiffness,
                             const solvers::SparseMatrix& start_tangent, Observer& observer);

}  // namespace jointdyn::analysis
