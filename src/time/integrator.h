// Implicit time integration of SecondOrderSystem: one generalized-alpha family covers
// Newmark (beta, gamma), HHT-alpha and generalized-alpha (Chung-Hulbert, rho_inf).
// Newton with the analytic Jacobian, adaptive steps from a local error estimate, step cuts
// on Newton failure, history committed only on accepted steps, optional post-Newton
// stick/slip switching, counters and an energy balance.
//
// Step n -> n+1 of length h (Chung-Hulbert weights alpha_m, alpha_f on the old state;
// Newmark: 0, 0; HHT: 0, -alpha; generalized-alpha: (2 rho - 1)/(rho + 1), rho/(rho + 1)):
//   q+ = q + h v + h^2 ((1/2 - beta) a + beta a+),  v+ = v + h ((1 - gamma) a + gamma a+),
//   (1 - alpha_m) M a+ + alpha_m M a + (1 - alpha_f) g+ + alpha_f g = 0,
//   g = C v + f_int + C_q' lambda - f_ext,  c(q+, t+) = 0 (with constraints).
// Internal forces of history-dependent laws cannot be evaluated between the two states,
// so the forces are averaged (seed 003 eq. 2.57), with g from the last accepted step.
// Newton solves for q+ and beta h^2 lambda+ with the equation of motion multiplied by
// beta h^2, so the Jacobian is that of the acceleration form (seed 003 eq. 2.60-2.61),
//   (1 - alpha_m) M + (1 - alpha_f) (gamma h (C + D) + beta h^2 (K + (C_q' lambda)_q)),
// bordered by (1 - alpha_f) C_q' and C_q, while q+ keeps all its digits when h omega >> 1.
// The Jacobian is stored as the system's M (dense for a reduced model, sparse for a full or
// lumped one; solvers/matrix.h), and so factored by dense LU or a sparse LU under kAuto.
// Energy-conserving variant: alpha_m = alpha_f = 1/2, beta = 1/4, gamma = 1/2 (the
// trapezoidal form of average acceleration) with f_int (1 - alpha_f) f+ + alpha_f f
// replaced by the discrete gradient the system returns (StepPoint::discrete_gradient).
//
// Scales: positions relative to S = max(position_scale, largest |q_i| so far); forces
// relative to force_scale or the largest |f_ext|, |C v + f_int|, |M a| or max|M_ij| |v| / h so far
// (the last is the force that stops the motion within a step: a residual r changes the end velocity
// by about gamma h r / M, so the residual test bounds the velocity error relative to |v|). Newton's
// residual is scaled by the force scale (constraint row i by S max_j |C_q(i, j)| / u_j, its
// multiplier by beta h^2 times the force scale over the same: rows of angles and of lengths,
// of rigid and of modal coordinates, each on its own scale), its position increment by
// S. Adaptive steps: the local error estimate (Zienkiewicz-Xie) is e = |beta - 1/6| h^2 max_i |a+_i
// - a_i| / (S error_tolerance); a step with e > 1 is rejected (unless h = dt_min), and the next
// step is h clamp(0.9 e^(-1/3), 0.2, 2).
// Generalized coordinates (SecondOrderSystem::CoordinateUnits() u, e.g. a reduced model's
// modes): positions are measured as u_i q_i and forces as f_i / u_i throughout (magnitudes,
// the residual scale u_i times the force scale, the increment scale S / u_i, the error
// estimate), so the tests mean metres and newtons whatever the basis normalization.
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
  double position_scale = 1e-6;   // smallest position scale S [m] (starts from rest), > 0
  // Smallest force scale [N], >= 0: the residual test is relative to at least this force.
  // Set it to the load level for runs that start from rest under a slowly rising load on
  // a structure with contact: the first steps' forces are tiny, and the contact status of
  // pairs that move by rounding-level amounts would otherwise decide their convergence.
  double force_scale = 0.0;
  int max_step_cuts = 12;  // consecutive cuts (halvings) of one step before giving up

  solvers::NewtonOptions newton;
  double post_newton_tolerance = 1e-6;  // switching error accepted [N], >= 0
  int post_newton_max = 10;  // post-Newton re-solves per step (then the step is cut); 0 = off

  double output_interval = 0.0;  // observer called at least this far apart [s]; 0 = every step

  // Checks ranges and combinations; the message names option, value and rule.
  Status Validate() const;
};

// Works are trapezoidal sums over accepted steps, dq . (F_n + F_n+1) / 2; for f_int in the
// energy-conserving variant dq . f_d (the force that scheme applies over the step).
// External work includes that of SecondOrderSystem::ConfigurationLoad().
struct EnergyBalance {
  double external_work = 0.0;        // work of f_ext [J]
  double kinetic = 0.0;              // 1/2 v' M v at the end [J]
  double stored = 0.0;               // strain energy at the end (springs and laws) [J]
  double viscous_dissipation = 0.0;  // work of C v [J]
  double law_dissipation = 0.0;      // work of f_int minus the change of stored energy [J]
  // Work of the constraint forces -C_q' lambda [J]: zero for ideal time-independent joints
  // (up to the discretization), the work of the drivers of prescribed motions.
  double constraint_work = 0.0;
  // The remainder: external + constraint work - change of (T + V) - dissipations.
  double numerical_dissipation = 0.0;
  double initial_kinetic = 0.0, initial_stored = 0.0;
};

struct StepRecord {
  double t = 0.0;
  const VecX* q = nullptr;
  const VecX* v = nullptr;
  const VecX* a = nullptr;
  const VecX* lambda = nullptr;           // Lagrange multipliers (constraint_count() entries)
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
  int post_newton_passes = 0;  // re-solves after a switch
  double cpu_seconds = 0.0;
  EnergyBalance energy;
};

// Integrates from (q0, v0) at options.t_start with consistent initial accelerations
// M a0 + C_q' lambda0 = f_ext - C v0 - f_int(q0, v0), C_q a0 = Q_c (the initial evaluation
// uses dt = options.dt and is committed). Fixed steps stay on the grid t_start + k dt (a
// cut step continues with the cut size up to the next grid point). Counters include
// rejected attempts. Invalid options give a failed status naming the option.
// `observer` gets the initial state and accepted steps (throttled by output_interval) and
// the last accepted state; a failure keeps everything observed so far.
TransientResult Integrate(SecondOrderSystem& system, const IntegratorOptions& options,
                          const VecX& q0, const VecX& v0,
                          const std::function<void(const StepRecord&)>& observer = {});

}  // namespace jointdyn::time
