#include "run/multibody_report.h"

#include <cstdio>
#include <utility>

#include "io/hdf5_file.h"
#include "io/vtu.h"
#include "model/integrator_reader.h"
#include "run/column_plots.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

constexpr uint8_t kVtkLine = 3;

// The unit of a column of multibody.csv (model/multibody_reader.cc names their kinds).
std::string Unit(const std::string& column) {
  if (column == "time") return "s";
  if (column == "c_max") return "m or rad";
  for (const char* p : {"x_", "y_", "px_", "py_"})
    if (column.starts_with(p)) return "m";
  if (column.starts_with("angle_")) return "rad";
  if (column.starts_with("omega_")) return "rad/s";
  if (column.starts_with("vx_") || column.starts_with("vy_")) return "m/s";
  if (column.starts_with("m_")) return "N m";
  for (const char* p : {"fx_", "fy_", "fn_"})
    if (column.starts_with(p)) return "N";
  if (column.starts_with("f_")) return "N or N m";
  return "J";
}

void WriteSamples(const std::filesystem::path& path, const analysis::MultibodyResult& result) {
  const auto rows = static_cast<Eigen::Index>(result.rows.size());
  const auto cols = static_cast<Eigen::Index>(result.columns.size());
  MatX samples(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    samples.row(i) = Eigen::Map<const VecX>(result.rows[i].data(), cols).transpose();
  std::vector<std::string> units;
  for (const std::string& c : result.columns) units.push_back(Unit(c));
  io::Hdf5File file(path.string(), io::Hdf5File::Mode::kCreate);
  file.WriteMatrix("samples", samples, "per column (attribute units)");
  file.WriteAttribute("samples", "columns", result.columns);
  file.WriteAttribute("samples", "units", units);
  file.Commit();
}

// Lines from each body's centre of mass to its markers; ground markers as lone points.
io::VtuGrid MechanismGrid(const mbs::PlanarModel& model, const std::vector<Vec2>& bodies,
                          const std::vector<Vec2>& markers) {
  io::VtuGrid grid;
  for (const std::vector<Vec2>* set : {&bodies, &markers})
    for (const Vec2& p : *set) grid.points.insert(grid.points.end(), {p.x(), p.y(), 0.0});
  const auto body_count = static_cast<int64_t>(bodies.size());
  for (size_t m = 0; m < markers.size(); ++m) {
    const int body = model.markers[m].body;
    if (body == mbs::kGround) continue;
    grid.connectivity.insert(grid.connectivity.end(), {body, body_count + int64_t(m)});
    grid.offsets.push_back(static_cast<int64_t>(grid.connectivity.size()));
    grid.types.push_back(kVtkLine);
  }
  io::VtuArray body_index{"body", 1, {}};
  for (size_t b = 0; b < bodies.size(); ++b) body_index.values.push_back(double(b));
  for (const mbs::Marker& m : model.markers) body_index.values.push_back(double(m.body));
  grid.point_data.push_back(std::move(body_index));
  grid.comment = "point data body: the body index of each point (-1: ground)";
  return grid;
}

}  // namespace

void MultibodyReport::Sample(const std::vector<double>& row) {
  if (!csv_)
    csv_ =
        std::make_unique<io::CsvWriter>(folder_.File("multibody.csv"), options_.options.Columns());
  csv_->Row(row);
}

void MultibodyReport::Configuration(double t, const std::vector<Vec2>& bodies,
                                    const std::vector<Vec2>& markers) {
  const time::IntegratorOptions& integrator = options_.options.integrator;
  if (options_.frames == 0) return;
  const double spacing = (integrator.t_end - integrator.t_start) / options_.frames;
  if (frames_ && t - last_frame_ < spacing * (1.0 - 1e-9) && t < integrator.t_end) return;
  if (!frames_) frames_ = std::make_unique<io::PvdWriter>(folder_.File("mechanism.pvd"));
  char name[32];
  std::snprintf(name, sizeof name, "mechanism/frame_%06d.vtu", frames_->size());
  io::WriteVtu(folder_.File(name), MechanismGrid(options_.options.model, bodies, markers));
  frames_->Add(t, name);
  last_frame_ = t;
}

RunOutcome MultibodyReport::Finish(const analysis::MultibodyResult& result) {
  if (csv_) csv_->Close();
  if (!result.rows.empty()) WriteSamples(folder_.File("multibody.h5"), result);
  WriteColumnPlots(options_.plots, result.columns, result.rows, folder_);
  const analysis::MultibodyOptions& options = options_.options;
  const mbs::PlanarModel& model = options.model;
  const time::TransientResult& r = result.integration;
  nlohmann::json summary = SummaryHead(analysis_, model_file_, options.title);
  summary["bodies"] = model.bodies.size();
  summary["markers"] = model.markers.size();
  summary["joints"] = model.joints.size();
  summary["springs"] = model.springs.size() + model.rotational_springs.size();
  summary["loads"] = model.loads.size();
  summary["coordinates"] = result.coordinates;
  summary["constraints"] = result.constraints;
  summary["degrees_of_freedom"] = result.coordinates - result.constraints;
  summary["scheme"] = model::SchemeName(options.integrator.scheme);
  summary["t_start"] = options.integrator.t_start;
  summary["t_end"] = options.integrator.t_end;
  summary["samples"] = result.rows.size();
  summary.update(IntegratorCounters(r));
  summary["steps_per_second"] = r.cpu_seconds > 0.0 ? r.accepted_steps / r.cpu_seconds : 0.0;
  summary["step_cpu_seconds"] = r.accepted_steps > 0 ? r.cpu_seconds / r.accepted_steps : 0.0;
  summary["initial_correction"] = result.initial_correction;
  summary["max_constraint_violation"] = result.max_constraint_violation;
  summary["energy"] = EnergySummary(r.energy);
  summary["frames"] = frames_ ? frames_->size() : 0;
  summary["wall_time_s"] = result.wall_seconds;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
