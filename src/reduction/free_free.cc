#include "reduction/free_free.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

#include "core/clock.h"
#include "core/error.h"
#include "solvers/option_check.h"

namespace jointdyn::reduction {
namespace {

// Below this squared ratio of the smallest to the largest diagonal entry of the Cholesky
// factor of the (diagonally scaled) reduced mass, the basis is taken as linearly dependent.
constexpr double kDependentBasis = 1e-13;

std::string Short(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

}  // namespace

Status FreeFreeOptions::Validate() const {
  return solvers::CheckOption(rigid_ratio > 0.0 && rigid_ratio < 1.0, "free_free.rigid_ratio",
                              rigid_ratio, "must be in (0, 1)");
}

FreeFreeResult OrthogonalizeToFreeFree(const ReductionBasis& basis, const MatX& stiffness,
                                       const MatX& mass, const FreeFreeOptions& options) {
  FreeFreeResult result;
  if (result.status = options.Validate(); !result.status) return result;
  const int m = basis.size();
  JD_CHECK(m > 0 && stiffness.rows() == m && stiffness.cols() == m && mass.rows() == m &&
               mass.cols() == m,
           "OrthogonalizeToFreeFree: reduced K and M must be m x m for a basis of m > 0 vectors");
  const auto start = Clock::now();

  // Diagonal scaling first: the columns mix units (modal, m, rad), so the conditioning test
  // on the mass factor only sees linear dependence.
  const VecX diagonal = mass.diagonal();
  for (int j = 0; j < m; ++j) {
    if (!(diagonal(j) > 0.0)) {
      result.status =
          Status::Failure("free-free orthogonalization: basis column '" + basis.columns[j].name +
                          "' has no mass (V^T M V = " + FormatValue(diagonal(j)) + ")");
      return result;
    }
  }
  const VecX scale = diagonal.cwiseSqrt().cwiseInverse();
  const MatX scaled_mass = scale.asDiagonal() * mass * scale.asDiagonal();
  const MatX scaled_stiffness = scale.asDiagonal() * stiffness * scale.asDiagonal();
  const Eigen::LLT<MatX> llt(scaled_mass);
  const VecX l_diagonal = MatX(llt.matrixL()).diagonal();
  Eigen::Index weakest = 0;
  const double ratio = std::pow(l_diagonal.minCoeff(&weakest) / l_diagonal.maxCoeff(), 2);
  if (llt.info() != Eigen::Success || !(ratio >= kDependentBasis)) {
    result.status = Status::Failure(
        "free-free orthogonalization: the " + std::to_string(m) +
        " basis vectors are (nearly) linearly dependent in the mass inner product (V^T M V is " +
        "not safely positive definite" +
        (llt.info() == Eigen::Success
             ? ": column '" + basis.columns[weakest].name +
                   "' is nearly a combination of those before it, squared ratio " + Short(ratio) +
                   " < " + Short(kDependentBasis)
             : std::string()) +
        ")");
    return result;
  }
  // L^-1 K L^-T z = lambda z, y = L^-T z (M-orthonormal: Y^T M Y = I).
  MatX c = llt.matrixL().solve(scaled_stiffness);
  c = llt.matrixL().solve(MatX(c.transpose()));
  const Eigen::SelfAdjointEigenSolver<MatX> eigen(0.5 * (c + c.transpose()));
  JD_CHECK(eigen.info() == Eigen::Success, "free-free orthogonalization: dense eigensolver");
  const VecX& lambda = eigen.eigenvalues();
  const MatX y = scale.asDiagonal() * MatX(llt.matrixU().solve(eigen.eigenvectors()));

  // The rigid criterion (header).
  const double floor = m * std::numeric_limits<double>::epsilon() * lambda.cwiseAbs().maxCoeff();
  int r = 0;
  double rigid_max = 0.0;
  for (int k = 0; k < m; ++k) {
    if (std::max(rigid_max, floor) <= options.rigid_ratio * lambda(k)) {
      r = k;
      break;
    }
    rigid_max = std::max(rigid_max, std::abs(lambda(k)));
  }
  if (r == 0) rigid_max = 0.0;  // no separated elastic eigenvalue: nothing is rigid
  if (lambda(r) <= 0.0) {
    result.status = Status::Failure(
        "free-free orthogonalization: eigenvalue " + FormatValue(lambda(r)) +
        " <= 0 of the reduced stiffness is not separated from the elastic ones by rigid_ratio " +
        FormatValue(options.rigid_ratio) +
        " (K not positive semidefinite, or no elastic mode; or a free structure whose first "
        "elastic frequency is so low that the rigid-body eigenvalues' rounding exceeds "
        "rigid_ratio times it: raise rigid_ratio, e.g. to 1e-4)");
    return result;
  }
  result.rigid_modes = r;
  result.rigid_eigenvalues = lambda.head(r);
  result.rigid_ratio = r > 0 ? rigid_max / lambda(r) : 0.0;
  result.transform = y.rightCols(m - r);
  result.frequencies = lambda.tail(m - r).cwiseSqrt() / (2.0 * std::numbers::pi);
  MatX modes = basis.vectors * result.transform;
  for (int j = 0; j < m - r; ++j) {
    Eigen::Index largest = 0;
    modes.col(j).cwiseAbs().maxCoeff(&largest);
    if (modes(largest, j) < 0.0) {
      modes.col(j) *= -1.0;
      result.transform.col(j) *= -1.0;
    }
  }
  std::vector<std::string> names(m - r);
  for (int j = 0; j < m - r; ++j) names[j] = "free_free_" + std::to_string(j + 1);
  result.basis.Append(modes, VectorKind::kFreeFreeMode, names);
  result.seconds = Seconds(start);
  return result;
}

std::string Summary(const FreeFreeResult& result) {
  std::string text = "free-free orthogonalization: removed " + std::to_string(result.rigid_modes) +
                     " rigid-body mode" + (result.rigid_modes == 1 ? "" : "s");
  if (result.rigid_modes > 0)
    text += " (max |lambda| / first elastic lambda = " + Short(result.rigid_ratio) + ")";
  text += "; " + std::to_string(result.basis.size()) + " free-free modes [Hz]:";
  for (Eigen::Index j = 0; j < result.frequencies.size(); ++j)
    text.append(" ").append(Short(result.frequencies(j)));
  return text + "\n";
}

}  // namespace jointdyn::reduction
