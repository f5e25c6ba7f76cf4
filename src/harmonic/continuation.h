// Periodic solutions of the harmonic-balance equations (harmonic_balance.h): one solution
// at a given frequency and excitation level (Newton through a solvers::ResidualModel), and
// frequency-response or level-response curves by pseudo-arc-length continuation.
//
// Scaling. Newton and the continuation work on scaled unknowns y = q / q_s, the parameter
// p / p_s and the residual R / f_s: f_s the largest harmonic excitation amplitude times the
// largest level, p_s the start frequency (or the largest level), and q_s (unless given) the
// largest harmonic coefficient of the first (linearized) solution, then during
// continuation that of the current point (at least 1e-3 of the largest met). Static forces
// and coefficients count only without harmonic ones: a preload (a locked bolt's load and
// the deflection it holds) may be orders larger than the vibration. So the Newton
// tolerances are relative to the vibration, and the arc length measures relative changes
// of the response and of the parameter alike, also where the curve spans orders of
// magnitude.
//
// Continuation. From a converged point z = (y, p) with unit tangent t (solution of
// [dR/dz; t_prev^T] t = [0; 1], so it keeps its orientation through turning points), the
// predictor z + ds t is corrected by Newton on [R(z); t . (z - z_pred)] = 0 (pseudo-arc-
// length). A failed corrector halves ds; a converged one adapts it by the ratio of the
// target to the used Newton iterations (factor in [1/2, 2], ds in [min_step, max_step]).
// A sign change of dp/ds between two points is a turning point. The curve stops at the end
// value (the last point solved exactly there), when it turns back past the start, or after
// max_points.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "harmonic/harmonic_balance.h"
#include "solvers/newton.h"

namespace jointdyn::harmonic {

enum class Stability { kNotComputed, kStable, kUnstable };

struct SolutionPoint {
  double omega = 0.0;  // excitation frequency [rad/s]
  double level = 0.0;  // excitation level (factor on the harmonic excitation terms) [-]
  MatX coefficients;   // all DOFs: row d = [c0, a1, b1, ...] of DOF d [m]
  int newton_iterations = 0;
  int periods = 0;             // most periods an element marched to close its loop
  bool turning_point = false;  // the parameter's direction reversed since the previous point
  Stability stability = Stability::kNotComputed;
  double floquet_max_real = 0.0;  // largest real part of the Hill exponents [1/s]
};

struct PeriodicOptions {
  solvers::NewtonOptions newton;    // tolerances on the scaled residual and unknowns
  double displacement_scale = 0.0;  // q_s [m], > 0; 0: automatic
  double force_scale = 0.0;         // f_s [N], > 0; 0: automatic
  bool stability = false;           // Hill's method at each solution
  // Stable when the largest real part of the Hill exponents is <= this times omega [-], >= 0.
  double stability_tolerance = 1e-6;
  Status Validate() const;
};

struct PeriodicResult {
  Status status;
  SolutionPoint point;
  solvers::NewtonResult newton;  // iterations, evaluations, residual history
  double seconds = 0.0;          // wall time
};

// The periodic solution at (omega, level) by Newton from `guess` (unknowns of
// hb.num_unknowns(); null: the linearized solution).
PeriodicResult SolvePeriodic(HarmonicBalance& hb, double omega, double level,
                             const PeriodicOptions& options, const VecX* guess = nullptr);

enum class ContinuationParameter { kFrequency, kLevel };

struct ContinuationOptions {
  ContinuationParameter parameter = ContinuationParameter::kFrequency;
  double start = 0.0;          // first value: omega [rad/s] (> 0) or level [-]
  double end = 0.0;            // last value, != start
  double fixed = 1.0;          // the other one: level [-] for kFrequency, omega [rad/s] for kLevel
  double initial_step = 0.01;  // first arc-length step in scaled unknowns [-], > 0
  double min_step = 1e-7;      // smallest step before giving up [-], in (0, initial_step]
  double max_step = 0.1;       // largest step [-], >= initial_step
  int target_iterations = 4;   // Newton iterations per step the step control aims at, >= 1
  int max_points = 5000;       // points on the curve at most, >= 2
  PeriodicOptions solve;       // Newton, scales, stability
  // Called with every point as it is recorded (progress of long curves); may be empty.
  std::function<void(const SolutionPoint&)> on_point;
  Status Validate() const;
};

struct ContinuationResult {
  Status status;  // failure: the first solution or a step below min_step (points kept)
  std::vector<SolutionPoint> points;
  std::string stop_reason;  // "reached the end", "turned back past the start", "max_points"
  int steps = 0;            // accepted continuation steps
  int rejected_steps = 0;   // corrector failures (each halves the step)
  int turning_points = 0;
  int newton_iterations = 0;
  int residual_evaluations = 0;
  int jacobian_evaluations = 0;
  int factorizations = 0;
  double seconds = 0.0;  // wall time
};

ContinuationResult Continue(HarmonicBalance& hb, const ContinuationOptions& options);

}  // namespace jointdyn::harmonic
