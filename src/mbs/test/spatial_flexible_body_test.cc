// The spatial FFRF body from a 3D FE model (flexible_body_builder.h: spatial) in a spatial
// multibody system: its integrals have the FE model's mass, centre of mass and inertia
// tensor; a steel beam on a hinge vibrates at the frequencies of the FE model with the
// hinge as a support (reduced: 0.5 %; unreduced: to rounding); a very stiff beam swinging
// in 3D moves as the equivalent rigid body; reduced and unreduced beams swing alike; the
// energy balance closes; a torque at a node bends the beam as the FE model and changes the
// angular momentum by its impulse; all derivatives match central differences.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
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
  EXPECT_FALSE(MovesCentreOfMass(b));  // so gravity skips its elastic coordinates
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

// Integrates `model` and records per step the first `count` coordinates (or, with `node`
// >= 0, that mesh node's position).
struct Trajectory {
  time::TransientResult result;
  std::vector<VecX> states;
};

Trajectory Integrate(const SpatialModel& model, const time::IntegratorOptions& options, int count,
                     int node = -1, int dense_coordinates = kDenseCoordinates) {
  SpatialSystem system(model, dense_coordinates);
  EXPECT_EQ(system.mass().is_dense(), system.size() <= dense_coordinates);
  Trajectory run;
  VecX q = system.InitialPositions(), v = system.InitialVelocities();
  double correction = 0.0;
  EXPECT_TRUE(system.ConsistentInitialState(options.t_start, q, v, 1e-12, correction));
  run.result = time::Integrate(system, options, q, v, [&](const time::StepRecord& r) {
    if (node >= 0)
      run.states.push_back(system.FlexibleMeshPositions(0, *r.q).row(node).transpose());
    else
      run.states.push_back(r.q->head(count));
  });
  EXPECT_TRUE(run.result.status) << run.result.status.message;
  return run;
}

double LargestDifference(const std::vector<VecX>& a, const std::vector<VecX>& b) {
  EXPECT_EQ(a.size(), b.size());
  double largest = 0.0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    largest = std::max(largest, (a[i] - b[i]).cwiseAbs().maxCoeff());
  return largest;
}

// Released horizontally under gravity with a spin about its own axis and a push out of the
// plane, a beam a million times stiffer than steel on a spherical joint moves in 3D as the
// rigid body with its mass and inertia tensor: its frame's coordinates (position and Euler
// parameters) against the rigid body's, with the same steps. The two formulations
// discretize differently (the rigid body's Euler-parameter inertia is Lagrange's form, the
// flexible body's Hamel's, spatial_flexible_inertia.h), so they agree to O(dt^2): the
// difference falls four times when the step halves.
TEST(SpatialFlexibleBody, VeryStiffBeamMovesAsTheRigidBody) {
  Hinged flexible = HingedBeam(210e15, 4, JointKind::kSpherical);
  flexible.model.gravity = {0.0, -9.81, 0.0};
  Body& beam = flexible.model.bodies[0];
  beam.angular_velocity = Vec3(1.0, 1.0, 0.5);  // spin about x, swing about y and z
  beam.velocity =
      beam.angular_velocity.cross(beam.position - Vec3(0.0, 0.5 * kWidth, 0.5 * kThickness));
  const FlexibleInertia& inertia = flexible.body.body->inertia;
  SpatialModel rigid = flexible.model;
  rigid.bodies[0].kind = BodyKind::kRigid;
  rigid.bodies[0].mass = inertia.mass();
  rigid.bodies[0].inertia = inertia.g00;
  rigid.bodies[0].flexible = nullptr;
  rigid.markers[1] = {"pin", 0, Vec3(0.0, 0.5 * kWidth, 0.5 * kThickness) - beam.position};
  time::IntegratorOptions options;
  options.alpha = -0.05;
  options.t_end = 0.3;
  options.position_scale = kLength;
  std::vector<double> differences;
  for (const double dt : {1e-3, 5e-4}) {
    options.dt = dt;
    const Trajectory reference = Integrate(rigid, options, 7);
    const Trajectory stiff = Integrate(flexible.model, options, 7);
    differences.push_back(LargestDifference(reference.states, stiff.states));
    const Vec3 travel = reference.states.back().head<3>() - reference.states.front().head<3>();
    std::printf(
        "stiff beam against the rigid body, dt = %.0e s: largest frame difference %.2e (m or -) "
        "over %d steps, %.2f Newton iterations per step; its centre moved by %.3f m (z %.3f m)\n",
        dt, differences.back(), stiff.result.accepted_steps,
        double(stiff.result.newton_iterations) / stiff.result.accepted_steps, travel.norm(),
        travel.z());
    EXPECT_GT(std::abs(travel.z()), 0.02);  // it moved out of the plane
  }
  EXPECT_LT(differences[1], 1e-5);
  EXPECT_NEAR(differences[0] / differences[1], 4.0, 0.5);
}

