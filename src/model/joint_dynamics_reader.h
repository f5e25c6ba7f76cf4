// The `analysis: joint_dynamics` model file as analysis::JointDynamicsOptions
// (analysis/joint_dynamics.h). The schema is in docs/model_files.md.
#pragma once

#include "analysis/joint_dynamics.h"
#include "model/model_node.h"

namespace jointdyn::model {

// Reads and checks every key (throws InputError located in the file); builds nothing.
analysis::JointDynamicsOptions ReadJointDynamics(const ModelNode& root);

}  // namespace jointdyn::model
