// The files of `analysis: harmonic`: frequency_response.csv (every point of every curve:
// amplitudes and phases per harmonic of the output DOFs, stability, turning points),
// amplitude_<dof>.svg and, over frequency, phase_<dof>.svg (harmonic 1 over the
// continuation parameter, unstable points marked) and summary.json. The curve files are
// shared with joint_harmonic (WriteResponseCurves).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/harmonic.h"
#include "run/report.h"
#include "run/run_model.h"

namespace jointdyn::run {

// The reported DOFs of a harmonic analysis: their names and their coefficients at a point
// (outputs x nc, row o = [c0, a1, b1, ...] of output o) [m, rad].
struct ResponseOutputs {
  std::vector<std::string> names;
  harmonic::HarmonicBasis basis;
  bool stability = false;  // the points carry Hill's stability
  std::function<MatX(const harmonic::SolutionPoint&)> coefficients;
};

// frequency_response.csv and the plots of `curves`; the curve figures and counters into
// `summary` (harmonics, odd_only, parameter, curves, points, steps, rejected_steps,
// turning_points, newton_iterations, unstable_points).
void WriteResponseCurves(const ResponseOutputs& outputs,
                         const std::vector<analysis::HarmonicCurve>& curves, bool by_frequency,
                         const std::string& title, OutputFolder& folder, nlohmann::json& summary);

class HarmonicReport : public Report<analysis::HarmonicOptions> {
 public:
  using Report::Report;
  RunOutcome Finish(const analysis::HarmonicResult& result);
};

}  // namespace jointdyn::run
