#include "run/joint_mode_study_report.h"

#include <cmath>
#include <cstdio>
#include <utility>

#include "io/results.h"
#include "io/svg_plot.h"
#include "run/fe_report.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

using analysis::kCriteria;
using analysis::kCriterionNames;
using analysis::kGapNorm;
using analysis::kMeasure;

// How criterion k is named in the titles and tables of load case `lc`.
std::string Symbol(const analysis::LoadCase& lc, int k) {
  return k == kMeasure ? lc.measure.name() : std::string(kCriterionNames[k].symbol);
}

std::string ErrorKey(int k) { return std::string(kCriterionNames[k].key) + "_errors"; }

// The errors of one load case as Markdown tables, one per criterion: a row per method, a
// column per g, in percent (2 digits, whole numbers from 100); "-" where a solution failed.
std::string ErrorTables(const analysis::LoadCase& lc, const std::vector<int>& modes,
                        const analysis::StudyCase& study_case) {
  std::string out;
  for (int k = 0; k < kCriteria; ++k) {
    out += "\n## " + lc.name + ": error of " + Symbol(lc, k) + " [%]\n\n| method |";
    std::string rule = "|---|";
    for (int g : modes) {
      out += " g = " + std::to_string(g) + " |";
      rule += "---|";
    }
    out += "\n" + rule + "\n";
    for (const analysis::StudyCurve& curve : study_case.curves) {
      out += "| " + analysis::ExtensionLabel(curve.method) + " |";
      for (const double e : curve.errors[k]) {
        char cell[32] = " - |";
        const double percent = 100.0 * e;
        if (std::isfinite(percent))
          std::snprintf(cell, sizeof cell, percent < 100.0 ? " %.2g |" : " %.0f |", percent);
        out += cell;
      }
      out += "\n";
    }
  }
  return out;
}

// <case>_pressures.csv: per pair its slave node's x, y, z [m] and the contact pressure [Pa]
// of the full solution and of every reduced one (<method>_<g>; nan where it failed), for
// maps of the joint (seed 003 figs. 4.18-4.19; bench/rod_pressure_maps.py draws them).
void WritePressures(const analysis::JointModeStudyOptions& options,
                    const analysis::JointModeStudyResult& result, size_t c, OutputFolder& folder) {
  const analysis::StudyCase& study_case = result.cases[c];
  std::vector<std::string> columns = {"x", "y", "z", "full"};
  std::vector<const VecX*> fields = {&study_case.full.pressures};
  for (const analysis::StudyCurve& curve : study_case.curves)
    for (size_t i = 0; i < curve.points.size(); ++i) {
      columns.push_back(std::string(analysis::ExtensionKey(curve.method)) + "_" +
                        std::to_string(options.modes[i]));
      fields.push_back(&curve.points[i].pressures);
    }
  io::CsvWriter csv(folder.File(options.cases[c].name + "_pressures.csv"), columns);
  for (int p = 0; p < result.pairs; ++p) {
    const MatX& x = result.pair_positions;
    std::vector<double> row = {x(p, 0), x(p, 1), x(p, 2)};
    for (const VecX* field : fields) row.push_back(field->size() > p ? (*field)(p) : std::nan(""));
    csv.Row(row);
  }
}

// study.csv's rows of one load case, and its error plots.
void WriteCase(const analysis::JointModeStudyOptions& options, size_t c,
               const analysis::StudyCase& study_case, io::CsvWriter& csv, OutputFolder& folder) {
  const analysis::LoadCase& lc = options.cases[c];
  for (int k = 0; k < kCriteria; ++k) {
    io::PlotSpec plot{lc.name + ": error of " + Symbol(lc, k) + " against the full model",
                      "added vectors g",
                      "relative error [-]",
                      false,
                      true,
                      {}};
    for (const analysis::StudyCurve& curve : study_case.curves) {
      io::PlotSeries series{analysis::ExtensionLabel(curve.method), {}, {}, true, true};
      for (size_t i = 0; i < options.modes.size(); ++i)
        if (curve.points[i].status) {
          series.x.push_back(options.modes[i]);
          series.y.push_back(curve.errors[k][i]);
        }
      plot.series.push_back(std::move(series));
    }
    const std::string stem = k == kMeasure ? lc.measure.component_name() : kCriterionNames[k].key;
    io::WriteSvgPlot(plot, folder.File(lc.name + "_" + stem + ".svg"));
  }
  for (const analysis::StudyCurve& curve : study_case.curves)
    for (size_t i = 0; i < options.modes.size(); ++i) {
      const analysis::StudyPoint& point = curve.points[i];
      if (!point.status) continue;
      std::vector<double> row = {double(options.modes[i]), double(curve.vectors[i])};
      row.insert(row.end(), point.values.begin(), point.values.end());
      for (int k = 0; k < kCriteria; ++k) row.push_back(curve.errors[k][i]);
      row.insert(row.end(), {double(point.iterations), point.seconds});
      csv.Row({lc.name, analysis::ExtensionKey(curve.method)}, row);
    }
}

