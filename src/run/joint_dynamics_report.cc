#include "run/joint_dynamics_report.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <numeric>
#include <utility>

#include "io/hdf5_file.h"
#include "io/svg_plot.h"
#include "io/vtu.h"
#include "model/integrator_reader.h"
#include "run/contact_field.h"
#include "run/fe_report.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

using analysis::DynamicRun;
using analysis::DynamicRunResult;
using analysis::JointDynamicsOptions;
using analysis::JointDynamicsResult;
using analysis::kCriteria;
using analysis::kMeasure;

// The criteria (analysis/criteria.h) with this study's names: the measure's from its DOF.
struct CriterionText {
  std::string key, column;
  std::string max_key;       // summary: the largest |value|
  std::string symbol;        // in the error plots' titles
  std::string title, label;  // of the plot over time
};

std::array<CriterionText, kCriteria> Criteria(const JointDynamicsOptions& options) {
  std::array<CriterionText, kCriteria> criteria;
  for (int k = 0; k < kCriteria; ++k) {
    const analysis::CriterionNames& n = analysis::kCriterionNames[k];
    criteria[k] = {n.key, n.column, "max_" + std::string(n.column), n.symbol, n.title, n.label};
  }
  const std::string m = options.measure.name();
  criteria[kMeasure].max_key = "max_abs_measure";
  criteria[kMeasure].symbol = m;
  criteria[kMeasure].title = options.title.empty() ? "Measure " + m : options.title;
  criteria[kMeasure].label = m + " [" + options.measure.unit() + "]";
  return criteria;
}

double MaxAbs(const std::vector<double>& values) {
  double m = 0.0;
  for (double v : values) m = std::max(m, std::abs(v));
  return m;
}

// What a run is, for legends: "full model", "CMS basis", "wPOD of TVDs, g = 20".
std::string RunLabel(const DynamicRun& run) {
  if (run.full) return "full model";
  if (!run.method) return "CMS basis";
  return std::string(reduction::Name(*run.method)) + ", g = " + std::to_string(run.g);
}

std::string MethodName(const DynamicRun& run) {
  return run.full ? "full" : run.method ? analysis::MethodKey(*run.method) : "cms";
}

void WriteHistories(const std::filesystem::path& path, const JointDynamicsOptions& options,
                    const JointDynamicsResult& result) {
  const auto criteria = Criteria(options);
  const std::string measure_unit = options.measure.unit();
  const std::array<std::string, kCriteria> units = {measure_unit, "m", "N"};
  std::vector<std::string> names, dof_units;
  for (const fe::ReferenceDof& d : options.output_dofs) {
    names.push_back(d.name());
    dof_units.push_back(d.unit());
  }
  if (options.output_dofs.empty()) {
    names = {options.measure.name()};
    dof_units = {measure_unit};
  }
  const bool one_unit = std::all_of(dof_units.begin(), dof_units.end(),
                                    [&](const std::string& u) { return u == dof_units.front(); });
  const std::string dofs_unit = one_unit ? dof_units.front() : "per column (attribute units)";
  io::Hdf5File file(path.string(), io::Hdf5File::Mode::kCreate);
  file.WriteAttribute("/", "dofs", names);
  file.WriteAttribute("/", "measure", options.measure.name());
  for (size_t r = 0; r < result.results.size(); ++r) {
    const analysis::RunHistory& h = result.results[r].history;
    if (h.time.empty()) continue;
    const auto n = static_cast<Eigen::Index>(h.time.size());
    const std::string group = "runs/" + result.runs[r].name;
    file.WriteVector(group + "/time", Eigen::Map<const VecX>(h.time.data(), n), "s");
    for (int c = 0; c < kCriteria; ++c)
      file.WriteVector(group + "/" + criteria[c].key,
                       Eigen::Map<const VecX>(h.criteria[c].data(), n), units[c]);
    MatX dofs(n, h.dofs.front().size());
    for (Eigen::Index i = 0; i < n; ++i) dofs.row(i) = h.dofs[i].transpose();
    file.WriteMatrix(group + "/dofs", dofs, dofs_unit);
    file.WriteAttribute(group + "/dofs", "columns", names);
    file.WriteAttribute(group + "/dofs", "units", dof_units);
    file.WriteAttribute(group + "/time", "status",
                        std::string(result.results[r].transient.status.ok ? "ok" : "failed"));
  }
  file.Commit();
}

