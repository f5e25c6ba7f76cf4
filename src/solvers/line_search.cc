#include "solvers/line_search.h"

#include <cmath>

namespace jointdyn::solvers {

DirectionalSearchResult DirectionalLineSearch(
    double s0, const VecX& dx, const std::function<Status(double alpha, VecX& r)>& evaluate,
    VecX& r, const DirectionalSearchOptions& options) {
  DirectionalSearchResult result;
  auto at = [&](double alpha, double& s) {
    ++result.evaluations;
    result.alpha = alpha;
    const Status status = evaluate(alpha, r);
    if (status) s = r.dot(dx);
    return status;
  };
  double s = 0.0;
  if (result.status = at(1.0, s); !result.status) return result;
  const double accepted = options.ratio * std::abs(s0);
  if (s0 >= 0.0 || s <= accepted) return result;
  double a = 0.0, sa = s0, b = 1.0, sb = s;
  int side = 0;     // +1: a moved last time, -1: b moved last time
  int repeats = 0;  // consecutive moves of the same end
  for (int k = 0; k < options.max_evaluations && std::abs(s) > accepted; ++k) {
    // Regula falsi (Illinois: the kept end's value halved when the other end moved
    // twice); bisection when one end has moved three times in a row, which a steep penalty
    // wall beyond a soft stretch (s piecewise linear with slopes 1e6 apart) otherwise
    // makes a crawl.
    const double alpha = repeats >= 2 ? 0.5 * (a + b) : a - sa * (b - a) / (sb - sa);
    if (result.status = at(alpha, s); !result.status) return result;
    const int moved = s < 0.0 ? 1 : -1;
    repeats = moved == side ? repeats + 1 : 0;
    if (moved == 1) {
      a = alpha, sa = s;
      if (repeats > 0) sb *= 0.5;
    } else {
      b = alpha, sb = s;
      if (repeats > 0) sa *= 0.5;
    }
    side = moved;
  }
  return result;
}

}  // namespace jointdyn::solvers