nlohmann::json CaseSummary(const analysis::JointModeStudyOptions& options, size_t c,
                           const analysis::StudyCase& study_case) {
  const analysis::LoadCase& lc = options.cases[c];
  const auto g_json = [](const std::optional<int>& g) {
    return g ? nlohmann::json(*g) : nlohmann::json(nullptr);
  };
  nlohmann::json methods;
  for (const analysis::StudyCurve& curve : study_case.curves) {
    nlohmann::json& m = methods[analysis::ExtensionKey(curve.method)];
    m = {{"modes", options.modes},
         {"first_g_below_1_percent", g_json(curve.first_g_below_1)},
         {"first_g_below_5_percent", g_json(curve.first_g_below_5)}};
    for (int k = 0; k < kCriteria; ++k) m[ErrorKey(k)] = curve.errors[k];
  }
  nlohmann::json full = {{"iterations", study_case.full.iterations},
                         {"seconds", study_case.full.seconds}};
  for (int k = 0; k < kCriteria; ++k) full[kCriterionNames[k].column] = study_case.full.values[k];
  return {{"name", lc.name}, {"measure", lc.measure.name()}, {"full", full}, {"methods", methods}};
}

// "<case>: tip.uz and ||g_N||_2 within 1 % from g = 15 (wPOD of TVDs), no g (...)".
std::string FirstBelowOnePercent(const analysis::LoadCase& lc,
                                 const analysis::StudyCase& study_case) {
  std::string text =
      lc.name + ": " + Symbol(lc, kMeasure) + " and " + Symbol(lc, kGapNorm) + " within 1 % from";
  for (size_t i = 0; i < study_case.curves.size(); ++i) {
    const analysis::StudyCurve& curve = study_case.curves[i];
    text += std::string(i == 0 ? " " : ", ") +
            (curve.first_g_below_1 ? "g = " + std::to_string(*curve.first_g_below_1)
                                   : std::string("no g")) +
            " (" + analysis::ExtensionLabel(curve.method) + ")";
  }
  return text;
}

void WritePovs(const std::vector<analysis::PovCurve>& povs, OutputFolder& folder) {
  if (povs.empty()) return;
  io::PlotSpec plot{"POV ratio w(g) of the joint-mode methods (seed 003 eq. 3.61)",
                    "joint modes g",
                    "w(g) [-]",
                    false,
                    false,
                    {}};
  io::CsvWriter csv(folder.File("pov_ratio.csv"), {"method", "g", "ratio"});
  for (const analysis::PovCurve& pov : povs) {
    io::PlotSeries series{analysis::ExtensionLabel(pov.method), {}, pov.ratio, true, true};
    for (size_t k = 0; k < pov.ratio.size(); ++k) {
      series.x.push_back(double(k + 1));
      csv.Row({series.label}, {double(k + 1), pov.ratio[k]});
    }
    plot.series.push_back(std::move(series));
  }
  io::WriteSvgPlot(plot, folder.File("pov_ratio.svg"));
}

}  // namespace

RunOutcome JointModeStudyReport::Finish(const analysis::JointModeStudyResult& result) {
  nlohmann::json summary =
      FeRunSummary(analysis_, model_file_, options_.title, options_.fe, result.model);
  summary["pairs"] = result.pairs;
  std::map<std::string, double> times = result.times;
  times["total"] = result.wall_seconds;
  summary["times_s"] = times;
  if (result.tvd)
    summary["tvd"] = {{"count", result.tvd->count},
                      {"zero_deflections", result.tvd->zero_deflections},
                      {"solves_per_second", result.tvd->solves_per_second}};
  if (result.cases.empty()) return WriteSummary(folder_, std::move(summary), result.status);

  std::vector<std::string> columns = {"load_case", "method", "g", "vectors"};
  for (const auto& n : kCriterionNames) columns.push_back(n.column);
  for (const auto& n : kCriterionNames) columns.push_back(std::string(n.key) + "_error");
  columns.insert(columns.end(), {"iterations", "seconds"});
  io::CsvWriter csv(folder_.File("study.csv"), columns);
  nlohmann::json cases = nlohmann::json::array();
  std::string tables = "# " + options_.title + ": errors against the full model\n";
  for (size_t c = 0; c < result.cases.size(); ++c) {
    WriteCase(options_, c, result.cases[c], csv, folder_);
    WritePressures(options_, result, c, folder_);
    tables += ErrorTables(options_.cases[c], options_.modes, result.cases[c]);
    Note(FirstBelowOnePercent(options_.cases[c], result.cases[c]));
    cases.push_back(CaseSummary(options_, c, result.cases[c]));
  }
  io::WriteText(folder_.File("study.md"), tables);
  WritePovs(result.povs, folder_);
  nlohmann::json povs;
  for (const analysis::PovCurve& pov : result.povs) {
    nlohmann::json& p = povs[analysis::ExtensionKey(pov.method)];
    p = {{"ratio", pov.ratio}, {"rank", pov.rank}, {"dropped", pov.dropped}, {"kept", pov.kept}};
    if (!pov.note.empty()) p["note"] = pov.note;
  }
  summary["cms"] = {{"m", result.m},
                    {"basis", result.cms_basis},
                    {"boundary", options_.cms.boundary},
                    {"vibration_modes", options_.cms.vibration_modes},
                    {"rigid_modes_removed", result.rigid_modes_removed}};
  summary["pov"] = povs;
  summary["load_cases"] = cases;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
