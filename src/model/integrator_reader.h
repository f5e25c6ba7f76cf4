// The `integrator` mapping of a model file (time/integrator.h options), shared by the
// time-domain analyses (`analysis: transient` on lumped models, `analysis: joint_dynamics`
// on FE models with joints). The schema is in docs/model_files.md (`analysis: transient`,
// section `integrator`).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/model_node.h"
#include "time/integrator.h"

namespace jointdyn::model {

// The model-file names of the integration schemes.
const std::vector<std::pair<std::string, time::Scheme>>& SchemeNames();
std::string SchemeName(time::Scheme scheme);

// Reads every key of `node` (and Finish() it): scheme and its parameters, t_start, t_end,
// dt, adaptive step keys, `newton` and `post_newton`. output_interval is not read here (the
// analyses take it from their output sections). Throws InputError naming key, value, rule.
time::IntegratorOptions ReadIntegrator(const ModelNode& node);

}  // namespace jointdyn::model
