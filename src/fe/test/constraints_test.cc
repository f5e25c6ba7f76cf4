// Supports and couplings: a rigid (RBE2-like) coupling moves its nodes rigidly and
// transmits a moment exactly; a distributing (RBE3-like) coupling spreads a force and a
// moment on its reference node over the face nodes with the exact resultants.
#include "fe/constraints.h"

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>

#include "core/error.h"
#include "fe/assembly.h"
#include "fe/structured_mesh.h"

namespace jointdyn::fe {
namespace {

const ElasticMaterial kSteel{210e9, 0.3, 7850.0, 1e-3};

Mesh Bar(ElementType type) {
  BoxMeshOptions options;
  options.size = Vec3(0.1, 0.02, 0.01);
  options.divisions = {4, 2, 2};
  options.type = type;
  options.distortion = 0.1;
  return MakeBoxMesh(options);
}

// Resultant force and moment about `centre` of the nodal forces f on the mesh DOFs of `nodes`.
std::pair<Vec3, Vec3> Resultant(const Mesh& mesh, const VecX& f, const std::vector<int>& nodes,
                                const Vec3& centre) {
  Vec3 force = Vec3::Zero(), moment = Vec3::Zero();
  for (int n : nodes) {
    const Vec3 fn(f(3 * n), f(3 * n + 1), f(3 * n + 2));
    force += fn;
    moment += (mesh.nodes.row(n).transpose() - centre).cross(fn);
  }
  return {force, moment};
}

TEST(RigidCoupling, MovesItsNodesRigidlyAndTransmitsAMomentExactly) {
  const Mesh mesh = Bar(ElementType::kHex20);
  const Vec3 tip(0.1, 0.01, 0.005);
  ConstraintSpec spec;
  spec.reference_nodes = {{"tip", tip}};
  spec.supports = {{"xmin", {}}};
  spec.couplings = {{CouplingKind::kRigid, "tip", "xmax"}};
  const DofMap dofs(mesh, spec);
  const AssemblyResult assembled = Assemble(mesh, {{"box", kSteel}}, {.mass = false});
  const solvers::SparseMatrix k = dofs.Reduce(assembled.stiffness);
  // A torque about x and a bending moment about y on the reference node [N m].
  const Vec3 moment(20.0, -5.0, 0.0);
  VecX load = VecX::Zero(dofs.num_dofs());
  for (int c = 0; c < 3; ++c) load(dofs.ReferenceDof("tip", 3 + c)) = moment(c);
  Eigen::SimplicialLDLT<solvers::SparseMatrix> solver(k);
  ASSERT_EQ(solver.info(), Eigen::Success);
  const VecX u = dofs.Expand(solver.solve(dofs.ReduceLoad(load)));

  // The face nodes follow u_r + theta x (x_i - x_r) to rounding.
  Vec3 ur, theta;
  for (int c = 0; c < 3; ++c) {
    ur(c) = u(dofs.ReferenceDof("tip", c));
    theta(c) = u(dofs.ReferenceDof("tip", 3 + c));
  }
  ASSERT_GT(theta.norm(), 0.0);
  double rigid_error = 0.0;
  for (int n : mesh.node_sets.at("xmax")) {
    const Vec3 expected = ur + theta.cross(mesh.nodes.row(n).transpose() - tip);
    rigid_error = std::max(rigid_error, (u.segment(3 * n, 3) - expected).norm());
  }
  EXPECT_LT(rigid_error, 1e-14 * theta.norm() * 0.1);

  // The elastic forces K u on the coupled face carry the moment; the clamp reacts it.
  const VecX f = assembled.stiffness * u.head(dofs.num_mesh_dofs());
  const auto [face_force, face_moment] = Resultant(mesh, f, mesh.node_sets.at("xmax"), tip);
  const auto [clamp_force, clamp_moment] = Resultant(mesh, f, mesh.node_sets.at("xmin"), tip);
  std::printf("rigid coupling: moment error %.2e N m (applied %.1f N m)\n",
              (face_moment - moment).norm(), moment.norm());
  // Rounding: |K| |u| x number of nodes ~ 1e-12 relative.
  EXPECT_LT((face_moment - moment).norm(), 1e-9 * moment.norm());
  EXPECT_LT(face_force.norm(), 1e-9 * moment.norm() / 0.01);
  EXPECT_LT((clamp_moment + moment).norm(), 1e-9 * moment.norm());
  EXPECT_LT(clamp_force.norm(), 1e-9 * moment.norm() / 0.01);
}

class DistributingCoupling : public ::testing::TestWithParam<ElementType> {};

TEST_P(DistributingCoupling, SpreadsForceAndMomentWithExactResultants) {
  const Mesh mesh = Bar(GetParam());
  const Vec3 point(0.12, 0.004, 0.003);  // off the face: forces and moments couple
  ConstraintSpec spec;
  spec.reference_nodes = {{"load", point}};
  spec.couplings = {{CouplingKind::kDistributing, "load", "xmax"}};
  const DofMap dofs(mesh, spec);
  const Vec3 force(3.0, -100.0, 40.0);  // [N]
  const Vec3 moment(20.0, 1.0, -2.0);   // [N m]
  VecX load = VecX::Zero(dofs.num_dofs());
  for (int c = 0; c < 3; ++c) {
    load(dofs.ReferenceDof("load", c)) = force(c);
    load(dofs.ReferenceDof("load", 3 + c)) = moment(c);
  }
  const VecX reduced = dofs.ReduceLoad(load);
  VecX nodal = VecX::Zero(dofs.num_mesh_dofs());
  for (int d = 0; d < dofs.num_mesh_dofs(); ++d) nodal(d) = reduced(dofs.FreeIndex(d));
  const auto [sum_force, sum_moment] = Resultant(mesh, nodal, mesh.node_sets.at("xmax"), point);
  std::printf("%s distributing coupling: force error %.2e N, moment error %.2e N m\n",
              Name(GetParam()), (sum_force - force).norm(), (sum_moment - moment).norm());
  EXPECT_LT((sum_force - force).norm(), 1e-12 * force.norm());
  EXPECT_LT((sum_moment - moment).norm(), 1e-12 * (moment.norm() + 0.05 * force.norm()));
  double elsewhere = 0.0;  // nodes off the face get nothing
  for (int n = 0; n < mesh.num_nodes(); ++n) {
    if (!std::binary_search(mesh.node_sets.at("xmax").begin(), mesh.node_sets.at("xmax").end(), n))
      elsewhere = std::max(elsewhere, nodal.segment(3 * n, 3).norm());
  }
  EXPECT_EQ(elsewhere, 0.0);

  // A rigid motion of the face is reproduced exactly by the reference node.
  const Vec3 translation(1e-4, -2e-4, 3e-4), rotation(1e-3, 2e-3, -1e-3);
  VecX q = VecX::Zero(dofs.num_free_dofs());
  for (int n = 0; n < mesh.num_nodes(); ++n) {
    const Vec3 un = translation + rotation.cross(mesh.nodes.row(n).transpose() - point);
    for (int c = 0; c < 3; ++c) q(dofs.FreeIndex(3 * n + c)) = un(c);
  }
  const VecX u = dofs.Expand(q);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(u(dofs.ReferenceDof("load", c)), translation(c), 1e-15);
    EXPECT_NEAR(u(dofs.ReferenceDof("load", 3 + c)), rotation(c), 1e-14);
  }
}

INSTANTIATE_TEST_SUITE_P(FaceTypes, DistributingCoupling,
                         ::testing::Values(ElementType::kHex8, ElementType::kHex20,
                                           ElementType::kTet4, ElementType::kTet10),
                         [](const auto& info) { return std::string(Name(info.param)); });

TEST(NodalAreas, SumToTheFaceAreaWithQuadraticCornerWeights) {
  const Mesh hex20 = Bar(ElementType::kHex20);
  double total = 0.0, corner = 1.0;
  for (const auto& [node, w] : NodalAreas(hex20, hex20.face_sets.at("xmax"))) {
    total += w;
    corner = std::min(corner, w);
  }
  EXPECT_NEAR(total, 0.02 * 0.01, 1e-18);
  EXPECT_LT(corner, 0.0);  // serendipity corners carry -1/12 of a face's area
}

TEST(DistributingCoupling, PlaneModelsUseInPlaneMotion) {
  RectangleMeshOptions options;
  options.size = Vec2(0.2, 0.05);
  options.divisions = {4, 2};
  options.type = ElementType::kQuad8;
  const Mesh mesh = MakeRectangleMesh(options);
  ConstraintSpec spec;
  spec.reference_nodes = {{"load", Vec3(0.2, 0.025, 0.0)}};
  spec.couplings = {{CouplingKind::kDistributing, "load", "xmax"}};
  const DofMap dofs(mesh, spec);
  // ux, uy, rz dependent; uz, rx, ry fixed: no reference DOF is free.
  for (int c = 0; c < 6; ++c) EXPECT_EQ(dofs.FreeIndex(dofs.ReferenceDof("load", c)), -1);
  VecX load = VecX::Zero(dofs.num_dofs());
  load(dofs.ReferenceDof("load", 1)) = -10.0;
  load(dofs.ReferenceDof("load", 5)) = 2.0;
  const VecX reduced = dofs.ReduceLoad(load);
  double fy = 0.0, mz = 0.0;
  for (int n : mesh.node_sets.at("xmax")) {
    const double f = reduced(dofs.FreeIndex(2 * n + 1));
    fy += f;
    mz +=
        (mesh.nodes(n, 0) - 0.2) * f - (mesh.nodes(n, 1) - 0.025) * reduced(dofs.FreeIndex(2 * n));
  }
  EXPECT_NEAR(fy, -10.0, 1e-12);
  EXPECT_NEAR(mz, 2.0, 1e-12);
}

TEST(DofMap, SupportsRemoveDofsAndReferenceNodesFollowTheMesh) {
  const Mesh mesh = Bar(ElementType::kHex8);
  ConstraintSpec spec;
  spec.reference_nodes = {{"a", Vec3::Zero()}, {"b", Vec3::Zero()}};
  spec.supports = {{"xmin", {0, 2}}, {"b", {}}};
  const DofMap dofs(mesh, spec);
  EXPECT_EQ(dofs.num_dofs(), mesh.num_nodes() * 3 + 12);
  const int fixed = 2 * static_cast<int>(mesh.node_sets.at("xmin").size()) + 6;
  EXPECT_EQ(dofs.num_free_dofs(), dofs.num_dofs() - fixed);
  EXPECT_EQ(dofs.ReferenceDof("b", 4), mesh.num_nodes() * 3 + 6 + 4);
  const int n = mesh.node_sets.at("xmin")[0];
  EXPECT_EQ(dofs.FreeIndex(3 * n), -1);
  EXPECT_GE(dofs.FreeIndex(3 * n + 1), 0);
  EXPECT_EQ(dofs.FreeIndex(dofs.ReferenceDof("b", 0)), -1);
  EXPECT_GE(dofs.FreeIndex(dofs.ReferenceDof("a", 0)), 0);
}

// The same distributing coupling with its reference node independent (face DOFs follow it):
// the same constrained space, so the same static response to a force and a moment on the
// reference node of a clamped bar (1e-10); its DOFs are free, so it can be supported (then
// it holds the bar's end: the bar under its own load elsewhere keeps that end's weighted
// mean motion at zero).
TEST(DistributingCoupling, IndependentReferenceGivesTheSameResponse) {
  const Mesh mesh = Bar(ElementType::kHex20);
  const AssemblyResult assembled = Assemble(mesh, {{"box", kSteel}}, {.mass = false});
  const auto solve = [&](bool independent, bool held) {
    ConstraintSpec spec;
    spec.reference_nodes = {{"load", Vec3(0.1, 0.01, 0.005)}};
    spec.supports = {{"xmin", {}}};
    if (held) spec.supports.push_back({"load", {}});
    spec.couplings = {{CouplingKind::kDistributing, "load", "xmax", {}, independent}};
    const DofMap dofs(mesh, spec);
    VecX load = VecX::Zero(dofs.num_dofs());
    if (held) {
      int middle = 0;  // the node of the top face nearest to the bar's middle
      for (const int node : mesh.node_sets.at("zmax"))
        if (std::abs(mesh.nodes(node, 0) - 0.05) < std::abs(mesh.nodes(middle, 0) - 0.05))
          middle = node;
      load(3 * middle + 2) = 50.0;
    } else {
      load(dofs.ReferenceDof("load", 2)) = 100.0;
      load(dofs.ReferenceDof("load", 3)) = 3.0;
    }
    Eigen::SimplicialLDLT<solvers::SparseMatrix> solver(dofs.Reduce(assembled.stiffness));
    EXPECT_EQ(solver.info(), Eigen::Success);
    return std::pair{VecX(dofs.Expand(solver.solve(dofs.ReduceLoad(load)))),
                     dofs.FreeIndex(dofs.ReferenceDof("load", 0))};
  };
  const auto [by_reference, reference_free] = solve(false, false);
  const auto [by_face, face_free] = solve(true, false);
  EXPECT_EQ(reference_free, -1);  // dependent on the face
  EXPECT_GE(face_free, 0);        // independent
  EXPECT_LT((by_face - by_reference).cwiseAbs().maxCoeff(),
            1e-10 * by_reference.cwiseAbs().maxCoeff());
  const auto [held, held_free] = solve(true, true);
  EXPECT_EQ(held_free, -1);  // supported
  const int dim = 3;
  Vec3 mean = Vec3::Zero();
  for (const auto& [node, area] : NodalAreas(mesh, mesh.face_sets.at("xmax")))
    mean += area * held.segment<3>(dim * node);
  EXPECT_LT(mean.norm(), 1e-12 * held.cwiseAbs().maxCoeff());
}

// A distributing coupling with given node weights (Nastran's RBE3): a force on the
// reference node at the weighted centroid reaches the nodes in proportion to their weights.
TEST(DistributingCoupling, GivenWeightsShareAForceInProportion) {
  const Mesh mesh = Bar(ElementType::kHex8);
  const std::vector<int>& nodes = mesh.node_sets.at("xmax");
  std::vector<double> weights;
  Vec3 centroid = Vec3::Zero();
  double total = 0.0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    weights.push_back(1.0 + static_cast<double>(i % 3));
    centroid += weights.back() * mesh.nodes.row(nodes[i]).transpose();
    total += weights.back();
  }
  centroid /= total;
  ConstraintSpec spec;
  spec.reference_nodes = {{"tip", centroid}};
  spec.couplings = {{CouplingKind::kDistributing, "tip", "xmax", weights}};
  const DofMap dofs(mesh, spec);
  VecX load = VecX::Zero(dofs.num_dofs());
  load(dofs.ReferenceDof("tip", 2)) = 60.0;
  const VecX f = dofs.transform() * dofs.ReduceLoad(load);  // on the mesh nodes' DOFs
  for (size_t i = 0; i < nodes.size(); ++i) {
    EXPECT_NEAR(f(3 * nodes[i] + 2), 60.0 * weights[i] / total, 1e-12) << i;
    EXPECT_NEAR(f(3 * nodes[i]), 0.0, 1e-12);
  }
  spec.couplings[0].weights.pop_back();
  EXPECT_THROW(DofMap(mesh, spec), InputError);
}

