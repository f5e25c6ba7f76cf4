// The files of `analysis: reduction`: basis.h5 (the basis, its column kinds and names, the
// reduced K and M, frequencies, DOF counts, the contact pairs, the expansion T; with joint
// modes the POVs, w(g) and R V; with a preload the full and reduced preload states),
// frequencies.csv/.svg (and frequencies_vs_full.csv), mesh.vtu (the basis vectors as point
// data), joint_modes.csv/.svg (POVs and w(g)), preload_pressure.csv/.svg and the preload
// contact fields preload_<state>.vtu, and summary.json.
#pragma once

#include <string>

#include "analysis/reduction.h"
#include "run/report.h"
#include "run/run_model.h"

namespace jointdyn::run {

class ReductionReport : public Report<analysis::ReductionOptions> {
 public:
  using Report::Report;
  RunOutcome Finish(const analysis::ReductionResult& result);
};

}  // namespace jointdyn::run
