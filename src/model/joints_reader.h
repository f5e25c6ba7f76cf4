// The `joints` of an FE analysis's model file (joint dynamics, static): per contact a
// normal law and optionally a friction law (analysis/joints.h). The schema is in
// docs/model_files.md (`analysis: joint_dynamics`, joints).
#pragma once

#include <vector>

#include "analysis/joints.h"
#include "fe/fe_model.h"
#include "model/model_node.h"

namespace jointdyn::model {

// Reads the list `joints` of `root` (required): {contact: <a contact of spec>, normal: {law
// ..}, friction: {law .., dim: 2}}; one joint per contact.
std::vector<analysis::JointSpec> ReadJoints(const ModelNode& root, const fe::FeModelSpec& spec);

}  // namespace jointdyn::model
