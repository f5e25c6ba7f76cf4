// summary.json: a non-finite figure anywhere in a result (JSON has no NaN: it is written as
// null) fails the run with a message naming its key path; finite figures leave the status.
#include "run/summaries.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

namespace jointdyn::run {
namespace {

nlohmann::json Written(const std::filesystem::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in);
}

TEST(Summary, NonFiniteFigureFailsTheRunNamingTheKey) {
  const auto dir = std::filesystem::temp_directory_path() / "jointdyn_summary_nonfinite";
  std::filesystem::remove_all(dir);
  OutputFolder folder(dir);
  nlohmann::json summary = SummaryHead("transient", "model.yaml", "");
  summary["runs"] = {{{"name", "a"}, {"max_error", 0.5}},
                     {{"name", "b"}, {"max_error", std::numeric_limits<double>::quiet_NaN()}}};
  const RunOutcome outcome = WriteSummary(folder, summary, Status::Ok());
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.message, "the result runs[1].max_error is not finite (written as null)");
  const nlohmann::json written = Written(dir);
  EXPECT_EQ(written["status"], "failed");
  EXPECT_TRUE(written["runs"][1]["max_error"].is_null());
  EXPECT_EQ(written["files"], nlohmann::json::array({"summary.json"}));

  // An earlier failure keeps its message first; finite figures leave an ok run ok.
  summary["runs"][1]["max_error"] = std::numeric_limits<double>::infinity();
  const RunOutcome both = WriteSummary(folder, summary, Status::Failure("run b: Newton"));
  EXPECT_EQ(both.message,
            "run b: Newton; the result runs[1].max_error is not finite (written as null)");
  summary["runs"][1]["max_error"] = 0.25;
  EXPECT_TRUE(WriteSummary(folder, summary, Status::Ok()).ok);
  EXPECT_EQ(Written(dir)["status"], "ok");
}

}  // namespace
}  // namespace jointdyn::run
