#include "run/belt_drive_report.h"

#include <cmath>
#include <cstdio>

#include "io/vtu.h"
#include "model/integrator_reader.h"
#include "run/column_plots.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

constexpr uint8_t kVtkLine = 3;
constexpr int kCirclePoints = 72;

// A line cell from point a to point b.
void AddLine(io::VtuGrid& grid, int64_t a, int64_t b) {
  grid.connectivity.insert(grid.connectivity.end(), {a, b});
  grid.offsets.push_back(static_cast<int64_t>(grid.connectivity.size()));
  grid.types.push_back(kVtkLine);
}

int64_t AddPoint(io::VtuGrid& grid, const Vec2& p) {
  grid.points.insert(grid.points.end(), {p.x(), p.y(), 0.0});
  return grid.num_points() - 1;
}

// The belt as a line per contact segment (its chord) with the profile's values as cell
// data, each pulley (circle) as a circle with a spoke at its angle (part = 1 + its index),
// and the mechanism's bodies as lines from their centres of mass to their markers (part -1).
io::VtuGrid BeltGrid(const ancf::CableSystem& system, const VecX& q,
                     const analysis::BeltProfile& profile) {
  const ancf::CableModel& model = system.model();
  io::VtuGrid grid;
  std::vector<io::VtuArray> cells = {{"part", 1, {}},     {"axial_force", 1, {}}, {"speed", 1, {}},
                                     {"pressure", 1, {}}, {"shear", 1, {}},       {"state", 1, {}}};
  const auto add_cell = [&](double part, size_t i) {
    cells[0].values.push_back(part);
    const bool belt = part == 0.0;
    for (const auto& [array, values] :
         {std::pair{1, &profile.axial_force}, std::pair{2, &profile.speed},
          std::pair{3, &profile.pressure}, std::pair{4, &profile.shear}})
      cells[array].values.push_back(belt ? (*values)[i] : 0.0);
    cells[5].values.push_back(belt ? double(profile.state[i]) : 0.0);
  };
  const int segments = model.contact.segments;
  for (size_t e = 0, i = 0; e < model.elements.size(); ++e) {
    const ancf::ElementVector qe = system.ElementCoordinates(int(e), q);
    for (int s = 0; s < segments; ++s, ++i) {
      const auto [p0, p1] = ancf::Chord(qe, model.elements[e].data.length, s, segments);
      AddLine(grid, AddPoint(grid, p0), AddPoint(grid, p1));
      add_cell(0.0, i);
    }
  }
  const VecX at_rest = VecX::Zero(q.size());  // the circles' positions only are drawn
  for (size_t p = 0; p < system.circles().size(); ++p) {
    const ancf::CircleState circle = system.CircleAt(int(p), q, at_rest);
    const int64_t centre = AddPoint(grid, circle.centre);
    const int64_t first = grid.num_points();
    for (int k = 0; k < kCirclePoints; ++k) {
      const double a = circle.angle + 2.0 * M_PI * k / kCirclePoints;
      AddPoint(grid, circle.centre + circle.radius * Vec2(std::cos(a), std::sin(a)));
    }
    for (int k = 0; k < kCirclePoints; ++k) {
      AddLine(grid, first + k, first + (k + 1) % kCirclePoints);
      add_cell(1.0 + double(p), 0);
    }
    AddLine(grid, centre, first);  // the spoke at the pulley's angle
    add_cell(1.0 + double(p), 0);
  }
  const std::vector<mbs::Marker>& markers = model.mechanism.markers;
  for (size_t m = 0; m < markers.size(); ++m) {  // the mechanism: centre of mass to marker
    if (markers[m].body == mbs::kGround) continue;
    const int body = markers[m].body;
    const Vec2 centre(q(system.CoordinateIndex(body, mbs::Coordinate::kX)),
                      q(system.CoordinateIndex(body, mbs::Coordinate::kY)));
    AddLine(grid, AddPoint(grid, centre), AddPoint(grid, system.MarkerPosition(q, int(m))));
    add_cell(-1.0, 0);
  }
  grid.cell_data = std::move(cells);
  grid.comment =
      "cell data: part 0 the belt (a line per contact segment), 1 + p pulley (circle) p, -1 "
      "the mechanism's bodies (centre of mass to marker); axial_force [N], speed [m/s], "
      "pressure and shear [Pa], state 0 free, 1 stick, 2 slip";
  return grid;
}

