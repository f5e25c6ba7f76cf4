// The two-node Timoshenko beam between reference nodes: a cantilever under end loads
// against the closed-form deflections and rotations (exact for this element), in an
// oblique orientation; rigid motions are stress-free; the consistent mass moves with the
// beam's mass and its moment of inertia about the middle; the Euler-Bernoulli limit.
#include "fe/beam.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "fe/constraints.h"
#include "fe/structured_mesh.h"

namespace jointdyn::fe {
namespace {

const ElasticMaterial kSteel{210e9, 0.3, 7850.0, 1.0};
using Vec6 = Eigen::Matrix<double, 6, 1>;

// A stubby bolt-like beam (L = 3 mm, d = 5 mm: shear dominates) along an oblique axis.
struct Cantilever {
  Vec3 xa = Vec3(0.01, -0.02, 0.03);
  Vec3 axis = Vec3(1.0, 2.0, -0.5).normalized();
  double length = 3e-3;
  BeamSection section = BeamSection::Circular(5e-3, kSteel.poisson_ratio);
  BeamMatrices matrices = BeamElement(xa, xa + length * axis, section, kSteel);

  // The displacements and rotations of the free end b (node a clamped) under a force f and
  // a moment m on b.
  Vec6 Solve(const Vec3& f, const Vec3& m) const {
    Vec6 load;
    load << f, m;
    return matrices.stiffness.bottomRightCorner<6, 6>().ldlt().solve(load);
  }
};

TEST(Beam, CircularSectionConstants) {
  const BeamSection s = BeamSection::Circular(2.0, 0.3);
  EXPECT_NEAR(s.area, std::numbers::pi, 1e-15);
  EXPECT_NEAR(s.inertia, std::numbers::pi / 4.0, 1e-15);
  EXPECT_NEAR(s.torsion, std::numbers::pi / 2.0, 1e-15);
  EXPECT_NEAR(s.shear_factor, 7.8 / 8.8, 1e-15);
}

TEST(Beam, CantileverEndLoadsMatchTimoshenkoClosedForms) {
  const Cantilever c;
  const double e = kSteel.youngs_modulus, g = kSteel.ShearModulus(), l = c.length;
  const double ei = e * c.section.inertia;
  const Vec3 across = c.axis.cross(Vec3::UnitZ()).normalized();
  const double p = 1000.0;  // [N]

  // Transverse tip force: bending plus shear deflection, the rotation of bending only.
  Vec6 u = c.Solve(p * across, Vec3::Zero());
  const double deflection =
      p * l * l * l / (3.0 * ei) + p * l / (c.section.shear_factor * g * c.section.area);
  EXPECT_NEAR(u.head<3>().dot(across), deflection, 1e-12 * deflection);
  EXPECT_NEAR(u.head<3>().dot(c.axis), 0.0, 1e-12 * deflection);
  const Vec3 rotation_axis = c.axis.cross(across);  // the rotation of the tip section
  EXPECT_NEAR(u.tail<3>().dot(rotation_axis), p * l * l / (2.0 * ei),
              1e-12 * p * l * l / (2.0 * ei));
  // Shear dominates this bolt (Phi = 6.1): the Euler-Bernoulli part is 40 % of it.
  EXPECT_LT(p * l * l * l / (3.0 * ei), 0.45 * deflection);

  // Axial force and torque.
  u = c.Solve(p * c.axis, Vec3::Zero());
  EXPECT_NEAR(u.head<3>().dot(c.axis), p * l / (e * c.section.area),
              1e-12 * p * l / (e * c.section.area));
  const double t = 10.0;  // [N m]
  u = c.Solve(Vec3::Zero(), t * c.axis);
  const double twist = t * l / (g * c.section.torsion);
  EXPECT_NEAR(u.tail<3>().dot(c.axis), twist, 1e-12 * twist);
  EXPECT_NEAR(u.head<3>().norm(), 0.0, 1e-12 * twist * l);

  // End moment about a transverse axis: uniform bending, no shear.
  u = c.Solve(Vec3::Zero(), t * rotation_axis);
  EXPECT_NEAR(u.tail<3>().dot(rotation_axis), t * l / ei, 1e-12 * t * l / ei);
  EXPECT_NEAR(u.head<3>().dot(across), t * l * l / (2.0 * ei), 1e-12 * t * l * l / (2.0 * ei));
}

TEST(Beam, LargeShearFactorGivesTheEulerBernoulliBeam) {
  Cantilever c;
  c.section.shear_factor = 1e12;
  c.matrices = BeamElement(c.xa, c.xa + c.length * c.axis, c.section, kSteel);
  const Vec3 across = c.axis.cross(Vec3::UnitX()).normalized();
  const Vec6 u = c.Solve(across, Vec3::Zero());
  const double ei = kSteel.youngs_modulus * c.section.inertia;
  const double expected = std::pow(c.length, 3) / (3.0 * ei);
  EXPECT_NEAR(u.head<3>().dot(across), expected, 1e-9 * expected);
}

TEST(Beam, RigidMotionsAreStressFreeAndTheMassIsConsistent) {
  const Cantilever c;
  const Vec3 xb = c.xa + c.length * c.axis;
  const Vec3 middle = 0.5 * (c.xa + xb);
  const double mass = kSteel.density * c.section.area * c.length;
  const double k_scale = c.matrices.stiffness.cwiseAbs().maxCoeff();
  EXPECT_LT((c.matrices.stiffness - c.matrices.stiffness.transpose()).cwiseAbs().maxCoeff(),
            1e-12 * k_scale);
  EXPECT_LT((c.matrices.mass - c.matrices.mass.transpose()).cwiseAbs().maxCoeff(),
            1e-12 * c.matrices.mass.cwiseAbs().maxCoeff());
  for (int i = 0; i < 6; ++i) {
    // Translation or rotation about the middle: u = t + theta x (x - middle).
    const Vec3 t = i < 3 ? Vec3(Vec3::Unit(i)) : Vec3::Zero();
    const Vec3 theta = i < 3 ? Vec3::Zero() : Vec3(Vec3::Unit(i - 3));
    Eigen::Matrix<double, 12, 1> u;
    u << t + theta.cross(c.xa - middle), theta, t + theta.cross(xb - middle), theta;
    EXPECT_LT((c.matrices.stiffness * u).norm(), 1e-9 * k_scale) << "rigid motion " << i;
    const double kinetic = u.dot(c.matrices.mass * u);
    if (i < 3) {
      EXPECT_NEAR(kinetic, mass, 1e-12 * mass) << "translation " << i;
    } else {
      // About the middle: the transverse part moves the beam's mass with m L^2 / 12 (the
      // cubic field is exact), the axial part spins the section: rho J L (theta . e1)^2.
      const double along = theta.dot(c.axis);
      const double expected = mass * c.length * c.length / 12.0 * (1.0 - along * along) +
                              kSteel.density * c.section.torsion * c.length * along * along;
      EXPECT_NEAR(kinetic, expected, 1e-12 * mass * c.length * c.length) << "rotation " << i;
    }
  }
}

TEST(Beam, ReducesOntoTheReferenceNodesOfADofMap) {
  // A clamped box and two reference nodes: a supported, b free and joined to a by a beam.
  BoxMeshOptions options;
  options.size = Vec3(0.01, 0.01, 0.01);
  options.divisions = {1, 1, 1};
  Mesh mesh = MakeBoxMesh(options);
  ConstraintSpec spec;
  spec.reference_nodes = {{"a", Vec3(0.0, 0.0, 0.0)}, {"b", Vec3(0.0, 0.0, 0.02)}};
  spec.supports = {{"a", {}}, {"xmin", {}}, {"xmax", {}}};  // every mesh node
  const DofMap dofs(mesh, spec);
  ASSERT_EQ(dofs.num_free_dofs(), 6);

  const BeamMatrices beam =
      BeamElement(spec.reference_nodes[0].position, spec.reference_nodes[1].position,
                  BeamSection::Circular(5e-3, 0.3), kSteel);
  std::vector<Eigen::Triplet<double>> triplets;
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) triplets.emplace_back(i, j, beam.stiffness(i, j));
  solvers::SparseMatrix reference(12, 12);
  reference.setFromTriplets(triplets.begin(), triplets.end());
  const solvers::SparseMatrix mesh_matrix(dofs.num_mesh_dofs(), dofs.num_mesh_dofs());
  const MatX reduced = MatX(dofs.Reduce(mesh_matrix, reference));
  // The free DOFs are b's six, in order.
  EXPECT_LT((reduced - beam.stiffness.bottomRightCorner<6, 6>()).cwiseAbs().maxCoeff(),
            1e-9 * beam.stiffness.cwiseAbs().maxCoeff());
}

}  // namespace
}  // namespace jointdyn::fe
