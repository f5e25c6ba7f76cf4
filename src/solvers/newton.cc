#include "solvers/newton.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"
#include "solvers/line_search.h"
#include "solvers/option_check.h"

namespace jointdyn::solvers {
namespace {

constexpr double kArmijo = 1e-4;  // sufficient decrease: r(x + l dx) <= (1 - kArmijo l) r(x)
// Directional search: a step below this fraction of dx is taken as stuck at a kink.
constexpr double kMinDirectionalStep = 1e-2;

double ScaledMaxNorm(const VecX& v, const VecX& scale) {
  return (v.array().abs() / scale.array()).maxCoeff();
}

void CheckScale(const VecX& scale, int n, const char* what) {
  JD_CHECK(scale.size() == n && scale.allFinite() && (scale.array() > 0.0).all(),
           std::string("Newton: ") + what + " must have size() finite entries > 0");
}

}  // namespace

Status NewtonOptions::Validate() const {
  for (const Status& status : {
           CheckOption(residual_tolerance > 0.0 && std::isfinite(residual_tolerance),
                       "newton.residual_tolerance", residual_tolerance, "must be > 0"),
           CheckOption(increment_tolerance > 0.0 && std::isfinite(increment_tolerance),
                       "newton.increment_tolerance", increment_tolerance, "must be > 0"),
           CheckOption(max_iterations >= 1, "newton.max_iterations", max_iterations,
                       "must be >= 1"),
           CheckOption(max_backtracks >= 0, "newton.max_backtracks", max_backtracks,
                       "must be >= 0"),
           CheckOption(max_increment >= 0.0 && std::isfinite(max_increment), "newton.max_increment",
                       max_increment, "must be >= 0"),
           CheckOption(reuse_contraction >= 0.0 && reuse_contraction < 1.0,
                       "newton.reuse_contraction", reuse_contraction, "must be in [0, 1)"),
       }) {
    if (!status) return status;
  }
  return Status::Ok();
}

NewtonSolver::NewtonSolver(const NewtonOptions& options) : options_(options) {
  const Status status = options_.Validate();
  JD_CHECK(status.ok, "NewtonSolver: invalid options: " + status.message);
}

void NewtonSolver::InvalidateJacobian() { factored_ = false; }

NewtonResult NewtonSolver::Solve(ResidualModel& model, VecX& x) {
  NewtonResult result;
  const int n = model.size();
  JD_CHECK(n > 0 && x.size() == n, "Newton: x must have model.size() > 0 entries");
  const VecX residual_scale = model.ResidualScale();
  const VecX unknown_scale = model.UnknownScale();
  CheckScale(residual_scale, n, "ResidualScale()");
  CheckScale(unknown_scale, n, "UnknownScale()");

  if (!linear_ || size_ != n) {
    linear_ = MakeLinearSolver(options_.linear_solver, n);
    size_ = n;
    factored_ = false;
  }
  const bool reuse = options_.reuse_contraction > 0.0;
  if (!reuse) factored_ = false;

  Matrix jacobian;
  auto fail = [&](int iteration, const std::string& what) {
    result.status = Status::Failure("Newton iteration " + std::to_string(iteration) + ": " + what);
    return result;
  };
  auto evaluate = [&](const VecX& at, VecX& residual, bool with_jacobian) {
    ++result.residual_evaluations;
    if (with_jacobian) ++result.jacobian_evaluations;
    Status status = model.Evaluate(at, residual, with_jacobian ? &jacobian : nullptr);
    if (status && !residual.allFinite()) status = Status::Failure("non-finite residual");
    return status;
  };
  auto factor = [&]() {
    ++result.factorizations;
    Status status = linear_->Factor(jacobian);
    factored_ = status.ok;
    if (!status) status.message = "Jacobian factorization failed: " + status.message;
    return status;
  };
  VecX f(n);
  bool fresh = false;     // the factorization is the Jacobian at the current x
  auto refresh = [&]() {  // residual and a new factored Jacobian at x
    if (Status status = evaluate(x, f, true); !status) {
      return Status::Failure("residual evaluation failed: " + status.message);
    }
    fresh = true;
    return factor();
  };

  // Iteration 0: the residual at the start, and a Jacobian unless one is kept.
  if (factored_) {
    if (Status status = evaluate(x, f, false); !status) {
      return fail(0, "residual evaluation failed: " + status.message);
    }
  } else if (Status status = refresh(); !status) {
    return fail(0, status.message);
  }
  double r = ScaledMaxNorm(f, residual_scale);
  result.residual_norm = r;
  result.residual_history.push_back(r);

  VecX dx(n), x_trial(n), f_trial(n);
  for (int iteration = 1; iteration <= options_.max_iterations; ++iteration) {
    result.iterations = iteration;
    if (Status status = linear_->Solve(-f, dx); !status) {
      factored_ = false;
      return fail(iteration, "linear solve failed: " + status.message);
    }
    if (const double size = ScaledMaxNorm(dx, unknown_scale);
        options_.max_increment > 0.0 && size > options_.max_increment)
      dx *= options_.max_increment / size;
    // Full Newton takes the Jacobian with the trial point, unless the residual is met already
    // (only the increment test is left, which the trial usually passes); modified Newton only
    // on demand.
    const bool jacobian_with_trial = !reuse && r > options_.residual_tolerance;
    double lambda = 1.0;
    double r_trial = std::numeric_limits<double>::infinity();
    Status trial_status;
    bool accepted = false;
    bool jacobian_at_trial = jacobian_with_trial;  // `jacobian` was evaluated at x_trial
    if (options_.line_search == LineSearch::kDirectional) {
      // Full Newton evaluates the Jacobian with the full step (usually accepted), and at
      // the accepted point again when the search moved elsewhere.
      auto at = [&](double alpha, VecX& residual) {
        x_trial = x + alpha * dx;
        return evaluate(x_trial, residual, jacobian_with_trial && alpha == 1.0);
      };
      const DirectionalSearchResult search = DirectionalLineSearch(f.dot(dx), dx, at, f_trial);
      lambda = search.alpha;
      trial_status = search.status;
      if (trial_status && lambda < kMinDirectionalStep) {
        // A kink at x (friction, or a contact switch right at the start) makes s jump to
        // > 0: no progress along dx this way. The full step leaves the kink.
        lambda = 1.0;
        trial_status = at(lambda, f_trial);
      } else if (trial_status && jacobian_with_trial && lambda != 1.0) {
        trial_status = evaluate(x_trial, f_trial, true);
      }
      if (trial_status) r_trial = ScaledMaxNorm(f_trial, residual_scale);
      accepted = trial_status.ok;
    } else {
      const bool search = options_.line_search == LineSearch::kResidualNorm;
      // The Jacobian with the full step only: a backtracked point gets its own after
      // acceptance (with the march of a harmonic-balance period it costs several residuals).
      for (int backtrack = 0;; ++backtrack) {
        x_trial = x + lambda * dx;
        jacobian_at_trial = jacobian_with_trial && backtrack == 0;
        trial_status = evaluate(x_trial, f_trial, jacobian_at_trial);
        if (trial_status) {
          r_trial = ScaledMaxNorm(f_trial, residual_scale);
          accepted = !search || r_trial <= (1.0 - kArmijo * lambda) * r ||
                     r_trial <= options_.residual_tolerance;
        }
        if (accepted || !search || backtrack == options_.max_backtracks) break;
        lambda *= 0.5;
      }
    }
    if (!accepted && fresh && trial_status && options_.watchdog &&
        options_.line_search == LineSearch::kResidualNorm && r > options_.residual_tolerance) {
      lambda = 1.0;
      x_trial = x + dx;
      jacobian_at_trial = jacobian_with_trial;
      trial_status = evaluate(x_trial, f_trial, jacobian_at_trial);
      if (trial_status) r_trial = ScaledMaxNorm(f_trial, residual_scale);
      accepted = trial_status.ok;
    }
    if (!accepted) {
      if (!fresh) {  // the kept Jacobian may be too stale: refactor here and repeat
        if (Status status = refresh(); !status) return fail(iteration, status.message);
        continue;
      }
      if (!trial_status)
        return fail(iteration, "residual evaluation failed: " + trial_status.message);
      // The residual is met and no step along the fresh Newton direction keeps it: a kink
      // (NewtonOptions::accept_kinks), where the increment test cannot be met.
      if (options_.accept_kinks && r <= options_.residual_tolerance) return result;
      return fail(iteration, "line search failed: scaled residual " + FormatValue(r_trial) +
                                 " after " + std::to_string(options_.max_backtracks) +
                                 " halvings, " + FormatValue(r) + " at the start");
    }

    const double r_previous = r;
    const double increment_previous = result.increment_norm;
    x = x_trial;
    f = f_trial;
    r = r_trial;
    result.residual_norm = r;
    result.increment_norm = ScaledMaxNorm(lambda * dx, unknown_scale);
    result.residual_history.push_back(r);
    const bool residual_met = r <= options_.residual_tolerance;
    // The residual met twice and the increment no longer shrinking: the increments are the
    // residual's rounding mapped by the inverse Jacobian (stiff unknowns), no closer to reach.
    const bool stalled = residual_met && r_previous <= options_.residual_tolerance &&
                         iteration > 1 && result.increment_norm >= increment_previous;
    if (residual_met && (result.increment_norm <= options_.increment_tolerance || stalled)) {
      return result;
    }

    Status status;
    if (!reuse && r > options_.residual_tolerance) {
      // Full Newton: factor the Jacobian evaluated with the trial, or evaluate it here.
      fresh = true;
      status = jacobian_at_trial ? factor() : refresh();
    } else if (reuse && !residual_met &&
               (r > options_.reuse_contraction * r_previous || lambda < 1.0)) {
      // Modified Newton whose convergence slowed: a new Jacobian at x (not once the residual
      // is met: near its rounding it no longer contracts, and the kept factorization gives
      // the increments that remain).
      status = refresh();
    } else {
      // Modified Newton converging fast enough, or full Newton with only the increment
      // test left: the kept factorization serves.
      fresh = false;
    }
    if (!status) return fail(iteration, status.message);
  }
  return fail(options_.max_iterations,
              "no convergence: scaled residual " + FormatValue(r) + " (tolerance " +
                  FormatValue(options_.residual_tolerance) + "), scaled increment " +
                  FormatValue(result.increment_norm) + " (tolerance " +
                  FormatValue(options_.increment_tolerance) + ")");
}

}  // namespace jointdyn::solvers
