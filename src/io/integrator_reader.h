// The `integrator` mapping of a model file (time/integrator.h options) and the energy
// balance of a transient run as JSON, shared by the time-domain analyses (`analysis:
// transient` on lumped models, `analysis: joint_dynamics` on FE models with joints). The
// schema is in docs/model_files.md (`analysis: transient`, section `integrator`).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "io/model_node.h"
#include "time/integrator.h"

namespace jointdyn::io {

// The model-file names of the integration schemes.
const std::vector<std::pair<std::string, time::Scheme>>& SchemeNames();
std::string SchemeName(time::Scheme scheme);

// Reads every key of `node` (and Finish() it): scheme and its parameters, t_start, t_end,
// dt, adaptive step keys, `newton` and `post_newton`. output_interval is not read here (the
// analyses take it from their output sections). Throws InputError naming key, value, rule.
time::IntegratorOptions ReadIntegrator(const ModelNode& node);

// The energy balance of a run with the work of prescribed motions [J], which the
// integrator counts as (negative) law dissipation: law_dissipation = its value +
// prescribed_work. Keys: external_work, prescribed_motion_work, initial_kinetic,
// initial_stored, kinetic, stored, viscous_dissipation, law_dissipation,
// numerical_dissipation, numerical_dissipation_relative.
nlohmann::json EnergySummary(const time::EnergyBalance& e, double prescribed_work = 0.0);

}  // namespace jointdyn::io
