// The keys of the analyses that preload bolts (analysis: static, joint_dynamics): `preload`
// (bolt preloads, analysis/bolts.h) and the static solver's keys. The schema is in
// docs/model_files.md.
#pragma once

#include <string>
#include <vector>

#include "analysis/bolts.h"
#include "fe/fe_model.h"
#include "joint/static_solver.h"
#include "model/model_node.h"

namespace jointdyn::model {

// `key` (preload; bolts in reduction.preload): [{beam: [a, b], force}]: the beam of
// fe.beams between reference nodes a and b (either order) preloaded by `force` [N] > 0;
// each beam once.
std::vector<analysis::BoltPreload> ReadBoltPreloads(const ModelNode& node, const std::string& key,
                                                    const fe::FeModelSpec& fe);

// increments, max_cutbacks, max_iterations, residual_tolerance, increment_tolerance of
// `node` into `solver` (absent keys keep its values).
void ReadStaticSolver(const ModelNode& node, joint::StaticOptions& solver);

}  // namespace jointdyn::model
