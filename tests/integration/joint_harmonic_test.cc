// Harmonic balance of jointed FE structures (analysis/joint_harmonic.h) through the model
// files a user writes (examples/harmonic/bolted_lap_joint_frf.yaml): the Jacobian of the
// pair elements on the reduced model against central differences; the linear limit (the
// resonance at a vanishing level against the eigenfrequency with the joint stuck); the
// periodic solution against the steady state of a long transient of the same reduced
// model (joint_dynamics) at three frequencies; the reduced against the full model.
#include "analysis/joint_harmonic.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>

#include "analysis/joint_dynamics.h"
#include "model/joint_harmonic_reader.h"
#include "model/model_node.h"

namespace jointdyn {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

analysis::JointHarmonicOptions LapJoint() {
  const std::filesystem::path file =
      std::filesystem::path(JOINTDYN_SOURCE_DIR) / "examples/harmonic/bolted_lap_joint_frf.yaml";
  return model::ReadJointHarmonic(model::ModelNode::LoadFile(file.string()));
}

// The residual's Jacobian over the unknowns (the pairs' AFT Jacobians mapped through the
// rows of R V, with the history sensitivity through the offsets) against central
// differences at the linearized solution, with friction at 300 N (the pairs slip over much
// of the period) and frictionless at 30 N. The step, 1e-12 in coordinates of about 1 m per
// unit, stays far below the preload's penetrations (about 1e-8 m), so no pair opens within
// it. (At small levels the pairs the preload left at their slip limit slip or stick by the
// sign of the motion: the residual has a kink there, no derivative to compare with.)
TEST(JointHarmonic, JacobianOfTheReducedLapJointMatchesDifferences) {
  for (const bool friction : {true, false}) {
    analysis::JointHarmonicOptions options = LapJoint();
    if (!friction) options.joints[0].friction = nullptr;
    analysis::Observer quiet;
    analysis::JointHarmonicSystem built = analysis::BuildJointHarmonicSystem(options, quiet);
    ASSERT_TRUE(built.result.status) << built.result.status.message;
    harmonic::HarmonicBalance& hb = *built.hb;
    const double omega = kTwoPi * 870.0, level = friction ? 300.0 : 30.0;
    VecX q;
    ASSERT_TRUE(hb.LinearizedSolution(omega, level, q));
    VecX residual, plus, minus;
    MatX jacobian;
    ASSERT_TRUE(hb.Evaluate(q, omega, level, residual, &jacobian, nullptr, nullptr));
    MatX reference(q.size(), q.size());
    const double step = 1e-12;
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      VecX qp = q, qm = q;
      qp(i) += step;
      qm(i) -= step;
      ASSERT_TRUE(hb.Evaluate(qp, omega, level, plus, nullptr, nullptr, nullptr));
      ASSERT_TRUE(hb.Evaluate(qm, omega, level, minus, nullptr, nullptr, nullptr));
      reference.col(i) = (plus - minus) / (2.0 * step);
    }
    const double error = (jacobian - reference).cwiseAbs().maxCoeff();
    const double size = reference.cwiseAbs().maxCoeff();
    std::printf("%s, %g N: Jacobian max error %.2e of %.2e\n",
                friction ? "friction" : "frictionless", level, error, size);
    EXPECT_LT(error, 1e-8 * size);
  }
}

// At a vanishing level (1e-3 of the example's 1 N) and light damping the frequency
// response peaks at the eigenfrequency of the model linearized with its joint stuck
// (JointHarmonicResult::linear_frequencies), within 0.1 % (the check).
TEST(JointHarmonic, ResonanceAtAVanishingLevelIsTheStuckEigenfrequency) {
  analysis::JointHarmonicOptions options = LapJoint();
  options.levels = {1e-3};
  options.rayleigh_beta = 1e-7;  // 0.03 % of critical: the amplitude peak at 1 - 1e-7 of f_n
  options.continuation.start = kTwoPi * 916.0;
  options.continuation.end = kTwoPi * 926.0;
  analysis::Observer quiet;
  const analysis::JointHarmonicResult result = analysis::RunJointHarmonic(options, quiet);
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_FALSE(result.linear_frequencies.empty());
  double peak = 0.0, peak_hz = 0.0;
  for (const harmonic::SolutionPoint& point : result.curves[0].continuation.points) {
    const MatX c = analysis::OutputCoefficients(result, point);
    const double amplitude = std::hypot(c(0, 1), c(0, 2));
    if (amplitude > peak) {
      peak = amplitude;
      peak_hz = point.omega / kTwoPi;
    }
  }
  const double stuck = result.linear_frequencies[0];
  std::printf("peak at %.3f Hz, stuck eigenfrequency %.3f Hz (%.1e), %zu points\n", peak_hz, stuck,
              std::abs(peak_hz / stuck - 1.0), result.curves[0].continuation.points.size());
  EXPECT_LT(std::abs(peak_hz / stuck - 1.0), 1e-3);
}