// Released horizontally under gravity, the beam on the Craig-Bampton basis (12 modes)
// swings on its hinge as the unreduced beam (every FE DOF a coordinate): the mesh's far
// corner within 1e-6 of the length over 0.05 s. The unreduced beam's run with sparse
// storage equals its run with dense storage to rounding.
TEST(SpatialFlexibleBody, ReducedBeamSwingsAsTheUnreducedBeam) {
  const fe::FeModel model = fe::BuildFeModel(Beam(210e9, 6));
  const int far = static_cast<int>(model.mesh.nodes.rows()) - 1;  // (0.4, 0.02, 0.01)
  time::IntegratorOptions options;
  options.alpha = -0.05;
  options.t_end = 0.05;
  options.dt = 2e-4;
  options.position_scale = kLength;
  options.output_interval = 1e-3;
  const auto swing = [&](Hinged s, int dense_coordinates = kDenseCoordinates) {
    s.model.gravity = {0.0, -9.81, 0.0};
    return Integrate(s.model, options, 0, far, dense_coordinates).states;
  };
  const std::vector<VecX> reduced =
      swing(Hinge(CraigBamptonBody(model, {.interface = {"pin"}}, 12)));
  const Hinged unreduced = Hinge(BuildSpatialUnreducedBody(model, {.interface = {"pin"}}));
  const std::vector<VecX> full = swing(unreduced), sparse = swing(unreduced, 0);
  const double largest = LargestDifference(reduced, full),
               storage = LargestDifference(sparse, full);
  std::printf(
      "reduced against unreduced beam: far corner within %.2e m over 0.05 s (drop %.4f m); "
      "sparse against dense storage %.1e m\n",
      largest, full.front().y() - full.back().y(), storage);
  EXPECT_LT(largest, 1e-6 * kLength);
  EXPECT_LT(storage, 1e-12 * kLength);
  EXPECT_GT(full.front().y() - full.back().y(), 0.01);  // it swung
}

// Gravity on an unreduced body's elastic coordinates (its frame fixed to the pin node: the
// centre of mass moves with them, S_f != 0): the load and its tangent against central
// differences, at a turned, deformed state.
TEST(SpatialFlexibleBody, GravityOnAnUnreducedBodyHasItsTangent) {
  const fe::FeModel model = fe::BuildFeModel(Beam(210e9, 3));
  Hinged s = Hinge(BuildSpatialUnreducedBody(model, {.interface = {"pin"}}));
  s.model.gravity = {1.0, -9.81, 0.5};
  ASSERT_TRUE(MovesCentreOfMass(s.body.body->inertia));
  SpatialSystem system(s.model);
  ASSERT_TRUE(system.has_configuration_loads());
  const int n = system.size();
  VecX q = system.InitialPositions();
  q.segment<4>(3) = Eigen::Vector4d(0.9, 0.2, -0.3, 0.1).normalized();
  q.tail(n - 7) = 1e-4 * VecX::LinSpaced(n - 7, -1.0, 1.0);
  VecX load;
  EXPECT_LT(testing::LoadTangentError(system, 0.0, q, load), 1e-7);
  EXPECT_GT(load.tail(n - 7).norm(), 0.0);
}

