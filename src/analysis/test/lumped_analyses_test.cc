// The analyses on single contact points and lumped models, run on options built in C++
// (no model file), against closed forms:
//   hysteresis  the three-parameter Coulomb slider's loop energy 4 R_G (A - R_G / c1) per
//               cycle and its secant stiffness R_G / A + c2;
//   transient   an undamped oscillator's free vibration q0 cos(omega t) and its energy;
//   harmonic    a damped oscillator's frequency response |F| / |k - m w^2 + i c w|.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "analysis/harmonic.h"
#include "analysis/hysteresis.h"
#include "analysis/transient.h"
#include "core/error.h"
#include "laws/coulomb.h"

namespace jointdyn::analysis {
namespace {

TEST(HysteresisAnalysis, CoulombLoopEnergyAndSecantStiffness) {
  constexpr double kC1 = 2e11, kC2 = 1e9, kMu = 0.3, kPressure = 1e6, kAmplitude = 5e-6;
  HysteresisOptions options;
  options.law =
      std::make_shared<laws::CoulombLaw>(laws::CoulombParams{.c1 = kC1, .c2 = kC2, .mu = kMu}, 1);
  options.loop.pressure = kPressure;
  options.loop.path.amplitude_x = kAmplitude;
  options.loop.path.frequency = 10.0;
  options.loop.path.cycles = 3;
  options.loop.path.samples_per_cycle = 400;
  options.sweep = {2e-6, 4e-6, 8e-6};
  Observer quiet;
  const HysteresisResult result = RunHysteresis(options, quiet);
  ASSERT_TRUE(result.status) << result.status.message;
  const double rg = kMu * kPressure;  // slip traction R_G [Pa]
  // 400 samples per cycle place the slip onset within one sample: error below 1e-4.
  EXPECT_NEAR(result.loop.dissipation_per_cycle.back() / (4 * rg * (kAmplitude - rg / kC1)), 1.0,
              1e-4);
  EXPECT_NEAR(result.loop.secant_stiffness / (rg / kAmplitude + kC2), 1.0, 1e-9);
  ASSERT_EQ(result.sweep.amplitude.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const double a = result.sweep.amplitude[i];
    EXPECT_NEAR(result.sweep.dissipation[i] / (4 * rg * (a - rg / kC1)), 1.0, 1e-3) << a;
  }
}

TEST(HysteresisAnalysis, PlanarPathOnAOneDimensionalLawIsAnInputError) {
  HysteresisOptions options;
  options.law = std::make_shared<laws::CoulombLaw>(laws::CoulombParams{.c1 = 1e11, .mu = 0.3}, 1);
  options.loop.path.amplitude_x = options.loop.path.amplitude_y = 1e-6;
  Observer quiet;
  EXPECT_THROW(RunHysteresis(options, quiet), InputError);
}

// m q'' + k q = 0 from q0, no damping: q = q0 cos(omega t), omega = sqrt(k / m).
TransientOptions Oscillator(double m, double k, double q0, double t_end, double dt) {
  TransientOptions options;
  options.model.dofs.push_back({.name = "x", .mass = m, .q0 = q0});
  options.model.springs.push_back({.name = "k", .a = 0, .k = k});
  options.integrator.scheme = time::Scheme::kNewmark;  // average acceleration: no dissipation
  options.integrator.t_end = t_end;
  options.integrator.dt = dt;
  options.output.dofs = {0};
  options.output.elements = {0};  // the spring
  options.output.energy = true;
  return options;
}

class Recorder : public TransientObserver {
 public:
  void Sample(const std::vector<double>& row) override { ++samples; }
  int samples = 0;
};

TEST(TransientAnalysis, FreeVibrationOfAnOscillator) {
  constexpr double kMass = 2.0, kStiffness = 800.0, kQ0 = 0.01;
  const double omega = std::sqrt(kStiffness / kMass);  // 20 rad/s
  const TransientOptions options = Oscillator(kMass, kStiffness, kQ0, 1.0, 1e-4);
  Recorder recorder;
  const TransientResult result = RunTransient(options, recorder);
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_EQ(result.columns, (std::vector<std::string>{"time", "q_x", "v_x", "f_k", "E_kinetic",
                                                      "E_stored", "W_external", "W_prescribed",
                                                      "D_viscous", "D_laws", "D_numerical"}));
  EXPECT_EQ(recorder.samples, static_cast<int>(result.rows.size()));
  EXPECT_EQ(result.rows.size(), 10001u);
  double worst = 0.0;
  for (const std::vector<double>& row : result.rows)
    worst = std::max(worst, std::abs(row[1] - kQ0 * std::cos(omega * row[0])));
  // Trapezoidal rule: period error (omega dt)^2 / 12 = 3.3e-7 per radian; 20 rad: 7e-6 q0.
  EXPECT_LT(worst / kQ0, 2e-5);
  // Energy: kinetic + stored stays k q0^2 / 2 (the scheme conserves it for linear springs).
  const double energy = 0.5 * kStiffness * kQ0 * kQ0;
  EXPECT_NEAR((result.rows.back()[4] + result.rows.back()[5]) / energy, 1.0, 1e-10);
}

TEST(TransientAnalysis, InvalidIntegratorIsAnInputErrorAtIntegrator) {
  TransientOptions options = Oscillator(1.0, 1.0, 0.0, 1.0, -1.0);
  Recorder recorder;
  try {
    RunTransient(options, recorder);
    FAIL() << "a negative step was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.where(), "integrator");
  }
}

TEST(HarmonicAnalysis, LinearOscillatorFrequencyResponse) {
  constexpr double kMass = 1.0, kStiffness = 1e4, kDamping = 2.0, kForce = 3.0;
  HarmonicOptions options;
  options.model.dofs.push_back({.name = "x", .mass = kMass});
  options.model.springs.push_back({.name = "k", .a = 0, .k = kStiffness});
  options.model.dampers.push_back({.name = "c", .a = 0, .c = kDamping});
  options.excitation.push_back({.dof = 0, .harmonic = 1, .cos_amplitude = kForce});
  options.harmonics.basis.harmonics = 1;
  options.harmonics.samples = 16;
  options.continuation.start = 2.0 * std::numbers::pi * 5.0;
  options.continuation.end = 2.0 * std::numbers::pi * 30.0;
  options.levels = {1.0, 2.0};
  options.output_dofs = {0};
  Observer quiet;
  const HarmonicResult result = RunHarmonic(options, quiet);
  ASSERT_TRUE(result.status) << result.status.message;
  ASSERT_EQ(result.curves.size(), 2u);
  for (const HarmonicCurve& curve : result.curves) {
    ASSERT_GT(curve.continuation.points.size(), 10u);
    for (const harmonic::SolutionPoint& point : curve.continuation.points) {
      const double w = point.omega;
      const double exact =
          curve.fixed * kForce / std::hypot(kStiffness - kMass * w * w, kDamping * w);
      EXPECT_NEAR(FirstHarmonicAmplitude(options.harmonics.basis, point, 0) / exact, 1.0, 1e-8)
          << "at " << w << " rad/s";
    }
  }
}

}  // namespace
}  // namespace jointdyn::analysis
