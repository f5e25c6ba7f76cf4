// Newton's method with backtracking line search and Jacobian reuse (modified Newton).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solvers/linear_solver.h"
#include "solvers/residual_model.h"

namespace jointdyn::solvers {

enum class LineSearch {
  kNone,          // full steps
  kResidualNorm,  // backtracking on the scaled residual norm (Armijo)
  kDirectional,   // to where the residual is orthogonal to the step (line_search.h): for
                  // residuals that are gradients of a potential, such as implicit steps of
                  // structures with stiff penalty contact
};

struct NewtonOptions {
  double residual_tolerance = 1e-8;    // converged when max_i |F_i| / ResidualScale_i <= this [-]
  double increment_tolerance = 1e-10;  // ... and max_i |dx_i| / UnknownScale_i <= this [-]
  int max_iterations = 25;             // iterations per Solve(), >= 1
  LineSearch line_search = LineSearch::kResidualNorm;
  int max_backtracks = 8;  // kResidualNorm: halvings per iteration, >= 0
  // > 0: each increment shortened to max_i |dx_i| / UnknownScale_i <= this (before the line
  // search): a trust region for a tangent that is nearly singular where the solution is far
  // (an unstretched cable pushed across: only its bending resists at first). 0 = off.
  double max_increment = 0.0;
  // Modified Newton: keep the factored Jacobian while the scaled residual norm falls at
  // least by this factor per iteration; refactor when convergence slows. 0 = full Newton
  // (refactor every iteration, except that once the residual meets its tolerance the
  // increment that confirms convergence uses the kept factorization). In [0, 1).
  double reuse_contraction = 0.0;
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;
  // Accept a point whose residual is met when no step along the fresh Newton direction
  // keeps it (the increment test unmet): a kink of a piecewise smooth residual, e.g. the
  // stick-slip switching between the samples of a harmonic-balance period march. Off: that
  // is a line-search failure (where a met residual may only mean a missing force scale).
  bool accept_kinks = false;
  // kResidualNorm: when no halving decreases the residual (and it is not met), take the
  // full Newton step anyway instead of failing (a watchdog): for residuals with many kinks,
  // such as harmonic balance of an interface that opens (the friction bar's nonlinear
  // mode: the Newton direction holds in a small neighbourhood only, the search failed at a
  // scaled residual of 0.32 where full steps converged in 51 iterations). Bounded by
  // max_iterations; a full step whose evaluation fails still fails.
  bool watchdog = false;
  // Checks the ranges above; the message names the option, value and rule.
  Status Validate() const;
};

struct NewtonResult {
  Status status;       // failure: what (diverged, singular, ...) and at which iteration
  int iterations = 0;  // Newton updates (linear solves) in this Solve()
  int residual_evaluations = 0;
  int jacobian_evaluations = 0;
  int factorizations = 0;
  double residual_norm = 0.0;            // final scaled residual norm (max norm)
  double increment_norm = 0.0;           // final scaled increment norm (max norm)
  std::vector<double> residual_history;  // scaled residual norm at the start and after each update
};

class NewtonSolver {
 public:
  explicit NewtonSolver(const NewtonOptions& options);
  // Solves model(x) = 0 starting from x (updated in place). With reuse_contraction > 0 a
  // factorization kept from an earlier Solve() on a model of the same size is tried first.
  // Iteration k solves J dx = -F(x_k) and, with kResidualNorm, backtracks x_k + lambda dx
  // (lambda = 1, 1/2, ...) until the scaled residual norm r falls by the Armijo factor
  // (1 - 1e-4 lambda) or below the tolerance (a failed evaluation also backtracks); with
  // kDirectional it takes the step of DirectionalLineSearch (no monotone residual norm). Converged
  // when, after an update, both the residual and the applied increment meet their tolerances, or
  // when the residual met its tolerance after this update and the one before and the increment
  // did not shrink (it stalls at the residual's rounding: stiff unknowns with fine scales). A
  // line search that fails with a reused (stale) Jacobian refactors at x_k and repeats the
  // iteration. On success the last model.Evaluate() call was at the returned x (models that keep
  // trial state, such as a time step's history, rely on this).
  NewtonResult Solve(ResidualModel& model, VecX& x);
  // Forgets the kept factorization (e.g. after the step size changed).
  void InvalidateJacobian();

 private:
  NewtonOptions options_;
  std::unique_ptr<LinearSolver> linear_;
  int size_ = -1;          // size the linear solver was made for
  bool factored_ = false;  // linear_ holds a factorization of a Jacobian of that size
};

}  // namespace jointdyn::solvers
