// The `analysis: static` model file as analysis::StaticOptions (analysis/static.h). The
// schema is in docs/model_files.md.
#pragma once

#include "analysis/static.h"
#include "model/model_node.h"

namespace jointdyn::model {

// Reads and checks every key (throws InputError located in the file); builds nothing.
analysis::StaticOptions ReadStatic(const ModelNode& root);

}  // namespace jointdyn::model
