// POD and weighted POD against singular value decompositions (Eigen's BDCSVD and
// JacobiSVD as independent computations) of matrices with known singular values, the
// normalization of eq. 3.47 / 3.52, and the POV ratio w(g) of eq. 3.61 in closed form.
#include "reduction/pod.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <random>

namespace jointdyn::reduction {
namespace {

// n x p matrix with orthonormal columns (QR of a random matrix, fixed seed).
MatX RandomOrthonormal(int n, int p, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  MatX a(n, p);
  for (int j = 0; j < p; ++j)
    for (int i = 0; i < n; ++i) a(i, j) = normal(rng);
  return Eigen::HouseholderQR<MatX>(a).householderQ() * MatX::Identity(n, p);
}

// Y = U diag(sigma) V^T with known left singular vectors U (n x k) and values sigma.
MatX KnownSvd(const MatX& u, const VecX& sigma, int p, unsigned seed) {
  return u * sigma.asDiagonal() *
         RandomOrthonormal(p, static_cast<int>(sigma.size()), seed).transpose();
}

// Largest sine of the principal angles between the column spaces of orthonormal a and b.
double SubspaceDistance(const MatX& a, const MatX& b) {
  return (b - a * (a.transpose() * b)).norm();
}

TEST(Pod, MatchesTheSvdOfATallMatrix) {
  // sigma_i = 2^-i, i = 0 .. 29: POVs 4^-i down to 1e-18, of which the 17 above
  // rank_tolerance 1e-10 * lambda_1 count.
  const int n = 200, p = 30;
  VecX sigma(p);
  for (int i = 0; i < p; ++i) sigma(i) = std::pow(2.0, -i);
  const MatX u = RandomOrthonormal(n, p, 1);
  const MatX y = KnownSvd(u, sigma, p, 2);
  const PodResult pod = Pod(y, {.normalize_columns = false});
  ASSERT_TRUE(pod.status) << pod.status.message;
  EXPECT_FALSE(pod.used_svd);  // tall: Gram matrix
  EXPECT_EQ(pod.rank, 17);
  ASSERT_EQ(pod.modes.cols(), 17);
  ASSERT_EQ(pod.values.size(), p);
  const Eigen::BDCSVD<MatX> svd(y, Eigen::ComputeThinU);
  for (int i = 0; i < p; ++i) {
    const double reference = i < 17 ? std::pow(svd.singularValues()(i), 2) : 0.0;
    // Gram matrix rounding: about n * eps * lambda_1 absolute.
    EXPECT_NEAR(pod.values(i), reference, 1e-13) << i;
    EXPECT_NEAR(pod.values(i), i < 17 ? sigma(i) * sigma(i) : 0.0, 1e-13) << i;
  }
  // Orthonormal modes; leading subspaces equal the SVD's (and the construction's) where
  // the POVs are well above rounding.
  EXPECT_LT((pod.modes.transpose() * pod.modes - MatX::Identity(17, 17)).cwiseAbs().maxCoeff(),
            1e-12);
  for (int g : {1, 5, 10}) {
    EXPECT_LT(SubspaceDistance(svd.matrixU().leftCols(g), pod.modes.leftCols(g)), 1e-9) << g;
    EXPECT_LT(SubspaceDistance(u.leftCols(g), pod.modes.leftCols(g)), 1e-9) << g;
  }
  // Asking for more modes than the rank is a failure naming both.
  const PodResult too_many = Pod(y, {.modes = 18, .normalize_columns = false});
  ASSERT_FALSE(too_many.status);
  EXPECT_NE(too_many.status.message.find("18 modes asked, but the snapshots have rank 17"),
            std::string::npos)
      << too_many.status.message;
}

TEST(Pod, UsesTheSvdForAWideMatrix) {
  const int n = 20, p = 50;
  VecX sigma(n);
  for (int i = 0; i < n; ++i) sigma(i) = 1.0 / (1.0 + i);
  const MatX y = KnownSvd(RandomOrthonormal(n, n, 3), sigma, p, 4);
  const PodResult pod = Pod(y, {.modes = 8, .normalize_columns = false});
  ASSERT_TRUE(pod.status) << pod.status.message;
  EXPECT_TRUE(pod.used_svd);
  EXPECT_EQ(pod.rank, n);
  const Eigen::JacobiSVD<MatX> reference(y, Eigen::ComputeThinU);
  for (int i = 0; i < n; ++i)
    EXPECT_NEAR(pod.values(i), std::pow(reference.singularValues()(i), 2), 1e-13);
  for (int i = n; i < p; ++i) EXPECT_EQ(pod.values(i), 0.0);
  EXPECT_LT(SubspaceDistance(reference.matrixU().leftCols(8), pod.modes), 1e-10);
}

TEST(Pod, NormalizedColumnsCountByDirectionOnly) {
  // Eq. 3.47: with every column scaled to unit norm, scaling a snapshot changes nothing,
  // and the POVs sum to the trace of the normalized Gram matrix: the number of nonzero
  // columns.
  const int n = 60, p = 12;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> size(0.01, 100.0);
  MatX y = RandomOrthonormal(n, p, 5) * MatX::Random(p, p);
  const PodResult reference = Pod(y);
  ASSERT_TRUE(reference.status) << reference.status.message;
  for (int j = 0; j < p; ++j) y.col(j) *= size(rng);
  MatX with_zero(n, p + 1);
  with_zero << y, VecX::Zero(n);
  const PodResult scaled = Pod(with_zero);
  ASSERT_TRUE(scaled.status) << scaled.status.message;
  EXPECT_EQ(scaled.zero_columns, 1);
  EXPECT_EQ(reference.zero_columns, 0);
  EXPECT_NEAR(scaled.values.sum(), p, 1e-10 * p);
  EXPECT_LT((scaled.values.head(p) - reference.values).cwiseAbs().maxCoeff(), 1e-12 * p);
  EXPECT_LT(SubspaceDistance(reference.modes.leftCols(4), scaled.modes.leftCols(4)), 1e-9);
}

// A sparse symmetric positive definite weight (diagonally dominant, fixed seed).
solvers::SparseMatrix SpdWeight(int n) {
  MatX w = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    w(i, i) = 4.0 + (i % 7);
    if (i + 1 < n) w(i, i + 1) = w(i + 1, i) = -1.0;
    if (i + 5 < n) w(i, i + 5) = w(i + 5, i) = 0.5;
  }
  return w.sparseView();
}

TEST(WeightedPod, ModesAreWeightOrthonormalAndMatchTheSvdOfTheScaledSnapshots) {
  // Weighted POD of Y in the inner product of W = L L^T is the POD of L^T Y: the POVs are
  // the squared singular values of L^T Ybar (Ybar: columns of unit W-norm).
  const int n = 150, p = 20;
  const solvers::SparseMatrix w = SpdWeight(n);
  VecX sigma(p);
  for (int i = 0; i < p; ++i) sigma(i) = std::pow(0.6, i);
  const MatX y = KnownSvd(RandomOrthonormal(n, p, 8), sigma, p, 9);
  const PodResult pod = WeightedPod(y, w);
  ASSERT_TRUE(pod.status) << pod.status.message;
  const int g = pod.rank;
  EXPECT_EQ(g, p);
  EXPECT_LT((pod.modes.transpose() * w * pod.modes - MatX::Identity(g, g)).cwiseAbs().maxCoeff(),
            1e-12);
  const MatX w_dense(w);
  const Eigen::LLT<MatX> llt(w_dense);
  MatX scaled = llt.matrixU() * y;                                    // L^T Y
  for (int j = 0; j < p; ++j) scaled.col(j) /= scaled.col(j).norm();  // unit W-norm columns
  const Eigen::BDCSVD<MatX> svd(scaled, Eigen::ComputeThinU);
  for (int i = 0; i < p; ++i)
    EXPECT_NEAR(pod.values(i), std::pow(svd.singularValues()(i), 2), 1e-12 * pod.values(0)) << i;
  // The modes, mapped by L^T, span the SVD's leading subspaces.
  const MatX mapped = llt.matrixU() * pod.modes;
  for (int k : {1, 3, 6})
    EXPECT_LT(SubspaceDistance(svd.matrixU().leftCols(k), mapped.leftCols(k)), 1e-8) << k;
}

TEST(WeightedPod, ASingularWeightIgnoresItsNullSpace) {
  // W = D^T D with D the first-difference matrix: positive semidefinite, null space the
  // constant vector (like K of a free structure and a rigid translation). Adding constant
  // vectors to the snapshots changes neither the POVs nor the W-orthonormality.
  const int n = 80, p = 10;
  MatX d = MatX::Zero(n - 1, n);
  for (int i = 0; i < n - 1; ++i) {
    d(i, i) = -1.0;
    d(i, i + 1) = 1.0;
  }
  const solvers::SparseMatrix w = MatX(d.transpose() * d).sparseView();
  const MatX y = RandomOrthonormal(n, p, 10) * MatX::Random(p, p);
  const MatX shifted = y + VecX::Ones(n) * VecX::LinSpaced(p, -3.0, 5.0).transpose();
  const PodResult a = WeightedPod(y, w), b = WeightedPod(shifted, w);
  ASSERT_TRUE(a.status) << a.status.message;
  ASSERT_TRUE(b.status) << b.status.message;
  EXPECT_LT((a.values - b.values).cwiseAbs().maxCoeff(), 1e-11 * a.values(0));
  EXPECT_LT(
      (b.modes.transpose() * w * b.modes - MatX::Identity(b.rank, b.rank)).cwiseAbs().maxCoeff(),
      1e-10);
  // A weight that is not positive semidefinite is reported.
  const solvers::SparseMatrix negative = -w;
  const PodResult bad = WeightedPod(y, negative);
  ASSERT_FALSE(bad.status);
  EXPECT_NE(bad.status.message.find("not positive semidefinite"), std::string::npos)
      << bad.status.message;
}

// Snapshots from static solves W Y = F with forces on few rows (like TVDs and their fictive
// forces): the weighted POD from F (reading only F's nonzero rows) equals the one that
// forms W Y, and the unweighted POD of F (its nonzero rows only) equals the SVD of F, with
// modes zero on the rows F does not load.
// More snapshots (24) than loaded rows (20): the Gram matrix's eigenproblem on its range
// (pod.cc: GramEigenpairs) against the p x p one of the full weight.
TEST(WeightedPod, FromTheRightHandSidesOfStaticSolvesReadsOnlyTheirNonzeroRows) {
  const int n = 150, p = 24, loaded = 20;
  const solvers::SparseMatrix w = SpdWeight(n);
  MatX f = MatX::Zero(n, p);
  const MatX on_rows = RandomOrthonormal(loaded, loaded, 13) * MatX::Random(loaded, p);
  for (int r = 0; r < loaded; ++r) f.row(7 * r + 3) = on_rows.row(r);  // rows 3, 10, .., 136
  const MatX y = MatX(w).llt().solve(f);
  const PodResult by_weight = WeightedPod(y, w), by_forces = WeightedPod(y, f);
  ASSERT_TRUE(by_weight.status) << by_weight.status.message;
  ASSERT_TRUE(by_forces.status) << by_forces.status.message;
  EXPECT_EQ(by_forces.rank, loaded);
  EXPECT_EQ(by_weight.rank, by_forces.rank);
  EXPECT_LT((by_weight.values - by_forces.values).cwiseAbs().maxCoeff(),
            1e-12 * by_weight.values(0));
  const int g = by_forces.rank;
  EXPECT_LT((by_forces.modes.transpose() * w * by_forces.modes - MatX::Identity(g, g))
                .cwiseAbs()
                .maxCoeff(),
            1e-12);
  // Equal leading subspaces (W-orthonormal bases: compare their L^T images).
  const Eigen::LLT<MatX> llt{MatX(w)};
  const MatX a = llt.matrixU() * by_weight.modes, b = llt.matrixU() * by_forces.modes;
  for (int k : {1, 5, 10}) EXPECT_LT(SubspaceDistance(a.leftCols(k), b.leftCols(k)), 1e-9) << k;

  const PodResult forces = Pod(f, {.normalize_columns = false});
  ASSERT_TRUE(forces.status) << forces.status.message;
  EXPECT_FALSE(forces.used_svd);
  ASSERT_EQ(forces.rank, loaded);
  const Eigen::BDCSVD<MatX> svd(f, Eigen::ComputeThinU);
  for (int i = 0; i < loaded; ++i)
    EXPECT_NEAR(forces.values(i), std::pow(svd.singularValues()(i), 2), 1e-12 * forces.values(0))
        << i;
  for (int k : {1, 5, 10})
    EXPECT_LT(SubspaceDistance(svd.matrixU().leftCols(k), forces.modes.leftCols(k)), 1e-9) << k;
  for (int r = 0; r < n; ++r) {
    if (r % 7 != 3 || r > 7 * (loaded - 1) + 3) {
      EXPECT_EQ(forces.modes.row(r).norm(), 0.0) << r;
    }
  }
}

TEST(PovRatio, ClosedFormOfAGeometricSpectrum) {
  EXPECT_TRUE(PovRatio(VecX::Constant(1, 2.0)).isApproxToConstant(1.0));
  VecX values(4);
  values << 4.0, 3.0, 2.0, 1.0;
  const VecX ratio = PovRatio(values);
  VecX expected(4);
  expected << 0.4, 0.7, 0.9, 1.0;
  EXPECT_LT((ratio - expected).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_EQ(ModesForRatio(ratio, 0.7), 2);
  EXPECT_EQ(ModesForRatio(ratio, 0.71), 3);
  EXPECT_EQ(ModesForRatio(ratio, 1.0), 4);
  // From a POD: POVs 2^-i, i = 0 .. 9, give w(g) = (1 - 2^-g) / (1 - 2^-10).
  const int n = 50, p = 10;
  VecX sigma(p);
  for (int i = 0; i < p; ++i) sigma(i) = std::pow(2.0, -0.5 * i);
  const PodResult pod =
      Pod(KnownSvd(RandomOrthonormal(n, p, 11), sigma, p, 12), {.normalize_columns = false});
  ASSERT_TRUE(pod.status) << pod.status.message;
  for (int g = 1; g <= p; ++g)
    EXPECT_NEAR(pod.ratio(g - 1), (1.0 - std::pow(2.0, -g)) / (1.0 - std::pow(2.0, -p)), 1e-13);
  EXPECT_EQ(pod.modes.cols(), p);  // target_ratio 1: every mode above the rank tolerance
  // The POD picks g from the ratio: w(3) = 0.876 < 0.9 <= w(4) = 0.938; max_modes caps it.
  const MatX y = KnownSvd(RandomOrthonormal(n, p, 11), sigma, p, 12);
  const PodResult by_ratio = Pod(y, {.target_ratio = 0.9, .normalize_columns = false});
  const PodResult capped =
      Pod(y, {.target_ratio = 0.9, .max_modes = 3, .normalize_columns = false});
  ASSERT_TRUE(by_ratio.status) << by_ratio.status.message;
  ASSERT_TRUE(capped.status) << capped.status.message;
  EXPECT_EQ(by_ratio.modes.cols(), 4);
  EXPECT_EQ(capped.modes.cols(), 3);
  EXPECT_LT((capped.modes - by_ratio.modes.leftCols(3)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_FALSE(Pod(y, {.target_ratio = 0.0}).status);
  EXPECT_FALSE(Pod(y, {.max_modes = -1}).status);
}

TEST(Pod, ReportsZeroSnapshotsAndBadOptions) {
  const PodResult zero = Pod(MatX::Zero(10, 3));
  ASSERT_FALSE(zero.status);
  EXPECT_NE(zero.status.message.find("all zero"), std::string::npos) << zero.status.message;
  const PodResult bad = Pod(MatX::Identity(10, 3), {.rank_tolerance = 0.0});
  ASSERT_FALSE(bad.status);
  EXPECT_NE(bad.status.message.find("pod.rank_tolerance = 0"), std::string::npos);
}

}  // namespace
}  // namespace jointdyn::reduction
