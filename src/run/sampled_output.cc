#include "run/sampled_output.h"

#include <cstdio>

#include "io/hdf5_file.h"

namespace jointdyn::run {

void WriteSamplesH5(const std::filesystem::path& path, const std::vector<std::string>& columns,
                    const std::vector<std::vector<double>>& rows,
                    const std::function<std::string(const std::string&)>& unit_of) {
  const auto n = static_cast<Eigen::Index>(rows.size());
  const auto m = static_cast<Eigen::Index>(columns.size());
  MatX samples(n, m);
  for (Eigen::Index i = 0; i < n; ++i)
    samples.row(i) = Eigen::Map<const VecX>(rows[i].data(), m).transpose();
  std::vector<std::string> units;
  for (const std::string& c : columns) units.push_back(unit_of(c));
  io::Hdf5File file(path.string(), io::Hdf5File::Mode::kCreate);
  file.WriteMatrix("samples", samples, "per column (attribute units)");
  file.WriteAttribute("samples", "columns", columns);
  file.WriteAttribute("samples", "units", units);
  file.Commit();
}

std::string FrameSeries::Add(OutputFolder& folder, double t,
                             const std::function<io::VtuGrid()>& grid) {
  if (count_ == 0) return "";
  const double spacing = (t_end_ - t_start_) / count_;
  if (pvd_ && t - last_ < spacing * (1.0 - 1e-9) && t < t_end_) return "";
  if (!pvd_) pvd_ = std::make_unique<io::PvdWriter>(folder.File(stem_ + ".pvd"));
  char number[16];
  std::snprintf(number, sizeof number, "%06d", pvd_->size());
  const std::string file = stem_ + "/frame_" + number + ".vtu";
  io::WriteVtu(folder.File(file), grid());
  pvd_->Add(t, file);
  last_ = t;
  return number;
}

}  // namespace jointdyn::run
