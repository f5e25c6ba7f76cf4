// The files of `analysis: multibody`: multibody.csv (the samples, written as they come),
// multibody.h5 (the same samples with their units), the SVG plots of output.plots,
// mechanism.pvd (the mechanism drawn as lines from each body's centre of mass to its
// markers, for ParaView to animate), <body>.pvd per flexible body (its deformed FE mesh
// with the elastic displacement as point data) and summary.json.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/multibody.h"
#include "io/pvd.h"
#include "io/results.h"
#include "io/vtu.h"
#include "model/multibody_reader.h"
#include "run/report.h"
#include "run/run_model.h"
#include "run/sampled_output.h"

namespace jointdyn::run {

class MultibodyReport : public Report<model::MultibodyFile, analysis::MultibodyObserver> {
 public:
  using Report::Report;
  void Sample(const std::vector<double>& row) override;
  void Configuration(double t, const mbs::PlanarSystem& system, const VecX& q) override;
  void Configuration(double t, const mbs::spatial::SpatialSystem& system, const VecX& q) override;
  RunOutcome Finish(const analysis::MultibodyResult& result);

 private:
  // The mechanism and the flexible bodies' deformed meshes at an output frame.
  template <class System>
  void Frame(double t, const System& system, const VecX& q);
  std::unique_ptr<io::CsvWriter> csv_;  // opened with the first sample
  FrameSeries frames_{"mechanism", options_.options.integrator.t_start,
                      options_.options.integrator.t_end, options_.frames};
  std::map<int, std::unique_ptr<io::PvdWriter>> meshes_;  // per flexible body
};

}  // namespace jointdyn::run
