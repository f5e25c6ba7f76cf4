// The analysis of ANCF cables on pulleys (ancf/cable_system.h, seed 002): a belt drive, a
// belt over sheaves, a circle pressed onto a cable. The belt's frictionless static
// equilibrium on its held pulleys first (seed 002 eq. 36, optional), then the time
// integration with the contacts' post-Newton step, or (quasi_static) the frictionless
// static equilibria along the loads' time functions; per output step the pulleys' angles,
// speeds and torques, a moving pulley's centre and the belt's force on it, the belt's axial
// force and speed where it passes fixed probe points (the spans' middles) or at an arc
// length, the segments sticking and slipping per pulley and the energy balance; at chosen
// times the profile along the belt: axial force, speed, contact pressure and shear, stick
// and slip.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/column_quantity.h"
#include "analysis/observer.h"
#include "ancf/cable_system.h"
#include "core/status.h"
#include "time/integrator.h"

namespace jointdyn::analysis {

// A fixed point the belt passes (a span's middle), or a material point at the reference arc
// length `s` from the cable's first node: the belt's axial force and speed there.
struct BeltProbe {
  std::string name;
  Vec2 point = Vec2::Zero();  // [m]
  std::optional<double> s;    // [m], in [0, the cable's length]: instead of the point
};

struct BeltDriveOptions {
  std::string title;
  // The belt, its (named) pulleys, the mechanism and its circles, contact law, gravity, loads.
  ancf::CableModel model;
  // Moves the belt to its static equilibrium without friction, the circles' angles held,
  // before the run (the pre-tension of a belt with a reference strain).
  bool pre_solve = true;
  time::IntegratorOptions integrator;  // scheme, times, steps, Newton, PNS; output_interval
  // Inertia and damping neglected: the static equilibrium (frictionless, the pulleys' angles
  // held at 0 or their motion) at t_start and every dt up to t_end, with the loads and the
  // moving centres' forces at that time, each from the last; a step whose Newton fails is
  // halved (up to integrator.max_step_cuts times in a row). The contact set follows each
  // iterate. No energy columns.
  bool quasi_static = false;
  std::vector<BeltProbe> probes;
  std::vector<double> profile_times;  // [s], in [t_start, t_end]: profiles along the belt
  bool energy = true;                 // the energy-balance columns

  // Throws InputError naming the option for a set that cannot run (the model's own checks
  // name its keys: "pulleys[1].radius").
  void Validate() const;
  // time; per pulley angle_<p> [rad], omega_<p> [rad/s], torque_<p> (the belt's contact
  // torque on it) [N m], for a driven pulley drive_<p> (the drive's torque, from the
  // pulley's balance I theta'' + c theta' - torque_<p> with the prescribed theta'') [N m],
  // for a moving pulley x_<p>, y_<p> (its centre) [m] and Fx_<p>, Fy_<p> (the belt's force
  // on it) [N], stick_<p> and slip_<p> (contact segments) [-]; per body of the model's
  // mechanism x_<b>, y_<b> [m] and (rigid) angle_<b> [rad]; per circle of the model
  // torque_<c> [N m], Fx_<c>, Fy_<c> [N] (the belt's on it), stick_<c>, slip_<c>; per
  // probe N_<probe> [N] and v_<probe> [m/s]; with `energy` (not quasi-static) E_kinetic,
  // E_stored, W_external, W_constraint, D_dampers, D_numerical [J].
  std::vector<std::string> Columns() const;
  bool EnergyColumns() const { return energy && !quasi_static; }
};

// What a column of BeltDriveOptions::Columns() holds, by its prefix.
ColumnQuantity BeltDriveColumnQuantity(const std::string& column);

// The belt along its length at time t: per contact segment (n_s per element, from node 0
// in the elements' order) at the segment's middle.
struct BeltProfile {
  double t = 0.0;                                 // [s]
  std::vector<double> s;                          // reference arc length [m]
  std::vector<double> x, y;                       // position [m]
  std::vector<double> axial_force;                // EA (eps - eps_ref) [N]
  std::vector<double> speed;                      // along the belt's tangent [m/s]
  std::vector<double> pressure, shear;            // contact stresses on the belt [Pa]
  std::vector<int> state;                         // 0 free, 1 stick, 2 slip
  std::vector<int> pulley;                        // the circle touched (pulley), -1 none
  static std::vector<std::string> Columns();      // s, x, y, axial_force, ...
  std::vector<std::vector<double>> Rows() const;  // one per segment, of Columns()
};

// The profile of `system` at (q, v) with its contacts' data variables.
BeltProfile ProfileOf(const ancf::CableSystem& system, double t, const VecX& q, const VecX& v);

class BeltDriveObserver : public Observer {
 public:
  // A recorded sample: the values of Columns(), time first.
  virtual void Sample(const std::vector<double>& row) {}
  virtual void Profile(const BeltProfile& profile) {}
  // The configuration at that sample (for drawing the belt and the pulleys).
  virtual void Configuration(double t, const ancf::CableSystem& system, const VecX& q,
                             const VecX& v) {}
};

struct BeltDriveResult {
  Status status;                      // failure: what failed and where (time, step)
  time::TransientResult integration;  // counters, CPU time, energy balance (quasi-static:
                                      // steps, cuts as rejected steps, Newton's counters)
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  std::vector<BeltProfile> profiles;
  int coordinates = 0, constraints = 0, segments = 0;  // segments: per pulley
  // The pre-solve: Newton iterations and the belt's axial force after it (range) [N].
  int pre_solve_iterations = 0;
  double pre_solve_force_min = 0.0, pre_solve_force_max = 0.0;
  std::vector<std::string> warnings;  // EnergyGainWarning, also given as notes
  double wall_seconds = 0.0;
};

// Progress: "pre-solve", then "time integration" (or "quasi-static steps") in percent of
// t_end.
BeltDriveResult RunBeltDrive(const BeltDriveOptions& options, BeltDriveObserver& observer);

}  // namespace jointdyn::analysis
