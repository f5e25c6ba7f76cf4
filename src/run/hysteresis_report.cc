#include "run/hysteresis_report.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/error.h"
#include "io/results.h"
#include "io/svg_plot.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

using laws::PathKind;

void WriteLoop(const analysis::HysteresisOptions& options, const laws::HysteresisResult& result,
               OutputFolder& folder) {
  io::CsvWriter csv(folder.File("hysteresis.csv"),
                    {"time", "slip_x", "slip_y", "traction_x", "traction_y", "gap", "pressure",
                     "stored_energy", "work", "state"});
  for (const auto& s : result.samples)
    csv.Row({s.time, s.slip.x(), s.slip.y(), s.traction.x(), s.traction.y(), s.gap, s.pressure,
             s.stored_energy, s.work},
            std::string(laws::ToString(s.state)));

  // The loop, one series per cycle (the first shows the virgin loading).
  io::PlotSpec plot;
  plot.title = options.title.empty() ? "Hysteresis: " + options.LawName() : options.title;
  const bool tangential = options.law != nullptr;
  plot.x_label = tangential ? "slip s_x [m]" : "gap g [m]";
  plot.y_label = (tangential ? "traction tau_x [" : "pressure p [") + options.traction_unit + "]";
  const laws::SlipPath& p = options.loop.path;
  const size_t per_cycle =
      p.kind == PathKind::kTable ? result.samples.size() : size_t(p.samples_per_cycle);
  for (size_t start = 0; start + 1 < result.samples.size(); start += per_cycle) {
    io::PlotSeries series;
    series.label =
        p.kind == PathKind::kTable ? "" : "cycle " + std::to_string(start / per_cycle + 1);
    for (size_t i = start; i <= std::min(start + per_cycle, result.samples.size() - 1); ++i) {
      const auto& s = result.samples[i];
      series.x.push_back(tangential ? s.slip.x() : s.gap);
      series.y.push_back(tangential ? s.traction.x() : s.pressure);
    }
    plot.series.push_back(std::move(series));
  }
  io::WriteSvgPlot(plot, folder.File("hysteresis.svg"));
}

// `energy_unit`: J/m^2 for laws per area, J for point and Iwan laws (traction in N).
void WriteSweep(const laws::SweepResult& sweep, const std::string& energy_unit,
                OutputFolder& folder) {
  io::CsvWriter csv(folder.File("sweep.csv"),
                    {"amplitude", "dissipation_per_cycle", "secant_stiffness"});
  for (size_t i = 0; i < sweep.amplitude.size(); ++i)
    csv.Row({sweep.amplitude[i], sweep.dissipation[i], sweep.secant_stiffness[i]});
  io::PlotSpec plot;
  plot.title = "Dissipation per cycle against amplitude";
  plot.x_label = "slip amplitude [m]";
  plot.y_label = "dissipation per cycle [" + energy_unit + "]";
  plot.log_x = plot.log_y = true;
  plot.series.push_back({"computed", sweep.amplitude, sweep.dissipation, true, false});
  if (sweep.status) {
    io::PlotSeries fit{"fit, slope " + FormatValue(std::round(sweep.slope * 1000) / 1000)};
    // Over the amplitudes that entered the fit (those that dissipate).
    std::vector<double> fitted;
    for (size_t i = 0; i < sweep.amplitude.size(); ++i)
      if (sweep.dissipation[i] > 0.0) fitted.push_back(sweep.amplitude[i]);
    for (const double a : {fitted.front(), fitted.back()}) {
      fit.x.push_back(a);
      fit.y.push_back(std::exp(sweep.intercept + sweep.slope * std::log(a)));
    }
    plot.series.push_back(std::move(fit));
  }
  io::WriteSvgPlot(plot, folder.File("sweep.svg"));
}

}  // namespace

RunOutcome HysteresisReport::Finish(const analysis::HysteresisResult& result) {
  const laws::HysteresisResult& loop = result.loop;
  WriteLoop(options_, loop, folder_);
  nlohmann::json summary = SummaryHead(analysis_, model_file_, options_.title);
  summary["law"] = options_.LawName();
  summary["samples"] = loop.samples.size();
  summary["dissipation_per_cycle"] = loop.dissipation_per_cycle;
  summary["secant_stiffness"] = loop.secant_stiffness;
  summary["max_traction"] = loop.max_traction;
  if (!loop.samples.empty()) {
    const laws::HysteresisSample& first = loop.samples.front();
    const laws::HysteresisSample& last = loop.samples.back();
    // Energy balance over the sampled path (from t = 0 to the last sample).
    const double work = last.work - first.work;
    const double stored = last.stored_energy - first.stored_energy;
    summary["energy"] = {{"work", work}, {"stored_change", stored}, {"dissipated", work - stored}};
  }
  if (!options_.sweep.empty() && loop.status) {
    const laws::SweepResult& sweep = result.sweep;
    if (!sweep.amplitude.empty())
      WriteSweep(sweep, options_.traction_unit == "N" ? "J" : "J/m^2", folder_);
    summary["sweep"] = {{"amplitudes", sweep.amplitude},
                        {"dissipation_per_cycle", sweep.dissipation},
                        {"log_log_slope", sweep.status ? nlohmann::json(sweep.slope) : nullptr}};
  }
  summary["wall_time_s"] = result.wall_seconds;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
