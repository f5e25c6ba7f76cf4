#include "run/backbone_report.h"

#include <algorithm>

#include "core/error.h"
#include "io/results.h"
#include "io/svg_plot.h"

namespace jointdyn::run {
namespace {

// Frequency or damping ratio over the first output's amplitude, one series per method.
void WritePlot(const std::vector<analysis::Backbone>& backbones, bool damping, int mode,
               const std::string& output, const std::string& title, OutputFolder& folder) {
  io::PlotSpec plot{title.empty() ? "Nonlinear mode " + std::to_string(mode) : title,
                    "amplitude of " + output + " [m]",
                    damping ? "modal damping ratio [-]" : "frequency [Hz]",
                    true,
                    false,
                    {}};
  for (const analysis::Backbone& b : backbones) {
    if (b.size() == 0) continue;
    const Eigen::VectorXd x = b.output_amplitude.col(0);
    plot.series.push_back({b.method, std::vector<double>(x.data(), x.data() + x.size()),
                           damping ? b.damping_ratio : b.frequency, true, true});
  }
  if (plot.series.empty()) return;
  io::WriteSvgPlot(plot, folder.File(damping ? "backbone_damping.svg" : "backbone_frequency.svg"));
}

nlohmann::json BackboneSummary(const analysis::Backbone& b) {
  nlohmann::json s = {{"method", b.method},
                      {"points", b.size()},
                      {"newton_iterations", b.iterations},
                      {"refinements", b.refinements},
                      {"seconds", b.seconds},
                      {"status", b.status ? "ok" : b.status.message}};
  if (b.size() == 0) return s;
  s["frequency_hz"] = {b.frequency.front(), b.frequency.back()};
  s["damping_ratio"] = {b.damping_ratio.front(), b.damping_ratio.back()};
  s["max_damping_ratio"] = *std::max_element(b.damping_ratio.begin(), b.damping_ratio.end());
  s["amplitude_m"] = {b.output_amplitude(0, 0), b.output_amplitude(b.size() - 1, 0)};
  return s;
}

}  // namespace

void WriteBackbones(const std::vector<analysis::Backbone>& backbones, int mode,
                    double linear_frequency_hz, const std::vector<std::string>& outputs,
                    const std::string& title, OutputFolder& folder, nlohmann::json& summary) {
  std::vector<std::string> columns = {"method", "modal_amplitude"};
  for (const std::string& name : outputs) columns.push_back("amp_" + name);
  columns.push_back("frequency_hz");
  columns.push_back("damping_ratio");
  io::CsvWriter csv(folder.File("backbone.csv"), columns);
  nlohmann::json figures = nlohmann::json::array();
  for (const analysis::Backbone& b : backbones) {
    for (int i = 0; i < b.size(); ++i) {
      std::vector<double> row = {b.modal_amplitude[i]};
      for (Eigen::Index o = 0; o < b.output_amplitude.cols(); ++o)
        row.push_back(b.output_amplitude(i, o));
      row.push_back(b.frequency[i]);
      row.push_back(b.damping_ratio[i]);
      csv.Row({b.method}, row);
    }
    figures.push_back(BackboneSummary(b));
  }
  csv.Close();
  for (const bool damping : {false, true})
    WritePlot(backbones, damping, mode, outputs.front(), title, folder);
  summary = {{"mode", mode}, {"linear_frequency_hz", linear_frequency_hz}, {"backbones", figures}};
}

}  // namespace jointdyn::run
