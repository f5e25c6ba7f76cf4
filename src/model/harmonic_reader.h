// The `analysis: harmonic` model file as analysis::HarmonicOptions (analysis/harmonic.h):
// frequencies in Hz in the file, rad/s in the options. The schema is in docs/model_files.md.
#pragma once

#include "analysis/harmonic.h"
#include "model/model_node.h"

namespace jointdyn::model {

// Reads and checks every key of `root` (throws InputError located in the file).
analysis::HarmonicOptions ReadHarmonic(const ModelNode& root);

}  // namespace jointdyn::model