// The amplitude of harmonic 1 of x(t) over the last `periods` periods of the samples
// (t, x) at frequency f [Hz] (samples evenly spaced, an integer number per period).
double FirstHarmonicAmplitude(const std::vector<double>& t, const std::vector<double>& x, double f,
                              int periods) {
  const double t_from = t.back() - periods / f;
  double a = 0.0, b = 0.0;
  int count = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] <= t_from + 1e-12 / f) continue;
    a += x[i] * std::cos(kTwoPi * f * t[i]);
    b += x[i] * std::sin(kTwoPi * f * t[i]);
    ++count;
  }
  return 2.0 * std::hypot(a, b) / count;
}

// At three frequencies (below, at and above the resonance of level 0.3 N) the periodic
// solution matches the steady state of a transient of the same reduced model started
// from the preloaded state (joint_dynamics with the same structure, basis and a sinusoid
// of the same amplitude; Newmark average acceleration, 200 steps per period, 60 periods,
// harmonic 1 over the last 4): first-harmonic amplitudes of the tip within 1 %.
TEST(JointHarmonic, PeriodicSolutionsMatchTheSteadyStateOfTransients) {
  const analysis::JointHarmonicOptions options = LapJoint();
  analysis::Observer quiet;
  analysis::JointHarmonicSystem built = analysis::BuildJointHarmonicSystem(options, quiet);
  ASSERT_TRUE(built.result.status) << built.result.status.message;
  const double level = 0.3;
  for (const double f : {880.0, 919.0, 960.0}) {
    const harmonic::PeriodicResult periodic =
        harmonic::SolvePeriodic(*built.hb, kTwoPi * f, level, options.continuation.solve);
    ASSERT_TRUE(periodic.status) << periodic.status.message;
    const MatX c = analysis::OutputCoefficients(built.result, periodic.point);
    const double hb_amplitude = std::hypot(c(0, 1), c(0, 2));

    analysis::JointDynamicsOptions dynamics;
    static_cast<analysis::JointedStructureOptions&>(dynamics) = options;
    dynamics.cms = options.cms;
    dynamics.joint_modes = options.joint_modes;
    dynamics.methods = {options.joint_modes.modes.method};
    dynamics.modes = {options.joint_modes.modes.modes};
    dynamics.loads = {
        {options.excitation[0].loads, time::TimeFunction::Sinusoid(level, f, 0.0, 0.0)}};
    dynamics.measure = options.output_dofs[0];
    dynamics.integrator.scheme = time::Scheme::kNewmark;
    dynamics.integrator.alpha = 0.0;
    dynamics.integrator.dt = 1.0 / (200.0 * f);
    dynamics.integrator.t_end = 60.0 / f;
    analysis::JointDynamicsObserver dynamics_quiet;
    const analysis::JointDynamicsResult transient =
        analysis::RunJointDynamics(dynamics, dynamics_quiet);
    ASSERT_TRUE(transient.status) << transient.status.message;
    const analysis::RunHistory& history = transient.results.back().history;
    const double td_amplitude =
        FirstHarmonicAmplitude(history.time, history.criteria[analysis::kMeasure], f, 4);
    std::printf(
        "%g Hz: harmonic balance %.5e m (%d Newton iterations, %.3f s), transient %.5e m "
        "(%.2f s): %.2e\n",
        f, hb_amplitude, periodic.newton.iterations, periodic.seconds, td_amplitude,
        transient.results.back().wall_seconds, hb_amplitude / td_amplitude - 1.0);
    EXPECT_NEAR(hb_amplitude / td_amplitude, 1.0, 0.01);
  }
}

