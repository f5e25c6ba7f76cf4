// The files of `analysis: belt_drive`: belt_drive.csv (the samples, written as they come),
// belt_drive.h5 (the same samples with their units), the SVG plots of output.plots,
// profile_t<time>.csv per profile time with its plots (axial force, speed, contact
// stresses along the belt), belt.pvd (the belt with its axial force, contact pressure and
// stick/slip, and the pulleys as circles with a spoke, for ParaView to animate) and
// summary.json.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/belt_drive.h"
#include "io/pvd.h"
#include "io/results.h"
#include "model/belt_drive_reader.h"
#include "run/report.h"
#include "run/run_model.h"
#include "run/sampled_output.h"

namespace jointdyn::run {

class BeltDriveReport : public Report<model::BeltDriveFile, analysis::BeltDriveObserver> {
 public:
  using Report::Report;
  void Sample(const std::vector<double>& row) override;
  void Profile(const analysis::BeltProfile& profile) override;
  void Configuration(double t, const ancf::CableSystem& system, const VecX& q,
                     const VecX& v) override;
  RunOutcome Finish(const analysis::BeltDriveResult& result);

 private:
  std::unique_ptr<io::CsvWriter> csv_;  // opened with the first sample
  FrameSeries frames_{"belt", options_.options.integrator.t_start,
                      options_.options.integrator.t_end, options_.frames};
  std::vector<std::string> profile_files_;
};

}  // namespace jointdyn::run
