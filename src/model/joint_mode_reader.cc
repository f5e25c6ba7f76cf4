#include "model/joint_mode_reader.h"

#include <cmath>

#include "model/fe_reader.h"
#include "model/law_registry.h"
#include "model/preload_reader.h"

namespace jointdyn::model {

const std::vector<std::pair<std::string, reduction::JointModeMethod>>& JointModeMethodNames() {
  static const std::vector<std::pair<std::string, reduction::JointModeMethod>> names = [] {
    std::vector<std::pair<std::string, reduction::JointModeMethod>> table;
    for (const auto method :
         {reduction::JointModeMethod::kWeightedPodOfTvds, reduction::JointModeMethod::kPodOfTvds,
          reduction::JointModeMethod::kPodOfForces})
      table.emplace_back(analysis::MethodKey(method), method);
    return table;
  }();
  return names;
}

std::vector<int> ReadModeCounts(const ModelNode& node, const std::string& key) {
  std::vector<int> modes;
  for (double g : node.Doubles(key, NonNegative())) {
    if (g != std::floor(g)) node.FailValue(key, FormatValue(g), "must be whole numbers of modes");
    if (g > 2e9) node.FailValue(key, FormatValue(g), "must be at most 2e9 (a number of modes)");
    if (!modes.empty() && g <= modes.back())
      node.FailValue(key, std::to_string(static_cast<int>(g)), "must be ascending and distinct");
    modes.push_back(static_cast<int>(g));
  }
  return modes;
}

analysis::JointModeSpec ReadJointModeSpec(
    const ModelNode& node, const fe::FeModelSpec& fe,
    std::shared_ptr<const laws::NormalLaw> default_normal_law) {
  analysis::JointModeSpec spec;
  spec.key = node.path();
  spec.contact = fe.contacts[ReadContactIndex(node, "contact", fe)].name;
  if (default_normal_law && !node.Has("normal_law"))
    spec.normal_law = std::move(default_normal_law);
  else
    spec.normal_law = ReadNormalLaw(node.Map("normal_law"));
  if (node.Has("method"))
    spec.modes.method = node.Enum<reduction::JointModeMethod>("method", JointModeMethodNames());
  if (node.Has("modes") && node.Has("ratio"))
    node.FailValue("ratio", FormatValue(node.Double("ratio")),
                   "give either modes (g) or ratio (w(g) to reach), not both");
  spec.from_ratio = !node.Has("modes");
  spec.modes.modes = node.Int("modes", 0, NonNegative());
  spec.modes.target_ratio =
      node.Double("ratio", spec.modes.target_ratio,
                  Rule{[](double x) { return x > 0.0 && x <= 1.0; }, "must be in (0, 1]"});
  spec.tvd.deflection = node.Double("deflection", spec.tvd.deflection, Positive());
  spec.tvd.block_size = node.Int("block_size", spec.tvd.block_size, AtLeast(1));
  spec.tangential_stiffness =
      node.Double("tangential_stiffness", spec.tangential_stiffness, NonNegative());
  node.Finish();
  return spec;
}

analysis::PreloadSpec ReadPreloadSpec(const ModelNode& node, const fe::FeModelSpec& fe) {
  analysis::PreloadSpec spec;
  if (node.Has("loads") || !node.Has("bolts")) spec.loads = ReadFeLoads(node, fe);
  spec.bolts = ReadBoltPreloads(node, "bolts", fe);
  if (node.Has("tvds"))
    spec.tvds = node.Enum<analysis::PreloadTvds>(
        "tvds", {{"preload_related", analysis::PreloadTvds::kPreloadRelated},
                 {"all", analysis::PreloadTvds::kAll}});
  spec.solver.load_steps = node.Int("load_steps", spec.solver.load_steps, AtLeast(1));
  spec.compare_radius = node.Double("compare_radius", spec.compare_radius, NonNegative());
  node.Finish();
  return spec;
}

analysis::JointModeSpec ReadJointModeSpecOfJoints(const ModelNode& node, const fe::FeModelSpec& fe,
                                                  const std::vector<analysis::JointSpec>& joints) {
  std::shared_ptr<const laws::NormalLaw> joint_law;
  if (node.Has("contact")) {
    const std::string& name = fe.contacts[ReadContactIndex(node, "contact", fe)].name;
    for (const analysis::JointSpec& j : joints)
      if (j.contact == name) joint_law = j.normal;
    if (!joint_law && !node.Has("normal_law"))
      node.FailValue("contact", name, "has no joint (key `joints`): give normal_law for its TVDs");
  }
  return ReadJointModeSpec(node, fe, joint_law);
}

analysis::CmsSpec ReadCmsSpec(const ModelNode& reduction) {
  analysis::CmsSpec spec;
  spec.boundary = reduction.Strings("boundary");
  spec.vibration_modes = reduction.Int("vibration_modes", spec.vibration_modes, NonNegative());
  spec.free_free.rigid_ratio =
      reduction.Double("rigid_ratio", spec.free_free.rigid_ratio,
                       Rule{[](double x) { return x > 0.0 && x < 1.0; }, "must be in (0, 1)"});
  return spec;
}

ModelNode StudyJointModes(const ModelNode& reduction, const std::string& study) {
  const ModelNode joint_modes = reduction.Map("joint_modes");
  for (const char* key : {"method", "modes", "ratio"})
    if (joint_modes.Has(key))
      joint_modes.FailValue(key, "(given)",
                            study +
                                " takes its methods and mode counts from study.methods "
                                "and study.modes; remove the key");
  return joint_modes;
}

}  // namespace jointdyn::model
