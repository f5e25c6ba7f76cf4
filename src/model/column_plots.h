// Plots of the columns of a sampled result's CSV file (transient.csv, multibody.csv): the
// `output.plots` key of the transient and multibody analyses, read against the columns the
// run will write. The report draws them as SVG (run/column_plots.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analysis/column_quantity.h"
#include "model/model_node.h"

namespace jointdyn::model {

struct ColumnPlot {
  std::string file;  // SVG file name without extension
  std::string title;
  std::string x_label, y_label;
  std::string x_column = "time";     // the column on the x axis
  std::vector<std::string> columns;  // columns on the y axis
};

// The axis label of one column ("displacement [m]"); "value" is used for a mix.
using ColumnKind = std::function<std::string(const std::string& column)>;

// Reads the list output[plots]: per plot `columns`, `file` (default stem, stem_2, ...),
// `x`, `title` (default `title`), `x_label`, `y_label` (defaults from kind_of). Every
// column must be one of `columns` (of the file `csv`, named in messages with the hint
// `see`, e.g. " (see output.dofs)").
std::vector<ColumnPlot> ReadColumnPlots(const ModelNode& output,
                                        const std::vector<std::string>& columns,
                                        const std::string& csv, const std::string& see,
                                        const std::string& stem, const std::string& title,
                                        const ColumnKind& kind_of);

// The labels "quantity [unit]" of the columns whose quantity `quantity_of` gives
// (analysis::MultibodyColumnQuantity, analysis::BeltDriveColumnQuantity).
ColumnKind QuantityLabels(analysis::ColumnQuantity (*quantity_of)(const std::string&));

// The common label of `columns` by kind_of, or "value" when they differ.
std::string AxisLabel(const std::vector<std::string>& columns, const ColumnKind& kind_of);

}  // namespace jointdyn::model
