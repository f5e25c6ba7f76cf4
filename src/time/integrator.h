// Implicit time integration of SecondOrderSystem: one generalized-alpha family covers
// Newmark (beta, gamma), HHT-alpha and generalized-alpha (Chung-Hulbert, rho_inf).
// Newton with the analytic Jacobian, adaptive steps from a local error estimate, step cuts
// on Newton failure, history committed only on accepted steps, optional post-Newton
// stick/slip switching, counters and an energy balance.
#pragma once

#include <functional>
#include <string>

#include "solvers/newton.h"
#include "time/second_order_system.h"

namespace jointdyn::time {

enum class Scheme {
  kNewmark,           // beta, gamma (average acceleration: 1/4, 1/2)
  kHht,               // alpha in [-1/3, 0] (Hilber's sign, seed 003 eq. 2.57-2.58)
  kGeneralizedAlpha,  // rho_inf in [0, 1] (Chung and Hulbert 1993)
};

struct IntegratorOptions {
  Scheme scheme = Scheme::kHht;
  double beta = 0.25;    // Newmark beta [-], (0, 0.5]
  double gamma = 0.5;    // Newmark gamma [-], [0.5, 1]
  double alpha = -0.05;  // HHT alpha [-], [-1/3, 0]; 0 = average acceleration
  double rho_inf = 0.8;  // generalized-alpha spectral radius at infinity [-], [0, 1]
  // Newmark average acceleration with the discrete gradient of the conservative elements:
  // conserves energy exactly for conservative systems (scheme must be kNewmark, 1/4, 1/2).
  bool energy_conserving = false;

  double t_start = 0.0;           // [s]
  double t_end = 1.0;             // [s], > t_start
  double dt = 1e-3;               // initial (fixed: only) step [s], > 0
  bool adaptive = false;          // step size from the local error estimate
  double dt_min = 1e-9;           // [s], > 0, <= dt
  double dt_max = 1e-1;           // [s], >= dt
  double error_tolerance = 1e-4;  // local error per step, scaled by position magnitudes [-]
  int max_step_cuts = 12;         // consecutive cuts of one step before giving up

  solvers::NewtonOptions newton;
  double post_newton_tolerance = 1e-6;  // switching error accepted [N]
  int post_newton_max = 10;             // post-Newton passes per step; 0 = off

  double output_interval = 0.0;  // observer called at least this far apart [s]; 0 = every step

  // Checks ranges and combinations; the message names option, value and rule.
  Status Validate() const;
};

struct EnergyBalance {
  double external_work = 0.0;          // work of f_ext [J]
  double kinetic = 0.0;                // 1/2 v' M v at the end [J]
  double stored = 0.0;                 // strain energy at the end (springs and laws) [J]
  double viscous_dissipation = 0.0;    // work of C v [J]
  double law_dissipation = 0.0;        // work of f_int minus the change of stored energy [J]
  double numerical_dissipation = 0.0;  // the remainder: external - change of (T + V) - dissipations
  double initial_kinetic = 0.0, initial_stored = 0.0;
};

struct StepRecord {
  double t = 0.0;
  const VecX* q = nullptr;
  const VecX* v = nullptr;
  const VecX* a = nullptr;
  const EnergyBalance* energy = nullptr;  // up to t
};

struct TransientResult {
  Status status;           // failure: what failed and where (time, step, iteration)
  double t_reached = 0.0;  // last accepted time
  int accepted_steps = 0;
  int rejected_steps = 0;
  int newton_iterations = 0;
  int residual_evaluations = 0;
  int jacobian_evaluations = 0;
  int factorizations = 0;
  int post_newton_passes = 0;
  double cpu_seconds = 0.0;
  EnergyBalance energy;
};

// Integrates from (q0, v0) at options.t_start with consistent initial accelerations.
// `observer` gets the initial state and accepted steps (throttled by output_interval) and
// the last accepted state; a failure keeps everything observed so far.
TransientResult Integrate(SecondOrderSystem& system, const IntegratorOptions& options,
                          const VecX& q0, const VecX& v0,
                          const std::function<void(const StepRecord&)>& observer = {});

}  // namespace jointdyn::time
