#include "joint/contact_kinematics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "fe/contact_surface.h"
#include "joint/test/joint_test_util.h"

namespace jointdyn::joint {
namespace {

// Two 0.2 x 0.1 x 0.05 m boxes, the upper one `gap` above the lower; upper divisions
// `upper_divisions` x 2 x 1 (3 x 2 x 1 below: equal = coincident interface nodes).
struct Stack {
  fe::Mesh mesh;
  fe::PairingResult pairing;
  ContactKinematics kinematics;
};

Stack MakeStack(int upper_divisions, double gap) {
  fe::BoxMeshOptions lower{.size = Vec3(0.2, 0.1, 0.05), .divisions = {3, 2, 1}};
  fe::BoxMeshOptions upper = lower;
  upper.divisions = {upper_divisions, 3, 1};
  if (upper_divisions == 3) upper.divisions = lower.divisions;
  Stack s;
  s.mesh = test::StackBoxes(lower, upper, gap);
  s.pairing =
      fe::PairSurfaces(s.mesh, fe::SurfaceFromFaceSet(s.mesh, "upper_zmin"),
                       fe::SurfaceFromFaceSet(s.mesh, "lower_zmax"), {.search_distance = 0.01});
  s.kinematics = BuildContactKinematics(s.mesh, s.pairing);
  return s;
}

// u = a + theta x X on the nodes of `block` (all blocks when empty).
VecX RigidMotion(const fe::Mesh& mesh, const Vec3& a, const Vec3& theta, const std::string& block) {
  VecX u = VecX::Zero(3 * mesh.num_nodes());
  for (const fe::ElementBlock& b : mesh.blocks) {
    if (!block.empty() && b.name != block) continue;
    for (int node : b.connectivity)
      u.segment<3>(3 * node) = a + theta.cross(Vec3(mesh.nodes.row(node).transpose()));
  }
  return u;
}

class Kinematics : public ::testing::TestWithParam<int> {};

TEST_P(Kinematics, RigidMotionGivesNoRelativeDisplacement) {
  const Stack s = MakeStack(GetParam(), 0.0);
  ASSERT_EQ(s.kinematics.relative.num_pairs(), static_cast<int>(s.pairing.pairs.size()));
  // Translation and (linearized) rotation of both bodies together: the slave node and its
  // master point X^M coincide and move alike (the master interpolation is exact for
  // fields linear in X). Reference: |u| ~ 1e-3 m, rounding ~1e-16 relative.
  const VecX u = RigidMotion(s.mesh, Vec3(1e-3, -2e-3, 0.5e-3), Vec3(0.01, -0.02, 0.03), "");
  VecX z;
  s.kinematics.relative.Apply(u, z);
  EXPECT_LT(z.lpNorm<Eigen::Infinity>(), 1e-17);
  EXPECT_LT(s.kinematics.initial_gap.lpNorm<Eigen::Infinity>(), 1e-15);
  EXPECT_NEAR(s.kinematics.area.sum(), 0.2 * 0.1, 1e-15);
}

TEST_P(Kinematics, RelativeTranslationGivesItsFrameComponents) {
  const Stack s = MakeStack(GetParam(), 0.0);
  // Upper body moved by d, lower at rest: every pair sees u_S - u_M = d; on the flat
  // interface the frame is t1 = x (the reference tangent), t2 = n x t1 = y, n = z (the
  // master's outward normal), so z_i = (d_x, d_y, d_z) exactly.
  const Vec3 d(1e-3, 2e-3, -3e-3);
  VecX z;
  s.kinematics.relative.Apply(RigidMotion(s.mesh, d, Vec3::Zero(), "upper"), z);
  for (int i = 0; i < s.kinematics.relative.num_pairs(); ++i) {
    ASSERT_NEAR(z(3 * i), d.x(), 1e-17) << "pair " << i;
    ASSERT_NEAR(z(3 * i + 1), d.y(), 1e-17) << "pair " << i;
    ASSERT_NEAR(z(3 * i + 2), d.z(), 1e-17) << "pair " << i;
  }
  // Moving the master instead gives the opposite sign (slave minus master).
  s.kinematics.relative.Apply(RigidMotion(s.mesh, d, Vec3::Zero(), "lower"), z);
  EXPECT_NEAR(z(2), -d.z(), 1e-17);
}

TEST_P(Kinematics, InitialGapIsThePairingGapAndRestrictsToIndependentDofs) {
  const double gap = 2e-3;
  const Stack s = MakeStack(GetParam(), gap);
  for (int i = 0; i < s.kinematics.relative.num_pairs(); ++i)
    ASSERT_NEAR(s.kinematics.initial_gap(i), gap, 1e-15);
  // R T q equals R (T q): the lower block clamped at its bottom, the upper coupled rigidly
  // to a reference node.
  fe::ConstraintSpec spec;
  spec.reference_nodes = {{"ref", Vec3(0.1, 0.05, 0.1)}};
  spec.supports = {{"lower_zmin", {}}};
  spec.couplings = {{fe::CouplingKind::kRigid, "ref", "upper_zmax"}};
  const fe::DofMap dofs(s.mesh, spec);
  const PairProjection on_q = OnIndependentDofs(s.kinematics.relative, dofs);
  ASSERT_TRUE(on_q.is_sparse());
  const VecX q = VecX::LinSpaced(dofs.num_free_dofs(), -1e-3, 2e-3);
  VecX direct, composed;
  s.kinematics.relative.Apply(dofs.Expand(q).head(dofs.num_mesh_dofs()), direct);
  on_q.Apply(q, composed);
  EXPECT_LT((direct - composed).lpNorm<Eigen::Infinity>(), 1e-17);
}

INSTANTIATE_TEST_SUITE_P(ConformingAndNonMatching, Kinematics, ::testing::Values(3, 4));

}  // namespace
}  // namespace jointdyn::joint
