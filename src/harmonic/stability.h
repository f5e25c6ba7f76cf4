// Stability of a periodic solution by Hill's method: a perturbation e^{s t} p(t) with p
// periodic, expanded in the same harmonics, satisfies the quadratic eigenproblem
//   (s^2 Delta_2 + s Delta_1 + J) P = 0,
//   Delta_2 = M per coefficient, Delta_1 = C per coefficient + 2 omega M (x) nabla + R,
// with J the harmonic-balance Jacobian over all DOFs (HarmonicBalance::FullJacobian), nabla
// the derivative matrix of the basis (d/dtheta) and R the rate Jacobian of the velocity-
// dependent element forces (HarmonicBalance::FullRateJacobian): their velocity perturbation
// is p' + s p, J holds the part through p' and R the part s p. Of its 2 n nc eigenvalues the
// 2 n with the smallest |Im s| approximate the Floquet exponents (the others are copies
// shifted by i k omega and truncation artefacts); the solution is asymptotically stable when
// all their real parts are negative. For hysteretic elements J is the AFT Jacobian of the
// march (with the history sensitivity where available) and R keeps the local rate tangents
// only (nonlinear_force.h), so the result is as good as that linearization.
#pragma once

#include "core/status.h"
#include "core/types.h"
#include "harmonic/fourier.h"

namespace jointdyn::harmonic {

struct HillResult {
  Status status;               // failure: singular mass matrix or no eigenvalue convergence
  Eigen::VectorXcd exponents;  // the 2 n selected Floquet exponents [1/s]
  double max_real = 0.0;       // largest real part among them [1/s]
};

// mass, damping: n x n; jacobian and rate_jacobian: n nc x n nc in
// CoefficientLayout{basis, n}.
HillResult HillExponents(const MatX& mass, const MatX& damping, const HarmonicBasis& basis,
                         double omega, const MatX& jacobian, const MatX& rate_jacobian);

}  // namespace jointdyn::harmonic
