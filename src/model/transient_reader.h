// The `analysis: transient` model file as analysis::TransientOptions (analysis/transient.h)
// and the plots its report draws. The schema is in docs/model_files.md.
#pragma once

#include <string>
#include <vector>

#include "analysis/transient.h"
#include "model/model_node.h"

namespace jointdyn::model {

// A plot of columns of transient.csv (output.plots).
struct TransientPlot {
  std::string file;  // SVG file name without extension
  std::string title;
  std::string x_label, y_label;
  std::string x_column = "time";     // the column on the x axis
  std::vector<std::string> columns;  // columns on the y axis
};

struct TransientFile {
  analysis::TransientOptions options;
  std::vector<TransientPlot> plots;
};

// Reads and checks every key of `root` (throws InputError located in the file).
TransientFile ReadTransient(const ModelNode& root);

}  // namespace jointdyn::model
