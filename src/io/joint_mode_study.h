// The `analysis: joint_mode_study` model file: the static convergence study of seed 003
// section 4.1.1 (fig. 4.2-4.5, 4.9). An FE model with a joint (penalty contact, no
// friction) is solved statically under each load case twice over:
//
//   full     the nonlinear static solution of the unreduced model (joint::SolveStatic,
//            every pair, every DOF): the reference;
//   reduced  the same problem on a reduction basis V: the CMS basis (Craig-Bampton +
//            free-free orthogonalization, m vectors) extended by g trial vectors, for
//            every g of `study.modes` and every method of `study.methods`:
//              wpod_tvd, pod_tvd, pod_forces   g joint modes (reduction/joint_modes.h) from
//                                              the 2 m^2 TVDs of the CMS basis
//              vibration_modes                 g more fixed-interface modes (Craig-Bampton
//                                              with v + g vibration modes)
//
// For each solution it records a measure (a component of a reference node: the tip
// deflection z_L or the twist theta_x) and the norm of the gap vector ||g_N||_2, and the
// relative errors of the reduced ones against the full ones. The TVDs are computed once; the
// joint modes of each method once for the largest g (the joint modes of a smaller g are the
// leading ones: POD orders them), and the projections V^T K V, R V, V^T f once per method:
// each g solves on the leading columns.
//
// Results: study.csv (one row per load case, method and g), pov_ratio.csv/.svg (w(g) of the
// three joint-mode methods, seed 003 fig. 4.9a), <case>_<measure>.svg and
// <case>_gap_norm.svg (errors against the full solution over g, log scale), summary.json
// (the full solutions, the errors, the smallest g that reaches 1 % and 5 % per method, the
// stage times). The schema is in docs/model_files.md.
#pragma once

#include <filesystem>

#include "io/model_node.h"
#include "io/run_model.h"

namespace jointdyn::io {

RunOutcome RunJointModeStudy(const ModelNode& root, const std::filesystem::path& out_dir);

}  // namespace jointdyn::io
