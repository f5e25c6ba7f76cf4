#include "run/column_plots.h"

#include <algorithm>

#include "io/svg_plot.h"

namespace jointdyn::run {

void WriteColumnPlots(const std::vector<model::ColumnPlot>& plots,
                      const std::vector<std::string>& columns,
                      const std::vector<std::vector<double>>& rows, OutputFolder& folder) {
  if (rows.size() < 2) return;
  const auto column = [&](const std::string& name) {
    const size_t index = std::find(columns.begin(), columns.end(), name) - columns.begin();
    std::vector<double> values;
    for (const std::vector<double>& row : rows) values.push_back(row[index]);
    return values;
  };
  for (const model::ColumnPlot& plot : plots) {
    io::PlotSpec spec{plot.title, plot.x_label, plot.y_label, false, false, {}};
    const std::vector<double> x = column(plot.x_column);
    for (const std::string& c : plot.columns) spec.series.push_back({c, x, column(c)});
    io::WriteSvgPlot(spec, folder.File(plot.file + ".svg"));
  }
}

}  // namespace jointdyn::run
