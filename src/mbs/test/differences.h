// Central differences of a vector function, for the derivative tests of src/mbs.
#pragma once

#include "core/types.h"

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

}  // namespace jointdyn::mbs::testing
