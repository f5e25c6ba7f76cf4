// jointdyn: the command line. `jointdyn run MODEL.yaml [--out DIR]` runs the analysis a
// model file names; `jointdyn laws` prints the interface-law reference.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <string>

#include "core/error.h"
#include "model/law_registry.h"
#include "run/run_model.h"

namespace {

constexpr int kExitInputError = 2;
constexpr int kExitNumericalFailure = 3;
constexpr int kExitInternalError = 4;

int Run(const std::string& model, const std::filesystem::path& out) {
  try {
    const jointdyn::run::RunOutcome outcome = jointdyn::run::RunModelFile(model, out);
    if (!outcome.ok) {
      std::cerr << "jointdyn: run failed: " << outcome.message << "\n"
                << "jointdyn: results up to the failure are in " << out.string() << "\n";
      return kExitNumericalFailure;
    }
    std::cout << "jointdyn: results in " << out.string()
              << " (summary: " << outcome.summary.string() << ")\n";
    return 0;
  } catch (const jointdyn::InputError& e) {
    std::cerr << "jointdyn: error: " << e.what() << "\n";
    return kExitInputError;
  } catch (const jointdyn::InternalError& e) {
    std::cerr << "jointdyn: " << e.what() << "\n";
    return kExitInternalError;
  } catch (const std::exception& e) {
    std::cerr << "jointdyn: error: " << e.what() << "\n";
    return kExitInputError;
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
         "Exit codes: 0 ok, 2 bad input (nothing written), 3 numerical failure (results up "
         "to the failure kept), 4 internal error.";
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
  return Run(model, out_dir);
}
