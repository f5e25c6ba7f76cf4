// Central differences of a vector function, for the derivative tests of src/mbs.
#pragma once

#include "core/types.h"
#include "time/second_order_system.h"

namespace jointdyn::mbs::testing {

// Columns dF/dx_j by central differences with step h.
template <class F>
MatX Differences(const F& f, const VecX& x, double h) {
  MatX d(f(x).size(), x.size());
  for (int j = 0; j < x.size(); ++j) {
    VecX plus = x, minus = x;
    plus(j) += h;
    minus(j) -= h;
    d.col(j) = (f(plus) - f(minus)) / (2 * h);
  }
  return d;
}

// x -> c(t, x), the constraints of `system` at time t, for Differences.
inline auto ConstraintsAt(time::SecondOrderSystem& system, double t) {
  return [&system, t](const VecX& x) {
    VecX c(system.constraint_count());
    system.Constraints(t, x, c, nullptr);
    return c;
  };
}

// The configuration load of `system` at (t, q) into `load`, and its tangent's largest
// difference from central differences (step h) relative to the tangent's largest entry.
inline double LoadTangentError(time::SecondOrderSystem& system, double t, const VecX& q, VecX& load,
                               double h = 1e-6) {
  const int n = system.size();
  const auto load_of = [&](const VecX& x) {
    VecX f = VecX::Zero(n);
    system.ConfigurationLoad(t, x, f, nullptr);
    return f;
  };
  load = VecX::Zero(n);
  solvers::Matrix tangent = MatX(MatX::Zero(n, n));
  system.ConfigurationLoad(t, q, load, &tangent);
  return (tangent.dense() - Differences(load_of, q, h)).cwiseAbs().maxCoeff() /
         tangent.dense().cwiseAbs().maxCoeff();
}

}  // namespace jointdyn::mbs::testing
