// Loads on reference nodes (key `loads`): the assembled vector T^T f carries exactly the
// given resultants, through a distributing coupling (spread over the face nodes) and a
// rigid coupling (kept on the independent reference node). Bad input is covered by
// tests/bad_models/fe_load_*.yaml.
#include <gtest/gtest.h>

#include "model/fe_reader.h"

namespace jointdyn::model {
namespace {

// A free hex20 box with a distributing coupling at xmax and a rigid one at xmin.
constexpr const char* kCoupledBox = R"(
mesh:
  generate: {structure: box, element: hex20, dimensions: [0.1, 0.02, 0.01], divisions: [4, 2, 2]}
materials:
  box: {E: 210.0e9, nu: 0.3, rho: 7850.0}
reference_nodes:
  - {name: tip, at: xmax}
  - {name: base, position: [-0.01, 0.004, 0.003]}
couplings:
  - {type: distributing, reference: tip, set: xmax}
  - {type: rigid, reference: base, set: xmin}
)";

fe::FeModel Build(const std::string& text, fe::FeModelSpec& spec) {
  const ModelNode root = ModelNode::LoadString(text, "loads.yaml");
  spec = ReadFeModelSpec(root);
  root.Finish();
  return fe::BuildFeModel(spec);
}

TEST(FeLoads, ResultantsThroughDistributingAndRigidCouplings) {
  fe::FeModelSpec spec;
  const fe::FeModel model = Build(std::string(kCoupledBox) + R"(loads:
  - {node: tip, force: [1.0, -2.0, 3.0], moment: [0.4, -0.5, 0.6]}
  - {node: base, force: [-7.0, 8.0, 9.0], moment: [0.1, 0.2, 0.3]}
  - {node: tip, force: [10.0, 0.0, 0.0]}
)",
                                  spec);
  ASSERT_EQ(spec.loads.size(), 3u);
  const VecX f = fe::AssembleLoads(model, spec.loads);
  const fe::DofMap& dofs = *model.dofs;
  ASSERT_EQ(f.size(), dofs.num_free_dofs());

  // The rigid coupling's reference node is independent: its load stays there unchanged.
  const Vec3 base_force(-7.0, 8.0, 9.0), base_moment(0.1, 0.2, 0.3);
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(f(dofs.FreeIndex(dofs.ReferenceDof("base", c))), base_force(c));
    EXPECT_EQ(f(dofs.FreeIndex(dofs.ReferenceDof("base", 3 + c))), base_moment(c));
  }
  // The distributing coupling's reference DOFs are dependent: its load reaches the face
  // nodes only, with the resultant force and the moment about the reference node exact
  // (constraints.h: sum f_i = F, sum (x_i - x_r) x f_i = M).
  EXPECT_EQ(dofs.FreeIndex(dofs.ReferenceDof("tip", 0)), -1);
  const Vec3 tip_force(11.0, -2.0, 3.0), tip_moment(0.4, -0.5, 0.6);
  const Vec3 tip_position = model.reference_nodes[0].position;
  EXPECT_NEAR(tip_position.x(), 0.1, 1e-15);
  const std::vector<int> face = model.mesh.FaceSetNodes("xmax");
  Vec3 force = Vec3::Zero(), moment = Vec3::Zero();
  int loaded_elsewhere = 0;
  for (int n = 0; n < model.mesh.num_nodes(); ++n) {
    Vec3 fn = Vec3::Zero();
    for (int c = 0; c < 3; ++c) {
      const int k = dofs.FreeIndex(dofs.MeshDof(n, c));
      if (k >= 0) fn(c) = f(k);
    }
    if (!std::binary_search(face.begin(), face.end(), n)) {
      loaded_elsewhere += fn != Vec3::Zero();
      continue;
    }
    force += fn;
    moment += (model.mesh.nodes.row(n).transpose() - tip_position).cross(fn);
  }
  EXPECT_EQ(loaded_elsewhere, 0);
  EXPECT_LT((force - tip_force).norm(), 1e-13 * tip_force.norm());
  EXPECT_LT((moment - tip_moment).norm(), 1e-13 * tip_moment.norm());
}

// The influence vector of a base motion (fe::RigidTranslation) on the free box with its
// couplings: a rigid motion of the independent DOFs (K r = 0 to rounding: the couplings'
// dependent DOFs follow it), with the box's mass as its inertia r^T M r (rho V = 7850 x
// 2e-5 m^3 = 0.157 kg; the reference nodes carry none).
TEST(FeLoads, RigidTranslationIsARigidMotionCarryingTheMass) {
  fe::FeModelSpec spec;
  const fe::FeModel model = Build(kCoupledBox, spec);
  const solvers::SparseMatrix k = model.ReducedStiffness(), m = model.ReducedMass();
  for (const Vec3& direction : {Vec3(1.0, 0.0, 0.0), Vec3(0.0, 0.0, 1.0), Vec3(0.6, -0.8, 0.0)}) {
    const VecX r = fe::RigidTranslation(model, direction);
    ASSERT_EQ(r.size(), model.dofs->num_free_dofs());
    const VecX kr = k * r;
    EXPECT_LT(kr.cwiseAbs().maxCoeff(), 1e-12 * VecX(k.cwiseAbs() * r.cwiseAbs()).maxCoeff());
    EXPECT_NEAR(r.dot(m * r), 7850.0 * 0.1 * 0.02 * 0.01, 1e-12);
  }
}

TEST(FeLoads, OutOfPlaneLoadInA2dModelIsAnInputError) {
  fe::FeModelSpec spec;
  const fe::FeModel model = Build(R"(
mesh:
  generate: {structure: rectangle, element: quad4, dimensions: [0.1, 0.02], divisions: [4, 2]}
materials:
  rectangle: {E: 210.0e9, nu: 0.3, rho: 7850.0, thickness: 0.01}
reference_nodes:
  - {name: tip, at: xmax}
couplings:
  - {type: distributing, reference: tip, set: xmax}
loads:
  - {node: tip, force: [1.0, 2.0, 0.0], moment: [0.0, 0.0, 0.5]}
  - {node: tip, force: [0.0, 0.0, 1.0]}
)",
                                  spec);
  try {
    fe::AssembleLoads(model, spec.loads);
    FAIL() << "a load along z in a 2D model was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.key(), "loads[1]");
    EXPECT_EQ(error.value(), "tip");
    EXPECT_NE(error.rule().find("in-plane loads only"), std::string::npos) << error.what();
  }
  // The in-plane load alone is fine: its force resultant reaches the edge nodes.
  const VecX f = fe::AssembleLoads(model, {spec.loads[0]});
  Vec2 force = Vec2::Zero();
  for (int n = 0; n < model.mesh.num_nodes(); ++n)
    for (int c = 0; c < 2; ++c)
      if (const int k = model.dofs->FreeIndex(model.dofs->MeshDof(n, c)); k >= 0) force(c) += f(k);
  EXPECT_LT((force - Vec2(1.0, 2.0)).norm(), 1e-13);
}

}  // namespace
}  // namespace jointdyn::model
