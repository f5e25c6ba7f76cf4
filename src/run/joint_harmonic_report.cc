#include "run/joint_harmonic_report.h"

#include <cstdio>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "run/backbone_report.h"
#include "run/contact_field.h"
#include "run/fe_report.h"
#include "run/harmonic_report.h"
#include "run/summaries.h"

namespace jointdyn::run {

nlohmann::json JointHarmonicReport::WriteContactFields(
    const analysis::JointHarmonicResult& result) {
  std::vector<std::string> contacts;
  for (const analysis::JointSpec& joint : options_.joints) contacts.push_back(joint.contact);
  ContactFieldSeries series(result.model, contacts, folder_);
  const VecX at_rest = VecX::Zero(result.model.mesh.num_nodes() * result.model.mesh.dim);
  nlohmann::json points = nlohmann::json::array();
  for (const analysis::PeriodSnapshots& s : result.contact_fields) {
    const double hz = s.omega / (2.0 * std::numbers::pi);
    char prefix[64];
    std::snprintf(prefix, sizeof prefix, "level_%g_%.2fHz_", s.level, hz);
    for (size_t k = 0; k < s.joints.size(); ++k)
      series.Write(prefix, k, s.times[k], s.joints[k], at_rest);
    std::vector<std::string> files;
    for (const std::string& contact : contacts)
      files.push_back("contact_fields/" + std::string(prefix) + FileName(contact) + ".pvd");
    points.push_back({{"level", s.level},
                      {"frequency_hz", hz},
                      {"snapshots", s.joints.size()},
                      {"periods_marched", s.periods},
                      {"files", files}});
  }
  return points;
}

RunOutcome JointHarmonicReport::Finish(const analysis::JointHarmonicResult& result) {
  ResponseOutputs outputs{{},
                          options_.harmonics.basis,
                          options_.continuation.solve.stability,
                          [&](const harmonic::SolutionPoint& point) {
                            return analysis::OutputCoefficients(result, point);
                          }};
  for (const fe::ReferenceDof& dof : options_.output_dofs) outputs.names.push_back(dof.name());
  nlohmann::json summary =
      FeRunSummary(analysis_, model_file_, options_.title, options_.fe, result.model);
  summary["joints"] = JointsSummary(options_.joints, result.joint_pairs);
  if (result.preload && result.preload->status)
    summary["preload"] = StaticStateSummary(result.preload->bolt_forces, result.preload->joints,
                                            result.preload->solve);
  summary["full"] = options_.full;
  if (!options_.full) summary["basis"] = result.basis;
  summary["coordinates"] = result.coordinates;
  summary["unknowns"] = result.unknowns;
  summary["pair_elements"] = result.elements;
  summary["samples_per_period"] = options_.harmonics.samples;
  summary["linear_frequencies_hz"] = result.linear_frequencies;
  summary["outputs"] = outputs.names;
  if (!options_.excitation.empty())
    WriteResponseCurves(outputs, result.curves, true, options_.title, folder_, summary);
  if (options_.nonlinear_mode)
    WriteBackbones(result.backbones, options_.nonlinear_mode->mode, result.mode_frequency,
                   outputs.names, options_.title, folder_, summary["nonlinear_mode"]);
  if (!result.contact_fields.empty()) summary["contact_fields"] = WriteContactFields(result);
  std::map<std::string, double> times = result.times;
  times["total"] = result.wall_seconds;
  summary["times_s"] = times;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
