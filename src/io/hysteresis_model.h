// The `analysis: hysteresis` model file: reading and result writing.
#pragma once

#include <filesystem>

#include "io/model_node.h"
#include "io/run_model.h"

namespace jointdyn::io {

RunOutcome RunHysteresisModel(const ModelNode& root, const std::filesystem::path& out_dir);

}  // namespace jointdyn::io
