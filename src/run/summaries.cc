#include "run/summaries.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "core/stop.h"
#include "io/results.h"

namespace jointdyn::run {

nlohmann::json LumpedElementCounts(const lumped::LumpedModel& model) {
  return {{"springs", model.springs.size()},
          {"dampers", model.dampers.size()},
          {"friction", model.friction.size()},
          {"contacts", model.contacts.size()}};
}

nlohmann::json SummaryHead(const std::string& analysis, const std::string& model_file,
                           const std::string& title) {
  return {{"analysis", analysis}, {"model", model_file}, {"title", title}};
}

namespace {

// The key path of the first non-finite number in `value` ("runs[2].max_measure_error"), or
// empty.
std::string NonFinite(const nlohmann::json& value, const std::string& path) {
  if (value.is_number_float() && !std::isfinite(value.get<double>())) return path;
  if (value.is_object())
    for (const auto& [key, item] : value.items())
      if (std::string found = NonFinite(item, path.empty() ? key : path + "." + key);
          !found.empty())
        return found;
  if (value.is_array())
    for (size_t i = 0; i < value.size(); ++i)
      if (std::string found = NonFinite(value[i], path + "[" + std::to_string(i) + "]");
          !found.empty())
        return found;
  return "";
}

}  // namespace

RunOutcome WriteSummary(OutputFolder& folder, nlohmann::json summary, Status status, bool final) {
  const std::filesystem::path path = folder.File("summary.json");
  // JSON has no NaN: a non-finite figure is written as null and fails the run, never `ok`.
  if (const std::string key = NonFinite(summary, ""); !key.empty())
    status = Status::Failure((status ? "" : status.message + "; ") + "the result " + key +
                             " is not finite (written as null)");
  summary["status"] = !final                ? "running"
                      : status              ? "ok"
                      : StopRequested() > 0 ? "interrupted"
                                            : "failed";
  summary["message"] = status.message;
  folder.set_last_summary(summary);
  std::vector<std::string> files = folder.Complete();
  if (std::find(files.begin(), files.end(), "summary.json") == files.end())
    files.push_back("summary.json");  // the first one: complete once written
  summary["files"] = files;
  summary["partial"] = folder.Partial();
  io::WriteJson(path, summary);
  return {status.ok, status.message, path};
}

void WriteRunningSummary(OutputFolder& folder, const std::string& analysis,
                         const std::string& model_file) {
  nlohmann::json summary = SummaryHead(analysis, model_file, "");
  summary.erase("title");
  summary["process"] = getpid();
  WriteSummary(folder, std::move(summary), Status::Ok(), false);
}

void WriteFailedSummary(OutputFolder& folder, const std::string& message) {
  nlohmann::json summary = folder.last_summary();
  if (summary.is_null()) return;  // nothing written yet: nothing to say it in
  try {
    WriteSummary(folder, std::move(summary), Status::Failure(message));
  } catch (const std::exception&) {  // the disk is full: the last summary stays
  }
}

nlohmann::json EnergySummary(const time::EnergyBalance& e, double prescribed_work) {
  const double law = e.law_dissipation + prescribed_work;
  const double scale =
      std::max({std::abs(e.external_work) + std::abs(prescribed_work) + std::abs(e.constraint_work),
                e.initial_kinetic + std::abs(e.initial_stored), e.kinetic + std::abs(e.stored),
                e.viscous_dissipation + std::abs(law)});
  return {{"external_work", e.external_work},
          {"prescribed_motion_work", prescribed_work},
          {"constraint_work", e.constraint_work},
          {"initial_kinetic", e.initial_kinetic},
          {"initial_stored", e.initial_stored},
          {"kinetic", e.kinetic},
          {"stored", e.stored},
          {"viscous_dissipation", e.viscous_dissipation},
          {"law_dissipation", law},
          {"numerical_dissipation", e.numerical_dissipation},
          {"numerical_dissipation_relative", scale > 0.0 ? e.numerical_dissipation / scale : 0.0}};
}

nlohmann::json IntegratorCounters(const time::TransientResult& r) {
  return {{"t_reached", r.t_reached},
          {"accepted_steps", r.accepted_steps},
          {"rejected_steps", r.rejected_steps},
          {"newton_iterations", r.newton_iterations},
          {"newton_iterations_per_step",
           r.accepted_steps > 0 ? double(r.newton_iterations) / r.accepted_steps : 0.0},
          {"residual_evaluations", r.residual_evaluations},
          {"jacobian_evaluations", r.jacobian_evaluations},
          {"factorizations", r.factorizations},
          {"post_newton_passes", r.post_newton_passes},
          {"cpu_seconds", r.cpu_seconds}};
}

nlohmann::json JointFiguresSummary(const analysis::JointFigures& joints) {
  return {{"gap_norm_m", joints.gap_norm},           {"contact_force_norm_n", joints.force_norm},
          {"open_pairs", joints.open_pairs},         {"sticking_pairs", joints.sticking_pairs},
          {"slipping_pairs", joints.slipping_pairs}, {"max_pressure_pa", joints.max_pressure},
          {"normal_force_n", joints.normal_force}};
}

nlohmann::json JointsSummary(const std::vector<analysis::JointSpec>& joints,
                             const std::vector<int>& pairs) {
  nlohmann::json list = nlohmann::json::array();
  for (size_t j = 0; j < pairs.size(); ++j)
    list.push_back({{"contact", joints[j].contact},
                    {"pairs", pairs[j]},
                    {"friction", joints[j].friction != nullptr}});
  return list;
}

nlohmann::json StaticStateSummary(const std::vector<double>& bolt_forces,
                                  const analysis::JointFigures& joints,
                                  const joint::StaticResult& solve) {
  nlohmann::json summary = JointFiguresSummary(joints);
  summary.update(nlohmann::json{{"bolt_forces_n", bolt_forces},
                                {"newton_iterations", solve.iterations},
                                {"increments", solve.load_steps},
                                {"cutbacks", solve.cutbacks},
                                {"factorizations", solve.factorizations},
                                {"reused_factorizations", solve.reused_factorizations},
                                {"residual_norm", solve.residual_norm},
                                {"seconds", solve.seconds}});
  return summary;
}

}  // namespace jointdyn::run
