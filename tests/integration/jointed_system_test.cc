#include "joint/jointed_system.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <iostream>
#include <numbers>

#include "core/error.h"
#include "fe/assembly.h"
#include "fe/constraints.h"
#include "fe/contact_surface.h"
#include "joint/contact_kinematics.h"
#include "joint/test/joint_test_util.h"
#include "laws/coulomb.h"
#include "laws/normal_laws.h"
#include "lumped/lumped_system.h"
#include "time/integrator.h"

namespace jointdyn::joint {
namespace {

const fe::ElasticMaterial kSteel{.youngs_modulus = 210e9, .poisson_ratio = 0.3, .density = 7850.0};

// Two steel blocks 0.1 x 0.1 x 0.05 m (hex8, 2 x 2 x 1 cells each) stacked touching, the
// upper one pressed onto the lower one by `normal` and pulled along x by `tangential`
// (both resultants on the upper top face [N], distributed by nodal areas). `lower_supports`
// hold the lower block; the upper block is held only by the contact.
struct TwoBlocks {
  fe::Mesh mesh;
  std::unique_ptr<fe::DofMap> dofs;
  std::unique_ptr<JointedSystem> system;
  double upper_mass = 0.0;  // [kg]
  double area = 0.0;        // contact area [m^2]
};

struct TwoBlockParams {
  std::vector<fe::Support> lower_supports = {{"lower_zmin", {}}};
  double eps = 1e13;                                  // linear penalty [Pa/m]
  std::shared_ptr<const laws::NormalLaw> normal_law;  // null: the linear penalty eps
  laws::CoulombParams friction;
  time::TimeFunction normal, tangential;  // [N]
  double rayleigh_beta = 0.0;             // [s]
};

TwoBlocks MakeTwoBlocks(const TwoBlockParams& p) {
  TwoBlocks b;
  const fe::BoxMeshOptions box{.size = Vec3(0.1, 0.1, 0.05), .divisions = {2, 2, 1}};
  b.mesh = test::StackBoxes(box, box, 0.0);
  b.dofs = std::make_unique<fe::DofMap>(b.mesh, fe::ConstraintSpec{.supports = p.lower_supports});
  const fe::AssemblyResult fe =
      fe::Assemble(b.mesh, {{"lower", kSteel}, {"upper", kSteel}}, {.stiffness = true});
  StructureMatrices matrices{.mass = b.dofs->Reduce(fe.mass),
                             .stiffness = b.dofs->Reduce(fe.stiffness)};
  matrices.damping = RayleighDamping(matrices.mass, matrices.stiffness, 0.0, p.rayleigh_beta);
  const fe::PairingResult pairing = fe::PairSurfaces(
      b.mesh, fe::SurfaceFromFaceSet(b.mesh, "upper_zmin"),
      fe::SurfaceFromFaceSet(b.mesh, "lower_zmax"),
      {.search_distance = 1e-3, .area_weighting = fe::AreaWeighting::kDiagonalScaled});
  const ContactKinematics kinematics = BuildContactKinematics(b.mesh, pairing);
  b.area = kinematics.area.sum();
  std::vector<JointOperator> joints;
  joints.emplace_back(
      OnIndependentDofs(kinematics.relative, *b.dofs), kinematics.initial_gap, kinematics.area,
      JointLaws{.normal = p.normal_law ? p.normal_law
                                       : std::make_shared<laws::LinearPenaltyLaw>(
                                             laws::LinearPenaltyParams{.eps = p.eps}),
                .tangential = std::make_shared<laws::CoulombLaw>(p.friction, 2)});
  // Unit resultants along -z and +x on the top face.
  VecX down = VecX::Zero(b.dofs->num_dofs()), along = down;
  const double top_area = 0.1 * 0.1;
  for (const auto& [node, area] : fe::NodalAreas(b.mesh, b.mesh.face_sets.at("upper_zmax"))) {
    down(b.dofs->MeshDof(node, 2)) -= area / top_area;
    along(b.dofs->MeshDof(node, 0)) += area / top_area;
  }
  std::vector<TimedLoad> loads = {{b.dofs->ReduceLoad(down), p.normal},
                                  {b.dofs->ReduceLoad(along), p.tangential}};
  b.upper_mass = kSteel.density * 0.1 * 0.1 * 0.05;
  b.system =
      std::make_unique<JointedSystem>(std::move(matrices), std::move(joints), std::move(loads));
  return b;
}

struct Trajectory {
  std::vector<double> t;
  std::vector<VecX> q;
  int stick = 0, slip = 0, open = 0;  // pair states summed over the accepted steps
};

Trajectory Simulate(JointedSystem& system, const time::IntegratorOptions& options,
                    time::TransientResult& result, const VecX* q0 = nullptr) {
  Trajectory trajectory;
  const VecX zero = VecX::Zero(system.size());
  result = time::Integrate(system, options, q0 ? *q0 : zero, zero, [&](const time::StepRecord& r) {
    trajectory.t.push_back(r.t);
    trajectory.q.push_back(*r.q);
    for (const JointOperator& joint : system.joints())
      for (int i = 0; i < joint.num_pairs(); ++i) {
        const laws::ContactState state = joint.Output(i).state;
        trajectory.stick += state == laws::ContactState::kStick ? 1 : 0;
        trajectory.slip += state == laws::ContactState::kSlip ? 1 : 0;
        trajectory.open += state == laws::ContactState::kOpen ? 1 : 0;
      }
  });
  return trajectory;
}

time::IntegratorOptions Hht(double dt, double t_end) {
  time::IntegratorOptions options;
  options.scheme = time::Scheme::kHht;
  options.alpha = -0.3;  // seed 003 section 4.1.1
  options.dt = dt;
  options.t_end = t_end;
  options.newton.residual_tolerance = 1e-12;
  options.newton.increment_tolerance = 1e-12;
  return options;
}

// The upper block is pressed on (10 kN in 0.2 ms), pulled along x up to twice the
// friction limit (stick, then slip from about 0.5 ms), and lifted off after 1.2 ms
// (separation): the reduced system with the identity basis must follow the full one step
// by step. Both solve the same equations; they differ in the linear solver (dense LU for
// the reduced model's dense matrices, sparse LU for the full model) and in the summation
// order of the joint products, so they agree to rounding amplified by the Newton
// tolerance (1e-12), far below 1e-10.
TEST(JointedSystem, IdentityBasisFollowsTheFullModelStepByStep) {
  const double mu = 0.3, n_max = 1e4;
  TwoBlockParams params{
      .friction = {.c1 = 1e13, .c2 = 1e11, .mu = mu},
      .normal = time::TimeFunction::Table({0.0, 2e-4, 1.2e-3, 1.4e-3}, {0.0, n_max, n_max, -n_max}),
      .tangential = time::TimeFunction::Table({0.0, 1e-3}, {0.0, 2.0 * mu * n_max}),
      .rayleigh_beta = 1e-7};
  TwoBlocks full = MakeTwoBlocks(params);
  const int n = full.system->size();
  JointedSystem reduced = Reduce(*full.system, MatX::Identity(n, n));
  ASSERT_TRUE(reduced.reduced());
  ASSERT_FALSE(full.system->reduced());
  // Coordinate units: the largest |V_ij| of each column (1 here, 3 for a basis 3 I); the
  // full model's coordinates are physical (none).
  EXPECT_EQ(full.system->CoordinateUnits().size(), 0);
  EXPECT_EQ(reduced.CoordinateUnits(), VecX::Ones(n));
  EXPECT_EQ(Reduce(*full.system, 3.0 * MatX::Identity(n, n)).CoordinateUnits(),
            VecX::Constant(n, 3.0));

  const time::IntegratorOptions options = Hht(1e-5, 1.6e-3);
  time::TransientResult full_result, reduced_result;
  const Trajectory a = Simulate(*full.system, options, full_result);
  const Trajectory b = Simulate(reduced, options, reduced_result);
  ASSERT_TRUE(full_result.status.ok) << full_result.status.message;
  ASSERT_TRUE(reduced_result.status.ok) << reduced_result.status.message;
  ASSERT_EQ(a.q.size(), b.q.size());
  double scale = 0.0, error = 0.0;
  for (std::size_t k = 0; k < a.q.size(); ++k) {
    scale = std::max(scale, a.q[k].lpNorm<Eigen::Infinity>());
    error = std::max(error, (a.q[k] - b.q[k]).lpNorm<Eigen::Infinity>());
  }
  std::cout << "two blocks: " << n << " DOFs, " << full.system->joints()[0].num_pairs()
            << " pairs, " << full_result.accepted_steps << " steps, Newton "
            << full_result.newton_iterations << " (full) / " << reduced_result.newton_iterations
            << " (reduced); pair-steps stick " << a.stick << ", slip " << a.slip << ", open "
            << a.open << "; max |q_full - q_reduced| / max |q| = " << error / scale << "\n";
  EXPECT_GT(a.stick, 0);
  EXPECT_GT(a.slip, 0);
  EXPECT_GT(a.open, 0);
  EXPECT_EQ(a.stick, b.stick);
  EXPECT_EQ(a.slip, b.slip);
  EXPECT_EQ(a.open, b.open);
  EXPECT_LE(error, 1e-10 * scale);
}

// Energy balance of the FE two-block run (stick, slip, separation, Rayleigh damping):
// external work = kinetic + stored (strain + penalty + stick springs) + friction and
// viscous dissipation + the integrator's remainder. The remainder is HHT's numerical
// damping of the block's own vibrations (alpha = -0.3 damps the modes above about
// 1 / (2 h)): it must stay a small fraction of the work (measured 4.0e-4 with h = 10 us,
// 2.1e-4 with 5 us), and with the step halved it must shrink.
TEST(JointedSystem, EnergyBalanceOfTheBlocksClosesUpToTheNumericalDamping) {
  const double mu = 0.3, n_max = 1e4;
  const TwoBlockParams params{
      .friction = {.c1 = 1e13, .c2 = 1e11, .mu = mu},
      .normal = time::TimeFunction::Table({0.0, 2e-4, 1.2e-3, 1.4e-3}, {0.0, n_max, n_max, -n_max}),
      .tangential = time::TimeFunction::Table({0.0, 1e-3}, {0.0, 2.0 * mu * n_max}),
      .rayleigh_beta = 1e-7};
  double remainder[2];
  for (int refine = 0; refine < 2; ++refine) {
    TwoBlocks b = MakeTwoBlocks(params);
    time::TransientResult result;
    Simulate(*b.system, Hht(1e-5 / (1 << refine), 1.6e-3), result);
    ASSERT_TRUE(result.status.ok) << result.status.message;
    const time::EnergyBalance& e = result.energy;
    remainder[refine] = e.numerical_dissipation / e.external_work;
    std::cout << "energy (h = " << 1e-5 / (1 << refine) << " s): external " << e.external_work
              << " J = kinetic " << e.kinetic << " + stored " << e.stored - e.initial_stored
              << " + friction " << e.law_dissipation << " + viscous " << e.viscous_dissipation
              << " + remainder " << e.numerical_dissipation << " J\n";
    EXPECT_GT(e.law_dissipation, 0.0);
    EXPECT_GT(e.viscous_dissipation, 0.0);
  }
  EXPECT_LE(std::abs(remainder[0]), 1e-3);
  EXPECT_LT(std::abs(remainder[1]), std::abs(remainder[0]));
}

// A rigid block on a rigid floor (the lower block fully supported), reduced to its three
// rigid translations, and the lumped model of src/lumped with the same laws scaled by the
// contact area (all pairs carry the same traction, so the joint is one contact element).
struct RigidBlock {
  TwoBlocks blocks;
  std::unique_ptr<JointedSystem> reduced;
  std::unique_ptr<lumped::LumpedSystem> lumped;
  double mass = 0.0, area = 0.0;  // [kg], [m^2]
};

// `normal_law` and `lumped_normal_law` (the same law per area and times the area), the
// Coulomb law per area, the resultants N(t) pressing, F(t) pulling along x, z0 the start.
RigidBlock MakeRigidBlock(std::shared_ptr<const laws::NormalLaw> normal_law,
                          std::shared_ptr<const laws::NormalLaw> lumped_normal_law,
                          const laws::CoulombParams& coulomb, double n_force, double f, double z0) {
  RigidBlock r;
  r.blocks = MakeTwoBlocks({.lower_supports = {{"lower_xmin", {}},
                                               {"lower_xmax", {}},
                                               {"lower_ymin", {}},
                                               {"lower_ymax", {}},
                                               {"lower_zmin", {}},
                                               {"lower_zmax", {}}},
                            .normal_law = std::move(normal_law),
                            .friction = coulomb,
                            .normal = time::TimeFunction::Constant(n_force),
                            .tangential = time::TimeFunction::Constant(f)});
  const TwoBlocks& b = r.blocks;
  MatX rigid = MatX::Zero(b.system->size(), 3);
  for (int node = 0; node < b.mesh.num_nodes(); ++node)
    for (int c = 0; c < 3; ++c)
      if (const int i = b.dofs->FreeIndex(b.dofs->MeshDof(node, c)); i >= 0) rigid(i, c) = 1.0;
  r.reduced = std::make_unique<JointedSystem>(Reduce(*b.system, rigid));
  r.mass = r.reduced->mass().dense()(0, 0);
  r.area = b.area;
  const double a = r.area;
  lumped::LumpedModel model;
  model.dofs = {{.name = "x", .mass = r.mass},
                {.name = "y", .mass = r.mass},
                {.name = "z", .mass = r.mass, .q0 = z0}};
  model.friction.push_back(
      {.name = "joint",
       .a = {0, 1},
       .b = {lumped::kGround, lumped::kGround},
       .law = std::make_shared<laws::CoulombLaw>(
           laws::CoulombParams{.c1 = coulomb.c1 * a, .c2 = coulomb.c2 * a, .mu = coulomb.mu}, 2),
       .normal = {.kind = lumped::NormalSource::Kind::kGapDofs,
                  .law = std::move(lumped_normal_law),
                  .a = 2}});
  model.loads = {{.dof = 0, .force = time::TimeFunction::Constant(f)},
                 {.dof = 2, .force = time::TimeFunction::Constant(-n_force)}};
  r.lumped = std::make_unique<lumped::LumpedSystem>(model);
  return r;
}

// Runs both models of `r` from rest at (0, 0, z0); the largest difference of their
// positions over the run [m].
double CompareWithLumped(RigidBlock& r, const time::IntegratorOptions& options, double z0,
                         Trajectory& fe, time::TransientResult& fe_result) {
  time::TransientResult lumped_result;
  const VecX q0 = Vec3(0.0, 0.0, z0);
  fe = Simulate(*r.reduced, options, fe_result, &q0);
  std::vector<VecX> lumped_q;
  lumped_result = time::Integrate(*r.lumped, options, r.lumped->initial_positions(),
                                  r.lumped->initial_velocities(),
                                  [&](const time::StepRecord& s) { lumped_q.push_back(*s.q); });
  EXPECT_TRUE(fe_result.status.ok) << fe_result.status.message;
  EXPECT_TRUE(lumped_result.status.ok) << lumped_result.status.message;
  EXPECT_EQ(fe.q.size(), lumped_q.size());
  double error = 0.0;
  for (std::size_t k = 0; k < std::min(fe.q.size(), lumped_q.size()); ++k)
    error = std::max(error, (fe.q[k] - lumped_q[k]).lpNorm<Eigen::Infinity>());
  return error;
}

// Linear penalty eps A and Coulomb c1 A, c2 = 0, mu. Pressed by N at its static
// penetration N / (eps A) and pulled by a constant F = 2 mu N from rest:
// stick x = F / k (1 - cos w t) (k = c1 A, w^2 = k / m) until k x = mu N at
// cos w t1 = 1 - mu N / F, then slip at the constant acceleration (F - mu N) / m (the
// slider force stays mu N: the velocity grows, so the block never sticks again).
TEST(JointedSystem, RigidBlockMatchesTheLumpedModelAndTheClosedForm) {
  const double mu = 0.3, n_force = 1e4, f = 2.0 * mu * n_force, eps = 1e13, a = 0.01;
  const laws::CoulombParams coulomb{.c1 = 1e11, .c2 = 0.0, .mu = mu};
  const double z0 = -n_force / (eps * a);
  RigidBlock r = MakeRigidBlock(
      std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{.eps = eps}),
      std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{.eps = eps * a}), coulomb,
      n_force, f, z0);
  const double m = r.mass;
  EXPECT_NEAR(m, r.blocks.upper_mass, 1e-12 * m);
  EXPECT_NEAR(r.area, a, 1e-14);

