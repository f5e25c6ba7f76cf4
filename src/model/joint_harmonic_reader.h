// The `analysis: joint_harmonic` model file as analysis::JointHarmonicOptions
// (analysis/joint_harmonic.h): frequencies in Hz in the file, rad/s in the options. The
// schema is in docs/model_files.md.
#pragma once

#include "analysis/joint_harmonic.h"
#include "model/model_node.h"

namespace jointdyn::model {

// Reads and checks every key (throws InputError located in the file); builds nothing.
analysis::JointHarmonicOptions ReadJointHarmonic(const ModelNode& root);

}  // namespace jointdyn::model
