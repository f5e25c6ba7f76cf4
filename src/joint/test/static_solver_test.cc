#include "joint/static_solver.h"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "fe/assembly.h"
#include "fe/constraints.h"
#include "fe/contact_surface.h"
#include "fe/gmsh_structures.h"
#include "joint/contact_kinematics.h"
#include "joint/test/joint_test_util.h"
#include "laws/coulomb.h"
#include "laws/normal_laws.h"
#include "solvers/sparse_cholesky.h"

namespace jointdyn::joint {
namespace {

constexpr double kEps = 5e13;  // linear penalty 5e4 N/mm^3 (seed 003 section 4.1) [Pa/m]
const fe::ElasticMaterial kSteel{.youngs_modulus = 210e9, .poisson_ratio = 0.3};

// A mesh with one slave/master interface, its constraints, loads and joint, on q.
struct Model {
  fe::Mesh mesh;
  std::unique_ptr<fe::DofMap> dofs;
  solvers::SparseMatrix stiffness;  // T^T K T
  fe::PairingResult pairing;
  ContactKinematics kinematics;  // on the mesh DOFs
  PairProjection on_q;           // R T
};

Model MakeModel(fe::Mesh mesh, const fe::ConstraintSpec& spec, const std::string& slave,
                const std::string& master, double search_distance) {
  Model m;
  m.mesh = std::move(mesh);
  m.dofs = std::make_unique<fe::DofMap>(m.mesh, spec);
  std::map<std::string, fe::ElasticMaterial> materials;
  for (const fe::ElementBlock& block : m.mesh.blocks) materials[block.name] = kSteel;
  m.stiffness = m.dofs->Reduce(fe::Assemble(m.mesh, materials, {.mass = false}).stiffness);
  m.pairing = fe::PairSurfaces(
      m.mesh, fe::SurfaceFromFaceSet(m.mesh, slave), fe::SurfaceFromFaceSet(m.mesh, master),
      {.search_distance = search_distance, .area_weighting = fe::AreaWeighting::kDiagonalScaled});
  m.kinematics = BuildContactKinematics(m.mesh, m.pairing);
  m.on_q = OnIndependentDofs(m.kinematics.relative, *m.dofs);
  return m;
}

JointOperator Frictionless(const Model& m, double eps = kEps) {
  return JointOperator(
      m.on_q, m.kinematics.initial_gap, m.kinematics.area,
      {.normal = std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{.eps = eps})});
}

// Consistent nodal forces of a pressure p [Pa] on a face set, along -z, on all DOFs.
VecX PressureLoad(const Model& m, const std::string& face_set, double p) {
  VecX f = VecX::Zero(m.dofs->num_dofs());
  for (const auto& [node, area] : fe::NodalAreas(m.mesh, m.mesh.face_sets.at(face_set)))
    f(m.dofs->MeshDof(node, 2)) -= p * area;
  return f;
}

// (a) Two stacked blocks on rollers (uz = 0 at the bottom, symmetry planes x = 0 and y = 0
// for both blocks, lateral faces free), pressure p on the top: a uniaxial stress state
// sigma_zz = -p that hex8 elements represent exactly, so the contact pressure is p
// everywhere, each block shortens by p h / E and the interface penetrates by p / eps.
class StackedBlocks : public ::testing::TestWithParam<int> {};

TEST_P(StackedBlocks, PressureIsTransmittedAndPenetrationIsPOverEps) {
  const int upper_divisions = GetParam();  // 2: conforming, 3: non-matching
  const double h = 0.01, width = 0.02, p = 1e6;
  fe::BoxMeshOptions lower{.size = Vec3(width, width, h), .divisions = {2, 2, 2}};
  fe::BoxMeshOptions upper = lower;
  upper.divisions = {upper_divisions, upper_divisions, 2};
  fe::ConstraintSpec spec;
  spec.supports = {{"lower_zmin", {2}},
                   {"lower_xmin", {0}},
                   {"lower_ymin", {1}},
                   {"upper_xmin", {0}},
                   {"upper_ymin", {1}}};
  Model m = MakeModel(test::StackBoxes(lower, upper, 0.0), spec, "upper_zmin", "lower_zmax", 1e-3);
  std::vector<JointOperator> joints;
  joints.push_back(Frictionless(m));
  const StaticResult result =
      SolveStatic(m.stiffness, joints, m.dofs->ReduceLoad(PressureLoad(m, "upper_zmax", p)), {});
  ASSERT_TRUE(result.status.ok) << result.status.message;
  const JointOperator& joint = joints[0];

  // Total contact force = applied force: equilibrium of the upper block in z, to the
  // Newton tolerance (1e-10 relative).
  EXPECT_NEAR(joint.NormalForce(), p * width * width, 1e-9 * p * width * width);
  double max_pressure_error = 0.0, max_penetration_error = 0.0, interior_pressure_error = 0.0;
  for (int i = 0; i < joint.num_pairs(); ++i) {
    const PairOutput out = joint.Output(i);
    const double error = std::abs(out.pressure - p) / p;
    max_pressure_error = std::max(max_pressure_error, error);
    const Vec3 x = m.mesh.nodes.row(m.pairing.pairs[i].slave);
    if (x.x() > 0.0 && x.x() < width && x.y() > 0.0 && x.y() < width)
      interior_pressure_error = std::max(interior_pressure_error, error);
    max_penetration_error =
        std::max(max_penetration_error, std::abs(-out.gap - p / kEps) * kEps / p);
  }
  // Top surface: u_z = -(2 p h / E + p / eps), exact for the uniaxial state.
  const VecX u = m.dofs->Expand(result.q);
  const double expected = -(2.0 * p * h / kSteel.youngs_modulus + p / kEps);
  double max_top_error = 0.0;
  for (int node : m.mesh.node_sets.at("upper_zmax"))
    max_top_error = std::max(max_top_error, std::abs(u(3 * node + 2) - expected) / -expected);
  std::cout << (upper_divisions == 2 ? "conforming" : "non-matching") << ": " << joint.num_pairs()
            << " pairs, max |p_i - p| / p " << max_pressure_error << " (interior "
            << interior_pressure_error << ")"
            << ", max |pen_i - p/eps| / (p/eps) " << max_penetration_error
            << ", max top-displacement error " << max_top_error << ", iterations "
            << result.iterations << ", factorizations " << result.factorizations << " (reused "
            << result.reused_factorizations << ")\n";
  if (upper_divisions == 2) {
    // Matching nodes: the exact uniaxial state is the FE solution (rounding and the Newton
    // tolerance only).
    EXPECT_LT(max_pressure_error, 1e-8);
    EXPECT_LT(max_penetration_error, 1e-8);
    EXPECT_LT(max_top_error, 1e-8);
  } else {
    // Node-to-segment transfer does not pass the patch test exactly: the master receives
    // the slave's consistent loads interpolated (not its own consistent loads), which
    // bends the interface locally with this stiff penalty (eps h / E = 2400). Measured on
    // 3 x 3 slave faces on 2 x 2 master faces: 15 % in the pressure at the edge pairs,
    // 6.6 % at interior ones, 5 % in the top displacement; the total force stays exact.
    EXPECT_LT(max_pressure_error, 0.2);
    EXPECT_LT(interior_pressure_error, 0.1);
    EXPECT_LT(max_top_error, 0.07);
  }
}

INSTANTIATE_TEST_SUITE_P(ConformingAndNonMatching, StackedBlocks, ::testing::Values(2, 3));

// (b) A cantilever plate (clamped at x = 0) above a clamped block with an initial gap g0:
// pressure on the plate bends it towards the block. With the linear solution u1 for unit
// pressure, contact starts at p_c = g0 / max_i(-R_n,i u1); below it the contact force is
// zero and the solution is the linear one, above it the plate touches.
TEST(StaticSolver, InitialGapClosesOnlyBeyondTheLinearClosingLoad) {
  const double g0 = 1e-5;
  fe::BoxMeshOptions block{.size = Vec3(0.1, 0.02, 0.01), .divisions = {10, 2, 2}};
  fe::BoxMeshOptions plate{
      .size = Vec3(0.1, 0.02, 0.004), .divisions = {10, 2, 1}, .type = fe::ElementType::kHex20};
  fe::ConstraintSpec spec;
  spec.supports = {{"lower_zmin", {}}, {"upper_xmin", {}}};
  Model m = MakeModel(test::StackBoxes(block, plate, g0), spec, "upper_zmin", "lower_zmax", 1e-4);
  const VecX unit = m.dofs->ReduceLoad(PressureLoad(m, "upper_zmax", 1.0));
  solvers::SparseCholesky cholesky;
  ASSERT_TRUE(cholesky.Factor(m.stiffness).ok);
  const VecX u1 = cholesky.Solve(unit);
  VecX z;
  m.on_q.Apply(u1, z);
  double closing = 0.0;  // max_i -R_n,i u1 [m/Pa]
  for (int i = 0; i < m.on_q.num_pairs(); ++i) closing = std::max(closing, -z(3 * i + 2));
  ASSERT_GT(closing, 0.0);
  const double p_c = g0 / closing;

  std::vector<JointOperator> joints;
  joints.push_back(Frictionless(m));
  const StaticResult below = SolveStatic(m.stiffness, joints, 0.9 * p_c * unit, {});
  ASSERT_TRUE(below.status.ok) << below.status.message;
  EXPECT_EQ(joints[0].CountInContact(), 0);
  EXPECT_EQ(joints[0].NormalForce(), 0.0);
  // Newton's first step is the linear solution; what remains is rounding amplified by the
  // condition of K (~1e8 here): 5e-11 measured.
  EXPECT_LT((below.q - 0.9 * p_c * u1).lpNorm<Eigen::Infinity>(),
            1e-8 * (0.9 * p_c * u1).lpNorm<Eigen::Infinity>());

  joints[0].ResetHistory();
  const StaticResult above = SolveStatic(m.stiffness, joints, 2.0 * p_c * unit, {.load_steps = 2});
  ASSERT_TRUE(above.status.ok) << above.status.message;
  const int in_contact = joints[0].CountInContact();
  EXPECT_GT(in_contact, 0);
  EXPECT_GT(joints[0].NormalForce(), 0.0);
  // The block holds the plate back: the contact force does work against it.
  EXPECT_LT(unit.dot(above.q), unit.dot(2.0 * p_c * u1));
  std::cout << "gap " << g0 << " m closes at p_c = " << p_c << " Pa; at 2 p_c " << in_contact
            << " of " << joints[0].num_pairs() << " pairs in contact, contact force "
            << joints[0].NormalForce() << " N (applied " << 2.0 * p_c * 0.1 * 0.02 << " N), "
            << above.iterations << " iterations\n";
}

// (c) Seed 003's friction bar (section 4.1.1, load case f_e = 100 N in z at the load end),
// coarse: sheet 1 clamped, the sheets bolted at the two middle holes (both bores rigidly
// coupled to one reference node per hole), the load end rigidly coupled to a reference node
// that carries f_e. Bounds from the same mesh: contact pairs as stiff springs in all
// directions (tied joint) and no contact at all (free joint: bolts only).
TEST(StaticSolver, FrictionBarTipDeflectionLiesBetweenTiedAndFreeJoint) {
  fe::FrictionBarOptions bar;
  bar.mesh = {.mesh_size = 3e-3};  // hex8, 1 element through each sheet
  Model m = MakeModel(fe::BuildFrictionBar(bar), fe::RigidlyBoltedFrictionBar(bar), "sheet_2_joint",
                      "sheet_1_joint", 1e-4);
  VecX f = VecX::Zero(m.dofs->num_dofs());
  const int tip = m.dofs->ReferenceDof("tip", 2);
  f(tip) = 100.0;  // [N]
  const VecX load = m.dofs->ReduceLoad(f);
  const int tip_q = m.dofs->FreeIndex(tip);
  ASSERT_GE(tip_q, 0);

  solvers::SparseCholesky cholesky;
  ASSERT_TRUE(cholesky.Factor(m.stiffness).ok);
  const double free_tip = cholesky.Solve(load)(tip_q);
  // Tied: the bilateral springs A_i k I with k = 100 eps.
  PairProjection scaled = m.on_q;
  solvers::SparseMatrix springs;
  const std::vector<Mat3> blocks(m.on_q.num_pairs(), 100.0 * kEps * Mat3::Identity());
  m.on_q.ScaleRows(blocks, std::span<const double>(m.kinematics.area.data(), blocks.size()),
                   scaled);
  m.on_q.TransposeTimes(scaled, springs);
  ASSERT_TRUE(cholesky.Factor(solvers::SparseMatrix(m.stiffness + springs)).ok);
  const double tied_tip = cholesky.Solve(load)(tip_q);

  std::vector<JointOperator> joints;
  joints.push_back(Frictionless(m));
  const StaticResult result = SolveStatic(m.stiffness, joints, load, {});
  ASSERT_TRUE(result.status.ok) << result.status.message;
  const double contact_tip = result.q(tip_q);

  // Coulomb friction (seed 003 section 4.1.1: mu = 0.15, stick 1e4 N/mm^3, slip
  // 500 N/mm^3) in 4 proportional load steps.
  std::vector<JointOperator> friction;
  friction.emplace_back(m.on_q, m.kinematics.initial_gap, m.kinematics.area,
                        JointLaws{.normal = std::make_shared<laws::LinearPenaltyLaw>(
                                      laws::LinearPenaltyParams{.eps = kEps}),
                                  .tangential = std::make_shared<laws::CoulombLaw>(
                                      laws::CoulombParams{.c1 = 1e13, .c2 = 5e11, .mu = 0.15}, 2)});
  const StaticResult with_friction = SolveStatic(m.stiffness, friction, load, {.load_steps = 4});
  ASSERT_TRUE(with_friction.status.ok) << with_friction.status.message;
  const double friction_tip = with_friction.q(tip_q);
  int slipping = 0;
  for (int i = 0; i < friction[0].num_pairs(); ++i)
    slipping += friction[0].Output(i).state == laws::ContactState::kSlip ? 1 : 0;

  std::cout << "friction bar: " << m.dofs->num_free_dofs() << " DOFs, " << joints[0].num_pairs()
            << " pairs\n"
            << "  tip deflection [mm]: tied " << 1e3 * tied_tip << ", frictionless contact "
            << 1e3 * contact_tip << ", Coulomb " << 1e3 * friction_tip << ", free "
            << 1e3 * free_tip << "\n"
            << "  frictionless: " << joints[0].CountInContact() << " pairs in contact, ||g||_2 "
            << joints[0].GapNorm() << " m, contact force " << joints[0].NormalForce() << " N, "
            << result.iterations << " iterations, " << result.factorizations << " factorizations ("
            << result.symbolic_analyses << " symbolic, " << result.reused_factorizations
            << " reused), " << result.seconds << " s (factor " << result.factor_seconds
            << " s, joint " << result.joint_seconds << " s)\n"
            << "  Coulomb: " << friction[0].CountInContact() << " in contact, " << slipping
            << " slipping, ||g||_2 " << friction[0].GapNorm() << " m, " << with_friction.iterations
            << " iterations in " << with_friction.load_steps << " steps, " << with_friction.seconds
            << " s\n";
  EXPECT_GT(tied_tip, 0.0);
  EXPECT_LT(tied_tip, contact_tip);
  EXPECT_LT(contact_tip, free_tip);
  EXPECT_LE(friction_tip, contact_tip * (1.0 + 1e-9));
  EXPECT_GT(friction_tip, tied_tip);
  EXPECT_GT(joints[0].CountInContact(), 0);
  EXPECT_LT(joints[0].CountInContact(), joints[0].num_pairs());
}

// The reduced model of `m` on basis V (columns): V^T K V, the joint on R V, V^T f.
struct Reduced {
  MatX stiffness;
  std::vector<JointOperator> joints;
  VecX load;
};

Reduced Reduce(const Model& m, const MatX& v, const VecX& load, double eps = kEps) {
  Reduced r;
  r.stiffness = v.transpose() * (m.stiffness * v);
  r.joints.emplace_back(m.on_q.Compose(v), m.kinematics.initial_gap, m.kinematics.area,
                        JointLaws{.normal = std::make_shared<laws::LinearPenaltyLaw>(
                                      laws::LinearPenaltyParams{.eps = eps})});
  r.load = v.transpose() * load;
  return r;
}

// The plate above the block of test (b), pressed into contact (2 p_c, 2 load steps).
struct PlateCase {
  Model m;
  VecX load;
  std::vector<int> tip_dofs;  // q indices of u_z at the plate's free end
};

PlateCase MakePlateCase() {
  const double g0 = 1e-5;
  fe::BoxMeshOptions block{.size = Vec3(0.1, 0.02, 0.01), .divisions = {10, 2, 2}};
  fe::BoxMeshOptions plate{
      .size = Vec3(0.1, 0.02, 0.004), .divisions = {10, 2, 1}, .type = fe::ElementType::kHex20};
  fe::ConstraintSpec spec;
  spec.supports = {{"lower_zmin", {}}, {"upper_xmin", {}}};
  PlateCase c{MakeModel(test::StackBoxes(block, plate, g0), spec, "upper_zmin", "lower_zmax", 1e-4),
              {},
              {}};
  // 2e4 Pa is about twice the closing load of test (b) (p_c = 1.1e4 Pa measured there).
  c.load = c.m.dofs->ReduceLoad(PressureLoad(c.m, "upper_zmax", 2e4));
  for (int node : c.m.mesh.node_sets.at("upper_xmax"))
    c.tip_dofs.push_back(c.m.dofs->FreeIndex(c.m.dofs->MeshDof(node, 2)));
  return c;
}

double TipDeflection(const PlateCase& c, const VecX& q) {
  double sum = 0.0;
  for (int k : c.tip_dofs) sum += q(k);
  return sum / static_cast<double>(c.tip_dofs.size());
}

// (d) The dense path (reduced model) with the identity basis is the sparse path: the same
// Newton iterates up to the rounding of dense vs sparse products and factorizations.
TEST(StaticSolverReduced, IdentityBasisEqualsTheFullSolution) {
  const PlateCase c = MakePlateCase();
  std::vector<JointOperator> joints;
  joints.push_back(Frictionless(c.m));
  const StaticResult full = SolveStatic(c.m.stiffness, joints, c.load, {.load_steps = 2});
  ASSERT_TRUE(full.status.ok) << full.status.message;
  ASSERT_GT(joints[0].CountInContact(), 0);
  ASSERT_LT(joints[0].CountInContact(), joints[0].num_pairs());

  const int n = static_cast<int>(c.m.stiffness.rows());
  Reduced r = Reduce(c.m, MatX::Identity(n, n), c.load);
  const StaticResult reduced = SolveStatic(r.stiffness, r.joints, r.load, {.load_steps = 2});
  ASSERT_TRUE(reduced.status.ok) << reduced.status.message;
  const double error =
      (reduced.q - full.q).lpNorm<Eigen::Infinity>() / full.q.lpNorm<Eigen::Infinity>();
  std::cout << n << " DOFs, " << joints[0].CountInContact() << " of " << joints[0].num_pairs()
            << " pairs in contact: dense identity basis vs sparse, max |dq| / |q| " << error
            << "; iterations " << reduced.iterations << " vs " << full.iterations
            << ", factorizations " << reduced.factorizations << " vs " << full.factorizations
            << "\n";
  EXPECT_LT(error, 1e-10);
  EXPECT_EQ(reduced.symbolic_analyses, 0);
  EXPECT_EQ(reduced.load_steps, full.load_steps);
  EXPECT_EQ(r.joints[0].CountInContact(), joints[0].CountInContact());
  EXPECT_NEAR(r.joints[0].GapNorm(), joints[0].GapNorm(), 1e-10 * joints[0].GapNorm());
}

// (e) Galerkin with the exact solution in the span: a basis [x_full, u_lin, 3 random
// vectors] (orthonormalized) reproduces the full solution, since V^T r(V a) = 0 has the
// solution a with V a = x_full, unique for frictionless contact (convex potential). Tip
// deflection and gap norm agree to the solver tolerance.
TEST(StaticSolverReduced, BasisContainingTheSolutionReproducesIt) {
  const PlateCase c = MakePlateCase();
  std::vector<JointOperator> joints;
  joints.push_back(Frictionless(c.m));
  const StaticResult full = SolveStatic(c.m.stiffness, joints, c.load, {.load_steps = 2});
  ASSERT_TRUE(full.status.ok) << full.status.message;
  solvers::SparseCholesky cholesky;
  ASSERT_TRUE(cholesky.Factor(c.m.stiffness).ok);
  const int n = static_cast<int>(c.m.stiffness.rows());
  MatX v(n, 5);
  v.col(0) = full.q;
  v.col(1) = cholesky.Solve(c.load);  // the linear solution (penetrates: not the answer)
  std::srand(7);
  v.rightCols(3) = MatX::Random(n, 3) * full.q.lpNorm<Eigen::Infinity>();
  const Eigen::HouseholderQR<MatX> qr(v);
  const MatX basis = qr.householderQ() * MatX::Identity(n, 5);

  Reduced r = Reduce(c.m, basis, c.load);
  const StaticResult reduced = SolveStatic(r.stiffness, r.joints, r.load, {.load_steps = 2});
  ASSERT_TRUE(reduced.status.ok) << reduced.status.message;
  const VecX x = basis * reduced.q;
  const double tip_full = TipDeflection(c, full.q), tip_reduced = TipDeflection(c, x);
  const double tip_error = std::abs(tip_reduced - tip_full) / std::abs(tip_full);
  const double gap_error =
      std::abs(r.joints[0].GapNorm() - joints[0].GapNorm()) / joints[0].GapNorm();
  std::cout << "basis [x_full, u_lin, 3 random]: tip " << tip_reduced << " vs " << tip_full
            << " m (rel. error " << tip_error << "), ||g|| error " << gap_error << ", "
            << reduced.iterations << " iterations\n";
  // The full solution itself satisfies its residual to 1e-10 (scaled); the reduced one
  // reproduces it to that order times the condition of the contact problem.
  EXPECT_LT(tip_error, 1e-8);
  EXPECT_LT(gap_error, 1e-8);
  // Without x_full the basis cannot: the same test fails (a reduced model that misses the
  // solution is stiffer).
  Reduced without = Reduce(c.m, basis.rightCols(4), c.load);
  const StaticResult poor = SolveStatic(without.stiffness, without.joints, without.load, {});
  ASSERT_TRUE(poor.status.ok) << poor.status.message;
  EXPECT_GT(std::abs(TipDeflection(c, basis.rightCols(4) * poor.q) - tip_full),
            1e-3 * std::abs(tip_full));
}

TEST(StaticSolver, OptionsAreValidatedAndFailuresNameTheLoadStep) {
  StaticOptions options;
  options.load_steps = 0;
  EXPECT_FALSE(options.Validate().ok);
  EXPECT_NE(options.Validate().message.find("static.load_steps"), std::string::npos);
  // A floating body (no supports, no contact): the tangent is singular at every cutback.
  fe::BoxMeshOptions box{.size = Vec3(0.01, 0.01, 0.01), .divisions = {1, 1, 1}};
  Model m = MakeModel(test::StackBoxes(box, box, 1e-4), {}, "upper_zmin", "lower_zmax", 1e-3);
  std::vector<JointOperator> joints;
  joints.push_back(Frictionless(m));
  const StaticResult result =
      SolveStatic(m.stiffness, joints, VecX::Ones(m.stiffness.rows()), {.max_cutbacks = 2});
  EXPECT_FALSE(result.status.ok);
  EXPECT_EQ(result.cutbacks, 2);
  EXPECT_NE(result.status.message.find("load step 1 (load factor 0 -> 0.25), iteration 0"),
            std::string::npos)
      << result.status.message;
  EXPECT_NE(result.status.message.find("not positive definite"), std::string::npos);

  // The reduced (dense) path reports its failure the same way.
  const int n = static_cast<int>(m.stiffness.rows());
  Reduced r = Reduce(m, MatX::Identity(n, n), VecX::Ones(n));
  const StaticResult dense = SolveStatic(r.stiffness, r.joints, r.load, {.max_cutbacks = 2});
  EXPECT_FALSE(dense.status.ok);
  EXPECT_EQ(dense.cutbacks, 2);
  EXPECT_NE(dense.status.message.find("load step 1 (load factor 0 -> 0.25), iteration 0"),
            std::string::npos)
      << dense.status.message;
  EXPECT_NE(dense.status.message.find("not positive definite"), std::string::npos);
}

}  // namespace
}  // namespace jointdyn::joint

