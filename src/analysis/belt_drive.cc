#include "analysis/belt_drive.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <functional>

#include "analysis/time_run.h"
#include "ancf/belt_drive.h"
#include "core/clock.h"
#include "core/error.h"
#include "mbs/model_checks.h"

namespace jointdyn::analysis {
namespace {

using ancf::CableSystem;

constexpr const char* kEnergyColumns[] = {"E_kinetic",    "E_stored",  "W_external",
                                          "W_constraint", "D_dampers", "D_numerical"};

// The segments on circle c sticking and slipping.
void AppendContactCounts(const CableSystem& system, int c, std::vector<double>& row) {
  row.push_back(system.CountContact(0, c));
  row.push_back(system.CountContact(1, c) + system.CountContact(-1, c));
}

// The values of Columns() at a recorded step.
std::vector<double> Row(const BeltDriveOptions& options, const CableSystem& system,
                        const time::StepRecord& step) {
  const VecX& q = *step.q;
  const VecX& v = *step.v;
  std::vector<double> row = {step.t};
  for (size_t p = 0; p < options.model.pulleys.size(); ++p) {
    const int circle = system.PulleyCircle(int(p)), body = system.circles()[circle].body;
    const int i = system.CoordinateIndex(body, mbs::Coordinate::kAngle);
    const ancf::Pulley& pulley = options.model.pulleys[p];
    const double torque = system.ContactTorque(circle, q, v);
    row.insert(row.end(), {q(i), v(i), torque});
    // The drive's torque from the pulley's balance with its prescribed acceleration (the
    // constraint's multiplier carries the trapezoidal rule's step-to-step oscillation).
    if (pulley.driven)
      row.push_back(pulley.inertia * pulley.motion.Acceleration(step.t) + pulley.damping * v(i) -
                    torque);
    if (pulley.moves) {
      const Vec2 force = system.ContactForce(circle, q, v);
      row.insert(row.end(),
                 {q(system.CoordinateIndex(body, mbs::Coordinate::kX)),
                  q(system.CoordinateIndex(body, mbs::Coordinate::kY)), force.x(), force.y()});
    }
    AppendContactCounts(system, circle, row);
  }
  const std::vector<mbs::Body>& bodies = options.model.mechanism.bodies;
  for (size_t b = 0; b < bodies.size(); ++b)
    for (const mbs::Coordinate c :
         {mbs::Coordinate::kX, mbs::Coordinate::kY, mbs::Coordinate::kAngle})
      if (c != mbs::Coordinate::kAngle || bodies[b].kind == mbs::BodyKind::kRigid)
        row.push_back(q(system.CoordinateIndex(int(b), c)));
  for (size_t c = 0; c < options.model.circles.size(); ++c) {
    const Vec2 force = system.ContactForce(int(c), q, v);
    row.insert(row.end(), {system.ContactTorque(int(c), q, v), force.x(), force.y()});
    AppendContactCounts(system, int(c), row);
  }
  for (const BeltProbe& probe : options.probes) {
    const ancf::BeltSection at =
        probe.s ? ancf::CableAt(system, q, v, *probe.s) : ancf::BeltAt(system, q, v, probe.point);
    row.insert(row.end(), {at.axial_force, at.speed});
  }
  if (options.EnergyColumns()) {
    JD_CHECK(step.energy != nullptr, "the integrator reported a step without its energy");
    const time::EnergyBalance& e = *step.energy;
    row.insert(row.end(), {e.kinetic, e.stored, e.external_work, e.constraint_work,
                           e.law_dissipation, e.numerical_dissipation});
  }
  return row;
}

// One segment's contact on any circle: the circle, state (0 free, 1 stick, 2 slip) and the
// normal and tangential forces on the belt [N].
struct SegmentContact {
  int circle = -1, state = 0;
  double normal = 0.0, tangential = 0.0;
};

SegmentContact ContactOf(const CableSystem& system, int e, int s, const VecX& q, const VecX& v) {
  for (size_t c = 0; c < system.circles().size(); ++c) {
    const ancf::SegmentState& state = system.Segment(int(c), e, s);
    if (state.gap > 0.0) continue;
    const ancf::SegmentForces f = system.ContactForces(int(c), e, s, q, v);
    return {int(c), state.slip == 0 ? 1 : 2, f.normal, f.tangential};
  }
  return {};
}

// The model with the frictionless static equilibrium (when asked for); Newton's iterations
// and failure in result.
ancf::CableModel PreSolved(const BeltDriveOptions& options, BeltDriveObserver& observer,
                           BeltDriveResult& result) {
  ancf::CableModel model = options.model;
  if (options.quasi_static)  // frictionless (Validate: friction 0): no bristles
    model.contact.bristle_stiffness = model.contact.velocity_penalty = 0.0;
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

using Recorder = std::function<void(const time::StepRecord&)>;

// One quasi-static equilibrium at t from q (updated; the driven pulleys moved to their
// motion(t) by SolveStatic); Newton's counters added to r.
Status EquilibriumAt(CableSystem& system, const time::IntegratorOptions& o, double t, VecX& q,
                     time::TransientResult& r) {
  const solvers::NewtonResult n = ancf::SolveStatic(system, t, q, o.newton, true);
  r.newton_iterations += n.iterations;
  r.residual_evaluations += n.residual_evaluations;
  r.jacobian_evaluations += n.jacobian_evaluations;
  r.factorizations += n.factorizations;
  return n.status;
}

// The quasi-static run (BeltDriveOptions::quasi_static): the equilibria at t_start, then
// every dt up to t_end (a failed step halved, doubled back after a success up to the next
// grid point), each from the last; `record` gets the first, those due by output_interval and the
// last. Cuts count as rejected steps.
time::TransientResult QuasiStatic(CableSystem& system, const time::IntegratorOptions& o,
                                  const Recorder& record) {
  const std::clock_t clock_start = std::clock();
  time::TransientResult r;
  VecX q = system.InitialPositions();
  const VecX zero = VecX::Zero(q.size());
  double t = o.t_start, dt = o.dt, last_output = o.t_start;
  for (int step = 0, cuts = 0;;) {
    // On the grid t_start + k dt: a cut step continues with its size up to the next point.
    const double grid = o.t_start + (std::floor((t - o.t_start) / o.dt + 1e-9) + 1.0) * o.dt;
    const double t_next = step == 0 ? t : std::min({t + dt, grid, o.t_end});
    VecX trial = q;
    if (Status status = EquilibriumAt(system, o, t_next, trial, r); !status) {
      system.Rollback();
      ++r.rejected_steps;
      if (step > 0 && cuts < o.max_step_cuts) {
        ++cuts;
        dt *= 0.5;
        continue;
      }
      r.status = Status::Failure("quasi-static step " + std::to_string(step) +
                                 " to t = " + FormatValue(t_next) + " s (after " +
                                 std::to_string(cuts) + " halvings): " + status.message);
      break;
    }
    system.Commit();
    q = trial, t = t_next, cuts = 0, r.t_reached = t, r.accepted_steps = step;
    const bool end = t >= o.t_end - 1e-9 * o.dt;
    if (step == 0 || end || t - last_output >= o.output_interval - 1e-9 * o.dt) {
      record({t, &q, &zero, &zero});
      last_output = t;
    }
    if (end) break;
    ++step;
    dt = std::min(2.0 * dt, o.dt);
  }
  r.cpu_seconds = static_cast<double>(std::clock() - clock_start) / CLOCKS_PER_SEC;
  return r;
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
  std::vector<std::string> columns = Columns();
  std::sort(columns.begin(), columns.end());
  if (const auto twice = std::adjacent_find(columns.begin(), columns.end()); twice != columns.end())
    throw InputError("output columns", *twice,
                     "is an output column twice: name pulleys, bodies, circles and probes apart");
  double length = 0.0;
  for (const ancf::CableModel::Element& e : model.elements) length += e.data.length;
  for (size_t i = 0; i < probes.size(); ++i)
    if (probes[i].s && !(*probes[i].s >= 0.0 && *probes[i].s <= length))
      throw InputError(mbs::Item("output.probes", i, "s"), FormatValue(*probes[i].s),
                       "must lie in [0, " + FormatValue(length) + "] m (the cable's length)");
  if (quasi_static) {
    if (model.contact.friction > 0.0)
      throw InputError("contact.friction", FormatValue(model.contact.friction),
                       "must be 0 in a quasi-static run (friction needs a transient's history)");
    for (size_t i = 0; i < model.pulleys.size(); ++i)
      if (const ancf::Pulley& p = model.pulleys[i];
          p.moves && !(p.mass > 0.0) && model.gravity != Vec2::Zero())
        throw InputError(mbs::Item("pulleys", i, "moving.mass"), FormatValue(p.mass),
                         "must be > 0 with gravity (its weight)");
    return;
  }
  for (size_t i = 0; i < model.pulleys.size(); ++i) {
    const ancf::Pulley& p = model.pulleys[i];
    if (!(p.inertia > 0.0))
      throw InputError(mbs::Item("pulleys", i, "inertia"), FormatValue(p.inertia),
                       "must be > 0 in a transient");
    if (p.moves && !(p.mass > 0.0))
      throw InputError(mbs::Item("pulleys", i, "moving.mass"), FormatValue(p.mass),
                       "must be > 0 in a transient");
  }
}

std::vector<std::string> BeltDriveOptions::Columns() const {
  std::vector<std::string> columns = {"time"};
  for (size_t p = 0; p < model.pulleys.size(); ++p) {
    const std::string& name = model.pulleys[p].name;
    for (const char* c : {"angle_", "omega_", "torque_"}) columns.push_back(c + name);
    if (model.pulleys[p].driven) columns.push_back("drive_" + name);
    if (model.pulleys[p].moves)
      for (const char* c : {"x_", "y_", "Fx_", "Fy_"}) columns.push_back(c + name);
    for (const char* c : {"stick_", "slip_"}) columns.push_back(c + name);
  }
  for (const mbs::Body& body : model.mechanism.bodies) {
    columns.insert(columns.end(), {"x_" + body.name, "y_" + body.name});
    if (body.kind == mbs::BodyKind::kRigid) columns.push_back("angle_" + body.name);
  }
  for (const ancf::Circle& circle : model.circles)
    for (const char* c : {"torque_", "Fx_", "Fy_", "stick_", "slip_"})
      columns.push_back(c + circle.name);
  for (const BeltProbe& probe : probes) {
    columns.push_back("N_" + probe.name);
    columns.push_back("v_" + probe.name);
  }
  if (EnergyColumns())
    columns.insert(columns.end(), std::begin(kEnergyColumns), std::end(kEnergyColumns));
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
  for (const char* p : {"x_", "y_"})
    if (column.starts_with(p)) return {"position", "m"};
  for (const char* p : {"Fx_", "Fy_"})
    if (column.starts_with(p)) return {"contact force", "N"};
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
      profile.pulley.push_back(contact.circle);
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
  const std::string stage =
      options.quasi_static ? "quasi-static steps, % of t_end" : "time integration, % of t_end";
  observer.Progress(stage, 0, 100);
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
    observer.Progress(
        stage, static_cast<int>(std::floor(100.0 * (step.t - integrator.t_start) / span)), 100);
  };
  result.integration = options.quasi_static
                           ? QuasiStatic(system, integrator, record)
                           : time::Integrate(system, integrator, system.InitialPositions(),
                                             system.InitialVelocities(), record);
  result.status = result.integration.status;
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
