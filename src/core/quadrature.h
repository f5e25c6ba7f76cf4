// Gauss-Legendre quadrature on [-1, 1], shared by the finite elements and the tests that
// integrate closed forms.
#pragma once

#include "core/types.h"

namespace jointdyn {

// Gauss-Legendre points (ascending) and weights on [-1, 1] for n >= 1 points, exact for
// polynomials of degree <= 2 n - 1.
void GaussLegendre(int n, VecX& points, VecX& weights);

}  // namespace jointdyn
