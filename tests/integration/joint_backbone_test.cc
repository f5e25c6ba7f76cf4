// Nonlinear modal analysis of a jointed FE structure (analysis/backbone.h through
// joint_harmonic's nonlinear_mode) on the model file a user writes
// (examples/harmonic/bolted_lap_joint_backbone.yaml): the linear limit (the stuck mode's
// frequency and viscous damping), EPMC against quasi-static modal analysis over the
// amplitude, the reduced against the full model, convergence in the harmonics and the AFT
// samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>

#include "analysis/joint_harmonic.h"
#include "model/joint_harmonic_reader.h"
#include "model/model_node.h"

namespace jointdyn {
namespace {

analysis::JointHarmonicOptions LapJoint() {
  const std::filesystem::path file = std::filesystem::path(JOINTDYN_SOURCE_DIR) /
                                     "examples/harmonic/bolted_lap_joint_backbone.yaml";
  return model::ReadJointHarmonic(model::ModelNode::LoadFile(file.string()));
}

analysis::JointHarmonicResult RunQuietly(const analysis::JointHarmonicOptions& options) {
  analysis::Observer quiet;
  return analysis::RunJointHarmonic(options, quiet);
}

// A backbone's frequency and damping ratio at the first output's amplitude `a` (linear
// in log a between its points; NaN outside them).
std::pair<double, double> At(const analysis::Backbone& b, double a) {
  for (int i = 1; i < b.size(); ++i) {
    const double a0 = b.output_amplitude(i - 1, 0), a1 = b.output_amplitude(i, 0);
    if (a < a0 || a > a1) continue;
    const double t = std::log(a / a0) / std::log(a1 / a0);
    return {b.frequency[i - 1] + t * (b.frequency[i] - b.frequency[i - 1]),
            b.damping_ratio[i - 1] + t * (b.damping_ratio[i] - b.damping_ratio[i - 1])};
  }
  return {NAN, NAN};
}

// Largest relative differences of `b` against `reference` at b's points inside the
// reference's range: frequency, damping ratio.
std::pair<double, double> Deviation(const analysis::Backbone& b,
                                    const analysis::Backbone& reference) {
  double frequency = 0.0, damping = 0.0;
  int compared = 0;
  for (int i = 0; i < b.size(); ++i) {
    const auto [f, d] = At(reference, b.output_amplitude(i, 0));
    if (std::isnan(f)) continue;
    ++compared;
    frequency = std::max(frequency, std::abs(b.frequency[i] / f - 1.0));
    damping = std::max(damping, std::abs(b.damping_ratio[i] / d - 1.0));
  }
  EXPECT_GT(compared, b.size() / 2);
  return {frequency, damping};
}

// At amplitudes of 1e-9 and 1e-8 m the joint sticks: both routes give the stuck mode's
// eigenfrequency (JointHarmonicResult::linear_frequencies) and its viscous damping
// phi^T C phi / (2 omega0), C = beta K (K without the joint: not proportional to the stuck
// stiffness, which shifts the EPMC's frequency by O(D^2): measured 1.5e-5, and 1e-12 with
// beta = 1e-12 s).
TEST(JointBackbone, LinearLimitIsTheStuckModeWithItsViscousDamping) {
  analysis::JointHarmonicOptions options = LapJoint();
  options.nonlinear_mode->amplitudes = {1e-9, 1e-8};
  analysis::Observer quiet;
  analysis::JointHarmonicSystem built = analysis::BuildJointHarmonicSystem(options, quiet);
  ASSERT_TRUE(built.result.status) << built.result.status.message;
  const VecX phi = built.modes.shapes.col(0);
  const double omega0 = built.modes.omega(0);
  const double viscous =
      phi.dot(MatX(built.system->damping().dense()) * phi) / (2.0 * omega0);  // reduced: dense
  const analysis::JointHarmonicResult result = RunQuietly(options);
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_EQ(result.backbones.size(), 3u);
  for (const analysis::Backbone& b : result.backbones) {
    if (b.method == "ring_down") continue;  // decays through the range: its own points
    ASSERT_EQ(b.size(), 2);
    for (int i = 0; i < b.size(); ++i) {
      const double f_error = b.frequency[i] / result.linear_frequencies[0] - 1.0;
      const double d_error = b.damping_ratio[i] / viscous - 1.0;
      std::printf("%s at %.1e m: %.6f Hz (stuck %.6f: %.1e), D %.6f (viscous %.6f: %.1e)\n",
                  b.method.c_str(), b.output_amplitude(i, 0), b.frequency[i],
                  result.linear_frequencies[0], f_error, b.damping_ratio[i], viscous, d_error);
      EXPECT_LT(std::abs(f_error), 1e-4);  // the goal: 0.1 %
      EXPECT_LT(std::abs(d_error), 1e-4);
    }
  }
}

// The check: EPMC, quasi-static modal analysis and the ring-down of the transient
// agree in microslip within 0.5 % in frequency and 10 % in damping ratio. Measured over the
// example's backbone (1e-8 to 3e-6 m, the frequency falling 1.9 %): quasi-static 9.2e-4
// and 0.7 % (2.7 % with the viscous part in the stuck mode's shape rather than the loop's),
// ring-down 1.5e-3 and 2.8 %. The differences: the quasi-static route keeps
// the motion in one static shape per load and neglects inertia in the joint's deformation
// (EPMC resolves three harmonics), and its loop is the static one; the ring-down's motion
// is not periodic (its amplitude falls by 16 % per period) and its first periods carry the
// other modes the pluck excites.
TEST(JointBackbone, ThreeRoutesAgreeInMicroslip) {
  const analysis::JointHarmonicResult result = RunQuietly(LapJoint());
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_EQ(result.backbones.size(), 3u);
  const analysis::Backbone& epmc = result.backbones[0];
  ASSERT_EQ(epmc.size(), 30);
  std::printf("epmc: %.1f to %.1f Hz, D up to %.4f (%d Newton iterations, %.2f s)\n",
              epmc.frequency.front(), epmc.frequency.back(),
              *std::max_element(epmc.damping_ratio.begin(), epmc.damping_ratio.end()),
              epmc.iterations, epmc.seconds);
  for (int m = 1; m < 3; ++m) {
    const analysis::Backbone& b = result.backbones[m];
    EXPECT_TRUE(b.status) << b.status.message;
    const auto [frequency, damping] = Deviation(b, epmc);
    std::printf(
        "%s: %d points, %.1f to %.1f Hz (%d Newton iterations, %.2f s); largest deviation "
        "from EPMC: frequency %.1e, damping ratio %.1e\n",
        b.method.c_str(), b.size(), b.frequency.front(), b.frequency.back(), b.iterations,
        b.seconds, frequency, damping);
    EXPECT_LT(frequency, 5e-3);
    EXPECT_LT(damping, 0.1);
  }
  EXPECT_LT(epmc.frequency.back(), 0.985 * epmc.frequency.front());  // well into microslip
  EXPECT_GT(*std::max_element(epmc.damping_ratio.begin(), epmc.damping_ratio.end()),
            1.1 * epmc.damping_ratio.front());
}

// Convergence at three amplitudes in microslip: harmonics H = 1, 3, 5, 7 at N = 256, and
// N = 64, 128, 256, 512 at H = 3; each against the finest.
TEST(JointBackbone, EpmcConvergesInHarmonicsAndSamples) {
  analysis::JointHarmonicOptions options = LapJoint();
  options.nonlinear_mode->amplitudes = {3e-7, 1e-6, 3e-6};
  options.nonlinear_mode->quasi_static = false;
  options.nonlinear_mode->ring_down = false;
  const auto run = [&](int harmonics, int samples) {
    analysis::JointHarmonicOptions o = options;
    o.harmonics.basis.harmonics = harmonics;
    o.harmonics.samples = samples;
    analysis::JointHarmonicResult result = RunQuietly(o);
    EXPECT_TRUE(result.status) << result.status.message;
    return result.backbones.at(0);
  };
  const auto compare = [](const char* what, const analysis::Backbone& b,
                          const analysis::Backbone& reference) {
    double frequency = 0.0, damping = 0.0;
    for (int i = 0; i < std::min(b.size(), reference.size()); ++i) {
      frequency = std::max(frequency, std::abs(b.frequency[i] / reference.frequency[i] - 1.0));
      damping = std::max(damping, std::abs(b.damping_ratio[i] / reference.damping_ratio[i] - 1.0));
    }
    std::printf("%s: frequency %.1e, damping ratio %.1e\n", what, frequency, damping);
    return std::make_pair(frequency, damping);
  };
  const analysis::Backbone h7 = run(7, 256);
  ASSERT_EQ(h7.size(), 3);
  std::array<std::pair<double, double>, 3> by_h;
  for (int k = 0; k < 3; ++k) {
    const int h = 2 * k + 1;
    by_h[k] = compare(("H = " + std::to_string(h) + " vs 7").c_str(), run(h, 256), h7);
  }
  EXPECT_LT(by_h[2].first, 1e-4);  // H = 5 vs 7
  EXPECT_LT(by_h[2].second, 1e-2);
  EXPECT_LE(by_h[2].first, by_h[0].first);
  const analysis::Backbone n512 = run(3, 512);
  std::array<std::pair<double, double>, 3> by_n;
  for (int k = 0; k < 3; ++k) {
    const int n = 64 << k;
    by_n[k] = compare(("N = " + std::to_string(n) + " vs 512").c_str(), run(3, n), n512);
  }
  EXPECT_LT(by_n[2].first, 1e-4);  // N = 256 vs 512
  EXPECT_LT(by_n[2].second, 1e-2);
}

// The friction bar without preload (bench/models/friction_bar_frf.yaml, 1615 pairs, g = 20,
// H = 3, N = 64): every pair at its contact kink at rest, the stuck mode (64.6 Hz) no
// limit. EPMC starts from the first amplitude's quasi-static loop and converges (measured:
// 53 Newton iterations, the watchdog's full steps through the opening pairs' kinks) to
// 42.54 Hz and D = 0.171 % (0.167 % before the opening pairs' released traction entered the
// samples: an AFT difference of one sample interval at N = 64); the quasi-static route gives
// 42.84 Hz (0.7 % above: it neglects inertia in a deformation that changes with the
// opening) and 0.145 % (15 % below). The
// structure is positively homogeneous: the mode is the same at 1e-7 and 1e-6 m.
TEST(JointBackbone, UnpreloadedFrictionBarModeStartsFromItsQuasiStaticLoop) {
  const std::filesystem::path file =
      std::filesystem::path(JOINTDYN_SOURCE_DIR) / "bench/models/friction_bar_frf.yaml";
  analysis::JointHarmonicOptions options =
      model::ReadJointHarmonic(model::ModelNode::LoadFile(file.string()));
  options.excitation.clear();
  options.harmonics.basis.harmonics = 3;
  options.harmonics.samples = 64;
  options.nonlinear_mode.emplace();
  options.nonlinear_mode->amplitudes = {1e-7, 1e-6};
  options.nonlinear_mode->quasi_static = true;
  const analysis::JointHarmonicResult result = RunQuietly(options);
  ASSERT_TRUE(result.status) << result.status.message;
  const analysis::Backbone &epmc = result.backbones[0], &loop = result.backbones[1];
  ASSERT_EQ(epmc.size(), 2);
  std::printf(
      "friction bar: stuck %.2f Hz; EPMC %.4f Hz, D %.5f (%d Newton iterations, %.1f s); "
      "quasi-static %.4f Hz, D %.5f\n",
      result.linear_frequencies[0], epmc.frequency[0], epmc.damping_ratio[0], epmc.iterations,
      epmc.seconds, loop.frequency[0], loop.damping_ratio[0]);
  EXPECT_LT(epmc.frequency[0], 0.7 * result.linear_frequencies[0]);  // the opening interface
  EXPECT_NEAR(epmc.frequency[1] / epmc.frequency[0], 1.0, 1e-6);     // positively homogeneous
  EXPECT_NEAR(epmc.damping_ratio[1] / epmc.damping_ratio[0], 1.0, 1e-6);
  EXPECT_NEAR(loop.frequency[0] / epmc.frequency[0], 1.0, 0.01);
  EXPECT_NEAR(loop.damping_ratio[0] / epmc.damping_ratio[0], 1.0, 0.2);
}

// The reduced models (the example's 4 vibration modes and g = 20 wPOD joint modes: 31
// coordinates; g = 40: 51) against the full one (126 DOFs; EPMC uncondensed: 882
// unknowns, quasi-static on the sparse model) over the microslip range, at the same tip
// amplitude: with g = 20 the backbones differ by the stuck frequencies' 0.27 % and by
// 2.5-2.9 % in damping ratio (the slip distribution the 20 joint modes resolve); with g = 40
// by 5e-4 in both (measured; 8 vibration modes and g = 40: 5e-5).
TEST(JointBackbone, ReducedBackbonesConvergeInTheJointModesToTheFullOne) {
  analysis::JointHarmonicOptions reduced = LapJoint();
  reduced.nonlinear_mode->amplitudes = {1e-8, 3e-8, 1e-7, 2e-7, 3e-7, 4e-7, 5e-7, 6e-7, 8e-7};
  reduced.nonlinear_mode->ring_down = false;
  analysis::JointHarmonicOptions full = reduced;
  full.full = true;
  const analysis::JointHarmonicResult f = RunQuietly(full);
  ASSERT_TRUE(f.status) << f.status.message;
  for (const int g : {20, 40}) {
    reduced.joint_modes.modes.modes = g;
    const analysis::JointHarmonicResult r = RunQuietly(reduced);
    ASSERT_TRUE(r.status) << r.status.message;
    for (int m = 0; m < 2; ++m) {
      const auto [frequency, damping] = Deviation(r.backbones[m], f.backbones[m]);
      std::printf(
          "%s, g = %d: reduced (%.2f s) vs full (%.2f s): frequency %.1e, damping ratio %.1e\n",
          r.backbones[m].method.c_str(), g, r.backbones[m].seconds, f.backbones[m].seconds,
          frequency, damping);
      EXPECT_LT(frequency, g == 20 ? 1e-2 : 1e-3);
      EXPECT_LT(damping, g == 20 ? 0.05 : 0.01);  // the 1 %: g = 40
    }
  }
}

}  // namespace
}  // namespace jointdyn
