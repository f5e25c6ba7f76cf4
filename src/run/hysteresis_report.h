// The files of `analysis: hysteresis`: hysteresis.csv (every sample: time, slip, traction,
// gap, pressure, energies, stick/slip state), hysteresis.svg (the loop, one curve per
// cycle), sweep.csv/.svg (dissipation per cycle against amplitude, log-log, with the fitted
// slope) and summary.json.
#pragma once

#include <string>

#include "analysis/hysteresis.h"
#include "run/report.h"
#include "run/run_model.h"

namespace jointdyn::run {

class HysteresisReport : public Report<analysis::HysteresisOptions> {
 public:
  using Report::Report;
  RunOutcome Finish(const analysis::HysteresisResult& result);
};

}  // namespace jointdyn::run