// "t1.000": a profile's time in its file names.
std::string TimeTag(double t) {
  char tag[32];
  std::snprintf(tag, sizeof tag, "t%.3f", t);
  return tag;
}

}  // namespace

void BeltDriveReport::Sample(const std::vector<double>& row) {
  if (!csv_)
    csv_ =
        std::make_unique<io::CsvWriter>(folder_.File("belt_drive.csv"), options_.options.Columns());
  csv_->Row(row);
}

void BeltDriveReport::Profile(const analysis::BeltProfile& profile) {
  const std::string stem = "profile_" + TimeTag(profile.t);
  const std::vector<std::string> columns = analysis::BeltProfile::Columns();
  const std::vector<std::vector<double>> rows = profile.Rows();
  io::CsvWriter csv(folder_.File(stem + ".csv"), columns);
  for (const std::vector<double>& row : rows) csv.Row(row);
  csv.Close();
  profile_files_.push_back(stem + ".csv");
  const std::string at = " at t = " + FormatValue(profile.t) + " s";
  const std::string s = "arc length s (reference) [m]";
  WriteColumnPlots(
      {{stem + "_force", "Axial force" + at, s, "axial force [N]", "s", {"axial_force"}},
       {stem + "_speed", "Belt speed" + at, s, "speed [m/s]", "s", {"speed"}},
       {stem + "_contact", "Contact stresses" + at, s, "stress [Pa]", "s", {"pressure", "shear"}}},
      columns, rows, folder_);
}

void BeltDriveReport::Configuration(double t, const ancf::CableSystem& system, const VecX& q,
                                    const VecX& v) {
  frames_.Add(folder_, t,
              [&] { return BeltGrid(system, q, analysis::ProfileOf(system, t, q, v)); });
}

RunOutcome BeltDriveReport::Finish(const analysis::BeltDriveResult& result) {
  if (csv_) csv_->Close();
  if (!result.rows.empty())
    WriteSamplesH5(folder_.File("belt_drive.h5"), result.columns, result.rows,
                   [](const std::string& c) { return analysis::BeltDriveColumnQuantity(c).unit; });
  WriteColumnPlots(options_.plots, result.columns, result.rows, folder_);
  const analysis::BeltDriveOptions& options = options_.options;
  const ancf::CableModel& model = options.model;
  const time::TransientResult& r = result.integration;
  nlohmann::json summary = SummaryHead(analysis_, model_file_, options.title);
  summary["elements"] = model.elements.size();
  summary["nodes"] = model.nodes.rows();
  summary["pulleys"] = nlohmann::json::array();
  for (const ancf::Pulley& p : model.pulleys) summary["pulleys"].push_back(p.name);
  summary["segments_per_pulley"] = result.segments;
  summary["coordinates"] = result.coordinates;
  summary["constraints"] = result.constraints;
  summary["pre_solve"] = {{"done", options.pre_solve},
                          {"newton_iterations", result.pre_solve_iterations},
                          {"axial_force_min_n", result.pre_solve_force_min},
                          {"axial_force_max_n", result.pre_solve_force_max}};
  summary["scheme"] = model::SchemeName(options.integrator.scheme);
  summary["t_start"] = options.integrator.t_start;
  summary["t_end"] = options.integrator.t_end;
  summary["samples"] = result.rows.size();
  summary.update(IntegratorCounters(r));
  const double steps = std::max(r.accepted_steps, 1);
  summary["steps_per_second"] = r.cpu_seconds > 0.0 ? r.accepted_steps / r.cpu_seconds : 0.0;
  summary["step_cpu_seconds"] = r.cpu_seconds / steps;
  summary["jacobian_evaluations_per_step"] = r.jacobian_evaluations / steps;
  summary["post_newton_passes_per_step"] = r.post_newton_passes / steps;
  if (!result.rows.empty()) {  // the last sample, by column
    nlohmann::json last;
    for (size_t c = 0; c < result.columns.size(); ++c)
      last[result.columns[c]] = result.rows.back()[c];
    summary["at_end"] = last;
  }
  summary["profiles"] = profile_files_;
  summary["energy"] = EnergySummary(r.energy);
  summary["frames"] = frames_.size();
  summary["warnings"] = result.warnings;
  summary["wall_time_s"] = result.wall_seconds;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
