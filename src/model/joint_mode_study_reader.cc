#include "model/joint_mode_study_reader.h"

#include "model/fe_reader.h"
#include "model/joint_mode_reader.h"
#include "model/preload_reader.h"

namespace jointdyn::model {
namespace {

using analysis::Extension;

const std::vector<std::pair<std::string, Extension>>& ExtensionNames() {
  static const std::vector<std::pair<std::string, Extension>> names = [] {
    std::vector<std::pair<std::string, Extension>> table;
    for (const Extension e : {Extension::kWeightedPodOfTvds, Extension::kPodOfTvds,
                              Extension::kPodOfForces, Extension::kVibrationModes})
      table.emplace_back(analysis::ExtensionKey(e), e);
    return table;
  }();
  return names;
}

std::vector<analysis::LoadCase> ReadLoadCases(const ModelNode& study, const fe::FeModelSpec& fe) {
  std::vector<analysis::LoadCase> cases;
  for (const ModelNode& node : study.Maps("load_cases")) {
    analysis::LoadCase c;
    c.name = node.String("name");
    for (const analysis::LoadCase& other : cases)
      if (other.name == c.name) node.FailValue("name", c.name, "is given twice");
    if (node.Has("loads")) c.loads = ReadFeLoads(node, fe);
    c.bolts = ReadBoltPreloads(node, "bolts", fe);
    if (c.loads.empty() && c.bolts.empty())
      node.FailValue("loads", "", "give loads, bolts (preloaded beam bolts) or both");
    c.measure = ReadFeDof(node.Map("measure"), fe);
    node.Finish();
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace

analysis::JointModeStudyOptions ReadJointModeStudy(const ModelNode& root) {
  analysis::JointModeStudyOptions options;
  root.ExpectAnalysis("joint_mode_study");
  options.title = root.String("title", "");
  options.fe = ReadFeModelSpec(root);
  const ModelNode reduction = root.Map("reduction");
  options.cms = ReadCmsSpec(reduction);
  options.joint = ReadJointModeSpec(StudyJointModes(reduction, "a joint-mode study"), options.fe);
  reduction.Finish();

  const ModelNode study = root.Map("study");
  options.methods = study.EnumList("methods", ExtensionNames());
  options.modes = ReadModeCounts(study, "modes");
  options.cases = ReadLoadCases(study, options.fe);
  options.solver.load_steps = study.Int("load_steps", options.solver.load_steps, AtLeast(1));
  study.Finish();
  root.Finish();
  return options;
}

}  // namespace jointdyn::model
