#include "run/joint_harmonic_report.h"

#include <utility>

#include "run/backbone_report.h"
#include "run/fe_report.h"
#include "run/harmonic_report.h"
#include "run/summaries.h"

namespace jointdyn::run {

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
  std::map<std::string, double> times = result.times;
  times["total"] = result.wall_seconds;
  summary["times_s"] = times;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
