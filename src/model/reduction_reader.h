// The `analysis: reduction` model file as analysis::ReductionOptions (analysis/reduction.h).
// The schema is in docs/model_files.md.
#pragma once

#include "analysis/reduction.h"
#include "model/model_node.h"

namespace jointdyn::model {

// Reads and checks every key (throws InputError located in the file); builds nothing.
analysis::ReductionOptions ReadReduction(const ModelNode& root);

}  // namespace jointdyn::model