// Held DOFs at values h: u = T q + T_h h. A rigid coupling to a held reference node moves its
// nodes rigidly with it; a DOF held by two supports is one column of T_h in both lists.
TEST(DofMap, HeldDofsAreColumnsOfTheHeldTransform) {
  const Mesh mesh = Bar(ElementType::kHex8);
  const Vec3 tip(0.1, 0.01, 0.005);
  ConstraintSpec spec;
  spec.reference_nodes = {{"tip", tip}};
  spec.couplings = {{CouplingKind::kRigid, "tip", "xmax"}};
  spec.supports = {{"xmin", {}}, {"xmin", {2}}, {"tip", {2, 4}}};
  const DofMap dofs(mesh, spec);
  const int clamped = 3 * static_cast<int>(mesh.node_sets.at("xmin").size());
  ASSERT_EQ(dofs.held_dofs().size(), static_cast<size_t>(clamped + 2));
  EXPECT_EQ(dofs.SupportHeld(0).size(), static_cast<size_t>(clamped));
  EXPECT_EQ(dofs.SupportHeld(1).size(), mesh.node_sets.at("xmin").size());
  for (int h : dofs.SupportHeld(1)) EXPECT_EQ(dofs.held_dofs()[h] % 3, 2);
  EXPECT_EQ(dofs.held_dofs()[dofs.SupportHeld(2)[1]], dofs.ReferenceDof("tip", 4));
  EXPECT_EQ(dofs.held_transform().rows(), dofs.num_dofs());
  EXPECT_EQ(dofs.FreeIndex(dofs.ReferenceDof("tip", 2)), -1);

  // The tip lifted by 1 mm and turned by 0.01 rad about y, the rest at rest.
  VecX h = VecX::Zero(static_cast<int>(dofs.held_dofs().size()));
  h(dofs.SupportHeld(2)[0]) = 1e-3;
  h(dofs.SupportHeld(2)[1]) = 0.01;
  const VecX u = dofs.held_transform() * h;
  for (int n : mesh.node_sets.at("xmax")) {
    const double dx = mesh.nodes(n, 0) - tip(0);
    EXPECT_NEAR(u(3 * n + 2), 1e-3 - 0.01 * dx, 1e-15);  // theta_y x (x - x_tip), z part
    EXPECT_NEAR(u(3 * n), 0.01 * (mesh.nodes(n, 2) - tip(2)), 1e-15);
  }
  for (int n : mesh.node_sets.at("xmin")) EXPECT_EQ(u.segment<3>(3 * n).norm(), 0.0);
  EXPECT_EQ(u(dofs.ReferenceDof("tip", 2)), 1e-3);
}

