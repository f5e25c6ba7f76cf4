// The files of `analysis: transient`: transient.csv (the samples, written as they come),
// the SVG plots of output.plots (model/transient_reader.h) and summary.json.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/transient.h"
#include "io/results.h"
#include "model/transient_reader.h"
#include "run/report.h"
#include "run/run_model.h"

namespace jointdyn::run {

class TransientReport : public Report<model::TransientFile, analysis::TransientObserver> {
 public:
  using Report::Report;
  void Sample(const std::vector<double>& row) override;
  RunOutcome Finish(const analysis::TransientResult& result);

 private:
  std::unique_ptr<io::CsvWriter> csv_;  // opened with the first sample
};

}  // namespace jointdyn::run
