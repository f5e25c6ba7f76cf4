#include "run/joint_harmonic_report.h"

#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "io/hdf5_file.h"
#include "run/backbone_report.h"
#include "run/contact_field.h"
#include "run/fe_report.h"
#include "run/harmonic_report.h"
#include "run/summaries.h"

namespace jointdyn::run {

namespace {

// joint_harmonic.h5: per curve the output DOFs' coefficients at every point, per backbone
// its columns (JointHarmonicReport).
void WriteHdf5(const std::filesystem::path& path, const analysis::JointHarmonicOptions& options,
               const analysis::JointHarmonicResult& result) {
  std::vector<std::string> outputs, terms;
  for (const fe::ReferenceDof& dof : options.output_dofs) outputs.push_back(dof.name());
  const harmonic::HarmonicBasis& basis = options.harmonics.basis;
  for (int c = 0; c < basis.size(); ++c) terms.push_back(basis.CoefficientName(c));
  io::Hdf5File file(path.string(), io::Hdf5File::Mode::kCreate);
  file.WriteAttribute("/", "outputs", outputs);
  file.WriteAttribute("/", "terms", terms);
  for (size_t k = 0; k < result.curves.size(); ++k) {
    const harmonic::ContinuationResult& curve = result.curves[k].continuation;
    if (curve.points.empty()) continue;
    const std::string group = "curves/" + std::to_string(k);
    const auto n = static_cast<Eigen::Index>(curve.points.size());
    VecX hz(n);
    MatX coefficients(n, static_cast<Eigen::Index>(outputs.size()) * basis.size());
    for (Eigen::Index i = 0; i < n; ++i) {
      hz(i) = curve.points[i].omega / (2.0 * std::numbers::pi);
      const MatX c = analysis::OutputCoefficients(result, curve.points[i]);
      for (Eigen::Index o = 0; o < c.rows(); ++o)
        coefficients.row(i).segment(o * basis.size(), basis.size()) = c.row(o);
    }
    file.WriteVector(group + "/frequency_hz", hz, "Hz");
    file.WriteMatrix(group + "/coefficients", coefficients, "m or rad (per output DOF)");
    file.WriteAttribute(group, "level", result.curves[k].fixed);
    file.WriteAttribute(group + "/coefficients", "columns",
                        "output-major: output o, term t at o * terms + t");
  }
  for (const analysis::Backbone& b : result.backbones) {
    if (b.size() == 0) continue;
    const std::string group = "backbones/" + b.method;
    const auto map = [](const std::vector<double>& v) {
      return Eigen::Map<const VecX>(v.data(), static_cast<Eigen::Index>(v.size()));
    };
    file.WriteVector(group + "/modal_amplitude", map(b.modal_amplitude), "sqrt(kg) m");
    file.WriteMatrix(group + "/amplitude", b.output_amplitude, "m or rad (per output DOF)");
    file.WriteVector(group + "/frequency_hz", map(b.frequency), "Hz");
    file.WriteVector(group + "/damping_ratio", map(b.damping_ratio), "-");
    file.WriteAttribute(group, "status", b.status ? std::string("ok") : b.status.message);
  }
  file.Commit();
}

}  // namespace

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
  if (!result.curves.empty() || !result.backbones.empty())
    WriteHdf5(folder_.File("joint_harmonic.h5"), options_, result);
  std::map<std::string, double> times = result.times;
  times["total"] = result.wall_seconds;
  summary["times_s"] = times;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
