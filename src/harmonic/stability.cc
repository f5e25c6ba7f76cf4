#include "harmonic/stability.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "core/error.h"
#include "harmonic/harmonic_balance.h"

namespace jointdyn::harmonic {

HillResult HillExponents(const MatX& mass, const MatX& damping, const HarmonicBasis& basis,
                         double omega, const MatX& jacobian, const MatX& rate_jacobian) {
  const int n = static_cast<int>(mass.rows());
  const CoefficientLayout layout{basis, n};
  const int m = layout.size();
  JD_CHECK(jacobian.rows() == m && jacobian.cols() == m, "HillExponents: Jacobian size");
  JD_CHECK(rate_jacobian.rows() == m && rate_jacobian.cols() == m,
           "HillExponents: rate Jacobian size");
  HillResult result;
  const MatX nabla = DerivativeMatrix(basis);
  const int nc = basis.size();
  MatX delta2 = MatX::Zero(m, m), delta1 = rate_jacobian;
  for (int c = 0; c < nc; ++c) {
    for (int p = 0; p < n; ++p) {
      for (int q = 0; q < n; ++q) {
        delta2(layout.Index(p, c), layout.Index(q, c)) = mass(p, q);
        delta1(layout.Index(p, c), layout.Index(q, c)) += damping(p, q);
        for (int c2 = 0; c2 < nc; ++c2) {
          if (nabla(c, c2) != 0.0) {
            delta1(layout.Index(p, c), layout.Index(q, c2)) +=
                2.0 * omega * mass(p, q) * nabla(c, c2);
          }
        }
      }
    }
  }
  const Eigen::PartialPivLU<MatX> lu(delta2);
  if (!(lu.rcond() >= std::numeric_limits<double>::epsilon())) {
    result.status = Status::Failure("Hill's method: the mass matrix is singular");
    return result;
  }
  // Companion form of the quadratic eigenproblem: [P, s P].
  MatX companion = MatX::Zero(2 * m, 2 * m);
  companion.topRightCorner(m, m).setIdentity();
  companion.bottomLeftCorner(m, m) = -lu.solve(jacobian);
  companion.bottomRightCorner(m, m) = -lu.solve(delta1);
  const Eigen::EigenSolver<MatX> eigen(companion, false);
  if (eigen.info() != Eigen::Success) {
    result.status = Status::Failure("Hill's method: the eigenvalue iteration did not converge");
    return result;
  }
  const Eigen::VectorXcd& values = eigen.eigenvalues();
  std::vector<int> order(2 * m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return std::abs(values(a).imag()) < std::abs(values(b).imag());
  });
  result.exponents.resize(2 * n);
  result.max_real = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < 2 * n; ++i) {
    result.exponents(i) = values(order[i]);
    result.max_real = std::max(result.max_real, values(order[i]).real());
  }
  return result;
}

}  // namespace jointdyn::harmonic
