// The harmonic analysis on a linear two-DOF model: the assembled M, C, K, and the CSV
// amplitudes and phases against the direct complex solution X = (K - w^2 M + i w C)^-1 F.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <fstream>
#include <numbers>

#include "model/harmonic_reader.h"
#include "run/run_model.h"
#include "run/test/read_csv.h"

namespace jointdyn::run {
namespace {

// ground - k1 - a - k2 (and c) - b, the force 2 cos(w t + 30 deg) on b.
constexpr const char* kLinear = R"(analysis: harmonic
dofs: [a, b]
masses: {a: 1.0, b: 2.0}
springs:
  - {a: a, k: 1.0e4}
  - {a: a, b: b, k: 5.0e3}
dampers:
  - {a: b, b: a, c: 3.0}
excitation:
  - {dof: b, amplitude: 2.0, phase_deg: 30.0}
harmonics: {count: 2, samples: 16}
continuation: {parameter: frequency, from: 4.0, to: 25.0}
)";

TEST(HarmonicModel, AssemblesTheLinearMatrices) {
  const model::ModelNode root = model::ModelNode::LoadString(kLinear, "linear.yaml");
  EXPECT_EQ(root.String("analysis"), "harmonic");  // read by RunModelFile
  const analysis::HarmonicOptions options = model::ReadHarmonic(root);
  const harmonic::HarmonicSystem system = analysis::BuildHarmonicSystem(options);
  MatX m(2, 2), c(2, 2), k(2, 2);
  m << 1.0, 0.0, 0.0, 2.0;
  c << 3.0, -3.0, -3.0, 3.0;
  k << 1.5e4, -5e3, -5e3, 5e3;
  EXPECT_EQ(MatX(system.mass), m);
  EXPECT_EQ(MatX(system.damping), c);
  EXPECT_EQ(MatX(system.stiffness), k);
  ASSERT_EQ(system.excitation.size(), 1u);
  EXPECT_NEAR(system.excitation[0].cos_amplitude, 2.0 * std::cos(std::numbers::pi / 6), 1e-15);
  EXPECT_NEAR(system.excitation[0].sin_amplitude, -2.0 * std::sin(std::numbers::pi / 6), 1e-15);
  EXPECT_TRUE(system.elements.empty());
}

// Through both resonances (6.30 and 20.09 Hz undamped): every CSV point equals the direct
// solution to rounding (the predictor-corrector solves a linear system exactly).
TEST(HarmonicModel, LinearResponseMatchesTheDirectSolution) {
  const auto dir = std::filesystem::temp_directory_path() / "jointdyn_harmonic_model";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto file = dir / "linear.yaml";
  std::ofstream(file) << kLinear;
  const RunOutcome outcome = RunModelFile(file, dir / "out");
  ASSERT_TRUE(outcome.ok) << outcome.message;
  const testing::CsvTable csv = testing::ReadCsv(dir / "out" / "frequency_response.csv");
  ASSERT_GT(csv.rows, 10u);
  using Complex = std::complex<double>;
  const Complex force = std::polar(2.0, std::numbers::pi / 6);
  double worst = 0.0;
  for (size_t i = 0; i < csv.rows; ++i) {
    const double w = 2.0 * std::numbers::pi * csv.columns.at("frequency_hz")[i];
    // [[1.5e4 - w^2 + 3iw, -5e3 - 3iw], [-5e3 - 3iw, 5e3 - 2 w^2 + 3iw]] X = [0, F].
    const Complex d11(1.5e4 - w * w, 3.0 * w), d12(-5e3, -3.0 * w), d22(5e3 - 2.0 * w * w, 3.0 * w);
    const Complex det = d11 * d22 - d12 * d12;
    const Complex xa = -d12 * force / det, xb = d11 * force / det;
    for (const auto& [name, x] : {std::pair<std::string, Complex>{"a", xa}, {"b", xb}}) {
      const Complex hb =
          std::polar(csv.columns.at("amp_" + name + "_h1")[i],
                     csv.columns.at("phase_" + name + "_h1")[i] * std::numbers::pi / 180.0);
      worst = std::max(worst, std::abs(hb - x) / std::abs(x));
      // No static or second-harmonic response without a nonlinearity.
      EXPECT_LT(std::abs(csv.columns.at("mean_" + name)[i]), 1e-12 * std::abs(x));
      EXPECT_LT(csv.columns.at("amp_" + name + "_h2")[i], 1e-12 * std::abs(x));
    }
  }
  std::printf("linear 2-DOF: %zu points, worst relative error %.2e\n", csv.rows, worst);
  EXPECT_LT(worst, 1e-10);
}

// The dense paths are refused for a 1000-DOF chain with H = 7 (15000 coefficients) at
// reading, naming the key and how to turn them off.
TEST(HarmonicModel, DensePathsOnLargeModelsAreInputErrors) {
  const std::string chain = R"(analysis: harmonic
chain: {count: 1000, mass: 0.1, spring: 1.0e8, ends: left}
excitation:
  - {dof: 999, amplitude: 1.0}
continuation: {parameter: frequency, from: 5.0, to: 10.0)";
  const auto expect_error = [&](const std::string& extra, const std::string& harmonics,
                                const std::string& key, const std::string& remedy) {
    const std::string text =
        chain + extra + "}\nharmonics: {count: 7, samples: 64" + harmonics + "}\n";
    try {
      model::ReadHarmonic(model::ModelNode::LoadString(text, "large.yaml"));
      ADD_FAILURE() << "no error for " << key;
    } catch (const InputError& error) {
      EXPECT_EQ(error.key(), key) << error.what();
      EXPECT_NE(error.rule().find("15000 unknowns"), std::string::npos) << error.what();
      EXPECT_NE(error.rule().find(remedy), std::string::npos) << error.what();
    }
  };
  expect_error(", stability: true", "", "continuation.stability", "set stability: false");
  expect_error("", ", condense: false", "harmonics.condense", "condense (true)");
}

}  // namespace
}  // namespace jointdyn::run
