// The files of `analysis: harmonic`: frequency_response.csv (every point of every curve:
// amplitudes and phases per harmonic of the output DOFs, stability, turning points),
// amplitude_<dof>.svg (harmonic 1 over the continuation parameter, unstable points marked)
// and summary.json.
#pragma once

#include <string>

#include "analysis/harmonic.h"
#include "run/console.h"
#include "run/output_folder.h"
#include "run/run_model.h"

namespace jointdyn::run {

class HarmonicReport : public Console<> {
 public:
  HarmonicReport(const analysis::HarmonicOptions& options, std::string model_file,
                 OutputFolder& folder);
  RunOutcome Finish(const analysis::HarmonicResult& result);

 private:
  const analysis::HarmonicOptions& options_;
  std::string model_file_;
  OutputFolder& folder_;
};

}  // namespace jointdyn::run
