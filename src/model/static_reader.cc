#include "model/static_reader.h"

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

void ReadSolver(const ModelNode& root, analysis::StaticOptions& options) {
  const auto node = root.OptionalMap("static");
  if (!node) return;
  options.steps = node->Int("steps", options.steps, AtLeast(1));
  joint::StaticOptions& s = options.solver;
  s.load_steps = node->Int("increments", s.load_steps, AtLeast(1));
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
  options.loads.push_back({.loads = options.fe.loads});
  ReadSolver(root, options);
  if (options.prescribed.empty() && options.fe.loads.empty())
    root.FailValue("loads", "",
                   "nothing loads the model: give loads or a support with a value (a "
                   "prescribed displacement)");
  root.Finish();
  return options;
}

}  // namespace jointdyn::model
