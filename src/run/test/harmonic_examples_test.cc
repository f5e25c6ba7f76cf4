// The harmonic examples against their references: the Jenkins SDOF against the closed-form
// describing-function solution, the rigid Coulomb SDOF against Den Hartog's first-harmonic
// solution, the Duffing peak against the first-order backbone, the
// seed 001 bolted-joint oscillator's softening with the excitation level (seed 001,
// fig. 14), the node-to-node contact examples (1D and coupled 2D) against the steady state
// of the time integration, and the 2D element against its projection on two 1D elements
// (seed 004, fig. 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>
#include <string>

#include "core/error.h"
#include "core/test/test_paths.h"
#include "harmonic/test/describing_functions.h"
#include "run/run_model.h"
#include "run/test/read_csv.h"

namespace jointdyn::run {
namespace {

struct RunResult {
  nlohmann::json summary;
  testing::CsvTable csv;  // frequency_response.csv
};

RunResult RunExample(const std::string& name) {
  const auto out = std::filesystem::temp_directory_path() / "jointdyn_harmonic" / name;
  std::filesystem::remove_all(out);
  const RunOutcome outcome =
      RunModelFile(test_paths::SourceDir() / "examples" / "harmonic" / (name + ".yaml"), out);
  EXPECT_TRUE(outcome.ok) << outcome.message;
  RunResult run;
  std::ifstream summary(out / "summary.json");
  run.summary = nlohmann::json::parse(summary);
  run.csv = testing::ReadCsv(out / "frequency_response.csv");
  return run;
}

// examples/harmonic/jenkins_sdof.yaml: with H = 1 the HB equation is the describing-
// function equation (k - m w^2 + i c w + nu(A)) X = P, |X| = A, nu the closed-form Jenkins
// describing function. At each CSV frequency the reference amplitude is its root by Newton
// from the CSV amplitude (a central-difference slope), the reference phase that of
// X = P / (k - m w^2 + i c w + nu(A)). The bound 1e-4 is the issue's; the march's sampling
// error at N = 1024 is about 1e-5 (src/harmonic/test/marched_force_test.cc).
TEST(HarmonicExamples, JenkinsSdofMatchesTheDescribingFunction) {
  const double m = 1.0, c = 2.0, k = 1e4, k_t = 5e3, f_s = 1.0, p = 2.0;
  const RunResult run = RunExample("jenkins_sdof");
  const auto& csv = run.csv.columns;
  ASSERT_GT(run.csv.rows, 20u);
  const auto dynamic = [&](double omega, double a) {
    return std::complex<double>(k - m * omega * omega, c * omega) +
           harmonic::testing::JenkinsDescribingFunction(k_t, f_s, a);
  };
  double worst_amplitude = 0.0, worst_phase = 0.0, largest = 0.0;
  for (size_t i = 0; i < run.csv.rows; ++i) {
    const double omega = 2.0 * std::numbers::pi * csv.at("frequency_hz")[i];
    const double amplitude = csv.at("amp_x_h1")[i];
    const auto g = [&](double a) { return a * std::abs(dynamic(omega, a)) - p; };
    double a = amplitude;
    for (int iteration = 0; iteration < 50; ++iteration) {
      const double h = 1e-7 * a;
      const double step = g(a) / ((g(a + h) - g(a - h)) / (2.0 * h));
      a -= step;
      if (std::abs(step) < 1e-15 * a) break;
    }
    const double phase = std::arg(p / dynamic(omega, a));
    const double amplitude_error = std::abs(amplitude - a) / a;
    const double phase_error = std::abs(csv.at("phase_x_h1")[i] * std::numbers::pi / 180.0 - phase);
    EXPECT_LT(amplitude_error, 1e-4) << "f = " << csv.at("frequency_hz")[i] << " Hz";
    EXPECT_LT(phase_error, 1e-4) << "f = " << csv.at("frequency_hz")[i] << " Hz";
    worst_amplitude = std::max(worst_amplitude, amplitude_error);
    worst_phase = std::max(worst_phase, phase_error);
    largest = std::max(largest, amplitude);
  }
  std::printf("Jenkins SDOF example: %zu points, worst amplitude error %.2e, phase %.2e rad\n",
              run.csv.rows, worst_amplitude, worst_phase);
  EXPECT_GT(largest * k_t / f_s, 10.0);  // the peak is in gross slip
}

// examples/harmonic/coulomb_sdof.yaml: rigid Coulomb friction (dry_friction) with H = 1 has
// exact coefficients, so each CSV point solves Den Hartog's first-harmonic equation
// ((k - m w^2) A)^2 + (c w A + 4 F_s / pi)^2 = P^2 (the positive root A) to the Newton
// tolerance, with the phase of X = P / (k - m w^2 + i (c w + 4 F_s / (pi A))); bound 1e-4
// (the issue's), measured about 1e-14. Hill's method marks every point stable.
TEST(HarmonicExamples, CoulombSdofMatchesDenHartog) {
  const double m = 1.0, c = 2.0, k = 1e4, f_s = 1.0, p = 2.0;
  const RunResult run = RunExample("coulomb_sdof");
  const auto& csv = run.csv.columns;
  ASSERT_GT(run.csv.rows, 20u);
  double worst_amplitude = 0.0, worst_phase = 0.0;
  for (size_t i = 0; i < run.csv.rows; ++i) {
    const double w = 2.0 * std::numbers::pi * csv.at("frequency_hz")[i];
    const double d = k - m * w * w, g = 4.0 * f_s / std::numbers::pi;
    const double qa = d * d + c * c * w * w, qb = 2.0 * c * w * g, qc = g * g - p * p;
    const double a = (-qb + std::sqrt(qb * qb - 4.0 * qa * qc)) / (2.0 * qa);
    const double phase = std::arg(p / std::complex<double>(d, c * w + g / a));
    const double amplitude_error = std::abs(csv.at("amp_x_h1")[i] - a) / a;
    const double phase_error = std::abs(csv.at("phase_x_h1")[i] * std::numbers::pi / 180.0 - phase);
    EXPECT_LT(amplitude_error, 1e-4) << "f = " << csv.at("frequency_hz")[i] << " Hz";
    EXPECT_LT(phase_error, 1e-4) << "f = " << csv.at("frequency_hz")[i] << " Hz";
    EXPECT_EQ(csv.at("stable")[i], 1.0);
    worst_amplitude = std::max(worst_amplitude, amplitude_error);
    worst_phase = std::max(worst_phase, phase_error);
  }
  std::printf("Coulomb SDOF example: %zu points, worst amplitude error %.2e, phase %.2e rad\n",
              run.csv.rows, worst_amplitude, worst_phase);
  EXPECT_EQ(run.summary["elements"]["dry_friction"], 1);
  EXPECT_EQ(run.summary["unstable_points"], 0);
}

// examples/harmonic/duffing.yaml: the peak lies on the first-order backbone
// w^2 = (k + 3/4 k3 A^2) / m at A = P / (c w) (A = 4.6395 mm at 17.152 Hz by fixed-point
// iteration); the higher harmonics and the spacing of the points near the fold keep the
// HB peak within 1 %. The two folds bound an unstable middle branch.
TEST(HarmonicExamples, DuffingPeakOnTheBackboneWithAnUnstableBranch) {
  const double m = 1.0, c = 2.0, k = 1e4, k3 = 1e8, p = 1.0;
  double a = p / (c * std::sqrt(k / m)), omega = 0.0;
  for (int i = 0; i < 200; ++i) {
    omega = std::sqrt((k + 0.75 * k3 * a * a) / m);
    a = p / (c * omega);
  }
  const RunResult run = RunExample("duffing");
  const nlohmann::json& curve = run.summary["curves"][0];
  EXPECT_NEAR(curve["peak_amplitude"].get<double>(), a, 1e-2 * a);
  EXPECT_NEAR(curve["peak_frequency_hz"].get<double>(), omega / (2.0 * std::numbers::pi),
              1e-2 * omega / (2.0 * std::numbers::pi));
  EXPECT_EQ(run.summary["turning_points"], 2);
  EXPECT_GT(run.summary["unstable_points"].get<int>(), 0);
  // The unstable points lie between the two turning points.
  const auto& stable = run.csv.columns.at("stable");
  const auto& turning = run.csv.columns.at("turning_point");
  int folds_passed = 0;
  for (size_t i = 0; i < run.csv.rows; ++i) {
    folds_passed += int(turning[i]);
    if (stable[i] == 0.0) {
      EXPECT_EQ(folds_passed, 1) << "row " << i;
    }
  }
}

// examples/harmonic/bolted_joint_oscillator.yaml: the pressure-based Iwan joint softens
// and dissipates more as the level grows, so the resonance of m2 moves down and its peak
// receptance (peak amplitude / force amplitude) falls (seed 001, fig. 14). Every peak lies
// below the stuck-joint resonance 341.8 Hz (the joint's secant stiffness is at most k_t).
TEST(HarmonicExamples, BoltedJointSoftensWithTheLevel) {
  const RunResult run = RunExample("bolted_joint_oscillator");
  const nlohmann::json& curves = run.summary["curves"];
  ASSERT_EQ(curves.size(), 3u);
  for (size_t i = 0; i < curves.size(); ++i) {
    const double f = curves[i]["peak_frequency_hz"].get<double>();
    const double receptance =
        curves[i]["peak_amplitude"].get<double>() / curves[i]["level"].get<double>();
    std::printf("level %.1f N: peak at %.2f Hz, receptance %.3e m/N\n",
                curves[i]["level"].get<double>(), f, receptance);
    EXPECT_LT(f, 341.8);
    if (i == 0) continue;
    EXPECT_LT(f, curves[i - 1]["peak_frequency_hz"].get<double>());
    EXPECT_LT(receptance,
              curves[i - 1]["peak_amplitude"].get<double>() / curves[i - 1]["level"].get<double>());
  }
}

// The harmonic example `name` at one frequency against the steady state of the same model
// under analysis: transient (a test-side file with its structure, the time-function
// `forces` of the excitation and `integrator`): `range` replaces text of the continuation's
// range so that its first or last point is at `frequency` [Hz]. The first-harmonic amplitudes of
// `dofs` over the last period of the integration, by the rectangle rule on `samples`
// steps (one period), against the HB amplitudes; returns the largest relative difference
// and the transient table (for more checks of the same run).
struct SteadyStateComparison {
  double worst = 0.0;
  testing::CsvTable transient;
};

SteadyStateComparison CompareWithTransient(
    const std::string& name, double frequency,
    const std::vector<std::pair<std::string, std::string>>& range, const std::string& forces,
    const std::string& integrator, const std::vector<std::string>& dofs, int samples) {
  const auto dir = std::filesystem::temp_directory_path() / "jointdyn_harmonic" / (name + "_check");
  std::filesystem::create_directories(dir);
  std::ifstream example(test_paths::SourceDir() / "examples" / "harmonic" / (name + ".yaml"));
  std::stringstream text;
  text << example.rdbuf();
  std::string model = text.str();
  const std::string body =
      model.substr(model.find("dofs:"), model.find("excitation:") - model.find("dofs:"));
  for (const auto& [from, to] : range) {
    const size_t at = model.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) model.replace(at, from.size(), to);
  }
  std::ofstream(dir / "harmonic.yaml") << model;
  std::ofstream(dir / "transient.yaml") << "analysis: transient\n"
                                        << body << "forces:\n"
                                        << forces << "integrator: " << integrator << "\n";
  SteadyStateComparison result;
  const RunOutcome harmonic_run = RunModelFile(dir / "harmonic.yaml", dir / "h");
  const RunOutcome transient_run = RunModelFile(dir / "transient.yaml", dir / "t");
  EXPECT_TRUE(harmonic_run.ok) << harmonic_run.message;
  EXPECT_TRUE(transient_run.ok) << transient_run.message;
  if (!harmonic_run.ok || !transient_run.ok) return result;
  const testing::CsvTable hb = testing::ReadCsv(dir / "h" / "frequency_response.csv");
  result.transient = testing::ReadCsv(dir / "t" / "transient.csv");
  const testing::CsvTable& tr = result.transient;
  const auto& f = hb.columns.at("frequency_hz");
  const size_t row =
      std::abs(f.front() - frequency) < std::abs(f.back() - frequency) ? 0 : f.size() - 1;
  EXPECT_NEAR(f[row], frequency, 1e-12 * frequency);
  EXPECT_GT(tr.rows, size_t(samples));
  for (const std::string& dof : dofs) {
    double a = 0.0, b = 0.0;
    for (size_t i = tr.rows - 1 - samples; i < tr.rows - 1; ++i) {
      const double phase = 2.0 * std::numbers::pi * frequency * tr.columns.at("time")[i];
      a += tr.columns.at("q_" + dof)[i] * std::cos(phase) * 2.0 / samples;
      b += tr.columns.at("q_" + dof)[i] * std::sin(phase) * 2.0 / samples;
    }
    const double reference = std::hypot(a, b);
    const double amplitude = hb.columns.at("amp_" + dof + "_h1")[row];
    const double error = std::abs(amplitude - reference) / reference;
    std::printf("%s at %g Hz, %s: HB %.6e m, transient %.6e m, difference %.2e\n", name.c_str(),
                frequency, dof.c_str(), amplitude, reference, error);
    result.worst = std::max(result.worst, error);
  }
  return result;
}

// examples/harmonic/node_to_node_contact.yaml at 20 Hz against the transient steady state
// (the forces 4 and 15 N cos(2 pi 20 t); the last period of 3 s, 60 periods, the free
// response decays as exp(-5 t), 1000 samples). The friction contact (at gap0 != 0)
// separates in every period (p_contact reaches 0) and the stop (a contact element) closes
// (p_stop > 0). Measured difference 7e-5 (x) and 2e-6 (y); the bound is the 1 %.
TEST(HarmonicExamples, NodeToNodeContactMatchesTheTransientSteadyState) {
  const int samples = 1000;  // one period of 0.05 s at dt = 5e-5 s
  const SteadyStateComparison c = CompareWithTransient(
      "node_to_node_contact", 20.0, {{"from: 12.0", "from: 20.0"}, {"to: 24.0", "to: 20.5"}},
      "  - {dof: x, type: sinusoid, amplitude: 4.0, frequency: 20.0, phase_deg: 90}\n"
      "  - {dof: y, type: sinusoid, amplitude: 15.0, frequency: 20.0, phase_deg: 90}\n",
      "{dt: 5.0e-5, t_end: 3.0}", {"x", "y"}, samples);
  EXPECT_LT(c.worst, 0.01);
  const testing::CsvTable& tr = c.transient;
  ASSERT_GT(tr.rows, size_t(samples));
  double min_pressure = 1e300, max_stop = 0.0;
  for (size_t i = tr.rows - 1 - samples; i < tr.rows - 1; ++i) {
    min_pressure = std::min(min_pressure, tr.columns.at("p_contact")[i]);
    max_stop = std::max(max_stop, tr.columns.at("p_stop")[i]);
  }
  EXPECT_EQ(min_pressure, 0.0);  // separation
  EXPECT_GT(max_stop, 0.1);      // the stop closes [N]
}

// examples/harmonic/contact_2d.yaml (H = 7) at 18.4 Hz, between its two tangential peaks
// (the last point of its sweep cut at 18.4 Hz), against the transient steady state: the forces 2
// cos(w t), 2 cos(w t - 45 deg) and 25 cos(w t) N as sinusoids (phase + 90 deg); dt = T / 1000 and
// the last of 73.6 periods (4 s: the free response decays as exp(-2.5 t), by e^-10). Over that
// period the contact separates (p = 0), slips in 2D (|tau| = mu p with p > 0) and its force never
// leaves the friction disk |tau| <= mu p. Measured differences 3.3e-3 (x), 1.4e-3 (y),
// 1.3e-4 (z): not from the harmonic truncation (x at 18.4 Hz is 1.04298 mm at H = 5, 7
// and 11) and hardly from the time step (3.0e-3 at dt / 2); the AFT sample count moves x
// by up to 8e-4 (N = 256 ... 1024). Bound: the 1 %.
TEST(HarmonicExamples, Contact2dMatchesTheTransientSteadyState) {
  const double frequency = 18.4, mu = 0.5;
  const int samples = 1000;
  const SteadyStateComparison c = CompareWithTransient(
      "contact_2d", frequency, {{"to: 25.0", "to: 18.4"}},
      "  - {dof: x, type: sinusoid, amplitude: 2.0, frequency: 18.4, phase_deg: 90}\n"
      "  - {dof: y, type: sinusoid, amplitude: 2.0, frequency: 18.4, phase_deg: 45}\n"
      "  - {dof: z, type: sinusoid, amplitude: 25.0, frequency: 18.4, phase_deg: 90}\n",
      "{dt: " + FormatValue(1.0 / (samples * frequency)) + ", t_end: 4.0}", {"x", "y", "z"},
      samples);
  EXPECT_LT(c.worst, 0.01);
  const testing::CsvTable& tr = c.transient;
  ASSERT_GT(tr.rows, size_t(samples));
  double min_pressure = 1e300, max_excess = -1e300;
  int slipping = 0;
  for (size_t i = tr.rows - 1 - samples; i < tr.rows - 1; ++i) {
    const double p = tr.columns.at("p_contact")[i];
    const double tau = std::hypot(tr.columns.at("fx_contact")[i], tr.columns.at("fy_contact")[i]);
    min_pressure = std::min(min_pressure, p);
    max_excess = std::max(max_excess, tau - mu * p);
    if (p > 0.1 && std::abs(tau - mu * p) < 1e-9 * p) ++slipping;
  }
  std::printf("contact_2d over the last period: min p %.3g N, %d slipping samples\n", min_pressure,
              slipping);
  EXPECT_EQ(min_pressure, 0.0);  // separation
  EXPECT_GT(slipping, 10);       // 2D slip on the friction circle
  EXPECT_LE(max_excess, 1e-9);   // |tau| <= mu p throughout
}

// Seed 004 (section 3, fig. 2): projecting the in-plane contact onto two independent 1D
// elements (examples/harmonic/contact_2d_projected.yaml: the friction force limited per
// component) underestimates the friction damping near the onset of slip and predicts
// larger vibration amplitudes than the coupled 2D element (contact_2d.yaml). Both peaks
// (x and y) of the projection lie above those of the 2D element; the normal DOF z, which
// no friction force acts on directly, responds alike. Measured: x 1.3107 vs 1.2654 mm
// (+3.6 %), y 2.8186 vs 2.7913 mm (+1.0 %).
TEST(HarmonicExamples, ProjectedContactPredictsLargerAmplitudesThanThe2dElement) {
  const RunResult coupled = RunExample("contact_2d");
  const RunResult projected = RunExample("contact_2d_projected");
  for (const std::string dof : {"x", "y"}) {
    const auto peak = [&](const RunResult& run) {
      const auto& a = run.csv.columns.at("amp_" + dof + "_h1");
      return *std::max_element(a.begin(), a.end());
    };
    const double p2d = peak(coupled), p1d = peak(projected);
    std::printf("peak amplitude of %s: 2D element %.6e m, two 1D elements %.6e m (%+.2f %%)\n",
                dof.c_str(), p2d, p1d, 100.0 * (p1d / p2d - 1.0));
    EXPECT_GT(p1d, 1.005 * p2d) << dof;
  }
}

}  // namespace
}  // namespace jointdyn::run