// A steel beam swinging on its hinge under gravity: the energy balance of the flexible
// body closes (kinetic + elastic = the work of gravity and of the constraints, which is not
// zero for the discrete steps on nonlinear constraints): with HHT alpha = 0 to O(dt^2) (the
// remainder falls four times when the step halves), with a small positive numerical
// dissipation with alpha = -0.1; and it bends as it swings.
TEST(SpatialFlexibleBody, SwingingBeamKeepsItsEnergyBalance) {
  Hinged beam = HingedBeam(210e9, 6);
  beam.model.gravity = {0.0, -9.81, 0.0};
  const double scale = beam.body.body->inertia.mass() * 9.81 * 0.5 * kLength;  // [J]
  std::vector<double> remainders;
  for (const auto& [alpha, dt] :
       {std::pair{0.0, 2e-4}, std::pair{0.0, 1e-4}, std::pair{-0.1, 2e-4}}) {
    time::IntegratorOptions options;
    options.alpha = alpha;
    options.t_end = 0.1;
    options.dt = dt;
    options.position_scale = kLength;
    const Trajectory run = Integrate(beam.model, options, 0);
    const time::EnergyBalance& e = run.result.energy;
    std::printf(
        "swinging beam alpha = %.1f, dt = %.0e s: kinetic %.4e J, elastic %.3e J, gravity's "
        "work %.4e J, constraint work %.1e J, remainder %.2e J (of %.3e J), %.2f Newton "
        "iterations per step\n",
        alpha, dt, e.kinetic, e.stored, e.external_work, e.constraint_work, e.numerical_dissipation,
        scale, double(run.result.newton_iterations) / run.result.accepted_steps);
    EXPECT_GT(e.stored, 0.0);  // it bends
    EXPECT_GT(e.kinetic, 0.1 * scale);
    remainders.push_back(e.numerical_dissipation);
  }
  EXPECT_LT(std::abs(remainders[0]), 1e-8 * scale);
  EXPECT_NEAR(remainders[0] / remainders[1], 4.0, 0.5);
  EXPECT_GT(remainders[2], 10.0 * std::abs(remainders[0]));
  EXPECT_LT(remainders[2], 1e-3 * scale);
}

// A free beam (no joints, no gravity) with a torque m at its tip node (rigidly coupled to the
// end face): its angular momentum grows as m t to O(dt^2) (the difference falls four times
// when the step halves) and its linear momentum stays zero, while it turns and bends. The
// torque reaches the body through the node's elastic rotation and the frame's rotation.
TEST(SpatialFlexibleBody, TorqueAtANodeChangesTheAngularMomentumByItsImpulse) {
  fe::FeModelSpec spec = Beam(210e9, 10);
  spec.reference_nodes.push_back(
      {.name = "tip", .position = Vec3(kLength, 0.5 * kWidth, 0.5 * kThickness)});
  spec.couplings.push_back({.kind = fe::CouplingKind::kRigid, .reference = "tip", .set = "xmax"});
  const FlexibleBodyResult flexible =
      CraigBamptonBody(fe::BuildFeModel(spec), {.interface = {"pin", "tip"}}, 4);
  SpatialModel m;
  Body beam{"beam", BodyKind::kFlexible};
  beam.position = flexible.centre_of_mass;
  beam.flexible = flexible.body;
  m.bodies = {beam};
  m.markers = {{"tip", 0, Vec3::Zero(), Mat3::Identity(), 1}};
  const Vec3 torque(0.02, -0.01, 0.05);  // [N m]
  Load load{.marker = 0};
  for (int k = 0; k < 3; ++k) load.torque[k] = time::TimeFunction::Constant(torque(k));
  m.loads = {load};
  SpatialSystem system(m);
  const double t_end = 0.1, impulse = torque.norm() * t_end, mass = flexible.body->inertia.mass();
  std::vector<double> errors;
  for (const double dt : {1e-4, 5e-5}) {
    time::IntegratorOptions options;
    options.alpha = 0.0;
    options.t_end = t_end;
    options.dt = dt;
    options.position_scale = kLength;
    double momentum_error = 0.0, linear = 0.0, turned = 0.0;
    const time::TransientResult result =
        time::Integrate(system, options, system.InitialPositions(), system.InitialVelocities(),
                        [&](const time::StepRecord& r) {
                          const Vec3 h = system.AngularMomentum(*r.q, *r.v);
                          momentum_error = std::max(momentum_error, (h - r.t * torque).norm());
                          linear = std::max(linear, mass * r.v->head<3>().norm());
                          turned = 2.0 * std::acos(std::min(1.0, std::abs((*r.q)(3))));
                        });
    ASSERT_TRUE(result.status) << result.status.message;
    std::printf(
        "free beam with a torque at its tip node, dt = %.0e s: angular momentum against m t "
        "within %.2e of the impulse %.3e N m s, linear momentum %.1e N s, turned %.3f rad, "
        "elastic energy %.2e J\n",
        dt, momentum_error / impulse, impulse, linear, turned, result.energy.stored);
    EXPECT_LT(linear, 1e-9 * impulse / kLength);
    EXPECT_GT(turned, 1.0);
    EXPECT_GT(result.energy.stored, 0.0);  // it bends
    errors.push_back(momentum_error / impulse);
  }
  EXPECT_LT(errors[0], 1e-5);  // 6.0e-6 measured
  EXPECT_NEAR(errors[0] / errors[1], 4.0, 0.4);
}

