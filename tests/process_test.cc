// The command line as a process among others: two runs into one folder, SIGINT and SIGTERM,
// SIGKILL at random times during a study, and a disk that fills up (a file-size limit,
// `ulimit -f`, which fails writes with EFBIG like a full disk with ENOSPC). After each,
// every file under its own name in the output folder is whole and summary.json says how
// far the run got.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/test/test_paths.h"
#include "io/hdf5_file.h"

extern char** environ;

namespace jointdyn {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// A fresh folder of this process (two test suites on one machine, e.g. a sanitizer build
// beside the release one, must not share it).
fs::path Fresh(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("jointdyn_process_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path Model(const std::string& name) { return test_paths::SourceDir() / "tests/models" / name; }

std::string Read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// `sh -c script` with the binary as $0, output into `log`; returns the process id.
pid_t Spawn(const std::string& script, const fs::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  const std::string binary = JOINTDYN_BINARY;
  std::vector<char*> argv = {const_cast<char*>("sh"), const_cast<char*>("-c"),
                             const_cast<char*>(script.c_str()), const_cast<char*>(binary.c_str()),
                             nullptr};
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, "/bin/sh", &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

// `jointdyn run MODEL --out OUT` (exec'ed by the shell: the process id is jointdyn's).
pid_t StartRun(const fs::path& model, const fs::path& out, const fs::path& log,
               const std::string& limits = "") {
  return Spawn(limits + "exec \"$0\" run '" + model.string() + "' --out '" + out.string() + "'",
               log);
}

// The exit code (128 + signal when killed).
int Wait(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Polls `ready` every 10 ms for up to `timeout`.
bool WaitFor(const std::function<bool()>& ready, std::chrono::milliseconds timeout = 60s) {
  for (auto end = std::chrono::steady_clock::now() + timeout; !ready();) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

nlohmann::json Summary(const fs::path& dir) {
  return nlohmann::json::parse(Read(dir / "summary.json"), nullptr, false);
}

// A whole file of its kind: CSV rows of one width ending in a newline, XML closed, HDF5
// and JSON readable. Returns what is wrong ("" when whole).
std::string Broken(const fs::path& path) {
  const std::string text = Read(path), ext = path.extension().string();
  if (text.empty()) return "empty";
  if (ext == ".csv") {
    if (text.back() != '\n') return "last row cut";
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    const auto width = std::count(line.begin(), line.end(), ',');
    while (std::getline(lines, line))
      if (std::count(line.begin(), line.end(), ',') != width) return "row width: " + line;
  } else if (ext == ".vtu" || ext == ".pvd") {
    if (text.find("</VTKFile>") == std::string::npos) return "XML not closed";
  } else if (ext == ".svg") {
    if (text.find("</svg>") == std::string::npos) return "SVG not closed";
  } else if (ext == ".json") {
    if (nlohmann::json::parse(text, nullptr, false).is_discarded()) return "not JSON";
  } else if (ext == ".h5") {
    try {
      io::Hdf5File file(path.string(), io::Hdf5File::Mode::kRead);
    } catch (const std::exception& e) {
      return e.what();
    }
  }
  return "";
}

// Every file in `dir` is whole (.part files aside: what a killed run was writing; the next
// run removes them), and every file summary.json lists is there.
void ExpectWholeFiles(const fs::path& dir, const std::string& when) {
  const nlohmann::json summary = Summary(dir);
  ASSERT_FALSE(summary.is_discarded()) << when << ": summary.json is not JSON";
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = fs::relative(entry.path(), dir).string();
    if (!entry.is_regular_file() || entry.path().extension() == ".part") continue;
    if (name == ".jointdyn.lock") continue;  // the killed run's (its lock went with it)
    EXPECT_EQ(Broken(entry.path()), "") << when << ": " << name;
  }
  for (const std::string name : summary["files"])
    EXPECT_TRUE(fs::exists(dir / name)) << when << ": listed " << name << " is missing";
}

// A second run into a folder in use fails at once (exit 2) naming the holder and writes
// nothing; SIGINT then stops the first at a step, which keeps whole rows and says
// "interrupted" (exit 130).
TEST(Process, OneRunPerFolderAndSigintStopsCleanly) {
  const fs::path dir = Fresh("lock"), out = dir / "out";
  const pid_t first = StartRun(Model("long_transient.yaml"), out, dir / "first.log");
  ASSERT_TRUE(WaitFor([&] { return fs::exists(out / "transient.csv.part"); }))
      << Read(dir / "first.log");
  EXPECT_EQ(Summary(out)["status"], "running");

  const pid_t second = StartRun(Model("long_transient.yaml"), out, dir / "second.log");
  EXPECT_EQ(Wait(second), 2);
  EXPECT_NE(Read(dir / "second.log")
                .find("is in use by another jointdyn run (process " + std::to_string(first) + ")"),
            std::string::npos)
      << Read(dir / "second.log");

  kill(first, SIGINT);
  EXPECT_EQ(Wait(first), 130) << Read(dir / "first.log");
  EXPECT_NE(Read(dir / "first.log").find("run stopped: interrupted by SIGINT at t = "),
            std::string::npos)
      << Read(dir / "first.log");
  const nlohmann::json summary = Summary(out);
  EXPECT_EQ(summary["status"], "interrupted");
  EXPECT_EQ(summary["partial"], nlohmann::json::array());
  EXPECT_FALSE(fs::exists(out / ".jointdyn.lock"));
  EXPECT_EQ(Broken(out / "transient.csv"), "");
  ExpectWholeFiles(out, "after SIGINT");
}

// SIGKILL at random times of a four-run study: what is there is whole, and the summary
// (status running) lists what was done; a rerun then completes and leaves no .part files.
TEST(Process, KilledStudyLeavesWholeFiles) {
  const fs::path dir = Fresh("kill"), out = dir / "out";
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(Wait(StartRun(Model("kill_study.yaml"), out, dir / "full.log")), 0)
      << Read(dir / "full.log");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::mt19937 random(17);
  std::uniform_real_distribution<double> when(0.02 * seconds, 0.8 * seconds);
  int runs_seen = 0, killed = 0;
  // JOINTDYN_KILLS=40 for a longer study of the same (6 by default).
  const char* kills = std::getenv("JOINTDYN_KILLS");
  for (int kill_count = 0, n = kills ? std::atoi(kills) : 6; kill_count < n; ++kill_count) {
    const std::string before = Read(out / "summary.json");  // an earlier run's
    const pid_t pid = StartRun(Model("kill_study.yaml"), out, dir / "killed.log");
    double after = when(random);
    if (kill_count + 1 == n) {  // the last kill once a run has finished, however busy the
      const auto begin = std::chrono::steady_clock::now();  // machine is
      const auto waited = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      };
      for (nlohmann::json summary; waited() < 10.0 * seconds;
           std::this_thread::sleep_for(std::chrono::milliseconds(20))) {
        if (Read(out / "summary.json") == before) continue;
        summary = Summary(out);
        if (summary.is_object() && summary.contains("runs") && !summary["runs"].empty()) break;
      }
      after = waited();
    } else {
      std::this_thread::sleep_for(std::chrono::duration<double>(after));
    }
    kill(pid, SIGKILL);
    const int code = Wait(pid);
    const std::string at = "killed after " + std::to_string(after) + " s";
    if (code == 0) continue;  // it had finished (the machine was faster than the first run)
    EXPECT_EQ(code, 128 + SIGKILL) << at;
    ++killed;
    ExpectWholeFiles(out, at);
    const nlohmann::json summary = Summary(out);
    if (summary.contains("runs")) runs_seen = std::max(runs_seen, int(summary["runs"].size()));
    if (fs::exists(out / "histories.h5")) {
      const io::Hdf5File histories((out / "histories.h5").string(), io::Hdf5File::Mode::kRead);
      EXPECT_TRUE(histories.Has("runs/wpod_tvd_4/time")) << at;
    }
  }
  EXPECT_GE(killed, 3) << "most runs ended before their kill: the test checked little";
  std::printf("%d kills during a run, up to %d runs of 4 done when killed\n", killed, runs_seen);
  EXPECT_GT(runs_seen, 0) << "no kill came after the first run: the test checked little";
  ASSERT_EQ(Wait(StartRun(Model("kill_study.yaml"), out, dir / "rerun.log")), 0)
      << Read(dir / "rerun.log");
  EXPECT_EQ(Summary(out)["status"], "ok");
  for (const auto& entry : fs::recursive_directory_iterator(out))
    EXPECT_NE(entry.path().extension(), ".part") << entry.path();
  ExpectWholeFiles(out, "after the rerun");
}

// SIGTERM after the first run of a study: the study stops at its next step with the runs so
// far in summary.json and histories.h5, status interrupted, exit 143.
TEST(Process, SigtermStopsAStudyWithTheRunsSoFar) {
  const fs::path dir = Fresh("sigterm"), out = dir / "out";
  const pid_t pid = StartRun(Model("kill_study.yaml"), out, dir / "run.log");
  ASSERT_TRUE(WaitFor([&] {
    const nlohmann::json summary = Summary(out);
    return !summary.is_discarded() && summary.contains("runs") && !summary["runs"].empty();
  })) << Read(dir / "run.log");
  kill(pid, SIGTERM);
  EXPECT_EQ(Wait(pid), 128 + SIGTERM) << Read(dir / "run.log");
  const nlohmann::json summary = Summary(out);
  EXPECT_EQ(summary["status"], "interrupted");
  EXPECT_NE(summary["message"].get<std::string>().find("interrupted by SIGTERM"), std::string::npos)
      << summary["message"];
  ASSERT_FALSE(summary["runs"].empty());
  EXPECT_EQ(summary["runs"][0]["name"], "wpod_tvd_4");
  EXPECT_LT(summary["runs"].size(), 4u);
  const io::Hdf5File histories((out / "histories.h5").string(), io::Hdf5File::Mode::kRead);
  EXPECT_TRUE(histories.Has("runs/wpod_tvd_4/time"));
  ExpectWholeFiles(out, "after SIGTERM");
}

// A write that fails (here a file-size limit: EFBIG, like ENOSPC on a full disk) is an I/O
// error, exit 5, with the path and the operating system's reason; the summary says failed;
// no empty or cut file is left.
TEST(Process, FailedWriteIsAnIoErrorWithTheReason) {
  const fs::path dir = Fresh("full"), out = dir / "out";
  const pid_t pid = StartRun(Model("long_transient.yaml"), out, dir / "run.log", "ulimit -f 64; ");
  EXPECT_EQ(Wait(pid), 5) << Read(dir / "run.log");
  EXPECT_NE(Read(dir / "run.log")
                .find("cannot write " + (out / "transient.csv").string() + ": File too large"),
            std::string::npos)
      << Read(dir / "run.log");
  const nlohmann::json summary = Summary(out);
  EXPECT_EQ(summary["status"], "failed");
  EXPECT_NE(summary["message"].get<std::string>().find("File too large"), std::string::npos);
  ExpectWholeFiles(out, "after the failed write");
  EXPECT_FALSE(fs::exists(out / "transient.csv.part"));
}

// A disk that fills up for real: a 256 kB tmpfs (mounting needs root; skipped otherwise,
// where the test above with its file-size limit covers the same path). The failed CSV is
// removed, which frees the space the summary then needs to say "failed".
TEST(Process, FullDiskIsAnIoErrorWithTheReason) {
  const fs::path dir = Fresh("tmpfs"), disk = dir / "disk", out = disk / "out";
  fs::create_directories(disk);
  if (std::system(
          ("mount -t tmpfs -o size=256k tmpfs '" + disk.string() + "' 2>/dev/null").c_str()))
    GTEST_SKIP() << "cannot mount a tmpfs here (not root)";
  const int code = Wait(StartRun(Model("long_transient.yaml"), out, dir / "run.log"));
  const std::string log = Read(dir / "run.log");
  const nlohmann::json summary = Summary(out);
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(out))
    files.push_back(fs::relative(entry.path(), out).string());
  std::system(("umount '" + disk.string() + "'").c_str());
  EXPECT_EQ(code, 5) << log;
  EXPECT_NE(
      log.find("cannot write " + (out / "transient.csv").string() + ": No space left on device"),
      std::string::npos)
      << log;
  EXPECT_EQ(summary["status"], "failed");
  EXPECT_EQ(files, std::vector<std::string>{"summary.json"});
}

}  // namespace
}  // namespace jointdyn
