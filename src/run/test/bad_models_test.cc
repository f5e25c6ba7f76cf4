// Every malformed model file in tests/bad_models is rejected with the message its first
// line announces ("# expect: <text>"): file, line, key, value and rule.
#include <gtest/gtest.h>

#include <fstream>

#include "core/error.h"
#include "core/test/test_paths.h"
#include "run/run_model.h"

namespace jointdyn::run {
namespace {

std::vector<std::filesystem::path> BadModels() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(test_paths::SourceDir() / "tests" / "bad_models"))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

class BadModel : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(BadModel, IsRejectedWithTheExpectedMessage) {
  const auto& file = GetParam();
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  const std::string prefix = "# expect: ";
  ASSERT_EQ(first.rfind(prefix, 0), 0u) << file << " must start with '" << prefix << "'";
  const std::string expected = first.substr(prefix.size());
  const auto out =
      std::filesystem::temp_directory_path() / ("jointdyn_bad_" + file.stem().string());
  std::filesystem::remove_all(out);
  try {
    RunModelFile(file, out);
    FAIL() << file << " was accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    // The message starts with the full path of the model file, or of a file it refers to
    // (e.g. its mesh, next to it, whose errors point at their line there): compare from
    // the file name the expectation starts with on.
    const std::string name = expected.substr(0, expected.find(':'));
    ASSERT_TRUE(name == file.filename().string() ||
                std::filesystem::exists(file.parent_path() / name))
        << "the expectation must start with the model file's name or a file beside it";
    const auto at = message.find(name);
    ASSERT_NE(at, std::string::npos) << message;
    EXPECT_EQ(message.substr(at).rfind(expected, 0), 0u)
        << "got:      " << message.substr(at) << "\nexpected: " << expected << "...";
  }
  EXPECT_FALSE(std::filesystem::exists(out / "summary.json")) << "bad input wrote results";
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadModel, ::testing::ValuesIn(BadModels()),
                         [](const auto& info) { return info.param.stem().string(); });

TEST(BadModel, MissingFileIsAnInputError) {
  EXPECT_THROW(RunModelFile("/nonexistent/model.yaml", "/tmp/none"), InputError);
}

}  // namespace
}  // namespace jointdyn::run
