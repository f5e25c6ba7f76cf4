// The `analysis: multibody` model file as analysis::MultibodyOptions (analysis/multibody.h)
// and the plots its report draws. The schema is in docs/model_files.md.
#pragma once

#include <vector>

#include "analysis/multibody.h"
#include "model/column_plots.h"
#include "model/model_node.h"

namespace jointdyn::model {

struct MultibodyFile {
  analysis::MultibodyOptions options;
  std::vector<ColumnPlot> plots;  // of multibody.csv
  int frames = 200;  // mechanism.pvd frames over the run (output.frames), >= 0; 0: none
};

// Reads and checks every key of `root` (throws InputError located in the file).
MultibodyFile ReadMultibody(const ModelNode& root);

}  // namespace jointdyn::model
