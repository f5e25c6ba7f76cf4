// The reduction keys of the FE analyses (analysis/joint_mode_pipeline.h): the joint modes,
// the preload and the CMS basis of the studies.
//
//   joint_modes: {contact: joint, normal_law: {type: linear, eps: 5.0e13},
//                 method: wpod_tvd | pod_tvd | pod_forces, modes: 40 | ratio: 0.98,
//                 deflection: 1.0e-6, block_size: 256, tangential_stiffness: 1.0e13}
//   preload:     {loads: [{node: pl1_top, force: [0, 0, -6000]}, ..] and/or
//                 bolts: [{beam: [bolt_top, bolt_bottom], force: 2000}, ..],
//                 tvds: preload_related | all, load_steps: 1, compare_radius: 0.02}
//
// The schema is in docs/model_files.md.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analysis/joint_mode_pipeline.h"
#include "analysis/joints.h"
#include "fe/fe_model.h"
#include "model/model_node.h"

namespace jointdyn::model {

// The model-file names of the joint-mode methods (wpod_tvd, pod_tvd, pod_forces).
const std::vector<std::pair<std::string, reduction::JointModeMethod>>& JointModeMethodNames();

// The numbers g of joint modes of a study, node[key]: whole numbers >= 0, ascending and
// distinct.
std::vector<int> ReadModeCounts(const ModelNode& node, const std::string& key);

// Read every key of `node` (and Finish() it); errors name the key, value and rule.
// `normal_law` is required unless `default_normal_law` is given (an analysis whose joints
// name their normal laws elsewhere).
analysis::JointModeSpec ReadJointModeSpec(
    const ModelNode& node, const fe::FeModelSpec& fe,
    std::shared_ptr<const laws::NormalLaw> default_normal_law = nullptr);
// ReadJointModeSpec in an analysis with joints: the normal law defaults to that of the joint
// on the same contact (InputError at `contact` when it has none and normal_law is not given).
analysis::JointModeSpec ReadJointModeSpecOfJoints(const ModelNode& node, const fe::FeModelSpec& fe,
                                                  const std::vector<analysis::JointSpec>& joints);
analysis::PreloadSpec ReadPreloadSpec(const ModelNode& node, const fe::FeModelSpec& fe);

// The CMS keys of the studies in the reduction mapping: `boundary`, `vibration_modes`,
// `rigid_ratio` (the caller finishes the mapping).
analysis::CmsSpec ReadCmsSpec(const ModelNode& reduction);

// reduction.joint_modes of a study, which takes its methods and mode counts from
// study.methods and study.modes: `method`, `modes` and `ratio` are refused (InputError
// naming `study`, e.g. "a joint-mode study").
ModelNode StudyJointModes(const ModelNode& reduction, const std::string& study);

}  // namespace jointdyn::model
