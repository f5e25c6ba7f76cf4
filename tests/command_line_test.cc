// The command line against the run layer: `jointdyn run --help` lists every analysis a
// model file can name (run::Analyses()). Exit codes and messages are checked by the
// command-line tests in tests/CMakeLists.txt.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "run/run_model.h"

namespace jointdyn {
namespace {

// What `jointdyn <arguments>` prints (stdout and stderr); it must exit 0.
std::string Output(const std::string& arguments) {
  const std::string command = std::string("'") + JOINTDYN_BINARY + "' " + arguments + " 2>&1";
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "";
  std::string text;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << command;
  return text;
}

TEST(CommandLine, RunHelpListsEveryAnalysisWithItsSummary) {
  const std::string help = Output("run --help");
  ASSERT_FALSE(run::Analyses().empty());
  for (const run::AnalysisEntry& analysis : run::Analyses()) {
    const std::string line = "\n  " + std::string(analysis.name) + " ";
    const size_t at = help.find(line);
    ASSERT_NE(at, std::string::npos) << analysis.name << " is not listed in:\n" << help;
    EXPECT_NE(help.find(analysis.summary, at), std::string::npos) << analysis.name;
  }
}

}  // namespace
}  // namespace jointdyn
