#include "io/hysteresis_model.h"

#include <cmath>
#include <memory>

#include "core/clock.h"
#include "core/progress.h"
#include "io/law_registry.h"
#include "io/results.h"
#include "io/svg_plot.h"
#include "laws/hysteresis.h"

namespace jointdyn::io {
namespace {

using laws::PathKind;

struct HysteresisModel {
  std::string title;
  std::string traction_unit;  // axis label unit: Pa (per area) or N (point and Iwan laws)
  std::unique_ptr<laws::TangentialLaw> law;
  std::unique_ptr<laws::NormalLaw> normal;
  laws::HysteresisOptions options;
  std::vector<double> sweep;  // amplitudes [m]; empty: no sweep
};

// Reads the slip path; a table with a gap column fills `gap_table`.
laws::SlipPath ReadPath(const ModelNode& node, std::vector<double>& gap_table) {
  laws::SlipPath path;
  path.kind = node.Enum<PathKind>("type", {{"sinusoid", PathKind::kSinusoid},
                                           {"ellipse", PathKind::kEllipse},
                                           {"circle", PathKind::kEllipse},
                                           {"table", PathKind::kTable}});
  const std::string type = node.String("type");
  if (path.kind == PathKind::kTable) {
    double previous = -INFINITY;
    const auto rows = node.Rows("points", 2, 4);
    for (size_t i = 0; i < rows.size(); ++i) {
      const std::string row = "points[" + std::to_string(i) + "]";
      if (rows[i].size() != rows[0].size())
        node.FailValue(row, "", "must have as many columns as points[0]");
      if (!(rows[i][0] > previous))
        node.FailValue(row + "[0]", FormatValue(rows[i][0]),
                       "times must increase strictly from row to row");
      previous = rows[i][0];
      path.table_time.push_back(rows[i][0]);
      path.table_slip.emplace_back(rows[i][1], rows[i].size() > 2 ? rows[i][2] : 0.0);
      if (rows[i].size() > 3) gap_table.push_back(rows[i][3]);
    }
    if (rows.size() < 2) node.FailValue("points", "", "needs at least two rows");
    path.frequency = 1.0 / (path.table_time.back() - path.table_time.front());
  } else {
    if (type == "sinusoid") {
      path.amplitude_x = node.Double("amplitude", Positive());
      path.amplitude_y = node.Double("amplitude_y", 0.0);
    } else if (type == "ellipse") {
      path.amplitude_x = node.Double("amplitude_x", Positive());
      path.amplitude_y = node.Double("amplitude_y", Positive());
    } else {
      path.amplitude_x = path.amplitude_y = node.Double("radius", Positive());
    }
    path.frequency = node.Double("frequency", Positive());
    path.cycles = node.Int("cycles", 3, AtLeast(1));
    path.samples_per_cycle = node.Int("samples_per_cycle", 400, AtLeast(8));
  }
  node.Finish();
  return path;
}

std::vector<double> ReadSweep(const ModelNode& node) {
  std::vector<double> amplitudes;
  if (node.Has("amplitudes")) {
    amplitudes = node.Doubles("amplitudes", Positive());
  } else {
    const double from = node.Double("from", Positive());
    const double to = node.Double("to", Positive());
    const int count = node.Int("count", AtLeast(2));
    if (!(to > from)) node.FailValue("to", FormatValue(to), "must be > sweep.from");
    for (int i = 0; i < count; ++i)
      amplitudes.push_back(from * std::pow(to / from, double(i) / (count - 1)));
  }
  node.Finish();
  return amplitudes;
}

HysteresisModel ReadHysteresis(const ModelNode& root) {
  HysteresisModel model;
  model.title = root.String("title", "");
  if (const auto law = root.OptionalMap("law")) model.law = ReadTangentialLaw(*law);
  const ModelNode normal = root.Map("normal");
  if (normal.Has("pressure") == normal.Has("law"))
    normal.FailValue(normal.Has("law") ? "law" : "pressure", "",
                     "give either a constant pressure or a normal law with a gap path");
  if (normal.Has("pressure")) {
    model.options.pressure = normal.Double("pressure", NonNegative());
  } else {
    model.normal = ReadNormalLaw(normal.Map("law"));
    if (const auto gap = normal.OptionalMap("gap")) {
      model.options.gap.mean = gap->Double("mean", 0.0);
      model.options.gap.amplitude = gap->Double("amplitude", 0.0, NonNegative());
      model.options.gap.phase = gap->Double("phase_deg", 0.0) * M_PI / 180.0;
      gap->Finish();
    }
  }
  normal.Finish();
  if (!model.law && !model.normal)
    root.FailValue("law", "", "missing: give a tangential law, or a normal law under normal.law");
  const ModelNode path = root.Map("path");
  model.options.path = ReadPath(path, model.options.gap.table);
  if (!model.options.gap.table.empty() && !model.normal)
    path.FailValue("points", "", "a gap column (t, s_x, s_y, g) needs a normal law (normal.law)");
  if (!model.options.gap.table.empty() && normal.Has("gap"))
    normal.FailValue("gap", "", "the gap is given twice: by the path table and by normal.gap");
  const bool planar =
      model.options.path.amplitude_y != 0.0 ||
      std::any_of(model.options.path.table_slip.begin(), model.options.path.table_slip.end(),
                  [](const Vec2& s) { return s.y() != 0.0; });
  if (planar && model.law && model.law->dim() == 1)
    root.FailValue("path", "", "has a y component but the law is 1D (set law.dim: 2)");
  if (const auto sweep = root.OptionalMap("sweep")) {
    if (model.options.path.kind == PathKind::kTable)
      sweep->FailValue("amplitudes", "", "an amplitude sweep needs a periodic path");
    model.sweep = ReadSweep(*sweep);
  }
  if (const auto pn = root.OptionalMap("post_newton")) {
    model.options.post_newton.tolerance = pn->Double("tolerance", 1e-9, Positive());
    model.options.post_newton.max_iterations = pn->Int("max_iterations", 20, AtLeast(1));
    pn->Finish();
  }
  const bool force_law = model.law && model.law->type().starts_with("iwan_");
  model.traction_unit = root.String("traction_unit", force_law ? "N" : "Pa");
  root.Finish();
  model.options.law = model.law.get();
  model.options.normal = model.normal.get();
  return model;
}

std::string LawName(const HysteresisModel& model) {
  std::string name = model.law ? std::string(model.law->type()) : "";
  if (model.normal) name += (name.empty() ? "" : " + ") + std::string(model.normal->type());
  return name;
}

void WriteLoop(const HysteresisModel& model, const laws::HysteresisResult& result,
               const std::filesystem::path& dir) {
  CsvWriter csv(dir / "hysteresis.csv", {"time", "slip_x", "slip_y", "traction_x", "traction_y",
                                         "gap", "pressure", "stored_energy", "work", "state"});
  for (const auto& s : result.samples)
    csv.Row({s.time, s.slip.x(), s.slip.y(), s.traction.x(), s.traction.y(), s.gap, s.pressure,
             s.stored_energy, s.work},
            std::string(laws::ToString(s.state)));

  // The loop, one series per cycle (the first shows the virgin loading).
  PlotSpec plot;
  plot.title = model.title.empty() ? "Hysteresis: " + LawName(model) : model.title;
  const bool tangential = model.law != nullptr;
  plot.x_label = tangential ? "slip s_x [m]" : "gap g [m]";
  plot.y_label = (tangential ? "traction tau_x [" : "pressure p [") + model.traction_unit + "]";
  const auto& p = model.options.path;
  const size_t per_cycle =
      p.kind == PathKind::kTable ? result.samples.size() : size_t(p.samples_per_cycle);
  for (size_t start = 0; start + 1 < result.samples.size(); start += per_cycle) {
    PlotSeries series;
    series.label =
        p.kind == PathKind::kTable ? "" : "cycle " + std::to_string(start / per_cycle + 1);
    for (size_t i = start; i <= std::min(start + per_cycle, result.samples.size() - 1); ++i) {
      const auto& s = result.samples[i];
      series.x.push_back(tangential ? s.slip.x() : s.gap);
      series.y.push_back(tangential ? s.traction.x() : s.pressure);
    }
    plot.series.push_back(std::move(series));
  }
  WriteSvgPlot(plot, dir / "hysteresis.svg");
}

void WriteSweep(const laws::SweepResult& sweep, const std::filesystem::path& dir) {
  CsvWriter csv(dir / "sweep.csv", {"amplitude", "dissipation_per_cycle", "secant_stiffness"});
  for (size_t i = 0; i < sweep.amplitude.size(); ++i)
    csv.Row({sweep.amplitude[i], sweep.dissipation[i], sweep.secant_stiffness[i]});
  PlotSpec plot;
  plot.title = "Dissipation per cycle against amplitude";
  plot.x_label = "slip amplitude [m]";
  plot.y_label = "dissipation per cycle [J/m^2]";
  plot.log_x = plot.log_y = true;
  plot.series.push_back({"computed", sweep.amplitude, sweep.dissipation, true, false});
  if (sweep.status) {
    PlotSeries fit{"fit, slope " + FormatValue(std::round(sweep.slope * 1000) / 1000)};
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
  WriteSvgPlot(plot, dir / "sweep.svg");
}

}  // namespace

RunOutcome RunHysteresisModel(const ModelNode& root, const std::filesystem::path& out_dir) {
  const auto start = Clock::now();
  const HysteresisModel model = ReadHysteresis(root);
  EnsureDirectory(out_dir);

  const laws::HysteresisResult result = laws::RunHysteresis(model.options);
  WriteLoop(model, result, out_dir);

  nlohmann::json summary;
  summary["analysis"] = "hysteresis";
  summary["model"] = root.file();
  summary["law"] = LawName(model);
  summary["samples"] = result.samples.size();
  summary["dissipation_per_cycle"] = result.dissipation_per_cycle;
  summary["secant_stiffness"] = result.secant_stiffness;
  summary["max_traction"] = result.max_traction;
  if (!result.samples.empty()) {
    const auto& last = result.samples.back();
    const auto& first = result.samples.front();
    // Energy balance over the sampled path (from t = 0 to the last sample).
    summary["energy"] = {
        {"work", last.work - first.work},
        {"stored_change", last.stored_energy - first.stored_energy},
        {"dissipated", (last.work - first.work) - (last.stored_energy - first.stored_energy)}};
  }
  RunOutcome outcome{result.status.ok, result.status.message, out_dir / "summary.json"};
  if (result.status && !model.sweep.empty()) {
    Progress progress("amplitude sweep", int(model.sweep.size()));
    const laws::SweepResult sweep = laws::RunAmplitudeSweep(
        model.options, model.sweep, [&](int done, int) { progress.Update(done); });
    if (!sweep.amplitude.empty()) WriteSweep(sweep, out_dir);
    summary["sweep"] = {{"amplitudes", sweep.amplitude},
                        {"dissipation_per_cycle", sweep.dissipation},
                        {"log_log_slope", sweep.status ? nlohmann::json(sweep.slope) : nullptr}};
    if (!sweep.status)
      outcome = {false, "amplitude sweep: " + sweep.status.message, outcome.summary};
  }
  summary["status"] = outcome.ok ? "ok" : "failed";
  summary["message"] = outcome.message;
  summary["wall_time_s"] = Seconds(start);
  WriteJson(outcome.summary, summary);
  return outcome;
}

}  // namespace jointdyn::io
