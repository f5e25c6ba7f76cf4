// The `analysis: transient` model file as analysis::TransientOptions (analysis/transient.h)
// and the plots its report draws. The schema is in docs/model_files.md.
#pragma once

#include <string>
#include <vector>

#include "analysis/transient.h"
#include "model/column_plots.h"
#include "model/model_node.h"

namespace jointdyn::model {

using TransientPlot = ColumnPlot;  // a plot of columns of transient.csv (output.plots)

struct TransientFile {
  analysis::TransientOptions options;
  std::vector<TransientPlot> plots;
};

// Reads and checks every key of `root` (throws InputError located in the file).
TransientFile ReadTransient(const ModelNode& root);

}  // namespace jointdyn::model
