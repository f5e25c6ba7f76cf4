// The `analysis: hysteresis` model file as analysis::HysteresisOptions (analysis/hysteresis.h).
// The schema is in docs/model_files.md.
#pragma once

#include "analysis/hysteresis.h"
#include "model/model_node.h"

namespace jointdyn::model {

// Reads every key of `root` (and Finish() it); throws InputError located in the file.
analysis::HysteresisOptions ReadHysteresis(const ModelNode& root);

}  // namespace jointdyn::model
