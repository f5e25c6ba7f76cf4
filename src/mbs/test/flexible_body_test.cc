// The planar FFRF body from an FE model (flexible_body_builder.h) in a multibody system:
// a steel strip pinned at one end vibrates at the frequencies of the FE model with the pin
// as a support; a very stiff strip moves as the equivalent rigid body; the inertia shape
// integrals have the FE model's mass and centre of mass.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>

#include "fe/fe_model.h"
#include "laws/normal_laws.h"
#include "laws/viscoelastic.h"
#include "mbs/flexible_body_builder.h"
#include "mbs/planar_system.h"
#include "mbs/test/differences.h"
#include "reduction/craig_bampton.h"
#include "reduction/free_free.h"
#include "solvers/eigen_solver.h"
#include "time/integrator.h"

namespace jointdyn::mbs {
namespace {

constexpr double kLength = 0.4, kWidth = 0.02, kThickness = 1e-3, kDensity = 7850.0;

// A strip [0, 0.4] x [0, 0.02] of quad8 with a reference node "pin" rigidly coupled to its
// left edge.
fe::FeModelSpec Strip(double youngs_modulus) {
  fe::FeModelSpec spec;
  spec.source = fe::MeshSource::kRectangle;
  spec.rectangle.size = Vec2(kLength, kWidth);
  spec.rectangle.divisions = {40, 2};
  spec.rectangle.type = fe::ElementType::kQuad8;
  spec.materials["rectangle"] = {youngs_modulus, 0.3, kDensity, kThickness};
  spec.reference_nodes = {{.name = "pin", .at = "xmin"}};
  spec.couplings = {{.kind = fe::CouplingKind::kRigid, .reference = "pin", .set = "xmin"}};
  return spec;
}

// The body of `model` on the Craig-Bampton basis of `interface` with `modes` fixed-interface
// modes, orthogonalized to free-free modes.
FlexibleBodyResult CraigBamptonBody(const fe::FeModel& model, FlexibleBodySpec spec, int modes) {
  const solvers::SparseMatrix k = model.ReducedStiffness(), m = model.ReducedMass();
  const reduction::CraigBamptonResult cb =
      reduction::CraigBampton(k, m, reduction::ReferenceNodeBoundary(*model.dofs, spec.interface),
                              {.fixed_interface_modes = modes});
  EXPECT_TRUE(cb.status) << cb.status.message;
  const reduction::FreeFreeResult ff =
      reduction::OrthogonalizeToFreeFree(cb.basis, cb.stiffness, cb.mass);
  EXPECT_EQ(ff.rigid_modes, 3);
  return BuildFlexibleBody(model, ff.basis, spec);
}

struct PinnedStrip {
  FlexibleBodyResult body;
  PlanarModel model;
};

// The strip's FFRF body with its frame at its centre of mass, pinned to the ground at the
// reference node.
PinnedStrip Pin(FlexibleBodyResult flexible) {
  PinnedStrip s;
  s.body = std::move(flexible);
  Body body{"strip", BodyKind::kFlexible};
  body.position = s.body.centre_of_mass;
  body.flexible = s.body.body;
  s.model.bodies = {body};
  s.model.markers = {{"ground_pin", kGround, Vec2(0.0, 0.5 * kWidth)},
                     {"pin", 0, Vec2::Zero(), 0.0, 0}};
  s.model.joints = {{"pin", JointKind::kRevolute, 0, 1}};
  return s;
}

PinnedStrip Pinned(double youngs_modulus, int modes) {
  return Pin(
      CraigBamptonBody(fe::BuildFeModel(Strip(youngs_modulus)), {.interface = {"pin"}}, modes));
}

TEST(FlexibleBody, HasTheMassAndCentreOfMassOfTheFeModel) {
  const PinnedStrip s = Pinned(210e9, 6);
  const double mass = kDensity * kLength * kWidth * kThickness;
  const FlexibleInertia& b = s.body.body->inertia;
  EXPECT_NEAR(b.mass(), mass, 1e-12 * mass);
  EXPECT_LT((s.body.centre_of_mass - Vec2(0.5 * kLength, 0.5 * kWidth)).norm(), 1e-12);
  // About the centre of mass: J = m (l^2 + w^2) / 12; free-free modes at the centre of
  // mass carry no momentum (S_f, c0, h0 vanish) and are M-orthonormal.
  EXPECT_NEAR(b.g00, mass * (kLength * kLength + kWidth * kWidth) / 12.0, 1e-9 * b.g00);
  EXPECT_LT(b.c0.norm(), 1e-12 * mass * kLength);
  EXPECT_LT(b.s_f.cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_FALSE(MovesCentreOfMass(b));  // so gravity skips its elastic coordinates
  EXPECT_LT(b.h0.cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_LT((MatX(b.m_ff) - MatX::Identity(b.modes(), b.modes())).cwiseAbs().maxCoeff(), 1e-10);
}

// The small-amplitude frequencies of the multibody system at rest: the generalized
// eigenproblem of K and M(q0) on the null space of C_q.
VecX LinearizedFrequencies(PlanarSystem& system) {
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
  const MatX k = null.transpose() * stiffness.dense() * null;
  const MatX m = null.transpose() * mass.dense() * null;
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eigen(0.5 * (k + k.transpose()),
                                                       0.5 * (m + m.transpose()));
  return eigen.eigenvalues().cwiseMax(0.0).cwiseSqrt() / (2.0 * M_PI);
}

TEST(FlexibleBody, PinnedStripHasTheFrequenciesOfTheFeModel) {
  PinnedStrip s = Pinned(210e9, 6);
  PlanarSystem system(s.model);
  const VecX mbs = LinearizedFrequencies(system);
  // The FE model with the pin as a support (rz free): its rigid rotation, then bending.
  fe::FeModelSpec spec = Strip(210e9);
  spec.supports = {{.set = "pin", .components = {0, 1}}};
  const fe::FeModel fe = fe::BuildFeModel(spec);
  solvers::EigenOptions options;
  options.count = 4;
  options.shift = -1.0;
  const solvers::EigenResult modal =
      solvers::SolveGeneralizedEigen(fe.ReducedStiffness(), fe.ReducedMass(), options);
  ASSERT_TRUE(modal.status) << modal.status.message;
  const VecX fe_hz = modal.values.cwiseMax(0.0).cwiseSqrt() / (2.0 * M_PI);
  EXPECT_LT(mbs(0), 1e-3);  // the free rotation about the pin
  for (int i = 1; i < 4; ++i) {
    std::printf("pinned strip mode %d: multibody %.4f Hz, FE modal %.4f Hz, error %+.2e\n", i,
                mbs(i), fe_hz(i), mbs(i) / fe_hz(i) - 1.0);
    EXPECT_NEAR(mbs(i) / fe_hz(i), 1.0, 5e-3);
  }
}

// Unreduced (every DOF a coordinate, the frame fixed to the pin node), the pinned strip's
// linearized frequencies are the FE model's to rounding.
TEST(FlexibleBody, UnreducedPinnedStripHasTheFrequenciesOfTheFeModelToRounding) {
  const fe::FeModel model = fe::BuildFeModel(Strip(210e9));
  PinnedStrip s = Pin(BuildUnreducedBody(model, {.interface = {"pin"}}));
  EXPECT_EQ(s.body.body->modes(), model.dofs->num_free_dofs() - 3);
  PlanarSystem system(s.model);
  const VecX mbs = LinearizedFrequencies(system);
  fe::FeModelSpec spec = Strip(210e9);
  spec.supports = {{.set = "pin", .components = {0, 1}}};
  const fe::FeModel fe = fe::BuildFeModel(spec);
  const solvers::EigenResult modal = solvers::SolveGeneralizedEigen(
      fe.ReducedStiffness(), fe.ReducedMass(), {.count = 6, .shift = -1.0});
  ASSERT_TRUE(modal.status) << modal.status.message;
  const VecX fe_hz = modal.values.cwiseMax(0.0).cwiseSqrt() / (2.0 * M_PI);
  double largest = 0.0;
  for (int i = 1; i < 6; ++i) largest = std::max(largest, std::abs(mbs(i) / fe_hz(i) - 1.0));
  std::printf("unreduced pinned strip: largest relative frequency error of modes 1-5 %.1e\n",
              largest);
  EXPECT_LT(largest, 1e-8);
}

// Released horizontally under gravity, a strip a million times stiffer than steel swings as
// the rigid body with its mass and inertia (the frame's coordinates against the rigid
// body's, each integrated with the same steps).
TEST(FlexibleBody, VeryStiffStripMovesAsTheRigidBody) {
  PinnedStrip flexible = Pinned(210e15, 4);
  flexible.model.gravity = {0.0, -9.81};
  const FlexibleInertia& inertia = flexible.body.body->inertia;
  PlanarModel rigid = flexible.model;
  rigid.bodies[0] = {"strip", BodyKind::kRigid, inertia.mass(), inertia.g00,
                     flexible.body.centre_of_mass};
  rigid.markers[1] = {"pin", 0, Vec2(0.0, 0.5 * kWidth) - flexible.body.centre_of_mass};
  time::IntegratorOptions options;
  options.alpha = -0.05;
  options.t_end = 0.3;
  options.dt = 1e-3;
  options.position_scale = kLength;
  std::vector<VecX> frames;
  const auto run = [&](const PlanarModel& model, bool record) {
    PlanarSystem system(model);
    double largest = 0.0;
    size_t step = 0;
    const time::TransientResult result = time::Integrate(
        system, options, system.InitialPositions(), system.InitialVelocities(),
        [&](const time::StepRecord& r) {
          if (record) {
            frames.push_back(r.q->head(3));
          } else {
            largest = std::max(largest, (r.q->head(3) - frames.at(step)).cwiseAbs().maxCoeff());
          }
          ++step;
        });
    EXPECT_TRUE(result.status) << result.status.message;
    return std::pair{largest, result};
  };
  run(rigid, true);
  const auto [difference, result] = run(flexible.model, false);
  std::printf(
      "stiff strip against the rigid body: largest frame difference %.2e (m or rad) "
      "over %d steps, %.2f Newton iterations per step; angle swept %.3f rad\n",
      difference, result.accepted_steps, double(result.newton_iterations) / result.accepted_steps,
      frames.back()(2));
  EXPECT_LT(difference, 1e-6 * kLength);
  EXPECT_GT(std::abs(frames.back()(2)), 0.5);  // it did swing
}

// Released horizontally under gravity, the strip on the Craig-Bampton basis (6 modes) swings
// as the unreduced strip (every FE DOF a coordinate): the mesh's far corner within 1e-6 of
// the length over 0.1 s. The unreduced strip's run with sparse storage (as large unreduced
// bodies have) equals its run with dense storage to rounding.
TEST(FlexibleBody, ReducedStripSwingsAsTheUnreducedStrip) {
  fe::FeModelSpec spec = Strip(210e9);
  spec.rectangle.divisions = {20, 1};  // a small unreduced body
  const fe::FeModel model = fe::BuildFeModel(spec);
  const auto corner = [&](const PinnedStrip& s, int dense_coordinates = kDenseCoordinates) {
    PlanarModel m = s.model;
    m.gravity = {0.0, -9.81};
    PlanarSystem system(m, dense_coordinates);
    EXPECT_EQ(system.mass().is_dense(), system.size() <= dense_coordinates);
    time::IntegratorOptions options;
    options.alpha = -0.05;
    options.t_end = 0.1;
    options.dt = 2e-4;
    options.position_scale = kLength;
    options.output_interval = 1e-3;
    std::vector<Vec2> path;
    const int far = static_cast<int>(model.mesh.nodes.rows()) - 1;  // (0.4, 0.02)
    const time::TransientResult result =
        time::Integrate(system, options, system.InitialPositions(), system.InitialVelocities(),
                        [&](const time::StepRecord& r) {
                          path.push_back(system.FlexibleMeshPositions(0, *r.q).row(far));
                        });
    EXPECT_TRUE(result.status) << result.status.message;
    return path;  // every 1e-3 s
  };
  const std::vector<Vec2> reduced = corner(Pin(CraigBamptonBody(model, {.interface = {"pin"}}, 6)));
  const PinnedStrip unreduced = Pin(BuildUnreducedBody(model, {.interface = {"pin"}}));
  const std::vector<Vec2> full = corner(unreduced), sparse = corner(unreduced, 0);
  ASSERT_EQ(reduced.size(), full.size());
  ASSERT_EQ(sparse.size(), full.size());
  double largest = 0.0, storage = 0.0;
  for (size_t i = 0; i < full.size(); ++i) {
    largest = std::max(largest, (reduced[i] - full[i]).norm());
    storage = std::max(storage, (sparse[i] - full[i]).norm());
  }
  std::printf(
      "reduced against unreduced strip: far corner within %.2e m over 0.1 s (drop %.3f m); "
      "sparse against dense storage %.1e m\n",
      largest, full.front().y() - full.back().y(), storage);
  EXPECT_LT(largest, 2e-8 * kLength);  // 1.6e-9 m measured
  EXPECT_LT(storage, 1e-12 * kLength);
  EXPECT_GT(full.front().y() - full.back().y(), 0.05);  // it swung
}

// Gravity on an unreduced body's elastic coordinates (its frame fixed to the pin node: the
// centre of mass moves with them, S_f != 0): the load and its tangent against central
// differences.
TEST(FlexibleBody, GravityOnAnUnreducedBodyHasItsTangent) {
  fe::FeModelSpec spec = Strip(210e9);
  spec.rectangle.divisions = {10, 1};
  const fe::FeModel model = fe::BuildFeModel(spec);
  PinnedStrip s = Pin(BuildUnreducedBody(model, {.interface = {"pin"}}));
  s.model.gravity = {1.0, -9.81};
  ASSERT_TRUE(MovesCentreOfMass(s.body.body->inertia));
  PlanarSystem system(s.model);
  ASSERT_TRUE(system.has_configuration_loads());
  const int n = system.size();
  VecX q = system.InitialPositions();
  q(2) = 0.7;
  q.tail(n - 3) = 1e-4 * VecX::LinSpaced(n - 3, -1.0, 1.0);
  VecX load;
  EXPECT_LT(testing::LoadTangentError(system, 0.0, q, load), 1e-7);
  EXPECT_GT(load.tail(n - 3).norm(), 0.0);
}

// A steel strip swinging under gravity: the energy balance of the flexible body closes
// (kinetic + elastic = the work of gravity): to rounding with HHT alpha = 0, with a small
// positive numerical dissipation with alpha = -0.1; and it bends as it swings.
TEST(FlexibleBody, SwingingStripKeepsItsEnergyBalance) {
  PinnedStrip strip = Pinned(210e9, 4);
  strip.model.gravity = {0.0, -9.81};
  const double scale = strip.body.body->inertia.mass() * 9.81 * 0.5 * kLength;  // [J]
  for (const double alpha : {0.0, -0.1}) {
    PlanarSystem system(strip.model);
    time::IntegratorOptions options;
    options.alpha = alpha;
    options.t_end = 0.25;
    options.dt = 4e-4;
    options.position_scale = kLength;
    double largest_modal = 0.0;
    const time::TransientResult result = time::Integrate(
        system, options, system.InitialPositions(), system.InitialVelocities(),
        [&](const time::StepRecord& r) {
          largest_modal = std::max(largest_modal, r.q->tail(4).cwiseAbs().maxCoeff());
        });
    ASSERT_TRUE(result.status) << result.status.message;
    const time::EnergyBalance& e = result.energy;
    std::printf(
        "swinging strip alpha = %.1f: kinetic %.4e J, elastic %.3e J, gravity's work "
        "%.4e J, constraint work %.1e J, remainder %.2e J (of %.3e J); largest modal "
        "coordinate %.2e, %.2f Newton iterations per step\n",
        alpha, e.kinetic, e.stored, e.external_work, e.constraint_work, e.numerical_dissipation,
        scale, largest_modal, double(result.newton_iterations) / result.accepted_steps);
    EXPECT_GT(e.stored, 0.0);  // it bends
    if (alpha == 0.0) {
      EXPECT_LT(std::abs(e.numerical_dissipation), 1e-9 * scale);
    } else {
      EXPECT_GT(e.numerical_dissipation, 0.0);
      EXPECT_LT(e.numerical_dissipation, 1e-3 * scale);
    }
  }
}

// The derivatives of a system with a flexible body (rigid, prismatic and distance joints, a
// spring and a load with a torque on the strip's node) against central differences, at a
// deformed, moving state: constraint Jacobian and force tangent, inertia, internal forces.
TEST(FlexibleBody, DerivativesMatchCentralDifferences) {
  PinnedStrip s = Pinned(210e9, 4);
  PlanarModel& m = s.model;
  m.bodies.push_back({"car", BodyKind::kRigid, 0.9, 1e-3, Vec2(0.0, 0.01), 0.2});
  m.bodies.push_back({"ball", BodyKind::kPointMass, 0.2, 0.0, Vec2(0.1, 0.0)});
  m.markers.push_back({"car", 1, Vec2(0.01, -0.02), 0.3});
  m.markers.push_back({"ball", 2});
  m.joints = {{"rigid", JointKind::kRigid, 2, 1},
              {"prismatic", JointKind::kPrismatic, 1, 3},
              {"distance", JointKind::kDistance, 1, 3, 0.1}};
  m.springs = {{"s", 1, 2, 100.0, 1.0, 0.05}};
  m.loads = {{1, time::TimeFunction::Constant(2.0), time::TimeFunction::Constant(-1.0),
              time::TimeFunction::Constant(0.3)}};
  PlanarSystem system(m);
  const int n = system.size(), rows = system.constraint_count();
  VecX q = system.InitialPositions(), v = VecX::LinSpaced(n, -0.5, 0.7);
  q.segment(3, 4) << 1e-3, -2e-3, 5e-4, 1e-3;  // deformed
  const double t = 0.1, h = 1e-6;
  const auto c_of = testing::ConstraintsAt(system, t);
  VecX c(rows);
  SparseMatrix cq;
  system.Constraints(t, q, c, &cq);
  // The node's rotation per unit of an M-normalized mode reaches 880 rad: relative bounds
  // (the differences' error falls as h^2: 3.8e-6 at h = 1e-6, 3.8e-8 at 1e-7).
  const auto relative = [](const MatX& exact, const MatX& approx) {
    return (exact - approx).cwiseAbs().maxCoeff() / exact.cwiseAbs().maxCoeff();
  };
  EXPECT_LT(relative(MatX(cq), testing::Differences(c_of, q, h)), 1e-8);
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
  // Internal and inertia forces and loads.
  const VecX a = VecX::LinSpaced(n, 1.0, -2.0);
  const auto inertia = [&](const VecX& x, const VecX& rate) {
    VecX f(n);
    system.Inertia(x, rate, a, f, nullptr, nullptr, nullptr);
    return f;
  };
  Matrix mass = MatX(MatX::Zero(n, n)), d_dq = mass, d_dv = mass;
  VecX f(n);
  system.Inertia(q, v, a, f, &mass, &d_dq, &d_dv);
  const MatX dq_fd = testing::Differences([&](const VecX& x) { return inertia(x, v); }, q, h);
  const MatX dv_fd = testing::Differences([&](const VecX& r) { return inertia(q, r); }, v, h);
  EXPECT_LT((d_dq.dense() - dq_fd).cwiseAbs().maxCoeff(),
            1e-6 * (1.0 + dq_fd.cwiseAbs().maxCoeff()));
  EXPECT_LT((d_dv.dense() - dv_fd).cwiseAbs().maxCoeff(),
            1e-6 * (1.0 + dv_fd.cwiseAbs().maxCoeff()));
  const auto internal = [&](const VecX& x) {
    VecX g = VecX::Zero(n);
    system.InternalForce({t, 1e-3, &x, &v, &x, false}, g, nullptr, nullptr);
    VecX load = VecX::Zero(n);
    system.ConfigurationLoad(t, x, load, nullptr);
    return VecX(g - load);
  };
  Matrix k = MatX(MatX::Zero(n, n)), d = k, load_tangent = k;
  VecX g = VecX::Zero(n), load = VecX::Zero(n);
  system.InternalForce({t, 1e-3, &q, &v, &q, false}, g, &k, &d);
  system.ConfigurationLoad(t, q, load, &load_tangent);
  const MatX k_fd = testing::Differences(internal, q, h);
  EXPECT_LT((k.dense() - load_tangent.dense() - k_fd).cwiseAbs().maxCoeff(),
            1e-6 * k_fd.cwiseAbs().maxCoeff());
}

// A joint inside the body acts on its modal coordinates in the moving frame (seed 003 eq.
// 3.15): a bonded joint (bilateral penalty and elastic tangential law: linear) between
// the strip's upper and lower edge at three stations gives the motion of the same body
// with that stiffness added to its modal stiffness, the joint's history committed step by
// step.
TEST(FlexibleBody, BondedJointActsAsItsLinearStiffness) {
  const fe::FeModel fe = fe::BuildFeModel(Strip(210e9));
  const fe::DofMap& dofs = *fe.dofs;
  // Pairs between the bottom and top nodes at x = 0.1, 0.2, 0.3 m: rows s1 (x), s2 (out of
  // the plane: none), g (y) of u_bottom - u_top.
  std::vector<std::pair<int, int>> nodes;
  for (const double x : {0.1, 0.2, 0.3}) {
    int bottom = -1, top = -1;
    for (int i = 0; i < fe.mesh.nodes.rows(); ++i) {
      if (std::abs(fe.mesh.nodes(i, 0) - x) > 1e-9) continue;
      if (std::abs(fe.mesh.nodes(i, 1)) < 1e-9) bottom = i;
      if (std::abs(fe.mesh.nodes(i, 1) - kWidth) < 1e-9) top = i;
    }
    ASSERT_GE(bottom, 0);
    ASSERT_GE(top, 0);
    nodes.emplace_back(bottom, top);
  }
  joint::DenseRows r = joint::DenseRows::Zero(3 * nodes.size(), dofs.num_free_dofs());
  for (size_t p = 0; p < nodes.size(); ++p)
    for (const auto& [row, component] : {std::pair{0, 0}, std::pair{2, 1}}) {
      r(3 * p + row, dofs.FreeIndex(dofs.MeshDof(nodes[p].first, component))) = 1.0;
      r(3 * p + row, dofs.FreeIndex(dofs.MeshDof(nodes[p].second, component))) = -1.0;
    }
  joint::JointLaws joint_laws{std::make_shared<laws::BondedLaw>(laws::BondedParams{1e12}),
                              std::make_shared<laws::ElasticLaw>(laws::ElasticParams{5e11}, 2)};
  const joint::JointOperator bonded(joint::PairProjection(r), VecX::Zero(nodes.size()),
                                    VecX::Constant(nodes.size(), 1e-5), joint_laws);
  const FlexibleBodyResult with_joint =
      CraigBamptonBody(fe, {.interface = {"pin"}, .joints = {bonded}}, 6);
  auto linear = std::make_shared<FlexibleBody>(*with_joint.body);
  joint::JointOperator reduced = linear->joints.front();
  ASSERT_TRUE(reduced.Evaluate(VecX::Zero(linear->modes())));
  MatX tangent;
  reduced.Jacobian(tangent);
  linear->stiffness = SparseMatrix(MatX(MatX(linear->stiffness) + tangent).sparseView());
  linear->joints.clear();

  const auto run = [&](std::shared_ptr<const FlexibleBody> body) {
    PinnedStrip s = Pinned(210e9, 6);
    s.model.bodies[0].flexible = std::move(body);
    s.model.bodies[0].position = with_joint.centre_of_mass;
    s.model.gravity = {0.0, -9.81};
    PlanarSystem system(s.model);
    time::IntegratorOptions options;
    options.t_end = 0.1;
    options.dt = 1e-3;
    options.position_scale = kLength;
    std::vector<VecX> states;
    const time::TransientResult result =
        time::Integrate(system, options, system.InitialPositions(), system.InitialVelocities(),
                        [&](const time::StepRecord& rec) { states.push_back(*rec.q); });
    EXPECT_TRUE(result.status) << result.status.message;
    return std::pair{states, result.energy.stored};
  };
  const auto [jointed, jointed_energy] = run(with_joint.body);
  const auto [merged, merged_energy] = run(linear);
  ASSERT_EQ(jointed.size(), merged.size());
  double difference = 0.0, largest = 0.0;
  for (size_t i = 0; i < jointed.size(); ++i) {
    difference = std::max(difference, (jointed[i] - merged[i]).cwiseAbs().maxCoeff());
    largest = std::max(largest, jointed[i].tail(6).cwiseAbs().maxCoeff());
  }
  std::printf(
      "bonded joint inside the strip against its linear stiffness: largest coordinate "
      "difference %.2e (largest modal coordinate %.2e), stored energy %.6e J vs %.6e J\n",
      difference, largest, jointed_energy, merged_energy);
  EXPECT_LT(difference, 1e-8 * largest + 1e-12);
  EXPECT_NEAR(jointed_energy, merged_energy, 1e-8 * merged_energy);
  // Without the joint the strip moves otherwise: the joint's stiffness matters here.
  auto free = std::make_shared<FlexibleBody>(*with_joint.body);
  free->joints.clear();
  const auto [unjointed, unjointed_energy] = run(free);
  double change = 0.0;
  for (size_t i = 0; i < jointed.size(); ++i)
    change = std::max(change, (jointed[i] - unjointed[i]).tail(6).cwiseAbs().maxCoeff());
  std::printf("... and without the joint: modal coordinates differ by %.2e\n", change);
  EXPECT_GT(change, 0.1 * largest);
}

}  // namespace
}  // namespace jointdyn::mbs
