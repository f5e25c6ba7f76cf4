#include "model/column_plots.h"

#include <algorithm>
#include <set>

namespace jointdyn::model {

ColumnKind QuantityLabels(analysis::ColumnQuantity (*quantity_of)(const std::string&)) {
  return [quantity_of](const std::string& column) {
    const analysis::ColumnQuantity q = quantity_of(column);
    return q.quantity + " [" + q.unit + "]";
  };
}

std::string AxisLabel(const std::vector<std::string>& columns, const ColumnKind& kind_of) {
  const std::string first = kind_of(columns.front());
  for (const auto& c : columns)
    if (kind_of(c) != first) return "value";
  return first;
}

std::vector<ColumnPlot> ReadColumnPlots(const ModelNode& output,
                                        const std::vector<std::string>& columns,
                                        const std::string& csv, const std::string& see,
                                        const std::string& stem, const std::string& title,
                                        const ColumnKind& kind_of) {
  const auto known = [&](const std::string& c) {
    return std::find(columns.begin(), columns.end(), c) != columns.end();
  };
  std::vector<ColumnPlot> result;
  std::set<std::string> files;
  const auto plots = output.OptionalMaps("plots");
  for (size_t i = 0; i < plots.size(); ++i) {
    ColumnPlot plot;
    plot.columns = plots[i].Strings("columns");
    for (const auto& c : plot.columns)
      if (c == "time" || !known(c))
        plots[i].FailValue("columns", c, "is not a column of " + csv + see);
    plot.file = plots[i].String("file", i == 0 ? stem : stem + "_" + std::to_string(i + 1));
    if (plot.file.empty() || plot.file.find_first_of("/\\.") != std::string::npos)
      plots[i].FailValue("file", plot.file, "must be a file name without directory or extension");
    if (!files.insert(plot.file).second)
      plots[i].FailValue("file", plot.file, "is used by another plot");
    plot.x_column = plots[i].String("x", "time");
    if (!known(plot.x_column)) plots[i].FailValue("x", plot.x_column, "is not a column of " + csv);
    plot.title = plots[i].String("title", title);
    plot.x_label = plots[i].String(
        "x_label", plot.x_column == "time" ? "time t [s]" : AxisLabel({plot.x_column}, kind_of));
    plot.y_label = plots[i].String("y_label", AxisLabel(plot.columns, kind_of));
    plots[i].Finish();
    result.push_back(std::move(plot));
  }
  return result;
}

}  // namespace jointdyn::model
