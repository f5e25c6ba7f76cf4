// The files of `analysis: joint_harmonic`: with excitation frequency_response.csv,
// amplitude_<dof>.svg and phase_<dof>.svg of the output DOFs (run/harmonic_report.h,
// WriteResponseCurves: units m or rad); with nonlinear_mode backbone.csv and its plots
// (run/backbone_report.h); summary.json (the FE model, joints, preload, basis,
// harmonic-balance sizes, the stuck linear frequencies, the curves' and backbones' figures,
// stage times); with output.contact_fields the joints' fields over the period of chosen
// points (run/contact_field.h) as PVD series.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/joint_harmonic.h"
#include "run/report.h"
#include "run/run_model.h"

namespace jointdyn::run {

class JointHarmonicReport : public Report<analysis::JointHarmonicOptions> {
 public:
  using Report::Report;
  RunOutcome Finish(const analysis::JointHarmonicResult& result);

 private:
  // contact_fields/level_<L>_<f>Hz_<contact>.pvd per chosen point and joint (the snapshots
  // over the period at the reference positions; time: within the period [s]); their
  // figures for the summary.
  nlohmann::json WriteContactFields(const analysis::JointHarmonicResult& result);
};

}  // namespace jointdyn::run