  const double t_end = 1e-3;
  time::TransientResult fe_result;
  Trajectory fe;
  const double lumped_error = CompareWithLumped(r, Hht(1e-6, t_end), z0, fe, fe_result);
  ASSERT_TRUE(fe_result.status.ok);

  const double k = coulomb.c1 * a, w = std::sqrt(k / m);
  const double t1 = std::acos(1.0 - mu * n_force / f) / w, x1 = mu * n_force / k;
  const double v1 = f / (m * w) * std::sin(w * t1), acc = (f - mu * n_force) / m;
  const double x_exact = x1 + v1 * (t_end - t1) + 0.5 * acc * (t_end - t1) * (t_end - t1);
  const double x_end = fe.q.back()(0);
  // Slip acceleration from the last two velocities-free samples: x is quadratic in slip,
  // so its second difference over three steps is exact for Newmark-type schemes.
  const std::size_t last = fe.q.size() - 1;
  const double h = fe.t[last] - fe.t[last - 1];
  const double acc_numeric =
      (fe.q[last](0) - 2.0 * fe.q[last - 1](0) + fe.q[last - 2](0)) / (h * h);
  const time::EnergyBalance& e = fe_result.energy;
  const double friction_work = mu * n_force * (x_end - x1);  // slider travel x - mu N / k
  std::cout << "rigid block: x(T) " << x_end << " m (closed form " << x_exact << "), |FE - lumped| "
            << lumped_error << " m, slip acceleration " << acc_numeric << " m/s^2 (closed form "
            << acc << "), friction dissipation " << e.law_dissipation << " J (mu N s "
            << friction_work << "), external work " << e.external_work << " J, remainder "
            << e.numerical_dissipation << " J\n";
  // Same equations in another assembly: rounding only.
  EXPECT_LE(lumped_error, 1e-9 * std::abs(x_end));
  // The closed form against the integrator (HHT, w h = 0.016): the stick phase's phase
  // error O((w h)^2) shifts the slip start; measured below 1e-4.
  EXPECT_NEAR(x_end, x_exact, 1e-3 * x_exact);
  EXPECT_NEAR(acc_numeric, acc, 1e-6 * acc);
  EXPECT_NEAR(fe.q.back()(2), z0, 1e-9 * std::abs(z0));  // the normal stays static
  // Energy: external work = kinetic + stored + friction dissipation (no damping).
  EXPECT_NEAR(e.law_dissipation, friction_work, 1e-3 * friction_work);
  EXPECT_LE(std::abs(e.numerical_dissipation), 1e-4 * e.external_work);
}

