// Every example model file runs to completion and writes a clean summary (per analysis:
// non-negative loop dissipation, the end time reached with non-negative dissipation,
// every response curve and backbone computed to its end, every eigenpair wanted, a reduction basis,
// or every static step with its preload exact and its reactions balanced); the three-parameter
// Coulomb example matches its closed-form loop energy.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/test/test_paths.h"
#include "io/hdf5_file.h"
#include "model/model_node.h"
#include "run/run_model.h"
#include "run/test/read_csv.h"

namespace jointdyn::run {
namespace {

// The example model files of one analysis (their `analysis:` key).
std::vector<std::filesystem::path> Examples(const std::string& analysis) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(test_paths::SourceDir() / "examples"))
    if (entry.path().extension() == ".yaml" &&
        model::ModelNode::LoadFile(entry.path().string()).String("analysis") == analysis)
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::filesystem::path OutDir(const std::filesystem::path& model) {
  return std::filesystem::temp_directory_path() / "jointdyn_examples" /
         model.parent_path().filename() / model.stem();
}

// joint_harmonic.h5 holds the CSV files' frequencies (curves and backbones, in file order)
// with their units.
void ExpectHdf5MatchesCsv(const std::filesystem::path& out) {
  const io::Hdf5File h5((out / "joint_harmonic.h5").string(), io::Hdf5File::Mode::kRead);
  for (const auto& [csv, group] :
       {std::pair{"frequency_response.csv", "curves/"}, std::pair{"backbone.csv", "backbones/"}}) {
    if (!std::filesystem::exists(out / csv)) continue;
    const std::vector<double> rows = testing::ReadCsv(out / csv).columns["frequency_hz"];
    std::vector<double> stored;
    for (const std::string name : {"0", "1", "2", "epmc", "quasi_static", "ring_down"}) {
      if (!h5.Has(group + name + "/frequency_hz")) continue;
      EXPECT_EQ(h5.ReadStringAttribute(group + name + "/frequency_hz", "unit"), "Hz");
      const VecX f = h5.ReadVector(group + name + "/frequency_hz");
      stored.insert(stored.end(), f.begin(), f.end());
    }
    ASSERT_EQ(stored.size(), rows.size()) << csv;
    for (size_t i = 0; i < rows.size(); ++i) EXPECT_NEAR(stored[i], rows[i], 1e-12 * rows[i]);
  }
}

nlohmann::json RunExample(const std::filesystem::path& model) {
  const auto out = OutDir(model);
  std::filesystem::remove_all(out);
  const RunOutcome outcome = RunModelFile(model, out);
  EXPECT_TRUE(outcome.ok) << model << ": " << outcome.message;
  std::ifstream in(out / "summary.json");
  return nlohmann::json::parse(in);
}

bool HasNull(const nlohmann::json& j) {
  if (j.is_null()) return true;
  if (j.is_structured())
    for (const auto& item : j)
      if (HasNull(item)) return true;
  return false;
}

class Example : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(Example, RunsAndWritesACleanSummary) {
  const nlohmann::json summary = RunExample(GetParam());
  EXPECT_EQ(summary["status"], "ok");
  EXPECT_FALSE(HasNull(summary)) << "NaN or missing value in " << summary.dump(2);
  if (summary["analysis"] == "harmonic" || summary["analysis"] == "joint_harmonic") {
    if (summary.contains("curves")) {  // a frequency response
      EXPECT_GT(summary["points"].get<int>(), 0);
      for (const auto& curve : summary["curves"]) {
        EXPECT_EQ(curve["stop_reason"], "reached the end");
        EXPECT_EQ(curve["status"], "ok");
      }
    }
    if (summary.contains("nonlinear_mode"))  // every route's backbone to its end
      for (const auto& backbone : summary["nonlinear_mode"]["backbones"]) {
        EXPECT_EQ(backbone["status"], "ok");
        EXPECT_GT(backbone["points"].get<int>(), 1);
      }
    if (summary["analysis"] == "joint_harmonic") ExpectHdf5MatchesCsv(OutDir(GetParam()));
    return;
  }
  if (summary["analysis"] == "modal") {  // every wanted eigenpair, ascending
    const auto& f = summary["frequencies_hz"];
    EXPECT_EQ(f.size(), summary["modes"]["count"].get<size_t>());
    EXPECT_TRUE(std::is_sorted(f.begin(), f.end()));
    EXPECT_GT(summary["free_dofs"].get<int>(), 0);
    return;
  }
  if (summary["analysis"] == "reduction") {  // a basis and its elastic frequencies, ascending
    const auto& f = summary["frequencies_hz"];
    EXPECT_GT(summary["reduction"]["m"].get<int>(), 0);
    EXPECT_FALSE(f.empty());
    EXPECT_TRUE(std::is_sorted(f.begin(), f.end()));
    return;
  }
  if (summary["analysis"] == "static") {  // every step, the preload exact, reactions balanced
    const auto& steps = summary["steps"];
    const bool preload = !summary["preload"].empty();
    EXPECT_EQ(steps.size(), summary["steps_requested"].get<size_t>() + (preload ? 1 : 0));
    for (size_t b = 0; preload && b < summary["preload"].size(); ++b)
      EXPECT_NEAR(steps[0]["bolt_forces_n"][b].get<double>(),
                  summary["preload"][b]["force_n"].get<double>(),
                  1e-9 * summary["preload"][b]["force_n"].get<double>());
    for (const auto& step : steps) {  // no loads: the supports' forces balance
      double sum[3] = {0.0, 0.0, 0.0}, scale = 0.0;
      for (const auto& r : step["reactions"])
        for (int c = 0; c < 3; ++c) {
          sum[c] += r["force_n"][c].get<double>();
          scale = std::max(scale, std::abs(r["force_n"][c].get<double>()));
        }
      for (double s : sum) EXPECT_LE(std::abs(s), 1e-6 * scale + 1e-9) << step["step"];
    }
    return;
  }
  EXPECT_GT(summary["samples"].get<int>(), 0);
  if (summary["analysis"] == "hysteresis") {
    for (const double d : summary["dissipation_per_cycle"]) EXPECT_GE(d, -1e-9);
    return;
  }
  EXPECT_GT(summary["accepted_steps"].get<int>(), 0);
  EXPECT_DOUBLE_EQ(summary["t_reached"].get<double>(), summary["t_end"].get<double>());
  // The laws and dampers dissipate (up to rounding of the energies involved).
  const nlohmann::json& e = summary["energy"];
  const double scale = std::abs(e["external_work"].get<double>()) +
                       std::abs(e["prescribed_motion_work"].get<double>()) +
                       e["initial_kinetic"].get<double>() + e["initial_stored"].get<double>();
  EXPECT_GE(e["law_dissipation"].get<double>(), -1e-9 * scale);
  EXPECT_GE(e["viscous_dissipation"].get<double>(), 0.0);
}

const auto kExampleName = [](const auto& info) {
  return info.param.parent_path().filename().string() + "_" + info.param.stem().string();
};
INSTANTIATE_TEST_SUITE_P(Hysteresis, Example, ::testing::ValuesIn(Examples("hysteresis")),
                         kExampleName);
INSTANTIATE_TEST_SUITE_P(Transient, Example, ::testing::ValuesIn(Examples("transient")),
                         kExampleName);
INSTANTIATE_TEST_SUITE_P(Harmonic, Example, ::testing::ValuesIn(Examples("harmonic")),
                         kExampleName);
INSTANTIATE_TEST_SUITE_P(JointHarmonic, Example, ::testing::ValuesIn(Examples("joint_harmonic")),
                         kExampleName);
INSTANTIATE_TEST_SUITE_P(Modal, Example, ::testing::ValuesIn(Examples("modal")), kExampleName);
INSTANTIATE_TEST_SUITE_P(Reduction, Example, ::testing::ValuesIn(Examples("reduction")),
                         kExampleName);
INSTANTIATE_TEST_SUITE_P(Static, Example, ::testing::ValuesIn(Examples("static")), kExampleName);

TEST(ExampleCoulomb, LoopEnergyMatchesClosedForm) {
  const nlohmann::json summary =
      RunExample(test_paths::SourceDir() / "examples" / "hysteresis" / "coulomb_1d.yaml");
  // 4 R_G (A - R_G / c1) with R_G = 0.3 * 1e6 Pa, A = 5e-6 m, c1 = 2e11 Pa/m = 4.2 J/m^2.
  // 400 samples per cycle place the slip onset within one sample: error below 1e-4.
  const double exact = 4 * 3e5 * (5e-6 - 3e5 / 2e11);
  EXPECT_NEAR(summary["dissipation_per_cycle"].back().get<double>() / exact, 1.0, 1e-4);
  // Secant stiffness of the steady loop: (2 R_G + 2 c2 A) / (2 A).
  EXPECT_NEAR(summary["secant_stiffness"].get<double>() / (3e5 / 5e-6 + 1e9), 1.0, 1e-9);
}

}  // namespace
}  // namespace jointdyn::run
