#include "run/summaries.h"

#include <algorithm>
#include <cmath>

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

RunOutcome WriteSummary(OutputFolder& folder, nlohmann::json summary, const Status& status,
                        bool final) {
  const std::filesystem::path path = folder.File("summary.json");
  summary["status"] = !final ? "running" : status ? "ok" : "failed";
  summary["message"] = status.message;
  summary["files"] = folder.files();
  io::WriteJson(path, summary);
  return {status.ok, status.message, path};
}

nlohmann::json EnergySummary(const time::EnergyBalance& e, double prescribed_work) {
  const double law = e.law_dissipation + prescribed_work;
  const double scale =
      std::max({std::abs(e.external_work) + std::abs(prescribed_work),
                e.initial_kinetic + std::abs(e.initial_stored), e.kinetic + std::abs(e.stored),
                e.viscous_dissipation + std::abs(law)});
  return {{"external_work", e.external_work},
          {"prescribed_motion_work", prescribed_work},
          {"initial_kinetic", e.initial_kinetic},
          {"initial_stored", e.initial_stored},
          {"kinetic", e.kinetic},
          {"stored", e.stored},
          {"viscous_dissipation", e.viscous_dissipation},
          {"law_dissipation", law},
          {"numerical_dissipation", e.numerical_dissipation},
          {"numerical_dissipation_relative", scale > 0.0 ? e.numerical_dissipation / scale : 0.0}};
}

}  // namespace jointdyn::run
