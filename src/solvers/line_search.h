// Directional (energy) line search along a Newton direction dx: moves to x + alpha dx where
// the residual is (nearly) orthogonal to dx,
//   s(alpha) = r(x + alpha dx) . dx,   |s(alpha)| <= ratio |s(0)|,
// taking alpha = 1 when s(1) <= ratio |s(0)|, else by regula falsi (Illinois) on [0, 1].
// When r is the gradient of a potential (a static problem with penalty contact, or one
// implicit time step of a structure with penalty contact: the step residual is the
// gradient of the incremental potential), s is the derivative of that potential along dx
// and the search finds its minimum on the segment. This is what stops Newton from cycling
// between contact sets on stiff piecewise-linear penalties, where a search on the residual
// norm accepts the full step into the other contact set and back again. With friction the
// residual is no gradient; the search is then a safeguard that keeps the same rule.
#pragma once

#include <functional>

#include "core/status.h"
#include "core/types.h"

namespace jointdyn::solvers {

struct DirectionalSearchOptions {
  double ratio = 0.25;       // accepted |s(alpha)| / |s(0)| [-], in (0, 1)
  int max_evaluations = 30;  // residual evaluations after the one at alpha = 1, >= 0
};

struct DirectionalSearchResult {
  Status status;        // failure: an evaluation failed (its message)
  double alpha = 1;     // the step taken [-]
  int evaluations = 0;  // residual evaluations, the one at alpha = 1 included
};

// `s0` = r(x) . dx. `evaluate(alpha, r)` sets the state to x + alpha dx and its residual
// into r; the last call is at the returned alpha (models that keep trial state rely on
// it). With s0 >= 0 (dx is no descent direction of the potential) the full step is taken.
DirectionalSearchResult DirectionalLineSearch(
    double s0, const VecX& dx, const std::function<Status(double alpha, VecX& r)>& evaluate,
    VecX& r, const DirectionalSearchOptions& options = {});

}  // namespace jointdyn::solvers
