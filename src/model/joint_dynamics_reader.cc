#include "model/joint_dynamics_reader.h"

#include <algorithm>

#include "model/fe_reader.h"
#include "model/integrator_reader.h"
#include "model/joint_mode_reader.h"
#include "model/jointed_structure_reader.h"
#include "model/time_function_reader.h"

namespace jointdyn::model {
namespace {

void ReadLoads(const ModelNode& root, analysis::JointDynamicsOptions& options) {
  // A preloaded joint may run without dynamic loads (it then stays at rest).
  for (const ModelNode& node :
       options.preloads.empty() ? root.Maps("dynamic_loads") : root.OptionalMaps("dynamic_loads")) {
    analysis::DynamicLoad load;
    load.loads = ReadFeLoads(node, options.fe);
    const ModelNode function = node.Map("function");
    load.function = ReadTimeFunction(function);
    function.Finish();
    node.Finish();
    options.loads.push_back(std::move(load));
  }
}

// reduction: the CMS keys and the TVDs' joint modes, whose normal law defaults to the
// normal law of the joint on the same contact.
void ReadReduction(const ModelNode& root, analysis::JointDynamicsOptions& options) {
  const ModelNode reduction = root.Map("reduction");
  options.cms = ReadCmsSpec(reduction);
  options.joint_modes = ReadJointModeSpecOfJoints(
      StudyJointModes(reduction, "a joint-dynamics study"), options.fe, options.joints);
  reduction.Finish();
}

void ReadOutput(const ModelNode& output, analysis::JointDynamicsOptions& options) {
  options.integrator.output_interval = output.Double("interval", 0.0, NonNegative());
  for (const ModelNode& node : output.OptionalMaps("dofs"))
    options.output_dofs.push_back(ReadFeDof(node, options.fe));
  if (const auto fields = output.OptionalMap("contact_fields")) {
    const std::vector<analysis::DynamicRun> runs = options.Runs();
    for (const std::string& name : fields->Strings("runs")) {
      if (std::none_of(runs.begin(), runs.end(),
                       [&](const analysis::DynamicRun& r) { return r.name == name; })) {
        std::string names;
        for (const analysis::DynamicRun& r : runs) names += (names.empty() ? "" : ", ") + r.name;
        fields->FailValue("runs", name, "must name a run of the study (" + names + ")");
      }
      options.field_runs.insert(name);
    }
    options.field_interval = fields->Double("interval", 0.0, NonNegative());
    fields->Finish();
  }
  output.Finish();
}

}  // namespace

analysis::JointDynamicsOptions ReadJointDynamics(const ModelNode& root) {
  analysis::JointDynamicsOptions options;
  root.ExpectAnalysis("joint_dynamics");
  options.title = root.String("title", "");
  ReadJointedStructure(
      root, "joint_dynamics takes time-dependent loads from dynamic_loads; remove the key",
      options);
  ReadLoads(root, options);
  ReadReduction(root, options);
  const ModelNode study = root.Map("study");
  options.full = study.Bool("full", false);
  options.methods = study.EnumList("methods", JointModeMethodNames());
  options.modes = ReadModeCounts(study, "modes");
  options.measure = ReadFeDof(study.Map("measure"), options.fe);
  study.Finish();
  options.integrator = ReadIntegrator(root.Map("integrator"));
  if (const auto output = root.OptionalMap("output")) ReadOutput(*output, options);
  root.Finish();
  return options;  // RunJointDynamics validates the integrator (JointDynamicsOptions::Validate)
}

}  // namespace jointdyn::model
