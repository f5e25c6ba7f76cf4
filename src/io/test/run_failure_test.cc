// A numerical failure stops the run cleanly: where it failed, results so far kept, and a
// summary.json that says so.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

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

}  // namespace
}  // namespace jointdyn::io
