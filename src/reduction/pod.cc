#include "reduction/pod.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "solvers/option_check.h"

namespace jointdyn::reduction {
namespace {

// A column whose squared (W-)norm is at or below this fraction of the largest one is zero
// (a norm ratio of 1e-12: rounding of a vector that should vanish).
constexpr double kZeroColumn = 1e-24;
// A POV below -kNegativePov * lambda_1 is beyond the rounding of the Gram matrix: the weight
// is not positive semidefinite on the snapshots.
constexpr double kNegativePov = 1e-8;

// Scale factors of the columns with squared norms `norms2` (eq. 3.47 / 3.52): 1 / sqrt, or
// 0 for zero columns (counted). All ones when not normalizing.
VecX ColumnScale(const VecX& norms2, bool normalize, int& zero_columns) {
  zero_columns = 0;
  if (!normalize) return VecX::Ones(norms2.size());
  const double largest = norms2.size() > 0 ? norms2.maxCoeff() : 0.0;
  VecX scale(norms2.size());
  for (Eigen::Index j = 0; j < norms2.size(); ++j) {
    const bool zero = !(norms2(j) > kZeroColumn * largest);
    zero_columns += zero;
    scale(j) = zero ? 0.0 : 1.0 / std::sqrt(norms2(j));
  }
  return scale;
}

// From the POVs `values` (descending, as computed, p of them): result.values (those above
// the rank tolerance, the rest 0), result.rank, result.ratio; the number g of modes to
// return. A failure (all zero, negative, more modes than the rank) is a Status.
Status KeepValues(const VecX& values, const PodOptions& options, PodResult& result, int& g) {
  const Eigen::Index p = values.size();
  const double largest = values(0);
  if (!(largest > 0.0))
    return Status::Failure("POD: the " + std::to_string(p) +
                           " snapshots are all zero (in the weighted norm)");
  if (values(p - 1) < -kNegativePov * largest)
    return Status::Failure("POD: proper orthogonal value " + FormatValue(values(p - 1)) +
                           " < 0 (largest " + FormatValue(largest) +
                           "): the weight matrix is not positive semidefinite");
  result.values = VecX::Zero(p);
  for (Eigen::Index i = 0; i < p && values(i) > options.rank_tolerance * largest; ++i) {
    result.values(i) = values(i);
    ++result.rank;
  }
  result.ratio = PovRatio(result.values);
  if (options.modes == 0) {
    // w(g) reaches 1 at the rank (the POVs below the tolerance are 0), up to rounding.
    g = std::min(ModesForRatio(result.ratio, options.target_ratio), result.rank);
    if (options.max_modes > 0) g = std::min(g, options.max_modes);
    return Status::Ok();
  }
  g = options.modes;
  if (g > result.rank)
    return Status::Failure("POD: " + std::to_string(g) +
                           " modes asked, but the snapshots have rank " +
                           std::to_string(result.rank) + " (POVs above " +
                           FormatValue(options.rank_tolerance) + " * the largest)");
  return Status::Ok();
}

// Thin SVD of Ybar = Y diag(scale) (wide unweighted snapshots, header).
void DecomposeBySvd(const MatX& snapshots, const PodOptions& options, PodResult& result) {
  result.used_svd = true;
  auto start = Clock::now();
  const VecX scale = ColumnScale(snapshots.colwise().squaredNorm().transpose(),
                                 options.normalize_columns, result.zero_columns);
  const Eigen::BDCSVD<MatX> svd(snapshots * scale.asDiagonal(), Eigen::ComputeThinU);
  result.gram_seconds = Seconds(start);
  VecX values = VecX::Zero(snapshots.cols());
  values.head(svd.singularValues().size()) = svd.singularValues().cwiseAbs2();
  int g = 0;
  if (result.status = KeepValues(values, options, result, g); !result.status) return;
  result.modes = svd.matrixU().leftCols(g);
}

// The rows of `a` that hold a nonzero entry, ascending.
std::vector<int> NonzeroRows(const MatX& a) {
  const Eigen::Array<bool, Eigen::Dynamic, 1> nonzero = (a.array() != 0.0).rowwise().any();
  std::vector<int> rows;
  rows.reserve(nonzero.count());
  for (Eigen::Index i = 0; i < nonzero.size(); ++i)
    if (nonzero(i)) rows.push_back(static_cast<int>(i));
  return rows;
}

// The eigenpairs of the Gram matrix G = Ybar^T W Ybar (p x p, Ybar = Y diag(scale)),
// descending: all p values, the vectors of the nonzero ones. `y` and `wy` are Y and W Y on
// the rows that W Y touches. With fewer such rows r than snapshots p, G has rank <= r and
// its range lies in that of diag(scale) y^T: with Q = orth(diag(scale) y^T) (p x r) the
// eigenpairs (lambda, u) of Q^T G Q = (y diag(scale) Q)^T (wy diag(scale) Q) (r x r) are
// G's nonzero ones (lambda, Q u), the others are 0: an r x r instead of a p x p eigenproblem
// (the wPOD of the connecting rod's 5000 TVDs, whose fictive forces act on about 2000
// contact DOFs: 117 s with the 5000 x 5000 one, 13 s with this).
struct Eigenpairs {
  VecX values;
  MatX vectors;
};
Eigenpairs GramEigenpairs(const MatX& gram, const MatX& y, const MatX& wy, const VecX& scale) {
  const Eigen::Index p = gram.rows(), r = y.rows();
  Eigenpairs pairs;
  if (r == 0 || r >= p) {
    const Eigen::SelfAdjointEigenSolver<MatX> eigen(gram);
    JD_CHECK(eigen.info() == Eigen::Success, "POD: dense eigensolver");
    pairs.values = eigen.eigenvalues().reverse();
    pairs.vectors = eigen.eigenvectors().rowwise().reverse();
    return pairs;
  }
  const Eigen::HouseholderQR<MatX> qr((y * scale.asDiagonal()).transpose());
  const MatX q = qr.householderQ() * MatX::Identity(p, r);
  MatX small = (y * (scale.asDiagonal() * q)).transpose() * (wy * (scale.asDiagonal() * q));
  small = 0.5 * (small + small.transpose()).eval();
  const Eigen::SelfAdjointEigenSolver<MatX> eigen(small);
  JD_CHECK(eigen.info() == Eigen::Success, "POD: dense eigensolver");
  pairs.values = VecX::Zero(p);
  pairs.values.head(r) = eigen.eigenvalues().reverse();
  pairs.vectors = q * eigen.eigenvectors().rowwise().reverse();
  return pairs;
}

// Eigenproblem of the Gram matrix Ybar^T W Ybar, from the weighted snapshots W Y
// (`weighted`; Y itself when null, W = I). Rows where W Y is zero add nothing to the Gram
// matrix; when they are most rows (fictive forces: all but the contact DOFs) only the
// others are read, and unweighted modes are zero there.
void DecomposeByGram(const MatX& snapshots, const MatX* weighted, const PodOptions& options,
                     PodResult& result) {
  auto start = Clock::now();
  const Eigen::Index n = snapshots.rows(), p = snapshots.cols();
  const std::vector<int> rows = NonzeroRows(weighted != nullptr ? *weighted : snapshots);
  // Copying the nonzero rows pays when they are few; else the zero rows only cost flops.
  const bool all_rows = static_cast<Eigen::Index>(rows.size()) > n / 2;
  MatX y_rows, wy_rows;  // Y and W Y on `rows`, when those are not all
  if (!all_rows) {
    y_rows = snapshots(rows, Eigen::all);
    if (weighted != nullptr) wy_rows = (*weighted)(rows, Eigen::all);
  }
  const MatX& y = all_rows ? snapshots : y_rows;
  const MatX& wy = weighted == nullptr ? y : (all_rows ? *weighted : wy_rows);
  MatX gram(p, p);
  if (weighted == nullptr) {
    gram.setZero();
    gram.selfadjointView<Eigen::Lower>().rankUpdate(y.transpose());
    gram = gram.selfadjointView<Eigen::Lower>();
  } else {
    gram = y.transpose() * wy;
    gram = 0.5 * (gram + gram.transpose()).eval();
  }
  const VecX norms2 = gram.diagonal();
  if (norms2.minCoeff() < -kNegativePov * norms2.cwiseAbs().maxCoeff()) {
    result.status = Status::Failure("POD: a snapshot has negative weighted norm " +
                                    FormatValue(norms2.minCoeff()) +
                                    ": the weight matrix is not positive semidefinite");
    return;
  }
  const VecX scale = ColumnScale(norms2, options.normalize_columns, result.zero_columns);
  gram = scale.asDiagonal() * gram * scale.asDiagonal();
  result.gram_seconds = Seconds(start);

  start = Clock::now();
  const Eigenpairs eigen = GramEigenpairs(gram, y, wy, scale);
  result.eigen_seconds = Seconds(start);
  int g = 0;
  if (result.status = KeepValues(eigen.values, options, result, g); !result.status) return;
  start = Clock::now();
  // phi_i = Ybar u_i / sqrt(lambda_i) with Ybar = Y diag(scale): one n x p x g product.
  const MatX coefficients = scale.asDiagonal() * eigen.vectors.leftCols(g) *
                            result.values.head(g).cwiseSqrt().cwiseInverse().asDiagonal();
  MatX on_rows = y * coefficients;  // the modes on `rows`
  // Through the Gram matrix, the W-orthogonality of mode i degrades as eps lambda_1 /
  // lambda_i (measured 3e-8 at lambda_i = 2e-10 lambda_1): one Cholesky pass (C = Phi^T W Phi
  // = L L^T, Phi <- Phi L^-T) restores it to rounding without changing the subspaces.
  MatX c(g, g);
  if (g > 0) c = on_rows.transpose() * (weighted == nullptr ? on_rows : MatX(wy * coefficients));
  if (all_rows) {
    result.modes = std::move(on_rows);
  } else if (weighted == nullptr) {
    result.modes = MatX::Zero(n, g);
    result.modes(rows, Eigen::all) = on_rows;
  } else {
    result.modes = snapshots * coefficients;
  }
  if (g > 0) {
    const Eigen::LLT<MatX> llt(0.5 * (c + c.transpose()));
    if (llt.info() != Eigen::Success) {
      result.status = Status::Failure("POD: the modes lost their orthogonality in rounding");
      return;
    }
    llt.matrixU().solveInPlace<Eigen::OnTheRight>(result.modes);
  }
  result.modes_seconds = Seconds(start);
}

PodResult Decompose(const MatX& snapshots, const MatX* weighted, const PodOptions& options) {
  PodResult result;
  if (result.status = options.Validate(); !result.status) return result;
  const Eigen::Index n = snapshots.rows(), p = snapshots.cols();
  JD_CHECK(p > 0 && n > 0, "POD: empty snapshot matrix");
  JD_CHECK(weighted == nullptr || (weighted->rows() == n && weighted->cols() == p),
           "POD: the weighted snapshots must be n x p for n x p snapshots");
  if (weighted == nullptr && p > n) {
    DecomposeBySvd(snapshots, options, result);
  } else {
    DecomposeByGram(snapshots, weighted, options, result);
  }
  if (!result.status) result.modes.resize(n, 0);
  return result;
}

}  // namespace

Status PodOptions::Validate() const {
  using solvers::CheckOption;
  for (const Status& status :
       {CheckOption(modes >= 0, "pod.modes", modes, "must be >= 0"),
        CheckOption(target_ratio > 0.0 && target_ratio <= 1.0, "pod.target_ratio", target_ratio,
                    "must be in (0, 1]"),
        CheckOption(max_modes >= 0, "pod.max_modes", max_modes, "must be >= 0"),
        CheckOption(rank_tolerance > 0.0 && rank_tolerance < 1.0, "pod.rank_tolerance",
                    rank_tolerance, "must be in (0, 1)")}) {
    if (!status) return status;
  }
  return Status::Ok();
}

PodResult Pod(const MatX& snapshots, const PodOptions& options) {
  return Decompose(snapshots, nullptr, options);
}

PodResult WeightedPod(const MatX& snapshots, const solvers::SparseMatrix& weight,
                      const PodOptions& options) {
  JD_CHECK(weight.rows() == snapshots.rows() && weight.cols() == snapshots.rows(),
           "POD: the weight must be n x n for n x p snapshots");
  const MatX weighted = weight * snapshots;
  return Decompose(snapshots, &weighted, options);
}

PodResult WeightedPod(const MatX& snapshots, const MatX& weighted_snapshots,
                      const PodOptions& options) {
  return Decompose(snapshots, &weighted_snapshots, options);
}

VecX PovRatio(const VecX& values) {
  JD_CHECK(values.size() > 0 && values.minCoeff() >= 0.0, "PovRatio: POVs must be >= 0");
  VecX ratio(values.size());
  double sum = 0.0;
  for (Eigen::Index i = 0; i < values.size(); ++i) ratio(i) = sum += values(i);
  JD_CHECK(sum > 0.0, "PovRatio: the POVs are all zero");
  return ratio / sum;
}

int ModesForRatio(const VecX& ratio, double target) {
  JD_CHECK(target > 0.0 && target <= 1.0, "ModesForRatio: target must be in (0, 1]");
  for (Eigen::Index g = 0; g < ratio.size(); ++g) {
    if (ratio(g) >= target) return static_cast<int>(g) + 1;
  }
  return static_cast<int>(ratio.size());
}

}  // namespace jointdyn::reduction
