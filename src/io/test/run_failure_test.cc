// A numerical failure stops the run cleanly: where it failed, results so far kept, and a
// summary.json that says so.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "io/run_model.h"
#include "io/test/test_paths.h"

namespace jointdyn::io {
namespace {

TEST(RunFailure, StopsCleanlyAndKeepsTheResultsSoFar) {
  const auto model =
      test_paths::SourceDir() / "tests" / "failing_models" / "exponential_overflow.yaml";
  const auto out = std::filesystem::temp_directory_path() / "jointdyn_failure";
  std::filesystem::remove_all(out);
  const RunOutcome outcome = RunModelFile(model, out);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.message.rfind("exponential normal law gave a non-finite pressure at gap ", 0),
            0u)
      << outcome.message;
  EXPECT_NE(outcome.message.find(" m at t = "), std::string::npos) << outcome.message;

  std::ifstream in(out / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  EXPECT_EQ(summary["status"], "failed");
  EXPECT_EQ(summary["message"], outcome.message);
  const int samples = summary["samples"];
  EXPECT_GT(samples, 0);
  EXPECT_LT(samples, 201);

  std::ifstream csv(out / "hysteresis.csv");
  int lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  EXPECT_EQ(lines, samples + 1);  // header + the samples before the failure
  EXPECT_TRUE(std::filesystem::exists(out / "hysteresis.svg"));
}

// tests/failing_models/harmonic_step_below_min.yaml: the continuation stops where the
// Jenkins element starts to slip (amplitude F_s / k_t = 0.2 mm); the stuck points before it
// are kept, and the summary counts them.
TEST(RunFailure, HarmonicKeepsThePointsBeforeTheFailure) {
  const auto model =
      test_paths::SourceDir() / "tests" / "failing_models" / "harmonic_step_below_min.yaml";
  const auto out = std::filesystem::temp_directory_path() / "jointdyn_harmonic_failure";
  std::filesystem::remove_all(out);
  const RunOutcome outcome = RunModelFile(model, out);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.message.rfind("level 1: continuation step below min_step at omega = ", 0), 0u)
      << outcome.message;

  std::ifstream in(out / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  EXPECT_EQ(summary["status"], "failed");
  EXPECT_EQ(summary["message"], outcome.message);
  EXPECT_EQ(summary["curves"][0]["status"], "failed");
  const int points = summary["points"];
  EXPECT_GT(points, 5);

  std::ifstream csv(out / "frequency_response.csv");
  std::vector<std::string> lines;
  for (std::string line; std::getline(csv, line);) lines.push_back(line);
  ASSERT_EQ(int(lines.size()), points + 1);  // header + the points before the failure
  // The last point kept is still stuck: amplitude (4th column) below F_s / k_t.
  std::string cell;
  std::istringstream last(lines.back());
  for (int column = 0; column < 4; ++column) std::getline(last, cell, ',');
  EXPECT_LT(std::stod(cell), 2e-4);
  EXPECT_GT(std::stod(cell), 1.9e-4);  // ... and close to slipping
}

}  // namespace
}  // namespace jointdyn::io
