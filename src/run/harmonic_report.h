// The files of `analysis: harmonic`: frequency_response.csv (every point of every curve:
// amplitudes and phases per harmonic of the output DOFs, stability, turning points),
// amplitude_<dof>.svg (harmonic 1 over the continuation parameter, unstable points marked)
// and summary.json.
#pragma once

#include <string>

#include "analysis/harmonic.h"
#include "run/report.h"
#include "run/run_model.h"

namespace jointdyn::run {

class HarmonicReport : public Report<analysis::HarmonicOptions> {
 public:
  using Report::Report;
  RunOutcome Finish(const analysis::HarmonicResult& result);
};

}  // namespace jointdyn::run
