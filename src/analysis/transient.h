// The transient analysis of a lumped-parameter model (lumped/lumped_system.h): time
// integration (time/integrator.h) with the chosen quantities recorded per output step.
#pragma once

#include <string>
#include <vector>

#include "analysis/observer.h"
#include "core/status.h"
#include "lumped/lumped_system.h"
#include "time/integrator.h"

namespace jointdyn::analysis {

// What each recorded sample holds (the columns, Columns()).
struct TransientOutput {
  std::vector<int> dofs;      // model DOF indices: q_<dof> [m] and v_<dof> [m/s]
  std::vector<int> elements;  // indices into lumped::Elements(): forces [N]
  bool energy = false;        // the energy-balance columns [J]
};

struct TransientOptions {
  std::string title;
  lumped::LumpedModel model;           // structure, loads, prescribed motions
  time::IntegratorOptions integrator;  // scheme, times, steps, Newton; output_interval [s]
  TransientOutput output;

  // Throws InputError naming the option ("integrator", "output.dofs") for a set that
  // cannot run.
  void Validate() const;
  // time, q_<dof> and v_<dof> per output DOF, f_<name> per output spring, damper and 1D
  // friction element (fx_<name> and fy_<name> for a 2D friction element), p_<name> per
  // friction and contact element, then E_kinetic, E_stored, W_external, W_prescribed,
  // D_viscous, D_laws, D_numerical with `energy`.
  std::vector<std::string> Columns() const;
};

class TransientObserver : public Observer {
 public:
  // A recorded sample at `time` [s]: the values of Columns(), time first.
  virtual void Sample(const std::vector<double>& row) {}
};

struct TransientResult {
  Status status;                          // failure: what failed and where (time, step)
  time::TransientResult integration;      // counters, CPU time, energy balance
  std::vector<std::string> columns;       // TransientOptions::Columns()
  std::vector<std::vector<double>> rows;  // the samples, one row of `columns` each
  int dofs = 0;                           // unknowns
  int prescribed_dofs = 0;
  double prescribed_work = 0.0;  // work of the prescribed motions [J]
  double wall_seconds = 0.0;
};

// Progress: "time integration" in percent of t_end.
TransientResult RunTransient(const TransientOptions& options, TransientObserver& observer);

}  // namespace jointdyn::analysis