// The rate-dependent path (Derivative::kVelocity into the damping tangent): the block
// dropped from touching onto a Lankarani-Nikravesh spring-damper (n = 1: p = k_c d +
// d_c d_dot) under a constant N, no pull. While p > 0 this is a linear oscillator with
// k = k_c A, c = d_c A (damping ratio zeta = c / (2 sqrt(k m)) = 0.2):
//   z(t) = -N / k (1 - e^(-zeta w t) (cos w_d t + zeta / sqrt(1 - zeta^2) sin w_d t)).
TEST(JointedSystem, RateDependentContactMatchesTheLumpedModelAndTheDampedOscillator) {
  const double n_force = 1e4, k_c = 1e13, a = 0.01, mass = 7850.0 * 0.1 * 0.1 * 0.05;
  const double k = k_c * a, w = std::sqrt(k / mass), zeta = 0.2;
  const double d_c = zeta * 2.0 * std::sqrt(k * mass) / a;
  RigidBlock r =
      MakeRigidBlock(std::make_shared<laws::LankaraniNikraveshLaw>(
                         laws::LankaraniNikraveshParams{.k_c = k_c, .n = 1.0, .d_c = d_c}),
                     std::make_shared<laws::LankaraniNikraveshLaw>(
                         laws::LankaraniNikraveshParams{.k_c = k_c * a, .n = 1.0, .d_c = d_c * a}),
                     {.c1 = 1e11, .c2 = 0.0, .mu = 0.3}, n_force, 0.0, 0.0);
  ASSERT_NEAR(r.mass, mass, 1e-12 * mass);
  const double t_end = 10.0 * std::numbers::pi / w;  // 5 periods
  time::TransientResult fe_result;
  Trajectory fe;
  const double lumped_error = CompareWithLumped(r, Hht(t_end / 2000.0, t_end), 0.0, fe, fe_result);
  ASSERT_TRUE(fe_result.status.ok);
  const double static_z = -n_force / k, w_d = w * std::sqrt(1.0 - zeta * zeta);
  double error = 0.0;
  for (std::size_t s = 0; s < fe.q.size(); ++s) {
    const double t = fe.t[s];
    const double exact =
        static_z *
        (1.0 - std::exp(-zeta * w * t) *
                   (std::cos(w_d * t) + zeta / std::sqrt(1.0 - zeta * zeta) * std::sin(w_d * t)));
    error = std::max(error, std::abs(fe.q[s](2) - exact));
  }
  std::cout << "rate-dependent contact: |FE - lumped| " << lumped_error << " m, |FE - oscillator| "
            << error / std::abs(static_z) << " of N / k, Newton " << fe_result.newton_iterations
            << " in " << fe_result.accepted_steps << " steps\n";
  EXPECT_LE(lumped_error, 1e-9 * std::abs(static_z));
  // HHT alpha = -0.3 at w h = 0.016 (numerical damping ~ -alpha w h / 2 added to
  // zeta = 0.2, period error O((w h)^2)): measured 5.9e-5 of N / k.
  EXPECT_LE(error, 5e-4 * std::abs(static_z));
  // Quadratic Newton with the velocity tangent: measured ~2 iterations per step.
  EXPECT_LE(fe_result.newton_iterations, 4 * fe_result.accepted_steps);
}