// The reduced model of the example (31 coordinates) and the full one (126 DOFs, condensed
// to the 48 interface DOFs: 336 unknowns) give the same resonance at 0.3 N: measured peaks
// at 918.8 and 916.9 Hz (0.2 %), stuck eigenfrequencies 921.3 and 918.7 Hz (0.3 %), peak
// amplitudes within 1 %.
TEST(JointHarmonic, ReducedAndFullModelsGiveTheSameResonance) {
  analysis::JointHarmonicOptions reduced = LapJoint();
  reduced.levels = {0.3};
  reduced.continuation.start = kTwoPi * 905.0;
  reduced.continuation.end = kTwoPi * 930.0;
  analysis::JointHarmonicOptions full = reduced;
  full.full = true;
  analysis::Observer quiet;
  std::array<double, 2> peak_hz{}, peak{}, stuck{};
  for (int run = 0; run < 2; ++run) {
    const analysis::JointHarmonicResult result =
        analysis::RunJointHarmonic(run == 0 ? reduced : full, quiet);
    ASSERT_TRUE(result.status) << result.status.message;
    for (const harmonic::SolutionPoint& point : result.curves[0].continuation.points) {
      const MatX c = analysis::OutputCoefficients(result, point);
      if (std::hypot(c(0, 1), c(0, 2)) > peak[run]) {
        peak[run] = std::hypot(c(0, 1), c(0, 2));
        peak_hz[run] = point.omega / kTwoPi;
      }
    }
    stuck[run] = result.linear_frequencies.at(0);
    std::printf(
        "%s: %d coordinates, %d unknowns, stuck %.2f Hz, peak %.3e m at %.2f Hz, %zu "
        "points, %.2f s\n",
        run == 0 ? "reduced" : "full", result.coordinates, result.unknowns, stuck[run], peak[run],
        peak_hz[run], result.curves[0].continuation.points.size(), result.wall_seconds);
  }
  EXPECT_NEAR(peak_hz[0] / peak_hz[1], 1.0, 5e-3);
  EXPECT_NEAR(stuck[0] / stuck[1], 1.0, 5e-3);
  EXPECT_NEAR(peak[0] / peak[1], 1.0, 0.02);
}

}  // namespace
}  // namespace jointdyn

namespace jointdyn {
namespace {

// The contact fields over the period of a solution point (output.contact_fields: the joints
// marched through the point's motion, 64 snapshots) carry the joint forces the harmonic
// balance solved for: the first harmonic of their sum on the coordinates equals that of
// f_ext - (M x'' + C x' + K x) at the point, within 1e-3 of its size (the snapshots' DFT
// leaves the harmonics above 3 aliased at 64 phases; the march closes its loop to 1e-6).
TEST(JointHarmonic, ContactFieldsCarryTheBalancedJointForces) {
  analysis::JointHarmonicOptions options = LapJoint();
  options.levels = {0.3};
  options.continuation.start = kTwoPi * 915.0;
  options.continuation.end = kTwoPi * 925.0;
  options.contact_fields = analysis::ContactFieldPoints{{kTwoPi * 919.0}, 64};
  analysis::Observer quiet;
  const analysis::JointHarmonicResult result = analysis::RunJointHarmonic(options, quiet);
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_EQ(result.contact_fields.size(), 1u);
  const analysis::PeriodSnapshots& s = result.contact_fields[0];
  ASSERT_EQ(s.joints.size(), 64u);
  const harmonic::SolutionPoint* point = nullptr;
  for (const harmonic::SolutionPoint& p : result.curves[0].continuation.points)
    if (p.omega == s.omega) point = &p;
  ASSERT_NE(point, nullptr);
  // The snapshots' joint force, first harmonic.
  VecX cos_part = VecX::Zero(result.coordinates), sin_part = cos_part, force;
  for (size_t k = 0; k < s.joints.size(); ++k) {
    const double theta = s.omega * s.times[k];
    for (joint::JointOperator joint : s.joints[k]) {
      joint.Forces(force);
      cos_part += (2.0 / 64) * std::cos(theta) * force;
      sin_part += (2.0 / 64) * std::sin(theta) * force;
    }
  }
  // f_ext - (K - w^2 M) a1 - w C b1 (cos) and f_ext - (K - w^2 M) b1 + w C a1 (sin).
  const analysis::JointHarmonicSystem built = analysis::BuildJointHarmonicSystem(options, quiet);
  ASSERT_TRUE(built.result.status) << built.result.status.message;
  const harmonic::HarmonicSystem& hb = built.hb->system();
  const double w = s.omega;
  const VecX a1 = point->coefficients.col(1), b1 = point->coefficients.col(2);
  const solvers::SparseMatrix dynamic = hb.stiffness - w * w * hb.mass;
  VecX cos_balance = -(dynamic * a1) - w * (hb.damping * b1);
  VecX sin_balance = -(dynamic * b1) + w * (hb.damping * a1);
  for (const harmonic::ExcitationTerm& term : hb.excitation) {
    if (term.harmonic != 1) continue;
    cos_balance(term.dof) += 0.3 * term.cos_amplitude;
    sin_balance(term.dof) += 0.3 * term.sin_amplitude;
  }
  const double size =
      std::max(cos_balance.cwiseAbs().maxCoeff(), sin_balance.cwiseAbs().maxCoeff());
  const double error = std::max((cos_part - cos_balance).cwiseAbs().maxCoeff(),
                                (sin_part - sin_balance).cwiseAbs().maxCoeff());
  std::printf(
      "contact fields at %.2f Hz (%d periods marched): first-harmonic joint force %.3e "
      "N, difference from the balance %.2e\n",
      w / kTwoPi, s.periods, size, error / size);
  EXPECT_LT(error, 1e-3 * size);
}

}  // namespace
}  // namespace jointdyn
