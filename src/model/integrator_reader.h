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

// The most steps a span may take (t_end - t_start over dt, or over dt_max with adaptive
// steps): more is an input error at t_end saying how many it would take.
constexpr double kMaxSteps = 1e8;

// An estimate of the samples an observer gets: one per step at dt (adaptive steps: as if
// at dt), or per output_interval when that is longer, and the initial state.
double OutputSamples(const time::IntegratorOptions& options);

// Reads every key of `node` (and Finish() it): scheme and its parameters, t_start, t_end,
// dt, adaptive step keys (the span bounded by kMaxSteps), `newton` and `post_newton`.
// output_interval is not read here (the analyses take it from their output sections). Throws
// InputError naming key, value, rule.
time::IntegratorOptions ReadIntegrator(const ModelNode& node);

}  // namespace jointdyn::model
