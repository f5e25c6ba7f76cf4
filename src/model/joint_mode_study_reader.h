// The `analysis: joint_mode_study` model file as analysis::JointModeStudyOptions
// (analysis/joint_mode_study.h). The schema is in docs/model_files.md.
#pragma once

#include "analysis/joint_mode_study.h"
#include "model/model_node.h"

namespace jointdyn::model {

// Reads and checks every key (throws InputError located in the file); builds nothing.
analysis::JointModeStudyOptions ReadJointModeStudy(const ModelNode& root);

}  // namespace jointdyn::model
