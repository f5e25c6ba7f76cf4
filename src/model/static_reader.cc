#include "model/static_reader.h"

#include <algorithm>
#include <utility>

#include "model/fe_reader.h"
#include "model/joints_reader.h"
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

// preload: [{beam: [a, b], force}]: the beam between reference nodes a and b (either order).
void ReadPreloads(const ModelNode& root, analysis::StaticOptions& options) {
  for (const ModelNode& node : root.OptionalMaps("preload")) {
    const std::vector<std::string> names = node.Strings("beam");
    const std::vector<fe::BeamSpec>& beams = options.fe.beams;
    const auto beam = std::find_if(beams.begin(), beams.end(), [&](const fe::BeamSpec& b) {
      return names.size() == 2 &&
             ((b.a == names[0] && b.b == names[1]) || (b.a == names[1] && b.b == names[0]));
    });
    if (beam == beams.end()) {
      std::string text;
      for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
      node.FailValue("beam", "[" + text + "]",
                     "must name the two reference nodes of a beam (key beams): a preload acts "
                     "along a beam bolt");
    }
    options.preloads.push_back({.beam = static_cast<int>(beam - beams.begin()),
                                .force = node.Double("force", Positive())});
    for (size_t i = 0; i + 1 < options.preloads.size(); ++i)
      if (options.preloads[i].beam == options.preloads.back().beam)
        node.FailValue("beam", names[0] + ", " + names[1], "has a preload already");
    node.Finish();
  }
}

void ReadSolver(const ModelNode& root, analysis::StaticOptions& options) {
  const auto node = root.OptionalMap("static");
  if (!node) return;
  // Bounded like the time steps of a transient: at most 1e8 load increments in all.
  options.steps = node->Int("steps", options.steps, InRange(1, 1e6));
  joint::StaticOptions& s = options.solver;
  s.load_steps = node->Int("increments", s.load_steps, InRange(1, 1e6));
  if (static_cast<double>(options.steps) * s.load_steps > 1e8)
    node->FailValue("increments", std::to_string(s.load_steps),
                    "steps x increments must be at most 1e8 load increments");
  s.max_cutbacks = node->Int("max_cutbacks", s.max_cutbacks, AtLeast(0));
  s.max_iterations = node->Int("max_iterations", s.max_iterations, AtLeast(1));
  s.residual_tolerance = node->Double("residual_tolerance", s.residual_tolerance, Positive());
  s.increment_tolerance = node->Double("increment_tolerance", s.increment_tolerance, Positive());
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
  ReadPreloads(root, options);
  ReadSolver(root, options);
  if (options.prescribed.empty() && options.loads.front().loads.empty() &&
      options.preloads.empty() && options.loads.front().gravity == Vec3::Zero())
    root.FailValue("loads", "",
                   "nothing loads the model: give loads, gravity, a support with a value (a "
                   "prescribed displacement) or a bolt preload");
  root.Finish();
  return options;
}

}  // namespace jointdyn::model
