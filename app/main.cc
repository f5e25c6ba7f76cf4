// jointdyn: the command line. `jointdyn run MODEL.yaml [--out DIR]` runs the analysis a
// model file names; `jointdyn laws` prints the interface-law reference.
#include <CLI/CLI.hpp>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>

#include "core/error.h"
#include "core/stop.h"
#include "model/law_registry.h"
#include "run/run_model.h"

namespace {

constexpr int kExitInputError = 2;
constexpr int kExitNumericalFailure = 3;
constexpr int kExitInternalError = 4;
constexpr int kExitIoError = 5;

// SIGINT (Ctrl-C) or SIGTERM asks the run to stop at the next step and write what it has;
// a second one ends the process at once (the default action).
void OnStopSignal(int signal) {
  if (jointdyn::StopRequested()) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  jointdyn::RequestStop(signal);
}

void InstallSignalHandlers() {
  struct sigaction action = {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM}) sigaction(signal, &action, nullptr);
  // A file-size limit (ulimit -f) makes a write fail with EFBIG, reported like a full disk,
  // rather than killing the process.
  std::signal(SIGXFSZ, SIG_IGN);
}

int Run(const std::string& model, const std::filesystem::path& out) {
  try {
    const jointdyn::run::RunOutcome outcome = jointdyn::run::RunModelFile(model, out);
    if (!outcome.ok) {
      const int signal = jointdyn::StopRequested();
      std::cerr << "jointdyn: " << (signal ? "run stopped: " : "run failed: ") << outcome.message
                << "\n"
                << "jointdyn: results up to " << (signal ? "then" : "the failure") << " are in "
                << out.string() << "\n";
      return signal ? 128 + signal : kExitNumericalFailure;
    }
    std::cout << "jointdyn: results in " << out.string()
              << " (summary: " << outcome.summary.string() << ")\n";
    return 0;
  } catch (const jointdyn::InputError& e) {
    std::cerr << "jointdyn: error: " << e.what() << "\n";
    return kExitInputError;
  } catch (const jointdyn::IoError& e) {
    std::cerr << "jointdyn: error: " << e.what() << "\n";
    return kExitIoError;
  } catch (const jointdyn::InternalError& e) {
    std::cerr << "jointdyn: " << e.what() << "\n";
    return kExitInternalError;
  } catch (const std::bad_alloc&) {  // model sizes are bounded by memory: should not happen
    std::cerr << "jointdyn: error: out of memory\n";
    return kExitInternalError;
  } catch (const std::exception& e) {
    std::cerr << "jointdyn: internal error: " << e.what() << "\n";
    return kExitInternalError;
  }
}

// The description of `jointdyn run`, with every analysis a model file can name.
std::string RunDescription() {
  std::string text =
      "Run the analysis named by the model file's top-level `analysis:` key and write its "
      "results (CSV, HDF5, VTU, SVG plots and summary.json) into the output folder. A rerun "
      "into the same folder first removes the files the earlier run listed in its "
      "summary.json.\nAnalyses:\n";
  for (const jointdyn::run::AnalysisEntry& a : jointdyn::run::Analyses())
    text += "  " + std::string(a.name) + std::string(18 - std::string(a.name).size(), ' ') +
            a.summary + "\n";
  return text +
         "One run at a time per output folder (a second run into it fails with exit 2).\n"
         "Exit codes: 0 ok, 2 bad input (nothing written), 3 numerical failure (results up "
         "to the failure kept), 4 internal error, 5 a file could not be written (disk full, "
         "permission: the reason is printed), 130/143 stopped by SIGINT/SIGTERM (results so "
         "far kept, summary status interrupted).";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "jointdyn: nonlinear dynamics of jointed structures (contact and friction evaluated "
      "pointwise in the joint).\nModel-file reference: docs/model_files.md, docs/laws.md"};
  app.set_version_flag("--version", std::string("jointdyn ") + JOINTDYN_VERSION);
  app.require_subcommand(1);

  std::string model, out;
  CLI::App* run = app.add_subcommand("run", RunDescription());
  run->add_option("MODEL", model, "YAML model file")->required();
  run->add_option("--out,-o", out, "output folder (default: <model name>_out)");
  CLI::App* laws = app.add_subcommand("laws", "Print the interface-law reference (Markdown).");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; a usage error is bad input like a bad model file.
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitInputError;
  }
  if (*laws) {
    std::cout << jointdyn::model::LawReferenceMarkdown();
    return 0;
  }
  // --out '' is refused by the output folder's check rather than taken as "not given".
  const std::filesystem::path out_dir =
      run->count("--out")
          ? std::filesystem::path(out)
          : std::filesystem::path(std::filesystem::path(model).stem().string() + "_out");
  InstallSignalHandlers();
  return Run(model, out_dir);
}