// One run's figures in the summary.
nlohmann::json RunSummary(const JointDynamicsOptions& options, const JointDynamicsResult& result,
                          size_t r) {
  const auto criteria = Criteria(options);
  const DynamicRun& run = result.runs[r];
  const DynamicRunResult& rr = result.results[r];
  const time::TransientResult& tr = rr.transient;
  nlohmann::json j = {{"name", run.name},
                      {"method", MethodName(run)},
                      {"g", run.g},
                      {"coordinates", rr.size},
                      {"status", tr.status ? "ok" : "failed"},
                      {"message", tr.status.message},
                      {"samples", rr.history.time.size()},
                      {"wall_seconds", rr.wall_seconds},
                      {"reduce_seconds", rr.reduce_seconds},
                      {"pair_openings", rr.pair_openings},
                      {"peak_velocity", rr.peak_velocity}};
  j.update(IntegratorCounters(tr));
  for (int c = 0; c < kCriteria; ++c) {
    j[criteria[c].max_key] = MaxAbs(rr.history.criteria[c]);
    if (!rr.errors[c].empty()) j["max_" + criteria[c].key + "_error"] = MaxAbs(rr.errors[c]);
  }
  j["reference"] = result.reference && r == *result.reference;
  if (result.full_run && !run.full && result.results[*result.full_run].transient.cpu_seconds > 0.0)
    j["cpu_ratio_to_full"] =
        tr.cpu_seconds / result.results[*result.full_run].transient.cpu_seconds;
  if (options.field_runs.count(run.name)) j["contact_field_steps"] = rr.field_steps;
  j["energy"] = EnergySummary(tr.energy);
  j["energy"]["law_energy_dropped_at_opening"] = rr.opening_energy;
  if (!rr.warning.empty()) j["warning"] = rr.warning;
  return j;
}

void WriteErrors(const JointDynamicsOptions& options, const JointDynamicsResult& result,
                 OutputFolder& folder) {
  const auto criteria = Criteria(options);
  std::vector<std::string> columns = {"run", "method", "g", "time"};
  for (const CriterionText& c : criteria) columns.push_back(c.key + "_error");
  io::CsvWriter csv(folder.File("errors.csv"), columns);
  for (size_t r = 0; r < result.results.size(); ++r) {
    const DynamicRun& run = result.runs[r];
    const DynamicRunResult& rr = result.results[r];
    for (size_t i = 0; i < rr.errors[0].size(); ++i) {
      std::vector<double> row = {double(run.g), rr.history.time[i]};
      for (int c = 0; c < kCriteria; ++c) row.push_back(rr.errors[c][i]);
      csv.Row({run.name, run.method ? analysis::MethodKey(*run.method) : run.name}, row);
    }
  }
}

// Each criterion over time for all runs, and its error per method.
void WritePlots(const JointDynamicsOptions& options, const JointDynamicsResult& result,
                OutputFolder& folder) {
  const auto criteria = Criteria(options);
  for (int c = 0; c < kCriteria; ++c) {
    io::PlotSpec plot{criteria[c].title, "time t [s]", criteria[c].label, false, false, {}};
    for (size_t r = 0; r < result.results.size(); ++r) {
      const analysis::RunHistory& h = result.results[r].history;
      if (h.time.size() >= 2)
        plot.series.push_back({RunLabel(result.runs[r]), h.time, h.criteria[c]});
    }
    if (!plot.series.empty()) io::WriteSvgPlot(plot, folder.File(criteria[c].key + ".svg"));
    if (!result.reference) continue;
    for (reduction::JointModeMethod method : options.methods) {
      io::PlotSpec error{std::string(reduction::Name(method)) + ": error of " + criteria[c].symbol +
                             " against the " + RunLabel(result.runs[*result.reference]),
                         "time t [s]",
                         "e(t) [-]",
                         false,
                         true,
                         {}};
      for (size_t r = 0; r < result.results.size(); ++r) {
        const std::vector<double>& e = result.results[r].errors[c];
        if (result.runs[r].method != method || e.size() < 2 ||
            std::none_of(e.begin(), e.end(), [](double x) { return x > 0.0; }))
          continue;
        error.series.push_back(
            {"g = " + std::to_string(result.runs[r].g), result.results[r].history.time, e});
      }
      if (!error.series.empty())
        io::WriteSvgPlot(error, folder.File("error_" + std::string(analysis::MethodKey(method)) +
                                            "_" + criteria[c].key + ".svg"));
    }
  }
}

}  // namespace

void JointDynamicsReport::ModelBuilt(const fe::FeModel& model) { model_ = &model; }