std::string ErrorOf(const Mesh& mesh, const ConstraintSpec& spec) {
  try {
    DofMap dofs(mesh, spec);
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(DofMap, RejectsBadSpecificationsWithTheEntry) {
  const Mesh mesh = Bar(ElementType::kHex8);
  ConstraintSpec spec;
  spec.reference_nodes = {{"tip", Vec3(0.1, 0.01, 0.005)}};
  spec.couplings = {{CouplingKind::kRigid, "tip", "nowhere"}};
  EXPECT_EQ(ErrorOf(mesh, spec), "couplings[0].set = nowhere: must name a node set or face set");
  spec.couplings = {{CouplingKind::kRigid, "top", "xmax"}};
  EXPECT_EQ(ErrorOf(mesh, spec), "couplings[0].reference = top: must name a reference node");
  spec.couplings = {{CouplingKind::kRigid, "tip", "xmax"}, {CouplingKind::kRigid, "tip", "ymin"}};
  EXPECT_NE(ErrorOf(mesh, spec).find("couplings[1].set = ymin: node"), std::string::npos)
      << ErrorOf(mesh, spec);
  EXPECT_NE(ErrorOf(mesh, spec).find("already dependent in couplings[0]"), std::string::npos);
  spec.couplings = {{CouplingKind::kRigid, "tip", "xmax"}};
  spec.supports = {{"ymax", {}}};
  EXPECT_NE(ErrorOf(mesh, spec).find("supports[0].set = ymax: node"), std::string::npos);
  EXPECT_NE(ErrorOf(mesh, spec).find("is dependent in couplings[0]"), std::string::npos);
  spec.supports = {{"xmin", {3}}};
  EXPECT_EQ(ErrorOf(mesh, spec), "supports[0].components = 3: must be in [0, 2] for xmin");
  spec.supports = {};
  spec.couplings = {{CouplingKind::kRigid, "tip", "xmax"},
                    {CouplingKind::kDistributing, "tip", "xmax"}};
  EXPECT_NE(ErrorOf(mesh, spec).find("the couplings form a cycle"), std::string::npos)
      << ErrorOf(mesh, spec);
  spec.couplings = {{CouplingKind::kDistributing, "tip", "nowhere"}};
  EXPECT_EQ(ErrorOf(mesh, spec), "couplings[0].set = nowhere: must name a face set");
  spec.reference_nodes.push_back({"tip", Vec3::Zero()});
  EXPECT_EQ(ErrorOf(mesh, spec),
            "reference_nodes[1].name = tip: is the name of an earlier reference node");
}

}  // namespace
}  // namespace jointdyn::fe
