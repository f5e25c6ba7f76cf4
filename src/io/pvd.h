// ParaView collections (.pvd): a time series of VTU files (io/vtu.h), one per time step,
// with their times, so that ParaView opens the .pvd as a time series (File > Open the .pvd;
// the Time control steps through it).
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace jointdyn::io {

// A PVD collection: Add() records one VTU file per time step and rewrites the .pvd, so the
// collection is complete after every step (also when a run stops early).
class PvdWriter {
 public:
  // `path`: the .pvd file; its directory must exist.
  explicit PvdWriter(std::filesystem::path path);

  // Records `file` (relative to the .pvd's directory, as ParaView resolves it) at `time`
  // [s]; times must increase (InternalError otherwise). Throws IoError naming the path
  // and the reason when the .pvd cannot be written (it is replaced atomically).
  void Add(double time, const std::string& file);
  int size() const { return static_cast<int>(entries_.size()); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::vector<std::pair<double, std::string>> entries_;
};

}  // namespace jointdyn::io
