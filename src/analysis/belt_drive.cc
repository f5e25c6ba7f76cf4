#include "analysis/belt_drive.h"

#include <algorithm>
#include <cmath>

#include "analysis/time_run.h"
#include "ancf/belt_drive.h"
#include "core/clock.h"
#include "core/error.h"

namespace jointdyn::analysis {
namespace {

using ancf::CableSystem;

constexpr const char* kEnergyColumns[] = {"E_kinetic",    "E_stored",  "W_external",
                                          "W_constraint", "D_dampers", "D_numerical"};

// The values of Columns() at a recorded step.
std::vector<double> Row(const BeltDriveOptions& options, const CableSystem& system,
                        const time::StepRecord& step) {
  const VecX& q = *step.q;
  const VecX& v = *step.v;
  std::vector<double> row = {step.t};
  for (size_t p = 0; p < options.model.pulleys.size(); ++p) {
    const int i = system.cable_size() + int(p);
    const ancf::Pulley& pulley = options.model.pulleys[p];
    const double torque = system.ContactTorque(int(p), q, v);
    row.insert(row.end(), {q(i), v(i), torque});
    // The drive's torque from the pulley's balance with its prescribed acceleration (the
    // constraint's multiplier carries the trapezoidal rule's step-to-step oscillation).
    if (pulley.driven)
      row.push_back(pulley.inertia * pulley.motion.Acceleration(step.t) + pulley.damping * v(i) -
                    torque);
    row.push_back(system.CountContact(0, int(p)));
    row.push_back(system.CountContact(1, int(p)) + system.CountContact(-1, int(p)));
  }
  for (const BeltProbe& probe : options.probes) {
    const ancf::BeltSection at = ancf::BeltAt(system, q, v, probe.point);
    row.insert(row.end(), {at.axial_force, at.speed});
  }
  if (options.energy) {
    JD_CHECK(step.energy != nullptr, "the integrator reported a step without its energy");
    const time::EnergyBalance& e = *step.energy;
    row.insert(row.end(), {e.kinetic, e.stored, e.external_work, e.constraint_work,
                           e.law_dissipation, e.numerical_dissipation});
  }
  return row;
}

// One segment's contact on any pulley: the pulley, state (0 free, 1 stick, 2 slip) and the
// normal and tangential forces on the belt [N].
struct SegmentContact {
  int pulley = -1, state = 0;
  double normal = 0.0, tangential = 0.0;
};

SegmentContact ContactOf(const CableSystem& system, int e, int s, const VecX& q, const VecX& v) {
  for (size_t p = 0; p < system.model().pulleys.size(); ++p) {
    const ancf::SegmentState& state = system.Segment(int(p), e, s);
    if (state.gap > 0.0) continue;
    const ancf::SegmentForces f = system.ContactForces(int(p), e, s, q, v);
    return {int(p), state.slip == 0 ? 1 : 2, f.normal, f.tangential};
  }
  return {};
}

// The model with the frictionless static equilibrium (when asked for); Newton's iterations
// and failure in result.
ancf::CableModel PreSolved(const BeltDriveOptions& options, BeltDriveObserver& observer,
                           BeltDriveResult& result) {
  ancf::CableModel model = options.model;
  if (!options.pre_solve) return model;
  observer.Progress("pre-solve", 0, 1);
  const ancf::PreSolveResult pre = ancf::PreSolve(model);
  result.pre_solve_iterations = pre.iterations;
  result.status = pre.status;
  observer.Progress("pre-solve", 1, 1);
  return model;
}

// The belt's axial force range at the start (after the pre-solve) into result.
void NoteStartForces(const CableSystem& system, BeltDriveObserver& observer,
                     BeltDriveResult& result) {
  const VecX q = system.InitialPositions();
  const BeltProfile profile = ProfileOf(system, 0.0, q, VecX::Zero(q.size()));
  const auto [low, high] =
      std::minmax_element(profile.axial_force.begin(), profile.axial_force.end());
  result.pre_solve_force_min = *low;
  result.pre_solve_force_max = *high;
  observer.Note("pre-solve: " + std::to_string(result.pre_solve_iterations) +
                " Newton iterations, axial force " + FormatValue(*low) + " .. " +
                FormatValue(*high) + " N");
}

}  // namespace

void BeltDriveOptions::Validate() const {
  ValidateIntegrator(integrator,
                     "is not available for cables on pulleys (use the trapezoidal rule)");
  for (const double t : profile_times)
    if (!(t >= integrator.t_start && t <= integrator.t_end))
      throw InputError("output.profiles", FormatValue(t),
                       "must lie in [t_start, t_end] = [" + FormatValue(integrator.t_start) + ", " +
                           FormatValue(integrator.t_end) + "] s");
  model.Validate();
}

std::vector<std::string> BeltDriveOptions::Columns() const {
  std::vector<std::string> columns = {"time"};
  for (size_t p = 0; p < model.pulleys.size(); ++p) {
    const std::string& name = model.pulleys[p].name;
    for (const char* c : {"angle_", "omega_", "torque_"}) columns.push_back(c + name);
    if (model.pulleys[p].driven) columns.push_back("drive_" + name);
    for (const char* c : {"stick_", "slip_"}) columns.push_back(c + name);
  }
  for (const BeltProbe& probe : probes) {
    columns.push_back("N_" + probe.name);
    columns.push_back("v_" + probe.name);
  }
  if (energy) columns.insert(columns.end(), std::begin(kEnergyColumns), std::end(kEnergyColumns));
  return columns;
}

ColumnQuantity BeltDriveColumnQuantity(const std::string& column) {
  if (column == "time") return {"time", "s"};
  if (column.starts_with("angle_")) return {"angle", "rad"};
  if (column.starts_with("omega_")) return {"angular velocity", "rad/s"};
  for (const char* p : {"torque_", "drive_"})
    if (column.starts_with(p)) return {"torque", "N m"};
  for (const char* p : {"stick_", "slip_"})
    if (column.starts_with(p)) return {"contact segments", "-"};
  if (column.starts_with("N_")) return {"axial force", "N"};
  if (column.starts_with("v_")) return {"belt speed", "m/s"};
  return {"energy", "J"};
}

std::vector<std::string> BeltProfile::Columns() {
  return {"s", "x", "y", "axial_force", "speed", "pressure", "shear", "state", "pulley"};
}

std::vector<std::vector<double>> BeltProfile::Rows() const {
  std::vector<std::vector<double>> rows;
  for (size_t i = 0; i < s.size(); ++i)
    rows.push_back({s[i], x[i], y[i], axial_force[i], speed[i], pressure[i], shear[i],
                    double(state[i]), double(pulley[i])});
  return rows;
}

BeltProfile ProfileOf(const CableSystem& system, double t, const VecX& q, const VecX& v) {
  const ancf::CableModel& model = system.model();
  const int segments = model.contact.segments;
  BeltProfile profile{.t = t};
  double start = 0.0;  // of the element, along the reference length
  for (size_t e = 0; e < model.elements.size(); ++e) {
    const ancf::CableElement& element = model.elements[e].data;
    const ancf::ElementVector qe = system.ElementCoordinates(int(e), q);
    const ancf::ElementVector ve = system.ElementCoordinates(int(e), v);
    const double area = model.contact.width * element.length / segments;
    for (int s = 0; s < segments; ++s) {
      const double x = (s + 0.5) * element.length / segments;
      const Vec2 r = ancf::Interpolate(qe, element.length, x, 0);
      const Vec2 tangent = ancf::Interpolate(qe, element.length, x, 1);
      const SegmentContact contact = ContactOf(system, int(e), s, q, v);
      profile.s.push_back(start + x);
      profile.x.push_back(r.x());
      profile.y.push_back(r.y());
      profile.axial_force.push_back(model.section.axial_stiffness *
                                    (tangent.norm() - 1.0 - element.reference_strain));
      profile.speed.push_back(
          ancf::Interpolate(ve, element.length, x, 0).dot(tangent.normalized()));
      profile.pressure.push_back(contact.normal / area);
      profile.shear.push_back(contact.tangential / area);
      profile.state.push_back(contact.state);
      profile.pulley.push_back(contact.pulley);
    }
    start += element.length;
  }
  return profile;
}

BeltDriveResult RunBeltDrive(const BeltDriveOptions& options, BeltDriveObserver& observer) {
  options.Validate();
  const Clock::time_point start = Clock::now();
  BeltDriveResult result;
  result.columns = options.Columns();
  CableSystem system(PreSolved(options, observer, result));
  result.coordinates = system.size();
  result.constraints = system.constraint_count();
  result.segments = int(system.model().elements.size()) * system.model().contact.segments;
  if (!result.status) {
    result.wall_seconds = Seconds(start);
    return result;
  }
  if (options.pre_solve) NoteStartForces(system, observer, result);
  const time::IntegratorOptions& integrator = options.integrator;
  const double span = integrator.t_end - integrator.t_start;
  size_t next_profile = 0;
  std::vector<double> profile_times = options.profile_times;
  std::sort(profile_times.begin(), profile_times.end());
  observer.Progress("time integration, % of t_end", 0, 100);
  const auto record = [&](const time::StepRecord& step) {
    WatchEnergy(step, observer, result.warnings);
    result.rows.push_back(Row(options, system, step));
    observer.Sample(result.rows.back());
    observer.Configuration(step.t, system, *step.q, *step.v);
    // The profiles due: at the first output step at or after their times.
    for (; next_profile < profile_times.size() &&
           step.t >= profile_times[next_profile] - 1e-9 * integrator.dt;
         ++next_profile) {
      result.profiles.push_back(ProfileOf(system, step.t, *step.q, *step.v));
      observer.Profile(result.profiles.back());
    }
    observer.Progress("time integration, % of t_end",
                      static_cast<int>(std::floor(100.0 * (step.t - integrator.t_start) / span)),
                      100);
  };
  result.integration = time::Integrate(system, integrator, system.InitialPositions(),
                                       system.InitialVelocities(), record);
  result.status = result.integration.status;
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
