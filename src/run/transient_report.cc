#include "run/transient_report.h"

#include <utility>

#include "model/integrator_reader.h"
#include "run/column_plots.h"
#include "run/summaries.h"

namespace jointdyn::run {

void TransientReport::Sample(const std::vector<double>& row) {
  if (!csv_)
    csv_ =
        std::make_unique<io::CsvWriter>(folder_.File("transient.csv"), options_.options.Columns());
  csv_->Row(row);
}

RunOutcome TransientReport::Finish(const analysis::TransientResult& result) {
  if (csv_) csv_->Close();
  WriteColumnPlots(options_.plots, result.columns, result.rows, folder_);
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
  summary["samples"] = result.rows.size();
  summary.update(IntegratorCounters(r));
  summary["energy"] = EnergySummary(r.energy, result.prescribed_work);
  summary["wall_time_s"] = result.wall_seconds;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
