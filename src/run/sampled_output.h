// What the reports of sampled time-domain runs share (multibody, belt_drive): the samples
// as HDF5 with their units, and a ParaView series of frames spread evenly over the run.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "io/pvd.h"
#include "io/vtu.h"
#include "run/output_folder.h"

namespace jointdyn::run {

// `path`: the matrix "samples" (a row per sample) with the attributes `columns` and `units`
// (unit_of(column)).
void WriteSamplesH5(const std::filesystem::path& path, const std::vector<std::string>& columns,
                    const std::vector<std::vector<double>>& rows,
                    const std::function<std::string(const std::string&)>& unit_of);

// <stem>.pvd and its frames <stem>/frame_<number>.vtu: `count` of them evenly over
// [t_start, t_end] (0: none), the last at t_end.
class FrameSeries {
 public:
  FrameSeries(std::string stem, double t_start, double t_end, int count)
      : stem_(std::move(stem)), t_start_(t_start), t_end_(t_end), count_(count) {}
  // When a frame is due at t: writes grid() as its file and returns its number ("000012");
  // "" when none is due.
  std::string Add(OutputFolder& folder, double t, const std::function<io::VtuGrid()>& grid);
  int size() const { return pvd_ ? pvd_->size() : 0; }

 private:
  std::string stem_;
  double t_start_, t_end_;
  int count_;
  std::unique_ptr<io::PvdWriter> pvd_;  // opened with the first frame
  double last_ = 0.0;
};

}  // namespace jointdyn::run