void JointDynamicsReport::Sample(const DynamicRun& run, double time,
                                 const std::array<double, kCriteria>& criteria, const VecX&) {
  if (!histories_) {
    std::vector<std::string> columns = {"run", "time"};
    for (const CriterionText& c : Criteria(options_)) columns.push_back(c.column);
    histories_ = std::make_unique<io::CsvWriter>(folder_.File("histories.csv"), columns);
  }
  std::vector<double> row = {time};
  row.insert(row.end(), criteria.begin(), criteria.end());
  histories_->Row({run.name}, row);
}

void JointDynamicsReport::ContactField(const DynamicRun& run, int step, double time,
                                       std::span<const joint::JointOperator> joints,
                                       const VecX& mesh_displacement) {
  if (!fields_) {
    std::vector<std::string> contacts;
    for (const analysis::JointSpec& joint : options_.joints) contacts.push_back(joint.contact);
    fields_ = std::make_unique<ContactFieldSeries>(*model_, std::move(contacts), folder_);
  }
  fields_->Write(run.name + "_", step, time, joints, mesh_displacement);
}

void JointDynamicsReport::RunFinished(const JointDynamicsResult& result, size_t index) {
  WriteHistories(folder_.File("histories.h5"), options_, result);
  WriteSummary(folder_, Summary(result), result.status, false);
}

nlohmann::json JointDynamicsReport::Summary(const JointDynamicsResult& result) const {
  nlohmann::json summary =
      FeRunSummary(analysis_, model_file_, options_.title, options_.fe, result.model);
  summary["joints"] = JointsSummary(options_.joints, result.joint_pairs);
  summary["pairs"] = std::accumulate(result.joint_pairs.begin(), result.joint_pairs.end(), 0);
  summary["measure"] = options_.measure.name();
  summary["scheme"] = model::SchemeName(options_.integrator.scheme);
  summary["t_start"] = options_.integrator.t_start;
  summary["t_end"] = options_.integrator.t_end;
  summary["dt"] = options_.integrator.dt;
  if (result.m > 0)
    summary["cms"] = {{"m", result.m},
                      {"basis", result.cms_basis},
                      {"boundary", options_.cms.boundary},
                      {"vibration_modes", options_.cms.vibration_modes},
                      {"rigid_modes_removed", result.rigid_modes_removed}};
  if (result.tvd)
    summary["tvd"] = {{"count", result.tvd->count},
                      {"zero_deflections", result.tvd->zero_deflections},
                      {"solves_per_second", result.tvd->solves_per_second}};
  nlohmann::json modes;
  for (const analysis::MethodModes& m : result.joint_modes) {
    nlohmann::json& j = modes[analysis::MethodKey(m.method)];
    j = {{"rank", m.rank},
         {"kept", m.kept},
         {"dropped", m.dropped},
         {"ratio_at_largest_g", m.ratio_at_largest_g}};
    if (!m.note.empty()) j["note"] = m.note;
  }
  if (!modes.is_null()) summary["joint_modes"] = modes;
  if (result.preload && result.preload->status)
    summary["preload"] = StaticStateSummary(result.preload->bolt_forces, result.preload->joints,
                                            result.preload->solve);
  summary["modes"] = options_.modes;
  std::vector<std::string> methods;
  for (reduction::JointModeMethod m : options_.methods) methods.push_back(analysis::MethodKey(m));
  summary["methods"] = methods;
  nlohmann::json runs = nlohmann::json::array();
  std::map<std::string, double> times = result.times;
  times["reduced_runs"] = 0.0;
  for (size_t r = 0; r < result.results.size(); ++r) {
    runs.push_back(RunSummary(options_, result, r));
    const DynamicRunResult& rr = result.results[r];
    if (result.runs[r].full)
      times["full_run"] = rr.wall_seconds;
    else
      times["reduced_runs"] += rr.wall_seconds + rr.reduce_seconds;
  }
  if (result.wall_seconds > 0.0) times["total"] = result.wall_seconds;
  summary["runs"] = runs;
  summary["times_s"] = times;
  return summary;
}

RunOutcome JointDynamicsReport::Finish(const JointDynamicsResult& result) {
  if (histories_) histories_->Close();
  nlohmann::json summary = Summary(result);
  if (result.results.size() == result.runs.size()) {  // every run done
    summary["reference"] = result.reference ? result.runs[*result.reference].name : "none";
    WriteErrors(options_, result, folder_);
    WritePlots(options_, result, folder_);
  }
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
