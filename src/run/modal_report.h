// The files of `analysis: modal`: contact_pairs_<k>.csv and contact_pairs.vtu (the pairs
// of each contact: gaps, frames, areas), frequencies.csv/.svg, mesh.vtu (the mode shapes
// as point data), model_K.mtx, model_M.mtx ... with `export: matrix_market`, and
// summary.json.
#pragma once

#include <string>

#include "analysis/modal.h"
#include "run/report.h"
#include "run/run_model.h"

namespace jointdyn::run {

class ModalReport : public Report<analysis::ModalOptions> {
 public:
  using Report::Report;
  RunOutcome Finish(const analysis::ModalResult& result);
};

}  // namespace jointdyn::run
