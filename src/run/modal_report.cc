#include "run/modal_report.h"

#include <utility>

#include "fe/contact_pairing.h"
#include "fe/matrix_market.h"
#include "io/results.h"
#include "io/svg_plot.h"
#include "io/vtu.h"
#include "run/fe_report.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

void WriteContactPairs(const fe::FeModel& model, OutputFolder& folder) {
  for (size_t c = 0; c < model.contacts.size(); ++c)
    fe::WritePairsCsv(folder.File("contact_pairs_" + std::to_string(c + 1) + ".csv").string(),
                      model.mesh, model.contacts[c]);
  if (!model.contacts.empty()) io::WriteVtu(folder.File("contact_pairs.vtu"), ContactGrid(model));
}

void WriteFrequencies(const std::string& title, const analysis::ModalResult& result,
                      OutputFolder& folder) {
  const std::vector<double>& frequencies = result.frequencies_hz;
  if (frequencies.empty()) return;
  io::CsvWriter csv(folder.File("frequencies.csv"), {"mode", "frequency_hz", "eigenvalue"});
  std::vector<double> index;
  for (size_t k = 0; k < frequencies.size(); ++k) {
    csv.Row({double(k + 1), frequencies[k], result.eigen.values(k)});
    index.push_back(double(k + 1));
  }
  io::PlotSpec plot{
      title.empty() ? "Eigenfrequencies" : title, "mode", "frequency f [Hz]", false, false,
      {{"", index, frequencies, true, true}}};
  io::WriteSvgPlot(plot, folder.File("frequencies.svg"));
}

}  // namespace

RunOutcome ModalReport::Finish(const analysis::ModalResult& result) {
  const fe::FeModel& model = result.model;
  WriteContactPairs(model, folder_);
  if (options_.export_matrix_market) {
    const fe::MatrixModelFiles files = fe::MatrixModelFiles::FromPrefix("model");
    for (const std::string* file : {&files.stiffness, &files.mass, &files.nodes, &files.sets})
      folder_.File(*file);
    fe::WriteMatrixModel((folder_.dir() / "model").string(),
                         {model.mesh, model.stiffness, model.mass});
  }
  WriteFrequencies(options_.title, result, folder_);
  std::vector<std::string> names;
  for (int k = 0; k < result.eigen.vectors.cols(); ++k)
    names.push_back("mode_" + std::to_string(k + 1));
  io::VtuGrid grid = ModeGrid(model, result.eigen.vectors, names);
  for (size_t k = 0; k < names.size(); ++k)
    grid.field_data.push_back({names[k] + "_frequency_hz", 1, {result.frequencies_hz[k]}});
  io::WriteVtu(folder_.File("mesh.vtu"), grid);

  nlohmann::json summary = FeRunSummary(analysis_, model_file_, options_.title, options_.fe, model);
  summary["modes"] = {{"count", options_.mode_count},
                      {"shift_hz", options_.shift_frequency},
                      {"converged", result.eigen.converged},
                      {"operator_applications", result.eigen.operator_applications}};
  summary["frequencies_hz"] = result.frequencies_hz;
  summary["times_s"] = {{"mesh", model.times.mesh},
                        {"assembly", model.times.assembly},
                        {"constraints", model.times.constraints},
                        {"pairing", model.times.pairing},
                        {"eigen", result.eigen_seconds},
                        {"eigen_factor", result.eigen.factor_seconds},
                        {"total", result.wall_seconds}};
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
