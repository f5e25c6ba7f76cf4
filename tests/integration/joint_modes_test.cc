// Joint modes from the TVDs of two touching plates (joint_test_model.h): the three methods
// of joint_modes.h against independent dense computations (eq. 3.57, eq. 3.55-3.60 with a
// dense compliance C = K_c^-1), the POV-ratio choice of g, and ExtendBasis.
#include "reduction/joint_modes.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <cmath>
#include <cstdio>

#include "joint_test_model.h"

namespace jointdyn::reduction {
namespace {

using test::JointedPlates;

struct Stage {
  JointedPlates model = test::MakeJointedPlates();
  TvdResult tvd;
  Stage() {
    tvd = ComputeTrialVectorDerivatives(model.cb.basis.vectors, model.normals, model.zero_gap,
                                        model.Stiffness(), *model.cb.interior_factor,
                                        model.cb.interior_dofs);
    EXPECT_TRUE(tvd.status) << tvd.status.message;
  }
  JointModeResult Modes(const JointModeOptions& options) const {
    return ComputeJointModes(tvd, *model.cb.interior_factor, model.cb.interior_dofs, options);
  }
  MatX Free(const MatX& a) const {  // the interior rows
    MatX out(model.cb.interior_dofs.size(), a.cols());
    for (std::size_t r = 0; r < model.cb.interior_dofs.size(); ++r)
      out.row(r) = a.row(model.cb.interior_dofs[r]);
    return out;
  }
};

const Stage& TheStage() {
  static const Stage stage;
  return stage;
}

// Columns of a and b equal up to sign, to `tolerance` relative to each column's norm.
double ColumnsDifferenceUpToSign(const MatX& a, const MatX& b) {
  double worst = 0.0;
  for (Eigen::Index c = 0; c < a.cols(); ++c) {
    const double sign = a.col(c).dot(b.col(c)) < 0.0 ? -1.0 : 1.0;
    worst = std::max(worst, (a.col(c) - sign * b.col(c)).norm() / a.col(c).norm());
  }
  return worst;
}

TEST(JointModes, WeightedPodModesAreKcOrthonormal) {
  const Stage& stage = TheStage();
  const JointModeResult result = stage.Modes({.modes = 8});
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_EQ(result.modes.cols(), 8);
  const MatX free = stage.Free(result.modes);
  const MatX gram = free.transpose() * (stage.model.k_c * free);
  const double error = (gram - MatX::Identity(8, 8)).cwiseAbs().maxCoeff();
  std::printf("wPOD of TVDs: rank %d of %d, w(8) %.6f, |Phi_J^T K_c Phi_J - I|_max %.1e\n",
              result.rank, static_cast<int>(result.values.size()), result.ratio(7), error);
  EXPECT_LT(error, 1e-12);
  EXPECT_EQ(result.values.size(), stage.tvd.derivatives.cols());
  EXPECT_GT(result.pod_seconds, 0.0);
  // Zero on the held rows.
  EXPECT_NEAR(result.modes.squaredNorm(), free.squaredNorm(), 1e-14 * free.squaredNorm());
}

// Algorithm 3.3: phi_J = K_c^-1 f_J with f_J the POD modes of the normalized forces.
TEST(JointModes, PodOfForcesIsTheCompliantResponseToThePodModesOfF) {
  const Stage& stage = TheStage();
  const JointModeResult result = stage.Modes({.method = JointModeMethod::kPodOfForces, .modes = 6});
  ASSERT_TRUE(result.status) << result.status.message;
  const PodResult forces = Pod(stage.Free(stage.tvd.forces), {.modes = 6});
  ASSERT_TRUE(forces.status);
  const MatX k_c = MatX(stage.model.k_c);
  const MatX expected = k_c.llt().solve(forces.modes);
  const double difference = ColumnsDifferenceUpToSign(expected, stage.Free(result.modes));
  std::printf("POD of forces vs dense K_c^-1 f_J: %.1e\n", difference);
  EXPECT_LT(difference, 1e-10);
  EXPECT_EQ(result.values, forces.values);
  EXPECT_GT(result.solve_seconds, 0.0);
}

// Eq. 3.59: weighted POD of the TVDs (W = K_c) and weighted POD of the forces with the
// compliance C = K_c^-1 (formed densely here) solve the same eigenproblem: same POVs, and
// phi_J = K_c^-1 f_J (eq. 3.60) gives the same modes.
TEST(JointModes, WeightedPodOfTvdsEqualsCompliancePodOfForces) {
  const Stage& stage = TheStage();
  const int g = 6;
  const JointModeResult tvds = stage.Modes({.modes = g});
  ASSERT_TRUE(tvds.status) << tvds.status.message;
  const MatX k_c = MatX(stage.model.k_c);
  const MatX compliance = k_c.llt().solve(MatX::Identity(k_c.rows(), k_c.cols()));
  const solvers::SparseMatrix c = compliance.sparseView();
  const PodResult forces = WeightedPod(stage.Free(stage.tvd.forces), c, {.modes = g});
  ASSERT_TRUE(forces.status) << forces.status.message;
  ASSERT_EQ(forces.rank, tvds.rank);
  const double pov_error =
      (forces.values.head(tvds.rank) - tvds.values.head(tvds.rank)).norm() / tvds.values.norm();
  const MatX modes = compliance * forces.modes;
  const double mode_error = ColumnsDifferenceUpToSign(modes, stage.Free(tvds.modes));
  std::printf("eq. 3.59: POVs %.1e, first %d modes %.1e (rank %d)\n", pov_error, g, mode_error,
              tvds.rank);
  EXPECT_LT(pov_error, 1e-10);
  EXPECT_LT(mode_error, 1e-7);
}

TEST(JointModes, RatioChoosesTheNumberOfModes) {
  const Stage& stage = TheStage();
  for (double target : {0.9, 0.99}) {
    const JointModeResult result =
        stage.Modes({.method = JointModeMethod::kPodOfTvds, .modes = 0, .target_ratio = target});
    ASSERT_TRUE(result.status) << result.status.message;
    const int g = static_cast<int>(result.modes.cols());
    std::printf("POD of TVDs, w(g) >= %.2f: g = %d (w = %.4f)\n", target, g, result.ratio(g - 1));
    ASSERT_GE(g, 2);
    EXPECT_GE(result.ratio(g - 1), target);
    EXPECT_LT(result.ratio(g - 2), target);
    // Unweighted POD: Euclidean-orthonormal modes.
    EXPECT_LT(
        (result.modes.transpose() * result.modes - MatX::Identity(g, g)).cwiseAbs().maxCoeff(),
        1e-12);
  }
}

TEST(JointModes, RejectBadOptionsAndTooManyModes) {
  const Stage& stage = TheStage();
  const JointModeResult ratio = stage.Modes({.target_ratio = 1.5});
  EXPECT_FALSE(ratio.status);
  EXPECT_NE(ratio.status.message.find("joint_modes.target_ratio = 1.5: must be in (0, 1]"),
            std::string::npos)
      << ratio.status.message;
  const JointModeResult modes = stage.Modes({.modes = -1});
  EXPECT_NE(modes.status.message.find("joint_modes.modes = -1"), std::string::npos);
  const JointModeResult too_many = stage.Modes({.modes = 100000});
  EXPECT_FALSE(too_many.status);
  EXPECT_NE(too_many.status.message.find("wPOD of TVDs"), std::string::npos)
      << too_many.status.message;
}

TEST(JointModes, ExtendBasisOrthogonalizesAndDropsDependentModes) {
  const Stage& stage = TheStage();
  const JointModeResult result = stage.Modes({.modes = 5});
  ASSERT_TRUE(result.status);
  const ReductionBasis& basis = stage.model.cb.basis;
  const int m = basis.size();
  // Two joint modes, a vector of the basis itself (dependent), another joint mode.
  MatX modes(result.modes.rows(), 4);
  modes << result.modes.leftCols(2), basis.vectors.col(1), result.modes.col(2);
  const ExtendResult extended =
      ExtendBasis(basis, modes, stage.model.k, VectorKind::kJointMode, "joint");
  ASSERT_TRUE(extended.status);
  EXPECT_EQ(extended.dropped, 1);
  ASSERT_EQ(extended.basis.size(), m + 3);
  EXPECT_EQ(extended.basis.Count(VectorKind::kJointMode), 3);
  EXPECT_EQ(extended.basis.columns[m].name, "joint_1");
  EXPECT_EQ(extended.basis.columns[m + 2].name, "joint_3");
  EXPECT_EQ(extended.basis.vectors.leftCols(m), basis.vectors);
  const MatX joint = extended.basis.vectors.rightCols(3);
  const MatX k_joint = stage.model.k * joint;
  // K-orthogonal to the basis (relative to the K-norms of both) and K-orthonormal.
  const MatX coupling = basis.vectors.transpose() * k_joint;
  double worst = 0.0;
  for (int j = 0; j < m; ++j) {
    const double norm = std::sqrt(basis.vectors.col(j).dot(stage.model.k * basis.vectors.col(j)));
    worst = std::max(worst, coupling.row(j).cwiseAbs().maxCoeff() / norm);
  }
  const double orthonormal =
      (joint.transpose() * k_joint - MatX::Identity(3, 3)).cwiseAbs().maxCoeff();
  std::printf("ExtendBasis: |V^T K phi_J| / |V|_K %.1e, |Phi_J^T K Phi_J - I| %.1e\n", worst,
              orthonormal);
  EXPECT_LT(worst, 1e-10);  // rounding: measured 1.7e-12
  EXPECT_LT(orthonormal, 1e-12);
  // The reduced stiffness of the extended basis is positive definite (clamped model).
  const MatX reduced = Project(extended.basis.vectors, stage.model.k);
  EXPECT_EQ(Eigen::LLT<MatX>(reduced).info(), Eigen::Success);
}

// A free structure (the plates without their support): with M, ExtendBasis makes the kept
// joint modes M-orthogonal to the rigid-body motions the CB basis spans, without changing
// the extended span; a column without K- or M-norm in the basis (here a zero vector) is
// no rigid motion and no failure.
TEST(JointModes, ExtendBasisOfAFreeStructureRemovesRigidMotion) {
  const test::JointedPlates model = test::MakeJointedPlates(4, true);
  const TvdResult tvd = ComputeTrialVectorDerivatives(
      model.cb.basis.vectors, model.normals, model.zero_gap, model.Stiffness(),
      *model.cb.interior_factor, model.cb.interior_dofs);
  ASSERT_TRUE(tvd.status) << tvd.status.message;
  const JointModeResult modes =
      ComputeJointModes(tvd, *model.cb.interior_factor, model.cb.interior_dofs, {.modes = 5});
  ASSERT_TRUE(modes.status) << modes.status.message;
  ReductionBasis basis = model.cb.basis;
  basis.Append(VecX::Zero(basis.num_dofs()), VectorKind::kJointMode, {"zero"});
  const int m = basis.size();
  const ExtendResult plain =
      ExtendBasis(basis, modes.modes, model.k, VectorKind::kJointMode, "joint");
  const ExtendResult with_mass =
      ExtendBasis(basis, modes.modes, model.k, VectorKind::kJointMode, "joint", 1e-8, &model.m);
  ASSERT_EQ(with_mass.basis.size(), plain.basis.size());
  const MatX joint = with_mass.basis.vectors.rightCols(with_mass.basis.size() - m);
  // The rigid-body motions: the free-free eigenvectors of the CB basis with eigenvalue ~0.
  const MatX v = model.cb.basis.vectors;
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eigen(MatX(v.transpose() * (model.k * v)),
                                                             MatX(v.transpose() * (model.m * v)));
  const MatX rigid = v * eigen.eigenvectors().leftCols(6);
  const double coupling = (rigid.transpose() * (model.m * joint)).cwiseAbs().maxCoeff() /
                          std::sqrt((joint.transpose() * (model.m * joint)).diagonal().maxCoeff());
  // The same span: the new columns lie in span(V, plain joint modes).
  const MatX span = plain.basis.vectors;
  const MatX residual = joint - span * span.colPivHouseholderQr().solve(joint);
  std::printf("free ExtendBasis: |R^T M phi_J| / |phi_J|_M %.1e, off the plain span %.1e\n",
              coupling, residual.norm() / joint.norm());
  EXPECT_LT(coupling, 1e-8);
  EXPECT_LT(residual.norm() / joint.norm(), 1e-8);
}

}  // namespace
}  // namespace jointdyn::reduction
