// Nonlinear modes by the extended periodic motion concept (EPMC, Krack 2015, "Nonlinear
// modal analysis of nonconservative systems: extension of the periodic motion concept"):
// the autonomous system with an artificial negative mass-proportional damping that makes
// the damped nonlinear mode periodic,
//   M q'' + (C - xi M) q' + K q + f_nl(q, q') = f_static,
// solved by harmonic balance (harmonic_balance.h, level 0: only the static forces, such as
// a locked bolt's load, act) for the coefficients of all DOFs, the frequency omega and xi,
// at a prescribed modal amplitude a with the phase fixed:
//   amplitude  a_1^T M a_1 + b_1^T M b_1 = a^2   (a_1, b_1: the first harmonic's cos and
//                                                 sin coefficients of all DOFs),
//   phase      phi^T M b_1 = 0                   (phi: the linear mode the branch starts from).
// xi balances the energy the structure dissipates over a period, so the modal damping
// ratio is D = xi / (2 omega): at vanishing amplitude, with phi an eigenvector of the
// stuck linearization (K_t phi = omega0^2 M phi, phi^T M phi = 1), the solution is
// q = rest + a phi cos(omega0 t), omega = omega0, xi = phi^T C phi (Rayleigh damping
// C = alpha M + beta K_t: D = alpha / (2 omega0) + beta omega0 / 2 when K_t = K).
//
// The backbone is continued over the given amplitudes (ascending) with a secant predictor
// in log a; a step whose Newton fails is halved in log a (max_refinements times in a row)
// and the amplitudes so inserted are points of the backbone too. Newton works on scaled
// unknowns: the coefficients relative to q_s = a |phi|_inf (minus the rest state's static
// terms), omega / omega0 and xi / omega0, the equations relative to the modal inertia
// force omega0^2 a |M phi|_inf, the amplitude equation relative to a^2 and the phase
// equation to a.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "harmonic/harmonic_balance.h"
#include "solvers/newton.h"

namespace jointdyn::harmonic {

struct ModePoint {
  double amplitude = 0.0;  // modal amplitude a [sqrt(kg) m]
  double omega = 0.0;      // angular frequency [rad/s]
  double xi = 0.0;         // the mass-proportional damping that keeps the motion periodic [1/s]
  MatX coefficients;       // all DOFs: row d = [c0, a1, b1, ...] of DOF d [m]
  int newton_iterations = 0;
  int periods = 0;  // most periods an element marched to close its loop
  double damping_ratio() const { return xi / (2.0 * omega); }  // D [-]
};

// A first iterate other than the linear mode, for a start whose linearization is no limit
// (an interface without preload sits at its contact kink: the stuck mode penetrates where
// the motion opens, the friction bar's started 270 modal inertia forces out of balance).
struct ModeGuess {
  VecX mean;           // static terms' shift from the rest state (n) [m]
  VecX cosine;         // first-harmonic cosine coefficients (n) [m]
  double omega = 0.0;  // [rad/s], > 0
  double xi = 0.0;     // [1/s]
};

struct NonlinearModeOptions {
  VecX shape;                      // phi: the linear mode the branch starts from, M-normalized (n)
  double omega = 0.0;              // its angular frequency omega0 [rad/s], > 0
  std::vector<double> amplitudes;  // modal amplitudes a [sqrt(kg) m], > 0, ascending
  solvers::NewtonOptions newton;   // tolerances on the scaled equations and unknowns
  int max_refinements = 6;         // log-amplitude halvings of a failed step in a row, >= 0
  // The first amplitude's first iterate, scaled to its amplitude (mean and cosine by the
  // same factor); none: the linear mode, a phi cos(omega0 t) with xi = phi^T C phi.
  std::optional<ModeGuess> guess;
  // Called with every point as it is recorded (progress); may be empty.
  std::function<void(const ModePoint&)> on_point;
  // Checks the options above against `dofs` DOFs; the message names the option.
  Status Validate(int dofs) const;
};

struct NonlinearModeResult {
  Status status;  // failure: the first amplitude that did not converge (points kept)
  std::vector<ModePoint> points;
  int newton_iterations = 0;
  int residual_evaluations = 0;
  int refinements = 0;   // amplitudes inserted after failed steps
  double seconds = 0.0;  // wall time
};

// The backbone of the nonlinear mode starting from options.shape. hb must not be condensed
// (every DOF's coefficients unknowns: HarmonicOptions::condense false, or no linear DOFs)
// and its basis must contain the first harmonic.
NonlinearModeResult ContinueNonlinearMode(HarmonicBalance& hb, const NonlinearModeOptions& options);

}  // namespace jointdyn::harmonic
