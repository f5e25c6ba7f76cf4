#include "run/transient_report.h"

#include <algorithm>
#include <utility>

#include "io/svg_plot.h"
#include "model/integrator_reader.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

void WritePlots(const std::vector<model::TransientPlot>& plots,
                const analysis::TransientResult& result, OutputFolder& folder) {
  if (result.rows.size() < 2) return;
  const auto column = [&](const std::string& name) {
    const size_t index =
        std::find(result.columns.begin(), result.columns.end(), name) - result.columns.begin();
    std::vector<double> values;
    for (const std::vector<double>& row : result.rows) values.push_back(row[index]);
    return values;
  };
  for (const model::TransientPlot& plot : plots) {
    io::PlotSpec spec{plot.title, plot.x_label, plot.y_label, false, false, {}};
    const std::vector<double> x = column(plot.x_column);
    for (const std::string& c : plot.columns) spec.series.push_back({c, x, column(c)});
    io::WriteSvgPlot(spec, folder.File(plot.file + ".svg"));
  }
}

}  // namespace

void TransientReport::Sample(const std::vector<double>& row) {
  if (!csv_)
    csv_ =
        std::make_unique<io::CsvWriter>(folder_.File("transient.csv"), options_.options.Columns());
  csv_->Row(row);
}

RunOutcome TransientReport::Finish(const analysis::TransientResult& result) {
  if (csv_) csv_->Close();
  WritePlots(options_.plots, result, folder_);
  const analysis::TransientOptions& options = options_.options;
  const time::TransientResult& r = result.integration;
  const lumped::LumpedModel& model = options.model;
  nlohmann::json summary = SummaryHead(analysis_, model_file_, options.title);
  summary["dofs"] = result.dofs;
  summary["prescribed_dofs"] = result.prescribed_dofs;
  summary["elements"] = LumpedElementCounts(model);
  summary["scheme"] = model::SchemeName(options.integrator.scheme);
  summary["t_start"] = options.integrator.t_start;
  summary["t_end"] = options.integrator.t_end;
  summary["t_reached"] = r.t_reached;
  summary["samples"] = result.rows.size();
  summary["accepted_steps"] = r.accepted_steps;
  summary["rejected_steps"] = r.rejected_steps;
  summary["newton_iterations"] = r.newton_iterations;
  summary["newton_iterations_per_step"] =
      r.accepted_steps > 0 ? double(r.newton_iterations) / r.accepted_steps : 0.0;
  summary["residual_evaluations"] = r.residual_evaluations;
  summary["jacobian_evaluations"] = r.jacobian_evaluations;
  summary["factorizations"] = r.factorizations;
  summary["post_newton_passes"] = r.post_newton_passes;
  summary["cpu_seconds"] = r.cpu_seconds;
  summary["energy"] = EnergySummary(r.energy, result.prescribed_work);
  summary["wall_time_s"] = result.wall_seconds;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
