// The files of `analysis: reduction`: basis.h5 (the basis, its column kinds and names, the
// reduced K and M, frequencies, DOF counts, the contact pairs, the expansion T; with joint
// modes the POVs, w(g) and R V; with a preload the full and reduced preload states),
// frequencies.csv/.svg (and frequencies_vs_full.csv), mesh.vtu (the basis vectors as point
// data), joint_modes.csv/.svg (POVs and w(g)), preload_pressure.csv/.svg and the preload
// contact fields preload_<state>.vtu, and summary.json.
#pragma once

#include <string>

#include "analysis/reduction.h"
#include "run/console.h"
#include "run/output_folder.h"
#include "run/run_model.h"

namespace jointdyn::run {

class ReductionReport : public Console<> {
 public:
  ReductionReport(const analysis::ReductionOptions& options, std::string model_file,
                  OutputFolder& folder);
  RunOutcome Finish(const analysis::ReductionResult& result);

 private:
  const analysis::ReductionOptions& options_;
  std::string model_file_;
  OutputFolder& folder_;
};

}  // namespace jointdyn::run
