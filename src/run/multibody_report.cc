#include "run/multibody_report.h"

#include <cmath>
#include <cstdio>
#include <utility>

#include "io/vtu.h"
#include "model/integrator_reader.h"
#include "run/column_plots.h"
#include "run/contact_field.h"
#include "run/mesh_grid.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

constexpr uint8_t kVtkLine = 3;

// A body's centre of mass (a flexible body's frame) and a marker's point in 3D [m].
Vec3 BodyPoint(const mbs::PlanarSystem& system, int b, const VecX& q) {
  const Vec2 p = q.segment<2>(system.CoordinateIndex(b, mbs::Coordinate::kX));
  return {p.x(), p.y(), 0.0};
}
Vec3 BodyPoint(const mbs::spatial::SpatialSystem& system, int b, const VecX& q) {
  return q.segment<3>(system.FirstCoordinate(b));
}
Vec3 MarkerPoint(const mbs::PlanarSystem& system, int m, const VecX& q) {
  const Vec2 p = system.MarkerPosition(q, m);
  return {p.x(), p.y(), 0.0};
}
Vec3 MarkerPoint(const mbs::spatial::SpatialSystem& system, int m, const VecX& q) {
  return system.MarkerPosition(q, m);
}

// Lines from each body's centre of mass (a flexible body's frame) to its markers; ground
// markers as lone points.
template <class System>
io::VtuGrid MechanismGrid(const System& system, const VecX& q) {
  const auto& model = system.model();
  io::VtuGrid grid;
  for (size_t b = 0; b < model.bodies.size(); ++b) {
    const Vec3 p = BodyPoint(system, int(b), q);
    grid.points.insert(grid.points.end(), p.data(), p.data() + 3);
  }
  for (size_t m = 0; m < model.markers.size(); ++m) {
    const Vec3 p = MarkerPoint(system, int(m), q);
    grid.points.insert(grid.points.end(), p.data(), p.data() + 3);
  }
  const auto body_count = static_cast<int64_t>(model.bodies.size());
  for (size_t m = 0; m < model.markers.size(); ++m) {
    const int body = model.markers[m].body;
    if (body == mbs::kGround) continue;
    grid.connectivity.insert(grid.connectivity.end(), {body, body_count + int64_t(m)});
    grid.offsets.push_back(static_cast<int64_t>(grid.connectivity.size()));
    grid.types.push_back(kVtkLine);
  }
  io::VtuArray body_index{"body", 1, {}};
  for (size_t b = 0; b < model.bodies.size(); ++b) body_index.values.push_back(double(b));
  for (const auto& m : model.markers) body_index.values.push_back(double(m.body));
  grid.point_data.push_back(std::move(body_index));
  grid.comment = "point data body: the body index of each point (-1: ground)";
  return grid;
}

// The index of a flexible body's first elastic coordinate.
int FirstElastic(const mbs::PlanarSystem& system, int b) {
  return system.CoordinateIndex(b, mbs::Coordinate::kX) + 3;
}
int FirstElastic(const mbs::spatial::SpatialSystem& system, int b) {
  return system.FirstCoordinate(b) + 7;
}

// The contact fields of flexible body b's joints at their slave nodes (0 elsewhere), after
// the system's last evaluation: contact_pressure [Pa], gap [m], shear (tau1) [Pa].
template <class System>
void AddContactFields(const System& system, int b, io::VtuGrid& grid) {
  const auto& body = *system.model().bodies[b].flexible;
  if (body.joints.empty() || body.joint_nodes.size() != body.joints.size()) return;
  const size_t nodes = body.mesh->nodes.rows();
  io::VtuArray pressure{"contact_pressure", 1, std::vector<double>(nodes, 0.0)};
  io::VtuArray gap{"gap", 1, std::vector<double>(nodes, 0.0)};
  io::VtuArray shear{"shear", 1, std::vector<double>(nodes, 0.0)};
  for (size_t k = 0, j = 0; k < system.flexible_joints().size(); ++k) {
    if (system.flexible_joint_bodies()[k] != b) continue;
    const joint::JointOperator& joint = system.flexible_joints()[k];
    const std::vector<int>& slaves = body.joint_nodes[j++];
    for (int p = 0; p < joint.num_pairs(); ++p) {
      pressure.values[slaves[p]] = joint.Output(p).pressure;
      gap.values[slaves[p]] = joint.kinematics()(3 * p + 2);
      shear.values[slaves[p]] = joint.stresses()(3 * p);
    }
  }
  for (io::VtuArray* field : {&pressure, &gap, &shear})
    grid.point_data.push_back(std::move(*field));
}

