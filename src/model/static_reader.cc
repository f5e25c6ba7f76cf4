#include "model/static_reader.h"

#include <utility>

#include "model/fe_reader.h"
#include "model/joint_mode_reader.h"
#include "model/joints_reader.h"
#include "model/preload_reader.h"
#include "model/time_function_reader.h"

namespace jointdyn::model {
namespace {

// A number (reached proportionally at the last step) or a function of the step parameter.
analysis::StepValue ReadStepValue(const ModelNode& node, const std::string& key) {
  if (node.KindOf(key) != ModelNode::Kind::kMap) return {.value = node.Double(key)};
  const ModelNode function = node.Map(key);
  analysis::StepValue value{.function = ReadTimeFunction(function)};
  function.Finish();
  return value;
}

// `pressures`: [{set, pressure}] on face sets (or node sets' boundary faces) [Pa].
std::vector<fe::PressureLoad> ReadPressures(const ModelNode& root) {
  std::vector<fe::PressureLoad> pressures;
  for (const ModelNode& entry : root.OptionalMaps("pressures")) {
    pressures.push_back({.set = entry.String("set"), .pressure = entry.Double("pressure")});
    entry.Finish();
  }
  return pressures;
}

// reduction: the CMS keys and, optionally, the joint modes of one method.
void ReadReduction(const ModelNode& root, analysis::StaticOptions& options) {
  const auto node = root.OptionalMap("reduction");
  if (!node) return;
  analysis::StaticReduction reduction{.cms = ReadCmsSpec(*node)};
  if (const auto joint_modes = node->OptionalMap("joint_modes"))
    reduction.joint_modes = ReadJointModeSpecOfJoints(*joint_modes, options.fe, options.joints);
  node->Finish();
  options.reduction = std::move(reduction);
}

void ReadSolver(const ModelNode& root, analysis::StaticOptions& options) {
  const auto node = root.OptionalMap("static");
  if (!node) return;
  // Bounded like the time steps of a transient: at most 1e8 load increments in all.
  options.steps = node->Int("steps", options.steps, InRange(1, 1e6));
  ReadStaticSolver(*node, options.solver);
  if (static_cast<double>(options.steps) * options.solver.load_steps > 1e8)
    node->FailValue("increments", std::to_string(options.solver.load_steps),
                    "steps x increments must be at most 1e8 load increments");
  if (node->Has("load_factor")) options.loads.front().factor = ReadStepValue(*node, "load_factor");
  node->Finish();
}

}  // namespace

analysis::StaticOptions ReadStatic(const ModelNode& root) {
  analysis::StaticOptions options;
  root.ExpectAnalysis("static");
  options.title = root.String("title", "");
  std::vector<SupportValue> values;
  options.fe = ReadFeModelSpec(root, &values);
  for (const SupportValue& v : values) {
    options.prescribed.push_back({.support = v.support, .value = ReadStepValue(v.node, "value")});
    v.node.Finish();
  }
  options.joints =
      root.Has("joints") ? ReadJoints(root, options.fe) : std::vector<analysis::JointSpec>{};
  options.loads.push_back({.loads = std::exchange(options.fe.loads, {})});  // used from here
  if (root.Has("gravity")) options.loads.front().gravity = ReadVec3(root, "gravity");
  options.loads.front().pressures = ReadPressures(root);
  options.preloads = ReadBoltPreloads(root, "preload", options.fe);
  ReadSolver(root, options);
  ReadReduction(root, options);
  const analysis::StepLoad& load = options.loads.front();
  if (options.prescribed.empty() && load.loads.empty() && load.pressures.empty() &&
      options.preloads.empty() && load.gravity == Vec3::Zero())
    root.FailValue("loads", "",
                   "nothing loads the model: give loads, pressures, gravity, a support with a "
                   "value (a prescribed displacement) or a bolt preload");
  root.Finish();
  return options;
}

}  // namespace jointdyn::model
