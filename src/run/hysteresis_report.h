// The files of `analysis: hysteresis`: hysteresis.csv (every sample: time, slip, traction,
// gap, pressure, energies, stick/slip state), hysteresis.svg (the loop, one curve per
// cycle), sweep.csv/.svg (dissipation per cycle against amplitude, log-log, with the fitted
// slope) and summary.json.
#pragma once

#include <string>

#include "analysis/hysteresis.h"
#include "run/console.h"
#include "run/output_folder.h"
#include "run/run_model.h"

namespace jointdyn::run {

class HysteresisReport : public Console<> {
 public:
  HysteresisReport(const analysis::HysteresisOptions& options, std::string model_file,
                   OutputFolder& folder);
  RunOutcome Finish(const analysis::HysteresisResult& result);

 private:
  const analysis::HysteresisOptions& options_;
  std::string model_file_;
  OutputFolder& folder_;
};

}  // namespace jointdyn::run