// Flexible body b's FE mesh at q, with the elastic displacement (global frame) as point
// data "displacement" and the contact fields of its joints.
template <class System>
io::VtuGrid DeformedMesh(const System& system, int b, const VecX& q) {
  const auto& body = *system.model().bodies[b].flexible;
  io::VtuGrid grid = MeshGrid(*body.mesh);
  const MatX positions = system.FlexibleMeshPositions(b, q);
  VecX rigid_q = q;  // the frame's motion without the deformation
  rigid_q.segment(FirstElastic(system, b), body.modes()).setZero();
  const MatX rigid = system.FlexibleMeshPositions(b, rigid_q);
  io::VtuArray displacement{"displacement", 3, {}};
  for (Eigen::Index p = 0; p < positions.rows(); ++p)
    for (Eigen::Index k = 0; k < 3; ++k) {
      const bool in_plane = k < positions.cols();
      if (in_plane) grid.points[3 * p + k] = positions(p, k);
      displacement.values.push_back(in_plane ? positions(p, k) - rigid(p, k) : 0.0);
    }
  grid.point_data.push_back(std::move(displacement));
  AddContactFields(system, b, grid);
  return grid;
}

// Flexible body i's preloaded start (null: not preloaded).
nlohmann::json PreloadSummary(const analysis::MultibodyResult& result, size_t i) {
  if (i >= result.flexible_preload.size() || !result.flexible_preload[i]) return nullptr;
  const analysis::BodyPreloadFigures& p = *result.flexible_preload[i];
  return {{"start", JointFiguresSummary(p.start)},
          {"bolt_forces_n", p.bolt_forces},
          {"pressure_error_vs_full",  // null: an unreduced body (its step is the full one)
           std::isfinite(p.pressure_error) ? nlohmann::json(p.pressure_error) : nullptr},
          {"iterations", p.iterations},
          {"full_solution_s", p.full_seconds},
          {"body_step_s", p.reduced_seconds}};
}

}  // namespace

void MultibodyReport::Sample(const std::vector<double>& row) {
  if (!csv_)
    csv_ =
        std::make_unique<io::CsvWriter>(folder_.File("multibody.csv"), options_.options.Columns());
  csv_->Row(row);
}

void MultibodyReport::Configuration(double t, const mbs::spatial::SpatialSystem& system,
                                    const VecX& q) {
  Frame(t, system, q);
}

void MultibodyReport::Configuration(double t, const mbs::PlanarSystem& system, const VecX& q) {
  Frame(t, system, q);
}

template <class System>
void MultibodyReport::Frame(double t, const System& system, const VecX& q) {
  const std::string number = frames_.Add(folder_, t, [&] { return MechanismGrid(system, q); });
  if (number.empty()) return;
  const auto& bodies = system.model().bodies;
  for (size_t b = 0; b < bodies.size(); ++b) {
    if (!bodies[b].flexible) continue;
    std::unique_ptr<io::PvdWriter>& pvd = meshes_[int(b)];
    const std::string stem = FileName(bodies[b].name);
    if (!pvd) pvd = std::make_unique<io::PvdWriter>(folder_.File(stem + ".pvd"));
    const std::string file = stem + "/frame_" + number + ".vtu";
    io::WriteVtu(folder_.File(file), DeformedMesh(system, int(b), q));
    pvd->Add(t, file);
  }
}

RunOutcome MultibodyReport::Finish(const analysis::MultibodyResult& result) {
  if (csv_) csv_->Close();
  if (!result.rows.empty())
    WriteSamplesH5(folder_.File("multibody.h5"), result.columns, result.rows,
                   [](const std::string& c) { return analysis::MultibodyColumnQuantity(c).unit; });
  WriteColumnPlots(options_.plots, result.columns, result.rows, folder_);
  const analysis::MultibodyOptions& options = options_.options;
  const mbs::PlanarModel& model = options.model;
  const time::TransientResult& r = result.integration;
  nlohmann::json summary = SummaryHead(analysis_, model_file_, options.title);
  summary["dimension"] = options.spatial ? 3 : 2;
  const auto count = [&summary](const auto& m, size_t springs) {
    summary["bodies"] = m.bodies.size();
    summary["markers"] = m.markers.size();
    summary["joints"] = m.joints.size();
    summary["springs"] = springs;
    summary["loads"] = m.loads.size();
  };
  if (options.spatial)
    count(*options.spatial,
          options.spatial->springs.size() + options.spatial->rotational_springs.size());
  else
    count(model, model.springs.size() + model.rotational_springs.size());
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
  summary["frames"] = frames_.size();
  summary["flexible_bodies"] = nlohmann::json::array();
  for (size_t i = 0; i < result.flexible_frequencies.size(); ++i) {
    const VecX& f = result.flexible_frequencies[i];
    summary["flexible_bodies"].push_back(
        {{"name", options.BodyName(options.flexible[i].body)},
         {"modes", result.flexible_modes[i]},
         {"full", options.flexible[i].full},
         {"joint_modes", result.flexible_joint_modes[i]},
         {"joints_at_end", i < result.flexible_joint_state.size()  // none: not integrated
                               ? JointFiguresSummary(result.flexible_joint_state[i])
                               : nlohmann::json()},
         {"preload", PreloadSummary(result, i)},
         {"times_s", result.flexible_times[i]},
         {"frequencies_hz", std::vector<double>(f.data(), f.data() + f.size())}});
  }
  summary["warnings"] = result.warnings;
  summary["wall_time_s"] = result.wall_seconds;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
