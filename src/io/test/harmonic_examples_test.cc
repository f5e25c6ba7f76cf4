// The harmonic examples against their references: the Jenkins SDOF against the closed-form
// describing-function solution, the rigid Coulomb SDOF against Den Hartog's first-harmonic
// solution, the Duffing peak against the first-order backbone, and the
// seed 001 bolted-joint oscillator's softening with the excitation level (seed 001,
// fig. 14).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>
#include <string>

#include "harmonic/test/describing_functions.h"
#include "io/run_model.h"
#include "io/test/read_csv.h"
#include "io/test/test_paths.h"

namespace jointdyn::io {
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

// examples/harmonic/node_to_node_contact.yaml at 20 Hz (from: 20) against the steady state
// of the same model under analysis: transient (the forces 4 and 15 N cos(2 pi 20 t), a
// test-side file): the first-harmonic amplitudes of x and y over the last period of 3 s
// (60 periods, the free response decays as exp(-5 t)) by the rectangle rule on 1000
// samples. The friction contact (at gap0 != 0) separates in every period (p_contact reaches
// 0) and the stop (a contact element) closes (p_stop > 0). Measured difference 6e-5 (x)
// and 8e-6 (y); the bound is the 1 %.
TEST(HarmonicExamples, NodeToNodeContactMatchesTheTransientSteadyState) {
  const auto dir = std::filesystem::temp_directory_path() / "jointdyn_harmonic" / "n2n_check";
  std::filesystem::create_directories(dir);
  std::ifstream example(test_paths::SourceDir() / "examples" / "harmonic" /
                        "node_to_node_contact.yaml");
  std::stringstream text;
  text << example.rdbuf();
  std::string model = text.str();
  const std::string body =
      model.substr(model.find("dofs:"), model.find("excitation:") - model.find("dofs:"));
  const auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = model.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    model.replace(at, from.size(), to);
  };
  replace("from: 12.0", "from: 20.0");
  replace("to: 24.0", "to: 20.5");
  std::ofstream(dir / "harmonic.yaml") << model;
  std::ofstream(dir / "transient.yaml")
      << "analysis: transient\n"
      << body
      << "forces:\n"
         "  - {dof: x, type: sinusoid, amplitude: 4.0, frequency: 20.0, phase_deg: 90}\n"
         "  - {dof: y, type: sinusoid, amplitude: 15.0, frequency: 20.0, phase_deg: 90}\n"
         "integrator: {dt: 5.0e-5, t_end: 3.0}\n";
  ASSERT_TRUE(RunModelFile(dir / "harmonic.yaml", dir / "h").ok);
  ASSERT_TRUE(RunModelFile(dir / "transient.yaml", dir / "t").ok);
  const testing::CsvTable hb = testing::ReadCsv(dir / "h" / "frequency_response.csv");
  const testing::CsvTable tr = testing::ReadCsv(dir / "t" / "transient.csv");
  ASSERT_EQ(hb.columns.at("frequency_hz")[0], 20.0);
  const int samples = 1000;  // one period of 0.05 s at dt = 5e-5 s
  ASSERT_GT(tr.rows, size_t(samples));
  double min_pressure = 1e300, max_stop = 0.0;
  for (const std::string dof : {"x", "y"}) {
    double a = 0.0, b = 0.0;
    for (size_t i = tr.rows - 1 - samples; i < tr.rows - 1; ++i) {
      const double phase = 2.0 * std::numbers::pi * 20.0 * tr.columns.at("time")[i];
      a += tr.columns.at("q_" + dof)[i] * std::cos(phase) * 2.0 / samples;
      b += tr.columns.at("q_" + dof)[i] * std::sin(phase) * 2.0 / samples;
      min_pressure = std::min(min_pressure, tr.columns.at("p_contact")[i]);
      max_stop = std::max(max_stop, tr.columns.at("p_stop")[i]);
    }
    const double reference = std::hypot(a, b);
    const double error = std::abs(hb.columns.at("amp_" + dof + "_h1")[0] - reference) / reference;
    std::printf("node-to-node contact at 20 Hz, %s: HB vs transient amplitude %.2e\n", dof.c_str(),
                error);
    EXPECT_LT(error, 0.01) << dof;
  }
  EXPECT_EQ(min_pressure, 0.0);  // separation
  EXPECT_GT(max_stop, 0.1);      // the stop closes [N]
}

}  // namespace
}  // namespace jointdyn::io
