// The keys of the jointed FE structure shared by joint_dynamics and joint_harmonic
// (analysis/jointed_structure.h): the FE model (mesh, materials, reference nodes, supports,
// couplings, beams, contact), `preload` (bolts), `preload_solver`, `joints` and
// `damping.rayleigh`. The schema is in docs/model_files.md.
#pragma once

#include <string>

#include "analysis/jointed_structure.h"
#include "model/model_node.h"

namespace jointdyn::model {

// Reads those keys of `root` into `options` (InputError located in the file); `loads_rule`
// is the rule that refuses static `loads` (where the analysis takes its loads from).
void ReadJointedStructure(const ModelNode& root, const std::string& loads_rule,
                          analysis::JointedStructureOptions& options);

}  // namespace jointdyn::model
