// The FE analyses run on options built in C++ (no model file) on the lap joint of
// lap_joint.h, against independent values:
//   modal            Lanczos eigenfrequencies against a dense generalized eigensolver of
//                    the same K and M;
//   reduction        Craig-Bampton frequencies bound the full ones from above (Rayleigh-
//                    Ritz) and the orthogonalized basis diagonalizes K and M;
//   joint_mode_study reduced static solutions converge to the full one as g grows;
//   joint_dynamics   a reduced transient with joint modes follows the full one.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>

#include "analysis/bolts.h"
#include "analysis/joint_dynamics.h"
#include "analysis/joint_mode_study.h"
#include "analysis/joints.h"
#include "analysis/modal.h"
#include "analysis/reduction.h"
#include "analysis/test/lap_joint.h"
#include "core/error.h"
#include "laws/coulomb.h"
#include "laws/normal_laws.h"

namespace jointdyn::analysis {
namespace {

// The lowest `count` eigenfrequencies [Hz] of K phi = omega^2 M phi by a dense solver.
std::vector<double> DenseFrequencies(const fe::FeModel& model, int count) {
  const MatX k = MatX(model.ReducedStiffness()), m = MatX(model.ReducedMass());
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> dense(k, m);
  std::vector<double> f;
  for (int i = 0; i < count; ++i) f.push_back(SignedFrequency(dense.eigenvalues()(i)));
  return f;
}

TEST(ModalAnalysis, LanczosAgainstADenseEigensolver) {
  ModalOptions options;
  options.fe = testing::LapJoint();
  options.mode_count = 6;
  Observer quiet;
  const ModalResult result = RunModal(options, quiet);
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_EQ(result.model.dofs->num_free_dofs(), 120);
  EXPECT_EQ(result.model.contacts.at(0).pairs.size(), 9u);
  const std::vector<double> dense = DenseFrequencies(result.model, 6);
  ASSERT_EQ(result.frequencies_hz.size(), 6u);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(result.frequencies_hz[i] / dense[i], 1.0, 1e-9) << i;
}

TEST(ModalAnalysis, TooManyModesIsAnInputErrorAtModes) {
  ModalOptions options;
  options.fe = testing::LapJoint();
  options.mode_count = 120;
  Observer quiet;
  try {
    RunModal(options, quiet);
    FAIL() << "120 modes of 120 free DOFs were accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.where(), "modes");
  }
}

TEST(ReductionAnalysis, CraigBamptonBoundsTheFullFrequenciesFromAbove) {
  ReductionOptions options;
  options.fe = testing::LapJoint();
  options.boundary = {"tip"};
  options.craig_bampton.fixed_interface_modes = 6;
  options.compare_full = 4;
  Observer quiet;
  const ReductionResult result = RunReduction(options, quiet);
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_EQ(result.basis.size(), 12);  // 6 fixed-interface + 6 constraint modes, clamped
  ASSERT_TRUE(result.full);
  const std::vector<double> dense = DenseFrequencies(result.model, 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(result.full->frequencies[i] / dense[i], 1.0, 1e-9) << i;
    EXPECT_GE(result.frequencies[i], dense[i] * (1.0 - 1e-9)) << i;  // Rayleigh-Ritz
  }
  EXPECT_LT(result.frequencies[0] / dense[0] - 1.0, 1e-3);
  // The free-free orthogonalization diagonalizes the reduced K and M: M = I, K = omega^2.
  const MatX off_k = result.stiffness - MatX(result.stiffness.diagonal().asDiagonal());
  EXPECT_LT(off_k.norm(), 1e-8 * result.stiffness.norm());
  EXPECT_LT((result.mass - MatX::Identity(12, 12)).norm(), 1e-9);
}

JointModeSpec LapJointModes() {
  JointModeSpec spec;
  spec.contact = "joint";
  spec.normal_law =
      std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{.eps = 5e13});
  return spec;
}

TEST(JointModeStudyAnalysis, ReducedSolutionsApproachTheFullOne) {
  JointModeStudyOptions options;
  options.fe = testing::LapJoint();
  options.cms.boundary = {"tip"};
  options.cms.vibration_modes = 4;
  options.joint = LapJointModes();
  options.methods = {Extension::kWeightedPodOfTvds, Extension::kVibrationModes};
  options.modes = {0, 4, 16};
  options.cases.push_back({.name = "bending",
                           .loads = {{.node = "tip", .force = Vec3(0, 0, 2000)}},
                           .measure = {.node = "tip", .component = 2}});
  Observer quiet;
  const JointModeStudyResult result = RunJointModeStudy(options, quiet);
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_EQ(result.pairs, 9);
  EXPECT_EQ(result.m, 10);
  ASSERT_EQ(result.cases.size(), 1u);
  const StudyCase& c = result.cases[0];
  EXPECT_GT(std::abs(c.full.values[kMeasure]), 1e-6);  // the tip moves
  for (const StudyCurve& curve : c.curves) {
    const std::vector<double>& e = curve.errors[kMeasure];
    ASSERT_EQ(e.size(), 3u);
    EXPECT_LE(e[2], e[0]) << ExtensionLabel(curve.method);
  }
  // wPOD of TVDs with 16 joint modes: within 1 % of the full tip and gap norm.
  EXPECT_LT(c.curves[0].errors[kMeasure][2], 0.01);
  EXPECT_LT(c.curves[0].errors[kGapNorm][2], 0.01);
}

JointDynamicsOptions LapJointDynamics(bool full) {
  JointDynamicsOptions options;
  options.fe = testing::LapJoint();
  options.joints.push_back({"joint", LapJointModes().normal_law,
                            std::make_shared<laws::CoulombLaw>(
                                laws::CoulombParams{.c1 = 9.5e12, .c2 = 5e11, .mu = 0.15}, 2)});
  options.loads.push_back(
      {{{.node = "tip", .force = Vec3(0, 0, 1)}}, time::TimeFunction::SmoothStep0(2000.0, 0.002)});
  options.cms.boundary = {"tip"};
  options.cms.vibration_modes = 4;
  options.joint_modes = LapJointModes();
  options.full = full;
  options.methods = {reduction::JointModeMethod::kWeightedPodOfTvds};
  options.modes = {8};
  options.measure = {.node = "tip", .component = 2};
  options.integrator.scheme = time::Scheme::kHht;
  options.integrator.alpha = -0.3;
  options.integrator.dt = 1e-5;
  options.integrator.t_end = 2e-3;
  return options;
}

TEST(JointDynamicsAnalysis, ReducedRunFollowsTheFullOne) {
  JointDynamicsObserver quiet;
  const JointDynamicsResult result = RunJointDynamics(LapJointDynamics(true), quiet);
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_EQ(result.runs.size(), 2u);  // wpod_tvd_8, full
  EXPECT_EQ(result.runs[0].name, "wpod_tvd_8");
  ASSERT_TRUE(result.reference);
  EXPECT_EQ(*result.reference, 1u);
  const DynamicRunResult& reduced = result.results[0];
  EXPECT_EQ(reduced.size, 18);
  EXPECT_EQ(result.results[1].size, 120);
  double peak = 0.0, worst = 0.0;
  for (const double u : result.results[1].history.criteria[kMeasure])
    peak = std::max(peak, std::abs(u));
  EXPECT_GT(peak, 1e-4);  // the tip moves by more than 0.1 mm
  for (const double e : reduced.errors[kMeasure]) worst = std::max(worst, e);
  EXPECT_LT(worst, 0.01);
}

// The reduction's preload mode from a bolt preload (reduction.preload.bolts): the full
// static solution under the 1 kN preload of the bolted lap joint (frictionless penalty)
// carries the preload in the contact (sum A p = P, the vertical equilibrium of the upper
// block), and the CMS basis with the preload mode reproduces it (the mode is x_PL itself)
// where the CMS basis alone does not. Measured: pressure errors 0.54 (CMS), 3e-14 (CMS +
// preload mode), 2e-14 (final basis).
TEST(ReductionAnalysis, BoltPreloadGivesThePreloadMode) {
  ReductionOptions options;
  options.fe = testing::BoltedLapJoint();
  options.boundary = {"tip"};
  options.craig_bampton.fixed_interface_modes = 4;
  options.joint_modes = LapJointModes();
  options.joint_modes->from_ratio = false;
  options.joint_modes->modes.modes = 4;
  options.preload = PreloadSpec{.bolts = {{.beam = 0, .force = 1000.0}}};
  Observer quiet;
  const ReductionResult result = RunReduction(options, quiet);
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_TRUE(result.joint && result.joint->preload);
  const JointReduction& joint = *result.joint;
  double normal_force = 0.0;
  for (size_t p = 0; p < joint.preload->pairs.size(); ++p)
    normal_force += joint.contact.mesh.area(p) * joint.preload->pairs[p].pressure;
  EXPECT_NEAR(normal_force, 1000.0, 1e-8 * 1000.0);
  ASSERT_EQ(joint.cases.size(), 3u);  // cms, cms_plm, final
  EXPECT_GT(joint.cases[0].error, 1e-3);
  EXPECT_LT(joint.cases[1].error, 1e-8);
  EXPECT_LT(joint.cases[2].error, 1e-8);
}

// The bolted lap joint with a leaning bolt, preloaded to 1 kN (Coulomb friction holds the
// sideways pull), and no dynamic load.
JointDynamicsOptions PreloadedLapJoint() {
  JointDynamicsOptions options = LapJointDynamics(true);
  options.fe = testing::BoltedLapJoint();
  options.fe.reference_nodes[1].position->x() += 0.004;  // the head: the bolt leans
  options.loads.clear();
  options.preloads = {{.beam = 0, .force = 1000.0}};
  options.modes = {0, 8};
  options.integrator.t_end = 2e-4;
  return options;
}

// The full system of a preloaded study carries the preload step's friction history: at a
// state half way back from x0 its internal force is that of joints taken through the
// preload here (analysis/bolts.h, joints.h), not that of virgin joints (the pairs that
// slipped in the preload unload elastically from the slip limit). Measured: equal to the
// last bit; 1.9e-2 of the force scale from virgin joints (3 of 8 pairs slipped).
TEST(JointDynamicsAnalysis, PreloadedSystemCarriesTheFrictionHistory) {
  const JointDynamicsOptions options = PreloadedLapJoint();
  Observer quiet;
  const JointDynamicsSystem built = BuildJointDynamicsSystem(options, quiet);
  ASSERT_TRUE(built.preload && built.preload->status);
  EXPECT_GT(built.preload->joints.slipping_pairs, 0);
  const VecX& x0 = built.preload->state;
  const VecX x1 = 0.5 * x0, zero = VecX::Zero(x1.size());
  VecX f_system;
  const time::StepPoint point{.t = 0.0, .dt = 1e-5, .q = &x1, .v = &zero, .q_start = &x0};
  ASSERT_TRUE(built.system->InternalForce(point, f_system, nullptr, nullptr).ok);

  const fe::FeModel& model = built.model;
  const solvers::SparseMatrix stiffness = model.ReducedStiffness();
  const solvers::SparseMatrix mesh_rows =
      model.dofs->transform().topRows(model.dofs->num_mesh_dofs());
  std::vector<int> pairs;
  std::vector<joint::JointOperator> preloaded =
      BuildJoints(model, options.joints, mesh_rows, {}, pairs);
  std::vector<joint::JointOperator> virgin = preloaded;
  std::vector<Bolt> bolts = MakeBolts(options.preloads, options.fe, model, model.dofs->transform());
  ASSERT_TRUE(joint::SolveStatic(WithoutBoltStiffness(stiffness, bolts), preloaded,
                                 BoltLoad(bolts, true, stiffness.rows()), options.preload_solver)
                  .status.ok);
  const auto internal_force = [&](std::vector<joint::JointOperator>& joints) {
    VecX f = stiffness * x1, f_joint;
    for (joint::JointOperator& joint : joints) {
      EXPECT_TRUE(joint.Evaluate(x1).ok);
      joint.Forces(f_joint);
      f += f_joint;
    }
    return f;
  };
  const VecX f_preloaded = internal_force(preloaded), f_virgin = internal_force(virgin);
  const double scale = f_preloaded.lpNorm<Eigen::Infinity>();
  EXPECT_LT((f_system - f_preloaded).lpNorm<Eigen::Infinity>(), 1e-10 * scale);
  EXPECT_GT((f_system - f_virgin).lpNorm<Eigen::Infinity>(), 1e-4 * scale);
}

// The bolted lap joint preloaded (1 kN, Coulomb friction) without dynamic load: every run
// (the CMS basis, a joint-mode run and the full model) starts from the preloaded state x0,
// with its friction history and the locked bolt's load, and stays there: the largest
// velocity below 1e-9 of the velocity scale |u0| / t_end (u0: the preload's mesh
// displacement) and the measure within 1e-9 of its start. Measured: 2.4e-11 (full),
// 9.6e-12 (reduced runs).
TEST(JointDynamicsAnalysis, PreloadedRunsWithoutDynamicLoadStayAtRest) {
  const JointDynamicsOptions options = PreloadedLapJoint();
  JointDynamicsObserver quiet;
  const JointDynamicsResult result = RunJointDynamics(options, quiet);
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_TRUE(result.preload);
  EXPECT_NEAR(result.preload->bolt_forces.at(0), 1000.0, 1e-8 * 1000.0);
  EXPECT_GT(result.preload->joints.sticking_pairs, 0);
  const double u0 = result.model.dofs->Expand(result.preload->state)
                        .head(result.model.dofs->num_mesh_dofs())
                        .lpNorm<Eigen::Infinity>();
  ASSERT_GT(u0, 1e-7);
  const double velocity_scale = u0 / options.integrator.t_end;
  ASSERT_EQ(result.results.size(), 3u);   // cms, wpod_tvd_8, full
  EXPECT_EQ(result.results[0].size, 11);  // the CMS basis and the preload mode
  const double measure = result.results[2].history.criteria[kMeasure].front();
  ASSERT_GT(std::abs(measure), 1e-8);
  for (size_t r = 0; r < result.results.size(); ++r) {
    const DynamicRunResult& run = result.results[r];
    SCOPED_TRACE(result.runs[r].name);
    EXPECT_EQ(run.transient.accepted_steps, 20);
    EXPECT_EQ(run.transient.rejected_steps, 0);
    EXPECT_LT(run.peak_velocity, 1e-9 * velocity_scale);
    for (const double u : run.history.criteria[kMeasure])
      EXPECT_NEAR(u, measure, 1e-9 * std::abs(measure));
  }
}

}  // namespace
}  // namespace jointdyn::analysis