// Where the torque acts: a beam clamped at its pin (a rigid joint to the ground) with a
// torque at its tip node. The static response to first order in the torque, [K, C_q'; C_q,
// 0] [dq; lambda] = [Q; 0] at the undeformed state, against the FE model's own static
// solution with the pin's DOFs fixed and the moment on the tip's rotation DOFs (the
// Craig-Bampton basis holds it exactly: the tip's static modes): the tip's displacement and
// rotation. A torque on the frame alone would not bend the beam.
TEST(SpatialFlexibleBody, TorqueAtTheTipNodeBendsTheClampedBeamAsTheFeModel) {
  fe::FeModelSpec spec = Beam(210e9, 10);
  spec.reference_nodes.push_back(
      {.name = "tip", .position = Vec3(kLength, 0.5 * kWidth, 0.5 * kThickness)});
  spec.couplings.push_back({.kind = fe::CouplingKind::kRigid, .reference = "tip", .set = "xmax"});
  const fe::FeModel fe_model = fe::BuildFeModel(spec);
  Hinged s = Hinge(CraigBamptonBody(fe_model, {.interface = {"pin", "tip"}}, 4), JointKind::kRigid);
  s.model.markers.push_back({"tip", 0, Vec3::Zero(), Mat3::Identity(), 1});
  const Vec3 torque(0.3, -0.2, 0.5);  // [N m]
  Load load{.marker = 2};
  for (int k = 0; k < 3; ++k) load.torque[k] = time::TimeFunction::Constant(torque(k));
  s.model.loads = {load};
  SpatialSystem system(s.model);
  const int n = system.size(), rows = system.constraint_count();
  const VecX q = system.InitialPositions(), v = VecX::Zero(n);
  Matrix k = MatX(MatX::Zero(n, n)), d = k;
  VecX g = VecX::Zero(n), f = VecX::Zero(n), c(rows);
  ASSERT_TRUE(system.InternalForce({0.0, 1e-3, &q, &v, &q, false}, g, &k, &d));
  ASSERT_TRUE(system.ConfigurationLoad(0.0, q, f, nullptr));
  SparseMatrix cq;
  ASSERT_TRUE(system.Constraints(0.0, q, c, &cq));
  MatX bordered = MatX::Zero(n + rows, n + rows);
  bordered.topLeftCorner(n, n) = k.dense();
  bordered.topRightCorner(n, rows) = MatX(cq).transpose();
  bordered.bottomLeftCorner(rows, n) = MatX(cq);
  VecX rhs = VecX::Zero(n + rows);
  rhs.head(n) = f - g;
  const VecX dq = bordered.partialPivLu().solve(rhs).head(n);
  // The tip's motion in the multibody model to first order: its point (central difference
  // along dq: no second-order term), and the frame's rotation 2 e (small) plus the node's
  // elastic rotation Phi_r zeta.
  const Vec3 tip_displacement =
      0.5 * (system.MarkerPosition(q + dq, 2) - system.MarkerPosition(q - dq, 2));
  const VecX zeta = dq.segment(7, n - 7);
  const Vec3 tip_rotation =
      2.0 * dq.segment<3>(4) + s.body.body->nodes[1].shape.bottomRows(3) * zeta;
  // The FE model's static solution: K u = f on the independent DOFs but the pin's.
  const fe::DofMap& dofs = *fe_model.dofs;
  const int total = dofs.num_free_dofs();
  std::vector<int> kept;
  std::vector<int> pin;
  for (int c = 0; c < 6; ++c) pin.push_back(dofs.FreeIndex(dofs.ReferenceDof("pin", c)));
  for (int i = 0; i < total; ++i)
    if (std::find(pin.begin(), pin.end(), i) == pin.end()) kept.push_back(i);
  const MatX full = MatX(fe_model.ReducedStiffness());
  MatX kk(kept.size(), kept.size());
  for (size_t i = 0; i < kept.size(); ++i)
    for (size_t j = 0; j < kept.size(); ++j) kk(i, j) = full(kept[i], kept[j]);
  const auto position = [&](int c) {
    const int dof = dofs.FreeIndex(dofs.ReferenceDof("tip", c));
    return int(std::find(kept.begin(), kept.end(), dof) - kept.begin());
  };
  VecX load_vector = VecX::Zero(kept.size());
  for (int c = 0; c < 3; ++c) load_vector(position(3 + c)) = torque(c);
  const VecX u = kk.ldlt().solve(load_vector);
  Vec3 fe_displacement, fe_rotation;
  for (int c = 0; c < 3; ++c) {
    fe_displacement(c) = u(position(c));
    fe_rotation(c) = u(position(3 + c));
  }
  const double displacement_error = (tip_displacement - fe_displacement).norm(),
               rotation_error = (tip_rotation - fe_rotation).norm();
  std::printf(
      "clamped beam, torque at the tip node: tip displacement %.3e m (FE %.3e m, difference "
      "%.1e), rotation %.3e rad (FE %.3e rad, difference %.1e)\n",
      tip_displacement.norm(), fe_displacement.norm(), displacement_error, tip_rotation.norm(),
      fe_rotation.norm(), rotation_error);
  EXPECT_GT(fe_rotation.norm(), 1e-5);
  EXPECT_LT(displacement_error, 1e-8 * fe_displacement.norm());  // 1.2e-10 measured
  EXPECT_LT(rotation_error, 1e-8 * fe_rotation.norm());          // 1.9e-11 measured
}

