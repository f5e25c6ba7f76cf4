// analysis: static from a model file to its files: the lap joint (run/test/lap_joint_model.h)
// clamped, its tip pushed down and back with friction in the joint over a table history.
// The files agree with each other and with the summary: one reactions.csv row per step and
// support, equal to summary.json's reactions; one pairs.csv row per step and pair; one
// contact-field VTU per step; the tip face of mesh.vtu at the last prescribed value.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/test/test_paths.h"
#include "run/run_model.h"
#include "run/test/lap_joint_model.h"
#include "run/test/vtu_reader.h"

namespace jointdyn::run {
namespace {

std::vector<std::vector<std::string>> ReadRows(const std::filesystem::path& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  std::string line, cell;
  while (std::getline(in, line)) {
    rows.emplace_back();
    for (std::istringstream row(line); std::getline(row, cell, ',');) rows.back().push_back(cell);
  }
  return rows;
}

TEST(StaticRun, WritesConsistentReactionsPairsAndFields) {
  const auto out = std::filesystem::temp_directory_path() / "jointdyn_static_run";
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out);
  std::ofstream(out / "model.yaml")
      << "analysis: static\ntitle: Lap joint, tip pushed down and back\n"
      << testing::LapJointKeys(
             "  - {set: tip, components: [uz], value: {type: table, points: "
             "[[0, 0], [2, -2.0e-5], [3, -1.0e-5]]}}\n")
      << "static: {steps: 3, increments: 2}\n";
  const RunOutcome outcome = RunModelFile(out / "model.yaml", out);
  ASSERT_TRUE(outcome.ok) << outcome.message;
  std::ifstream in(out / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  EXPECT_EQ(summary["status"], "ok");
  const int pairs = summary["joints"][0]["pairs"].get<int>();
  ASSERT_EQ(pairs, 9);
  ASSERT_EQ(summary["steps"].size(), 3u);

  const auto reactions = ReadRows(out / "reactions.csv");
  ASSERT_EQ(reactions.size(), 1u + 3 * 2);
  EXPECT_EQ(reactions[0][0], "support");
  for (int step = 0; step < 3; ++step) {
    const nlohmann::json& s = summary["steps"][step];
    EXPECT_EQ(s["open_pairs"].get<int>() + s["sticking_pairs"].get<int>() +
                  s["slipping_pairs"].get<int>(),
              pairs);
    for (int support = 0; support < 2; ++support) {
      const std::vector<std::string>& row = reactions[1 + 2 * step + support];
      EXPECT_EQ(row[0], "supports[" + std::to_string(support) + "]");
      EXPECT_EQ(std::stoi(row[2]), step + 1);
      for (int c = 0; c < 3; ++c)
        EXPECT_EQ(std::stod(row[4 + c]), s["reactions"][support]["force_n"][c].get<double>());
    }
    // The clamp and the tip balance (no other load).
    EXPECT_NEAR(s["reactions"][0]["force_n"][2].get<double>(),
                -s["reactions"][1]["force_n"][2].get<double>(),
                1e-8 * std::abs(s["reactions"][1]["force_n"][2].get<double>()));
  }
  // Pushed down, the upper block presses on the lower one: the tip's support pulls it
  // down less at t = 3 (-1e-5 m) than at t = 2 (-2e-5 m).
  const double f2 = summary["steps"][1]["reactions"][1]["force_n"][2].get<double>();
  const double f3 = summary["steps"][2]["reactions"][1]["force_n"][2].get<double>();
  EXPECT_LT(f2, f3);
  EXPECT_LT(f3, 0.0);

  const auto pair_rows = ReadRows(out / "pairs.csv");
  ASSERT_EQ(pair_rows.size(), 1u + 3 * pairs);
  EXPECT_EQ(pair_rows[1][0], "joint");
  for (size_t r = 1; r < pair_rows.size(); ++r)
    EXPECT_TRUE(pair_rows[r][1] == "open" || pair_rows[r][1] == "stick" ||
                pair_rows[r][1] == "slip")
        << pair_rows[r][1];
  for (int step = 1; step <= 3; ++step)
    EXPECT_TRUE(std::filesystem::exists(out / "contact_fields" /
                                        ("joint_00000" + std::to_string(step) + ".vtu")));
  EXPECT_TRUE(std::filesystem::exists(out / "contact_fields" / "joint.pvd"));
  EXPECT_TRUE(std::filesystem::exists(out / "reaction_1.svg"));

  // mesh.vtu: the upper block's far end at uz = -1e-5 m (rigidly coupled to the tip, which
  // only translates in z here up to its free rotation: the mean of the face is the tip's).
  const testing::DecodedVtu vtu = testing::DecodeVtu(out / "mesh.vtu");
  const std::vector<double>& x = vtu.floats.at("");
  const std::vector<double>& u = vtu.floats.at("displacement");
  double sum = 0.0;
  int count = 0;
  for (int p = 0; p < vtu.points; ++p)
    if (std::abs(x[3 * p] - 0.15) < 1e-12) {
      sum += u[3 * p + 2];
      ++count;
    }
  ASSERT_EQ(count, 6);
  EXPECT_NEAR(sum / count, -1e-5, 1e-15);
}

// A pressure and a bonded joint from the model file: the tip face of the lap joint pushed
// along the joint by 1 MPa, the blocks bonded (no bolt needed): the clamp carries p times
// the face's area (0.05 x 0.02 m), every pair sticks and none opens.
TEST(StaticRun, PressureOnABondedJointIsCarriedByTheClamp) {
  const auto out = std::filesystem::temp_directory_path() / "jointdyn_static_bonded";
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out);
  std::string keys = testing::LapJointKeys();
  const std::string laws =
      "    normal: {type: linear, eps: 5.0e13}\n"
      "    friction: {type: coulomb, dim: 2, c1: 9.5e12, c2: 5.0e11, mu: 0.15}\n";
  ASSERT_NE(keys.find(laws), std::string::npos);
  keys.replace(keys.find(laws), laws.size(),
               "    normal: {type: bonded, eps: 1.0e15}\n"
               "    friction: {type: elastic, dim: 2, k: 1.0e15}\n");
  std::ofstream(out / "model.yaml") << "analysis: static\n"
                                    << keys << "pressures: [{set: upper_xmax, pressure: 1.0e6}]\n";
  const RunOutcome outcome = RunModelFile(out / "model.yaml", out);
  ASSERT_TRUE(outcome.ok) << outcome.message;
  std::ifstream in(out / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  const nlohmann::json& step = summary["steps"][0];
  const double expected = 1e6 * 0.05 * 0.02;
  EXPECT_NEAR(step["reactions"][0]["force_n"][0].get<double>(), expected, 1e-8 * expected);
  EXPECT_NEAR(step["reactions"][0]["force_n"][2].get<double>(), 0.0, 1e-8 * expected);
  EXPECT_EQ(step["open_pairs"].get<int>(), 0);
  EXPECT_EQ(step["sticking_pairs"].get<int>(), 9);
}

// examples/static/connecting_rod_preload.yaml: the two screws' preloads, and nothing else,
// press the cap onto the rod: the joint's normal force sum A_i p_i is their sum (the cap's
// equilibrium; measured 7e-15 relative). With the screws' nodes `at:` their sets' node
// averages (1 mm off the axes) it was 33 023.6 N: this test guards the tilt.
TEST(StaticExample, ConnectingRodJointCarriesThePreloads) {
  const auto out = std::filesystem::temp_directory_path() / "jointdyn_connecting_rod_preload";
  std::filesystem::remove_all(out);
  const RunOutcome outcome = RunModelFile(
      test_paths::SourceDir() / "examples" / "static" / "connecting_rod_preload.yaml", out);
  ASSERT_TRUE(outcome.ok) << outcome.message;
  std::ifstream in(out / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  for (const auto& step : summary["steps"]) {
    EXPECT_NEAR(step["normal_force_n"].get<double>(), 33000.0, 1e-9 * 33000.0);
    EXPECT_EQ(step["open_pairs"], 0);
    for (const auto& force : step["bolt_forces_n"])
      EXPECT_NEAR(force.get<double>(), 16500.0, 1e-9 * 16500.0);
  }
}

}  // namespace
}  // namespace jointdyn::run