namespace jointdyn::joint {
namespace {

// A chain of four springs k between five DOFs: x_i = i d / 4 with the ends held at 0 and d
// (no joints), reactions -k d / 4 and k d / 4; a second solve from there with a force F on
// the middle DOF moves it by F / k (two springs in series on each side) and adds -F / 2 to each
// reaction. Sparse and dense.
template <class Matrix>
void CheckHeldChain(const Matrix& stiffness, double k) {
  const double d = 1e-3, force = 50.0;
  StaticLoadPath path{.end_load = VecX::Zero(5), .held = {0, 4}, .end_values = Vec2(0.0, d)};
  const StaticResult first = SolveStatic(stiffness, {}, path, {.load_steps = 3});
  ASSERT_TRUE(first.status.ok) << first.status.message;
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(first.q(i), i * d / 4, 1e-15);
  EXPECT_NEAR(first.reactions(0), -k * d / 4, 1e-9 * k * d);
  EXPECT_NEAR(first.reactions(1), k * d / 4, 1e-9 * k * d);

  path.start = first.q;
  path.start_load = path.end_load;
  path.end_load(2) = force;
  const StaticResult second = SolveStatic(stiffness, {}, path, {});
  ASSERT_TRUE(second.status.ok) << second.status.message;
  EXPECT_NEAR(second.q(2), 2 * d / 4 + force / k, 1e-15);
  EXPECT_EQ(second.q(4), d);
  EXPECT_NEAR(second.reactions(0), -k * d / 4 - force / 2, 1e-9 * force);
  EXPECT_NEAR(second.reactions(1), k * d / 4 - force / 2, 1e-9 * force);
}

TEST(StaticSolver, HeldEntriesFollowTheLoadPathAndReportTheirReactions) {
  const double k = 2e7;  // [N/m]
  MatX dense = MatX::Zero(5, 5);
  for (int i = 0; i < 4; ++i) {
    dense.block<2, 2>(i, i) += k * (Mat2() << 1, -1, -1, 1).finished();
  }
  CheckHeldChain(dense, k);
  CheckHeldChain(solvers::SparseMatrix(dense.sparseView()), k);
}

}  // namespace
}  // namespace jointdyn::joint
