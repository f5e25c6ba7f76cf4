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

namespace jointdyn::run {

class MultibodyReport : public Report<model::MultibodyFile, analysis::MultibodyObserver> {
 public:
  using Report::Report;
  void Sample(const std::vector<double>& row) override;
  void Configuration(double t, const mbs::PlanarSystem& system, const VecX& q) override;
  void Configuration(double t, const mbs::spatial::SpatialSystem& system, const VecX& q) override;
  RunOutcome Finish(const analysis::MultibodyResult& result);

 private:
  // Writes mechanism/frame_<number>.vtu from grid() when a frame is due at t (output.frames
  // evenly over the run) and returns its number; "" when none is due.
  std::string AddMechanismFrame(double t, const std::function<io::VtuGrid()>& grid);

  std::unique_ptr<io::CsvWriter> csv_;                    // opened with the first sample
  std::unique_ptr<io::PvdWriter> frames_;                 // opened with the first frame
  std::map<int, std::unique_ptr<io::PvdWriter>> meshes_;  // per flexible body
  double last_frame_ = 0.0;
};

}  // namespace jointdyn::run
