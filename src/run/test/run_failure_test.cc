// A numerical failure stops the run cleanly: where it failed, results so far kept, and a
// summary.json that says so.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/test/test_paths.h"
#include "run/run_model.h"

namespace jointdyn::run {
namespace {

// Runs tests/failing_models/<name>.yaml into a fresh directory; the outcome and the summary.
struct FailedRun {
  RunOutcome outcome;
  nlohmann::json summary;
  std::filesystem::path out;
};

FailedRun RunFailingModel(const std::string& name) {
  FailedRun run;
  run.out = std::filesystem::temp_directory_path() / ("jointdyn_failure_" + name);
  std::filesystem::remove_all(run.out);
  run.outcome = RunModelFile(
      test_paths::SourceDir() / "tests" / "failing_models" / (name + ".yaml"), run.out);
  std::ifstream in(run.out / "summary.json");
  run.summary = nlohmann::json::parse(in);
  EXPECT_FALSE(run.outcome.ok);
  EXPECT_EQ(run.summary["status"], "failed");
  EXPECT_EQ(run.summary["message"], run.outcome.message);
  return run;
}

TEST(RunFailure, StopsCleanlyAndKeepsTheResultsSoFar) {
  const auto [outcome, summary, out] = RunFailingModel("exponential_overflow");
  EXPECT_EQ(outcome.message.rfind("exponential normal law gave a non-finite pressure at gap ", 0),
            0u)
      << outcome.message;
  EXPECT_NE(outcome.message.find(" m at t = "), std::string::npos) << outcome.message;
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
// The samples file at `path`: its header starts with `columns`, and it holds the state at
// t = 0 alone.
void ExpectOnlyTheStart(const std::filesystem::path& path, const std::string& columns) {
  std::ifstream csv(path);
  std::string header, initial, none;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind(columns, 0), 0u) << header;
  EXPECT_TRUE(std::getline(csv, initial));
  EXPECT_EQ(initial.rfind("0,", 0), 0u) << initial;
  EXPECT_FALSE(std::getline(csv, none));
}

// A mechanism driven from rest with nothing loading it: the failed first step names the
// missing force scale.
TEST(RunFailure, MultibodyFromRestNamesTheMissingForceScale) {
  const FailedRun run = RunFailingModel("multibody_no_force_scale");
  EXPECT_NE(run.outcome.message.find("step 1"), std::string::npos) << run.outcome.message;
  EXPECT_NE(run.outcome.message.find("give integrator.force_scale"), std::string::npos)
      << run.outcome.message;
}

TEST(RunFailure, BeltDriveStopsAtTheStepThatFailed) {
  const auto [outcome, summary, out] = RunFailingModel("belt_drive_newton");
  EXPECT_EQ(outcome.message.rfind("integration stopped at t = 0 s, step 1: ", 0), 0u)
      << outcome.message;
  EXPECT_NE(outcome.message.find("Newton iteration 2: no convergence"), std::string::npos);
  ExpectOnlyTheStart(out / "belt_drive.csv", "time,angle_P1,omega_P1,torque_P1,drive_P1");
  EXPECT_EQ(summary["accepted_steps"], 0);
}

TEST(RunFailure, QuasiStaticBeltDriveStopsAfterItsHalvings) {
  const auto [outcome, summary, out] = RunFailingModel("belt_drive_quasi_static");
  EXPECT_EQ(outcome.message.rfind("quasi-static step 1 to t = 0.025 s (after 1 halvings): ", 0), 0u)
      << outcome.message;
  EXPECT_NE(outcome.message.find("Newton iteration 3: no convergence"), std::string::npos);
  ExpectOnlyTheStart(out / "belt_drive.csv", "time,angle_C,omega_C,torque_C,x_C,y_C,Fx_C,Fy_C");
  EXPECT_EQ(summary["accepted_steps"], 0);
  EXPECT_EQ(summary["rejected_steps"], 2);
}

TEST(RunFailure, HarmonicKeepsThePointsBeforeTheFailure) {
  const auto [outcome, summary, out] = RunFailingModel("harmonic_step_below_min");
  EXPECT_EQ(outcome.message.rfind("level 1: continuation step below min_step at omega = ", 0), 0u)
      << outcome.message;
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

// A free structure with the static term in the basis: the message names the cause (not a
// resonance) and the fix.
TEST(RunFailure, HarmonicFreeStructureNamesTheSingularStaticTerm) {
  const auto [outcome, summary, out] = RunFailingModel("harmonic_free_structure_static_term");
  EXPECT_NE(outcome.message.find("the static (zeroth-harmonic) stiffness is singular"),
            std::string::npos)
      << outcome.message;
  EXPECT_NE(outcome.message.find("harmonics.odd_only: true"), std::string::npos);
}

}  // namespace
}  // namespace jointdyn::run
