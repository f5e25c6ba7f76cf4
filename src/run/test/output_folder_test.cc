// The output folder of a run (run/output_folder.h): a bad --out is refused before anything
// is written, one run holds a folder at a time, a rerun into the same folder removes
// exactly the files the earlier run listed in its summary.json (and their .part leftovers),
// and bad input found after the folder was taken leaves nothing behind. The same between
// processes, with signals, kills and a full disk: tests/process_test.cc.
#include "run/output_folder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core/error.h"
#include "core/stop.h"
#include "run/run_model.h"

namespace jointdyn::run {
namespace {

namespace fs = std::filesystem;

// An empty folder under the temporary directory.
fs::path FreshFolder(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("jointdyn_output_folder_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void WriteText(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// A transient model file (0.1 s of a 1 Hz oscillator) with the given output.plots entries.
fs::path WriteModel(const fs::path& path, const std::string& plots) {
  WriteText(path,
            "analysis: transient\n"
            "dofs: [x]\n"
            "masses: {x: 1.0}\n"
            "springs:\n"
            "  - {name: spring, a: x, k: 39.47841760435743}\n"
            "initial:\n"
            "  q: {x: 0.01}\n"
            "integrator: {scheme: newmark, dt: 0.01, t_end: 0.1}\n"
            "output:\n"
            "  plots:\n" +
                plots);
  return path;
}

// The files summary.json lists under "files".
std::set<std::string> ListedFiles(const fs::path& dir) {
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in)["files"].get<std::set<std::string>>();
}

// Every regular file below `dir`, relative to it.
std::set<std::string> FilesIn(const fs::path& dir) {
  std::set<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) files.insert(fs::relative(entry.path(), dir).string());
  return files;
}

// The key of the InputError `run` throws ("" when it throws none).
template <class F>
std::string InputErrorKey(F run) {
  try {
    run();
  } catch (const InputError& error) {
    return error.key();
  }
  return "";
}

// The second run has no `old_plot`: the first run's old_plot.svg goes, the user's files
// stay, and summary.json lists what is in the folder apart from them.
TEST(OutputFolder, RerunRemovesTheEarlierRunsFilesAndNoOthers) {
  const fs::path models = FreshFolder("rerun_models"), out = FreshFolder("rerun");
  const fs::path first = WriteModel(models / "first.yaml",
                                    "    - {file: old_plot, columns: [q_x]}\n"
                                    "    - {file: kept_plot, columns: [q_x]}\n");
  ASSERT_TRUE(RunModelFile(first, out).ok);
  ASSERT_TRUE(fs::exists(out / "old_plot.svg"));
  EXPECT_EQ(FilesIn(out), ListedFiles(out));

  const std::set<std::string> user_files = {"notes.txt", "mine/keep.csv"};
  for (const std::string& name : user_files) WriteText(out / name, "the user's\n");
  const fs::path second =
      WriteModel(models / "second.yaml", "    - {file: kept_plot, columns: [q_x]}\n");
  ASSERT_TRUE(RunModelFile(second, out).ok);

  EXPECT_FALSE(fs::exists(out / "old_plot.svg"));
  const std::set<std::string> listed = ListedFiles(out);
  EXPECT_EQ(listed.count("old_plot.svg"), 0u);
  EXPECT_EQ(listed.count("kept_plot.svg"), 1u);
  std::set<std::string> expected = listed;
  expected.insert(user_files.begin(), user_files.end());
  EXPECT_EQ(FilesIn(out), expected);
}

// A hand-edited list cannot make a rerun remove files outside the folder; a summary.json
// that is not JSON removes nothing.
TEST(OutputFolder, RemovesOnlyListedFilesInsideTheFolder) {
  const fs::path root = FreshFolder("outside"), dir = root / "out";
  for (const char* name : {"outside.txt", "absolute.txt", "out/inside.txt", "out/other.txt"})
    WriteText(root / name, "x\n");
  const nlohmann::json files = {"inside.txt", "../outside.txt", (root / "absolute.txt").string()};
  WriteText(dir / "summary.json", nlohmann::json{{"files", files}}.dump());
  OutputFolder(dir).File("new.txt");
  EXPECT_FALSE(fs::exists(dir / "inside.txt"));
  EXPECT_TRUE(fs::exists(dir / "other.txt"));
  EXPECT_TRUE(fs::exists(root / "outside.txt"));
  EXPECT_TRUE(fs::exists(root / "absolute.txt"));

  WriteText(dir / "summary.json", "{ not json");
  OutputFolder(dir).File("new.txt");
  EXPECT_TRUE(fs::exists(dir / "other.txt"));
}

// `--out ''` and a folder below a regular file are input errors of --out, found before
// the analysis runs: nothing is written.
TEST(OutputFolder, UnwritableFolderIsAnInputErrorOfOut) {
  const fs::path models = FreshFolder("unwritable");
  const fs::path model = WriteModel(models / "model.yaml", "    - {columns: [q_x]}\n");
  EXPECT_EQ(InputErrorKey([&] { RunModelFile(model, ""); }), "--out");
  EXPECT_EQ(InputErrorKey([&] { RunModelFile(model, model / "out"); }), "--out");
  EXPECT_EQ(InputErrorKey([&] { RunModelFile(model, model); }), "--out");
  EXPECT_EQ(FilesIn(models), std::set<std::string>{"model.yaml"});
  EXPECT_EQ(InputErrorKey([&] { OutputFolder(model / "out").CheckWritable(); }), "--out");
  EXPECT_EQ(InputErrorKey([&] { OutputFolder(models / "new" / "deeper").CheckWritable(); }), "");
  EXPECT_FALSE(fs::exists(models / "new"));  // the check creates nothing
}

// The lock excludes a second holder also within one process (an open-file-description
// lock), names the holder's process, and goes with its holder.
TEST(OutputFolder, OneHolderAtATime) {
  const fs::path dir = FreshFolder("lock");
  {
    OutputFolder first(dir);
    first.Lock();
    OutputFolder second(dir);
    try {
      second.Lock();
      FAIL() << "the second lock was taken";
    } catch (const InputError& error) {
      EXPECT_EQ(error.key(), "--out");
      EXPECT_NE(
          std::string(error.what())
              .find("is in use by another jointdyn run (process " + std::to_string(getpid()) + ")"),
          std::string::npos)
          << error.what();
    }
  }
  EXPECT_FALSE(fs::exists(dir / ".jointdyn.lock"));
  OutputFolder third(dir);
  EXPECT_NO_THROW(third.Lock());
}

// A killed run leaves "<name>.part" files and a summary listing them under "partial": the
// rerun removes them with the complete files.
TEST(OutputFolder, RerunRemovesTheLeftoversOfAKilledRun) {
  const fs::path dir = FreshFolder("leftovers");
  for (const char* name : {"done.csv", "done.csv.part", "fields/a.vtu.part", "mine.txt"})
    WriteText(dir / name, "x\n");
  WriteText(dir / "summary.json",
            nlohmann::json{{"files", {"done.csv", "summary.json"}}, {"partial", {"fields/a.vtu"}}}
                .dump());
  OutputFolder folder(dir);
  folder.Start();
  const std::set<std::string> left = {"mine.txt", ".jointdyn.lock", "summary.json"};
  EXPECT_EQ(FilesIn(dir), left);  // summary.json: replaced by the run's own next
  EXPECT_FALSE(fs::exists(dir / "fields"));
}

// Bad input found after the folder was taken (a mesh file that is not there) leaves
// nothing: no folder when the run created it, the earlier files otherwise... except those
// the run had already removed (it removes them when it starts writing).
TEST(OutputFolder, BadInputAfterTheLockLeavesNothing) {
  const fs::path models = FreshFolder("late_input_error");
  WriteText(models / "model.yaml",
            "analysis: modal\n"
            "mesh: {file: missing.msh}\n"
            "materials: {steel: {E: 210.0e9, nu: 0.3, rho: 7850.0}}\n");
  EXPECT_EQ(InputErrorKey([&] { RunModelFile(models / "model.yaml", models / "out"); }),
            "mesh.file");
  EXPECT_EQ(FilesIn(models), std::set<std::string>{"model.yaml"});
  EXPECT_FALSE(fs::exists(models / "out"));
}

// A run stopped by SIGINT keeps its results so far and says "interrupted".
TEST(OutputFolder, StoppedRunIsInterrupted) {
  const fs::path models = FreshFolder("stopped"), out = models / "out";
  const fs::path model = WriteModel(models / "model.yaml", "    - {columns: [q_x]}\n");
  RequestStop(SIGINT);
  const RunOutcome outcome = RunModelFile(model, out);
  ClearStopRequest();
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.message.rfind("interrupted by SIGINT at t = 0 s, step 1", 0), 0u)
      << outcome.message;
  std::ifstream in(out / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  EXPECT_EQ(summary["status"], "interrupted");
  EXPECT_EQ(summary["partial"], nlohmann::json::array());
  EXPECT_TRUE(fs::exists(out / "transient.csv"));  // the initial state
  EXPECT_FALSE(fs::exists(out / ".jointdyn.lock"));
}

}  // namespace
}  // namespace jointdyn::run
