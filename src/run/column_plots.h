// The SVG plots of output.plots (model/column_plots.h) from a sampled result's columns and
// rows (transient, multibody).
#pragma once

#include <string>
#include <vector>

#include "model/column_plots.h"
#include "run/output_folder.h"

namespace jointdyn::run {

// Writes <plot.file>.svg per plot; nothing with fewer than two rows.
void WriteColumnPlots(const std::vector<model::ColumnPlot>& plots,
                      const std::vector<std::string>& columns,
                      const std::vector<std::vector<double>>& rows, OutputFolder& folder);

}  // namespace jointdyn::run