// The derivatives of a system with a flexible body (revolute, prismatic, rigid and distance
// joints on its nodes, a spring, a rotational spring and a load) against central
// differences, at a turned, deformed, moving state: constraint Jacobian and force tangent,
// inertia, internal forces and loads.
TEST(SpatialFlexibleBody, DerivativesMatchCentralDifferences) {
  fe::FeModelSpec spec = Beam(210e9, 6);
  spec.reference_nodes.push_back(
      {.name = "tip", .position = Vec3(kLength, 0.5 * kWidth, 0.5 * kThickness)});
  spec.couplings.push_back({.kind = fe::CouplingKind::kRigid, .reference = "tip", .set = "xmax"});
  Hinged s = Hinge(CraigBamptonBody(fe::BuildFeModel(spec), {.interface = {"pin", "tip"}}, 4));
  SpatialModel& m = s.model;
  Body car{"car", BodyKind::kRigid, 0.9};
  car.inertia = Vec3(1e-3, 2e-3, 1.5e-3).asDiagonal();
  car.position = Vec3(0.45, 0.01, 0.0);
  Body ball{"ball", BodyKind::kPointMass, 0.2};
  ball.position = Vec3(0.5, 0.1, 0.05);
  m.bodies.push_back(car);
  m.bodies.push_back(ball);
  const Mat3 tilted = Eigen::AngleAxisd(0.3, Vec3(1.0, 2.0, -1.0).normalized()).toRotationMatrix();
  m.markers.push_back({"tip", 0, Vec3::Zero(), tilted, 1});
  m.markers.push_back({"car", 1, Vec3(0.01, -0.02, 0.03), tilted.transpose()});
  m.markers.push_back({"ball", 2});
  m.joints = {{"revolute", JointKind::kRevolute, 0, 1},
              {"rigid", JointKind::kRigid, 2, 3},
              {"distance", JointKind::kDistance, 2, 4, 0.1},
              {"prismatic", JointKind::kPrismatic, 3, 2}};
  m.springs = {{"s", 2, 4, 100.0, 1.0, 0.05}};
  m.rotational_springs = {{"r", 0, 2, 5.0, 0.1, 0.2}};
  Load load{.marker = 2};
  load.force = {time::TimeFunction::Constant(2.0), time::TimeFunction::Constant(-1.0),
                time::TimeFunction::Constant(0.5)};
  load.torque = {time::TimeFunction::Constant(0.3), time::TimeFunction::Constant(0.2),
                 time::TimeFunction::Constant(-0.4)};
  m.loads = {load};
  m.gravity = {0.0, -9.81, 0.0};
  SpatialSystem system(m);
  const int n = system.size(), rows = system.constraint_count();
  VecX q = system.InitialPositions(), v = VecX::LinSpaced(n, -0.5, 0.7);
  q.segment<4>(3) = Eigen::Vector4d(0.9, 0.2, -0.3, 0.1).normalized();  // turned
  q.segment(7, 4) << 1e-3, -2e-3, 5e-4, 1e-3;                           // deformed
  const double t = 0.1, h = 1e-6;
  const auto relative = [](const MatX& exact, const MatX& approx) {
    return (exact - approx).cwiseAbs().maxCoeff() / exact.cwiseAbs().maxCoeff();
  };
  VecX c(rows);
  SparseMatrix cq;
  system.Constraints(t, q, c, &cq);
  EXPECT_LT(relative(MatX(cq), testing::Differences(testing::ConstraintsAt(system, t), q, h)),
            1e-8);
  const VecX lambda = VecX::LinSpaced(rows, -2.0, 3.0);
  SparseMatrix tangent;
  system.ConstraintForceTangent(t, q, lambda, tangent);
  const auto force_of = [&](const VecX& x) {
    VecX c_x(rows);
    SparseMatrix j;
    system.Constraints(t, x, c_x, &j);
    return VecX(j.transpose() * lambda);
  };
  EXPECT_LT(relative(MatX(tangent), testing::Differences(force_of, q, h)), 1e-6);
  const VecX a = VecX::LinSpaced(n, 1.0, -2.0);
  const auto inertia = [&](const VecX& x, const VecX& rate) {
    VecX f(n);
    system.Inertia(x, rate, a, f, nullptr, nullptr, nullptr);
    return f;
  };
  Matrix mass = MatX(MatX::Zero(n, n)), d_dq = mass, d_dv = mass;
  VecX f(n);
  system.Inertia(q, v, a, f, &mass, &d_dq, &d_dv);
  EXPECT_LT(relative(d_dq.dense(),
                     testing::Differences([&](const VecX& x) { return inertia(x, v); }, q, h)),
            1e-6);
  EXPECT_LT(relative(d_dv.dense(),
                     testing::Differences([&](const VecX& r) { return inertia(q, r); }, v, h)),
            1e-6);
  const auto internal = [&](const VecX& x) {
    VecX g = VecX::Zero(n), load_x = VecX::Zero(n);
    system.InternalForce({t, 1e-3, &x, &v, &x, false}, g, nullptr, nullptr);
    system.ConfigurationLoad(t, x, load_x, nullptr);
    return VecX(g - load_x);
  };
  Matrix k = MatX(MatX::Zero(n, n)), d = k, load_tangent = k;
  VecX g = VecX::Zero(n), loads = VecX::Zero(n);
  system.InternalForce({t, 1e-3, &q, &v, &q, false}, g, &k, &d);
  system.ConfigurationLoad(t, q, loads, &load_tangent);
  EXPECT_LT(relative(k.dense() - load_tangent.dense(), testing::Differences(internal, q, h)), 1e-6);
  // The quadratic velocity term of the constraints: C_q a = Q_c for a = the second
  // derivative of q(s) = q + s v + s^2 a / 2 along any a (here: d2c/ds2 = v' H v + C_q a).
  VecX q_c(rows);
  system.ConstraintAccelerationTerm(t, q, v, q_c);
  const auto c_along = [&](double step) {
    VecX x = q + step * v, value(rows);
    system.Constraints(t, x, value, nullptr);
    return value;
  };
  const double hs = 1e-4;
  const VecX second = (c_along(hs) - 2.0 * c + c_along(-hs)) / (hs * hs);
  EXPECT_LT((second + q_c).cwiseAbs().maxCoeff(), 1e-5 * (1.0 + second.cwiseAbs().maxCoeff()));
}

}  // namespace
}  // namespace jointdyn::mbs::spatial
