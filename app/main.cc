// jointdyn: the command line. `jointdyn run MODEL.yaml [--out DIR]` runs the analysis a
// model file names; `jointdyn laws` prints the interface-law reference.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "core/error.h"
#include "io/law_registry.h"
#include "io/run_model.h"

namespace {

constexpr int kExitInputError = 2;
constexpr int kExitNumericalFailure = 3;
constexpr int kExitInternalError = 4;

int Run(const std::string& model, std::string out) {
  if (out.empty()) out = std::filesystem::path(model).stem().string() + "_out";
  try {
    const jointdyn::io::RunOutcome outcome = jointdyn::io::RunModelFile(model, out);
    if (!outcome.ok) {
      std::cerr << "jointdyn: run failed: " << outcome.message << "\n"
                << "jointdyn: results up to the failure are in " << out << "\n";
      return kExitNumericalFailure;
    }
    std::cout << "jointdyn: results in " << out << " (summary: " << outcome.summary.string()
              << ")\n";
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "jointdyn: nonlinear dynamics of jointed structures (contact and friction evaluated "
      "pointwise in the joint).\nModel-file reference: docs/model_files.md, docs/laws.md"};
  app.require_subcommand(1);

  std::string model, out;
  CLI::App* run = app.add_subcommand(
      "run",
      "Run the analysis named by the model file's top-level `analysis:` key (hysteresis, "
      "transient, harmonic) and "
      "write CSV results, summary.json and a plot (SVG) into the output directory.\n"
      "Exit codes: 0 ok, 2 bad input, 3 numerical failure (partial results kept), 4 internal "
      "error.");
  run->add_option("MODEL", model, "YAML model file")->required()->check(CLI::ExistingFile);
  run->add_option("--out,-o", out, "output directory (default: <model name>_out)");

  CLI::App* laws = app.add_subcommand("laws", "Print the interface-law reference (Markdown).");

  CLI11_PARSE(app, argc, argv);
  if (*run) return Run(model, out);
  if (*laws) {
    std::cout << jointdyn::io::LawReferenceMarkdown();
    return 0;
  }
  return 0;
}