// Modal damping gives each mass-normalized mode its ratio: Phi^T C Phi = diag(2 zeta w)
// (modes of a random symmetric pencil, Eigen's generalized eigensolver); bad
// coefficients are input errors naming the key.
TEST(JointedSystem, ModalDampingDampsEachModeWithItsRatioAndCoefficientsAreChecked) {
  const int n = 6;
  const MatX g = MatX::Random(n, n);
  const MatX m_dense = g * g.transpose() + n * MatX::Identity(n, n);
  const MatX k_dense = MatX::Random(n, n) * 1e3;
  const MatX k_sym = k_dense * k_dense.transpose();
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> modes(k_sym, m_dense);
  const MatX phi = modes.eigenvectors().leftCols(3);
  const VecX omega = modes.eigenvalues().head(3).cwiseSqrt();
  const VecX ratio = Eigen::Vector3d(0.01, 0.02, 0.05);
  const solvers::SparseMatrix m = m_dense.sparseView();
  const MatX modal = phi.transpose() * ModalDamping(m, phi, omega, ratio) * phi;
  const MatX expected = (2.0 * ratio.cwiseProduct(omega)).asDiagonal();
  EXPECT_LE((modal - expected).lpNorm<Eigen::Infinity>(), 1e-12 * expected.maxCoeff());
  const solvers::SparseMatrix k = k_sym.sparseView();
  EXPECT_LE(
      MatX(RayleighDamping(m, k, 2.0, 3e-4).sparse() - (2.0 * m + 3e-4 * k)).cwiseAbs().maxCoeff(),
      0.0);
  EXPECT_EQ(RayleighDamping(m_dense, k_sym, 2.0, 3e-4).dense(), 2.0 * m_dense + 3e-4 * k_sym);
  EXPECT_THROW(RayleighDamping(m, k, -1.0, 0.0), InputError);
  EXPECT_THROW(RayleighDamping(m, k, 0.0, std::nan("")), InputError);
  EXPECT_THROW(ModalDamping(m, phi, omega, Eigen::Vector3d(0.01, -0.02, 0.0)), InputError);
  try {
    RayleighDamping(m, k, -1.0, 0.0);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("damping.rayleigh.alpha"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace jointdyn::joint
